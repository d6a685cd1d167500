//! Drives `kempelen uci` with a real UCI client (python-chess): full games to a proper end
//! without an illegal move, one between the native engine's two profiles and one of the Z80
//! build against the native engine. Skipped with a message when python3 or python-chess is
//! missing (`.ci/run` installs both).

mod common;

use common::python_chess_available;
use std::process::Command;

/// Runs `tests/<script>` on the kempelen binary and checks its `RESULT` line: a proper end of
/// the game after more than ten plies.
fn play(script: &str) {
    if !python_chess_available() {
        eprintln!("SKIPPED: python3 with the 'chess' package is not installed (pip install chess)");
        return;
    }
    let script = format!("{}/tests/{script}", env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("python3")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_kempelen"))
        .output()
        .expect("run python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "session failed:\n{stdout}\n{stderr}");
    let line = stdout
        .lines()
        .find(|l| l.starts_with("RESULT "))
        .expect("result line");
    let fields: Vec<&str> = line.split_whitespace().collect();
    assert!(["1-0", "0-1", "1/2-1/2"].contains(&fields[1]), "{line}");
    assert!(fields[3].parse::<u32>().unwrap() > 10, "{line}");
}

#[test]
fn python_chess_plays_a_full_game_against_kempelen() {
    play("uci_session.py");
}

#[test]
fn python_chess_plays_a_full_game_against_the_z80_build() {
    play("z80_uci_session.py");
}
