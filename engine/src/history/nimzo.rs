//! `nimzo`: the reference algorithm (docs/ALGORITHM.md) with the null move as Christian
//! Donninger describes it for his program Nimzo ("Die Kunst des Nichtstuns", about 1993):
//! tried first in every node with a depth reduction of two plies, never twice in a row, never
//! in check, never at the root, never when the side to move stands very badly, and his three
//! zugzwang rules:
//!
//! - I: if at the root one side has no pieces left (pawns only), the null move is off for
//!   both sides for the whole search;
//! - II: inside the tree, no null move when the side to move has at most one bishop's worth of
//!   piece material;
//! - III: in complex endings the null move is searched last at the root; if it beats the best
//!   real move, zugzwang has been detected and the search starts again from the beginning
//!   with extra time (and, Kempelen's choice, without the null move).
//!
//! The profile is the reference search ([`crate::reference`]) with these rules as its
//! null-move policy ([`Donninger`]); everything else (evaluation, quiescence, move ordering,
//! repetition and fifty-move rules, node counting) is the reference algorithm's. Only the node
//! limit is kept as the other historical profiles keep it (no iteration starts once it is
//! reached). See `docs/history/nimzo.md`.

use crate::engine::{Limits, SearchControl, SearchResult};
use crate::eval::evaluate;
use crate::game::Game;
use crate::piece::{BISHOP, BLACK, QUEEN, WHITE};
use crate::position::Position;
use crate::reference::{Finished, NullMove, ReferenceLimits, ReferenceSearch};
use crate::tables::VALUE;

/// Deepest iteration (the reference's).
pub const MAX_DEPTH: u32 = crate::reference::MAX_DEPTH;
/// Depth reduction of the null move (Donninger: two plies, as in the reference).
pub const NULL_REDUCTION: i32 = crate::reference::NULL_REDUCTION;
/// Rule II: no null move when the mover's piece material is at most this (one bishop, the
/// reference's own condition).
pub const RULE2_MAX_MATERIAL: i16 = crate::reference::NULL_MIN_MATERIAL;
/// Donninger's "stands very badly": no null move when the static evaluation is more than
/// this below beta. The article gives no number; Kempelen uses three pawns.
pub const BADLY_MARGIN: i32 = 300;
/// Rule III's "complex ending": both sides have pieces, no queens, and each side has at most
/// two rooks and a bishop of piece material (Donninger's example).
pub const COMPLEX_ENDING_MAX: i16 = 2 * VALUE[crate::piece::ROOK as usize] + VALUE[BISHOP as usize];
/// Rule III's "extra time": the time limits are multiplied by this after a restart.
pub const RESTART_TIME_FACTOR: u32 = 2;

/// How the null move stands for a root position under Donninger's rules I and III.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootNullPolicy {
    /// Rule I: false when one side has only pawns (and king) left.
    pub enabled: bool,
    /// Rule III: the null move is searched last at the root (complex ending).
    pub root_test: bool,
}

/// Rules I and III for a root position.
pub fn root_policy(pos: &Position) -> RootNullPolicy {
    let (w, b) = (pos.npm(WHITE), pos.npm(BLACK));
    let enabled = w > 0 && b > 0;
    let queens = pos.count(WHITE, QUEEN) + pos.count(BLACK, QUEEN);
    let root_test = enabled && queens == 0 && w <= COMPLEX_ENDING_MAX && b <= COMPLEX_ENDING_MAX;
    RootNullPolicy { enabled, root_test }
}

/// Rule II: whether the side to move has enough piece material for a null move.
pub fn rule2_allows(pos: &Position) -> bool {
    pos.npm(pos.side()) > RULE2_MAX_MATERIAL
}

/// What the null move did in a search (for tests and the doc page).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NullStats {
    /// Null moves tried inside the tree.
    pub tried: u64,
    /// Of those, how many failed high (cut the node off).
    pub cutoffs: u64,
    /// Null moves not tried only because of rule II.
    pub refused_rule2: u64,
    /// Null moves not tried because the side to move stood very badly.
    pub refused_badly: u64,
    /// Null moves searched last at the root (rule III).
    pub root_tests: u64,
    /// Restarts after a zugzwang found at the root (rule III).
    pub restarts: u64,
}

/// A finished Nimzo search: the usual result plus the null-move statistics.
pub struct NimzoOutcome {
    /// Best move, score, PV, depth, nodes.
    pub result: SearchResult,
    /// What the null move did.
    pub stats: NullStats,
    /// The policy the root position got (before any restart).
    pub policy: RootNullPolicy,
}

/// Donninger's null move as a policy of the reference search: rule I decided at the root,
/// rule II and "stands very badly" in every node, rule III's root test and restart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Donninger {
    /// Rule I (and, after a restart, off for good).
    enabled: bool,
    /// Rule III: the null move is searched last at the root.
    root_test: bool,
    /// Set by the root test of rule III.
    zugzwang: bool,
    /// What the null move did.
    pub stats: NullStats,
}

impl Donninger {
    /// The policy for a search from a root with rules I and III as `policy` says.
    pub fn new(policy: RootNullPolicy) -> Donninger {
        Donninger {
            enabled: policy.enabled,
            root_test: policy.root_test,
            zugzwang: false,
            stats: NullStats::default(),
        }
    }
}

impl NullMove for Donninger {
    /// Rule II and "stands very badly", after the reference's conditions (not at the root,
    /// not after a null move, not in check, not on the previous iteration's PV).
    fn allows(&mut self, pos: &Position, beta: i32) -> bool {
        if !self.enabled {
            return false;
        }
        if !rule2_allows(pos) {
            self.stats.refused_rule2 += 1;
            false
        } else if (evaluate(pos) as i32) < beta - BADLY_MARGIN {
            self.stats.refused_badly += 1;
            false
        } else {
            self.stats.tried += 1;
            true
        }
    }

    fn refuted(&mut self) {
        self.stats.cutoffs += 1;
    }

    fn tests_root(&self) -> bool {
        self.root_test && self.enabled
    }

    fn root_tested(&mut self, zugzwang: bool) {
        self.stats.root_tests += 1;
        self.zugzwang |= zugzwang;
    }

    /// Rule III: after a zugzwang at the root, forget what was learnt, take extra time and
    /// start again from depth 1 without the null move (Kempelen's choice).
    fn restart(&mut self) -> Option<u32> {
        if !self.zugzwang {
            return None;
        }
        self.zugzwang = false;
        self.stats.restarts += 1;
        self.enabled = false;
        self.root_test = false;
        Some(RESTART_TIME_FACTOR)
    }
}

/// Searches the current position of `game` within `limits`.
pub fn search(game: &Game, limits: &Limits, control: &SearchControl) -> SearchResult {
    run(game, limits, control).result
}

/// Like [`search`], with the null-move statistics: the reference search with the
/// [`Donninger`] policy, its limits kept as the other historical profiles keep them.
pub fn run(game: &Game, limits: &Limits, control: &SearchControl) -> NimzoOutcome {
    let pos = game.position();
    let policy = root_policy(pos);
    let root_moves = &limits.searchmoves;
    let limits = ReferenceLimits::from_limits(limits, pos.side());
    let Finished { result, null, .. } =
        ReferenceSearch::new(pos, &game.reference_history(), limits)
            .with_null(Donninger::new(policy))
            .with_control(control)
            .with_root_moves(root_moves)
            .node_limit_ends_deepening()
            .finish();
    NimzoOutcome {
        result,
        stats: null.stats,
        policy,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    #[test]
    fn rule1_pawns_only_side_switches_the_null_move_off_for_both() {
        // White has a rook, Black only pawns: off for both sides.
        let p = root_policy(&pos("8/5pk1/6p1/8/8/8/5PPP/3R2K1 w - - 0 1"));
        assert!(!p.enabled);
        assert!(!p.root_test);
        // Both sides have a piece: on.
        let p = root_policy(&pos("8/5pk1/6p1/8/8/2n5/5PPP/3R2K1 w - - 0 1"));
        assert!(p.enabled);
    }

    #[test]
    fn rule2_needs_more_than_a_bishop() {
        // White to move with a bishop only: no null move; with a knight: none either
        // (320 <= 330); with a rook: allowed.
        assert!(!rule2_allows(&pos("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1")));
        assert!(!rule2_allows(&pos("4k3/8/8/8/8/8/8/2N1K3 w - - 0 1")));
        assert!(rule2_allows(&pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")));
        assert!(rule2_allows(&pos("4k3/8/8/8/8/8/8/1NB1K3 w - - 0 1")));
        // It is the mover's material that counts: Black to move with a queen against White's
        // bishop is allowed.
        assert!(rule2_allows(&pos("3qk3/8/8/8/8/8/8/2B1K3 b - - 0 1")));
    }

    #[test]
    fn rule3_complex_ending_is_two_rooks_and_a_bishop_each_at_most() {
        let p = root_policy(&pos("1r2k2r/5b2/8/8/8/8/2B5/R3K2R w - - 0 1"));
        assert!(p.enabled && p.root_test);
        // A queen on the board: not an ending in this sense.
        let p = root_policy(&pos("1r2k2r/5b2/8/8/8/8/2Q5/R3K2R w - - 0 1"));
        assert!(p.enabled && !p.root_test);
        // Two rooks and two bishops: too much material.
        let p = root_policy(&pos("1r2k2r/4bb2/8/8/8/8/2B5/R3K2R w - - 0 1"));
        assert!(!p.root_test);
    }
}
