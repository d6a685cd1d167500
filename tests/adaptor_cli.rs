//! End-to-end: the engine adaptor format drives the project's own Z80 console front end
//! (assembled here from roms-src/z80/console.asm) as a UCI engine, `kempelen uci --program
//! adaptors/kempelen-console-z80.toml`, through full games played by python-chess against the
//! native engine (depth limits only). Skipped with a message when python-chess is missing.

use std::path::{Path, PathBuf};
mod common;

use common::python_chess_available;
use std::process::Command;

fn kempelen(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_kempelen"))
        .args(args)
        .output()
        .expect("run kempelen")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kempelen-adaptor-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The console ROM assembled next to a copy of the shipped adaptor file.
fn console_adaptor(name: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = scratch(name);
    let rom = dir.join("console.bin");
    let out = kempelen(&[
        "asm",
        root.join("roms-src/z80/console.asm").to_str().unwrap(),
        "--cpu",
        "z80",
        "-o",
        rom.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
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
    let script = format!("{}/tests/adaptor_uci.py", env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("python3")
        .args([
            &script,
            env!("CARGO_BIN_EXE_kempelen"),
            adaptor.to_str().unwrap(),
        ])
        .output()
        .expect("run python3");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    let results: Vec<&str> = stdout.lines().filter(|l| l.starts_with("RESULT")).collect();
    assert_eq!(results.len(), 2, "{stdout}");
    for r in results {
        let f: Vec<&str> = r.split_whitespace().collect();
        // RESULT colour result plies game_over mean_time
        assert_eq!(f[4], "True", "the game reached a proper end: {r}");
        assert!(f[3].parse::<u32>().unwrap() > 10, "{r}");
        assert!(
            f[5].parse::<f64>().unwrap() > 0.0,
            "emulated time is reported: {r}"
        );
    }
}

#[test]
fn uci_session_by_hand_reports_emulated_time_and_the_reply() {
    let adaptor = console_adaptor("hand");
    let mut child = Command::new(env!("CARGO_BIN_EXE_kempelen"))
        .args(["uci", "--program", adaptor.to_str().unwrap()])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"uci\nisready\nposition startpos moves f2f3\ngo depth 2\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = text(&out.stdout);
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
