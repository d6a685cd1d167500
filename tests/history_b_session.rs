//! The `sargon`, `salomon` and `nimzo` profiles each play a complete legal game through
//! `kempelen uci`, driven by python-chess (`tests/history_b_session.py`), against the reference
//! profile at fixed depth or node limits. Skipped with a message when python3 or python-chess
//! is missing.

use common::python_chess_available;
use std::process::Command;

fn play(profile: &str) {
    if !python_chess_available() {
        eprintln!("SKIPPED: python3 with the 'chess' package is not installed (pip install chess)");
        return;
    }
    let script = format!("{}/tests/history_b_session.py", env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("python3")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_kempelen"))
        .arg(profile)
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
    assert_eq!(fields[1], profile, "{line}");
    assert!(["1-0", "0-1", "1/2-1/2"].contains(&fields[2]), "{line}");
    assert!(fields[4].parse::<u32>().unwrap() > 10, "{line}");
}

#[test]
fn sargon_plays_a_complete_game_through_uci() {
    play("sargon");
}

#[test]
fn salomon_plays_a_complete_game_through_uci() {
    play("salomon");
}

#[test]
fn nimzo_plays_a_complete_game_through_uci() {
    play("nimzo");
}

mod common;

#[test]
fn search_command_runs_each_profile() {
    let v = common::json(&["search", "--profile", "sargon", "--depth", "3", "--json"]);
    assert_eq!(v["profile"], "sargon");
    assert!(
        ["e2e4", "d2d4"].contains(&v["best"].as_str().unwrap()),
        "{v}"
    );
    let v = common::json(&[
        "search",
        "--profile",
        "nimzo",
        "--depth",
        "3",
        "--fen",
        "8/4b3/8/4n3/8/7P/3r4/5kNK w - - 0 1",
        "--json",
    ]);
    assert_eq!(v["profile"], "nimzo");
    assert!(
        ["g1e2", "g1f3", "h3h4"].contains(&v["best"].as_str().unwrap()),
        "{v}"
    );
    let v = common::json(&[
        "search",
        "--profile",
        "salomon",
        "--nodes",
        "2000",
        "--json",
    ]);
    assert_eq!(v["profile"], "salomon");
    assert!(v["depth"].as_u64().unwrap() >= 1, "{v}");
}

#[test]
fn the_z80_build_refuses_the_historical_profiles() {
    let (ok, _, stderr) = common::kempelen(&[
        "search",
        "--engine",
        "z80",
        "--profile",
        "sargon",
        "--depth",
        "2",
    ]);
    assert!(!ok);
    assert!(
        stderr.contains("--profile sargon: the Z80 build runs the reference profile only"),
        "{stderr}"
    );
}
