//! Hostile-input fuzz harnesses for the FEN parser, the EPD suite loader and the UCI
//! loop (the assembler's and disassembler's live in `tools/asm/tests/fuzz.rs`). Each property
//! feeds random text, text built from the format's own words, and raw bytes, and checks that
//! the parser answers with a value or an error that says where, never a panic or a hang.
//!
//! The normal test run tries a few hundred cases each (a few seconds); set
//! `KEMPELEN_FUZZ_CASES=100000` for a long campaign (see the README, "Fuzzing").

use kempelen_engine::{NativeEngine, Position, Profile};
use kempelen_roms::suite;
use proptest::prelude::*;

/// Cases per property: `KEMPELEN_FUZZ_CASES` or `default`.
fn cases(default: u32) -> u32 {
    std::env::var("KEMPELEN_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn config(default: u32) -> ProptestConfig {
    ProptestConfig {
        cases: cases(default),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

const FEN_WORDS: &[&str] = &[
    "rnbqkbnr", "pppppppp", "8", "44", "4k3", "4K3", "PPPPPPPP", "RNBQKBNR", "/", "k", "K", "q",
    "Q", "p", "P", "1", "7", "9", "0", "w", "b", "-", "KQkq", "Kk", "e3", "e6", "a9", "0", "1",
    "65535", "65536", "-1", " ", "  ", "\t", "x", "é",
];

/// Text made of FEN pieces: most of it near-valid, so the checks past the first field run.
fn fen_like() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(FEN_WORDS), 0..24).prop_map(|w| w.concat())
}

fn check_fen(text: &str) {
    if let Ok(pos) = Position::from_fen(text) {
        // What was accepted prints as a FEN that reads back to the same position.
        let again = Position::from_fen(&pos.to_fen()).expect("a printed FEN parses");
        assert_eq!(again.to_fen(), pos.to_fen());
    }
}

const EPD_WORDS: &[&str] = &[
    "7k/8/6K1/8/8/8/8/R7 w - -",
    "8/8/8/8/8/8/8/K6k b - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
    ";",
    "; ",
    "\"",
    "id",
    "bm",
    "am",
    "hmvc",
    "fmvn",
    "moves",
    "\"e2e4 e7e5\"",
    "\"a1a8\"",
    "Ra8",
    "x",
    "7",
    "-1",
    " ",
    "\n",
    "#",
    "\r\n",
    "\u{feff}",
    "é",
];

fn epd_like() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(EPD_WORDS), 0..30).prop_map(|w| w.join(" "))
}

fn check_epd(text: &str) {
    match suite::parse(text, "fuzz.epd") {
        Ok(entries) => {
            assert!(!entries.is_empty());
            for e in entries {
                // Each entry's game is a value or an error with a place, never a panic.
                if let Err(err) = e.game("fuzz.epd") {
                    assert!(err.to_string().starts_with("fuzz.epd:"), "{err}");
                }
            }
        }
        Err(err) => {
            let text = err.to_string();
            assert!(text.starts_with("fuzz.epd"), "{text}");
            if let suite::SuiteError::Syntax { line, col, .. } = err {
                assert!(line >= 1 && col >= 1, "{text}");
            }
        }
    }
}

/// UCI words. Numbers stay small so that every search the fuzzer starts is short: the
/// harness must not depend on the host's speed either.
const UCI_WORDS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "position",
    "startpos",
    "fen",
    "moves",
    "e2e4",
    "e7e5",
    "g1f3",
    "e1g1",
    "a7a8q",
    "0000",
    "go",
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
    "stop",
    "setoption",
    "name",
    "value",
    "Hash",
    "Profile",
    "full",
    "reference",
    "1",
    "2",
    "0",
    "-1",
    "x",
    "7k/8/6K1/8/8/8/8/R7",
    "w",
    "b",
    "-",
    "d",
    "debug",
    "on",
    "register",
    "ponderhit",
    "\u{fffd}",
];

fn uci_like() -> impl Strategy<Value = Vec<u8>> {
    let line =
        prop::collection::vec(prop::sample::select(UCI_WORDS), 0..8).prop_map(|w| w.join(" "));
    let bytes = prop::collection::vec(any::<u8>(), 0..12);
    let line = prop_oneof![4 => line.prop_map(String::into_bytes), 1 => bytes];
    prop::collection::vec(line, 0..12).prop_map(|lines| {
        let mut out = Vec::new();
        for mut l in lines {
            // A raw line must not smuggle in a 'quit' or more lines; keep one line each.
            l.retain(|&b| b != b'\n');
            out.extend(l);
            out.push(b'\n');
        }
        out.extend_from_slice(b"stop\nquit\n");
        out
    })
}

fn check_uci(input: &[u8]) {
    let mut engine = NativeEngine::new(Profile::Reference);
    let mut out = Vec::new();
    kempelen_engine::uci::run(&mut engine, input, &mut out).expect("the loop ends normally");
    let text = String::from_utf8(out).expect("the engine writes UTF-8");
    // Every `isready` is answered.
    let asked = input
        .split(|&b| b == b'\n')
        .filter(|l| {
            std::str::from_utf8(l).is_ok_and(|l| l.split_whitespace().next() == Some("isready"))
        })
        .count();
    assert_eq!(text.matches("readyok").count(), asked, "{text}");
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn fen_arbitrary_text(text in "\\PC{0,100}") {
        check_fen(&text);
    }

    #[test]
    fn fen_like_text(text in fen_like()) {
        check_fen(&text);
    }

    #[test]
    fn epd_arbitrary_text(text in "\\PC{0,200}") {
        check_epd(&text);
    }

    #[test]
    fn epd_like_text(text in epd_like()) {
        check_epd(&text);
    }

    #[test]
    fn epd_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        if let Ok(text) = suite::decode(&bytes, "fuzz.epd") {
            check_epd(&text);
        }
    }
}

proptest! {
    #![proptest_config(config(64))]

    #[test]
    fn uci_sessions(input in uci_like()) {
        check_uci(&input);
    }
}
