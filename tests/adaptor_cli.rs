//! End-to-end: the engine adaptor format drives the project's own Z80 console front end
//! (assembled here from roms-src/z80/console.asm) as a UCI engine, `kempelen uci --program
//! adaptors/kempelen-console-z80.toml`, through full games played by python-chess against the
//! native engine (depth limits only). Skipped with a message when python-chess is missing.

mod common;

use common::{UciSession, python_chess_available, succeeds, text};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

fn scratch(name: &str) -> PathBuf {
    common::scratch(&format!("adaptor-{name}"))
}

/// The console ROM assembled next to a copy of the shipped adaptor file.
fn console_adaptor(name: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = scratch(name);
    let rom = dir.join("console.bin");
    common::assembles(&root.join("roms-src/z80/console.asm"), "z80", &rom, &[]);
    let adaptor = dir.join("kempelen-console-z80.toml");
    std::fs::copy(root.join("adaptors/kempelen-console-z80.toml"), &adaptor).unwrap();
    adaptor
}

#[test]
fn console_front_end_plays_full_games_through_an_adaptor() {
    if !python_chess_available() {
        eprintln!("SKIPPED: python3 with the 'chess' package is not installed (pip install chess)");
        return;
    }
    let adaptor = console_adaptor("games");
    let Some(results) = common::python_session("adaptor_uci.py", &[adaptor.to_str().unwrap()])
    else {
        return;
    };
    assert_eq!(results.len(), 2, "{results:?}");
    for f in results {
        // RESULT colour result plies game_over mean_time
        assert_eq!(f[4], "True", "the game reached a proper end: {f:?}");
        assert!(f[3].parse::<u32>().unwrap() > 10, "{f:?}");
        assert!(
            f[5].parse::<f64>().unwrap() > 0.0,
            "emulated time is reported: {f:?}"
        );
    }
}

#[test]
fn uci_session_by_hand_reports_emulated_time_and_the_reply() {
    let adaptor = console_adaptor("hand");
    // `quit` stops a search at once (as a GUI means it): it is sent after the `bestmove`.
    let mut s = UciSession::start(&["uci", "--program", adaptor.to_str().unwrap()]);
    for line in [
        "uci",
        "isready",
        "position startpos moves f2f3",
        "go depth 2",
    ] {
        s.send(line);
    }
    s.wait_for("bestmove", Duration::from_secs(120));
    let stdout = s.seen.join("\n");
    s.finish();
    assert!(
        stdout.contains("id name Kempelen console front end (Z80)"),
        "{stdout}"
    );
    assert!(stdout.contains("info depth 2"), "{stdout}");
    let best = stdout
        .lines()
        .find(|l| l.starts_with("bestmove "))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(best.len() >= 13, "{best}");
}

#[test]
fn adaptor_errors_name_the_file_and_place() {
    let dir = scratch("bad");
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "name = \"x\"\ncpu = \"z80\"\nkeys = 3\n").unwrap();
    // No input: `output` gives none.
    common::fails_with(&["uci", "--program", common::arg(&bad)], &["bad.toml:3:8:"]);
}

/// Sends a UCI script to `kempelen uci --program ADAPTOR` and returns what it printed.
fn uci_script(adaptor: &Path, script: &str) -> String {
    text(&common::with_input(&["uci", "--program", adaptor.to_str().unwrap()], script).stdout)
}

/// `[[setup]]`, `[board]`, pokes by symbol, the restart and `[depth]`, on a small program of
/// our own (tests/data/adaptor/setup-toy.asm) that accepts a set-up only after a restart and
/// answers with a king move of the side to move and the depth the host wrote into it.
#[test]
fn setup_steps_type_the_board_poke_by_symbol_and_restart() {
    let adaptor = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/adaptor/setup-toy.toml");
    let out = uci_script(
        &adaptor,
        "uci\n\
         position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 9\ngo depth 7\n\
         position fen 8/8/8/8/8/8/2k5/K7 b - - 0 30\ngo\n\
         position fen 8/8/8/8/8/2K5/8/7k w - - 0 30\ngo depth 3\nquit\n",
    );
    let best: Vec<&str> = out.lines().filter(|l| l.starts_with("bestmove")).collect();
    // The king found on the board as typed from a1 to h8, moved by the side to move.
    assert_eq!(
        best,
        ["bestmove e1e2", "bestmove c2c1", "bestmove c3c4"],
        "{out}"
    );
    // The depth is the poke's (`go depth 7` is beyond the file's `max = 6`: the program
    // searches at its highest level, 6; without a limit the adaptor's default 2).
    let depths: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("info depth"))
        .map(|l| l.split(' ').nth(2).unwrap())
        .collect();
    assert_eq!(depths, ["6", "2", "3"], "{out}");
    assert!(!out.contains("error"), "{out}");
}

/// A copy of the toy adaptor `tests/data/adaptor/{name}.toml` in `dir`, its text changed by
/// `edit`, with the toys' sources beside it.
fn toy_copy(name: &str, dir: &Path, edit: impl Fn(String) -> String) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/adaptor");
    for file in ["setup-toy.asm", "behave-toy.asm", "toy-console.inc"] {
        std::fs::copy(root.join(file), dir.join(file)).unwrap();
    }
    let toml = std::fs::read_to_string(root.join(format!("{name}.toml"))).unwrap();
    let adaptor = dir.join(format!("{name}.toml"));
    std::fs::write(&adaptor, edit(toml)).unwrap();
    adaptor
}

/// `kempelen uci --program adaptor`, which must refuse the adaptor: its standard error.
fn refused_adaptor(adaptor: &Path, case: usize) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_kempelen"))
        .args(["uci", "--program", adaptor.to_str().unwrap()])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success(), "case {case}");
    text(&out.stderr)
}

/// The toy refuses a set-up on a machine that was not restarted: without the `restart` step
/// the adaptor gets no reply and says so.
#[test]
fn setup_without_the_restart_gets_no_reply() {
    let adaptor = toy_copy("setup-toy", &scratch("norestart"), |toml| {
        toml.replace("restart = true\n", "")
    });
    let out = uci_script(
        &adaptor,
        "uci\nposition fen 4k3/8/8/8/8/8/8/4K3 w - - 0 9\ngo depth 2\nquit\n",
    );
    assert!(out.contains("no reply matching"), "{out}");
}

/// Bad `[[setup]]` and `[board]` descriptions are refused when the adaptor is read, naming
/// the file and what is wrong.
#[test]
fn bad_setup_descriptions_are_refused_with_the_reason() {
    let dir = scratch("badsetup");
    let good = std::fs::read_to_string(toy_copy("setup-toy", &dir, |toml| toml)).unwrap();
    let cases = [
        (good.replace("at = \"DEPTH\"", "at = \"NOSUCH\""), "NOSUCH"),
        (good.replace("entry = \"0000\"\n", ""), "give its `entry`"),
        (
            good.replace("first = \"a1\"", "first = \"h1\""),
            "first = `h1`",
        ),
        (
            format!(
                "{}{}",
                &good[..good.find("[board]").unwrap()],
                &good[good.find("[reply]").unwrap()..]
            ),
            "describe it in [board]",
        ),
    ];
    for (i, (toml, want)) in cases.iter().enumerate() {
        let adaptor = dir.join(format!("bad{i}.toml"));
        std::fs::write(&adaptor, toml).unwrap();
        let err = refused_adaptor(&adaptor, i);
        assert!(err.contains(want), "case {i}: {err}");
        assert!(err.contains(&format!("bad{i}.toml")), "case {i}: {err}");
    }
}

/// An image's `assemble` takes the assembler's dialect options (`dialect`,
/// `paren_closes_bracket`, as adaptors/sargon-book-jupiter3.toml does): an unknown dialect is
/// refused by name, and a Zilog source read as TDL fails with the assembler's report.
#[test]
fn an_images_assemble_takes_the_dialect() {
    let dir = scratch("dialect");
    let good = std::fs::read_to_string(toy_copy("setup-toy", &dir, |toml| toml)).unwrap();
    let cases = [
        (
            good.replace(
                "assemble = { cpu = \"z80\" }",
                "assemble = { cpu = \"z80\", dialect = \"zilog\" }",
            ),
            "unknown dialect 'zilog' (expected 'kempelen' or 'tdl')",
        ),
        (
            good.replace(
                "assemble = { cpu = \"z80\" }",
                "assemble = { cpu = \"z80\", dialect = \"tdl\", paren_closes_bracket = true }",
            ),
            "is a Zilog mnemonic; TDL's syntax (--dialect tdl) writes",
        ),
    ];
    for (i, (toml, want)) in cases.iter().enumerate() {
        assert_ne!(toml, &good, "case {i} changed nothing");
        let adaptor = dir.join(format!("dialect{i}.toml"));
        std::fs::write(&adaptor, toml).unwrap();
        let err = refused_adaptor(&adaptor, i);
        assert!(err.contains(want), "case {i}: {err}");
    }
}

/// A copy of tests/data/adaptor/behave-toy.toml (and its source) whose `go` key is `go`: the
/// toy's behaviour.
fn toy(go: &str) -> PathBuf {
    toy_copy("behave-toy", &scratch(&format!("toy-{go}")), |toml| {
        toml.replace("go = \"T\"", &format!("go = \"{go}\""))
    })
}

/// The `bestmove` line and the lines before it of one search in a fresh session.
fn one_search(adaptor: &Path, position: &str, go: &str) -> (String, Vec<String>, String) {
    let mut s = UciSession::start(&["uci", "--program", adaptor.to_str().unwrap()]);
    s.send(position);
    s.send(go);
    let (best, _) = s.wait_for("bestmove", Duration::from_secs(60));
    let lines = s.seen.clone();
    let err = s.finish();
    (best, lines, err)
}

/// Every line the engine printed is a UCI line: nothing else reaches standard output.
fn assert_only_uci(lines: &[String]) {
    for l in lines {
        assert!(
            ["id ", "option ", "uciok", "readyok", "info ", "bestmove "]
                .iter()
                .any(|p| l.starts_with(p)),
            "not a UCI line: {l}\n{}",
            lines.join("\n")
        );
    }
}

/// The program prints a pawn's move to the last rank without a piece: the piece is read from
/// its board in RAM (a knight here, so no queen is assumed); with nothing there, no move.
#[test]
fn a_promotion_is_read_from_the_programs_board() {
    let fen = "position fen 7k/P7/8/8/8/8/8/K7 w - - 0 1";
    let (best, lines, _) = one_search(&toy("P"), fen, "go depth 1");
    assert_eq!(best, "bestmove a7a8n", "{lines:?}");
    let (best, lines, _) = one_search(&toy("E"), fen, "go depth 1");
    assert_eq!(best, "bestmove 0000", "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("info string error")
            && l.contains("`a7a8` is not legal here")
            && l.contains("holds $00 there")),
        "{lines:?}"
    );
}

/// A fault, garbage and an illegal move: each is `bestmove 0000` with the reason in one
/// `info string`; the fault's trace goes to standard error, never to standard output.
#[test]
fn faults_and_unreadable_replies_give_no_move_and_say_why() {
    let fen = "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1";
    for (go, why) in [
        ("F", "the program faulted after"),
        ("G", "no reply matching"),
        ("I", "its reply `e1e5` is not legal here"),
    ] {
        let (best, lines, err) = one_search(&toy(go), fen, "go depth 2");
        assert_eq!(best, "bestmove 0000", "{go}: {lines:?}");
        let errors: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info string error"))
            .collect();
        assert_eq!(errors.len(), 1, "{go}: {lines:?}");
        assert!(errors[0].contains(why), "{go}: {errors:?}");
        assert_only_uci(&lines);
        if go == "F" {
            assert!(errors[0].contains("write of $46 to ROM"), "{errors:?}");
            assert!(err.contains("registers:"), "the trace on stderr: {err}");
            assert!(err.contains("last 14 instructions:"), "{err}");
            // The assembled source's names: the routine the fault is in.
            assert!(
                err.contains("fault"),
                "the source's symbols in the trace: {err}"
            );
            assert!(err.contains("command+"), "{err}");
        }
    }
}

/// Time is emulated: under `go movetime 2000` the toy (which thinks for ever) is stopped at 2 s
/// of emulated time and its held move is played, with the nodes counted from its NODE routine
/// (the same in every run) and its score; `go nodes` stops it at the node limit.
#[test]
fn a_stopped_search_plays_the_move_the_program_holds() {
    let adaptor = toy("T");
    let fen = "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1";
    let mut finals = Vec::new();
    for _ in 0..2 {
        let (best, lines, _) = one_search(&adaptor, fen, "go movetime 2000");
        assert_eq!(best, "bestmove e1e2", "{lines:?}");
        let last = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info "))
            .unwrap()
            .clone();
        let field = |name: &str| -> u64 {
            let w: Vec<&str> = last.split_whitespace().collect();
            let i = w
                .iter()
                .position(|x| *x == name)
                .unwrap_or_else(|| panic!("{last}"));
            w[i + 1].parse().unwrap()
        };
        let time = field("time");
        assert!((1900..=2000).contains(&time), "emulated time: {last}");
        assert!(field("nodes") > 1024, "{last}");
        assert!(last.contains("score cp 120"), "{last}");
        assert!(last.contains("string value 140 (the toy's scale"), "{last}");
        // The toy has no levels: no depth.
        assert!(!last.contains(" depth "), "{last}");
        assert_only_uci(&lines);
        finals.push(last);
    }
    assert_eq!(finals[0], finals[1], "the same nodes and time in every run");
    let (best, lines, _) = one_search(&adaptor, fen, "go nodes 5000");
    assert_eq!(best, "bestmove e1e2", "{lines:?}");
    let last = lines.iter().rev().find(|l| l.starts_with("info ")).unwrap();
    let nodes: u64 = last
        .split(" nodes ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!((5000..6000).contains(&nodes), "{last}");
}

/// `isready` and `stop` are answered during a turn, also by a program that never reads input:
/// with a move held, `stop` plays it; without one, `bestmove 0000`. `go infinite` waits for
/// `stop`. Neither program's turn ever ends by itself (T thinks for ever, L loops for ever), so
/// an answer at all is an answer during the turn, on a host of any speed; the time an answer
/// may take is only a guard against a hang. For T the questions wait until the adaptor has
/// reported the move the program holds (its info line), a condition the program defines.
#[test]
fn stop_and_isready_are_answered_during_a_turn() {
    let fen = "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1";
    for (go, best) in [("T", "bestmove e1e2"), ("L", "bestmove 0000")] {
        let mut s = UciSession::start(&["uci", "--program", toy(go).to_str().unwrap()]);
        for search in ["go infinite", "go depth 5"] {
            s.send(fen);
            let started = s.seen.len();
            s.send(search);
            if go == "T" {
                while !s
                    .wait_for("info", Duration::from_secs(60))
                    .0
                    .contains(" pv e1e2")
                {}
            }
            s.ask("isready", "readyok");
            let from = s.seen.len();
            let (line, _) = s.ask("stop", "bestmove");
            assert_eq!(line, best, "{go} {search}: {:?}", s.since(from));
            let bestmoves = s
                .since(started)
                .iter()
                .filter(|l| l.starts_with("bestmove"));
            assert_eq!(
                bestmoves.count(),
                1,
                "{go} {search}: {:?}",
                s.since(started)
            );
        }
        let seen = s.seen.clone();
        s.finish();
        assert_only_uci(&seen);
    }
}

/// A program that loops without a move: under a time limit it gives no move once its
/// (emulated) time is up, and says so.
#[test]
fn a_program_without_a_move_gives_none_when_its_time_is_up() {
    let (best, lines, _) = one_search(
        &toy("L"),
        "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "go movetime 1000",
    );
    assert_eq!(best, "bestmove 0000", "{lines:?}");
    assert!(
        lines.iter().any(
            |l| l.contains("its time was up after 0.9") && l.contains("holds no best move yet")
        ),
        "{lines:?}"
    );
}

/// A position written into the program's piece list (as Microchess keeps its board): the
/// toy answers with the king of its slot 0, so its reply shows the squares were written from
/// its side (turned round when it plays Black); a position with more pieces of a kind than
/// its slots is refused with the reason.
#[test]
fn a_position_is_written_into_the_programs_piece_list() {
    let adaptor = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/adaptor/pieces-toy.toml");
    for (fen, best) in [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "bestmove e1e2"),
        ("4k3/8/8/8/8/8/8/4K3 b - - 0 1", "bestmove e8e7"),
        ("8/8/8/8/8/1k6/8/7K b - - 0 1", "bestmove b3b2"),
    ] {
        let (line, lines, _) = one_search(&adaptor, &format!("position fen {fen}"), "go depth 1");
        assert_eq!(line, best, "{fen}: {lines:?}");
    }
    let (line, lines, _) = one_search(
        &adaptor,
        "position fen 4k3/8/8/8/8/8/8/QQ2K3 w - - 0 1",
        "go depth 1",
    );
    assert_eq!(line, "bestmove 0000", "{lines:?}");
    assert!(
        lines.iter().any(|l| l.contains(
            "piece-list toy cannot take this position: it keeps 1 queen for each side, and White has 2"
        )),
        "{lines:?}"
    );
}

/// An adaptor's `[[poke]]` past $FFFF and two `[[image]]`s that overlap are refused when the
/// file is read, with the file and the place.
#[test]
fn pokes_past_the_top_and_overlapping_images_are_refused() {
    let dir = scratch("overlap");
    std::fs::write(dir.join("a.bin"), [0u8; 16]).unwrap();
    std::fs::write(dir.join("b.bin"), [1u8; 16]).unwrap();
    let head = "name = \"x\"\ncpu = \"z80\"\n";
    let tail = "[keys]\nmove = \"{move}\"\n\n[reply]\npattern = '(?P<move>[a-h][1-8][a-h][1-8])'\n";
    let cases = [
        (
            format!(
                "{head}\n[[image]]\nfile = \"a.bin\"\nat = \"0000\"\n\n[[poke]]\nat = \"FFFE\"\nbytes = \"01 02 03\"\n\n{tail}"
            ),
            "poke.toml:10:9: [[poke]] of 3 bytes at $FFFE runs past $FFFF",
        ),
        (
            format!(
                "{head}\n[[image]]\nfile = \"a.bin\"\nat = \"0000\"\n\n[[image]]\nfile = \"b.bin\"\nat = \"0008\"\n\n{tail}"
            ),
            "overlap.toml:9:8: this [[image]] (b.bin, $0008-$0017) overlaps the [[image]] a.bin (line 5) ($0000-$000F) at $0008-$000F",
        ),
    ];
    for (i, (toml, want)) in cases.iter().enumerate() {
        let name = if i == 0 { "poke.toml" } else { "overlap.toml" };
        let adaptor = dir.join(name);
        std::fs::write(&adaptor, toml).unwrap();
        let err = refused_adaptor(&adaptor, i);
        assert!(err.contains(want), "case {i}: {err}");
    }
}

/// A time model's `[[level]]` that cannot be (a negative mean, a depth past `[depth] max`, a
/// level without `[depth]`), and a turn budget of no cycles, are refused when the file is read,
/// with the file and the place.
#[test]
fn unsound_time_model_levels_are_refused_with_their_place() {
    let dir = scratch("levels");
    std::fs::write(dir.join("a.bin"), [0u8; 16]).unwrap();
    let head = "name = \"x\"\ncpu = \"z80\"\n\n[[image]]\nfile = \"a.bin\"\nat = \"0000\"\n\n";
    let tail = "[keys]\nmove = \"{move}\"\n\n[reply]\npattern = '(?P<move>[a-h][1-8][a-h][1-8])'\n";
    let depth = "[depth]\ndefault = 1\nmax = 3\n\n";
    let level = |d: u32, mean: &str| {
        format!("[[level]]\ndepth = {d}\nmean = {mean}\nlongest = 20.0\nmoves = 10\n\n")
    };
    let cases = [
        (
            format!("{head}{depth}{}{}{tail}", level(1, "2.0"), level(2, "-5")),
            "levels.toml:18:1: [[level]] depth 2: a depth of 1 to 3, mean > 0, longest >= mean",
        ),
        (
            format!("{head}{depth}{}{tail}", level(4, "2.0")),
            "levels.toml:12:1: [[level]] depth 4: a depth of 1 to 3",
        ),
        (
            format!("{head}{}{tail}", level(1, "2.0")),
            "levels.toml:8:1: [[level]]: give the levels' range in [depth]",
        ),
        (
            format!("turn_budget = 0\n{head}{tail}"),
            "levels.toml:1:15: turn_budget = 0: a turn needs at least one cycle",
        ),
    ];
    for (i, (toml, want)) in cases.iter().enumerate() {
        let adaptor = dir.join("levels.toml");
        std::fs::write(&adaptor, toml).unwrap();
        let err = refused_adaptor(&adaptor, i);
        assert!(err.contains(want), "case {i}: {err}");
    }
}

/// `id author` names the program's authors and Kempelen as the adaptor; the options are the
/// program's level (when it has levels) and `Realtime`, which `--realtime` sets: then the
/// emulation keeps to the machine's clock, so 0.5 s of emulated time take at least that long.
#[test]
fn the_handshake_names_the_authors_and_realtime_paces_the_program() {
    let mut s = UciSession::start(&["uci", "--program", toy("T").to_str().unwrap(), "--realtime"]);
    s.send("uci");
    s.wait_for("uciok", Duration::from_secs(30));
    s.send("position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    let asked = s.send("go movetime 500");
    let (best, at) = s.wait_for("bestmove", Duration::from_secs(30));
    let seen = s.seen.clone();
    s.finish();
    assert!(
        seen.contains(
            &"id author Kempelen's tests (adapted for UCI by the Kempelen developers)".to_string()
        ),
        "{seen:?}"
    );
    assert!(
        seen.contains(&"option name Realtime type check default false".to_string()),
        "{seen:?}"
    );
    assert!(
        !seen.iter().any(|l| l.starts_with("option name Level")),
        "no levels: {seen:?}"
    );
    assert_eq!(best, "bestmove e1e2");
    assert!(
        at - asked >= Duration::from_millis(450),
        "paced: {:?}",
        at - asked
    );
    let setup = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/adaptor/setup-toy.toml");
    let mut s = UciSession::start(&["uci", "--program", setup.to_str().unwrap()]);
    s.send("uci");
    s.wait_for("uciok", Duration::from_secs(30));
    let seen = s.seen.clone();
    s.finish();
    assert!(
        seen.contains(&"option name Level type spin default 0 min 0 max 6".to_string()),
        "{seen:?}"
    );
    assert!(
        seen.contains(&"id author the Kempelen developers".to_string()),
        "{seen:?}"
    );
}

/// `kempelen bench --program` on a program that ships with Kempelen: the console front end,
/// assembled from its source, with levels (`[depth]`) and its node entries (`search`,
/// `quiesce` and `q_leaf`, where the search counts a node) named in a copy of its adaptor file. Each position's nodes are the
/// native reference search's at that depth (the build reproduces it node for node), two runs
/// agree to the cycle, and positions per second are the nodes over the cycles at the clock.
#[test]
fn program_bench_counts_the_named_node_routine_exactly() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = scratch("program-bench");
    let shipped = std::fs::read_to_string(root.join("adaptors/kempelen-console-z80.toml")).unwrap();
    assert!(shipped.contains("file = \"console.bin\""));
    let text = shipped.replace(
        "file = \"console.bin\"",
        &format!(
            "file = \"{}\"\nassemble = {{ cpu = \"z80\" }}",
            root.join("roms-src/z80/console.asm").display()
        ),
    ) + "\n[depth]\ndefault = 2\nmax = 9\n\n[nodes]\nroutines = [\"search\", \"quiesce\", \"q_leaf\"]\nwhat = \"nodes (entries to search, quiesce and q_leaf)\"\n";
    let file = dir.join("counted.toml");
    std::fs::write(&file, text).unwrap();
    let f = file.to_str().unwrap();

    // A suite of one's own: a position reached by moves (the program is given the game).
    let suite = dir.join("own.epd");
    std::fs::write(
        &suite,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -; moves \"e2e4 e7e5 g1f3\"; id \"open game\";\n",
    )
    .unwrap();
    let (stdout, _) = succeeds(&[
        "bench",
        "--program",
        f,
        "--suite",
        suite.to_str().unwrap(),
        "--level",
        "2",
        "--json",
    ]);
    let own = kempelen_claims::programs::parse("bench --suite --json", &stdout).unwrap();
    assert_eq!(own.positions_file, suite.display().to_string());
    let row = &own.programs[0].levels[0].rows[0];
    let mut g =
        kempelen_engine::Game::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
            .unwrap();
    for m in ["e2e4", "e7e5", "g1f3"] {
        g.push_uci(m).unwrap();
    }
    assert_eq!(row.fen, g.position().to_fen());
    let native = kempelen_engine::ReferenceSearch::new(
        g.position(),
        &g.reference_history(),
        kempelen_engine::ReferenceLimits {
            depth: Some(2),
            ..Default::default()
        },
    )
    .run();
    assert_eq!(row.nodes, Some(native.nodes));

    let args = [
        "bench",
        "--program",
        f,
        "--level",
        "1,2",
        "--positions",
        "3",
        "--json",
    ];
    let run = || {
        let (stdout, _) = succeeds(&args);
        kempelen_claims::programs::parse("bench --program --json", &stdout).unwrap()
    };
    let first = run();
    assert_eq!(first, run(), "two runs differ");
    let p = &first.programs[0];
    assert_eq!(p.machine, "zx-spectrum");
    assert_eq!(p.mhz, 3.5);
    assert_eq!(p.node_routines, ["search", "quiesce", "q_leaf"]);
    let levels: Vec<Option<u32>> = p.levels.iter().map(|l| l.level).collect();
    assert_eq!(levels, [Some(1), Some(2)]);
    for l in &p.levels {
        assert_eq!((l.positions, l.positions_searched), (3, 3));
        for row in &l.rows {
            let g = kempelen_engine::Game::from_fen(&row.fen).unwrap();
            let native = kempelen_engine::ReferenceSearch::new(
                g.position(),
                &g.reference_history(),
                kempelen_engine::ReferenceLimits {
                    depth: l.level,
                    ..Default::default()
                },
            )
            .run();
            assert_eq!(
                row.nodes,
                Some(native.nodes),
                "{} at {:?}",
                row.name,
                l.level
            );
            assert_eq!(
                row.best,
                native.best.map(|m| m.to_uci()),
                "{} at {:?}",
                row.name,
                l.level
            );
        }
        let nodes: u64 = l.rows.iter().map(|r| r.nodes.unwrap()).sum();
        let cycles: u64 = l.rows.iter().map(|r| r.cycles.unwrap()).sum();
        assert_eq!((l.nodes, l.cycles), (nodes, cycles));
        let pps = nodes as f64 * 3.5e6 / cycles as f64;
        assert!((l.positions_per_second - pps).abs() < 1e-9 * pps);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// What `bench --program` refuses, with the reason: an adaptor that counts no nodes, and the
/// options of the other benches.
#[test]
fn program_bench_refuses_what_it_cannot_measure() {
    let adaptor = console_adaptor("program-bench-refused");
    let a = adaptor.to_str().unwrap();
    let (ok, _, stderr) = common::kempelen(&["bench", "--program", a]);
    assert!(!ok);
    assert!(stderr.contains("counts no nodes"), "{stderr}");
    let (ok, _, stderr) = common::kempelen(&["bench", "--program", a, "--cpu", "z80"]);
    assert!(!ok);
    assert!(
        stderr.contains("--cpu does not go with --program"),
        "{stderr}"
    );
    let (ok, _, stderr) = common::kempelen(&["bench", "--level", "2"]);
    assert!(!ok);
    assert!(
        stderr.contains("--level belongs to the program bench"),
        "{stderr}"
    );
    let (ok, _, stderr) = common::kempelen(&["bench", "--program", "nowhere.toml"]);
    assert!(!ok);
    assert!(stderr.contains("nowhere.toml"), "{stderr}");
    std::fs::remove_dir_all(adaptor.parent().unwrap()).unwrap();
}

/// An adapted program's PGN tags name the machine it ran on (its personality), and the MHz of
/// that machine's clock: here a personality of the test's own, `toy-board`, which runs at the
/// Jupiter III's 2 MHz, so the tags must say `toy-board`, not the clock profile's `jupiter-3`.
/// (The toy answers with an illegal move at once: the game is a forfeit, its tags are written.)
#[test]
fn the_pgn_names_the_machine_an_adapted_program_ran_on() {
    let dir = scratch("machine-tag");
    std::fs::write(
        dir.join("toy-board.toml"),
        "id = \"toy-board\"\nname = \"a board of the tests\"\ncpu = \"z80\"\n\
         clock = \"jupiter-3\"\nload = \"0000\"\n\n\
         [[memory]]\nname = \"RAM\"\nkind = \"ram\"\nrange = \"0000-FFFF\"\n",
    )
    .unwrap();
    let adaptor = toy_copy("behave-toy", &dir, |toml| {
        assert!(toml.contains("\ncpu = \"z80\"\n") && toml.contains("go = \"T\""));
        toml.replace("\ncpu = \"z80\"\n", "\nmachine = \"toy-board.toml\"\n")
            .replace("go = \"T\"", "go = \"I\"")
    });
    let openings = common::start_opening(&dir);
    let pgn = dir.join("toy.pgn");
    let toy = format!("toy=program:{}", adaptor.display());
    succeeds(&[
        "tournament",
        &toy,
        "reference",
        "--clock",
        "emulated",
        "--movetime",
        "1s",
        "--games",
        "1",
        "--openings",
        openings.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    let pgn = std::fs::read_to_string(pgn).unwrap();
    assert!(
        pgn.contains("[WhiteMachine \"toy-board\"]\n[WhiteMHz \"2\"]"),
        "{pgn}"
    );
}
