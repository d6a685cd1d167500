//! End-to-end tests of the assembler dialect options as a user runs them:
//! `kempelen asm --ignore-case`, `--overlap later-wins`, `--cpu 65c02`, `--dialect tdl` (with
//! `--paren-closes-bracket`, and `disasm --dialect tdl` assembling back), the symbol file's
//! negative constants, and a 65C02 program assembled, disassembled and run on the emulator's
//! 65C02 core.

mod common;

use common::{arg, asm_refused as refused, assembles, fails_with, scratch, scratch_file, succeeds};
use std::path::PathBuf;

/// Writes `text` to `name` in the scratch folder of these tests: the source and the path of
/// its binary (the name with `.bin`).
fn source(name: &str, text: &str) -> (PathBuf, PathBuf) {
    let src = scratch_file("dialects-cli", name, text);
    let bin = src.with_extension("bin");
    (src, bin)
}

#[test]
fn ignore_case_assembles_what_the_strict_default_refuses() {
    let (src, bin) = source(
        "case.asm",
        "        *= $1000\n        jsr pout\nPOUT    rts\n",
    );
    refused(
        &src,
        "6502",
        &bin,
        &[],
        &[
            "case.asm:2:13: error: undefined symbol 'pout'",
            "did you mean 'POUT'?",
        ],
    );
    assembles(&src, "6502", &bin, &["--ignore-case"]);
    assert_eq!(std::fs::read(&bin).unwrap(), [0x20, 0x03, 0x10, 0x60]);
}

#[test]
fn overlap_is_an_error_naming_both_lines_or_later_wins_with_a_warning() {
    let (src, bin) = source(
        "overlap.asm",
        "        org $1000\n        db 1,2,3,4\n        org $1002\n        db $AA,$BB\n",
    );
    refused(
        &src,
        "z80",
        &bin,
        &[],
        &[
            "overlap.asm:4:12: error: overwrites $1002, which",
            "overlap.asm:2 already filled",
        ],
    );
    let (_, warnings) = assembles(&src, "z80", &bin, &["--overlap", "later-wins"]);
    assert!(warnings.contains("warning: overwrites $1002"));
    assert_eq!(std::fs::read(&bin).unwrap(), [1, 2, 0xAA, 0xBB]);
    fails_with(
        &["asm", arg(&src), "--cpu", "z80", "--overlap", "sometimes"],
        &["unknown overlap rule 'sometimes'"],
    );
}

#[test]
fn symbol_files_keep_negative_constants_negative() {
    let (src, bin) = source(
        "neg.asm",
        "DOWN    equ -16\n        org $8000\nstart:  ret\n",
    );
    let sym = scratch("dialects-cli").join("neg.sym");
    assembles(&src, "z80", &bin, &["--symbols", arg(&sym)]);
    let symbols = std::fs::read_to_string(&sym).unwrap();
    assert!(symbols.contains("DOWN EQU -16 ; constant\n"), "{symbols}");
    assert!(symbols.contains("start EQU $8000\n"), "{symbols}");
}

/// Prints "65C02" through the console with the 65C02's own instructions (PHX/PLY, STZ,
/// BRA, LDA (zp), INC A), then host call "done".
const CMOS_PROGRAM: &str = r#"
CONSOLE = $BF01
HOST    = $BFFF
PTR     = $10
        .org $C000
start:  ldx #<text
        stx PTR
        ldx #>text
        stx PTR+1
        ldy #0
@next:  lda (PTR)
        beq @done
        sta CONSOLE
        inc PTR
        bra @next
@done:  phx
        ply
        lda #$FF
        inc a
        sta HOST
text:   .byte "65C02", 10, 0
"#;

#[test]
fn a_65c02_program_assembles_disassembles_and_runs() {
    let (src, bin) = source("cmos.s", CMOS_PROGRAM);
    refused(
        &src,
        "6502",
        &bin,
        &[],
        &[
            "'(zp)' without an index is a 65C02 mode",
            "'BRA' is a 65C02 instruction",
        ],
    );

    assembles(&src, "65c02", &bin, &[]);
    let b = arg(&bin);
    let (listing, _) = succeeds(&["disasm", b, "--cpu", "65c02", "--org", "$C000"]);
    common::assert_contains(
        "disasm",
        &listing,
        &["LDA ($10)", "BRA $C00A", "PHX", "PLY", "INC A"],
    );

    let (console, _) = succeeds(&["run", b, "--cpu", "65c02", "--input", ""]);
    assert_eq!(console, "65C02\n");
    // The NMOS core refuses the first CMOS opcode ($B2, LDA (zp)) it meets.
    common::fails(&["run", b, "--cpu", "6502", "--input", ""]);
}

/// A program in TDL's syntax (the 1978 Sargon book's): a `.DEFINE` macro whose parameter list
/// ends in a `)` (the book's typo), `.LOC`, `.BLKB`, `.ASCII` with a `[expr]` byte, TDL's
/// mnemonics and indexed operands.
const TDL_PROGRAM: &str = "\
        .DEFINE PRT[NAME,LEN)=
        [RST    7
        .WORD   NAME,LEN]
        .LOC    1000H
START:  LXI     X,TABLE
        MOV     A,1(X)
        INR     M
        JRNZ    START
        PRT     MSG,3
        RET
TABLE:  .BYTE   1,2
BUF:    .BLKB   2
MSG:    .ASCII  \"HI\",[^H83]
";

#[test]
fn tdl_sources_assemble_with_the_dialect_and_disassemble_in_it() {
    let (src, bin) = source("book.asm", TDL_PROGRAM);
    refused(
        &src,
        "z80",
        &bin,
        &[],
        &["'MOV' is an Intel 8080 (or TDL) mnemonic", "--dialect tdl"],
    );
    refused(
        &src,
        "z80",
        &bin,
        &["--dialect", "tdl"],
        &[
            "book.asm:1:21: error: the parameter list of macro 'PRT' opened with '[' (column 12) ends with ')'",
            "--paren-closes-bracket",
        ],
    );
    let sym = scratch("dialects-cli").join("book.sym");
    let tdl = ["--dialect", "tdl", "--paren-closes-bracket"];
    assembles(
        &src,
        "z80",
        &bin,
        &[&tdl[..], &["--symbols", arg(&sym)]].concat(),
    );
    let bytes = std::fs::read(&bin).unwrap();
    assert_eq!(
        bytes,
        [
            0xDD, 0x21, 0x10, 0x10, 0xDD, 0x7E, 0x01, 0x34, 0x20, 0xF6, 0xFF, 0x14, 0x10, 0x03,
            0x00, 0xC9, 1, 2, 0, 0, b'H', b'I', 0x83
        ]
    );
    let (listing, _) = succeeds(&[
        "disasm",
        arg(&bin),
        "--cpu",
        "z80",
        "--org",
        "1000",
        "--symbols",
        arg(&sym),
        "--dialect",
        "tdl",
    ]);
    common::assert_contains(
        "disasm --dialect tdl",
        &listing,
        &[
            ".LOC 1000H",
            "START:",
            "LXI X,1010H",
            "MOV A,01H(X)",
            "INR M",
            "JRNZ START",
            "RST 7",
        ],
    );
    let (again, again_bin) = source("book-again.asm", &listing);
    assembles(&again, "z80", &again_bin, &tdl[..2]);
    assert_eq!(std::fs::read(&again_bin).unwrap(), bytes);
    fails_with(
        &["asm", arg(&src), "--cpu", "6502", "--dialect", "tdl"],
        &["the TDL dialect is a Z80 syntax"],
    );
}
