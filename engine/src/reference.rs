//! The reference search, exactly as `docs/ALGORITHM.md` §7-§9 define it: iterative deepening
//! over a fail-hard negamax alpha-beta with null move (R = 2), quiescence over tactical moves,
//! and move ordering by one-byte keys (PV move, MVV-LVA captures, queen promotions, two killers).
//! The Z80 and 6502 ports reproduce its best move, score, principal variation and node count.
//!
//! Time limits and the stop flag are extras for playing: they end the search between nodes
//! like the node limit does, so a fixed-depth or node-limited search is fully reproducible.

use crate::engine::{INF, MATE, SearchControl, SearchInfo, SearchResult};
use crate::eval::evaluate;
use crate::movegen::GenMode;
use crate::moves::{Move, MoveList};
use crate::piece::{self, PAWN};
use crate::position::Position;
use crate::pv::{PvTable, is_repetition};
use crate::tables::{
    KEY_CAPTURE, KEY_KILLER1, KEY_KILLER2, KEY_OTHER, KEY_PV, KEY_QUEEN_PROMOTION,
};
use std::time::{Duration, Instant};

/// Deepest iteration (ALGORITHM.md §10).
pub const MAX_DEPTH: u32 = 32;
/// Deepest ply from the root, search and quiescence together.
pub const MAX_PLY: usize = 64;

/// What the reference search is asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReferenceLimits {
    /// Iterations to run (1..=32); `None` means [`MAX_DEPTH`].
    pub depth: Option<u32>,
    /// Node limit with the semantics of ALGORITHM.md §9.
    pub nodes: Option<u64>,
    /// Do not start an iteration after this much time (playing only).
    pub soft_time: Option<Duration>,
    /// Abort the running iteration after this much time (playing only).
    pub hard_time: Option<Duration>,
}

/// Parts of the reference search that can be switched off one at a time, to measure in games
/// what each is worth ("Elo per feature", `docs/ELO.md`). [`Features::ALL`], the default, is
/// exactly ALGORITHM.md: with it the search is bit for bit the one the 8-bit ports reproduce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Null-move pruning (§7).
    pub null_move: bool,
    /// The two killer moves per ply (§8); off: no killer keys.
    pub killers: bool,
    /// MVV-LVA keys for captures (§8); off: every capture gets one key, so captures are still
    /// tried before quiet moves but in generation order.
    pub mvv_lva: bool,
    /// The previous iteration's PV move first (§8); off: no PV key.
    pub pv_move: bool,
    /// Quiescence search (§7); off: the static evaluation at depth 0.
    pub quiescence: bool,
    /// Iterative deepening carrying PV and killers to the next depth (§7); off: every depth is
    /// searched from scratch (no PV, killers cleared), as a fixed-depth searcher restarted
    /// one ply deeper would. The node limit still ends the search at the last completed depth.
    pub iterative_deepening: bool,
}

impl Features {
    /// Everything on: exactly ALGORITHM.md.
    pub const ALL: Features = Features {
        null_move: true,
        killers: true,
        mvv_lva: true,
        pv_move: true,
        quiescence: true,
        iterative_deepening: true,
    };
}

impl Default for Features {
    fn default() -> Self {
        Features::ALL
    }
}

/// The ordering key of a move (ALGORITHM.md §8), given the PV move and killers of the ply.
pub fn ordering_key(pos: &Position, m: Move, pv_move: Option<Move>, killers: &[Move; 2]) -> u8 {
    if Some(m) == pv_move {
        return KEY_PV;
    }
    let victim = pos.piece_at(m.to());
    let attacker = piece::piece_type(pos.piece_at(m.from()));
    if victim != 0 {
        return KEY_CAPTURE + 8 * piece::piece_type(victim) - attacker;
    }
    if pos.is_en_passant(m) {
        return KEY_CAPTURE + 8 * PAWN - PAWN;
    }
    if m.promotion() == piece::QUEEN {
        return KEY_QUEEN_PROMOTION;
    }
    if m.promotion() == 0 {
        let same = |k: Move| k.from() == m.from() && k.to() == m.to();
        if same(killers[0]) {
            return KEY_KILLER1;
        }
        if same(killers[1]) {
            return KEY_KILLER2;
        }
    }
    KEY_OTHER
}

/// The state of one reference search.
pub struct ReferenceSearch<'c, 'i> {
    pos: Position,
    /// Keys of earlier game positions, the root, and the current path (ALGORITHM.md §6).
    history: Vec<u32>,
    nodes: u64,
    limits: ReferenceLimits,
    iteration_one_done: bool,
    aborted: bool,
    killers: [[Move; 2]; MAX_PLY + 1],
    pv: PvTable,
    prev_pv: Vec<Move>,
    follow: bool,
    lists: Vec<MoveList>,
    seldepth: usize,
    control: Option<&'c SearchControl<'i>>,
    start: Instant,
    features: Features,
}

impl<'c, 'i> ReferenceSearch<'c, 'i> {
    /// A search of `pos` with `history` = keys of earlier positions, oldest first, ending with
    /// the key of `pos` itself (see [`crate::Game::reference_history`]). An empty history is
    /// taken as just the root.
    pub fn new(pos: &Position, history: &[u32], limits: ReferenceLimits) -> Self {
        let mut h = history.to_vec();
        if h.last() != Some(&pos.key()) {
            h.push(pos.key());
        }
        ReferenceSearch {
            pos: pos.clone(),
            history: h,
            nodes: 0,
            limits,
            iteration_one_done: false,
            aborted: false,
            killers: [[Move::NULL; 2]; MAX_PLY + 1],
            pv: PvTable::new(MAX_PLY),
            prev_pv: Vec::new(),
            follow: false,
            lists: vec![MoveList::new(); MAX_PLY + 1],
            seldepth: 0,
            control: None,
            start: Instant::now(),
            features: Features::ALL,
        }
    }

    /// Switches features off (see [`Features`]; the default is [`Features::ALL`]).
    pub fn with_features(mut self, features: Features) -> Self {
        self.features = features;
        self
    }

    /// The ordering key of `m` with the switched-off features taken out.
    #[inline]
    fn key(&self, m: Move, pv_move: Option<Move>, killers: &[Move; 2]) -> u8 {
        let f = self.features;
        if f == Features::ALL {
            return ordering_key(&self.pos, m, pv_move, killers);
        }
        let pv_move = if f.pv_move { pv_move } else { None };
        let killers = if f.killers { killers } else { &[Move::NULL; 2] };
        let k = ordering_key(&self.pos, m, pv_move, killers);
        if !f.mvv_lva && k > KEY_CAPTURE && k != KEY_PV {
            KEY_CAPTURE + 1
        } else {
            k
        }
    }

    /// Attaches a control (stop flag, info callback, start time).
    pub fn with_control(mut self, control: &'c SearchControl<'i>) -> Self {
        self.start = control.start;
        self.control = Some(control);
        self
    }

    /// Runs iterative deepening and returns the result of the last completed iteration.
    pub fn run(mut self) -> SearchResult {
        let max_depth = self.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let root_moves = self.pos.legal_moves();
        if root_moves.is_empty() {
            return SearchResult::no_move(self.pos.in_check(), self.start.elapsed());
        }
        let mut result = SearchResult {
            best: None,
            score: 0,
            pv: Vec::new(),
            depth: 0,
            nodes: 0,
            time: Duration::ZERO,
        };
        for depth in 1..=max_depth {
            if depth > 1 {
                if let Some(soft) = self.limits.soft_time {
                    if self.start.elapsed() >= soft {
                        break;
                    }
                }
                if self.control.is_some_and(|c| c.stopped()) {
                    break;
                }
            }
            if !self.features.iterative_deepening {
                self.prev_pv.clear();
                self.killers = [[Move::NULL; 2]; MAX_PLY + 1];
            }
            self.follow = true;
            let score = self.search(depth as i32, 0, -INF, INF, true);
            if self.aborted {
                break;
            }
            self.iteration_one_done = true;
            let pv = self.pv.line(0).to_vec();
            self.prev_pv = pv.clone();
            result = SearchResult {
                best: pv.first().copied(),
                score,
                pv,
                depth,
                nodes: self.nodes,
                time: self.start.elapsed(),
            };
            if let Some(c) = self.control {
                c.report(&SearchInfo {
                    depth: Some(depth),
                    seldepth: self.seldepth as u32,
                    score: Some(score),
                    nodes: Some(self.nodes),
                    time: result.time,
                    pv: result.pv.clone(),
                    hashfull: None,
                    string: None,
                });
            }
        }
        result.nodes = self.nodes;
        result.time = self.start.elapsed();
        result
    }

    /// Step 1 of `search` and `quiesce`: count the node and check the limits.
    #[inline]
    fn count_node(&mut self) -> bool {
        self.nodes += 1;
        if !self.iteration_one_done {
            return false;
        }
        if let Some(n) = self.limits.nodes {
            if self.nodes > n {
                self.aborted = true;
                return true;
            }
        }
        if self.nodes & 1023 == 0 {
            if self.control.is_some_and(|c| c.stopped()) {
                self.aborted = true;
            }
            if let Some(hard) = self.limits.hard_time {
                if self.start.elapsed() >= hard {
                    self.aborted = true;
                }
            }
        }
        self.aborted
    }

    fn search(&mut self, depth: i32, ply: usize, mut alpha: i32, beta: i32, null_ok: bool) -> i32 {
        if self.count_node() {
            return 0;
        }
        self.pv.clear(ply);
        self.seldepth = self.seldepth.max(ply);
        if ply > 0 {
            if self.pos.halfmove_clock() >= 100 {
                return if self.pos.in_check() && self.pos.legal_moves().is_empty() {
                    -(MATE - ply as i32)
                } else {
                    0
                };
            }
            if is_repetition(&self.history, self.pos.halfmove_clock())
                || self.pos.insufficient_material()
            {
                return 0;
            }
        }
        if ply >= MAX_PLY {
            return evaluate(&self.pos) as i32;
        }
        if depth <= 0 {
            if !self.features.quiescence {
                return evaluate(&self.pos) as i32;
            }
            return self.quiesce_body(ply, alpha, beta);
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
        let side = self.pos.side();
        if null_ok
            && self.features.null_move
            && ply > 0
            && !in_check
            && !self.follow
            && self.pos.npm(side) > 330
        {
            let undo = self.pos.make_null();
            self.history.push(self.pos.key());
            let score = -self.search(depth - 3, ply + 1, -beta, -beta + 1, false);
            self.history.pop();
            self.pos.unmake_null(&undo);
            if self.aborted {
                return 0;
            }
            if score >= beta {
                return beta;
            }
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        self.pos.generate(&mut list, GenMode::All);
        if list.is_empty() {
            self.lists[ply] = list;
            return if in_check { -(MATE - ply as i32) } else { 0 };
        }
        let mut keys = [0u8; 256];
        let killers = self.killers[ply];
        for (i, &m) in list.iter().enumerate() {
            keys[i] = self.key(m, pv_move, &killers);
        }
        let mut result = alpha;
        let mut searched = 0;
        while let Some(i) = pick_next(&mut keys[..list.len()]) {
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
            if self.aborted {
                result = 0;
                break;
            }
            if score >= beta {
                if quiet
                    && (self.killers[ply][0].from() != m.from()
                        || self.killers[ply][0].to() != m.to())
                {
                    self.killers[ply][1] = self.killers[ply][0];
                    self.killers[ply][0] = m;
                }
                result = beta;
                break;
            }
            if score > alpha {
                alpha = score;
                result = alpha;
                self.pv.update(ply, m);
            }
        }
        self.lists[ply] = list;
        result
    }

    fn quiesce(&mut self, ply: usize, alpha: i32, beta: i32) -> i32 {
        if self.count_node() {
            return 0;
        }
        self.pv.clear(ply);
        self.seldepth = self.seldepth.max(ply);
        if self.pos.insufficient_material() {
            return 0;
        }
        if ply >= MAX_PLY {
            return evaluate(&self.pos) as i32;
        }
        self.quiesce_body(ply, alpha, beta)
    }

    fn quiesce_body(&mut self, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        let stand = evaluate(&self.pos) as i32;
        if stand >= beta {
            return beta;
        }
        if stand > alpha {
            alpha = stand;
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        self.pos.generate(&mut list, GenMode::Tactical);
        let mut keys = [0u8; 256];
        for (i, &m) in list.iter().enumerate() {
            keys[i] = self.key(m, None, &[Move::NULL; 2]);
        }
        let mut result = alpha;
        while let Some(i) = pick_next(&mut keys[..list.len()]) {
            let m = list.as_slice()[i];
            let undo = self.pos.make(m);
            let score = -self.quiesce(ply + 1, -beta, -alpha);
            self.pos.unmake(m, &undo);
            if self.aborted {
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
}

/// Index of the first move with the highest key not yet taken (keys are >= 1; a taken move's
/// key is set to 0). This visits moves in the order of a stable descending sort.
#[inline]
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

/// Runs the reference search on a position with the given history and limits.
pub fn search(pos: &Position, history: &[u32], limits: ReferenceLimits) -> SearchResult {
    ReferenceSearch::new(pos, history, limits).run()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pick_next_visits_in_stable_descending_order() {
        // A small deterministic generator of key arrays with many ties.
        let mut x = 0x1234_5678u32;
        for len in 0..40 {
            let keys: Vec<u8> = (0..len)
                .map(|_| {
                    x = crate::tables::xorshift32(x);
                    [1, 140, 150, 160, 162, 199, 255][(x % 7) as usize]
                })
                .collect();
            let mut expected: Vec<usize> = (0..len).collect();
            expected.sort_by_key(|&i| std::cmp::Reverse(keys[i]));
            let mut work = keys.clone();
            let mut order = Vec::new();
            while let Some(i) = pick_next(&mut work) {
                order.push(i);
            }
            assert_eq!(order, expected, "{keys:?}");
        }
    }

    #[test]
    fn ordering_keys_follow_the_table() {
        let key = |fen: &str, uci: &str, pv: Option<&str>, killers: [&str; 2]| {
            let pos = Position::from_fen(fen).unwrap();
            let k = killers.map(|t| {
                if t.is_empty() {
                    Move::NULL
                } else {
                    pos.parse_uci(t).unwrap()
                }
            });
            let pv = pv.map(|t| pos.parse_uci(t).unwrap());
            ordering_key(&pos, pos.parse_uci(uci).unwrap(), pv, &k)
        };
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let none = ["", ""];
        assert_eq!(key(kiwipete, "e2a6", None, none), 160 + 8 * 3 - 3); // bishop takes bishop
        assert_eq!(key(kiwipete, "f3f6", None, none), 160 + 8 * 2 - 5); // queen takes knight
        assert_eq!(key(kiwipete, "g2h3", None, none), 160 + 8 - 1); // pawn takes pawn
        assert_eq!(key(kiwipete, "e2a6", Some("e2a6"), none), 255);
        assert_eq!(key(kiwipete, "a2a3", None, ["a2a3", "b2b3"]), 150);
        assert_eq!(key(kiwipete, "b2b3", None, ["a2a3", "b2b3"]), 140);
        assert_eq!(key(kiwipete, "a2a4", None, ["a2a3", "b2b3"]), 1);
        assert_eq!(key(kiwipete, "e1g1", None, none), 1);
        let promotions = "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1";
        assert_eq!(key(promotions, "g2f1q", None, none), 160 + 8 * 2 - 1);
        assert_eq!(key(promotions, "g2f1n", None, none), 160 + 8 * 2 - 1); // still a capture
        assert_eq!(key(promotions, "g2g1q", None, none), 160);
        assert_eq!(key(promotions, "g2g1r", None, none), 1);
        let ep = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
        assert_eq!(key(ep, "e5f6", None, none), 160 + 8 - 1);
    }
}
