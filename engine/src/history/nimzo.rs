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
//! Everything else (evaluation, quiescence, move ordering, repetition and fifty-move rules,
//! node counting) is the reference algorithm's. See `docs/history/nimzo.md`.

use super::Budget;
use crate::engine::{INF, Limits, MATE, SearchControl, SearchInfo, SearchResult};
use crate::eval::evaluate;
use crate::game::Game;
use crate::movegen::GenMode;
use crate::moves::{Move, MoveList};
use crate::piece::{BISHOP, BLACK, QUEEN, WHITE};
use crate::position::Position;
use crate::reference::ordering_key;
use crate::tables::VALUE;

/// Deepest iteration.
pub const MAX_DEPTH: u32 = 32;
/// Deepest ply, search and quiescence together.
const MAX_PLY: usize = 64;
/// Depth reduction of the null move (Donninger: two plies).
pub const NULL_REDUCTION: i32 = 2;
/// Rule II: no null move when the mover's piece material is at most this (one bishop).
pub const RULE2_MAX_MATERIAL: i16 = VALUE[BISHOP as usize];
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

/// Searches the current position of `game` within `limits`.
pub fn search(game: &Game, limits: &Limits, control: &SearchControl) -> SearchResult {
    run(game, limits, control).result
}

/// Like [`search`], with the null-move statistics.
pub fn run(game: &Game, limits: &Limits, control: &SearchControl) -> NimzoOutcome {
    let pos = game.position();
    let policy = root_policy(pos);
    let mut s = Nimzo {
        pos: pos.clone(),
        history: game.reference_history(),
        budget: Budget::new(limits, pos.side(), control),
        killers: [[Move::NULL; 2]; MAX_PLY + 1],
        pv: vec![Vec::new(); MAX_PLY + 1],
        prev_pv: Vec::new(),
        follow: false,
        lists: vec![MoveList::new(); MAX_PLY + 1],
        seldepth: 0,
        null_enabled: policy.enabled,
        root_test: policy.root_test,
        zugzwang: false,
        stats: NullStats::default(),
    };
    let result = s.iterate(limits.depth);
    NimzoOutcome {
        result,
        stats: s.stats,
        policy,
    }
}

struct Nimzo<'c, 'i> {
    pos: Position,
    history: Vec<u32>,
    budget: Budget<'c, 'i>,
    killers: [[Move; 2]; MAX_PLY + 1],
    pv: Vec<Vec<Move>>,
    prev_pv: Vec<Move>,
    follow: bool,
    lists: Vec<MoveList>,
    seldepth: usize,
    null_enabled: bool,
    root_test: bool,
    /// Set by the root null-move test of rule III.
    zugzwang: bool,
    stats: NullStats,
}

impl Nimzo<'_, '_> {
    fn iterate(&mut self, depth_limit: Option<u32>) -> SearchResult {
        let max_depth = depth_limit.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        if self.pos.legal_moves().is_empty() {
            return SearchResult::no_move(self.pos.in_check(), self.budget.elapsed());
        }
        let mut result = SearchResult {
            best: None,
            score: 0,
            pv: Vec::new(),
            depth: 0,
            nodes: 0,
            time: Default::default(),
        };
        let mut depth = 1;
        while depth <= max_depth {
            if depth > 1 && !self.budget.may_deepen() {
                break;
            }
            self.follow = true;
            let score = self.search(depth as i32, 0, -INF, INF, true);
            if self.budget.aborted {
                break;
            }
            if self.zugzwang {
                // Rule III: zugzwang at the root. Forget what was learnt, take extra time and
                // start again from depth 1 without the null move.
                self.zugzwang = false;
                self.stats.restarts += 1;
                self.null_enabled = false;
                self.root_test = false;
                self.killers = [[Move::NULL; 2]; MAX_PLY + 1];
                self.prev_pv.clear();
                self.budget.extend_time(RESTART_TIME_FACTOR);
                depth = 1;
                continue;
            }
            self.budget.arm();
            let pv = self.pv[0].clone();
            self.prev_pv = pv.clone();
            result = SearchResult {
                best: pv.first().copied(),
                score,
                pv,
                depth,
                nodes: self.budget.nodes,
                time: self.budget.elapsed(),
            };
            self.budget.report_info(&SearchInfo {
                depth: Some(depth),
                seldepth: self.seldepth as u32,
                score: Some(score),
                nodes: Some(self.budget.nodes),
                time: result.time,
                pv: result.pv.clone(),
                hashfull: None,
                string: None,
            });
            depth += 1;
        }
        result.nodes = self.budget.nodes;
        result.time = self.budget.elapsed();
        result
    }

    fn set_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }

    fn search(&mut self, depth: i32, ply: usize, mut alpha: i32, beta: i32, null_ok: bool) -> i32 {
        if self.budget.tick() {
            return 0;
        }
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply);
        if ply > 0 {
            if self.pos.halfmove_clock() >= 100 {
                return if self.pos.in_check() && self.pos.legal_moves().is_empty() {
                    -(MATE - ply as i32)
                } else {
                    0
                };
            }
            if crate::pv::is_repetition(&self.history, self.pos.halfmove_clock())
                || self.pos.insufficient_material()
            {
                return 0;
            }
        }
        if ply >= MAX_PLY {
            return evaluate(&self.pos) as i32;
        }
        if depth <= 0 {
            return self.quiesce(ply, alpha, beta);
        }
        let in_check = self.pos.in_check();
        let mut pv_move = None;
        if self.follow {
            if ply < self.prev_pv.len() {
                pv_move = Some(self.prev_pv[ply]);
            } else {
                self.follow = false;
            }
        }
        // Donninger's null move: first in every node, except at the root, after a null move,
        // in check, on the previous iteration's PV, when the side stands very badly, and
        // under rules I and II.
        if self.null_enabled && null_ok && ply > 0 && !in_check && !self.follow {
            if !rule2_allows(&self.pos) {
                self.stats.refused_rule2 += 1;
            } else if (evaluate(&self.pos) as i32) < beta - BADLY_MARGIN {
                self.stats.refused_badly += 1;
            } else {
                self.stats.tried += 1;
                let undo = self.pos.make_null();
                self.history.push(self.pos.key());
                let score =
                    -self.search(depth - 1 - NULL_REDUCTION, ply + 1, -beta, -beta + 1, false);
                self.history.pop();
                self.pos.unmake_null(&undo);
                if self.budget.aborted {
                    return 0;
                }
                if score >= beta {
                    self.stats.cutoffs += 1;
                    return beta;
                }
            }
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        self.pos.generate(&mut list, GenMode::All);
        if list.is_empty() {
            self.lists[ply] = list;
            return if in_check { -(MATE - ply as i32) } else { 0 };
        }
        let killers = self.killers[ply];
        let mut keys: Vec<u8> = list
            .iter()
            .map(|&m| ordering_key(&self.pos, m, pv_move, &killers))
            .collect();
        let mut result = alpha;
        let mut searched = 0;
        while let Some(i) = pick_next(&mut keys) {
            let m = list.as_slice()[i];
            if searched > 0 {
                self.follow = false;
            }
            searched += 1;
            let quiet = m.promotion() == 0 && !self.pos.is_capture(m);
            let undo = self.pos.make(m);
            self.history.push(self.pos.key());
            let score = -self.search(depth - 1, ply + 1, -beta, -alpha, true);
            self.history.pop();
            self.pos.unmake(m, &undo);
            if self.budget.aborted {
                result = 0;
                break;
            }
            if score >= beta {
                let k = &mut self.killers[ply];
                if quiet && (k[0].from() != m.from() || k[0].to() != m.to()) {
                    k[1] = k[0];
                    k[0] = m;
                }
                result = beta;
                break;
            }
            if score > alpha {
                alpha = score;
                result = alpha;
                self.set_pv(ply, m);
            }
        }
        self.lists[ply] = list;
        // Rule III: in a complex ending the null move is searched last at the root, at the
        // full depth of the real moves. If passing beats the best move, it is zugzwang.
        if ply == 0 && self.root_test && self.null_enabled && !self.budget.aborted {
            self.stats.root_tests += 1;
            let undo = self.pos.make_null();
            self.history.push(self.pos.key());
            self.follow = false;
            let score = -self.search(depth - 1, 1, -(alpha + 1), -alpha, false);
            self.history.pop();
            self.pos.unmake_null(&undo);
            if !self.budget.aborted && score > alpha {
                self.zugzwang = true;
            }
        }
        result
    }

    fn quiesce(&mut self, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        let stand = evaluate(&self.pos) as i32;
        if stand >= beta {
            return beta;
        }
        if stand > alpha {
            alpha = stand;
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        self.pos.generate(&mut list, GenMode::Tactical);
        let mut keys: Vec<u8> = list
            .iter()
            .map(|&m| ordering_key(&self.pos, m, None, &[Move::NULL; 2]))
            .collect();
        let mut result = alpha;
        while let Some(i) = pick_next(&mut keys) {
            let m = list.as_slice()[i];
            let undo = self.pos.make(m);
            let score = -self.quiesce_node(ply + 1, -beta, -alpha);
            self.pos.unmake(m, &undo);
            if self.budget.aborted {
                result = 0;
                break;
            }
            if score >= beta {
                result = beta;
                break;
            }
            if score > alpha {
                alpha = score;
                result = alpha;
            }
        }
        self.lists[ply] = list;
        result
    }

    fn quiesce_node(&mut self, ply: usize, alpha: i32, beta: i32) -> i32 {
        if self.budget.tick() {
            return 0;
        }
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply);
        if self.pos.insufficient_material() {
            return 0;
        }
        if ply >= MAX_PLY {
            return evaluate(&self.pos) as i32;
        }
        self.quiesce(ply, alpha, beta)
    }
}

/// Index of the first move with the highest key not yet taken (a taken key becomes 0).
fn pick_next(keys: &mut [u8]) -> Option<usize> {
    let mut best = 0;
    let mut at = None;
    for (i, &k) in keys.iter().enumerate() {
        if k > best {
            best = k;
            at = Some(i);
        }
    }
    if let Some(i) = at {
        keys[i] = 0;
    }
    at
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
