//! Every historical profile plays a complete game through `kempelen uci`, driven by
//! python-chess: selected with `setoption name Profile`, at a fixed depth or node budget,
//! against the full profile at depth 3, every move legal and reported with depth, score, nodes
//! and pv. Skipped with a message when python3 or python-chess is missing.

mod common;

fn play(profile: &str, colour: &str, limit: &str) {
    common::python_game("history_uci_session.py", &[profile, colour, limit], 4);
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
