//! End-to-end tests of `kempelen asm` and `kempelen disasm` as a user runs them: outputs on
//! success, diagnostics and exit status on errors, and disassembly that assembles back.

mod common;

use common::{Scratch, arg, assembles, succeeds};
use std::path::PathBuf;

/// A scratch directory unique to this test process and `test`, with the source `name` written
/// into it: the directory and the source's path.
fn source(test: &str, name: &str, text: &str) -> (Scratch, PathBuf) {
    let dir = Scratch::new(&format!("asm-cli-{test}"));
    let src = dir.file(name, text);
    (dir, src)
}

const Z80_PROGRAM: &str = "\
PORT:   equ 1
        org $8000
start:  ld hl,text
@next:  ld a,(hl)
        or a
        ret z
        out (PORT),a
        inc hl
        jr @next
text:   db \"Hi\",0
";

#[test]
fn asm_writes_binary_listing_and_symbols() {
    let (dir, src) = source("outputs", "hello.asm", Z80_PROGRAM);
    let (bin, lst, sym) = (
        dir.join("hello.bin"),
        dir.join("hello.lst"),
        dir.join("hello.sym"),
    );
    assembles(
        &src,
        "z80",
        &bin,
        &["--listing", arg(&lst), "--symbols", arg(&sym)],
    );
    assert_eq!(
        std::fs::read(&bin).unwrap(),
        [
            0x21, 0x0B, 0x80, 0x7E, 0xB7, 0xC8, 0xD3, 0x01, 0x23, 0x18, 0xF8, b'H', b'i', 0
        ]
    );
    let listing = std::fs::read_to_string(&lst).unwrap();
    let squeezed: Vec<String> = listing
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    common::assert_lines(
        "the listing",
        &squeezed,
        &["9 8009 18 F8 12 jr @next", "6 8005 C8 5/11 ret z"],
    );
    let symbols =
        kempelen_asm::SymbolTable::parse(&std::fs::read_to_string(&sym).unwrap()).unwrap();
    assert_eq!(symbols.get("start"), Some(0x8000));
    assert_eq!(symbols.get("start@next"), Some(0x8003));
    assert_eq!(symbols.get("PORT"), Some(1));
    assert_eq!(symbols.containing(0x8004), Some(("start", 4)));
}

#[test]
fn asm_reports_every_error_and_writes_nothing() {
    let text = "        ld a,300\n        ldx b\n        jp nowhere\n";
    let (dir, src) = source("errors", "bad.asm", text);
    common::asm_refused(
        &src,
        "z80",
        &dir.join("bad.bin"),
        &[],
        &[
            "bad.asm:1:14: error: value 300 does not fit in a byte",
            "bad.asm:2:9: error: unknown mnemonic 'ldx'",
            "did you mean 'LD'?",
            "bad.asm:3:12: error: undefined symbol 'nowhere'",
            // The caret under 'nowhere'.
            "   |            ^^^^^^^",
            "3 errors",
        ],
    );
}

#[test]
fn asm_refuses_an_unknown_cpu_and_a_missing_file() {
    common::refusals(&[
        ("asm x.asm --cpu 8080", "expected 'z80', '6502' or '65c02'"),
        (
            "asm /nonexistent/x.asm --cpu z80",
            "source file '/nonexistent/x.asm' not found",
        ),
    ]);
}

/// Assembles `program`, disassembles the binary (with the symbol file) and assembles the
/// disassembly again: the bytes must not change.
fn disasm_round_trip(test: &str, cpu: &str, program: &str, org: &str) -> String {
    let (dir, src) = source(test, "p.asm", program);
    let (bin, sym) = (dir.join("p.bin"), dir.join("p.sym"));
    assembles(&src, cpu, &bin, &["--symbols", arg(&sym)]);
    let disasm = ["disasm", arg(&bin), "--cpu", cpu, "--org", org];
    let (text, _) = succeeds(&[&disasm[..], &["--symbols", arg(&sym)]].concat());
    let again = dir.file("again.asm", &text);
    let bin2 = dir.join("again.bin");
    assembles(&again, cpu, &bin2, &[]);
    assert_eq!(
        std::fs::read(&bin).unwrap(),
        std::fs::read(&bin2).unwrap(),
        "{text}"
    );
    text
}

#[test]
fn z80_disassembly_names_addresses_and_assembles_back() {
    let text = disasm_round_trip("z80-disasm", "z80", Z80_PROGRAM, "$8000");
    // Immediates stay numbers (a constant may equal an address); jump targets get names.
    assert!(text.contains("start:\n        LD HL,$800B"), "{text}");
    assert!(
        text.contains("        JR start@next           ; 8009  18 F8        12"),
        "{text}"
    );
}

#[test]
fn mos6502_disassembly_assembles_back() {
    let source = "        .org $0600\nptr = $10\nstart:  lda #0\n        sta ptr\n        lda a:ptr\n        ldx #3\n@l:     dex\n        bne @l\n        jmp start\n        .byte $02\n";
    let text = disasm_round_trip("6502-disasm", "6502", source, "0x0600");
    assert!(text.contains("LDA a:ptr"), "{text}");
    assert!(text.contains(".byte $02"), "{text}");
}
