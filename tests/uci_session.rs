//! Drives `kempelen uci` with a real UCI client (python-chess): full games to a proper end
//! without an illegal move, one between the native engine's two profiles and one of the Z80
//! build against the native engine. Skipped with a message when python3 or python-chess is
//! missing (`.ci/run` installs both).

mod common;

/// Runs `tests/<script>` on the kempelen binary and checks its `RESULT` line: a proper end of
/// the game after more than ten plies.
fn play(script: &str) {
    common::python_game(script, &[], 10);
}

#[test]
fn python_chess_plays_a_full_game_against_kempelen() {
    play("uci_session.py");
}

#[test]
fn python_chess_plays_a_full_game_against_the_z80_build() {
    play("z80_uci_session.py");
}
