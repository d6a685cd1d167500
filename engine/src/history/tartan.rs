//! Tartan (C. Zwerschke, TOS 1/1991): plain minimax without alpha-beta, two mutually recursive
//! functions (`bester_zug_weiss` maximises, `bester_zug_schwarz` minimises) over absolute
//! values (positive is good for White), material 128/384/384/640/1152, ±16384 for a won game.
//! The article names what its listing lacks: a stalemate test and a depth limit (a global
//! counter raised on every call). Both are options here; see docs/history/tartan.md.

use super::{Budget, HistoryOptions, Iteration, deepen};
use crate::engine::{MATE, SearchResult};
use crate::moves::{Move, MoveList};
use crate::piece::{BISHOP, BLACK, KNIGHT, PAWN, QUEEN, ROOK, WHITE};
use crate::position::Position;
use crate::pv::PvTable;

/// Value of a won game (`WMAX`).
pub const WMAX: i32 = 16384;
/// Material values `WBAUER`, `WSPRINGER`, `WLAEUFER`, `WTURM`, `WDAME` (the king has none).
pub const VALUES: [(u8, i32); 5] = [
    (PAWN, 128),
    (KNIGHT, 384),
    (BISHOP, 384),
    (ROOK, 640),
    (QUEEN, 1152),
];
/// Deepest search Kempelen starts when no depth is given (a node or time budget ends it first).
pub const MAX_DEPTH: u32 = 64;

/// Tartan's evaluation: the material balance, White's values positive, Black's negative.
pub fn evaluate(pos: &Position) -> i32 {
    VALUES
        .iter()
        .map(|&(ty, v)| v * (pos.count(WHITE, ty) as i32 - pos.count(BLACK, ty) as i32))
        .sum()
}

/// One minimax tree: its value (absolute: positive is good for White), best root move, line
/// and the number of positions visited (the root and every position reached by a move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tree {
    /// Minimax value, White's point of view.
    pub value: i32,
    /// The principal variation, starting with the root move.
    pub pv: Vec<Move>,
    /// Positions visited.
    pub nodes: u64,
}

struct Minimax<'a, 'b, 'c> {
    pos: Position,
    max_depth: u32,
    /// The global depth counter of the article.
    counter: u32,
    options: HistoryOptions,
    pv: PvTable,
    budget: &'a mut Budget<'b, 'c>,
}

impl Minimax<'_, '_, '_> {
    /// `bester_zug_weiss` / `bester_zug_schwarz` in one function: the side to move decides
    /// whether it maximises or minimises.
    fn best(&mut self, ply: usize) -> i32 {
        if self.budget.tick() {
            return 0;
        }
        self.pv.clear(ply);
        if self.counter >= self.max_depth || ply >= MAX_DEPTH as usize {
            return evaluate(&self.pos);
        }
        self.counter += 1;
        let white = self.pos.side() == WHITE;
        let mut list = MoveList::new();
        self.pos.generate(&mut list, crate::GenMode::All);
        if ply == 0 {
            let budget = &*self.budget;
            list.retain(|m| budget.allows(m));
        }
        let mut value = if white { -WMAX } else { WMAX };
        if list.is_empty() && self.options.tartan_stalemate_fix && !self.pos.in_check() {
            value = 0;
        }
        for (i, &m) in list.iter().enumerate() {
            let undo = self.pos.make(m);
            let w = self.best(ply + 1);
            self.pos.unmake(m, &undo);
            if self.budget.aborted {
                break;
            }
            // The first move is taken even when it is no better than a mate against the mover,
            // so that a lost position still has a move to play (the article's loop would
            // leave its best move unset there).
            if i == 0 || (white && w > value) || (!white && w < value) {
                value = w;
                self.pv.update(ply, m);
            }
        }
        if self.options.tartan_depth_fix {
            self.counter -= 1;
        }
        value
    }
}

/// Runs one minimax tree of `depth` plies; `None` when the budget ran out.
pub(crate) fn tree(
    pos: &Position,
    depth: u32,
    options: &HistoryOptions,
    budget: &mut Budget,
) -> Option<Tree> {
    let before = budget.nodes;
    let mut mm = Minimax {
        pos: pos.clone(),
        max_depth: depth,
        counter: 0,
        options: *options,
        pv: PvTable::new(MAX_DEPTH as usize),
        budget,
    };
    let value = mm.best(0);
    if mm.budget.aborted {
        return None;
    }
    let pv = mm.pv.line(0).to_vec();
    Some(Tree {
        value,
        pv,
        nodes: mm.budget.nodes - before,
    })
}

/// One minimax tree of `depth` plies without limits (for tests and lessons).
pub fn minimax(pos: &Position, depth: u32, options: &HistoryOptions) -> Tree {
    let control = crate::SearchControl::default();
    let mut budget = Budget::new(&crate::Limits::default(), pos.side(), &control);
    tree(pos, depth, options, &mut budget).expect("no limits")
}

/// Centipawns from the side to move's point of view (a pawn is 128); a won game as a mate
/// score at the length of the line.
fn to_cp(pos: &Position, tree: &Tree) -> i32 {
    let v = if pos.side() == BLACK {
        -tree.value
    } else {
        tree.value
    };
    if v.abs() >= WMAX {
        v.signum() * (MATE - tree.pv.len() as i32)
    } else {
        v * 100 / 128
    }
}

/// The `tartan` profile: minimax at depth 1, 2, ... (only the requested depth's tree is
/// Tartan's own search; the shallower ones give a node or time budget something to play).
pub(crate) fn search(
    pos: &Position,
    depth: Option<u32>,
    options: &HistoryOptions,
    budget: &mut Budget,
) -> SearchResult {
    deepen(depth, MAX_DEPTH, budget, |d, budget| {
        let t = tree(pos, d, options, budget)?;
        Some(Iteration {
            score: to_cp(pos, &t),
            pv: t.pv,
        })
    })
}
