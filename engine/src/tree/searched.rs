//! The tree a historical program's search visits, recorded while it searches: from the real
//! program in the emulator (`kempelen-adaptor` reads it from the program's RAM at the points
//! its adaptor file names) and from its profile (`history::sargon`, `history::microchess`
//! record the same points of their re-creations), so that the two are set side by side node
//! by node ([`compare`]).
//!
//! A node is a position the search reached by a move it made, with its ply and the value the
//! search backed up for it (`None` where it backed up none: a node a cut-off refuted, or a
//! program that only counts below its first ply). Values are kept in the side to move's view
//! (negamax: a node's value is what it is worth to the side to move there, the program's
//! neutral value taken as 0), beside the program's own number (`raw`: Sargon's score byte,
//! Microchess's STRATGY byte). A cut-off ([`Cut`]) records the node whose remaining moves
//! were left unsearched, the move that refuted it, the two values compared and the moves
//! skipped.
//!
//! Nodes are compact (32 bytes), the tree holds at most the `limit` it was made with (the rest
//! is counted, not kept: [`SearchTree::truncated`]), and the children of a node are found
//! through an index built once ([`Children`]), so a tree of a million nodes stays a few tens
//! of megabytes.
//!
//! ```
//! use kempelen_engine::tree::searched::{SearchTree, compare};
//! use kempelen_engine::Position;
//!
//! let start = Position::startpos();
//! let mv = |t: &str| start.parse_uci(t).unwrap();
//! let mut a = SearchTree::new(start.clone(), 100);
//! let e4 = a.push(0, mv("e2e4"), true, 0).unwrap();
//! a.set_value(e4, -3, None);
//! let d4 = a.push(0, mv("d2d4"), true, 0).unwrap();
//! a.set_value(d4, -2, None);
//! let mut b = SearchTree::new(start.clone(), 100);
//! let d4b = b.push(0, mv("d2d4"), true, 0).unwrap();
//! b.set_value(d4b, -2, None);
//! let c = compare(&a, &b);
//! assert_eq!(c.agree, 1 + 0); // the root (no value on either side) agrees; e4 and d4 do not
//! assert_eq!(c.program_nodes, 3);
//! ```

use crate::moves::Move;
use crate::piece::{self, PAWN, QUEEN, WHITE};
use crate::position::Position;
use crate::square::{self, Square};

/// The parent of the root.
pub const NO_PARENT: u32 = u32::MAX;

/// One node of a [`SearchTree`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeNode {
    /// The parent's index ([`NO_PARENT`] for the root).
    pub parent: u32,
    /// The move that led here (`Move::NULL` at the root).
    pub mv: Move,
    /// Plies from the root.
    pub ply: u8,
    /// Whether White is to move here.
    pub white_to_move: bool,
    /// Whether the position was evaluated as a leaf (the end of the look-ahead).
    pub leaf: bool,
    /// The value backed up, side to move's view, the program's neutral value as 0.
    pub value: Option<i16>,
    /// The value as the program holds it (its own number), when it gave one.
    pub raw: Option<u16>,
    /// For a program in the emulator: the cycles of its turn when it entered the node.
    pub cycles: u64,
}

/// A cut-off: the moves a node left unsearched once one of its moves refuted the move that
/// led to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cut {
    /// The node whose remaining moves were skipped.
    pub node: u32,
    /// Its child whose value refuted it, if the tree holds that child.
    pub by: Option<u32>,
    /// That child's value, in the view of the side to move at the child (the side that had a
    /// better choice before `node`).
    pub value: i16,
    /// The bound it reached (alpha of the node's parent, same view): `value <= bound`.
    pub bound: i16,
    /// The moves left unsearched, in the order the program held them.
    pub skipped: Vec<Move>,
}

/// The tree a search visited, in visit order (`nodes[0]` is the root).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchTree {
    /// The root position.
    pub root: Position,
    /// The nodes in the order the search entered them.
    pub nodes: Vec<TreeNode>,
    /// The cut-offs, in the order they happened.
    pub cuts: Vec<Cut>,
    /// The most nodes kept.
    pub limit: usize,
    /// Nodes entered past the limit (not kept).
    pub truncated: u64,
}

/// How values are read: from White's side, or from the side to move's (negamax).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// Positive is good for White.
    White,
    /// Positive is good for the side to move at the node.
    ToMove,
}

impl std::str::FromStr for View {
    type Err = String;
    fn from_str(s: &str) -> Result<View, String> {
        match s {
            "white" => Ok(View::White),
            "to-move" | "mover" | "negamax" => Ok(View::ToMove),
            _ => Err(format!("unknown view '{s}' (expected white or to-move)")),
        }
    }
}

impl SearchTree {
    /// A tree with only its root, holding at most `limit` nodes (at least the root).
    pub fn new(root: Position, limit: usize) -> SearchTree {
        let white = root.side() == WHITE;
        SearchTree {
            root,
            nodes: vec![TreeNode {
                parent: NO_PARENT,
                mv: Move::NULL,
                ply: 0,
                white_to_move: white,
                leaf: false,
                value: None,
                raw: None,
                cycles: 0,
            }],
            cuts: Vec::new(),
            limit: limit.max(1),
            truncated: 0,
        }
    }

    /// Enters the node reached from `parent` by `mv`: its index, or `None` once the tree is
    /// full (the node is counted in [`SearchTree::truncated`]).
    pub fn push(&mut self, parent: u32, mv: Move, leaf: bool, cycles: u64) -> Option<u32> {
        if self.nodes.len() >= self.limit {
            self.truncated += 1;
            return None;
        }
        let p = self.nodes.get(parent as usize)?;
        let (ply, white) = (p.ply.saturating_add(1), !p.white_to_move);
        self.nodes.push(TreeNode {
            parent,
            mv,
            ply,
            white_to_move: white,
            leaf,
            value: None,
            raw: None,
            cycles,
        });
        Some((self.nodes.len() - 1) as u32)
    }

    /// Sets node `i`'s value (side to move's view) and the program's own number for it.
    pub fn set_value(&mut self, i: u32, value: i16, raw: Option<u16>) {
        if let Some(n) = self.nodes.get_mut(i as usize) {
            n.value = Some(value);
            n.raw = raw;
        }
    }

    /// Node `i`'s value in `view`.
    pub fn value_in(&self, i: u32, view: View) -> Option<i16> {
        let n = self.nodes.get(i as usize)?;
        let v = n.value?;
        Some(match view {
            View::ToMove => v,
            View::White if n.white_to_move => v,
            View::White => v.saturating_neg(),
        })
    }

    /// The moves from the root to node `i`.
    pub fn path(&self, i: u32) -> Vec<Move> {
        let mut path = Vec::new();
        let mut at = i;
        while let Some(n) = self.nodes.get(at as usize) {
            if n.parent == NO_PARENT {
                break;
            }
            path.push(n.mv);
            at = n.parent;
        }
        path.reverse();
        path
    }

    /// The position at node `i`.
    pub fn position(&self, i: u32) -> Position {
        let mut p = self.root.clone();
        for m in self.path(i) {
            p.play(m);
        }
        p
    }

    /// The children of every node, in visit order.
    pub fn children(&self) -> Children {
        let n = self.nodes.len();
        let mut count = vec![0u32; n + 1];
        for node in &self.nodes[1..] {
            count[node.parent as usize + 1] += 1;
        }
        for i in 0..n {
            count[i + 1] += count[i];
        }
        let mut fill = count.clone();
        let mut list = vec![0u32; n.saturating_sub(1)];
        for (i, node) in self.nodes.iter().enumerate().skip(1) {
            let at = &mut fill[node.parent as usize];
            list[*at as usize] = i as u32;
            *at += 1;
        }
        Children { start: count, list }
    }

    /// The cut-off recorded at node `i`, if any.
    pub fn cut_at(&self, i: u32) -> Option<&Cut> {
        self.cuts.iter().find(|c| c.node == i)
    }

    /// What a cut-off skipped and why, in words: `not searched: Nf6 d6: c5 already refutes
    /// Na3 (-34 <= alpha -20, White to move)`, values in `view` (for Black at the refuting
    /// child and `View::White` the comparison turns round: `34 >= beta 20`).
    pub fn cut_note(&self, cut: &Cut, view: View) -> String {
        let node = self.position(cut.node);
        let skipped: Vec<String> = cut.skipped.iter().map(|&m| node.san(m)).collect();
        let refuting = cut
            .by
            .and_then(|b| self.nodes.get(b as usize))
            .map(|c| node.san(c.mv));
        let n = &self.nodes[cut.node as usize];
        let refuted = if n.parent == NO_PARENT {
            "the root".to_string()
        } else {
            self.position(n.parent).san(n.mv)
        };
        // The refuting child's side to move is the side to move at the node's parent.
        cut_note_text(
            &skipped,
            refuting.as_deref(),
            &refuted,
            (i32::from(cut.value), i32::from(cut.bound)),
            !n.white_to_move,
            view,
        )
    }
}

/// What a cut-off skipped and why, in words (the one phrasing of every tree Kempelen draws):
/// the moves `skipped`, the move that refuted (`None`: the node is refuted by its own value,
/// a stand-pat), the move `refuted` that led to the node, and the refuting value and the bound
/// it reached, `(value, bound)`, both in the view of the side to move after the refuting move
/// (`white_at_child`: that side is White), with `value <= bound`. In `View::White` for Black
/// the comparison turns round: `34 >= beta 20, White's view`.
pub fn cut_note_text(
    skipped: &[String],
    refuting: Option<&str>,
    refuted: &str,
    (value, bound): (i32, i32),
    white_at_child: bool,
    view: View,
) -> String {
    let relation = match (view, white_at_child) {
        (View::White, false) => format!("{} >= beta {}, White's view", -value, -bound),
        (_, w) => format!(
            "{value} <= alpha {bound}, {} to move",
            if w { "White" } else { "Black" }
        ),
    };
    let what = if skipped.is_empty() {
        "nothing left".to_string()
    } else {
        skipped.join(" ")
    };
    match refuting {
        Some(r) => format!("not searched: {what}: {r} already refutes {refuted} ({relation})"),
        None => format!("not searched: {what}: {refuted} is refuted ({relation})"),
    }
}

/// The move from `from` to `to` in `pos` as a search tree records it: the legal move (a pawn
/// that reaches the last rank becoming a queen, as both historical programs promote), else the
/// pseudo-legal one that a program which does not test every move for check makes (its piece
/// moved, whatever stands on `to` captured), else `None` (no piece of the side to move on
/// `from`, or one of its own on `to`).
pub fn tree_move(pos: &Position, from: Square, to: Square) -> Option<Move> {
    if !square::on_board(i32::from(from)) || !square::on_board(i32::from(to)) || from == to {
        return None;
    }
    let moving = pos.piece_at(from);
    let last = if pos.side() == WHITE { 7 } else { 0 };
    let promotion = if piece::piece_type(moving) == PAWN && square::rank(to) == last {
        QUEEN
    } else {
        0
    };
    if let Some(m) = pos.find_move(from, to, promotion) {
        return Some(m);
    }
    let target = pos.piece_at(to);
    let ours = |p: u8| p != 0 && piece::colour(p) == pos.side();
    (ours(moving) && !ours(target) && piece::piece_type(target) != piece::KING)
        .then(|| Move::new(from, to, promotion))
}

/// The children of every node of a tree (see [`SearchTree::children`]).
pub struct Children {
    start: Vec<u32>,
    list: Vec<u32>,
}

impl Children {
    /// The children of node `i`, in visit order.
    pub fn of(&self, i: u32) -> &[u32] {
        let i = i as usize;
        match (self.start.get(i), self.start.get(i + 1)) {
            (Some(&a), Some(&b)) => &self.list[a as usize..b as usize],
            _ => &[],
        }
    }
}

/// How a node of one tree stands in the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// The other tree has it: the same move at the same rank among the same siblings, and the
    /// same value.
    Same,
    /// The other tree has it at the same rank with another value (the other's).
    Value(Option<i16>),
    /// The other tree tries the move at another rank among the siblings (the other's rank,
    /// from 0).
    Order(u32),
    /// The other tree does not try this move here (or never reaches this node's parent).
    Missing,
}

impl Mark {
    /// The mark as a short symbol: `=` the same, `~v` another value (the other's), `<k>`
    /// another rank among the siblings, `+` the other tree does not try it.
    pub fn symbol(self) -> String {
        match self {
            Mark::Same => "=".into(),
            Mark::Value(Some(v)) => format!("~{v}"),
            Mark::Value(None) => "~none".into(),
            Mark::Order(k) => format!("<{}>", k + 1),
            Mark::Missing => "+".into(),
        }
    }
}

/// Two trees set side by side: a mark for every node of each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// The first tree's nodes (the program's).
    pub program: Vec<Mark>,
    /// The second tree's (the profile's).
    pub profile: Vec<Mark>,
    /// The first tree's nodes the second visits in the same order (every node on the path
    /// from the root at its rank among its siblings) with the same value, the root included.
    pub agree: usize,
    /// The first tree's nodes.
    pub program_nodes: usize,
    /// Its nodes the second tree has at all (in any order).
    pub found: usize,
}

/// Sets `program`'s tree against `profile`'s, node by node from the roots: at each pair of
/// nodes, each child of the program's node is looked for among the children of the profile's
/// (by its move), at the same rank or another; the two values are compared.
pub fn compare(program: &SearchTree, profile: &SearchTree) -> Comparison {
    let (ca, cb) = (program.children(), profile.children());
    let mut c = Comparison {
        program: vec![Mark::Missing; program.nodes.len()],
        profile: vec![Mark::Missing; profile.nodes.len()],
        agree: 0,
        program_nodes: program.nodes.len(),
        found: 0,
    };
    // (program node, profile node, every node on the path at its rank)
    let mut stack: Vec<(u32, u32, bool)> = vec![(0, 0, true)];
    while let Some((a, b, in_order)) = stack.pop() {
        let (va, vb) = (
            program.nodes[a as usize].value,
            profile.nodes[b as usize].value,
        );
        c.found += 1;
        if in_order && va == vb {
            c.agree += 1;
        }
        let (ka, kb) = (ca.of(a), cb.of(b));
        for (ra, &x) in ka.iter().enumerate() {
            let mv = program.nodes[x as usize].mv;
            let Some(rb) = kb.iter().position(|&y| profile.nodes[y as usize].mv == mv) else {
                continue;
            };
            let y = kb[rb];
            let (vx, vy) = (
                program.nodes[x as usize].value,
                profile.nodes[y as usize].value,
            );
            let (mx, my) = if ra != rb {
                (Mark::Order(rb as u32), Mark::Order(ra as u32))
            } else if vx != vy {
                (Mark::Value(vy), Mark::Value(vx))
            } else {
                (Mark::Same, Mark::Same)
            };
            c.program[x as usize] = mx;
            c.profile[y as usize] = my;
            stack.push((x, y, in_order && ra == rb));
        }
    }
    c.program[0] = if program.nodes[0].value == profile.nodes[0].value {
        Mark::Same
    } else {
        Mark::Value(profile.nodes[0].value)
    };
    c.profile[0] = if program.nodes[0].value == profile.nodes[0].value {
        Mark::Same
    } else {
        Mark::Value(program.nodes[0].value)
    };
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A root move, its replies (move, value) and its value.
    type Line<'a> = (&'a str, &'a [(&'a str, i16)], i16);

    fn tree(moves: &[Line]) -> SearchTree {
        let start = Position::startpos();
        let mut t = SearchTree::new(start.clone(), 1000);
        for (m, replies, v) in moves {
            let mv = start.parse_uci(m).unwrap();
            let i = t.push(0, mv, replies.is_empty(), 0).unwrap();
            let mut p = start.clone();
            p.play(mv);
            for (r, rv) in replies.iter() {
                let j = t.push(i, p.parse_uci(r).unwrap(), true, 0).unwrap();
                t.set_value(j, *rv, None);
            }
            t.set_value(i, *v, None);
        }
        t
    }

    #[test]
    fn same_trees_agree_everywhere() {
        let a = tree(&[("e2e4", &[("e7e5", 1), ("c7c5", 2)], -2), ("d2d4", &[], -1)]);
        let c = compare(&a, &a.clone());
        assert_eq!((c.agree, c.found, c.program_nodes), (5, 5, 5));
        assert!(c.program.iter().all(|m| *m == Mark::Same));
    }

    #[test]
    fn order_value_and_missing_moves_are_marked() {
        let a = tree(&[("e2e4", &[("e7e5", 1), ("c7c5", 2)], -2), ("d2d4", &[], -1)]);
        let b = tree(&[("d2d4", &[], -1), ("e2e4", &[("e7e5", 3)], -3)]);
        let c = compare(&a, &b);
        // e4: rank 0 here, rank 1 there; d4 the other way round; e5 found below e4, another
        // value; c5 missing.
        assert_eq!(c.program[1], Mark::Order(1));
        assert_eq!(c.program[2], Mark::Value(Some(3)));
        assert_eq!(c.program[3], Mark::Missing);
        assert_eq!(c.program[4], Mark::Order(0));
        assert_eq!(c.profile[1], Mark::Order(1));
        // Only the root (both without a value) is in order with the same value.
        assert_eq!(c.agree, 1);
        assert_eq!(c.found, 4);
    }

    #[test]
    fn children_and_positions_follow_the_parents() {
        let a = tree(&[("e2e4", &[("e7e5", 1), ("c7c5", 2)], -2), ("d2d4", &[], -1)]);
        let ch = a.children();
        assert_eq!(ch.of(0), &[1, 4]);
        assert_eq!(ch.of(1), &[2, 3]);
        assert!(ch.of(4).is_empty());
        assert_eq!(
            a.position(3).to_fen(),
            "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2"
        );
        assert_eq!(a.value_in(1, View::ToMove), Some(-2));
        assert_eq!(a.value_in(1, View::White), Some(2));
    }

    #[test]
    fn a_full_tree_counts_what_it_leaves_out() {
        let start = Position::startpos();
        let mut t = SearchTree::new(start.clone(), 2);
        assert!(
            t.push(0, start.parse_uci("e2e4").unwrap(), true, 0)
                .is_some()
        );
        assert!(
            t.push(0, start.parse_uci("d2d4").unwrap(), true, 0)
                .is_none()
        );
        assert_eq!((t.nodes.len(), t.truncated), (2, 1));
    }

    #[test]
    fn a_cut_off_says_what_it_skipped_and_why() {
        let start = Position::startpos();
        let mut t = SearchTree::new(start.clone(), 100);
        let na3 = t
            .push(0, start.parse_uci("b1a3").unwrap(), false, 0)
            .unwrap();
        let mut p = start.clone();
        p.play(start.parse_uci("b1a3").unwrap());
        let c5 = t.push(na3, p.parse_uci("c7c5").unwrap(), true, 0).unwrap();
        t.set_value(c5, 34, None);
        t.cuts.push(Cut {
            node: na3,
            by: Some(c5),
            value: -34,
            bound: -20,
            skipped: vec![p.parse_uci("g8f6").unwrap(), p.parse_uci("d7d6").unwrap()],
        });
        let cut = t.cuts[0].clone();
        assert_eq!(
            t.cut_note(&cut, View::ToMove),
            "not searched: Nf6 d6: c5 already refutes Na3 (-34 <= alpha -20, White to move)"
        );
        let mut b = t.clone();
        b.root =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1").unwrap();
        b.nodes[0].white_to_move = false;
        b.nodes[1].white_to_move = true;
        b.nodes[1].mv = b.root.parse_uci("b8a6").unwrap();
        let mut q = b.root.clone();
        q.play(b.nodes[1].mv);
        b.nodes[2].mv = q.parse_uci("c2c4").unwrap();
        b.cuts[0].skipped = vec![q.parse_uci("g1f3").unwrap()];
        let cut = b.cuts[0].clone();
        assert_eq!(
            b.cut_note(&cut, View::White),
            "not searched: Nf3: c4 already refutes Na6 (34 >= beta 20, White's view)"
        );
    }
}
