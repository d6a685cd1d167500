//! Hostile-input fuzz harnesses for the FEN parser, the EPD suite loader, the UCI loop, the
//! machine personalities (parsed, built and run), the engine adaptor files and the image
//! loaders (the assembler's and disassembler's live in `tools/asm/tests/fuzz.rs`). Each
//! property feeds random text, text built from the format's own words, and raw bytes, and
//! checks that the parser answers with a value or an error that says where, never a panic or a
//! hang.
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

/// The commands a UCI line starts with (so that most lines reach their command's checks).
const UCI_COMMANDS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "setoption",
    "ponderhit",
    "d",
    "debug",
    "register",
];

fn uci_like() -> impl Strategy<Value = Vec<u8>> {
    let words = || prop::collection::vec(prop::sample::select(UCI_WORDS), 0..8);
    let command = (prop::sample::select(UCI_COMMANDS), words())
        .prop_map(|(c, w)| format!("{c} {}", w.join(" ")));
    let line = words().prop_map(|w| w.join(" "));
    let bytes = prop::collection::vec(any::<u8>(), 0..12);
    let line = prop_oneof![
        8 => command.prop_map(String::into_bytes),
        2 => line.prop_map(String::into_bytes),
        1 => bytes,
    ];
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
    let sent = |command: &str| {
        input
            .split(|&b| b == b'\n')
            .filter(|l| {
                std::str::from_utf8(l).is_ok_and(|l| l.split_whitespace().next() == Some(command))
            })
            .count()
    };
    // Every `isready` is answered.
    assert_eq!(text.matches("readyok").count(), sent("isready"), "{text}");
    // Every `go` is answered by one `bestmove`, or refused while a search runs.
    assert_eq!(
        text.matches("bestmove").count() + text.matches("already searching").count(),
        sent("go"),
        "{text}"
    );
}

/// A table of properties, one line each: `name(input in strategy) => check;`, each its own
/// test (its own cases and its own failure, as the docs' campaign figures count them), tried
/// `cases` times ([`config`]).
macro_rules! properties {
    (cases = $cases:expr; $($name:ident($input:ident in $strategy:expr) => $check:expr;)*) => {
        proptest! {
            #![proptest_config(config($cases))]
            $(
                #[test]
                fn $name($input in $strategy) {
                    $check;
                }
            )*
        }
    };
}

properties! {
    cases = 256;
    fen_arbitrary_text(text in "\\PC{0,100}") => check_fen(&text);
    fen_like_text(text in fen_like()) => check_fen(&text);
    epd_arbitrary_text(text in "\\PC{0,200}") => check_epd(&text);
    epd_like_text(text in epd_like()) => check_epd(&text);
    epd_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..200)) =>
        if let Ok(text) = suite::decode(&bytes, "fuzz.epd") { check_epd(&text) };
}

properties! {
    cases = 64;
    uci_sessions(input in uci_like()) => check_uci(&input);
}

// --- mutations of a valid file -------------------------------------------------------------

/// One change to a line-based file: most random files are refused at their first line, so the
/// data-file harnesses start from valid files and change a few lines, which reaches the checks
/// behind the parser (ranges, overlaps, traps, images) and the machine built from the result.
#[derive(Debug, Clone)]
enum Mutation {
    /// The value of a `key = value` line replaced by one of the values for that key (or of
    /// any key).
    Value(prop::sample::Index, prop::sample::Index),
    /// A line removed.
    Delete(prop::sample::Index),
    /// A line repeated.
    Repeat(prop::sample::Index),
    /// A line of the format inserted.
    Insert(prop::sample::Index, &'static str),
    /// Random text inserted.
    Noise(prop::sample::Index, String),
}

/// A file made from one of `seeds` by up to four [`Mutation`]s: lines of the format from
/// `lines`, values from `values` ([`mutate`]).
fn mutated(
    seeds: &'static [&'static str],
    lines: &'static [&'static str],
    values: &'static [(&'static str, &'static [&'static str])],
) -> impl Strategy<Value = String> {
    (
        prop::sample::select(seeds),
        prop::collection::vec(mutation(lines), 0..5),
    )
        .prop_map(move |(seed, m)| mutate(seed, &m, values))
}

fn mutation(lines: &'static [&'static str]) -> impl Strategy<Value = Mutation> {
    use prop::sample::Index;
    prop_oneof![
        12 => (any::<Index>(), any::<Index>()).prop_map(|(l, v)| Mutation::Value(l, v)),
        1 => any::<Index>().prop_map(Mutation::Delete),
        1 => any::<Index>().prop_map(Mutation::Repeat),
        2 => (any::<Index>(), prop::sample::select(lines)).prop_map(|(l, t)| Mutation::Insert(l, t)),
        1 => (any::<Index>(), "\\PC{0,12}").prop_map(|(l, t)| Mutation::Noise(l, t)),
    ]
}

/// Values tried for any key of a TOML file, right and wrong (each format's table adds its own
/// under the key `*`).
const ANY_VALUES: &[&str] = &["\"x\"", "\"\"", "0", "-1", "[]", "{}", "true"];

/// The values [`mutate`] tries for `key`: its own in `values`, or [`ANY_VALUES`] and the
/// table's `*` values.
fn values_for(key: &str, values: &[(&str, &'static [&'static str])]) -> Vec<&'static str> {
    let of = |k: &str| values.iter().find(|(key, _)| *key == k).map(|(_, v)| *v);
    match of(key) {
        Some(own) => own.to_vec(),
        None => [ANY_VALUES, of("*").unwrap_or_default()].concat(),
    }
}

/// `seed` with `mutations` applied; `values` lists the values tried for a key ([`values_for`]).
fn mutate(
    seed: &str,
    mutations: &[Mutation],
    values: &[(&str, &'static [&'static str])],
) -> String {
    let mut lines: Vec<String> = seed.lines().map(str::to_string).collect();
    for m in mutations {
        if lines.is_empty() {
            lines.push(String::new());
        }
        match m {
            Mutation::Value(l, v) => {
                let n = lines.len();
                let line = &mut lines[l.index(n)];
                let Some((key, _)) = line.split_once(" = ") else {
                    continue;
                };
                let key = key.trim().to_string();
                let pool = values_for(&key, values);
                if !pool.is_empty() {
                    *line = format!("{key} = {}", pool[v.index(pool.len())]);
                }
            }
            Mutation::Delete(l) => {
                lines.remove(l.index(lines.len()));
            }
            Mutation::Repeat(l) => {
                let i = l.index(lines.len());
                lines.insert(i, lines[i].clone());
            }
            Mutation::Insert(l, t) => lines.insert(l.index(lines.len() + 1), t.to_string()),
            Mutation::Noise(l, t) => lines.insert(l.index(lines.len() + 1), t.clone()),
        }
    }
    lines.join("\n")
}

/// Hexadecimal addresses and byte strings as they are written, right and wrong.
const ADDRESSES: &[&str] = &[
    "\"0000\"",
    "\"0005\"",
    "\"0038\"",
    "\"00FF\"",
    "\"0100\"",
    "\"01FF\"",
    "\"0200\"",
    "\"1EA0\"",
    "\"1E9F\"",
    "\"7FFF\"",
    "\"E000\"",
    "\"FFFA\"",
    "\"FFFE\"",
    "\"FFFF\"",
    "\"10000\"",
    "\"+FFF\"",
    "\"-1\"",
    "\"\"",
    "\"0x200\"",
    "\"$0200\"",
    "\"é\"",
    "512",
    "1.5",
];
const RANGES: &[&str] = &[
    "\"0000-FFFF\"",
    "\"0000-03FF\"",
    "\"0100-01FF\"",
    "\"1780-17FF\"",
    "\"E000-FFFF\"",
    "\"FFFA-FFFF\"",
    "\"FF00-FFFF\"",
    "\"0200-0100\"",
    "\"0000-10000\"",
    "\"0000\"",
    "\"-\"",
    "\"1EA0-1EA0\"",
    "\"0000-0000\"",
];
const BYTES: &[&str] = &[
    "\"00\"",
    "\"C9\"",
    "\"60\"",
    "\"01 02\"",
    "\"9F 1E 9F 1E\"",
    "\"C3 00 FF 00 00 C3 00 FF\"",
    "\"1C 1C 22 1C 1F 1C\"",
    "\"\"",
    "\"+1\"",
    "\"100\"",
    "\"0G\"",
    "\"é\"",
    "\"00 00 00\"",
];
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "6",
    "9",
    "10",
    "255",
    "256",
    "-1",
    "1000000",
    "1000000000",
    "1000000001",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "1e3",
    "0.5",
    "nan",
    "\"1\"",
    "true",
];

// --- machine personalities ------------------------------------------------------------------

/// The bundled personalities (a Z80 machine with BDOS functions, one with inline calls, a
/// 6502 one with every kind of monitor trap) and a 6502 one whose traps read other registers.
const PERSONALITY_SEEDS: &[&str] = &[
    include_str!("../emulator/machines/cpm.toml"),
    include_str!("../emulator/machines/jupiter-3.toml"),
    include_str!("../emulator/machines/kim-1.toml"),
    "id = \"six\"\nname = \"six\"\ncpu = \"6502\"\nmhz = 1.0\nload = \"0200\"\nstack = \"0100-01FF\"\n\
     [[memory]]\nname = \"RAM\"\nkind = \"ram\"\nrange = \"0000-EFFF\"\n\
     [[memory]]\nname = \"ROM\"\nkind = \"rom\"\nrange = \"F000-FFFF\"\n\
     [[fill]]\nat = \"F000\"\nbytes = \"60 60 60\"\n\
     [[trap]]\nname = \"out\"\nat = \"F000\"\nservice = \"put-char\"\nregister = \"X\"\ncycles = 40\n\
     [[trap]]\nname = \"in\"\nat = \"F003\"\nservice = \"get-char\"\nregister = \"Y\"\necho = true\n\
     [[trap]]\nname = \"io\"\nat = \"F006\"\nservice = \"direct-io\"\nregister = \"A\"\n\
     [[trap]]\nname = \"hex\"\nat = \"F009\"\nservice = \"put-hex\"\nregister = \"A\"\n\
     [[trap]]\nname = \"key\"\nat = \"F00C\"\nservice = \"status\"\nready = 255\n",
];

/// Lines a personality may have (and some it may not).
const PERSONALITY_LINES: &[&str] = &[
    "[[memory]]",
    "[[fill]]",
    "[[mirror]]",
    "[[trap]]",
    "[[trap.function]]",
    "cpu = \"65c02\"",
    "clock = \"zx-spectrum\"",
    "mhz = 1e-300",
    "io_page = \"BF00\"",
    "sp = \"0000\"",
    "at = \"1EA0\"",
    "service = \"print-string\"",
    "service = \"read-line\"",
    "service = \"direct-io\"",
    "register = \"DE\"",
    "cycles = 18446744073709551615",
    "keys = { \"M\" = 16, \"é\" = 1 }",
    "digits = [\"00FB\", \"00FA\"]",
    "terminator = \"é\"",
    "echo = true",
    "colour = 3",
    "# a comment",
    "",
    "=",
    "[",
];

const PERSONALITY_VALUES: &[(&str, &[&str])] = &[
    (
        "cpu",
        &[
            "\"z80\"",
            "\"6502\"",
            "\"65c02\"",
            "\"z81\"",
            "\"\"",
            "6502",
        ],
    ),
    (
        "clock",
        &[
            "\"kim-1\"",
            "\"zx-spectrum\"",
            "\"jupiter-3\"",
            "\"c64\"",
            "\"nosuch\"",
            "\"\"",
        ],
    ),
    (
        "mhz",
        &[
            "1.0", "0.01", "0.0099", "1000.0", "1000.1", "1e-300", "1e-20", "0.0", "-1.0", "nan",
            "inf", "3.5", "1",
        ],
    ),
    ("load", ADDRESSES),
    ("sp", ADDRESSES),
    ("io_page", ADDRESSES),
    ("at", ADDRESSES),
    ("of", ADDRESSES),
    ("vector", ADDRESSES),
    ("range", RANGES),
    ("stack", RANGES),
    ("bytes", BYTES),
    (
        "code",
        &[
            "\"01\"",
            "\"02\"",
            "\"09\"",
            "\"0A\"",
            "\"81 1A\"",
            "\"\"",
            "\"1F 1F 1F\"",
            "\"ZZ\"",
        ],
    ),
    ("kind", &["\"ram\"", "\"rom\"", "\"flash\"", "\"\""]),
    (
        "select",
        &[
            "\"C\"",
            "\"A\"",
            "\"B\"",
            "\"DE\"",
            "\"inline\"",
            "\"X\"",
            "\"\"",
        ],
    ),
    (
        "service",
        &[
            "\"put-char\"",
            "\"put-hex\"",
            "\"get-char\"",
            "\"status\"",
            "\"print-string\"",
            "\"read-line\"",
            "\"direct-io\"",
            "\"print-inline\"",
            "\"newline\"",
            "\"display\"",
            "\"key\"",
            "\"jump-indirect\"",
            "\"done\"",
            "\"teleport\"",
        ],
    ),
    (
        "register",
        &[
            "\"A\"", "\"B\"", "\"C\"", "\"E\"", "\"DE\"", "\"HL\"", "\"X\"", "\"Y\"", "\"Q\"",
            "\"\"",
        ],
    ),
    (
        "terminator",
        &["\"$\"", "\"\"", "\"é\"", "\"ab\"", "\"\\u0000\""],
    ),
    ("cycles", NUMBERS),
    ("args", NUMBERS),
    ("none", NUMBERS),
    ("ready", NUMBERS),
    ("echo", &["true", "false", "1"]),
    ("newline", &["true", "false", "1"]),
    (
        "digits",
        &[
            "[\"FB\", \"FA\", \"F9\"]",
            "[]",
            "[\"FFFF\"]",
            "[\"10000\"]",
            "\"FB\"",
        ],
    ),
    (
        "keys",
        &[
            "{ \"M\" = 16 }",
            "{ \"é\" = 1 }",
            "{ \"MM\" = 1 }",
            "{ \"M\" = 256 }",
            "{}",
        ],
    ),
    ("*", &["18446744073709551615"]),
];

/// A program made of calls and jumps to the personality's traps, loads of the registers the
/// traps read, and random bytes.
fn trap_program(cpu: kempelen_emulator::Cpu, traps: &[u16], words: &[(u8, u8, u16)]) -> Vec<u8> {
    let mut out = Vec::new();
    for &(kind, byte, pick) in words {
        let target = match traps.len() {
            0 => pick,
            n => traps[usize::from(pick) % n],
        };
        let [lo, hi] = target.to_le_bytes();
        let z80 = cpu == kempelen_emulator::Cpu::Z80;
        match (kind % 6, z80) {
            (0 | 1, true) => out.extend([0xCD, lo, hi]), // CALL trap
            (0 | 1, false) => out.extend([0x20, lo, hi]), // JSR trap
            (2, true) => out.extend([0xC3, lo, hi]),     // JP trap
            (2, false) => out.extend([0x4C, lo, hi]),    // JMP trap
            (3, true) => out.extend([0x0E, byte]),       // LD C,n
            (3, false) => out.extend([0xA9, byte]),      // LDA #n
            (4, true) => out.extend([0x11, byte, byte]), // LD DE,nn
            (4, false) => out.extend([0xA2, byte]),      // LDX #n
            _ => out.push(byte),
        }
    }
    out
}

/// A personality is a value or an error at `file:line:col`; a value builds a machine (or says
/// why not) whose run, calling its traps, ends within its budget, never in a panic.
fn check_personality(text: &str, words: &[(u8, u8, u16)], input: &[u8]) {
    use kempelen_emulator::Personality;
    let p = match Personality::parse("p.toml", text) {
        Ok(p) => p,
        Err(e) => {
            assert!(e.line >= 1 && e.col >= 1, "{e}");
            assert!(e.to_string().starts_with("p.toml:"), "{e}");
            return;
        }
    };
    assert!((0.01..=1000.0).contains(&p.clock.mhz), "{}", p.clock.mhz);
    for t in &p.traps {
        assert!(
            (1..=kempelen_emulator::traps::MAX_CYCLES).contains(&t.cycles),
            "{t:?}"
        );
    }
    for (at, bytes) in &p.fills {
        assert!(usize::from(*at) + bytes.len() <= 0x10000);
    }
    let at = p.load.unwrap_or(0x0200);
    let traps: Vec<u16> = p.traps.iter().map(|t| t.at).collect();
    let program = trap_program(p.cpu, &traps, words);
    let program = &program[..program.len().min(0x10000 - usize::from(at))];
    let Ok(mut m) = p.builder().load(at, program).entry(at).build() else {
        return;
    };
    m.console_mut().push_input(input);
    m.console_mut().set_stop_on_empty_input(true);
    let budget = 20_000;
    let cycles = match m.run(budget) {
        Ok(stats) => stats.cycles,
        Err(e) => e.cycles,
    };
    // The budget is checked before each instruction and after each trap.
    assert!(
        cycles <= budget + kempelen_emulator::traps::MAX_CYCLES + 64,
        "{cycles}"
    );
    // Output costs time: each trap call (at least a cycle) prints at most 64 KiB.
    let output = m.console_mut().take_output();
    assert!(
        output.len() as u64 <= (cycles + 1) * 0x10000,
        "{} bytes",
        output.len()
    );
}

// --- engine adaptor files -----------------------------------------------------------------

/// An adaptor with a time model: the level chosen from the time limits.
const LEVEL_SEED: &str = "name = \"lv\"\nmachine = \"kim-1\"\nentry = \"0200\"\nturn_budget = 200000\n\
     [[image]]\nfile = \"p.bin\"\nat = \"0200\"\n\
     [keys]\nmove = \"{from}{to}F\"\ngo = \"P{depth}\"\n\
     [depth]\ndefault = 2\nmax = 6\n\
     [[level]]\ndepth = 1\nmean = 0.5\nlongest = 1.0\nmoves = 10\n\
     [[level]]\ndepth = 3\nmean = 20.0\nlongest = 90.0\nmoves = 10\n\
     [reply]\npattern = '(?P<move>[a-h][1-8][a-h][1-8])'\n";

/// Adaptor files around a small 6502 program on the KIM-1 (it prints `e2e4` and waits for a
/// key) and around Kempelen's own Z80 machine.
const ADAPTOR_SEEDS: &[&str] = &[
    "name = \"six\"\nmachine = \"kim-1\"\nentry = \"0200\"\nturn_budget = 200000\nplays = \"white\"\n\
     [[image]]\nfile = \"p.bin\"\nat = \"0200\"\n\
     [[poke]]\nat = \"0230\"\nbytes = \"00\"\n\
     [keys]\nstart = \"C\"\nnew_game = \"C\"\nmove = \"{from}{to}F\"\ngo = \"P\"\ncastle_rook = true\n\
     [depth]\ndefault = 2\nmax = 6\n\
     [reply]\npattern = '(?P<move>[a-h][1-8][a-h][1-8])'\nfirst = true\n",
    "name = \"z\"\ncpu = \"z80\"\nclock = \"zx-spectrum\"\nturn_budget = 100000\n\
     [[image]]\nfile = \"p.h65\"\n\
     [keys]\nmove = \"{move}\\n\"\ngo = \"go\\n\"\ndepth = \"d {depth}\\n\"\nposition = \"fen {fen}\\n\"\n\
     [[setup]]\nkeys = \"{board}{to_move}\"\n\
     [[setup]]\npoke = [ { at = \"0230\", value = \"{depth}\", min = 2 } ]\n\
     [board]\nfirst = \"a8\"\nempty = \".\"\npiece = \"{colour}{piece}\"\n\
     [reply]\npattern = '(?P<from>[a-h][1-8])-(?P<to>[a-h][1-8])|(?P<castle>O-O(?:-O)?)'\nsquares = \"algebraic\"\n",
    "name = \"m\"\nmachine = \"m.toml\"\nturn_budget = 50000\n\
     [[image]]\nfile = \"p.bin\"\nat = \"0200\"\nonly = [\"0200-020F\"]\n\
     [keys]\nmove = \"{FROM}-{TO}\"\n\
     [reply]\npattern = '\\[(?P<piece>[0-9A-F]{2}) (?P<from>[0-7]{2}) (?P<to>[0-7]{2})\\]'\nsquares = \"microchess\"\n",
    LEVEL_SEED,
];

const ADAPTOR_LINES: &[&str] = &[
    "[[image]]",
    "[[poke]]",
    "[[setup]]",
    "[keys]",
    "[reply]",
    "[depth]",
    "[board]",
    "[source]",
    "[[level]]",
    "depth = 2",
    "mean = 1e308",
    "longest = inf",
    "machine = \"/dev/zero\"",
    "file = \"/dev/zero\"",
    "file = \"$KEMPELEN_HISTORICAL/x.bin\"",
    "sha256 = \"00\"",
    "assemble = { cpu = \"z80\" }",
    "restart = true",
    "turn_budget = 0",
    "entry = \"FFFF\"",
    "",
    "=",
    "[",
];

const ADAPTOR_VALUES: &[(&str, &[&str])] = &[
    (
        "machine",
        &[
            "\"kim-1\"",
            "\"cpm\"",
            "\"jupiter-3\"",
            "\"m.toml\"",
            "\"nosuch\"",
            "\"kim-1.toml\"",
            "\"zx-spectrum\"",
        ],
    ),
    ("cpu", &["\"z80\"", "\"6502\"", "\"65c02\"", "\"pdp11\""]),
    ("clock", &["\"kim-1\"", "\"zx-spectrum\"", "\"nosuch\""]),
    ("entry", ADDRESSES),
    ("at", ADDRESSES),
    ("turn_budget", NUMBERS),
    ("default", NUMBERS),
    ("max", NUMBERS),
    ("min", NUMBERS),
    ("plays", &["\"white\"", "\"black\"", "\"green\""]),
    (
        "file",
        &[
            "\"p.bin\"",
            "\"p.h65\"",
            "\"p.hex\"",
            "\"missing.bin\"",
            "\"m.toml\"",
            "\"../p.bin\"",
            "\"\"",
        ],
    ),
    (
        "only",
        &[
            "[\"0200-020F\"]",
            "[\"0400-0300\"]",
            "[]",
            "[\"x\"]",
            "[\"0000-FFFF\"]",
        ],
    ),
    ("bytes", BYTES),
    (
        "move",
        &[
            "\"{move}\\n\"",
            "\"{from}{to}{promotion}\"",
            "\"{FROM}-{TO}\"",
            "\"{nosuch}\"",
            "\"\"",
            "\"{\"",
        ],
    ),
    (
        "pattern",
        &[
            "'(?P<move>[a-h][1-8][a-h][1-8])'",
            "'('",
            "'no group'",
            "'(?P<from>..)(?P<to>..)'",
            "'(?P<castle>O-O)|(?P<en_passant>ep)'",
            "'(?P<move>e2e4)(?P<depth>\\d+)?(?P<score>-?\\d+)?(?P<nodes>\\d+)?'",
            "'(?P<move>.*)'",
            "''",
        ],
    ),
    ("squares", &["\"algebraic\"", "\"microchess\"", "\"roman\""]),
    ("first", &["\"a1\"", "\"a8\"", "\"z9\"", "true", "false"]),
    (
        "piece",
        &[
            "\"{colour}{piece}\"",
            "\"{piece},{colour},{moved}\"",
            "\"\"",
            "\"{\"",
        ],
    ),
    ("pieces", &["\"PNBRQK\"", "\"PNB\"", "\"ééééééé\""]),
    (
        "keys",
        &[
            "\"{board}\"",
            "\"{player}{depth}\"",
            "\"{fen}\"",
            "\"{nosuch}\"",
            "\"\\u001B\"",
        ],
    ),
    (
        "value",
        &[
            "\"{depth}\"",
            "\"{fullmove}\"",
            "\"300\"",
            "\"{nosuch}\"",
            "\"-1\"",
        ],
    ),
    ("depth", NUMBERS),
    ("mean", NUMBERS),
    ("longest", NUMBERS),
    ("moves", NUMBERS),
    ("*", &["\"{depth}\""]),
];

/// A folder with the files adaptor texts name: the program in two image formats and a
/// personality.
fn adaptor_dir() -> &'static std::path::Path {
    static DIR: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir =
            std::env::temp_dir().join(format!("kempelen-fuzz-adaptor-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // $0200: print the text at $0220 with OUTCH ($1EA0), wait for a key with GETCH
        // ($1E5A), again.
        let mut program = vec![
            0xA2, 0x00, 0xBD, 0x20, 0x02, 0xF0, 0x07, 0x20, 0xA0, 0x1E, 0xE8, 0x4C, 0x02, 0x02,
            0x20, 0x5A, 0x1E, 0x4C, 0x00, 0x02,
        ];
        program.resize(0x20, 0xEA);
        program.extend(b"e2e4 [00 13 33] e2-e4\r\n\0");
        std::fs::write(dir.join("p.bin"), &program).unwrap();
        let dump: Vec<String> = program.iter().map(|b| format!("{b:02X}")).collect();
        std::fs::write(dir.join("p.h65"), format!("0000 {}\n", dump.join(" "))).unwrap();
        std::fs::write(dir.join("p.hex"), ":0100000000FF\n:00000001FF\n").unwrap();
        std::fs::write(dir.join("m.toml"), PERSONALITY_SEEDS[3]).unwrap();
        dir
    })
}

/// An adaptor file is read through the adaptor crate's public API: a value, or an error that
/// names the file (and the line and column of a syntax error). An accepted adaptor with a
/// small turn budget plays a move or says why not.
fn check_adaptor(text: &str) {
    check_adaptor_with(text, &kempelen_engine::Limits::depth(2));
}

/// [`check_adaptor`] with the search's `limits` (a time limit, for a time model).
fn check_adaptor_with(text: &str, limits: &kempelen_engine::Limits) {
    use kempelen_engine::Engine;
    static CASE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let case = CASE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = adaptor_dir();
    let path = dir.join(format!("a{case}.toml"));
    std::fs::write(&path, text).unwrap();
    let engine = kempelen_adaptor::AdaptorEngine::new(&path);
    let mut engine = match engine {
        Ok(engine) => engine,
        Err(e) => {
            std::fs::remove_file(&path).unwrap();
            // A syntax error points into the adaptor file.
            if let kempelen_adaptor::AdaptorError::Syntax { line, col, .. } = &e {
                assert!(*line >= 1 && *col >= 1, "{e}");
                assert!(e.to_string().contains(&format!("a{case}.toml:")), "{e}");
            }
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    std::fs::remove_file(&path).unwrap();
    // Run it only with a small turn budget of its own (the default is minutes of play).
    let small = text.lines().any(|l| {
        l.strip_prefix("turn_budget = ")
            .and_then(|v| v.trim().parse::<u64>().ok())
            .is_some_and(|b| b <= 1_000_000)
    });
    if !small {
        return;
    }
    let game = kempelen_engine::Game::new(kempelen_engine::Position::startpos());
    let control = kempelen_engine::SearchControl::default();
    if let Ok(r) = engine.search(&game, limits, &control) {
        // A move the program played is legal where it was played.
        if let Some(best) = r.best {
            assert!(game.position().legal_moves().contains(best), "{best:?}");
        }
    }
}

// --- image loaders --------------------------------------------------------------------------

const IMAGE_WORDS: &[&str] = &[
    ":",
    ";",
    "#",
    " ",
    "  ",
    "\t",
    "\n",
    "\r\n",
    "00",
    "01",
    "02",
    "03",
    "04",
    "05",
    "06",
    "FF",
    "10",
    "0200",
    "FFFF",
    "FFFE",
    "0000",
    "A9",
    "41",
    "EE",
    ":0100000000FF",
    ":00000001FF",
    ":0000000000",
    ":02000002100",
    ":020000021000EC",
    ";020200A94100EE",
    ";0000010001",
    "0200 A9 41",
    "FFFF 01 02",
    "+FFF",
    "0200:",
    "G0",
    "é",
    "\u{0}",
    "..ascii",
];

/// A record of a text format: a type (Intel HEX) or not, an address and data bytes.
type Record = (u8, u16, Vec<u8>);

fn records() -> impl Strategy<Value = Vec<Record>> {
    let kind = prop_oneof![8 => Just(0u8), 1 => 0u8..=7, 1 => any::<u8>()];
    let addr = prop_oneof![3 => 0u16..0x0400, 1 => any::<u16>(), 1 => 0xFFF0u16..=0xFFFF];
    prop::collection::vec(
        (kind, addr, prop::collection::vec(any::<u8>(), 0..20)),
        0..8,
    )
}

/// Intel HEX with right checksums (the end record last).
fn intel_hex(records: &[Record]) -> String {
    let mut out = String::new();
    for (kind, addr, data) in records {
        let mut bytes = vec![data.len() as u8];
        bytes.extend(addr.to_be_bytes());
        bytes.push(*kind);
        bytes.extend(data);
        let sum = bytes.iter().fold(0u8, |s, b| s.wrapping_add(*b));
        bytes.push(sum.wrapping_neg());
        out.push(':');
        out.extend(bytes.iter().map(|b| format!("{b:02X}")));
        out.push('\n');
    }
    out + ":00000001FF\n"
}

/// A hex dump, `ADDR b b ...` per line, sometimes with a colon or an ASCII column.
fn hex_dump(records: &[Record]) -> String {
    let mut out = String::from("; a dump\n");
    for (kind, addr, data) in records {
        out.push_str(&format!(
            "{addr:04X}{}",
            if kind % 2 == 0 { " " } else { ": " }
        ));
        let bytes: Vec<String> = data.iter().map(|b| format!("{b:02X}")).collect();
        out.push_str(&bytes.join(" "));
        if kind % 3 == 0 {
            out.push_str("  ..ascii");
        }
        out.push('\n');
    }
    out
}

/// A KIM-1 paper tape with right checksums, ended by its `;00` record.
fn kim_tape(records: &[Record]) -> String {
    let mut out = String::new();
    for (_, addr, data) in records {
        let mut bytes = vec![data.len() as u8];
        bytes.extend(addr.to_be_bytes());
        bytes.extend(data);
        let sum = bytes
            .iter()
            .fold(0u16, |s, b| s.wrapping_add(u16::from(*b)));
        out.push(';');
        out.extend(bytes.iter().map(|b| format!("{b:02X}")));
        out.push_str(&format!("{sum:04X}\n"));
    }
    out + ";0000010001\n"
}

/// Text images built from records (mostly valid, sometimes with one byte changed), text made of
/// the formats' words, and raw bytes.
fn image_like() -> impl Strategy<Value = Vec<u8>> {
    let words = prop::collection::vec(prop::sample::select(IMAGE_WORDS), 0..40)
        .prop_map(|w| w.concat().into_bytes());
    let bytes = prop::collection::vec(any::<u8>(), 0..300);
    let built = (
        0u8..3,
        records(),
        prop::option::weighted(0.3, (any::<prop::sample::Index>(), any::<u8>())),
    )
        .prop_map(|(format, records, change)| {
            let mut text = match format {
                0 => intel_hex(&records),
                1 => hex_dump(&records),
                _ => kim_tape(&records),
            }
            .into_bytes();
            if let Some((at, b)) = change {
                let i = at.index(text.len());
                text[i] = b;
            }
            text
        });
    prop_oneof![4 => built, 2 => words, 1 => bytes]
}

/// Every format reads any bytes into chunks that fit the address space and do not overlap,
/// or into an error that names the file (and the line and column of a text format).
fn check_image(bytes: &[u8], raw_addr: u16) {
    use kempelen_emulator::loaders::{ImageFormat, parse};
    let detected = ImageFormat::detect(bytes);
    for format in [
        detected,
        ImageFormat::Raw,
        ImageFormat::IntelHex,
        ImageFormat::HexDump,
        ImageFormat::KimTape,
    ] {
        match parse("i.img", bytes, format, raw_addr) {
            Ok(chunks) => {
                assert!(!chunks.is_empty(), "{format}");
                let mut end = 0usize;
                for c in &chunks {
                    assert!(!c.bytes.is_empty(), "{format}");
                    assert!(usize::from(c.addr) >= end, "{format}: overlap");
                    end = usize::from(c.addr) + c.bytes.len();
                    assert!(end <= 0x10000, "{format}");
                }
            }
            Err(e) => {
                assert!(e.to_string().starts_with("i.img"), "{e}");
                if format != ImageFormat::Raw {
                    assert!(e.line >= 1 && e.col >= 1, "{format}: {e}");
                }
            }
        }
    }
}

// --- tournament inputs: PGN, openings, time controls ---------------------------------------

const PGN_WORDS: &[&str] = &[
    "[Event \"x\"]",
    "[White \"a\\\"b\"]",
    "[Result \"1-0\"]",
    "[Result \"*\"]",
    "[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]",
    "[",
    "]",
    "\"",
    "\\",
    "\n",
    "\n\n",
    " ",
    "1.",
    "1...",
    "12.",
    "e4",
    "e5",
    "Nf3",
    "Nc6",
    "O-O",
    "O-O-O",
    "exd5",
    "e8=Q+",
    "Qxf7#",
    "$1",
    "!?",
    "{a comment}",
    "{",
    "}",
    "{[%emt 0:00:01]}",
    "(",
    ")",
    "(1... d5)",
    ";rest\n",
    "\n%escape\n",
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
    "é",
    "\u{0}",
];

const OPENING_WORDS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
    "8/8/8/8/8/8/8/K6k w - -",
    " 0 1",
    " 65536",
    "; ",
    "id \"x\"",
    "c0 \"1. e4 e5\"",
    "c0 \"Nf3 Nf6 g3\"",
    "c0 \"e5\"",
    "c0 \"",
    "\n",
    "# a comment\n",
    " ",
    "x",
    "é",
];

const TIME_WORDS: &[&str] = &[
    "40",
    "/",
    "7200",
    ":",
    "3600",
    "+",
    "2",
    "0.1",
    "300",
    "0",
    "-1",
    "1e9",
    "86400",
    "86401",
    "inf",
    "nan",
    " ",
    "x",
    "18446744073709551616",
    ".",
];

/// A PGN reads into games or an error at `source:line:column`; opening files into openings
/// whose moves are legal where they start, or an error at `source:line`; a time control into
/// one that prints as text that reads back the same.
fn check_tournament_inputs(pgn: &str, openings: &str, tc: &str) {
    use kempelen_engine::tournament::{TimeControl, parse_openings, read_pgn};
    match read_pgn(pgn, "f.pgn") {
        Ok(games) => {
            for g in games {
                assert!(g.place.starts_with("f.pgn:"), "{}", g.place);
            }
        }
        Err(e) => {
            let place: Vec<&str> = e.place.split(':').collect();
            assert!(
                place.len() == 3
                    && place[0] == "f.pgn"
                    && place[1].parse::<usize>().is_ok_and(|l| l >= 1),
                "{}",
                e.place
            );
        }
    }
    if let Ok(list) = parse_openings(openings, "o.epd") {
        for o in list {
            let mut pos = o.start.clone();
            for m in &o.moves {
                assert!(pos.legal_moves().contains(*m), "{}: {m:?}", o.name);
                pos.play(*m);
            }
        }
    }
    if let Ok(t) = tc.parse::<TimeControl>() {
        let again: TimeControl = t.to_string().parse().expect("a printed time control reads");
        assert_eq!(again, t, "{tc}");
    }
}

fn words(list: &'static [&'static str], n: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(list), 0..n).prop_map(|w| w.concat())
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn personality_like_text(
        text in mutated(PERSONALITY_SEEDS, PERSONALITY_LINES, PERSONALITY_VALUES),
        words in prop::collection::vec(any::<(u8, u8, u16)>(), 0..24),
        input in prop::collection::vec(any::<u8>(), 0..8),
    ) {
        check_personality(&text, &words, &input);
    }

    #[test]
    fn personality_arbitrary_text(text in "\\PC{0,200}") {
        check_personality(&text, &[], b"");
    }

    #[test]
    fn adaptor_like_text(text in mutated(ADAPTOR_SEEDS, ADAPTOR_LINES, ADAPTOR_VALUES)) {
        check_adaptor(&text);
    }

    #[test]
    fn adaptor_arbitrary_text(text in "\\PC{0,200}") {
        check_adaptor(&text);
    }

    #[test]
    fn image_bytes(bytes in image_like(), raw_addr in any::<u16>()) {
        check_image(&bytes, raw_addr);
    }

    #[test]
    fn tournament_inputs(
        pgn in prop_oneof![3 => words(PGN_WORDS, 60), 1 => "\\PC{0,200}"],
        openings in prop_oneof![3 => words(OPENING_WORDS, 12), 1 => "\\PC{0,100}"],
        tc in prop_oneof![3 => words(TIME_WORDS, 8), 1 => "\\PC{0,20}"],
    ) {
        check_tournament_inputs(&pgn, &openings, &tc);
    }
}

// --- program files of the target machines ---------------------------------------------------

/// Every target's program file as `kempelen build` writes it (built once): the target and
/// the file's bytes.
fn target_files() -> &'static [(&'static kempelen_roms::target::Target, Vec<u8>)] {
    static FILES: std::sync::OnceLock<Vec<(&kempelen_roms::target::Target, Vec<u8>)>> =
        std::sync::OnceLock::new();
    FILES.get_or_init(|| {
        kempelen_roms::target::Target::all()
            .iter()
            .filter(|t| t.port.require().is_ok())
            .map(|t| (t, t.build().expect("a target builds").file))
            .collect()
    })
}

/// A change to a program file: bytes overwritten, the file cut, bytes appended.
#[derive(Debug, Clone)]
enum FileDamage {
    None,
    Bytes(Vec<(prop::sample::Index, u8)>),
    Truncate(prop::sample::Index),
    Append(Vec<u8>),
}

fn file_damage() -> impl Strategy<Value = FileDamage> {
    prop_oneof![
        1 => Just(FileDamage::None),
        4 => prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6)
            .prop_map(FileDamage::Bytes),
        2 => any::<prop::sample::Index>().prop_map(FileDamage::Truncate),
        1 => prop::collection::vec(any::<u8>(), 1..40).prop_map(FileDamage::Append),
    ]
}

/// The names a file is renamed to: its own, none, another target's, a text format's.
const PROGRAM_NAMES: &[&str] = &[
    "", "game", "game.tap", "game.prg", "game.xex", "GAME/CMD", "game.cmd", "game.rom", "game.com",
    "game.bin", "game.hex", "game.TAP", ".prg",
];

/// A program file of any target, damaged or not, under any name, reads (as `kempelen run FILE`
/// reads it) into chunks inside the 64 KB with an entry, or an error that names the file;
/// a whole file `build` wrote reads back to its program under its own name and under a name
/// without an extension; what reads is loaded into the target's machine or refused.
fn check_program_file(target: prop::sample::Index, damage: &FileDamage, name: &str) {
    use kempelen_emulator::{Personality, resolve};
    let files = target_files();
    let (t, file) = &files[target.index(files.len())];
    let mut bytes = file.clone();
    match damage {
        FileDamage::None => {}
        FileDamage::Bytes(changes) => {
            for (at, b) in changes {
                let i = at.index(bytes.len());
                bytes[i] = *b;
            }
        }
        FileDamage::Truncate(at) => bytes.truncate(at.index(bytes.len())),
        FileDamage::Append(more) => bytes.extend(more),
    }
    let name = if name.is_empty() {
        t.file.as_str()
    } else {
        name
    };
    let path = std::path::Path::new(name);
    let p = Personality::built_in(&t.machine).expect("a target's machine");
    let load = p.load.unwrap_or(0);
    match resolve::program_bytes(path, &bytes, None, load) {
        Ok(loaded) => {
            let mut end = 0usize;
            for c in &loaded.chunks {
                assert!(!c.bytes.is_empty() && usize::from(c.addr) >= end, "{name}");
                end = usize::from(c.addr) + c.bytes.len();
                assert!(end <= 0x10000, "{name}");
            }
            let mut b = p.builder();
            for c in &loaded.chunks {
                b = b.load(c.addr, &c.bytes);
            }
            if let Some(e) = loaded.entry {
                b = b.entry(e);
            }
            let _ = b.build();
        }
        Err(e) => {
            let text = e.to_string();
            assert!(text.contains(name), "{name}: {text}");
            let whole = matches!(damage, FileDamage::None);
            assert!(
                !(whole && (name == t.file || name == "game")),
                "{}: the file build wrote, named {name}: {text}",
                t.id
            );
        }
    }
}

// --- timing values --------------------------------------------------------------------------

const TIMING_WORDS: &[&str] = &[
    "machine",
    "cpu",
    "48k",
    "128k",
    "fast",
    "slow",
    "dma-off",
    "iie",
    "pal",
    "ntsc",
    "",
    " ",
    "-",
    "\u{1b}[2J",
    "\u{0}",
    "é",
    "MACHINE",
    "x",
];

/// `--timing` on any machine: a model of that machine, the CPU clock, or an error that names
/// the model or the machine; a machine built under the model runs random code for a few
/// thousand cycles with a machine time at least its CPU time, finite.
fn check_timing(choice: &str, machine: prop::sample::Index, code: &[u8]) {
    use kempelen_emulator::timing::{Timing, machine_timing};
    use kempelen_emulator::{Personality, clock};
    let mut ids: Vec<&str> = clock::MACHINES.iter().map(|m| m.id).collect();
    ids.push("cpm");
    let id = ids[machine.index(ids.len())];
    let timing = Timing::parse(choice);
    let _ = timing.check_known(&ids);
    let model = match timing.model_for(id) {
        Ok(model) => model,
        Err(e) => {
            let text = e.to_string();
            assert!(text.contains(id) || text.contains(choice), "{text}");
            return;
        }
    };
    match (&timing, model) {
        (Timing::Cpu, m) => assert!(m.is_none()),
        (Timing::Named(n), m) => assert!(m.is_some_and(|m| &m.id == n), "{n}"),
        (Timing::Machine, Some(m)) => {
            assert!(machine_timing(id).is_some_and(|t| t.model(&m.id).is_some()))
        }
        (Timing::Machine, None) => {}
    }
    let Some(p) = Personality::built_in(id) else {
        return;
    };
    let at = p.load.unwrap_or(0x0200);
    let code = &code[..code.len().min(0x10000 - usize::from(at))];
    let Ok(mut m) = p.builder().load(at, code).entry(at).timing(model).build() else {
        return;
    };
    m.console_mut().set_stop_on_empty_input(true);
    let Ok(stats) = m.run(5_000) else {
        return;
    };
    if let Some(t) = stats.machine_time {
        let cpu = stats.time_at(p.clock).as_secs_f64();
        assert!(t.seconds().is_finite(), "{t:?}");
        assert!(
            t.seconds() >= cpu - 1.0 / t.model.hz - 1e-12,
            "{} < {cpu}",
            t.seconds()
        );
    }
}

// --- tournaments at scale: schedules, slices, long names, PGN to ratings ----------------------

const SHARD_WORDS: &[&str] = &[
    "1",
    "2",
    "3",
    "0",
    "/",
    "4294967295",
    "18446744073709551615",
    "18446744073709551616",
    " ",
    "-1",
    "x",
    "100000000",
];

/// A schedule of any size and a slice of it (`--games` up to 2^32-1, `--shard K/N` as typed):
/// the slice's games are computed one at a time, each in the slice, of two different players,
/// with an opening of the set; small schedules are covered by their slices exactly once.
fn check_schedule(players: usize, gauntlet: bool, games: u32, openings: usize, shard: &str) {
    use kempelen_engine::tournament::{Format, Schedule, Shard};
    let format = if gauntlet {
        Format::Gauntlet
    } else {
        Format::RoundRobin
    };
    let Ok(schedule) = Schedule::new(players, format, games, openings) else {
        return;
    };
    let shard: Option<Shard> = match shard.parse::<Shard>() {
        Ok(s) => {
            assert_eq!(s.to_string().parse::<Shard>(), Ok(s));
            Some(s)
        }
        Err(e) => {
            assert!(e.starts_with("shard '"), "{e}");
            None
        }
    };
    let slice = schedule.slice(shard);
    let n = slice.len();
    assert!(n <= schedule.len());
    for k in [0, 1, n / 2, n.saturating_sub(1), n] {
        match slice.get(k) {
            Some(g) => {
                assert!(k < n);
                assert!(shard.is_none_or(|s| s.contains(g.round)), "{g:?}");
                assert!(g.white != g.black && g.white < players && g.black < players);
                assert!(g.opening < openings.max(1));
            }
            None => assert!(k >= n),
        }
    }
    if let Some(s) = shard.filter(|s| schedule.len() <= 500 && s.count <= 50) {
        let total: usize = (1..=s.count)
            .map(|index| {
                schedule
                    .slice(Some(Shard {
                        index,
                        count: s.count,
                    }))
                    .len()
            })
            .sum();
        assert_eq!(total, schedule.len());
    }
}

/// PGN words for ratings: names of every length up to past a tag's limit, results that agree
/// or disagree, tags given twice.
const RATING_WORDS: &[&str] = &[
    "[White \"a\"]\n",
    "[White \"b\"]\n",
    "[Black \"a\"]\n",
    "[Black \"c\"]\n",
    "[Black \"b\"]\n",
    "[Result \"1-0\"]\n",
    "[Result \"0-1\"]\n",
    "[Result \"1/2-1/2\"]\n",
    "[Result \"*\"]\n",
    "[Round \"1\"]\n",
    "\n",
    "1. e4 e5 ",
    "1-0\n\n",
    "0-1\n\n",
    "1/2-1/2\n\n",
    "*\n\n",
    "{\u{1b}[2J}",
    "\u{0}",
];

/// A collection of PGN games rated as `kempelen ratings` rates them: standings whose text and
/// JSON are written (names up to a tag's 255 characters, anchors up to 10,000 Elo), or an
/// error at `source:line:column`; a name past 255 characters never reaches the table.
fn check_ratings(pgn: &str, anchor: &str) {
    use kempelen_engine::tournament::PgnCollection;
    let mut c = PgnCollection::new();
    if let Err(e) = c.add(pgn, "r.pgn") {
        assert!(e.place.starts_with("r.pgn:"), "{}", e.place);
        return;
    }
    let anchor = (!anchor.is_empty()).then_some(anchor);
    let Ok(s) = c.standings(anchor) else {
        return;
    };
    let text = s.to_text();
    assert!(
        text.lines().all(|l| l.chars().count() < 2_000),
        "a line too long"
    );
    assert!(!text.contains('\u{1b}'), "a raw ESC");
    let mut json = Vec::new();
    s.write_json(serde_json::json!({}), &mut json).unwrap();
    serde_json::from_slice::<serde_json::Value>(&json).expect("the JSON reads");
}

/// A name of `n` characters.
fn long_name() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "[a-c]{1,3}",
        1 => (250usize..=260).prop_map(|n| "n".repeat(n)),
        1 => (0usize..70_000).prop_map(|n| "l".repeat(n)),
    ]
}

/// A PGN of words, with names of any length among them.
fn ratings_pgn() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            6 => prop::sample::select(RATING_WORDS).prop_map(str::to_string),
            1 => long_name().prop_map(|n| format!("[White \"{n}\"]\n")),
            1 => long_name().prop_map(|n| format!("[Black \"{n}\"]\n")),
        ],
        0..40,
    )
    .prop_map(|w| w.concat())
}

const ANCHORS: &[&str] = &[
    "", "a=0", "a=1500", "b=-10000", "a=10000", "a=10001", "a=1e308", "a=inf", "a=nan", "nosuch=1",
    "a", "=1", "a=-0",
];

/// Time limits of every kind, down to 0 and up to ~584 million years.
fn time_limits() -> impl Strategy<Value = kempelen_engine::Limits> {
    use std::time::Duration;
    let ms = || {
        prop::option::of(
            prop_oneof![Just(0u64), Just(1), 0u64..200_000, Just(u64::MAX / 1000)]
                .prop_map(Duration::from_millis),
        )
    };
    (ms(), ms(), ms(), prop::option::of(0u32..100)).prop_map(|(movetime, time, inc, movestogo)| {
        kempelen_engine::Limits {
            movetime,
            wtime: time,
            btime: time,
            winc: inc,
            binc: inc,
            movestogo,
            ..kempelen_engine::Limits::default()
        }
    })
}

const LEVEL_SEEDS: &[&str] = &[LEVEL_SEED];

fn shard_text() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => (1usize..20, 1usize..20).prop_map(|(k, n)| format!("{k}/{n}")),
        1 => (any::<usize>(), any::<usize>()).prop_map(|(k, n)| format!("{k}/{n}")),
        1 => words(SHARD_WORDS, 5),
    ]
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn program_files(
        target in any::<prop::sample::Index>(),
        damage in file_damage(),
        name in prop::sample::select(PROGRAM_NAMES),
    ) {
        check_program_file(target, &damage, name);
    }

    #[test]
    fn timing_values(
        choice in prop_oneof![3 => words(TIMING_WORDS, 3), 1 => "\\PC{0,12}"],
        machine in any::<prop::sample::Index>(),
        code in prop::collection::vec(any::<u8>(), 0..64),
    ) {
        check_timing(&choice, machine, &code);
    }

    #[test]
    fn tournament_schedules(
        players in prop_oneof![4 => 0usize..12, 1 => Just(1000usize)],
        gauntlet in any::<bool>(),
        games in prop_oneof![3 => 1u32..10, 1 => any::<u32>()],
        openings in 0usize..100,
        shard in shard_text(),
    ) {
        check_schedule(players, gauntlet, games, openings, &shard);
    }

    #[test]
    fn ratings_input(pgn in ratings_pgn(), anchor in prop::sample::select(ANCHORS)) {
        check_ratings(&pgn, anchor);
    }

    #[test]
    fn adaptor_time_models(
        text in mutated(LEVEL_SEEDS, ADAPTOR_LINES, ADAPTOR_VALUES),
        limits in time_limits(),
    ) {
        check_adaptor_with(&text, &limits);
    }
}

/// The long campaign: each property of this file at 100,000 cases, one after the other, each
/// in its own run of this test binary, with its time (`cargo test --release --test fuzz --
/// --ignored`; the figures are in docs/TESTING.md).
#[test]
#[ignore]
fn campaign_of_100000_cases_each() {
    use std::process::Command;
    let exe = std::env::current_exe().unwrap();
    let list = Command::new(&exe).args(["--list"]).output().unwrap();
    let names: Vec<String> = String::from_utf8_lossy(&list.stdout)
        .lines()
        .filter_map(|l| l.strip_suffix(": test"))
        .filter(|n| !n.starts_with("campaign"))
        .map(str::to_string)
        .collect();
    assert!(names.len() >= 17, "{names:?}");
    let mut failed = Vec::new();
    for name in &names {
        let start = std::time::Instant::now();
        let out = Command::new(&exe)
            .env("KEMPELEN_FUZZ_CASES", "100000")
            .args(["--exact", name, "--test-threads", "1"])
            .output()
            .unwrap();
        let ok = out.status.success();
        eprintln!(
            "{name}: 100,000 cases, {:.0} s, {}",
            start.elapsed().as_secs_f64(),
            if ok { "no finding" } else { "FINDING" }
        );
        if !ok {
            eprintln!("{}", String::from_utf8_lossy(&out.stdout));
            failed.push(name.clone());
        }
    }
    assert!(failed.is_empty(), "findings in {failed:?}");
}
