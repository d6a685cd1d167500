//! Property tests: arbitrary text into the assembler and arbitrary bytes into the
//! disassembler never panic or hang; they give output or diagnostics. Disassembled bytes always
//! assemble back to themselves. The case counts are bounded so the normal test run stays fast;
//! `KEMPELEN_FUZZ_CASES=N` runs N cases per property.

use kempelen_asm::source::MemorySource;
use kempelen_asm::{Cpu, Dialect, Options, assemble, assemble_source, disassemble};
use proptest::prelude::*;

/// Words that make random text look like assembly, so the fuzzer reaches deep into the parser
/// and the directives rather than failing on the first character.
const WORDS: &[&str] = &[
    "ld",
    "lda",
    "jr",
    "bne",
    "djnz",
    "ex",
    "af,af'",
    "(ix+",
    ")",
    "(",
    "#",
    "$",
    "*",
    "%",
    "a",
    "x",
    "y",
    "hl",
    "(hl)",
    ",",
    "+",
    "-",
    "<",
    ">",
    "<<",
    "label:",
    "@loop:",
    "@loop",
    "equ",
    "=",
    "org",
    "db",
    ".byte",
    "dw",
    "ds",
    "if",
    "else",
    "endif",
    "ifdef",
    "macro",
    "endm",
    ".macro",
    ".endmacro",
    "m1",
    "include",
    "incbin",
    "\"x.asm\"",
    "align",
    "end",
    "error",
    "'",
    "\"",
    ";",
    "0",
    "1",
    "255",
    "256",
    "$FFFF",
    "0FFh",
    "0x10",
    "%101",
    "'A'",
    "low(",
    "high(",
    "defined(",
    "label",
    "nop",
    "rst",
    "bit",
    "im",
    "(c)",
    "jp",
    "call",
    "ret",
    "*=",
    "a:",
    "z:",
    "\t",
    " ",
    // TDL's syntax (--dialect tdl).
    ".define",
    "m1=",
    "m1[p1,p2]=",
    "[",
    "]",
    ".radix",
    "16",
    ".ascii",
    "[^h83]",
    "/x/",
    ".loc",
    ".blkb",
    ".blkw",
    "mov",
    "mvi",
    "5(x)",
    "(y)",
    "jmpr",
    ".",
    ".+3",
    "psw",
    "0bdh",
    "19.",
    "@",
    "!",
];

fn assembly_like() -> impl Strategy<Value = String> {
    let line = prop::collection::vec(prop::sample::select(WORDS), 0..8).prop_map(|w| w.join(" "));
    prop::collection::vec(line, 0..24).prop_map(|lines| lines.join("\n"))
}

fn check_assembles_without_panic(text: &str) {
    let files = MemorySource::new().with("fuzz.asm", text);
    let tdl = [false, true].map(|paren| Options {
        dialect: Dialect::Tdl,
        paren_closes_bracket: paren,
        ..Options::new(Cpu::Z80)
    });
    let options = Cpu::ALL.into_iter().map(Options::new).chain(tdl);
    for options in options {
        let out = assemble("fuzz.asm", &files, &options);
        let _ = out.report();
        let _ = out.listing.to_string();
        let _ = out.symbols.to_string();
        assert!(out.image.bytes.len() <= 0x10000);
        // Every error points into the source or says it has no place.
        for d in out.errors() {
            assert!(d.line == 0 || d.col >= 1, "{d}");
        }
    }
}

/// Cases per property: `KEMPELEN_FUZZ_CASES` (a long campaign, see the README's "Fuzzing") or
/// 256 in the normal test run.
fn cases() -> u32 {
    std::env::var("KEMPELEN_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_gives_diagnostics_not_panics(text in "\\PC{0,300}") {
        check_assembles_without_panic(&text);
    }

    #[test]
    fn assembly_like_text_gives_diagnostics_not_panics(text in assembly_like()) {
        check_assembles_without_panic(&text);
    }

    /// Deep nesting and long expressions: an error at the limits, never a stack overflow.
    #[test]
    fn nested_and_long_expressions_give_diagnostics_not_crashes(
        depth in 0usize..400,
        terms in 1usize..3000,
        unary in prop::sample::select(&["-", "~", "<", "!", "+"][..]),
    ) {
        let text = format!(
            " ld a,{}{}1{}\n dw {}\n db {}1\n",
            "(".repeat(depth),
            unary,
            ")".repeat(depth),
            vec!["3"; terms].join("*"),
            unary.repeat(depth)
        );
        check_assembles_without_panic(&text);
    }

    #[test]
    fn arbitrary_bytes_disassemble_and_assemble_back(bytes in prop::collection::vec(any::<u8>(), 0..64), org in 0u16..0xFF00) {
        for cpu in Cpu::ALL {
            let decoded = disassemble(cpu, &bytes, org, None);
            prop_assert_eq!(decoded.iter().map(|d| d.len as usize).sum::<usize>(), bytes.len());
            let source: String = std::iter::once(format!(" org ${org:04X}\n"))
                .chain(decoded.iter().map(|d| format!(" {}\n", d.text())))
                .collect();
            let out = assemble_source(cpu, "bytes.asm", &source);
            prop_assert!(out.is_ok(), "{}\n{}", out.report(), source);
            prop_assert_eq!(&out.image.bytes, &bytes);
        }
    }
}

#[test]
fn runaway_tdl_macros_stop_with_an_error() {
    // A .DEFINE that calls itself twice: stopped by the expansion limit, as a MACRO is.
    let files = MemorySource::new().with("bomb.asm", ".DEFINE TWICE=[TWICE\nTWICE]\n TWICE\n");
    let options = Options {
        dialect: Dialect::Tdl,
        ..Options::new(Cpu::Z80)
    };
    let out = assemble("bomb.asm", &files, &options);
    assert!(
        out.errors().any(|d| d.message.contains("macro")),
        "{}",
        out.report()
    );
}

#[test]
fn runaway_macros_stop_with_an_error() {
    // Each expansion calls the macro twice: without a cap this would not end.
    let text = "twice macro\n twice\n twice\n endm\n twice\n";
    let out = assemble_source(Cpu::Z80, "bomb.asm", text);
    assert!(!out.is_ok());
    assert!(
        out.errors().any(|d| d.message.contains("macro")),
        "{}",
        out.report()
    );
}
