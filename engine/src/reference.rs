//! The reference search, exactly as `docs/ALGORITHM.md` §7-§9 define it: iterative deepening
//! over a fail-hard negamax alpha-beta with null move (R = 2), quiescence over tactical moves,
//! and move ordering by one-byte keys (PV move, MVV-LVA captures, queen promotions, two killers).
//! The Z80 and 6502 ports reproduce its best move, score, principal variation and node count.
//!
//! Time limits and the stop flag are extras for playing: they end the search between nodes
//! like the node limit does, so a fixed-depth or node-limited search is fully reproducible.
//!
//! This is the one reference search of the engine. Three parameters, all resolved at compile
//! time, make the other searches built on it:
//! - the null-move policy ([`NullMove`]): [`ReferenceNull`] (ALGORITHM.md), [`NoNull`], or
//!   Donninger's rules I-III of the `nimzo` profile ([`crate::history::nimzo::Donninger`]);
//! - the feature switches ([`Switches`]): [`AllOn`] for the reference itself, a [`Features`]
//!   value for the "Elo per feature" variants (`docs/ELO.md`) and the lessons;
//! - an [`Observer`] that sees every node: [`NoObserver`] for playing, the lesson's recorder
//!   ([`crate::tree::lesson`]) to draw the tree, count evaluations and cutoffs, and measure
//!   what the null move saves.
//!
//! [`ReferenceSearch::new`] takes the defaults (reference null move, everything on, nobody
//! watching): with them every hook compiles away and the search is ALGORITHM.md to the letter.

use crate::engine::{EngineError, INF, Limits, MATE, SearchControl, SearchRequest, SearchResult};
use crate::eval::evaluate;
use crate::game::Game;
use crate::movegen::GenMode;
use crate::moves::{Move, MoveList};
use crate::piece::{self, BISHOP, PAWN};
use crate::position::Position;
use crate::pv::{PvTable, followed_move, is_repetition};
use crate::tables::{
    KEY_CAPTURE, KEY_KILLER1, KEY_KILLER2, KEY_OTHER, KEY_PV, KEY_QUEEN_PROMOTION, VALUE,
};
use crate::time;
use std::time::Duration;
use web_time::Instant;

/// Deepest iteration (ALGORITHM.md §10).
pub const MAX_DEPTH: u32 = 32;
/// Deepest ply from the root, search and quiescence together.
pub const MAX_PLY: usize = 64;
/// Depth reduction of the null move: its search is `1 + NULL_REDUCTION` plies shallower than
/// the node's (ALGORITHM.md §7, and Donninger's R = 2).
pub const NULL_REDUCTION: i32 = 2;
/// The null move needs more than this much piece material for the side to move (one bishop,
/// so a lone minor piece never passes; ALGORITHM.md §7).
pub const NULL_MIN_MATERIAL: i16 = VALUE[BISHOP as usize];

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

impl ReferenceLimits {
    /// `depth` iterations, no node or time limit.
    pub fn depth(depth: u32) -> ReferenceLimits {
        ReferenceLimits {
            depth: Some(depth),
            ..ReferenceLimits::default()
        }
    }

    /// The limits of an engine's search (`go`) for the side to move `side`: depth and nodes
    /// as given, the clock turned into soft and hard time limits ([`crate::time::budget`]).
    pub fn from_limits(limits: &Limits, side: u8) -> ReferenceLimits {
        let budget = time::budget(limits, side);
        ReferenceLimits {
            depth: limits.depth,
            nodes: limits.nodes,
            soft_time: budget.soft,
            hard_time: budget.hard,
        }
    }
}

/// Parts of the reference search that can be switched off one at a time, to measure in games
/// what each is worth ("Elo per feature", `docs/ELO.md`), or to show in a lesson what is left
/// without them (`kempelen tree`). [`Features::ALL`], the default, is exactly ALGORITHM.md:
/// with it the search is bit for bit the one the 8-bit ports reproduce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Alpha-beta cutoffs (§7); off: every move of a full-width node is searched with the
    /// whole window, which is minimax (quiescence still cuts off).
    pub alpha_beta: bool,
    /// Null-move pruning (§7).
    pub null_move: bool,
    /// Move ordering altogether (§8); off: every move gets the same key, so moves are searched
    /// in generation order.
    pub ordering: bool,
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
        alpha_beta: true,
        null_move: true,
        ordering: true,
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

/// Where the search reads its [`Features`] from: a constant ([`AllOn`], so every test of a
/// switch folds away) or a value chosen at run time ([`Features`] itself).
pub trait Switches: Copy {
    /// The features in force.
    fn get(&self) -> Features;
}

/// Every feature on, known at compile time: the reference itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AllOn;

impl Switches for AllOn {
    #[inline(always)]
    fn get(&self) -> Features {
        Features::ALL
    }
}

impl Switches for Features {
    #[inline(always)]
    fn get(&self) -> Features {
        *self
    }
}

/// When the side to move may pass, and what follows from passing. The search tries a null
/// move only where ALGORITHM.md allows one at all (not at the root, not right after another
/// null move, not in check, not on the previous iteration's PV, [`Features::null_move`] on),
/// searches it `1 + NULL_REDUCTION` plies shallower with a zero window at beta, and cuts the
/// node off when it holds. The policy adds its own conditions and may test the null move at
/// the root (Donninger's rule III).
pub trait NullMove {
    /// Whether the policy ever passes; `false` compiles the null-move code out.
    const PASSES: bool = true;
    /// Whether the side to move may pass in `pos` (a zero-window search at `beta` follows).
    fn allows(&mut self, pos: &Position, beta: i32) -> bool;
    /// The null move just cut a node off.
    #[inline(always)]
    fn refuted(&mut self) {}
    /// Whether the null move is also searched last at the root, at the full depth of the
    /// real moves, to detect zugzwang.
    #[inline(always)]
    fn tests_root(&self) -> bool {
        false
    }
    /// The outcome of the root test: `zugzwang` when passing beat every real move.
    #[inline(always)]
    fn root_tested(&mut self, _zugzwang: bool) {}
    /// Asked after every completed iteration: `Some(factor)` forgets what was learnt (PV and
    /// killers) and starts again from the first depth with the time limits times `factor`.
    #[inline(always)]
    fn restart(&mut self) -> Option<u32> {
        None
    }
}

/// ALGORITHM.md's null move: whenever the side to move has more than [`NULL_MIN_MATERIAL`]
/// of piece material.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReferenceNull;

impl NullMove for ReferenceNull {
    #[inline(always)]
    fn allows(&mut self, pos: &Position, _beta: i32) -> bool {
        pos.npm(pos.side()) > NULL_MIN_MATERIAL
    }
}

/// No null move at all (the same search as [`ReferenceNull`] with [`Features::null_move`]
/// off, with the null-move code compiled out).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoNull;

impl NullMove for NoNull {
    const PASSES: bool = false;
    #[inline(always)]
    fn allows(&mut self, _pos: &Position, _beta: i32) -> bool {
        false
    }
}

/// How the search reached a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// A node of the full-width search.
    Search,
    /// A node of the quiescence search.
    Quiescence,
    /// The node after a null move.
    Null,
}

/// What watches a search node by node, for lessons: it sees every node entered and left,
/// every static evaluation and cutoff, and the moves that lead from node to node. A lesson's
/// observer may also shape what a drawing shows ([`Observer::SHAPES`]: the moves searched
/// first at chosen nodes, a cap on the moves per node, a cap on the nodes) and measure the
/// null move ([`Observer::measures_null`]). Every hook defaults to nothing, so an observer
/// that does nothing ([`NoObserver`]) costs nothing.
pub trait Observer {
    /// Whether [`Observer::forced`] and [`Observer::width`] apply (compile time).
    const SHAPES: bool = false;
    /// A new iteration begins.
    #[inline(always)]
    fn start_iteration(&mut self) {}
    /// An iteration completed; `nodes` counts every node so far.
    #[inline(always)]
    fn end_iteration(&mut self, _nodes: u64) {}
    /// The search is about to enter the node reached by `m` (`Move::NULL` for a null move).
    #[inline(always)]
    fn moved(&mut self, _m: Move) {}
    /// The search is back from the node reached by the last [`Observer::moved`].
    #[inline(always)]
    fn unmoved(&mut self) {}
    /// A node is entered (before it is counted).
    #[inline(always)]
    fn enter(&mut self, _kind: NodeKind, _pos: &Position) {}
    /// The node entered last returns `score` (side to move's view) for the window
    /// `alpha`..`beta` it was searched with.
    #[inline(always)]
    fn leave(&mut self, _score: i32, _alpha: i32, _beta: i32) {}
    /// The current node was evaluated statically (a leaf or a stand-pat).
    #[inline(always)]
    fn evaluated(&mut self) {}
    /// The current node was cut off; `skipped` lists the moves the cutoff left unsearched.
    #[inline(always)]
    fn cutoff(&mut self, _skipped: impl FnOnce() -> Vec<Move>) {}
    /// With [`Observer::SHAPES`]: moves to search first at the current node, in this order
    /// (those that are legal there).
    #[inline(always)]
    fn forced(&self) -> Option<&[Move]> {
        None
    }
    /// With [`Observer::SHAPES`]: search at most this many moves of every node.
    #[inline(always)]
    fn width(&self) -> Option<usize> {
        None
    }
    /// Stop once more than this many nodes were entered, the first iteration included.
    #[inline(always)]
    fn node_cap(&self) -> Option<u64> {
        None
    }
    /// Whether to measure the null move now: where it refutes, also run the search it saved
    /// (between [`Observer::saved_search_begins`] and [`Observer::saved_search_ends`], its
    /// nodes taken back afterwards); where it fails, report both searches' nodes.
    #[inline(always)]
    fn measures_null(&self) -> bool {
        false
    }
    /// The search a null move saved begins: stop recording, remember the counters.
    #[inline(always)]
    fn saved_search_begins(&mut self) {}
    /// The search a null move saved ended, at `depth` plies from the horizon: the null move
    /// took `null_nodes`, the saved search `saved_nodes`; counters back, recording on.
    #[inline(always)]
    fn saved_search_ends(&mut self, _depth: i32, _null_nodes: u64, _saved_nodes: u64) {}
    /// A null move failed: it took `null_nodes`, the search that followed `search_nodes`.
    #[inline(always)]
    fn null_failed(&mut self, _null_nodes: u64, _search_nodes: u64) {}
}

/// Nobody watching: playing, benches, the differential tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoObserver;

impl Observer for NoObserver {}

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

/// A finished search: its result, and the null-move policy and observer with what they
/// gathered.
pub struct Finished<N, O> {
    /// Best move, score, PV, depth, nodes, time.
    pub result: SearchResult,
    /// The null-move policy (its counters).
    pub null: N,
    /// The observer (what it recorded).
    pub observer: O,
}

/// The state of one reference search, with its null-move policy `N`, its feature switches `S`
/// and its observer `O` (see the module documentation).
pub struct ReferenceSearch<'c, 'i, N = ReferenceNull, S = AllOn, O = NoObserver> {
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
    first_depth: u32,
    node_limit_ends_deepening: bool,
    /// The root moves to search (UCI `searchmoves`); empty: every legal move.
    root_moves: Vec<Move>,
    null: N,
    switches: S,
    observer: O,
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
            first_depth: 1,
            node_limit_ends_deepening: false,
            root_moves: Vec::new(),
            null: ReferenceNull,
            switches: AllOn,
            observer: NoObserver,
        }
    }
}

impl<'c> ReferenceSearch<'c, 'c> {
    /// The search an engine runs for `request`: the game's current position and history, the
    /// request's limits (a depth of 0 refused) and control.
    pub fn for_request(request: SearchRequest<'c>) -> Result<Self, EngineError> {
        request.limits.check_depth()?;
        let pos = request.game.position();
        let limits = ReferenceLimits::from_limits(request.limits, pos.side());
        Ok(
            ReferenceSearch::new(pos, &request.game.reference_history(), limits)
                .with_control(request.control)
                .with_root_moves(&request.limits.searchmoves),
        )
    }
}

impl<'c, 'i, N: NullMove, S: Switches, O: Observer> ReferenceSearch<'c, 'i, N, S, O> {
    /// The same search with the null-move policy, switches and observer `change` makes of
    /// the present ones.
    fn configure<N2, S2, O2>(
        self,
        change: impl FnOnce(N, S, O) -> (N2, S2, O2),
    ) -> ReferenceSearch<'c, 'i, N2, S2, O2> {
        let (null, switches, observer) = change(self.null, self.switches, self.observer);
        ReferenceSearch {
            pos: self.pos,
            history: self.history,
            nodes: self.nodes,
            limits: self.limits,
            iteration_one_done: self.iteration_one_done,
            aborted: self.aborted,
            killers: self.killers,
            pv: self.pv,
            prev_pv: self.prev_pv,
            follow: self.follow,
            lists: self.lists,
            seldepth: self.seldepth,
            control: self.control,
            start: self.start,
            first_depth: self.first_depth,
            node_limit_ends_deepening: self.node_limit_ends_deepening,
            root_moves: self.root_moves,
            null,
            switches,
            observer,
        }
    }

    /// Switches features off (see [`Features`]; the default is [`Features::ALL`], fixed at
    /// compile time).
    pub fn with_features(self, features: Features) -> ReferenceSearch<'c, 'i, N, Features, O> {
        self.configure(|null, _, observer| (null, features, observer))
    }

    /// Another null-move policy (the default is [`ReferenceNull`]).
    pub fn with_null<N2: NullMove>(self, null: N2) -> ReferenceSearch<'c, 'i, N2, S, O> {
        self.configure(|_, switches, observer| (null, switches, observer))
    }

    /// An observer (the default, [`NoObserver`], watches nothing).
    pub fn with_observer<O2: Observer>(self, observer: O2) -> ReferenceSearch<'c, 'i, N, S, O2> {
        self.configure(|null, switches, _| (null, switches, observer))
    }

    /// Attaches a control (stop flag, info callback, start time).
    pub fn with_control(mut self, control: &'c SearchControl<'i>) -> Self {
        self.start = control.start;
        self.control = Some(control);
        self
    }

    /// Searches only `moves` at the root (UCI `searchmoves`: legal moves of the root; empty,
    /// every move). The other moves are left out of the root's list before it is ordered, so
    /// the search is the one of a root that has only these moves.
    pub fn with_root_moves(mut self, moves: &[Move]) -> Self {
        self.root_moves = moves.to_vec();
        self
    }

    /// Starts the iterations at `depth` instead of 1 (a lesson's "one search at the full
    /// depth": with the first iteration at the last depth there is no PV to follow).
    pub fn from_depth(mut self, depth: u32) -> Self {
        self.first_depth = depth.max(1);
        self
    }

    /// The node limit as the historical profiles keep it: no iteration starts once the limit
    /// is reached. (The reference starts it and stops at its first node, ALGORITHM.md §9,
    /// so its node count ends one past the limit.)
    pub fn node_limit_ends_deepening(mut self) -> Self {
        self.node_limit_ends_deepening = true;
        self
    }

    /// The ordering key of `m` with the switched-off features taken out.
    #[inline]
    fn key(&self, m: Move, pv_move: Option<Move>, killers: &[Move; 2]) -> u8 {
        let f = self.switches.get();
        if f.ordering && f.pv_move && f.killers && f.mvv_lva {
            return ordering_key(&self.pos, m, pv_move, killers);
        }
        if !f.ordering {
            return KEY_OTHER;
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

    /// Runs iterative deepening and returns the result of the last completed iteration.
    pub fn run(self) -> SearchResult {
        self.finish().result
    }

    /// Like [`ReferenceSearch::run`], and hands back the null-move policy and the observer.
    pub fn finish(mut self) -> Finished<N, O> {
        let result = self.iterate();
        Finished {
            result,
            null: self.null,
            observer: self.observer,
        }
    }

    fn iterate(&mut self) -> SearchResult {
        let max_depth = self.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let root_moves = self.pos.legal_moves();
        if root_moves.is_empty() {
            return SearchResult::no_move(self.pos.in_check(), self.start.elapsed());
        }
        let mut result = SearchResult::default();
        let first = self.first_depth.min(max_depth);
        let mut depth = first;
        while depth <= max_depth {
            if depth > first {
                if let Some(soft) = self.limits.soft_time {
                    if self.start.elapsed() >= soft {
                        break;
                    }
                }
                if self.control.is_some_and(|c| c.stopped()) {
                    break;
                }
                if self.node_limit_ends_deepening
                    && self.limits.nodes.is_some_and(|n| self.nodes >= n)
                {
                    break;
                }
            }
            if !self.switches.get().iterative_deepening {
                self.prev_pv.clear();
                self.killers = [[Move::NULL; 2]; MAX_PLY + 1];
            }
            self.follow = true;
            self.observer.start_iteration();
            let score = self.search(depth as i32, 0, -INF, INF, true);
            if self.aborted {
                break;
            }
            if N::PASSES {
                if let Some(factor) = self.null.restart() {
                    self.killers = [[Move::NULL; 2]; MAX_PLY + 1];
                    self.prev_pv.clear();
                    self.limits.soft_time = self.limits.soft_time.map(|t| t * factor);
                    self.limits.hard_time = self.limits.hard_time.map(|t| t * factor);
                    depth = first;
                    continue;
                }
            }
            self.iteration_one_done = true;
            let pv = self.pv.line(0).to_vec();
            self.prev_pv = pv.clone();
            result = SearchResult::of_iteration(depth, score, pv, self.nodes, self.start.elapsed());
            self.observer.end_iteration(self.nodes);
            if let Some(c) = self.control {
                c.report(&result.info(self.seldepth as u32, None));
            }
            depth += 1;
        }
        result.nodes = self.nodes;
        result.time = self.start.elapsed();
        result
    }

    /// Step 1 of `search` and `quiesce`: count the node and check the limits.
    #[inline]
    fn count_node(&mut self) -> bool {
        self.nodes += 1;
        if let Some(cap) = self.observer.node_cap() {
            if self.nodes > cap {
                self.aborted = true;
                return true;
            }
        }
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

    /// The static evaluation of the current node (side to move's view).
    #[inline(always)]
    fn evaluate(&mut self) -> i32 {
        self.observer.evaluated();
        evaluate(&self.pos) as i32
    }

    /// A full-width node, as the observer sees it.
    #[inline(always)]
    fn search(&mut self, depth: i32, ply: usize, alpha: i32, beta: i32, null_ok: bool) -> i32 {
        // Only a null move's child is searched with `null_ok` false.
        let kind = if null_ok {
            NodeKind::Search
        } else {
            NodeKind::Null
        };
        self.observer.enter(kind, &self.pos);
        let score = self.node(depth, ply, alpha, beta, null_ok);
        self.observer.leave(score, alpha, beta);
        score
    }

    fn node(&mut self, depth: i32, ply: usize, alpha: i32, beta: i32, null_ok: bool) -> i32 {
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
            return self.evaluate();
        }
        let features = self.switches.get();
        if depth <= 0 {
            if !features.quiescence {
                return self.evaluate();
            }
            return self.quiesce_body(ply, alpha, beta);
        }
        let in_check = self.pos.in_check();
        let pv_move = followed_move(&mut self.follow, &self.prev_pv, ply);
        if N::PASSES
            && null_ok
            && features.null_move
            && ply > 0
            && !in_check
            && !self.follow
            && self.null.allows(&self.pos, beta)
        {
            let before = self.nodes;
            let undo = self.pos.make_null();
            self.history.push(self.pos.key());
            self.observer.moved(Move::NULL);
            let score = -self.search(depth - 1 - NULL_REDUCTION, ply + 1, -beta, -beta + 1, false);
            self.observer.unmoved();
            self.history.pop();
            self.pos.unmake_null(&undo);
            if self.aborted {
                return 0;
            }
            let null_nodes = self.nodes - before;
            if score >= beta {
                self.null.refuted();
                if self.observer.measures_null() {
                    self.measure_saved(depth, ply, alpha, beta, null_nodes);
                }
                self.observer.cutoff(Vec::new);
                return beta;
            }
            if self.observer.measures_null() {
                let before = self.nodes;
                let score = self.moves(depth, ply, alpha, beta, in_check, pv_move);
                self.observer.null_failed(null_nodes, self.nodes - before);
                return score;
            }
        }
        let score = self.moves(depth, ply, alpha, beta, in_check, pv_move);
        if N::PASSES && ply == 0 && features.null_move && self.null.tests_root() && !self.aborted {
            self.test_root(depth, score);
        }
        score
    }

    /// The null move searched last at the root with a zero window above `alpha`, the best
    /// real move's score: if passing beats every move, the position is zugzwang.
    fn test_root(&mut self, depth: i32, alpha: i32) {
        let undo = self.pos.make_null();
        self.history.push(self.pos.key());
        self.follow = false;
        self.observer.moved(Move::NULL);
        let score = -self.search(depth - 1, 1, -(alpha + 1), -alpha, false);
        self.observer.unmoved();
        self.history.pop();
        self.pos.unmake_null(&undo);
        self.null.root_tested(!self.aborted && score > alpha);
    }

    /// The search a refuting null move saved at this node: run it with the observer paused,
    /// then take its nodes and killers back.
    #[cold]
    fn measure_saved(&mut self, depth: i32, ply: usize, alpha: i32, beta: i32, null_nodes: u64) {
        let nodes = self.nodes;
        let killers = self.killers;
        self.observer.saved_search_begins();
        let in_check = self.pos.in_check();
        self.moves(depth, ply, alpha, beta, in_check, None);
        self.observer
            .saved_search_ends(depth, null_nodes, self.nodes - nodes);
        self.nodes = nodes;
        self.killers = killers;
    }

    /// The moves of a full-width node, best key first.
    #[inline(always)]
    fn moves(
        &mut self,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        in_check: bool,
        pv_move: Option<Move>,
    ) -> i32 {
        let mut list = std::mem::take(&mut self.lists[ply]);
        self.pos.generate(&mut list, GenMode::All);
        if ply == 0 && !self.root_moves.is_empty() {
            let root_moves = &self.root_moves;
            list.retain(|m| root_moves.contains(&m));
        }
        if list.is_empty() {
            self.lists[ply] = list;
            return if in_check { -(MATE - ply as i32) } else { 0 };
        }
        let alpha_beta = self.switches.get().alpha_beta;
        let mut keys = [0u8; 256];
        let killers = self.killers[ply];
        for (i, &m) in list.iter().enumerate() {
            keys[i] = self.key(m, pv_move, &killers);
        }
        let keys = &mut keys[..list.len()];
        let mut shape = self.shape(&list, keys);
        let mut result = alpha;
        let mut searched = 0;
        while let Some(i) = next(&mut shape, keys) {
            let m = list.as_slice()[i];
            if searched > 0 {
                self.follow = false;
            }
            searched += 1;
            let quiet = m.promotion() == 0 && !self.pos.is_capture(m);
            let undo = self.pos.make(m);
            self.history.push(self.pos.key());
            self.observer.moved(m);
            let (a, b) = if alpha_beta {
                (-beta, -alpha)
            } else {
                (-INF, INF)
            };
            let score = -self.search(depth - 1, ply + 1, a, b, true);
            self.observer.unmoved();
            self.history.pop();
            self.pos.unmake(m, &undo);
            if self.aborted {
                result = 0;
                break;
            }
            if alpha_beta && score >= beta {
                if quiet
                    && (self.killers[ply][0].from() != m.from()
                        || self.killers[ply][0].to() != m.to())
                {
                    self.killers[ply][1] = self.killers[ply][0];
                    self.killers[ply][0] = m;
                }
                self.observer.cutoff(|| rest(&shape, keys, &list));
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
        self.observer.enter(NodeKind::Quiescence, &self.pos);
        let score = self.quiesce_node(ply, alpha, beta);
        self.observer.leave(score, alpha, beta);
        score
    }

    #[inline(always)]
    fn quiesce_node(&mut self, ply: usize, alpha: i32, beta: i32) -> i32 {
        if self.count_node() {
            return 0;
        }
        self.pv.clear(ply);
        self.seldepth = self.seldepth.max(ply);
        if self.pos.insufficient_material() {
            return 0;
        }
        if ply >= MAX_PLY {
            return self.evaluate();
        }
        self.quiesce_body(ply, alpha, beta)
    }

    fn quiesce_body(&mut self, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        let stand = self.evaluate();
        if stand >= beta {
            self.observer.cutoff(Vec::new);
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
        let keys = &mut keys[..list.len()];
        let mut shape = self.shape(&list, keys);
        // Fail-hard: alpha raised by each better capture, beta on a cutoff, 0 when stopped.
        let result = 'captures: {
            while let Some(i) = next(&mut shape, keys) {
                let m = list.as_slice()[i];
                let undo = self.pos.make(m);
                self.observer.moved(m);
                let score = -self.quiesce(ply + 1, -beta, -alpha);
                self.observer.unmoved();
                self.pos.unmake(m, &undo);
                if self.aborted {
                    break 'captures 0;
                }
                if score >= beta {
                    self.observer.cutoff(|| rest(&shape, keys, &list));
                    break 'captures beta;
                }
                alpha = alpha.max(score);
            }
            alpha
        };
        self.lists[ply] = list;
        result
    }

    /// The observer's shaping of the current node's move order, if it shapes
    /// ([`Observer::SHAPES`]): the forced moves (those in `list`) come first and leave the
    /// keyed order, and the width caps the number of moves.
    #[inline(always)]
    fn shape(&self, list: &MoveList, keys: &mut [u8]) -> Option<Shape> {
        if !O::SHAPES {
            return None;
        }
        let mut front: Vec<usize> = Vec::new();
        if let Some(first) = self.observer.forced() {
            let mut moves: Vec<Move> = first
                .iter()
                .copied()
                .filter(|m| list.as_slice().contains(m))
                .collect();
            moves.dedup();
            for m in moves {
                let i = list
                    .iter()
                    .position(|&x| x == m)
                    .expect("a forced move kept is in the list");
                keys[i] = 0;
                front.push(i);
            }
        }
        Some(Shape {
            front,
            at: 0,
            left: self.observer.width().map_or(usize::MAX, |w| w.max(1)),
        })
    }
}

/// A shaped move order: the forced moves first, then the keyed order, at most `left` more.
#[derive(Clone)]
struct Shape {
    front: Vec<usize>,
    at: usize,
    left: usize,
}

/// The index of the next move to search: the shaped order if there is one, else the keys'.
#[inline(always)]
fn next(shape: &mut Option<Shape>, keys: &mut [u8]) -> Option<usize> {
    let Some(s) = shape else {
        return pick_next(keys);
    };
    if s.left == 0 {
        return None;
    }
    s.left -= 1;
    if let Some(&i) = s.front.get(s.at) {
        s.at += 1;
        return Some(i);
    }
    pick_next(keys)
}

/// The moves a cutoff leaves unsearched, in the order they would have come.
fn rest(shape: &Option<Shape>, keys: &[u8], list: &MoveList) -> Vec<Move> {
    let mut shape = shape.clone();
    let mut keys = keys.to_vec();
    let mut out = Vec::new();
    while let Some(i) = next(&mut shape, &mut keys) {
        out.push(list.as_slice()[i]);
    }
    out
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

/// [`search`] from the current position of `game`, with the game's history (for repetitions).
pub fn search_game(game: &Game, limits: ReferenceLimits) -> SearchResult {
    search(game.position(), &game.reference_history(), limits)
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
