//! Drives `kempelen uci` with a real UCI client (python-chess): full games to a proper end
//! without an illegal move, one between the native engine's two profiles and one of the Z80
//! build against the native engine. Skipped with a message when python3 or python-chess is
//! missing (`.ci/run` installs both).

mod common;

/// Runs `tests/<script>` on the kempelen binary and checks its `RESULT` line: a proper end of
/// the game after more than ten plies.
fn play(script: &str) {
    let Some(results) = common::python_session(script, &[]) else {
        return;
    };
    let f = &results[0];
    assert!(common::is_result(&f[1]), "{f:?}");
    assert!(f[3].parse::<u32>().unwrap() > 10, "{f:?}");
}

#[test]
fn python_chess_plays_a_full_game_against_kempelen() {
    play("uci_session.py");
}

#[test]
fn python_chess_plays_a_full_game_against_the_z80_build() {
    play("z80_uci_session.py");
}
