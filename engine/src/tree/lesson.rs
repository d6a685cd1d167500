//! The reference search with switches, for lessons and measurements.
//!
//! [`Lesson`] runs the one reference search ([`crate::reference`]: `docs/ALGORITHM.md` §7-§9,
//! iterative deepening, fail-hard negamax alpha-beta, null move with R = 2, quiescence over
//! tactical moves, move ordering by one-byte keys with PV move and two killers) with every
//! technique a switch ([`LessonConfig`], passed on as the search's [`Features`]): with all
//! switches off it is plain minimax to a fixed depth with the static evaluation at the leaves
//! (the search of C. Zwerschke's "Tartan" article, 1991); with only alpha-beta on, plain
//! alpha-beta in move-generation order. Its observer, the recorder of this module, can also
//! - cap the width (search only the first K moves of every node) and force the order of the
//!   moves at chosen nodes, so a drawing of a real search stays small ([`LessonConfig::width`],
//!   [`LessonConfig::forced`]);
//! - record the tree of the last iteration ([`TraceNode`]), for `kempelen tree`;
//! - measure the null move ([`NullStats`]): at every node where the null move refutes, the
//!   search also runs the search the null move saved, and at every node where it fails, it
//!   sets the null search's nodes against the node's own search.
//!
//! With every switch on, no width cap and no forced moves it visits exactly the nodes of
//! [`crate::reference`] (same count, same best move, same score; a test checks this).

use crate::moves::Move;
use crate::piece::WHITE;
use crate::position::Position;
pub use crate::reference::NodeKind;
use crate::reference::{Features, MAX_DEPTH, NoNull, Observer, ReferenceLimits, ReferenceSearch};

/// The three searches `kempelen tree` draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Minimax to a fixed depth, static evaluation at the leaves, no pruning.
    Minimax,
    /// Alpha-beta to a fixed depth, static evaluation at the leaves, moves in generation order.
    AlphaBeta,
    /// The reference search (ALGORITHM.md): iterative deepening, ordering, null move,
    /// quiescence.
    Reference,
}

impl std::str::FromStr for Algorithm {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "minimax" => Ok(Algorithm::Minimax),
            "alphabeta" | "alpha-beta" => Ok(Algorithm::AlphaBeta),
            "reference" => Ok(Algorithm::Reference),
            _ => Err(format!(
                "unknown algorithm '{s}' (expected minimax, alphabeta or reference)"
            )),
        }
    }
}

impl std::fmt::Display for Algorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Algorithm::Minimax => "minimax",
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::Reference => "reference",
        })
    }
}

/// Which techniques the search uses, and what it records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonConfig {
    /// Cut off when a move reaches beta (otherwise every move is searched: minimax).
    pub alpha_beta: bool,
    /// Quiescence search over tactical moves at depth 0 (otherwise the static evaluation).
    pub quiescence: bool,
    /// Null move with R = 2 under the reference's conditions.
    pub null_move: bool,
    /// Reference move ordering (PV move, MVV-LVA, queen promotions, killers); otherwise
    /// generation order.
    pub ordering: bool,
    /// Iterative deepening from depth 1 (otherwise one search at the full depth).
    pub iterative: bool,
    /// Search only the first `width` moves of every node (after ordering and forcing).
    pub width: Option<usize>,
    /// At the node reached by the moves of `.0` from the root, search the moves of `.1` first,
    /// in that order (those that are legal there).
    pub forced: Vec<(Vec<Move>, Vec<Move>)>,
    /// Record the tree of the last iteration.
    pub trace: bool,
    /// With `trace`: record the tree of every iteration, one after another, as the search
    /// visits them (an iteration a limit ended included), rather than the last completed one.
    pub trace_every_iteration: bool,
    /// Measure the null move's savings and costs (runs extra searches; the node counts of
    /// the search itself are not changed by it).
    pub null_stats: bool,
    /// Node limit with the reference's semantics (never inside iteration 1).
    pub nodes: Option<u64>,
    /// Hard cap on nodes, iteration 1 included: the search stops and reports
    /// [`LessonResult::capped`] (for drawings, which must stay small).
    pub node_cap: Option<u64>,
}

impl LessonConfig {
    /// The switches of one of the three algorithms.
    pub fn of(algorithm: Algorithm) -> LessonConfig {
        let all = algorithm == Algorithm::Reference;
        LessonConfig {
            alpha_beta: algorithm != Algorithm::Minimax,
            quiescence: all,
            null_move: all,
            ordering: all,
            iterative: all,
            width: None,
            forced: Vec::new(),
            trace: false,
            trace_every_iteration: false,
            null_stats: false,
            nodes: None,
            node_cap: None,
        }
    }
}

/// How a node's value relates to its true value (fail-hard alpha-beta returns bounds).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The minimax value.
    Exact,
    /// At least this much for the side to move (a cutoff).
    Lower,
    /// At most this much for the side to move (no move reached alpha).
    Upper,
}

/// One node of a recorded tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceNode {
    /// Parent's index in the trace (`None` for the root).
    pub parent: Option<usize>,
    /// The move that led here (`Move::NULL` for a null move, `None` at the root).
    pub mv: Option<Move>,
    /// Plies from the root.
    pub ply: usize,
    /// Whether White is to move (a max node when values are shown from White's view).
    pub white_to_move: bool,
    /// Full-width, quiescence or null-move node.
    pub kind: NodeKind,
    /// The value returned, from White's point of view.
    pub value: i32,
    /// The value returned as the search sees it: from the side to move's point of view
    /// (negamax), fail-hard within `alpha`..`beta`.
    pub score: i32,
    /// Alpha on entry, side to move's view.
    pub alpha: i32,
    /// Beta on entry, side to move's view.
    pub beta: i32,
    /// The iteration (its depth) the node belongs to.
    pub iteration: u32,
    /// Whether `value` is exact or a bound (for the side to move).
    pub bound: Bound,
    /// Whether the static evaluation decided the node (a leaf, or a quiescence stand-pat).
    pub evaluated: bool,
    /// Whether the node was cut off: a move (or the null move, or the stand-pat) reached beta.
    pub cutoff: bool,
    /// Moves of this node (within the width cap) left unsearched by the cutoff.
    pub skipped: Vec<Move>,
    /// Children in visit order (indices in the trace).
    pub children: Vec<usize>,
    /// Whether the node lies on the principal variation.
    pub pv: bool,
}

/// What the null move saved and cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NullStats {
    /// Nodes where the null move refuted the move before (cutoff).
    pub refuted: u64,
    /// Nodes of those null-move searches.
    pub refuted_null_nodes: u64,
    /// Nodes the normal search of the same nodes took (the search the null move saved).
    pub refuted_full_nodes: u64,
    /// Nodes where the null move was tried and failed.
    pub failed: u64,
    /// Nodes of those null-move searches (the overhead).
    pub failed_null_nodes: u64,
    /// Nodes of the normal searches that followed them.
    pub failed_search_nodes: u64,
    /// Where the null move refuted, by remaining depth of the node (15 = 15 or more): null-move
    /// nodes and saved nodes.
    pub refuted_at: [(u64, u64); 16],
}

impl NullStats {
    /// Adds another position's figures.
    pub fn add(&mut self, o: &NullStats) {
        self.refuted += o.refuted;
        self.refuted_null_nodes += o.refuted_null_nodes;
        self.refuted_full_nodes += o.refuted_full_nodes;
        self.failed += o.failed;
        self.failed_null_nodes += o.failed_null_nodes;
        self.failed_search_nodes += o.failed_search_nodes;
        for (a, b) in self.refuted_at.iter_mut().zip(&o.refuted_at) {
            a.0 += b.0;
            a.1 += b.1;
        }
    }
    /// [`NullStats::speedup`] at nodes `depth` plies from the horizon (`None` if none refuted).
    pub fn speedup_at(&self, depth: usize) -> Option<f64> {
        let (null, full) = self.refuted_at[depth.min(15)];
        (null > 0).then(|| full as f64 / null as f64)
    }
    /// Nodes of the saved searches per node of the refuting null-move searches.
    pub fn speedup(&self) -> f64 {
        self.refuted_full_nodes as f64 / self.refuted_null_nodes.max(1) as f64
    }
    /// Nodes of failed null-move searches per node of the searches that followed them.
    pub fn overhead(&self) -> f64 {
        self.failed_null_nodes as f64 / self.failed_search_nodes.max(1) as f64
    }
}

/// Result of a lesson search (the default: no search, as for a position without legal moves).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LessonResult {
    /// Score of the root, side to move's view.
    pub score: i32,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes entered, all iterations together.
    pub nodes: u64,
    /// Nodes entered after each completed iteration (cumulative), index 0 = depth 1.
    pub nodes_by_depth: Vec<u64>,
    /// Positions evaluated statically (leaves and stand-pats), all iterations.
    pub evaluations: u64,
    /// Cutoffs, all iterations.
    pub cutoffs: u64,
    /// The tree of the last iteration, if recorded (of every iteration, with
    /// [`LessonConfig::trace_every_iteration`]).
    pub trace: Vec<TraceNode>,
    /// Null-move figures, if measured.
    pub null: NullStats,
    /// Whether [`LessonConfig::node_cap`] stopped the search (the other fields then describe
    /// the last iteration completed before, if any).
    pub capped: bool,
}

/// One search: the reference search ([`crate::reference`]) with the lesson's switches as its
/// [`Features`], [`NoNull`] when the null move is off, and a recorder of the tree as its
/// observer.
pub struct Lesson {
    cfg: LessonConfig,
    pos: Position,
    history: Vec<u32>,
}

impl Lesson {
    /// A search of `pos`; `history` as for [`crate::ReferenceSearch::new`].
    pub fn new(pos: &Position, history: &[u32], cfg: LessonConfig) -> Lesson {
        Lesson {
            cfg,
            pos: pos.clone(),
            history: history.to_vec(),
        }
    }

    /// Searches to `depth` (1..=32): every depth from 1 with iterative deepening, else only
    /// `depth`. A position without legal moves returns depth 0 and no nodes.
    pub fn run(self, depth: u32) -> LessonResult {
        let depth = depth.clamp(1, MAX_DEPTH);
        let cfg = &self.cfg;
        if self.pos.legal_moves().is_empty() {
            return LessonResult::default();
        }
        let features = Features {
            alpha_beta: cfg.alpha_beta,
            null_move: cfg.null_move,
            ordering: cfg.ordering,
            quiescence: cfg.quiescence,
            ..Features::ALL
        };
        let limits = ReferenceLimits {
            depth: Some(depth),
            nodes: cfg.nodes,
            ..ReferenceLimits::default()
        };
        let first = if cfg.iterative { 1 } else { depth };
        let search = ReferenceSearch::new(&self.pos, &self.history, limits)
            .with_features(features)
            .with_observer(Recorder::new(cfg, first))
            .from_depth(first);
        let (result, rec) = if cfg.null_move {
            let done = search.finish();
            (done.result, done.observer)
        } else {
            let done = search.with_null(NoNull).finish();
            (done.result, done.observer)
        };
        let mut trace = if cfg.trace_every_iteration {
            rec.trace
        } else {
            rec.done
        };
        // The principal variation from the root of the last completed iteration.
        let root = trace
            .iter()
            .rposition(|n| n.parent.is_none() && n.iteration == result.depth);
        if let Some(root) = root {
            mark_pv(&mut trace, root, &result.pv);
        }
        LessonResult {
            score: result.score,
            pv: result.pv,
            depth: result.depth,
            nodes: result.nodes,
            nodes_by_depth: rec.nodes_by_depth,
            evaluations: rec.evaluations,
            cutoffs: rec.cutoffs,
            trace,
            null: rec.null,
            capped: cfg.node_cap.is_some_and(|c| result.nodes > c),
        }
    }
}

/// The lesson's [`Observer`]: records the tree of each iteration, counts evaluations and
/// cutoffs, measures the null move, and shapes the drawing (forced moves, width, node cap).
struct Recorder {
    trace_on: bool,
    every_iteration: bool,
    /// The depth of the first iteration, and of the running one.
    first: u32,
    iteration: u32,
    null_stats: bool,
    alpha_beta: bool,
    width: Option<usize>,
    forced: Vec<(Vec<Move>, Vec<Move>)>,
    node_cap: Option<u64>,
    /// Moves from the root to the current node.
    path: Vec<Move>,
    /// The tree of the running iteration, and the indices of the nodes on the path.
    trace: Vec<TraceNode>,
    stack: Vec<usize>,
    /// The tree of the last completed iteration.
    done: Vec<TraceNode>,
    nodes_by_depth: Vec<u64>,
    evaluations: u64,
    cutoffs: u64,
    /// Off inside a search run only to measure the null move.
    measuring: bool,
    /// Evaluations and cutoffs before such a search.
    saved: (u64, u64),
    null: NullStats,
}

impl Recorder {
    fn new(cfg: &LessonConfig, first: u32) -> Recorder {
        Recorder {
            trace_on: cfg.trace,
            every_iteration: cfg.trace_every_iteration,
            first,
            iteration: first,
            null_stats: cfg.null_stats,
            alpha_beta: cfg.alpha_beta,
            width: cfg.width,
            forced: cfg.forced.clone(),
            node_cap: cfg.node_cap,
            path: Vec::new(),
            trace: Vec::new(),
            stack: Vec::new(),
            done: Vec::new(),
            nodes_by_depth: Vec::new(),
            evaluations: 0,
            cutoffs: 0,
            measuring: cfg.null_stats,
            saved: (0, 0),
            null: NullStats::default(),
        }
    }

    /// Whether nodes are recorded now (not inside a search run only to measure the null move).
    fn recording(&self) -> bool {
        self.trace_on && (self.measuring || !self.null_stats)
    }

    fn note(&mut self, f: impl FnOnce(&mut TraceNode)) {
        if self.recording() {
            if let Some(&i) = self.stack.last() {
                f(&mut self.trace[i]);
            }
        }
    }
}

impl Observer for Recorder {
    const SHAPES: bool = true;

    fn start_iteration(&mut self) {
        if !self.every_iteration {
            self.trace.clear();
        }
        self.stack.clear();
        self.iteration = self.first + self.nodes_by_depth.len() as u32;
    }

    fn end_iteration(&mut self, nodes: u64) {
        self.nodes_by_depth.push(nodes);
        if !self.every_iteration {
            self.done = std::mem::take(&mut self.trace);
        }
    }

    fn moved(&mut self, m: Move) {
        self.path.push(m);
    }

    fn unmoved(&mut self) {
        self.path.pop();
    }

    fn enter(&mut self, kind: NodeKind, pos: &Position) {
        if !self.recording() {
            return;
        }
        let parent = self.stack.last().copied();
        let idx = self.trace.len();
        self.trace.push(TraceNode {
            parent,
            mv: self.path.last().copied(),
            ply: self.path.len(),
            white_to_move: pos.side() == WHITE,
            kind,
            value: 0,
            score: 0,
            alpha: 0,
            beta: 0,
            iteration: self.iteration,
            bound: Bound::Exact,
            evaluated: false,
            cutoff: false,
            skipped: Vec::new(),
            children: Vec::new(),
            pv: false,
        });
        if let Some(p) = parent {
            self.trace[p].children.push(idx);
        }
        self.stack.push(idx);
    }

    fn leave(&mut self, score: i32, alpha: i32, beta: i32) {
        if !self.recording() {
            return;
        }
        if let Some(i) = self.stack.pop() {
            let n = &mut self.trace[i];
            n.value = if n.white_to_move { score } else { -score };
            (n.score, n.alpha, n.beta) = (score, alpha, beta);
            let leaf = n.evaluated && n.children.is_empty() && !n.cutoff;
            n.bound = if !self.alpha_beta || leaf {
                Bound::Exact
            } else if score >= beta {
                Bound::Lower
            } else if score <= alpha {
                Bound::Upper
            } else {
                Bound::Exact
            };
        }
    }

    fn evaluated(&mut self) {
        self.evaluations += 1;
        self.note(|n| n.evaluated = true);
    }

    fn cutoff(&mut self, skipped: impl FnOnce() -> Vec<Move>) {
        self.cutoffs += 1;
        if self.recording() {
            let rest = skipped();
            self.note(|n| {
                n.cutoff = true;
                n.skipped = rest;
            });
        }
    }

    fn forced(&self) -> Option<&[Move]> {
        self.forced
            .iter()
            .find(|(p, _)| *p == self.path)
            .map(|(_, first)| first.as_slice())
    }

    fn width(&self) -> Option<usize> {
        self.width
    }

    fn node_cap(&self) -> Option<u64> {
        self.node_cap
    }

    fn measures_null(&self) -> bool {
        self.measuring
    }

    fn saved_search_begins(&mut self) {
        self.saved = (self.evaluations, self.cutoffs);
        self.measuring = false;
    }

    fn saved_search_ends(&mut self, depth: i32, null_nodes: u64, saved_nodes: u64) {
        self.measuring = true;
        self.null.refuted += 1;
        self.null.refuted_null_nodes += null_nodes;
        self.null.refuted_full_nodes += saved_nodes;
        let at = &mut self.null.refuted_at[(depth.max(0) as usize).min(15)];
        at.0 += null_nodes;
        at.1 += saved_nodes;
        (self.evaluations, self.cutoffs) = self.saved;
    }

    fn null_failed(&mut self, null_nodes: u64, search_nodes: u64) {
        self.null.failed += 1;
        self.null.failed_null_nodes += null_nodes;
        self.null.failed_search_nodes += search_nodes;
    }
}

/// Marks the nodes along `pv` from the root at `root`.
fn mark_pv(trace: &mut [TraceNode], root: usize, pv: &[Move]) {
    let mut at = root;
    trace[at].pv = true;
    for &m in pv {
        let Some(&c) = trace[at].children.iter().find(|&&c| trace[c].mv == Some(m)) else {
            break;
        };
        trace[c].pv = true;
        at = c;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::INF;
    use crate::reference::{ReferenceLimits, ReferenceSearch};

    const FENS: [&str; 4] = [
        crate::START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    ];

    #[test]
    fn with_every_switch_on_it_is_the_reference() {
        for fen in FENS {
            let pos = Position::from_fen(fen).unwrap();
            for depth in 1..=4 {
                let r = ReferenceSearch::new(&pos, &[], ReferenceLimits::depth(depth)).run();
                let l = Lesson::new(&pos, &[], LessonConfig::of(Algorithm::Reference)).run(depth);
                assert_eq!(
                    (l.nodes, l.score, &l.pv),
                    (r.nodes, r.score, &r.pv),
                    "{fen} d{depth}"
                );
                // Measuring the null move changes nothing in the search itself.
                let mut cfg = LessonConfig::of(Algorithm::Reference);
                cfg.null_stats = true;
                cfg.trace = true;
                let m = Lesson::new(&pos, &[], cfg).run(depth);
                assert_eq!((m.nodes, m.score, &m.pv), (r.nodes, r.score, &r.pv));
            }
        }
    }

    #[test]
    fn alpha_beta_finds_the_minimax_value_with_fewer_nodes() {
        for fen in FENS {
            let pos = Position::from_fen(fen).unwrap();
            for depth in 1..=3 {
                let mm = Lesson::new(&pos, &[], LessonConfig::of(Algorithm::Minimax)).run(depth);
                let ab = Lesson::new(&pos, &[], LessonConfig::of(Algorithm::AlphaBeta)).run(depth);
                assert_eq!(mm.score, ab.score, "{fen} d{depth}");
                assert!(ab.nodes <= mm.nodes);
                if depth == 1 {
                    assert_eq!(mm.evaluations, pos.legal_moves().len() as u64);
                }
            }
        }
    }

    #[test]
    fn every_iteration_traced_holds_every_node_in_visit_order() {
        for fen in FENS {
            let pos = Position::from_fen(fen).unwrap();
            let mut cfg = LessonConfig::of(Algorithm::Reference);
            cfg.trace = true;
            cfg.trace_every_iteration = true;
            let r = Lesson::new(&pos, &[], cfg).run(3);
            assert_eq!(r.trace.len() as u64, r.nodes, "{fen}");
            let roots: Vec<u32> = r
                .trace
                .iter()
                .filter(|n| n.parent.is_none())
                .map(|n| n.iteration)
                .collect();
            assert_eq!(roots, [1, 2, 3]);
            // The root of every iteration is searched with the full window; a child's window
            // is its parent's, negated and swapped, narrowed by the alpha the parent had when
            // it entered the child.
            for (i, n) in r.trace.iter().enumerate() {
                assert!(n.alpha < n.beta, "{fen}: node {i}");
                assert!(n.score >= n.alpha && n.score <= n.beta, "{fen}: node {i}");
                match n.parent {
                    None => assert_eq!((n.alpha, n.beta), (-INF, INF)),
                    Some(p) if n.kind != NodeKind::Null => {
                        let p = &r.trace[p];
                        assert_eq!(n.alpha, -p.beta, "{fen}: node {i}");
                        assert!(-n.beta >= p.alpha, "{fen}: node {i}");
                    }
                    Some(_) => assert_eq!(n.beta, n.alpha + 1),
                }
            }
            let pv = r.trace.iter().filter(|n| n.pv).count();
            assert_eq!(pv, r.pv.len() + 1, "{fen}");
        }
    }

    #[test]
    fn the_trace_holds_every_node_of_the_last_iteration() {
        let pos = Position::startpos();
        for alg in [
            Algorithm::Minimax,
            Algorithm::AlphaBeta,
            Algorithm::Reference,
        ] {
            let mut cfg = LessonConfig::of(alg);
            cfg.trace = true;
            cfg.width = Some(3);
            let r = Lesson::new(&pos, &[], cfg).run(3);
            let last = r.nodes - r.nodes_by_depth.iter().rev().nth(1).copied().unwrap_or(0);
            assert_eq!(r.trace.len() as u64, last, "{alg}");
            let moves = |n: &TraceNode| {
                n.children
                    .iter()
                    .filter(|&&c| r.trace[c].kind != NodeKind::Null)
                    .count()
            };
            assert!(r.trace.iter().all(|n| moves(n) <= 3));
            assert!(r.trace.iter().filter(|n| n.pv).count() >= 2);
            if alg == Algorithm::Minimax {
                assert_eq!(r.trace.len(), 1 + 3 + 9 + 27);
            }
        }
    }
}
