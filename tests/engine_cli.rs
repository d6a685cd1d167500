//! End-to-end tests of the native-engine subcommands: `kempelen perft`, `search`, `bench` and
//! `uci` as a user runs them, text and `--json`, and their error messages.

mod common;

use common::{fails, json, kempelen};

#[test]
fn perft_counts_the_start_position() {
    let v = json(&["perft", "--depth", "3", "--json"]);
    assert_eq!(v["nodes"], 8902);
    let (ok, stdout, _) = kempelen(&["perft", "--depth", "2"]);
    assert!(ok && stdout.contains("perft 2 = 400"), "{stdout}");
}

#[test]
fn perft_divide_splits_by_root_move() {
    let fen = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
    let v = json(&["perft", "--depth", "3", "--fen", fen, "--divide", "--json"]);
    assert_eq!(v["nodes"], 2812);
    let split = v["divide"].as_array().unwrap();
    assert_eq!(split.len(), 14);
    let sum: u64 = split.iter().map(|e| e["nodes"].as_u64().unwrap()).sum();
    assert_eq!(sum, 2812);
    let (ok, stdout, _) = kempelen(&["perft", "--depth", "1", "--fen", fen, "--divide"]);
    assert!(ok && stdout.contains("b4b1: 1"), "{stdout}");
}

#[test]
fn search_reports_move_score_nodes_pv() {
    let v = json(&[
        "search",
        "--depth",
        "2",
        "--fen",
        "7k/8/6K1/8/8/8/8/R7 w - - 0 1",
        "--json",
    ]);
    assert_eq!(v["best"], "a1a8");
    assert_eq!(v["mate"], 1);
    assert_eq!(v["score"], 31999);
    assert_eq!(v["pv"][0], "a1a8");
    assert!(v["nodes"].as_u64().unwrap() > 0);
    let v = json(&["search", "--depth", "4", "--profile", "full", "--json"]);
    assert_eq!(v["profile"], "full");
    assert_eq!(v["depth"], 4);
    let (ok, stdout, _) = kempelen(&["search", "--depth", "3"]);
    assert!(
        ok && stdout.contains("bestmove") && stdout.contains("info depth 3"),
        "{stdout}"
    );
}

#[test]
fn search_is_deterministic_for_the_reference_profile() {
    let a = json(&[
        "search", "--depth", "4", "--moves", "e2e4", "e7e5", "--json",
    ]);
    let b = json(&[
        "search", "--depth", "4", "--moves", "e2e4", "e7e5", "--json",
    ]);
    assert_eq!(a["nodes"], b["nodes"]);
    assert_eq!(a["pv"], b["pv"]);
}

#[test]
fn bad_input_is_refused_with_the_field_named() {
    let (ok, _, stderr) = kempelen(&[
        "perft",
        "--depth",
        "1",
        "--fen",
        "8/8/8/8/8/8/8/K7 w - - 0 1",
    ]);
    assert!(!ok);
    assert!(
        stderr.contains("piece placement (field 1): Black has no king"),
        "{stderr}"
    );
    let stderr = fails(&[
        "search",
        "--depth",
        "2",
        "--fen",
        "4k3/8/8/8/8/8/8/4K3 x - - 0 1",
    ]);
    assert!(stderr.contains("side to move (field 2)"), "{stderr}");
    let (ok, _, stderr) = kempelen(&["search", "--depth", "2", "--moves", "e2e5"]);
    assert!(
        !ok && stderr.contains("--moves, move 1") && stderr.contains("not a legal move"),
        "{stderr}"
    );
    let stderr = fails(&["search"]);
    assert!(stderr.contains("give a limit"), "{stderr}");
}

#[test]
fn bench_total_is_deterministic() {
    let a = json(&["bench", "--profile", "reference", "--depth", "3", "--json"]);
    let b = json(&["bench", "--profile", "reference", "--depth", "3", "--json"]);
    let p = &a["profiles"][0];
    assert_eq!(p["profile"], "reference");
    assert!(p["positions"].as_array().unwrap().len() >= 16);
    let sum: u64 = p["positions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["nodes"].as_u64().unwrap())
        .sum();
    assert_eq!(p["nodes"].as_u64().unwrap(), sum);
    assert_eq!(a["profiles"][0]["nodes"], b["profiles"][0]["nodes"]);
    let both = json(&["bench", "--depth", "2", "--json"]);
    assert_eq!(both["profiles"].as_array().unwrap().len(), 2);
    assert_eq!(both["profiles"][1]["profile"], "full");
}

#[test]
fn uci_answers_a_scripted_session() {
    let out = common::with_input(
        &["uci"],
        "uci\nsetoption name Hash value 8\nisready\nposition startpos moves e2e4 e7e5\ngo depth 5\nquit\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("uciok") && text.contains("readyok"), "{text}");
    assert!(
        text.contains("option name Profile type combo default full"),
        "{text}"
    );
    // quit during the search still answers with the best move found so far.
    assert!(text.lines().any(|l| l.starts_with("bestmove ")), "{text}");
}
