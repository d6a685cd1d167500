//! End-to-end tests of the assembler dialect options as a user runs them:
//! `kempelen asm --ignore-case`, `--overlap later-wins`, `--cpu 65c02`, the symbol file's
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
