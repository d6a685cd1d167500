//! TDL's spelling of the Z80 table: the mnemonics and operand forms of Technical Design Labs'
//! Z80 assembler (Neil J. Colvin, "TDL Z80 Relocating/Linking Assembler User's Manual", 1977),
//! in which Dan and Kathe Spracklen published Sargon (1978). TDL kept Intel's 8080 mnemonics
//! (`MOV`, `MVI`, `LXI`, `JNZ` ...) and named the Z80's additions in the same style (`JMPR`,
//! `JRZ`, `LIXD`, `EXAF`, `DADX` ...).
//!
//! This is a spelling, not a second instruction table: each line of [`SPELLINGS`] maps a TDL
//! form onto the Zilog form of the one Z80 table ([`crate::z80`]), which alone knows opcodes,
//! lengths and cycles. The assembler reads a TDL line through it into a Zilog instruction; the
//! disassembler and the tracer print a decoded row in TDL through it ([`spell`]).
//!
//! TDL's operands: 8-bit registers `B C D E H L A`, `M` for `(HL)`, `d(X)` and `d(Y)` for
//! `(IX+d)` and `(IY+d)`; register pairs `B` (`BC`), `D` (`DE`), `H` (`HL`), `SP`, `X` (`IX`),
//! `Y` (`IY`), and `PSW` (`AF`) for `PUSH`/`POP`; `RST` takes the restart number 0-7 (the
//! address divided by 8).

use std::sync::OnceLock;

use crate::disasm::Decoded;
use crate::hash::FastMap as HashMap;
use crate::row::{Form, Instr};
use crate::symbols::SymbolTable;
use crate::z80::{Kw, Operand, Value, values};

/// The spelling table: a TDL form and the Zilog form it stands for. In the templates, `r` and
/// `s` are 8-bit operands (TDL `B`...`A`, `M`, `d(X)`, `d(Y)`), `rr` a register pair, `qq` a
/// `PUSH`/`POP` pair, `n` a byte, `nn` a word, `e` a relative jump's target, `b` a bit number
/// and `t` a restart number (the Zilog side's `t` is eight times TDL's). Anything else is
/// written as is. Where two TDL spellings give one Zilog form, the first is the one the
/// disassembler prints (`JPE` rather than `JO`).
pub const SPELLINGS: &[(&str, &str)] = &[
    // The 8080's instructions, in Intel's spelling.
    ("MOV r,s", "LD r,s"),
    ("MVI r,n", "LD r,n"),
    ("LXI rr,nn", "LD rr,nn"),
    ("LDA nn", "LD A,(nn)"),
    ("STA nn", "LD (nn),A"),
    ("LHLD nn", "LD HL,(nn)"),
    ("SHLD nn", "LD (nn),HL"),
    ("LDAX B", "LD A,(BC)"),
    ("LDAX D", "LD A,(DE)"),
    ("STAX B", "LD (BC),A"),
    ("STAX D", "LD (DE),A"),
    ("XCHG", "EX DE,HL"),
    ("XTHL", "EX (SP),HL"),
    ("SPHL", "LD SP,HL"),
    ("PCHL", "JP (HL)"),
    ("ADD r", "ADD A,r"),
    ("ADC r", "ADC A,r"),
    ("SUB r", "SUB r"),
    ("SBB r", "SBC A,r"),
    ("ANA r", "AND r"),
    ("XRA r", "XOR r"),
    ("ORA r", "OR r"),
    ("CMP r", "CP r"),
    ("ADI n", "ADD A,n"),
    ("ACI n", "ADC A,n"),
    ("SUI n", "SUB n"),
    ("SBI n", "SBC A,n"),
    ("ANI n", "AND n"),
    ("XRI n", "XOR n"),
    ("ORI n", "OR n"),
    ("CPI n", "CP n"),
    ("INR r", "INC r"),
    ("DCR r", "DEC r"),
    ("INX rr", "INC rr"),
    ("DCX rr", "DEC rr"),
    ("DAD rr", "ADD HL,rr"),
    ("RLC", "RLCA"),
    ("RRC", "RRCA"),
    ("RAL", "RLA"),
    ("RAR", "RRA"),
    ("DAA", "DAA"),
    ("CMA", "CPL"),
    ("STC", "SCF"),
    ("CMC", "CCF"),
    ("NOP", "NOP"),
    ("HLT", "HALT"),
    ("DI", "DI"),
    ("EI", "EI"),
    ("JMP nn", "JP nn"),
    ("JNZ nn", "JP NZ,nn"),
    ("JZ nn", "JP Z,nn"),
    ("JNC nn", "JP NC,nn"),
    ("JC nn", "JP C,nn"),
    ("JPO nn", "JP PO,nn"),
    ("JPE nn", "JP PE,nn"),
    ("JP nn", "JP P,nn"),
    ("JM nn", "JP M,nn"),
    ("CALL nn", "CALL nn"),
    ("CNZ nn", "CALL NZ,nn"),
    ("CZ nn", "CALL Z,nn"),
    ("CNC nn", "CALL NC,nn"),
    ("CC nn", "CALL C,nn"),
    ("CPO nn", "CALL PO,nn"),
    ("CPE nn", "CALL PE,nn"),
    ("CP nn", "CALL P,nn"),
    ("CM nn", "CALL M,nn"),
    ("RET", "RET"),
    ("RNZ", "RET NZ"),
    ("RZ", "RET Z"),
    ("RNC", "RET NC"),
    ("RC", "RET C"),
    ("RPO", "RET PO"),
    ("RPE", "RET PE"),
    ("RP", "RET P"),
    ("RM", "RET M"),
    ("RST t", "RST t"),
    ("PUSH qq", "PUSH qq"),
    ("POP qq", "POP qq"),
    ("IN n", "IN A,(n)"),
    ("OUT n", "OUT (n),A"),
    // The overflow flag's names for the parity conditions.
    ("JO nn", "JP PE,nn"),
    ("JNO nn", "JP PO,nn"),
    ("CO nn", "CALL PE,nn"),
    ("CNO nn", "CALL PO,nn"),
    ("RO", "RET PE"),
    ("RNO", "RET PO"),
    // TDL's names for the Z80's additions.
    ("EXAF", "EX AF,AF'"),
    ("EXX", "EXX"),
    ("JMPR e", "JR e"),
    ("JRNZ e", "JR NZ,e"),
    ("JRZ e", "JR Z,e"),
    ("JRNC e", "JR NC,e"),
    ("JRC e", "JR C,e"),
    ("DJNZ e", "DJNZ e"),
    ("LBCD nn", "LD BC,(nn)"),
    ("LDED nn", "LD DE,(nn)"),
    ("LSPD nn", "LD SP,(nn)"),
    ("LIXD nn", "LD IX,(nn)"),
    ("LIYD nn", "LD IY,(nn)"),
    ("SBCD nn", "LD (nn),BC"),
    ("SDED nn", "LD (nn),DE"),
    ("SSPD nn", "LD (nn),SP"),
    ("SIXD nn", "LD (nn),IX"),
    ("SIYD nn", "LD (nn),IY"),
    ("DADC rr", "ADC HL,rr"),
    ("DSBC rr", "SBC HL,rr"),
    ("DADX rr", "ADD IX,rr"),
    ("DADY rr", "ADD IY,rr"),
    ("PCIX", "JP (IX)"),
    ("PCIY", "JP (IY)"),
    ("SPIX", "LD SP,IX"),
    ("SPIY", "LD SP,IY"),
    ("XTIX", "EX (SP),IX"),
    ("XTIY", "EX (SP),IY"),
    ("LDAI", "LD A,I"),
    ("LDAR", "LD A,R"),
    ("STAI", "LD I,A"),
    ("STAR", "LD R,A"),
    ("LDI", "LDI"),
    ("LDIR", "LDIR"),
    ("LDD", "LDD"),
    ("LDDR", "LDDR"),
    ("CCI", "CPI"),
    ("CCIR", "CPIR"),
    ("CCD", "CPD"),
    ("CCDR", "CPDR"),
    ("INI", "INI"),
    ("INIR", "INIR"),
    ("IND", "IND"),
    ("INDR", "INDR"),
    ("OUTI", "OUTI"),
    ("OUTIR", "OTIR"),
    ("OUTD", "OUTD"),
    ("OUTDR", "OTDR"),
    ("INP r", "IN r,(C)"),
    ("OUTP r", "OUT (C),r"),
    ("NEG", "NEG"),
    ("RETI", "RETI"),
    ("RETN", "RETN"),
    ("RLD", "RLD"),
    ("RRD", "RRD"),
    ("IM0", "IM 0"),
    ("IM1", "IM 1"),
    ("IM2", "IM 2"),
    ("RLCR r", "RLC r"),
    ("RRCR r", "RRC r"),
    ("RALR r", "RL r"),
    ("RARR r", "RR r"),
    ("SLAR r", "SLA r"),
    ("SRAR r", "SRA r"),
    ("SRLR r", "SRL r"),
    ("BIT b,r", "BIT b,r"),
    ("SET b,r", "SET b,r"),
    ("RES b,r", "RES b,r"),
];

/// What a TDL operand position takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// A register name written as is (the `B` of `LDAX B`).
    Literal(&'static str),
    /// An 8-bit operand: `B C D E H L A`, `M`, `d(X)`, `d(Y)`.
    Reg8,
    /// A register pair: `B D H SP X Y`.
    Pair,
    /// A `PUSH`/`POP` pair: `B D H PSW X Y`.
    PushPair,
    /// A value.
    Value(ValueKind),
}

/// The kinds of value a TDL operand can be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// `n`: a byte.
    Byte,
    /// `nn`: a word (an address or a 16-bit immediate).
    Word,
    /// `e`: a relative jump's target.
    Target,
    /// `b`: a bit number.
    Bit,
    /// `t`: a restart number, 0-7.
    Restart,
}

/// What one operand of the Zilog form is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The same in every use: `A` of `LDA`, `(BC)` of `LDAX B`.
    Fixed(Operand),
    /// The TDL operand at this index, in its class (`r`, `rr`, `qq`) or as a value.
    From(usize),
    /// The TDL value at this index in parentheses: memory `(nn)` or a port `(n)`.
    Pointer(usize),
    /// The TDL restart number at this index, times 8.
    Restart(usize),
}

/// One TDL form and the Zilog form it stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TdlForm {
    /// The TDL mnemonic.
    pub mnemonic: &'static str,
    /// Its operands.
    pub slots: Vec<Slot>,
    /// The Zilog mnemonic.
    pub zilog: &'static str,
    /// The Zilog form's operands.
    pub parts: Vec<Part>,
    /// The TDL template as written in [`SPELLINGS`] (`MOV r,s`), for messages.
    pub template: &'static str,
}

struct Spelling {
    forms: Vec<TdlForm>,
    by_mnemonic: HashMap<&'static str, Vec<usize>>,
}

fn split(template: &'static str) -> (&'static str, Vec<&'static str>) {
    match template.split_once(' ') {
        Some((m, ops)) => (m, ops.split(',').collect()),
        None => (template, Vec::new()),
    }
}

fn slot(token: &'static str) -> Slot {
    match token {
        "r" | "s" => Slot::Reg8,
        "rr" => Slot::Pair,
        "qq" => Slot::PushPair,
        "n" => Slot::Value(ValueKind::Byte),
        "nn" => Slot::Value(ValueKind::Word),
        "e" => Slot::Value(ValueKind::Target),
        "b" => Slot::Value(ValueKind::Bit),
        "t" => Slot::Value(ValueKind::Restart),
        other => Slot::Literal(other),
    }
}

fn part(token: &str, tdl: &[&str], line: &str) -> Part {
    let index = |t: &str| tdl.iter().position(|x| *x == t);
    if let Some(i) = index(token) {
        return if token == "t" {
            Part::Restart(i)
        } else {
            Part::From(i)
        };
    }
    if let Some(i) = token
        .strip_prefix('(')
        .and_then(|t| t.strip_suffix(')'))
        .and_then(index)
    {
        return Part::Pointer(i);
    }
    Part::Fixed(
        Operand::parse_pattern(token)
            .unwrap_or_else(|| panic!("bad Zilog operand {token:?} in {line:?}")),
    )
}

fn build() -> Spelling {
    let mut forms = Vec::with_capacity(SPELLINGS.len());
    let mut by_mnemonic: HashMap<&'static str, Vec<usize>> = HashMap::default();
    for &(tdl, zilog) in SPELLINGS {
        let (mnemonic, tdl_ops) = split(tdl);
        let (zilog_mnemonic, zilog_ops) = split(zilog);
        let parts = zilog_ops.iter().map(|t| part(t, &tdl_ops, tdl)).collect();
        by_mnemonic.entry(mnemonic).or_default().push(forms.len());
        forms.push(TdlForm {
            mnemonic,
            slots: tdl_ops.into_iter().map(slot).collect(),
            zilog: zilog_mnemonic,
            parts,
            template: tdl,
        });
    }
    Spelling { forms, by_mnemonic }
}

fn spelling() -> &'static Spelling {
    static SPELLING: OnceLock<Spelling> = OnceLock::new();
    SPELLING.get_or_init(build)
}

/// Every TDL form, in the order of [`SPELLINGS`].
pub fn forms() -> &'static [TdlForm] {
    &spelling().forms
}

/// The forms of a TDL mnemonic (any case); empty if it is not one.
pub fn forms_of(mnemonic: &str) -> impl Iterator<Item = &'static TdlForm> {
    let s = spelling();
    let upper = mnemonic.to_ascii_uppercase();
    s.by_mnemonic
        .get(upper.as_str())
        .into_iter()
        .flatten()
        .map(move |&i| &s.forms[i])
}

/// Whether `name` (any case) is a TDL mnemonic.
pub fn is_mnemonic(name: &str) -> bool {
    crate::with_upper(name, |upper| spelling().by_mnemonic.contains_key(upper))
}

/// All TDL mnemonics, sorted.
pub fn mnemonics() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = spelling().by_mnemonic.keys().copied().collect();
    names.sort_unstable();
    names
}

/// The TDL mnemonics that spell instructions of the Zilog mnemonic `zilog` (`LD`: `MOV`,
/// `MVI`, `LXI` ...), in table order.
pub fn spellings_of(zilog: &str) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for f in forms() {
        if f.zilog.eq_ignore_ascii_case(zilog) && !names.contains(&f.mnemonic) {
            names.push(f.mnemonic);
        }
    }
    names
}

/// TDL's register names (any case): they cannot be symbols.
pub fn is_register(name: &str) -> bool {
    [
        "A", "B", "C", "D", "E", "H", "L", "M", "SP", "PSW", "X", "Y",
    ]
    .iter()
    .any(|r| r.eq_ignore_ascii_case(name))
}

/// The Zilog operand an 8-bit TDL register name stands for (`B` -> `B`, `M` -> `(HL)`).
pub fn reg8(name: &str) -> Option<Operand> {
    let upper = name.to_ascii_uppercase();
    match upper.as_str() {
        "M" => Some(Operand::Ind(Kw::HL)),
        "B" | "C" | "D" | "E" | "H" | "L" | "A" => Kw::parse(&upper).map(Operand::Word),
        _ => None,
    }
}

/// The Zilog pair a TDL pair name stands for (`B` -> `BC`, `X` -> `IX`); `PSW` (`AF`) only for
/// `PUSH` and `POP` (`push`), `SP` only elsewhere.
pub fn pair(name: &str, push: bool) -> Option<Kw> {
    match name.to_ascii_uppercase().as_str() {
        "B" => Some(Kw::BC),
        "D" => Some(Kw::DE),
        "H" => Some(Kw::HL),
        "X" => Some(Kw::IX),
        "Y" => Some(Kw::IY),
        "SP" if !push => Some(Kw::SP),
        "PSW" if push => Some(Kw::AF),
        _ => None,
    }
}

/// The index register a TDL `d(X)` / `d(Y)` names.
pub fn index_register(name: &str) -> Option<Kw> {
    match name.to_ascii_uppercase().as_str() {
        "X" => Some(Kw::IX),
        "Y" => Some(Kw::IY),
        _ => None,
    }
}

/// TDL's name of a Zilog pair (`IX` -> `X`).
fn pair_name(kw: Kw) -> Option<&'static str> {
    Some(match kw {
        Kw::BC => "B",
        Kw::DE => "D",
        Kw::HL => "H",
        Kw::SP => "SP",
        Kw::AF => "PSW",
        Kw::IX => "X",
        Kw::IY => "Y",
        _ => return None,
    })
}

/// A number as TDL writes it in any radix: hex with an `H` and a leading `0` before a letter
/// (`0C001H`, `12H`).
pub fn hex(value: u16, digits: usize) -> String {
    let text = format!("{value:0digits$X}");
    if text.starts_with(|c: char| c.is_ascii_alphabetic()) {
        format!("0{text}H")
    } else {
        format!("{text}H")
    }
}

fn name_or_hex(value: u16, symbols: Option<&SymbolTable>) -> String {
    match symbols.and_then(|s| s.name_at(value)) {
        Some(name) => name.to_string(),
        None => hex(value, 4),
    }
}

/// The TDL text of one operand slot bound to a decoded value, if the value fits the slot.
fn slot_text(
    slot: Slot,
    value: Value,
    zilog: &str,
    symbols: Option<&SymbolTable>,
) -> Option<String> {
    let jump = matches!(zilog, "JP" | "CALL");
    Some(match (slot, value) {
        (Slot::Reg8, Value::Word(kw)) => {
            let name = kw.name();
            reg8(name)?;
            name.to_string()
        }
        (Slot::Reg8, Value::Ind(Kw::HL)) => "M".to_string(),
        (Slot::Reg8, Value::Indexed(kw, d)) => {
            let reg = if kw == Kw::IX { "X" } else { "Y" };
            match d {
                0 => format!("0({reg})"),
                d if d < 0 => format!("-{}({reg})", hex(u16::from(d.unsigned_abs()), 2)),
                d => format!("{}({reg})", hex(d as u16, 2)),
            }
        }
        (Slot::Pair, Value::Word(kw)) if kw != Kw::AF => pair_name(kw)?.to_string(),
        (Slot::PushPair, Value::Word(kw)) if kw != Kw::SP => pair_name(kw)?.to_string(),
        (Slot::Value(ValueKind::Bit), Value::Fixed(b)) => b.to_string(),
        (Slot::Value(ValueKind::Restart), Value::Fixed(p)) => (p / 8).to_string(),
        (Slot::Value(ValueKind::Byte), Value::Imm8(b) | Value::Port(b)) => hex(u16::from(b), 2),
        (Slot::Value(ValueKind::Word), Value::Mem(a)) => name_or_hex(a, symbols),
        (Slot::Value(ValueKind::Word), Value::Imm16(a)) if jump => name_or_hex(a, symbols),
        (Slot::Value(ValueKind::Word), Value::Imm16(a)) => hex(a, 4),
        (Slot::Value(ValueKind::Target), Value::Rel(a)) => name_or_hex(a, symbols),
        _ => return None,
    })
}

/// Whether the Zilog row operand `op` (with its decoded `value`) is what `part` makes, and
/// the TDL operand it binds.
fn bind(part: Part, op: Operand, value: Value) -> Option<Option<(usize, Value)>> {
    match part {
        Part::Fixed(fixed) => (fixed == op).then_some(None),
        Part::From(i) | Part::Pointer(i) | Part::Restart(i) => Some(Some((i, value))),
    }
}

/// The TDL text of a decoded Zilog row (`MOV A,M`, `LIXD MLPTRJ`, `BIT 7,-05H(X)`), naming
/// jump and call targets and memory operands from `symbols`; `None` for a row no TDL form
/// spells (there is none: every documented instruction has one).
pub fn spell(instr: &Instr, values: &[Value], symbols: Option<&SymbolTable>) -> Option<String> {
    let Form::Z80(ops) = &instr.form else {
        return None;
    };
    'forms: for form in forms().iter().filter(|f| f.zilog == instr.mnemonic) {
        if form.parts.len() != ops.len() {
            continue;
        }
        let mut texts: Vec<Option<String>> = vec![None; form.slots.len()];
        for ((part, op), value) in form.parts.iter().zip(ops).zip(values) {
            let Some(bound) = bind(*part, *op, *value) else {
                continue 'forms;
            };
            if let Some((i, value)) = bound {
                let kind_fits = match (part, form.slots[i], op) {
                    (Part::Pointer(_), _, Operand::Mem | Operand::Port) => true,
                    (Part::Pointer(_), _, _) => false,
                    (_, _, Operand::Mem | Operand::Port) => false,
                    _ => true,
                };
                let Some(text) =
                    slot_text(form.slots[i], value, form.zilog, symbols).filter(|_| kind_fits)
                else {
                    continue 'forms;
                };
                texts[i] = Some(text);
            }
        }
        let operands: Vec<String> = form
            .slots
            .iter()
            .zip(texts)
            .map(|(slot, text)| match (slot, text) {
                (_, Some(t)) => t,
                (Slot::Literal(l), None) => l.to_string(),
                (_, None) => String::new(),
            })
            .collect();
        return Some(if operands.is_empty() {
            form.mnemonic.to_string()
        } else {
            format!("{} {}", form.mnemonic, operands.join(","))
        });
    }
    None
}

/// A decoded instruction in TDL's spelling: `MOV A,M`, and bytes that start no documented
/// instruction as `.BYTE 0CBH,30H`. Jump and call targets and memory operands are named from
/// `symbols`.
pub fn text(d: &Decoded, symbols: Option<&SymbolTable>) -> String {
    if let Some(instr) = d.instr
        && let Some(text) = spell(instr, &values(instr, d.bytes(), d.addr), symbols)
    {
        return text;
    }
    let bytes: Vec<String> = d.bytes().iter().map(|&b| hex(b.into(), 2)).collect();
    format!(".BYTE {}", bytes.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Cpu;

    /// Every documented Z80 instruction has a TDL spelling, and the TDL forms name only
    /// Zilog mnemonics of the table.
    #[test]
    fn every_row_has_a_tdl_spelling() {
        for f in forms() {
            assert!(
                crate::is_mnemonic(Cpu::Z80, f.zilog),
                "{} stands for {}",
                f.template,
                f.zilog
            );
        }
        for instr in crate::instructions(Cpu::Z80) {
            let bytes = [instr.prefix, &[instr.opcode][..], &[0, 0, 0, 0]].concat();
            let mut window = bytes.clone();
            if instr.prefix.len() == 2 {
                // DD CB d op: the displacement before the opcode.
                window = vec![instr.prefix[0], instr.prefix[1], 0, instr.opcode];
            }
            let values = crate::z80::values(instr, &window, 0x100);
            assert!(
                spell(instr, &values, None).is_some(),
                "{} has no TDL spelling",
                instr.syntax()
            );
        }
    }

    #[test]
    fn spellings() {
        let d = crate::decode(Cpu::Z80, &[0xDD, 0x7E, 0xFB], 0).unwrap();
        let values = crate::z80::values(d.instr.unwrap(), d.bytes(), 0);
        assert_eq!(
            spell(d.instr.unwrap(), &values, None).as_deref(),
            Some("MOV A,-05H(X)")
        );
        let d = crate::decode(Cpu::Z80, &[0xFF], 0).unwrap();
        let values = crate::z80::values(d.instr.unwrap(), d.bytes(), 0);
        assert_eq!(
            spell(d.instr.unwrap(), &values, None).as_deref(),
            Some("RST 7")
        );
        assert_eq!(spellings_of("LD")[..3], ["MOV", "MVI", "LXI"]);
        assert_eq!(hex(0xC001, 4), "0C001H");
        assert_eq!(hex(0x12, 2), "12H");
    }
}
