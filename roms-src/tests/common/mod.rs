//! What the tests of the 8-bit builds share.

#![allow(dead_code)] // each test binary uses its own part

/// How the console front end prints a score (console_game.inc, con_pscore): `score N`, or
/// `mate in N` / `mated in N` (moves) for a mate score.
pub fn score_text(score: i32) -> String {
    const MATE: i32 = kempelen_engine::MATE;
    if score >= MATE - 64 {
        format!("mate in {}", (MATE - score + 1) / 2)
    } else if score <= -(MATE - 64) {
        format!("mated in {}", (MATE + score + 1) / 2)
    } else {
        format!("score {score}")
    }
}
