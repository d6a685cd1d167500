//! The bench: a fixed list of positions (`data/bench.epd`) searched at a fixed depth per
//! profile from a fresh engine state. The node total is deterministic, a fingerprint of the
//! engine's behaviour for every change; the speed (nodes per second) is reported beside it.

use crate::engine::{Engine, EngineError, Limits, SearchControl};
use crate::game::Game;
use crate::native::Profile;
use std::time::Duration;
use web_time::Instant;

/// The bench positions as EPD text (`FEN; id "name";`).
pub const BENCH_EPD: &str = include_str!("../data/bench.epd");

/// Depth searched per position by each profile.
pub fn default_depth(profile: Profile) -> u32 {
    match profile {
        Profile::Reference => 6,
        Profile::Full => 12,
        Profile::Salomon => 5,
        Profile::Nimzo => 6,
        // The other historical profiles are not part of the bench; a depth for completeness.
        _ => 3,
    }
}

/// One bench position: its name and FEN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchPosition {
    /// The EPD `id`.
    pub name: String,
    /// The position.
    pub fen: String,
}

/// The bench positions.
pub fn positions() -> Vec<BenchPosition> {
    BENCH_EPD
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (fen, rest) = l.split_once(';').unwrap_or((l, ""));
            let name = rest.split('"').nth(1).unwrap_or("").to_string();
            BenchPosition {
                name,
                fen: fen.trim().to_string(),
            }
        })
        .collect()
}

/// The outcome for one position.
#[derive(Clone, Debug)]
pub struct BenchEntry {
    /// Which position.
    pub position: BenchPosition,
    /// Best move in UCI text (`0000` if none).
    pub best: String,
    /// Score.
    pub score: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
}

/// Searches every bench position to `depth`, calling `new_game` before each so the result does
/// not depend on the order, and reports each entry to `progress`.
pub fn run(
    engine: &mut dyn Engine,
    depth: u32,
    mut progress: impl FnMut(&BenchEntry),
) -> Result<Vec<BenchEntry>, EngineError> {
    let mut out = Vec::new();
    for position in positions() {
        let game = Game::from_fen(&position.fen)
            .map_err(|e| EngineError::Backend(format!("bench position: {e}")))?;
        engine.new_game()?;
        let start = Instant::now();
        let r = engine.search(&game, &Limits::depth(depth), &SearchControl::default())?;
        let entry = BenchEntry {
            position,
            best: r.best.map_or("0000".into(), |m| m.to_uci()),
            score: r.score,
            nodes: r.nodes,
            time: start.elapsed(),
        };
        progress(&entry);
        out.push(entry);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_are_valid() {
        let list = positions();
        assert!(list.len() >= 16);
        for p in list {
            assert!(crate::Position::from_fen(&p.fen).is_ok(), "{}", p.name);
            assert!(!p.name.is_empty());
        }
    }
}
