//! The historical programs themselves, through their adaptor files: the 1976 Microchess binary
//! on the `kim-1` personality and the published Sargon on `jupiter-3`, each playing a full game
//! against the native engine (depth 1) through `kempelen uci --program`, driven by
//! python-chess. The programs are not part of Kempelen: these tests are ignored, and run only
//! when `KEMPELEN_HISTORICAL` names a folder holding `microchess.h65` (gbraad/Microchess),
//! `microchess_drictor.asm` (Rictor's serial version, netzerohero/MicrochessRP6502) and
//! `sargon-z80.asm` (retro-sargon's `stages/sargon-z80.asm`); the adaptors assemble the two
//! sources, unmodified, with Kempelen's assembler and its dialect options:
//!
//! ```text
//! KEMPELEN_HISTORICAL=DIR cargo test -p kempelen --test historical -- --ignored --nocapture
//! ```
//!
//! Each prints the emulated time of every move of the program at its machine's clock.

mod common;

use std::path::Path;
use std::process::Command;

/// A full game of the program (`colour`, at `depth`) against the native engine at depth 1.
fn play(adaptor: &str, file: &str, colour: &str, depth: u32) {
    let Ok(dir) = std::env::var("KEMPELEN_HISTORICAL") else {
        eprintln!("SKIPPED: set KEMPELEN_HISTORICAL to the folder with the historical programs");
        return;
    };
    assert!(
        Path::new(&dir).join(file).exists(),
        "{dir}/{file} is missing (see the adaptor file for where to get it)"
    );
    let root = env!("CARGO_MANIFEST_DIR");
    game(&format!("{root}/adaptors/{adaptor}"), colour, depth);
}

/// A full game through tests/historical_uci.py: `program` is an adaptor file or `kempelen
/// uci` options; the game must end by the rules.
fn game(program: &str, colour: &str, depth: u32) {
    let Some(results) = common::python_session(
        "historical_uci.py",
        &[program, colour, "400", &depth.to_string()],
    ) else {
        return;
    };
    let f = &results[0];
    assert_eq!(f[3], "True", "a proper end of the game: {f:?}");
}

#[test]
#[ignore = "needs KEMPELEN_HISTORICAL with microchess.h65; a game takes about 2 minutes"]
fn microchess_1976_plays_a_full_game_on_the_kim1() {
    play("microchess-kim1.toml", "microchess.h65", "white", 1);
}

#[test]
#[ignore = "needs KEMPELEN_HISTORICAL with sargon-z80.asm; a game takes several minutes"]
fn sargon_plays_a_full_game_on_the_jupiter3() {
    play("sargon-jupiter3.toml", "sargon-z80.asm", "white", 2);
}

/// Sargon as Black: a game begun with the player as White, so its first move comes from its
/// one-move book (which reads the opponent's first move); the game then goes on move by move.
#[test]
#[ignore = "needs KEMPELEN_HISTORICAL with sargon-z80.asm; a game takes several minutes"]
fn sargon_plays_a_full_game_as_black() {
    play("sargon-jupiter3.toml", "sargon-z80.asm", "black", 2);
}

#[test]
#[ignore = "needs KEMPELEN_HISTORICAL with microchess_drictor.asm; a game takes about 2 minutes"]
fn microchess_rictor_plays_a_full_game_on_its_sbc() {
    play(
        "microchess-rictor.toml",
        "microchess_drictor.asm",
        "white",
        1,
    );
}

/// Microchess as Black: C sets up the board, E exchanges the sides (the program then counts
/// squares from the other side of the board).
#[test]
#[ignore = "needs KEMPELEN_HISTORICAL with microchess.h65; a game takes about 2 minutes"]
fn microchess_1976_plays_a_full_game_as_black() {
    play("microchess-kim1.toml", "microchess.h65", "black", 1);
}

#[test]
#[ignore = "needs KEMPELEN_HISTORICAL with microchess_drictor.asm; a game takes about 2 minutes"]
fn microchess_rictor_plays_a_full_game_as_black() {
    play(
        "microchess-rictor.toml",
        "microchess_drictor.asm",
        "black",
        1,
    );
}

/// Kempelen's own builds on the historical programs' machines, for the figures beside them:
/// the Z80 engine on the Jupiter III (Sargon's machine) and the 6502 engine on the KIM-1
/// (Microchess's), each at depth 4 as White against the native engine at depth 1. Needs no
/// historical program.
#[test]
#[ignore = "full games in the emulator; about a minute each in a release build"]
fn kempelen_builds_play_a_game_on_the_historical_machines() {
    game("--cpu z80 --machine jupiter-3", "white", 4);
    game("--cpu 6502 --machine kim-1", "white", 4);
}

/// The historical programs as tournament players: `kempelen tournament` runs
/// `kempelen uci --program ADAPTOR` as a UCI engine, one game from the start position (the
/// adaptors play White from the first move) against the reference profile at depth 1; the
/// game must end by the rules.
fn tournament_game(label: &str, adaptor: &str, file: &str) {
    let Ok(dir) = std::env::var("KEMPELEN_HISTORICAL") else {
        eprintln!("SKIPPED: set KEMPELEN_HISTORICAL to the folder with the historical programs");
        return;
    };
    assert!(
        Path::new(&dir).join(file).exists(),
        "{dir}/{file} is missing"
    );
    let root = env!("CARGO_MANIFEST_DIR");
    let scratch = std::env::temp_dir().join(format!("kempelen-historical-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let start = scratch.join("start.epd");
    std::fs::write(
        &start,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"start\";\n",
    )
    .unwrap();
    let bin = env!("CARGO_BIN_EXE_kempelen");
    let player = format!("{label}=uci:{bin} uci --program {root}/adaptors/{adaptor}");
    let out = Command::new(bin)
        .args([
            "tournament",
            &player,
            "reference",
            "--depth",
            "1",
            "--games",
            "1",
            "--openings",
            start.to_str().unwrap(),
            "--move-timeout",
            "120",
            "--json",
        ])
        .output()
        .expect("run kempelen tournament");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    println!("{stdout}");
    assert!(!stdout.contains("engine failure"), "{stdout}");
    assert!(!stdout.contains("forfeit"), "{stdout}");
}

#[test]
#[ignore = "needs KEMPELEN_HISTORICAL with sargon-z80.asm; a game takes about a minute"]
fn sargon_plays_a_tournament_game() {
    tournament_game("sargon1978", "sargon-jupiter3.toml", "sargon-z80.asm");
}

#[test]
#[ignore = "needs KEMPELEN_HISTORICAL with microchess.h65; a game takes about a minute"]
fn microchess_1976_plays_a_tournament_game() {
    tournament_game("microchess1976", "microchess-kim1.toml", "microchess.h65");
}

/// retro-sargon's regression positions (`src/sargon-tests.cpp` of billforsternz/retro-sargon:
/// each a position, a look-ahead and the move the original Sargon chooses there, found by
/// running the book's listing translated instruction by instruction), played by the real
/// program: Sargon assembled by Kempelen from the listing, on `jupiter-3`, set up in each
/// position through its own ANALYS mode by the adaptor (`[[setup]]` in
/// adaptors/sargon-jupiter3.toml), asked with `go depth N`. The start position is listed twice,
/// once for each move of Sargon's random one-move book (e2e4, d2d4): either agrees. Needs
/// `sargon-z80.asm` and `sargon-tests.cpp` in `KEMPELEN_HISTORICAL`. Prints each position's
/// move and the emulated time at the Jupiter III's clock. A search that does not end within
/// the adaptor's turn budget (4 x 10^11 cycles, 55.6 hours at 2 MHz) is reported as not finished;
/// every finished position must agree, and at least 30 must finish.
#[test]
#[ignore = "needs KEMPELEN_HISTORICAL with sargon-z80.asm and sargon-tests.cpp; takes about half an hour"]
fn sargon_program_plays_retro_sargons_regression_positions() {
    use std::io::{BufRead, BufReader, Write};
    let Ok(dir) = std::env::var("KEMPELEN_HISTORICAL") else {
        eprintln!("SKIPPED: set KEMPELEN_HISTORICAL to the folder with the historical programs");
        return;
    };
    let text = std::fs::read_to_string(Path::new(&dir).join("sargon-tests.cpp"))
        .expect("sargon-tests.cpp (retro-sargon's src/sargon-tests.cpp) in KEMPELEN_HISTORICAL");
    let cases = regression_positions(&text);
    assert!(cases.len() >= 30, "found only {} positions", cases.len());
    let root = env!("CARGO_MANIFEST_DIR");
    let mut child = Command::new(env!("CARGO_BIN_EXE_kempelen"))
        .args([
            "uci",
            "--program",
            &format!("{root}/adaptors/sargon-jupiter3.toml"),
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run kempelen uci --program");
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut differ = Vec::new();
    let mut unfinished = Vec::new();
    for (fen, depth, expected) in &cases {
        writeln!(stdin, "position fen {fen}\ngo depth {depth}").unwrap();
        let mut time = String::new();
        let mut failed = None;
        let got = loop {
            let line = lines.next().expect("a reply").unwrap();
            if let Some(t) = line.split(" time ").nth(1) {
                time = t.split(' ').next().unwrap_or("").to_string();
            }
            if line.starts_with("info string error") {
                failed = Some(line.clone());
            }
            if let Some(m) = line.strip_prefix("bestmove ") {
                break m.split(' ').next().unwrap_or("").to_string();
            }
        };
        if let Some(e) = failed {
            // The search did not end within the adaptor's turn budget (or failed otherwise):
            // the UCI front end then plays a legal move of its own, which says nothing.
            println!("{fen} look-ahead {depth}: expected {expected}, not finished: {e}");
            unfinished.push(format!("{fen} look-ahead {depth}: {e}"));
            continue;
        }
        // A position listed more than once at the same look-ahead with different moves is a
        // random book choice (the start position: e2e4 or d2d4): any listed move agrees.
        let listed: Vec<&str> = cases
            .iter()
            .filter(|(f, d, _)| f == fen && d == depth)
            .map(|(_, _, m)| m.as_str())
            .collect();
        let agrees = listed.contains(&got.as_str());
        let verdict = if agrees { "agrees" } else { "DIFFERS" };
        println!(
            "{fen} look-ahead {depth}: expected {}, Sargon {got}, {time} ms emulated: {verdict}",
            listed.join(" or ")
        );
        if !agrees {
            differ.push(format!(
                "{fen} look-ahead {depth}: expected {expected}, got {got}"
            ));
        }
    }
    writeln!(stdin, "quit").unwrap();
    child.wait().unwrap();
    let finished = cases.len() - unfinished.len();
    println!(
        "{} of {finished} finished positions agree; {} of {} did not finish",
        finished - differ.len(),
        unfinished.len(),
        cases.len()
    );
    assert!(differ.is_empty(), "{differ:#?}");
    assert!(
        finished >= 30,
        "only {finished} positions finished: {unfinished:#?}"
    );
}

/// The `tests[]` table of retro-sargon's sargon-tests.cpp: (FEN, look-ahead, expected move).
fn regression_positions(text: &str) -> Vec<(String, u32, String)> {
    let start = text.find("static TEST tests[]").expect("the tests[] table");
    let body: String = text[start..]
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let parts: Vec<&str> = body.split('"').collect();
    let mut cases = Vec::new();
    let mut i = 1;
    while i + 2 < parts.len() {
        let depth = parts[i + 1]
            .trim_matches(|c: char| c == ',' || c.is_whitespace())
            .parse::<u32>();
        let is_fen = parts[i].split(' ').count() >= 4 && parts[i].contains('/');
        match depth {
            Ok(depth) if is_fen => {
                cases.push((parts[i].to_string(), depth, parts[i + 2].to_string()));
                i += 4;
            }
            _ => i += 2,
        }
    }
    cases
}

/// Kempelen's Z80 build against the real Sargon, both on the Jupiter III at 2 MHz, on
/// emulated clocks at 40 moves in two hours (the tournament rate of 1978), as in-process
/// tournament players (`z80:Machine=jupiter-3`, `program:adaptors/sargon-jupiter3.toml`): the
/// first 30 plies of a game from the start position with Sargon as White, played twice. Every
/// move carries the emulated time it took (`[%emt]`) and the clock after it (`[%clk]`), both
/// players' machines are in the tags, and the two runs give the same PGN, move for move and
/// millisecond for millisecond.
#[test]
#[ignore = "needs KEMPELEN_HISTORICAL with sargon-z80.asm; two 30-ply games, 32 s of CPU in a debug build (4 minutes on the shared development host)"]
fn z80_build_against_sargon_on_emulated_clocks() {
    let Ok(dir) = std::env::var("KEMPELEN_HISTORICAL") else {
        eprintln!("SKIPPED: set KEMPELEN_HISTORICAL to the folder with the historical programs");
        return;
    };
    assert!(
        Path::new(&dir).join("sargon-z80.asm").exists(),
        "{dir}/sargon-z80.asm is missing"
    );
    let root = env!("CARGO_MANIFEST_DIR");
    let scratch =
        std::env::temp_dir().join(format!("kempelen-historical-clock-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let start = scratch.join("start.epd");
    std::fs::write(
        &start,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"start\";\n",
    )
    .unwrap();
    let sargon = format!("sargon=program:{root}/adaptors/sargon-jupiter3.toml");
    let run = |name: &str| {
        let pgn = scratch.join(name);
        let out = Command::new(env!("CARGO_BIN_EXE_kempelen"))
            .args([
                "tournament",
                &sargon,
                "z80=z80:Machine=jupiter-3",
                "--clock",
                "emulated",
                "--tc",
                "40/7200",
                "--games",
                "1",
                "--max-plies",
                "30",
                "--openings",
                start.to_str().unwrap(),
                "--move-timeout",
                "300",
                "--pgn",
                pgn.to_str().unwrap(),
            ])
            .output()
            .expect("run kempelen tournament");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        println!("{stdout}");
        std::fs::read_to_string(pgn).unwrap()
    };
    let first = run("first.pgn");
    println!("{first}");
    for tag in [
        "[White \"sargon\"]",
        "[TimeControl \"40/7200\"]",
        "[WhiteMachine \"jupiter-3\"]",
        "[WhiteMHz \"2\"]",
        "[BlackMachine \"jupiter-3\"]",
        "[WhiteClock \"emulated\"]",
        "[BlackClock \"emulated\"]",
    ] {
        assert!(first.contains(tag), "{tag}: {first}");
    }
    assert!(!first.contains("engine failure"), "{first}");
    let plies: usize = first
        .lines()
        .find_map(|l| l.strip_prefix("[PlyCount \""))
        .unwrap()
        .trim_end_matches("\"]")
        .parse()
        .unwrap();
    assert_eq!(first.matches("[%emt ").count(), plies, "{first}");
    assert_eq!(first.matches("[%clk ").count(), plies, "{first}");
    assert_eq!(
        run("second.pgn"),
        first,
        "the same game, move for move, time for time"
    );
}
