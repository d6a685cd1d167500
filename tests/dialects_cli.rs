//! End-to-end tests of the assembler dialect options as a user runs them:
//! `kempelen asm --ignore-case`, `--overlap later-wins`, `--cpu 65c02`, the symbol file's
//! negative constants, and a 65C02 program assembled, disassembled and run on the emulator's
//! 65C02 core.

mod common;

use common::{output, scratch, scratch_file, succeeds, text};
use std::path::PathBuf;

fn write(name: &str, text: &str) -> PathBuf {
    scratch_file("dialects-cli", name, text)
}

#[test]
fn ignore_case_assembles_what_the_strict_default_refuses() {
    let src = write(
        "case.asm",
        "        *= $1000\n        jsr pout\nPOUT    rts\n",
    );
    let bin = scratch("dialects-cli").join("case.bin");
    let (s, b) = (src.to_str().unwrap(), bin.to_str().unwrap());
    let strict = output(&["asm", s, "--cpu", "6502", "-o", b]);
    assert!(!strict.status.success());
    let err = text(&strict.stderr);
    assert!(
        err.contains("case.asm:2:13: error: undefined symbol 'pout'"),
        "{err}"
    );
    assert!(err.contains("did you mean 'POUT'?"), "{err}");
    assert!(!bin.exists(), "no output after an error");
    let ok = output(&["asm", s, "--cpu", "6502", "--ignore-case", "-o", b]);
    assert!(ok.status.success(), "{}", text(&ok.stderr));
    assert_eq!(std::fs::read(&bin).unwrap(), [0x20, 0x03, 0x10, 0x60]);
}

#[test]
fn overlap_is_an_error_naming_both_lines_or_later_wins_with_a_warning() {
    let src = write(
        "overlap.asm",
        "        org $1000\n        db 1,2,3,4\n        org $1002\n        db $AA,$BB\n",
    );
    let bin = scratch("dialects-cli").join("overlap.bin");
    let (s, b) = (src.to_str().unwrap(), bin.to_str().unwrap());
    let strict = output(&["asm", s, "--cpu", "z80", "-o", b]);
    assert!(!strict.status.success());
    let err = text(&strict.stderr);
    assert!(
        err.contains("overlap.asm:4:12: error: overwrites $1002, which")
            && err.contains("overlap.asm:2 already filled"),
        "{err}"
    );
    let later = output(&["asm", s, "--cpu", "z80", "--overlap", "later-wins", "-o", b]);
    assert!(later.status.success(), "{}", text(&later.stderr));
    assert!(text(&later.stderr).contains("warning: overwrites $1002"));
    assert_eq!(std::fs::read(&bin).unwrap(), [1, 2, 0xAA, 0xBB]);
    let bad = output(&["asm", s, "--cpu", "z80", "--overlap", "sometimes"]);
    assert!(!bad.status.success());
    assert!(text(&bad.stderr).contains("unknown overlap rule 'sometimes'"));
}

#[test]
fn symbol_files_keep_negative_constants_negative() {
    let src = write(
        "neg.asm",
        "DOWN    equ -16\n        org $8000\nstart:  ret\n",
    );
    let sym = scratch("dialects-cli").join("neg.sym");
    succeeds(&[
        "asm",
        src.to_str().unwrap(),
        "--cpu",
        "z80",
        "-o",
        scratch("dialects-cli").join("neg.bin").to_str().unwrap(),
        "--symbols",
        sym.to_str().unwrap(),
    ]);
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
    let src = write("cmos.s", CMOS_PROGRAM);
    let bin = scratch("dialects-cli").join("cmos.bin");
    let (s, b) = (src.to_str().unwrap(), bin.to_str().unwrap());
    let nmos = output(&["asm", s, "--cpu", "6502", "-o", b]);
    assert!(!nmos.status.success());
    let err = text(&nmos.stderr);
    assert!(
        err.contains("'(zp)' without an index is a 65C02 mode"),
        "{err}"
    );
    assert!(err.contains("'BRA' is a 65C02 instruction"), "{err}");

    succeeds(&["asm", s, "--cpu", "65c02", "-o", b]);
    let dis = output(&["disasm", b, "--cpu", "65c02", "--org", "$C000"]);
    assert!(dis.status.success(), "{}", text(&dis.stderr));
    let listing = text(&dis.stdout);
    for line in ["LDA ($10)", "BRA $C00A", "PHX", "PLY", "INC A"] {
        assert!(listing.contains(line), "{line} missing in\n{listing}");
    }

    let run = output(&["run", b, "--cpu", "65c02", "--input", ""]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert_eq!(text(&run.stdout), "65C02\n");
    // The NMOS core refuses the first CMOS opcode ($B2, LDA (zp)) it meets.
    let nmos_run = output(&["run", b, "--cpu", "6502", "--input", ""]);
    assert!(!nmos_run.status.success());
}
