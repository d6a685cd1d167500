//! The tree view's data: the reference search's tree (every iteration, or the last one as
//! `kempelen tree` draws it, or a lesson's tree) and the 8-bit build's tree read from the
//! machine node by node, each node with its move, window, value and position.

use kempelen_claims::tree::{self as claims_tree, Drawn};
use kempelen_emulator::Machine;
use kempelen_engine::tree::lesson::{Bound, NodeKind};
use kempelen_engine::tree::{Algorithm, TraceNode};
use kempelen_engine::{Move, Position};
use kempelen_roms::inspect::{LiveNode, NodeWalker, Walk};
use kempelen_roms::{Port, PortEngine};
use serde::{Deserialize, Serialize};

use crate::WebError;

/// Most nodes a live tree holds (all iterations).
pub const MAX_LIVE_NODES: u64 = 20_000;

/// One node as the page shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ViewNode {
    /// Parent's index (`None`: an iteration's root).
    pub parent: Option<usize>,
    /// The move into it in coordinates (`null` for a null move).
    pub mv: Option<String>,
    /// The move in SAN.
    pub san: Option<String>,
    /// Plies from the root.
    pub ply: usize,
    /// `search`, `quiescence`, `null`.
    pub kind: &'static str,
    /// White to move (a max node in White's view).
    pub white: bool,
    /// Alpha and beta on entry, side to move's view.
    pub alpha: i32,
    /// Beta on entry.
    pub beta: i32,
    /// The value backed up, side to move's view (`None` while it searches).
    pub score: Option<i32>,
    /// `exact`, `lower`, `upper` (native trees only).
    pub bound: Option<&'static str>,
    /// A move (or the stand-pat, or the null move) reached beta.
    pub cutoff: bool,
    /// On the principal variation of the last iteration.
    pub pv: bool,
    /// The iteration (its depth).
    pub iteration: u32,
    /// Its position.
    pub fen: String,
    /// 8-bit trees: cycles of the search when the node was entered.
    pub cycles: Option<u64>,
}

/// Where a node stands in a search, as the native and the 8-bit trees both give it.
struct Place {
    parent: Option<usize>,
    ply: usize,
    kind: NodeKind,
    white: bool,
    alpha: i32,
    beta: i32,
    iteration: u32,
}

/// The [`Place`] of a node of either tree (`TraceNode` and `LiveNode` name these fields
/// alike).
macro_rules! place_of {
    ($n:expr) => {
        Place {
            parent: $n.parent,
            ply: $n.ply,
            kind: $n.kind,
            white: $n.white_to_move,
            alpha: $n.alpha,
            beta: $n.beta,
            iteration: $n.iteration,
        }
    };
}

impl ViewNode {
    /// A node at `place`, reached by the move `names` (coordinates, SAN), in position `fen`:
    /// what both trees show. Each tree adds what only it knows (the native tree the value,
    /// bound, cutoff and PV; the 8-bit tree the value so far and the cycles).
    fn at(place: Place, (mv, san): (Option<String>, Option<String>), fen: String) -> ViewNode {
        ViewNode {
            parent: place.parent,
            mv,
            san,
            ply: place.ply,
            kind: kind_name(place.kind),
            white: place.white,
            alpha: place.alpha,
            beta: place.beta,
            score: None,
            bound: None,
            cutoff: false,
            pv: false,
            iteration: place.iteration,
            fen,
            cycles: None,
        }
    }
}

fn kind_name(k: NodeKind) -> &'static str {
    match k {
        NodeKind::Search => "search",
        NodeKind::Quiescence => "quiescence",
        NodeKind::Null => "null",
    }
}

fn move_names(parent: Option<&Position>, mv: Option<Move>) -> (Option<String>, Option<String>) {
    match (parent, mv) {
        (_, None) => (None, None),
        (_, Some(m)) if m == Move::NULL => (Some("null".into()), Some("(null move)".into())),
        (Some(p), Some(m)) => (Some(m.to_uci()), Some(p.san(m))),
        (None, Some(m)) => (Some(m.to_uci()), None),
    }
}

/// A tree the page shows.
#[derive(Debug, Clone, Serialize)]
pub struct TreeView {
    /// What it is.
    pub title: String,
    /// The root.
    pub fen: String,
    /// `minimax`, `alphabeta`, `reference`.
    pub algorithm: String,
    /// Depth.
    pub depth: u32,
    /// Its nodes in visit order.
    pub nodes: Vec<ViewNode>,
    /// Nodes of each iteration shown: (depth, nodes).
    pub iterations: Vec<(u32, usize)>,
    /// The search's principal variation and score (side to move at the root).
    pub pv: Vec<String>,
    /// Score.
    pub score: i32,
    /// Nodes the whole search counted (all iterations).
    pub search_nodes: u64,
}

/// What the page asks to draw.
#[derive(Debug, Clone, Deserialize)]
pub struct TreeSpec {
    /// The root (default: the start position).
    #[serde(default)]
    pub fen: Option<String>,
    /// `minimax`, `alphabeta`, `reference`; `live` (the default): the reference search, every
    /// iteration, every move.
    #[serde(default)]
    pub algorithm: Option<String>,
    /// Depth (1-6 live, 1-12 otherwise).
    pub depth: u32,
    /// Moves per node (`kempelen tree --width`; 0: all).
    #[serde(default)]
    pub width: Option<usize>,
    /// Without a FEN: the Tartan article's move orders (as `kempelen tree` without --fen).
    #[serde(default)]
    pub tartan: bool,
}

fn root(fen: &Option<String>) -> Result<Position, WebError> {
    match fen {
        Some(f) if !f.trim().is_empty() => {
            Position::from_fen(f.trim()).map_err(|e| WebError::Fen(e.to_string()))
        }
        _ => Ok(Position::startpos()),
    }
}

/// Why a position has no tree: no legal move (checkmate or stalemate), said as such.
fn no_move(position: &Position) -> Result<(), WebError> {
    if !position.legal_moves().is_empty() {
        return Ok(());
    }
    let side = if position.side() == 0 {
        "White"
    } else {
        "Black"
    };
    let how = if position.in_check() {
        "is checkmated"
    } else {
        "is stalemated"
    };
    Err(WebError::Limit(format!(
        "no tree to draw: {side} {how} in this position (no legal move), so the search has \
         nothing to try"
    )))
}

/// The tree `spec` asks for, searched now.
pub fn tree(spec: &TreeSpec) -> Result<TreeView, WebError> {
    let position = root(&spec.fen)?;
    no_move(&position)?;
    let live = spec.algorithm.as_deref().is_none_or(|a| a == "live");
    let max = if live { 6 } else { 12 };
    if !(1..=max).contains(&spec.depth) {
        return Err(WebError::Depth(format!(
            "{}: expected 1 to {max}",
            spec.depth
        )));
    }
    let drawn = if live {
        claims_tree::search_live(position, spec.depth, MAX_LIVE_NODES)
    } else {
        let algorithm: Algorithm = spec
            .algorithm
            .as_deref()
            .unwrap_or("alphabeta")
            .parse()
            .map_err(WebError::Request)?;
        let orders = if spec.tartan && spec.fen.is_none() {
            claims_tree::tartan_orders()
        } else {
            Vec::new()
        };
        let width = spec.width.filter(|&w| w > 0);
        claims_tree::search(position, algorithm, spec.depth, width, orders)
    }
    .map_err(|e| WebError::Limit(format!("{e}: lower the depth")))?;
    Ok(view_of(&drawn, live, spec.tartan && spec.fen.is_none()))
}

fn view_of(d: &Drawn, live: bool, tartan: bool) -> TreeView {
    let t = &d.result.trace;
    let mut positions: Vec<Position> = Vec::with_capacity(t.len());
    let nodes = t
        .iter()
        .map(|n| {
            let parent = n.parent.map(|p| &positions[p]);
            let pos = match (parent, n.mv) {
                (None, _) | (_, None) => d.position.clone(),
                (Some(p), Some(m)) => step(p, m),
            };
            let node = native_node(n, move_names(parent, n.mv), pos.to_fen());
            positions.push(pos);
            node
        })
        .collect();
    let mut iterations: Vec<(u32, usize)> = Vec::new();
    for n in t {
        match iterations.last_mut() {
            Some((i, c)) if *i == n.iteration => *c += 1,
            _ => iterations.push((n.iteration, 1)),
        }
    }
    let what = if live {
        "The reference search, every iteration".to_string()
    } else {
        claims_tree::title(d, tartan)
    };
    TreeView {
        title: what,
        fen: d.position.to_fen(),
        algorithm: if live {
            "live".into()
        } else {
            d.algorithm.to_string()
        },
        depth: d.depth,
        nodes,
        iterations,
        pv: d.result.pv.iter().map(|m| m.to_uci()).collect(),
        score: d.result.score,
        search_nodes: d.result.nodes,
    }
}

fn step(p: &Position, m: Move) -> Position {
    let mut q = p.clone();
    if m == Move::NULL {
        let _ = q.make_null();
    } else {
        q.play(m);
    }
    q
}

fn native_node(n: &TraceNode, names: (Option<String>, Option<String>), fen: String) -> ViewNode {
    ViewNode {
        score: Some(n.score),
        bound: Some(match n.bound {
            Bound::Exact => "exact",
            Bound::Lower => "lower",
            Bound::Upper => "upper",
        }),
        cutoff: n.cutoff,
        pv: n.pv,
        ..ViewNode::at(place_of!(n), names, fen)
    }
}

/// What the page asks of an 8-bit tree.
#[derive(Debug, Clone, Deserialize)]
pub struct WalkSpec {
    /// The root (default: the start position).
    #[serde(default)]
    pub fen: Option<String>,
    /// `z80` or `6502`.
    pub cpu: String,
    /// Depth (1-4).
    pub depth: u32,
}

/// An 8-bit build's search followed node by node, a budget of cycles at a time; beside it the
/// native reference's tree of the same search, so that each node the 8-bit code visits is
/// set against the native node at the same place.
pub struct WalkJob {
    walker: NodeWalker,
    machine: Machine,
    native: TreeView,
    /// Nodes sent to the page; of those, the ones sent without their value yet.
    sent: usize,
    open: Vec<usize>,
}

/// What an advance of a [`WalkJob`] brings.
#[derive(Debug, Clone, Serialize)]
pub struct WalkUpdate {
    /// The nodes entered since the last update, from index `from`.
    pub from: usize,
    /// The nodes.
    pub nodes: Vec<ViewNode>,
    /// Values backed up since the last update by nodes sent before: (index, score).
    pub scores: Vec<(usize, i32)>,
    /// For each new node: whether it is the native tree's node at the same index (move, ply,
    /// kind, window; the value is compared when it arrives, in `differs`).
    pub same: Vec<bool>,
    /// Indices of nodes whose value differs from the native node's.
    pub differs: Vec<usize>,
    /// The routine the PC is in now.
    pub routine: Option<String>,
    /// Cycles of the search so far.
    pub cycles: u64,
    /// The search is over.
    pub done: bool,
    /// The open nodes (the search path), root first.
    pub path: Vec<usize>,
}

impl WalkJob {
    /// Sets up the search of `spec` and the native tree beside it.
    pub fn start(spec: &WalkSpec) -> Result<WalkJob, WebError> {
        let position = root(&spec.fen)?;
        if !(1..=4).contains(&spec.depth) {
            return Err(WebError::Depth(format!("{}: expected 1 to 4", spec.depth)));
        }
        let port = Port::by_id(&spec.cpu)
            .ok_or_else(|| WebError::Engine(format!("{}: expected z80 or 6502", spec.cpu)))?;
        let engine = PortEngine::shared(port).map_err(|e| WebError::Engine(e.to_string()))?;
        let native = tree(&TreeSpec {
            fen: spec.fen.clone(),
            algorithm: None,
            depth: spec.depth,
            width: None,
            tartan: false,
        })?;
        let (walker, machine) = NodeWalker::machine(engine, &position, &[], spec.depth)
            .map_err(|e| WebError::Search(e.to_string()))?;
        Ok(WalkJob {
            walker,
            machine,
            native,
            sent: 0,
            open: Vec::new(),
        })
    }

    /// The native tree beside it.
    pub fn native(&self) -> &TreeView {
        &self.native
    }

    /// Runs the 8-bit search on for at most `cycles` cycles.
    pub fn advance(&mut self, cycles: u64) -> Result<WalkUpdate, WebError> {
        let walk = self
            .walker
            .run(&mut self.machine, cycles)
            .map_err(|e| WebError::Search(e.to_string()))?;
        let nodes = self.walker.nodes();
        let from = self.sent;
        let mut update = WalkUpdate {
            from,
            nodes: Vec::new(),
            scores: Vec::new(),
            same: Vec::new(),
            differs: Vec::new(),
            routine: self.walker.map().view(&self.machine).routine,
            cycles: self.walker.cycles(&self.machine),
            done: walk == Walk::Done,
            path: Vec::new(),
        };
        let mut still_open = Vec::new();
        for &i in &self.open {
            match nodes[i].score {
                Some(s) => {
                    update.scores.push((i, s));
                    self.check_value(i, s, &mut update.differs);
                }
                None => still_open.push(i),
            }
        }
        for (i, n) in nodes.iter().enumerate().skip(from) {
            let v = self.eight_bit_node(i, n);
            update
                .same
                .push(self.native.nodes.get(i).is_some_and(|m| same_place(m, &v)));
            match n.score {
                Some(s) => self.check_value(i, s, &mut update.differs),
                None => still_open.push(i),
            }
            update.nodes.push(v);
        }
        self.open = still_open;
        self.sent = nodes.len();
        update.path = self.walker.path_indices();
        Ok(update)
    }

    fn check_value(&self, i: usize, score: i32, differs: &mut Vec<usize>) {
        if self.native.nodes.get(i).and_then(|n| n.score) != Some(score) {
            differs.push(i);
        }
    }

    fn eight_bit_node(&self, i: usize, n: &LiveNode) -> ViewNode {
        let parent = n.parent.and_then(|p| self.walker.position_at(p));
        let fen = self
            .walker
            .position_at(i)
            .map(|p| p.to_fen())
            .unwrap_or_default();
        ViewNode {
            score: n.score,
            cycles: Some(n.cycles),
            ..ViewNode::at(place_of!(n), move_names(parent.as_ref(), n.mv), fen)
        }
    }
}

/// Whether two nodes stand at the same place of the search: parent, move, ply, kind, window.
fn same_place(a: &ViewNode, b: &ViewNode) -> bool {
    (a.parent, &a.mv, a.ply, a.kind, a.alpha, a.beta, a.iteration)
        == (b.parent, &b.mv, b.ply, b.kind, b.alpha, b.beta, b.iteration)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_8_bit_tree_arrives_node_for_node_as_the_native_one() {
        for cpu in ["z80", "6502"] {
            let spec = WalkSpec {
                fen: None,
                cpu: cpu.into(),
                depth: 2,
            };
            let mut job = WalkJob::start(&spec).unwrap();
            let mut nodes = Vec::new();
            loop {
                let u = job.advance(50_000).unwrap();
                assert_eq!(u.from, nodes.len());
                assert!(u.same.iter().all(|&s| s), "{cpu}");
                assert!(u.differs.is_empty(), "{cpu}: {:?}", u.differs);
                nodes.extend(u.nodes);
                for (i, s) in u.scores {
                    nodes[i].score = Some(s);
                }
                if u.done {
                    break;
                }
            }
            assert_eq!(nodes.len(), job.native().nodes.len(), "{cpu}");
            for (a, b) in nodes.iter().zip(&job.native().nodes) {
                assert_eq!((&a.fen, a.score), (&b.fen, b.score), "{cpu}");
            }
        }
    }

    #[test]
    fn the_last_iteration_has_the_nodes_kempelen_tree_draws() {
        let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 3";
        let live = tree(&TreeSpec {
            fen: Some(fen.into()),
            algorithm: None,
            depth: 2,
            width: None,
            tartan: false,
        })
        .unwrap();
        let drawn = claims_tree::search(
            Position::from_fen(fen).unwrap(),
            Algorithm::Reference,
            2,
            None,
            Vec::new(),
        )
        .unwrap();
        assert_eq!(live.iterations.last().unwrap().1, drawn.result.trace.len());
        let tartan = tree(&TreeSpec {
            fen: None,
            algorithm: Some("minimax".into()),
            depth: 4,
            width: Some(2),
            tartan: true,
        })
        .unwrap();
        assert_eq!(tartan.nodes.len(), 31);
        assert_eq!(tartan.nodes[1].san.as_deref(), Some("e4"));
        // A position without a legal move has no tree, and says why.
        for (fen, says) in [
            ("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "Black is checkmated"),
            ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "Black is stalemated"),
        ] {
            let spec = |algorithm: Option<&str>| TreeSpec {
                fen: Some(fen.into()),
                algorithm: algorithm.map(String::from),
                depth: 2,
                width: None,
                tartan: false,
            };
            for algorithm in [None, Some("minimax"), Some("reference")] {
                let e = tree(&spec(algorithm)).unwrap_err().to_string();
                assert!(e.contains(says), "{e}");
            }
            let walk = WalkJob::start(&WalkSpec {
                fen: Some(fen.into()),
                cpu: "6502".into(),
                depth: 2,
            });
            assert!(walk.is_err_and(|e| e.to_string().contains(says)));
        }
        assert!(
            tree(&TreeSpec {
                fen: Some("8/8/8 w".into()),
                algorithm: None,
                depth: 2,
                width: None,
                tartan: false
            })
            .is_err()
        );
    }
}
