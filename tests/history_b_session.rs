//! The `sargon`, `salomon` and `nimzo` profiles each play a complete legal game through
//! `kempelen uci`, driven by python-chess (`tests/history_b_session.py`), against the reference
//! profile at fixed depth or node limits. Skipped with a message when python3 or python-chess
//! is missing.

fn play(profile: &str) {
    if let Some(f) = common::python_game("history_b_session.py", &[profile], 10) {
        assert_eq!(f[1], profile, "{f:?}");
    }
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
