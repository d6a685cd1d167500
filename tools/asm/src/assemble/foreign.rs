//! Other assemblers' spellings that Kempelen does not take, and what to write instead: the
//! Intel 8080 mnemonics and TDL's Z80 extensions of them (the syntax of the 1978 Sargon
//! listing), and the directives of other assemblers. Used only for the notes of "unknown
//! mnemonic" errors.

/// Intel 8080 mnemonics (and TDL's Z80 mnemonics in 8080 style) that are not Zilog
/// mnemonics, with the Zilog spelling of the same instruction.
const INTEL_8080: &[(&str, &str)] = &[
    ("MOV", "LD r,r'"),
    ("MVI", "LD r,n"),
    ("LXI", "LD rr,nn"),
    ("LDA", "LD A,(nn)"),
    ("STA", "LD (nn),A"),
    ("LHLD", "LD HL,(nn)"),
    ("SHLD", "LD (nn),HL"),
    ("LDAX", "LD A,(BC) / LD A,(DE)"),
    ("STAX", "LD (BC),A / LD (DE),A"),
    ("XCHG", "EX DE,HL"),
    ("XTHL", "EX (SP),HL"),
    ("SPHL", "LD SP,HL"),
    ("PCHL", "JP (HL)"),
    ("ADI", "ADD A,n"),
    ("ACI", "ADC A,n"),
    ("SUI", "SUB n"),
    ("SBI", "SBC A,n"),
    ("ANA", "AND r"),
    ("ANI", "AND n"),
    ("XRA", "XOR r"),
    ("XRI", "XOR n"),
    ("ORA", "OR r"),
    ("ORI", "OR n"),
    ("CMP", "CP r"),
    ("INR", "INC r"),
    ("DCR", "DEC r"),
    ("INX", "INC rr"),
    ("DCX", "DEC rr"),
    ("DAD", "ADD HL,rr"),
    ("RAL", "RLA"),
    ("RAR", "RRA"),
    ("CMA", "CPL"),
    ("CMC", "CCF"),
    ("STC", "SCF"),
    ("HLT", "HALT"),
    ("JMP", "JP nn"),
    ("JNZ", "JP NZ,nn"),
    ("JZ", "JP Z,nn"),
    ("JNC", "JP NC,nn"),
    ("JC", "JP C,nn"),
    ("JPO", "JP PO,nn"),
    ("JPE", "JP PE,nn"),
    ("JM", "JP M,nn"),
    ("CNZ", "CALL NZ,nn"),
    ("CZ", "CALL Z,nn"),
    ("CNC", "CALL NC,nn"),
    ("CC", "CALL C,nn"),
    ("CPO", "CALL PO,nn"),
    ("CPE", "CALL PE,nn"),
    ("CM", "CALL M,nn"),
    ("RNZ", "RET NZ"),
    ("RZ", "RET Z"),
    ("RNC", "RET NC"),
    ("RC", "RET C"),
    ("RPO", "RET PO"),
    ("RPE", "RET PE"),
    ("RM", "RET M"),
    // TDL's Z80 extensions in 8080 style.
    ("JMPR", "JR e"),
    ("JRZ", "JR Z,e"),
    ("JRNZ", "JR NZ,e"),
    ("JRC", "JR C,e"),
    ("JRNC", "JR NC,e"),
    ("EXAF", "EX AF,AF'"),
    ("LBCD", "LD BC,(nn)"),
    ("LDED", "LD DE,(nn)"),
    ("LSPD", "LD SP,(nn)"),
    ("LIXD", "LD IX,(nn)"),
    ("LIYD", "LD IY,(nn)"),
    ("SBCD", "LD (nn),BC"),
    ("SDED", "LD (nn),DE"),
    ("SSPD", "LD (nn),SP"),
    ("SIXD", "LD (nn),IX"),
    ("SIYD", "LD (nn),IY"),
    ("PCIX", "JP (IX)"),
    ("PCIY", "JP (IY)"),
    ("SPIX", "LD SP,IX"),
    ("SPIY", "LD SP,IY"),
    ("XTIX", "EX (SP),IX"),
    ("XTIY", "EX (SP),IY"),
    ("DADX", "ADD IX,rr"),
    ("DADY", "ADD IY,rr"),
    ("DADC", "ADC HL,rr"),
    ("DSBC", "SBC HL,rr"),
    ("CCI", "CPI"),
    ("CCIR", "CPIR"),
    ("CCD", "CPD"),
    ("CCDR", "CPDR"),
    ("OUTIR", "OTIR"),
    ("OUTDR", "OTDR"),
    ("RALR", "RL r"),
    ("RARR", "RR r"),
    ("RLCR", "RLC r"),
    ("RRCR", "RRC r"),
    ("SLAR", "SLA r"),
    ("SRAR", "SRA r"),
    ("SRLR", "SRL r"),
    ("SETB", "SET b,r"),
    ("IM0", "IM 0"),
    ("IM1", "IM 1"),
    ("IM2", "IM 2"),
    ("LDAI", "LD A,I"),
    ("LDAR", "LD A,R"),
    ("STAI", "LD I,A"),
    ("STAR", "LD R,A"),
];

/// The Zilog spelling of an 8080 or TDL mnemonic (any case).
pub(crate) fn intel_8080(name: &str) -> Option<&'static str> {
    INTEL_8080
        .iter()
        .find(|(m, _)| m.eq_ignore_ascii_case(name))
        .map(|&(_, zilog)| zilog)
}

/// Directives of other assemblers that Kempelen refuses, with what to write instead.
const OTHER_DIRECTIVES: &[(&str, &str)] = &[
    (
        ".LOC",
        "TDL's location counter: write ORG (or assemble the TDL source with --dialect tdl)",
    ),
    (
        ".BLKB",
        "TDL's block of bytes: write DS (or assemble the TDL source with --dialect tdl)",
    ),
    (
        ".BLKW",
        "TDL's block of words: write DS 2*n (or assemble the TDL source with --dialect tdl)",
    ),
    (
        ".DEFINE",
        "TDL's macro definition: write NAME MACRO params ... ENDM (or assemble the TDL source with --dialect tdl)",
    ),
    (
        ".ASCII",
        "write DB \"text\" (or assemble a TDL source with --dialect tdl)",
    ),
    (".BYTE", "write DB or .BYTE"),
    (".WORD", "write DW or .WORD"),
    (
        ".CODE",
        "a ca65 segment: Kempelen has no linker segments; use ORG",
    ),
    (
        ".DATA",
        "a ca65 segment: Kempelen has no linker segments; use ORG",
    ),
    (
        ".BSS",
        "a ca65 segment: Kempelen has no linker segments; use ORG",
    ),
    (
        ".RODATA",
        "a ca65 segment: Kempelen has no linker segments; use ORG",
    ),
    (
        ".ZEROPAGE",
        "a ca65 segment: Kempelen has no linker segments; use ORG",
    ),
    (
        ".PROC",
        "ca65 scopes are not supported: use a global label and '@' local labels",
    ),
    (
        ".ENDPROC",
        "ca65 scopes are not supported: use a global label and '@' local labels",
    ),
    (
        ".SCOPE",
        "ca65 scopes are not supported: use a global label and '@' local labels",
    ),
    (".MACPACK", "ca65 macro packages are not supported"),
    (".TITLE", "a listing title: Kempelen's listing has none"),
];

/// The pseudo-operations of TDL's Z80 assembler (version 2.21's keyword table, as TPZASM lists
/// it; names beyond six characters in full), for the note of one the TDL dialect does not take.
const TDL_PSEUDO_OPS: &[&str] = &[
    ".BLNK.", ".DATA.", ".DATE", ".ENTRY", ".ERROR", ".EXIT", ".EXTERN", ".I8080", ".IDENT",
    ".IF1", ".IF2", ".IFB", ".IFDEF", ".IFDIF", ".IFE", ".IFG", ".IFGE", ".IFIDN", ".IFL", ".IFLE",
    ".IFN", ".IFNB", ".IFNDEF", ".INTERN", ".LADDR", ".LALL", ".LCTL", ".LIMAGE", ".LINK", ".LIST",
    ".LSYM", ".MASYN", ".OPSYN", ".PABS", ".PBIN", ".PHEX", ".PREL", ".PRGEN", ".PRNTX", ".PROG.",
    ".PSYM", ".RAD40", ".RELOC", ".REMARK", ".RLIST", ".SALL", ".SLIST", ".SYN", ".SYSYN", ".TIME",
    ".XADDR", ".XALL", ".XCTL", ".XIMAGE", ".XLINK", ".XLIST", ".XPSYM", ".XSYM", ".Z80",
];

/// The pseudo-operations the TDL dialect takes, for that note.
pub(crate) const TDL_TAKEN: &str = ".LOC, .BLKB, .BLKW, .BYTE, .WORD, .ASCII, .ASCIZ, .ASCIS, .RADIX, .DEFINE, .INSERT, .END, .PAGE, .TITLE, .SBTTL";

/// Whether `name` (any case) is one of TDL's pseudo-operations.
pub(crate) fn is_tdl_pseudo_op(name: &str) -> bool {
    TDL_PSEUDO_OPS.iter().any(|p| p.eq_ignore_ascii_case(name))
}

/// What to write instead of another assembler's directive, if it is a known one.
pub(crate) fn other_directive(name: &str) -> Option<&'static str> {
    let dotted = if name.starts_with('.') {
        name.to_string()
    } else {
        format!(".{name}")
    };
    OTHER_DIRECTIVES
        .iter()
        .find(|(d, _)| d.eq_ignore_ascii_case(&dotted))
        .map(|&(_, hint)| hint)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Cpu, isa};

    #[test]
    fn no_entry_is_a_zilog_mnemonic() {
        // Names both have (8080 CPI "compare immediate" is Zilog CPI "compare and increment")
        // are assembled as Zilog and never reach the note.
        for (m, _) in INTEL_8080 {
            assert!(!isa::is_mnemonic(Cpu::Z80, m), "{m} is a Zilog mnemonic");
        }
        assert_eq!(intel_8080("lxi"), Some("LD rr,nn"));
        assert!(other_directive(".loc").is_some_and(|h| h.starts_with("TDL's location counter")));
        assert!(other_directive("blkb").is_some_and(|h| h.contains("--dialect tdl")));
        assert!(is_tdl_pseudo_op(".ife") && !is_tdl_pseudo_op(".loc"));
    }
}
