//! End-to-end: the engine adaptor format drives the project's own Z80 console front end
//! (assembled here from roms-src/z80/console.asm) as a UCI engine, `kempelen uci --program
//! adaptors/kempelen-console-z80.toml`, through full games played by python-chess against the
//! native engine (depth limits only). Skipped with a message when python-chess is missing.

mod common;

use common::{python_chess_available, succeeds, text};
use std::path::{Path, PathBuf};
use std::process::Command;

fn scratch(name: &str) -> PathBuf {
    common::scratch(&format!("adaptor-{name}"))
}

/// The console ROM assembled next to a copy of the shipped adaptor file.
fn console_adaptor(name: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = scratch(name);
    let rom = dir.join("console.bin");
    succeeds(&[
        "asm",
        root.join("roms-src/z80/console.asm").to_str().unwrap(),
        "--cpu",
        "z80",
        "-o",
        rom.to_str().unwrap(),
    ]);
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
    let stdout = uci_script(
        &adaptor,
        "uci\nisready\nposition startpos moves f2f3\ngo depth 2\nquit\n",
    );
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
    let mut child = Command::new(env!("CARGO_BIN_EXE_kempelen"))
        .args(["uci", "--program", bad.to_str().unwrap()])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(!child.status.success());
    let err = text(&std::mem::take(&mut child.stderr));
    assert!(err.contains("bad.toml:3:8:"), "{err}");
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
    // The depth is the poke's (`go depth 7` is beyond the keys' `max = 6`, the poke is not
    // limited; without a limit the adaptor's default 2).
    let depths: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("info depth"))
        .map(|l| l.split(' ').nth(2).unwrap())
        .collect();
    assert_eq!(depths, ["7", "2", "3"], "{out}");
    assert!(!out.contains("error"), "{out}");
}

/// The toy refuses a set-up on a machine that was not restarted: without the `restart` step
/// the adaptor gets no reply and says so.
#[test]
fn setup_without_the_restart_gets_no_reply() {
    let dir = scratch("norestart");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/adaptor");
    std::fs::copy(root.join("setup-toy.asm"), dir.join("setup-toy.asm")).unwrap();
    let toml = std::fs::read_to_string(root.join("setup-toy.toml"))
        .unwrap()
        .replace("restart = true\n", "");
    let adaptor = dir.join("setup-toy.toml");
    std::fs::write(&adaptor, toml).unwrap();
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
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/adaptor");
    std::fs::copy(root.join("setup-toy.asm"), dir.join("setup-toy.asm")).unwrap();
    let good = std::fs::read_to_string(root.join("setup-toy.toml")).unwrap();
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
        let out = Command::new(env!("CARGO_BIN_EXE_kempelen"))
            .args(["uci", "--program", adaptor.to_str().unwrap()])
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let err = text(&out.stderr);
        assert!(!out.status.success(), "case {i}");
        assert!(err.contains(want), "case {i}: {err}");
        assert!(err.contains(&format!("bad{i}.toml")), "case {i}: {err}");
    }
}
