//! Every historical profile plays a complete game through `kempelen uci`, driven by
//! python-chess: selected with `setoption name Profile`, at a fixed depth or node budget,
//! against the full profile at depth 3, every move legal and reported with depth, score, nodes
//! and pv. Skipped with a message when python3 or python-chess is missing.

mod common;

use common::python_chess_available;
use std::process::Command;

fn play(profile: &str, colour: &str, limit: &str) {
    if !python_chess_available() {
        eprintln!("SKIPPED: python3 with the 'chess' package is not installed (pip install chess)");
        return;
    }
    let script = format!(
        "{}/tests/history_uci_session.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = Command::new("python3")
        .args([
            &script,
            env!("CARGO_BIN_EXE_kempelen"),
            profile,
            colour,
            limit,
        ])
        .output()
        .expect("run python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{profile}: session failed:\n{stdout}\n{stderr}"
    );
    let line = stdout
        .lines()
        .find(|l| l.starts_with("RESULT "))
        .expect("result line");
    let fields: Vec<&str> = line.split_whitespace().collect();
    assert!(["1-0", "0-1", "1/2-1/2"].contains(&fields[1]), "{line}");
    assert!(fields[3].parse::<u32>().unwrap() > 4, "{line}");
}

#[test]
fn turing_plays_a_full_game() {
    play("turing", "white", "depth=2");
}

#[test]
fn shannon_plays_a_full_game() {
    play("shannon", "black", "depth=2");
}

#[test]
fn tartan_plays_a_full_game() {
    play("tartan", "white", "depth=2");
}

#[test]
fn microchess_plays_a_full_game() {
    play("microchess", "white", "depth=1");
}

#[test]
fn micromax_plays_a_full_game() {
    play("micromax", "black", "nodes=2000");
}
