//! The `full` profile: the native engine at its best, for people who play against it. Its own
//! search over the shared move generator: principal-variation search with aspiration windows, a
//! large transposition table with 64-bit keys, null move with adaptive reduction, late-move
//! reductions and pruning, futility and reverse-futility pruning, check extension, SEE-based
//! capture ordering, killers, history and counter moves, and the tapered evaluation of
//! [`eval`]. Nothing here is part of the reference algorithm.

pub mod eval;
pub mod see;
pub mod tt;

use crate::engine::{INF, MATE, MATE_BOUND, SearchControl, SearchResult};
use crate::movegen::GenMode;
use crate::moves::{Move, MoveList};
use crate::piece::{self, PAWN};
use crate::position::Position;
use crate::pv::{PvTable, is_repetition};
use crate::square::sq64;
use std::time::Duration;
use tt::{Bound, TranspositionTable};
use web_time::Instant;

/// Deepest ply from the root.
pub const MAX_PLY: usize = 128;
/// Deepest iteration.
pub const MAX_DEPTH: u32 = 100;

/// Limits of one full-profile search.
#[derive(Clone, Copy, Debug, Default)]
pub struct FullLimits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Target time: no new iteration after a good part of it.
    pub soft_time: Option<Duration>,
    /// Abort time.
    pub hard_time: Option<Duration>,
}

/// Tables kept between searches: transposition table, history and counter moves.
pub struct FullState {
    tt: TranspositionTable,
    history: Box<[[i32; 64]; 16]>,
    counter: Box<[[Move; 64]; 16]>,
    lmr: Box<[[u8; 64]; 64]>,
}

impl FullState {
    /// State with a transposition table of `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> Self {
        let mut lmr = Box::new([[0u8; 64]; 64]);
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as u8;
            }
        }
        FullState {
            tt: TranspositionTable::new(hash_mb),
            history: Box::new([[0; 64]; 16]),
            counter: Box::new([[Move::NULL; 64]; 16]),
            lmr,
        }
    }

    /// The size of the transposition table in bytes.
    pub fn table_bytes(&self) -> usize {
        self.tt.bytes()
    }

    /// Resizes the transposition table (clearing it).
    pub fn resize(&mut self, hash_mb: usize) {
        self.tt = TranspositionTable::new(hash_mb);
    }

    /// [`FullState::new`], or an error when the host cannot give the table.
    pub fn try_new(hash_mb: usize) -> Result<Self, std::collections::TryReserveError> {
        let tt = TranspositionTable::try_new(hash_mb)?;
        let mut state = FullState::new(1);
        state.tt = tt;
        Ok(state)
    }

    /// [`FullState::resize`], keeping the old table when the host cannot give the new one.
    pub fn try_resize(&mut self, hash_mb: usize) -> Result<(), std::collections::TryReserveError> {
        self.tt = TranspositionTable::try_new(hash_mb)?;
        Ok(())
    }

    /// Forgets everything (`ucinewgame`).
    pub fn clear(&mut self) {
        self.tt.clear();
        *self.history = [[0; 64]; 16];
        *self.counter = [[Move::NULL; 64]; 16];
    }

    /// Searches `pos`; `history` holds 64-bit keys of earlier positions (oldest first, ending with
    /// the key of `pos`).
    pub fn search(
        &mut self,
        pos: &Position,
        history: &[u64],
        limits: FullLimits,
        control: &SearchControl,
    ) -> SearchResult {
        self.search_moves(pos, history, limits, &[], control)
    }

    /// [`FullState::search`] of only `root_moves` at the root (UCI `searchmoves`: legal moves
    /// of `pos`; empty, every move).
    pub fn search_moves(
        &mut self,
        pos: &Position,
        history: &[u64],
        limits: FullLimits,
        root_moves: &[Move],
        control: &SearchControl,
    ) -> SearchResult {
        self.tt.new_search();
        let mut keys = history.to_vec();
        if keys.last() != Some(&pos.key64()) {
            keys.push(pos.key64());
        }
        let mut s = Searcher {
            pos: pos.clone(),
            state: self,
            keys,
            nodes: 0,
            limits,
            stopped: false,
            control,
            start: control.start,
            pv: PvTable::new(MAX_PLY),
            killers: [[Move::NULL; 2]; MAX_PLY + 2],
            eval_stack: [0; MAX_PLY + 2],
            moved: [(0, 0); MAX_PLY + 2],
            lists: vec![MoveList::new(); MAX_PLY + 1],
            seldepth: 0,
            root_moves: root_moves.to_vec(),
        };
        s.iterate()
    }
}

struct Searcher<'s, 'c, 'i> {
    pos: Position,
    state: &'s mut FullState,
    keys: Vec<u64>,
    nodes: u64,
    limits: FullLimits,
    stopped: bool,
    control: &'c SearchControl<'i>,
    start: Instant,
    pv: PvTable,
    killers: [[Move; 2]; MAX_PLY + 2],
    eval_stack: [i32; MAX_PLY + 2],
    /// (piece code, to sq64) of the move that led to each ply, for counter moves.
    moved: [(u8, u8); MAX_PLY + 2],
    lists: Vec<MoveList>,
    seldepth: usize,
    /// The root moves to search; empty: every legal move.
    root_moves: Vec<Move>,
}

fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// The stored score of `h` at `ply` when its bound settles the window `(alpha, beta)`: an
/// exact score, a lower bound at or above `beta`, an upper bound at or below `alpha`.
#[inline]
fn tt_cutoff(h: &tt::Hit, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let s = from_tt(h.score, ply);
    match h.bound {
        Bound::Exact => Some(s),
        Bound::Lower if s >= beta => Some(s),
        Bound::Upper if s <= alpha => Some(s),
        _ => None,
    }
}

/// A node of [`Searcher::negamax`] as its moves are tried: what stays fixed while they are.
struct Node {
    /// Its depth (extended in check, reduced without a table move).
    depth: i32,
    ply: usize,
    pv_node: bool,
    in_check: bool,
    /// Its static evaluation is above that of two plies before.
    improving: bool,
    static_eval: i32,
    killers: [Move; 2],
    /// The counter move of the move that led here.
    counter: Move,
}

/// A move made at a [`Node`], about to be searched.
struct Child {
    m: Move,
    /// Its ordering score.
    order: i32,
    quiet: bool,
    gives_check: bool,
    /// Moves searched before it at the node.
    searched: usize,
}

const MVV: [i32; 7] = [0, 100, 300, 310, 500, 900, 0];

impl Searcher<'_, '_, '_> {
    fn iterate(&mut self) -> SearchResult {
        let root_moves: Vec<Move> = self
            .pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| self.root_moves.is_empty() || self.root_moves.contains(m))
            .collect();
        if root_moves.is_empty() {
            return SearchResult::no_move(self.pos.in_check(), self.start.elapsed());
        }
        let max_depth = self.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut result = SearchResult {
            best: Some(root_moves[0]),
            score: 0,
            pv: vec![root_moves[0]],
            depth: 0,
            nodes: 0,
            time: Duration::ZERO,
        };
        let mut prev_score = 0;
        for depth in 1..=max_depth {
            if depth > 1 {
                if let Some(soft) = self.limits.soft_time {
                    if self.start.elapsed() >= soft * 3 / 5 {
                        break;
                    }
                }
            }
            let mut delta = 18;
            let (mut alpha, mut beta) = if depth >= 5 {
                (prev_score - delta, prev_score + delta)
            } else {
                (-INF, INF)
            };
            let mut score;
            loop {
                score = self.negamax(depth as i32, 0, alpha, beta, true, false);
                if self.stopped {
                    break;
                }
                if score <= alpha {
                    beta = (alpha + beta) / 2;
                    alpha = (score - delta).max(-INF);
                } else if score >= beta {
                    beta = (score + delta).min(INF);
                } else {
                    break;
                }
                delta += delta;
                if delta > 1000 {
                    alpha = -INF;
                    beta = INF;
                }
            }
            if self.stopped {
                // A partial iteration still improves on the last one once its first root move
                // (the previous best) has been searched with the full window.
                if !self.pv.line(0).is_empty() && score > alpha && score < beta {
                    result.best = Some(self.pv.line(0)[0]);
                    result.pv = self.pv.line(0).to_vec();
                    result.score = score;
                }
                break;
            }
            prev_score = score;
            result = SearchResult::of_iteration(
                depth,
                score,
                self.pv.line(0).to_vec(),
                self.nodes,
                self.start.elapsed(),
            );
            let hashfull = self.state.tt.hashfull();
            self.control
                .report(&result.info(self.seldepth as u32, Some(hashfull)));
            if self.control.stopped() {
                break;
            }
        }
        result.nodes = self.nodes;
        result.time = self.start.elapsed();
        result
    }

    #[inline]
    fn check_limits(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if let Some(n) = self.limits.nodes {
            if self.nodes >= n {
                self.stopped = true;
            }
        }
        if self.nodes & 1023 == 0 {
            if self.control.stopped() {
                self.stopped = true;
            }
            if let Some(hard) = self.limits.hard_time {
                if self.start.elapsed() >= hard {
                    self.stopped = true;
                }
            }
        }
        self.stopped
    }

    fn history_update(&mut self, piece: u8, to: u8, bonus: i32) {
        let h = &mut self.state.history[piece as usize][sq64(to)];
        *h += bonus - *h * bonus.abs() / 16384;
    }

    fn negamax(
        &mut self,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        pv_node: bool,
        null_ok_in: bool,
    ) -> i32 {
        self.pv.clear(ply);
        if depth <= 0 {
            return self.qsearch(ply, alpha, beta);
        }
        self.nodes += 1;
        if self.check_limits() && ply > 0 {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = self.pos.in_check();
        if ply > 0 {
            if let Some(s) = self.drawn_or_bounded(ply, in_check, &mut alpha, &mut beta) {
                return s;
            }
        }
        if in_check {
            depth += 1;
        }
        let key = self.pos.key64();
        let hit = self.state.tt.probe(key);
        let mut tt_move = Move::NULL;
        if let Some(h) = hit {
            tt_move = h.mv;
            if !pv_node && h.depth >= depth {
                if let Some(s) = tt_cutoff(&h, ply, alpha, beta) {
                    return s;
                }
            }
        }
        let static_eval = if in_check {
            -INF
        } else if let Some(h) = hit {
            h.eval
        } else {
            eval::evaluate(&self.pos)
        };
        self.eval_stack[ply] = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.eval_stack[ply - 2];
        if !pv_node && !in_check && ply > 0 {
            if let Some(s) = self.pruned_node(depth, ply, beta, static_eval, improving, null_ok_in)
            {
                return s;
            }
        }
        if tt_move.is_null() && depth >= 4 && (pv_node || hit.is_none()) {
            depth -= 1;
        }
        let (prev_piece, prev_to) = self.moved[ply];
        let node = Node {
            depth,
            ply,
            pv_node,
            in_check,
            improving,
            static_eval,
            killers: self.killers[ply],
            counter: if prev_piece != 0 {
                self.state.counter[prev_piece as usize][prev_to as usize]
            } else {
                Move::NULL
            },
        };
        let original_alpha = alpha;
        let (best_score, best_move) = match self.search_moves(&node, tt_move, alpha, beta) {
            Ok(best) => best,
            Err(score) => return score,
        };
        let bound = Bound::of(best_score, original_alpha, beta);
        let eval_store = if in_check { 0 } else { static_eval };
        self.state.tt.store(
            key,
            best_move,
            to_tt(best_score, ply),
            eval_store,
            depth,
            bound,
        );
        best_score
    }

    /// Below the root: the score of a node drawn by the fifty-move rule, a repetition or
    /// insufficient material, or too deep to search; else the window narrowed to the mate
    /// scores still possible at `ply`, and its score if that closes it.
    #[inline]
    fn drawn_or_bounded(
        &mut self,
        ply: usize,
        in_check: bool,
        alpha: &mut i32,
        beta: &mut i32,
    ) -> Option<i32> {
        if self.pos.halfmove_clock() >= 100 {
            return Some(if in_check && self.pos.legal_moves().is_empty() {
                -(MATE - ply as i32)
            } else {
                0
            });
        }
        if is_repetition(&self.keys, self.pos.halfmove_clock()) || self.pos.insufficient_material()
        {
            return Some(0);
        }
        *alpha = (*alpha).max(-(MATE - ply as i32));
        *beta = (*beta).min(MATE - ply as i32 - 1);
        if *alpha >= *beta {
            return Some(*alpha);
        }
        if ply >= MAX_PLY - 1 {
            return Some(eval::evaluate(&self.pos));
        }
        None
    }

    /// A node outside the principal variation, not in check, pruned before its moves: by
    /// reverse futility (the static evaluation far above `beta`) or by a null move that fails
    /// high. Its score, or `None` to search its moves.
    #[inline]
    fn pruned_node(
        &mut self,
        depth: i32,
        ply: usize,
        beta: i32,
        static_eval: i32,
        improving: bool,
        null_ok: bool,
    ) -> Option<i32> {
        if depth <= 7
            && beta.abs() < MATE_BOUND
            && static_eval - (80 - 20 * improving as i32) * depth >= beta
        {
            return Some(static_eval);
        }
        let side = self.pos.side();
        if null_ok && depth >= 2 && static_eval >= beta && self.pos.npm(side) > 0 {
            let r = 3 + depth / 4 + ((static_eval - beta) / 200).min(3);
            let undo = self.pos.make_null();
            self.keys.push(self.pos.key64());
            self.moved[ply + 1] = (0, 0);
            let score = -self.negamax(depth - 1 - r, ply + 1, -beta, -beta + 1, false, false);
            self.keys.pop();
            self.pos.unmake_null(&undo);
            if self.stopped {
                return Some(0);
            }
            if score >= beta {
                return Some(if score >= MATE_BOUND { beta } else { score });
            }
        }
        None
    }

    /// The moves of `node`, best first by [`Self::score_move`], each pruned, reduced or
    /// searched: the best score and move (`Err`: the node's score without a search, on no
    /// legal move or a stopped search).
    #[inline]
    fn search_moves(
        &mut self,
        node: &Node,
        tt_move: Move,
        mut alpha: i32,
        beta: i32,
    ) -> Result<(i32, Move), i32> {
        let ply = node.ply;
        let mut list = std::mem::take(&mut self.lists[ply]);
        self.pos.generate(&mut list, GenMode::All);
        if ply == 0 && !self.root_moves.is_empty() {
            let root_moves = &self.root_moves;
            list.retain(|m| root_moves.contains(&m));
        }
        if list.is_empty() {
            self.lists[ply] = list;
            return Err(if node.in_check {
                -(MATE - ply as i32)
            } else {
                0
            });
        }
        let n = list.len();
        let mut scores = [0i32; 256];
        for (i, &m) in list.iter().enumerate() {
            scores[i] = self.score_move(m, tt_move, &node.killers, node.counter);
        }
        let moves = list.as_mut_slice();
        let mut best_score = -INF;
        let mut best_move = Move::NULL;
        let mut searched = 0usize;
        let mut quiets_tried: [Move; 64] = [Move::NULL; 64];
        let mut quiet_count = 0usize;
        let depth = node.depth;
        let lmp_limit = (3 + depth * depth) as usize / if node.improving { 1 } else { 2 };
        for i in 0..n {
            let m = pick_best(moves, &mut scores[..n], i);
            let quiet = !self.pos.is_capture(m) && m.promotion() == 0;
            // Quiet moves that look hopeless are skipped unless they give check.
            let mut prune_if_quiet = false;
            if ply > 0 && !node.in_check && best_score > -MATE_BOUND {
                if quiet {
                    let late = quiet_count >= lmp_limit;
                    let futile = node.static_eval + 90 + 80 * depth <= alpha;
                    prune_if_quiet = (!node.pv_node && depth <= 8 && (late || futile))
                        || (depth <= 3 && scores[i] < -3000 * depth);
                } else if depth <= 6 && scores[i] < 0 && see::see(&self.pos, m) < -90 * depth {
                    continue;
                }
            }
            let moving = self.pos.piece_at(m.from());
            let undo = self.pos.make(m);
            let gives_check = self.pos.in_check();
            if prune_if_quiet && !gives_check {
                self.pos.unmake(m, &undo);
                continue;
            }
            self.keys.push(self.pos.key64());
            self.moved[ply + 1] = (moving, sq64(m.to()) as u8);
            let child = Child {
                m,
                order: scores[i],
                quiet,
                gives_check,
                searched,
            };
            let score = self.search_child(node, &child, alpha, beta);
            self.keys.pop();
            self.pos.unmake(m, &undo);
            if self.stopped {
                self.lists[ply] = list;
                return Err(0);
            }
            searched += 1;
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = m;
                    alpha = score;
                    self.pv.update(ply, m);
                    if score >= beta {
                        if quiet {
                            self.reward_cutoff(node, m, moving, &quiets_tried[..quiet_count]);
                        }
                        break;
                    }
                }
            }
            if quiet && quiet_count < quiets_tried.len() {
                quiets_tried[quiet_count] = m;
                quiet_count += 1;
            }
        }
        self.lists[ply] = list;
        Ok((best_score, best_move))
    }

    /// The score of a move made at `node`: the first move with the full window, the others
    /// with a null window (late quiet and losing moves reduced first), searched again at full
    /// depth and with the full window when they beat `alpha`.
    #[inline]
    fn search_child(&mut self, node: &Node, child: &Child, alpha: i32, beta: i32) -> i32 {
        let (ply, pv_node) = (node.ply, node.pv_node);
        let new_depth = node.depth - 1;
        if child.searched == 0 {
            return -self.negamax(new_depth, ply + 1, -beta, -alpha, pv_node, true);
        }
        let mut r = 0;
        if node.depth >= 3 && child.searched >= 2 && (child.quiet || child.order < 0) {
            r = self.state.lmr[node.depth.min(63) as usize][child.searched.min(63)] as i32;
            if pv_node {
                r -= 1;
            }
            if child.gives_check {
                r -= 1;
            }
            if !node.improving {
                r += 1;
            }
            let m = child.m;
            if m == node.killers[0] || m == node.killers[1] || m == node.counter {
                r -= 1;
            }
            if child.quiet {
                r -= child.order / 8000;
            }
            r = r.clamp(0, new_depth - 1);
        }
        let mut s = -self.negamax(new_depth - r, ply + 1, -alpha - 1, -alpha, false, true);
        if s > alpha && r > 0 {
            s = -self.negamax(new_depth, ply + 1, -alpha - 1, -alpha, false, true);
        }
        if s > alpha && s < beta && pv_node {
            s = -self.negamax(new_depth, ply + 1, -beta, -alpha, true, true);
        }
        s
    }

    /// A quiet move `m` (of piece `moving`) that cut off at `node`: a killer, its history
    /// raised and that of the quiet moves tried before it lowered, the counter move of the
    /// move before.
    #[inline]
    fn reward_cutoff(&mut self, node: &Node, m: Move, moving: u8, quiets_tried: &[Move]) {
        let ply = node.ply;
        if self.killers[ply][0] != m {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = m;
        }
        let bonus = (node.depth * node.depth).min(1200);
        self.history_update(moving, m.to(), bonus * 16);
        for &q in quiets_tried {
            let p = self.pos.piece_at(q.from());
            self.history_update(p, q.to(), -bonus * 16);
        }
        let (prev_piece, prev_to) = self.moved[ply];
        if prev_piece != 0 {
            self.state.counter[prev_piece as usize][prev_to as usize] = m;
        }
    }

    fn score_move(&self, m: Move, tt_move: Move, killers: &[Move; 2], counter: Move) -> i32 {
        if m == tt_move {
            return 2_000_000;
        }
        let pos = &self.pos;
        let attacker = piece::piece_type(pos.piece_at(m.from()));
        if pos.is_capture(m) {
            let victim = if pos.is_en_passant(m) {
                PAWN
            } else {
                piece::piece_type(pos.piece_at(m.to()))
            };
            let mvv = MVV[victim as usize] * 10 - attacker as i32;
            if m.promotion() != 0 && m.promotion() != piece::QUEEN {
                return -400_000 + mvv;
            }
            let good = MVV[victim as usize] >= MVV[attacker as usize] || see::see(pos, m) >= 0;
            return if good {
                1_000_000 + mvv
            } else {
                -200_000 + mvv
            };
        }
        match m.promotion() {
            0 => {}
            piece::QUEEN => return 950_000,
            _ => return -400_000,
        }
        if m == killers[0] {
            900_000
        } else if m == killers[1] {
            890_000
        } else if m == counter {
            880_000
        } else {
            self.state.history[pos.piece_at(m.from()) as usize][sq64(m.to())]
        }
    }

    fn qsearch(&mut self, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        self.pv.clear(ply);
        if self.check_limits() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if self.pos.insufficient_material() {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return eval::evaluate(&self.pos);
        }
        let key = self.pos.key64();
        let hit = self.state.tt.probe(key);
        if let Some(s) = hit.as_ref().and_then(|h| tt_cutoff(h, ply, alpha, beta)) {
            return s;
        }
        let in_check = self.pos.in_check();
        let mut best;
        let stand;
        let mut list = std::mem::take(&mut self.lists[ply]);
        if in_check {
            stand = -INF;
            best = -INF;
            self.pos.generate(&mut list, GenMode::All);
            if list.is_empty() {
                self.lists[ply] = list;
                return -(MATE - ply as i32);
            }
        } else {
            stand = hit.map_or_else(|| eval::evaluate(&self.pos), |h| h.eval);
            if stand >= beta {
                self.lists[ply] = list;
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
            self.pos.generate(&mut list, GenMode::Tactical);
        }
        let n = list.len();
        let mut scores = [0i32; 256];
        for (i, &m) in list.iter().enumerate() {
            scores[i] = self.score_move(m, Move::NULL, &[Move::NULL; 2], Move::NULL);
        }
        let original_alpha = alpha;
        let mut best_move = Move::NULL;
        let moves = list.as_mut_slice();
        for i in 0..n {
            let m = pick_best(moves, &mut scores[..n], i);
            if !in_check {
                if scores[i] < 0 {
                    break;
                }
                let victim = if self.pos.is_en_passant(m) {
                    PAWN
                } else {
                    piece::piece_type(self.pos.piece_at(m.to()))
                };
                if m.promotion() == 0 && stand + MVV[victim as usize] + 200 <= alpha {
                    continue;
                }
            }
            let undo = self.pos.make(m);
            let score = -self.qsearch(ply + 1, -beta, -alpha);
            self.pos.unmake(m, &undo);
            if self.stopped {
                self.lists[ply] = list;
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = m;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.lists[ply] = list;
        let bound = Bound::of(best, original_alpha, beta);
        let eval_store = if in_check { 0 } else { stand };
        self.state
            .tt
            .store(key, best_move, to_tt(best, ply), eval_store, 0, bound);
        best
    }
}

/// Selection step of move ordering: brings the highest-scored move among `i..` to `i`.
#[inline]
fn pick_best(moves: &mut [Move], scores: &mut [i32], i: usize) -> Move {
    let mut best = i;
    for j in i + 1..scores.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    scores.swap(i, best);
    moves[i]
}
