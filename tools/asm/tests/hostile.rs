//! Hostile sources: inputs that once overflowed the stack, ran out of
//! memory or wrapped silently now stop with their own error.

use kempelen_asm::source::{FsSource, MemorySource};
use kempelen_asm::{Cpu, Options, assemble, assemble_source};

fn first_error(text: &str) -> String {
    let out = assemble_source(Cpu::Z80, "h.asm", text);
    assert!(!out.is_ok(), "expected an error for {:.60}", text);
    out.errors().next().expect("an error").to_string()
}

/// The first error of `text` says `what` (shown cut to 300 characters if not); returned
/// whole.
fn fails_with(text: &str, what: &str) -> String {
    let e = first_error(text);
    assert!(e.contains(what), "{e:.300}");
    e
}

/// The bytes of `text`, which must assemble.
fn assembles(text: &str) -> Vec<u8> {
    let ok = assemble_source(Cpu::Z80, "h.asm", text);
    assert!(ok.is_ok(), "{}", ok.report());
    ok.image.bytes
}

#[test]
fn deeply_nested_parentheses_are_an_error_not_a_stack_overflow() {
    let text = format!(" ld a,{}1{}\n", "(".repeat(3000), ")".repeat(3000));
    fails_with(&text, "expression nested more than 64 deep");
    // Unary operators nest too.
    fails_with(
        &format!(" db {}1\n", "-".repeat(3000)),
        "nested more than 64 deep",
    );
    // Sixty levels are still fine.
    assembles(&format!(" ld a,0+{}1{}\n", "(".repeat(60), ")".repeat(60)));
}

#[test]
fn a_hundred_thousand_term_sum_is_an_error_not_a_stack_overflow() {
    let terms = vec!["1"; 100_000].join("+");
    let text = format!(" dw {terms}\n");
    fails_with(&text, "expression has more than 1000 operators");
    let bytes = assembles(&format!(" dw {}\n", vec!["1"; 900].join("+")));
    assert_eq!(bytes, [0x84, 0x03]);
}

#[test]
fn a_macro_whose_argument_copies_itself_stops_at_the_expansion_bound() {
    let text = "m macro x\n x x x x x x x x\n endm\n m m\n";
    let e = fails_with(text, "macro expansion exceeds 16 MiB of text in one pass");
    // The diagnostic shows a window of the line, not megabytes of it.
    assert!(e.len() < 2000, "{} bytes", e.len());
}

#[test]
fn overflow_beyond_64_bits_is_an_error() {
    let text = " dw 65536*65536*65536*65536+1\n";
    fails_with(text, "h.asm:1:22: error: value does not fit in 64 bits");
    for text in [
        " dw 9223372036854775807+1\n",
        " dw -9223372036854775807-2\n",
        " dw 1<<63\n",
        " dw (-9223372036854775807-1)/-1\n",
        " dw -(-9223372036854775807-1)\n",
        " dw $FFFFFFFFFFFFFFFF\n",
        " dw 18446744073709551615\n",
    ] {
        let e = first_error(text);
        assert!(e.contains("does not fit in 64 bits"), "{text}: {e}");
    }
    // Large values that fit are still fine.
    let bytes = assembles(" dw (1<<62)/(1<<48), -1<<8\n");
    assert_eq!(bytes, [0x00, 0x40, 0x00, 0xFF]);
}

#[cfg(unix)]
#[test]
fn include_and_incbin_of_an_endless_file_are_bounded() {
    for directive in ["incbin", "include"] {
        let dir = std::env::temp_dir().join(format!("kempelen-endless-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let main = dir.join(format!("{directive}.asm"));
        std::fs::write(&main, format!(" {directive} \"/dev/zero\"\n")).unwrap();
        let out = assemble(&main.to_string_lossy(), &FsSource, &Options::new(Cpu::Z80));
        let e = out.errors().next().expect("an error").to_string();
        assert!(e.contains("'/dev/zero' is larger than 16 MiB"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn a_line_that_is_not_utf8_is_named() {
    let files = MemorySource::new().with("u.asm", &b" nop\n ld a,\xff1\r\n nop\n"[..]);
    let out = assemble("u.asm", &files, &Options::new(Cpu::Z80));
    let e = out.errors().next().expect("an error").to_string();
    assert!(
        e.starts_with("u.asm:2:7: error: the line is not valid UTF-8 (byte $FF)"),
        "{e}"
    );
    assert_eq!(out.errors().count(), 1, "{}", out.report());
}
