//! The search of Kempelen's small teaching program (`adaptors/minisearch/`, in Z80 and 6502
//! assembly) in Rust, step for step: its move generator's order, its legality test, its
//! material count and its negamax with alpha-beta in bytes with 128 as even. It is the
//! program's "profile": the tree it records ([`search_tree`]) is the one the adaptor reads
//! from the running program, node for node, and the tests hold the two together, as the
//! historical profiles are held against Sargon and Microchess.
//!
//! ```
//! use kempelen_engine::Position;
//! use kempelen_engine::tree::minisearch::search_tree;
//!
//! let (tree, best, value) = search_tree(&Position::startpos(), 1, 1000);
//! assert_eq!(tree.nodes.len(), 21); // the root and White's twenty moves
//! assert_eq!((best.unwrap().to_uci(), value), ("b1c3".to_string(), 128));
//! ```

use crate::moves::Move;
use crate::piece::{BISHOP, BLACK, KING, KNIGHT, PAWN, QUEEN, ROOK};
use crate::position::Position;
use crate::tree::searched::{Cut, NO_PARENT, SearchTree, tree_move};

/// The value of "nothing changed".
pub const EVEN: u8 = 128;
/// The value of a side without a legal move.
pub const MATED: u8 = 28;
/// The deepest look-ahead the program takes.
pub const MAX_DEPTH: u32 = 4;

const KNIGHT_STEPS: [i8; 8] = [33, 31, 18, 14, -14, -18, -31, -33];
const KING_STEPS: [i8; 8] = [17, 16, 15, 1, -1, -15, -16, -17];
const BISHOP_LINES: [i8; 4] = [17, 15, -15, -17];
const ROOK_LINES: [i8; 4] = [16, 1, -1, -16];
const QUEEN_LINES: [i8; 8] = [16, 1, -1, -16, 17, 15, -15, -17];
const WORTH: [u8; 8] = [0, 1, 3, 3, 5, 9, 0, 0];

/// A move list entry as the program keeps it: from, to, the piece, what it takes.
type Entry = (u8, u8, u8, u8);

fn step(sq: u8, d: i8) -> u8 {
    sq.wrapping_add(d as u8)
}

fn off(sq: u8) -> bool {
    sq & 0x88 != 0
}

/// The program's board and search.
struct Mini {
    board: [u8; 128],
    side: u8,
    depth: u8,
    nodes: u64,
    tree: SearchTree,
    /// The node and the position of each ply on the path.
    path: Vec<(u32, Position)>,
    best: Option<Entry>,
}

impl Mini {
    /// LOOK: 0 empty, 1 the side to move's, 2 the opponent's.
    fn look(&self, sq: u8) -> u8 {
        match self.board[usize::from(sq & 0x7F)] {
            0 => 0,
            p if p & BLACK == self.side => 1,
            _ => 2,
        }
    }

    fn add(&self, list: &mut Vec<Entry>, from: u8, to: u8, piece: u8) {
        list.push((from, to, piece, self.board[usize::from(to & 0x7F)]));
    }

    /// GENMOVES: a1 to h8, each piece's moves in its table's order.
    fn generate(&self) -> Vec<Entry> {
        let mut list = Vec::new();
        for from in (0u8..128).filter(|s| !off(*s)) {
            let piece = self.board[usize::from(from)];
            if piece == 0 || piece & BLACK != self.side {
                continue;
            }
            match piece & 7 {
                PAWN => self.pawn(&mut list, from, piece),
                KNIGHT => self.steps(&mut list, from, piece, &KNIGHT_STEPS),
                BISHOP => self.lines(&mut list, from, piece, &BISHOP_LINES),
                ROOK => self.lines(&mut list, from, piece, &ROOK_LINES),
                QUEEN => self.lines(&mut list, from, piece, &QUEEN_LINES),
                _ => self.steps(&mut list, from, piece, &KING_STEPS),
            }
        }
        list
    }

    fn steps(&self, list: &mut Vec<Entry>, from: u8, piece: u8, steps: &[i8]) {
        for &d in steps {
            let to = step(from, d);
            if !off(to) && self.look(to) != 1 {
                self.add(list, from, to, piece);
            }
        }
    }

    fn lines(&self, list: &mut Vec<Entry>, from: u8, piece: u8, lines: &[i8]) {
        for &d in lines {
            let mut to = from;
            loop {
                to = step(to, d);
                if off(to) {
                    break;
                }
                let what = self.look(to);
                if what == 1 {
                    break;
                }
                self.add(list, from, to, piece);
                if what != 0 {
                    break;
                }
            }
        }
    }

    fn pawn(&self, list: &mut Vec<Entry>, from: u8, piece: u8) {
        let ahead: i8 = if self.side == 0 { 16 } else { -16 };
        let to = step(from, ahead);
        if self.look(to) == 0 {
            self.add(list, from, to, piece);
            let home = if self.side == 0 { 0x10 } else { 0x60 };
            let two = step(to, ahead);
            if from & 0x70 == home && self.look(two) == 0 {
                self.add(list, from, two, piece);
            }
        }
        for to in [step(step(from, ahead), -1), step(step(from, ahead), 1)] {
            if !off(to) && self.look(to) == 2 {
                self.add(list, from, to, piece);
            }
        }
    }

    /// MAKE: a pawn on the last rank becomes a queen; the other side moves.
    fn make(&mut self, e: Entry) {
        let (from, to, mut piece, _) = e;
        if piece & 7 == PAWN && (to & 0x70 == 0 || to & 0x70 == 0x70) {
            piece = (piece & BLACK) | QUEEN;
        }
        self.board[usize::from(from)] = 0;
        self.board[usize::from(to)] = piece;
        self.side ^= BLACK;
    }

    fn unmake(&mut self, e: Entry) {
        let (from, to, piece, captured) = e;
        self.board[usize::from(from)] = piece;
        self.board[usize::from(to)] = captured;
        self.side ^= BLACK;
    }

    fn at(&self, sq: u8, want: u8) -> bool {
        !off(sq) && self.board[usize::from(sq)] == want
    }

    /// ATTACKED: whether the side `atk` attacks `sq`.
    fn attacked(&self, sq: u8, atk: u8) -> bool {
        let pawns: [i8; 2] = if atk == 0 { [-15, -17] } else { [15, 17] };
        if pawns.iter().any(|&d| self.at(step(sq, d), atk | PAWN)) {
            return true;
        }
        if KNIGHT_STEPS
            .iter()
            .any(|&d| self.at(step(sq, d), atk | KNIGHT))
            || KING_STEPS.iter().any(|&d| self.at(step(sq, d), atk | KING))
        {
            return true;
        }
        let line = |lines: &[i8], want: u8| {
            lines.iter().any(|&d| {
                let mut s = sq;
                loop {
                    s = step(s, d);
                    if off(s) {
                        return false;
                    }
                    match self.board[usize::from(s)] {
                        0 => continue,
                        p => return p == want || p == atk | QUEEN,
                    }
                }
            })
        };
        line(&ROOK_LINES, atk | ROOK) || line(&BISHOP_LINES, atk | BISHOP)
    }

    /// ILLEGAL: the side that moved left its king attacked.
    fn illegal(&self) -> bool {
        let king = (self.side ^ BLACK) | KING;
        (0u8..128)
            .find(|&s| self.board[usize::from(s)] == king)
            .is_some_and(|s| self.attacked(s, self.side))
    }

    /// EVAL: material for the side to move, EVEN as even (a byte, wrapping).
    fn eval(&self) -> u8 {
        self.board.iter().filter(|&&p| p != 0).fold(EVEN, |v, &p| {
            if p & BLACK == self.side {
                v.wrapping_add(WORTH[usize::from(p & 7)])
            } else {
                v.wrapping_sub(WORTH[usize::from(p & 7)])
            }
        })
    }

    /// The node of the move `e` of ply `ply`, made: its index (or [`NO_PARENT`]).
    fn enter(&mut self, ply: usize, e: Entry, leaf: bool) -> u32 {
        self.path.truncate(ply);
        let (parent, pos) = self.path[ply - 1].clone();
        let made = tree_move(&pos, e.0, e.1);
        let i = match (parent, made) {
            (NO_PARENT, _) | (_, None) => None,
            (p, Some(m)) => self.tree.push(p, m, leaf, 0),
        };
        let mut next = pos;
        if let Some(m) = made {
            next.play(m);
        }
        let i = i.unwrap_or(NO_PARENT);
        self.path.push((i, next));
        i
    }

    /// SEARCH at `ply` within (`alpha`, `beta`): the node's value for its side to move.
    fn search(&mut self, ply: usize, mut alpha: u8, beta: u8) -> u8 {
        self.nodes += 1;
        if ply >= usize::from(self.depth) {
            return self.eval();
        }
        let list = self.generate();
        let mut best = MATED;
        for (k, &e) in list.iter().enumerate() {
            self.make(e);
            if self.illegal() {
                self.unmake(e);
                continue;
            }
            let node = self.enter(ply + 1, e, ply + 1 == usize::from(self.depth));
            let child = self.search(ply + 1, beta.wrapping_neg(), alpha.wrapping_neg());
            self.unmake(e);
            if node != NO_PARENT {
                self.tree
                    .set_value(node, i16::from(child) - 128, Some(u16::from(child)));
            }
            self.path.truncate(ply + 1);
            let v = child.wrapping_neg();
            if v > best {
                best = v;
                if ply == 0 {
                    self.best = Some(e);
                }
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                self.cut(ply, node, child, beta, &list[k + 1..]);
                break;
            }
        }
        best
    }

    /// A cut-off at the node of `ply`: `child` (the refuting move's value) reached the bound
    /// (the negation of `beta`); the rest of the list is not searched.
    fn cut(&mut self, ply: usize, by: u32, child: u8, beta: u8, rest: &[Entry]) {
        let (node, pos) = &self.path[ply];
        if *node == NO_PARENT {
            return;
        }
        let legal = pos.legal_moves();
        let skipped = rest
            .iter()
            .filter_map(|e| tree_move(pos, e.0, e.1).filter(|m| legal.contains(*m)))
            .collect();
        self.tree.cuts.push(Cut {
            node: *node,
            by: (by != NO_PARENT).then_some(by),
            value: i16::from(child) - 128,
            bound: i16::from(beta.wrapping_neg()) - 128,
            skipped,
        });
    }
}

/// The program's search of `pos` to `depth` (1 to [`MAX_DEPTH`]) as a tree of at most `limit`
/// nodes, with the move it plays (`None`: no legal move) and its value (the byte it prints).
pub fn search_tree(pos: &Position, depth: u32, limit: usize) -> (SearchTree, Option<Move>, u8) {
    let mut m = Mini {
        board: *pos.board(),
        side: pos.side(),
        depth: depth.clamp(1, MAX_DEPTH) as u8,
        nodes: 0,
        tree: SearchTree::new(pos.clone(), limit),
        path: vec![(0, pos.clone())],
        best: None,
    };
    let value = m.search(0, MATED - 1, MATED.wrapping_neg().wrapping_add(1));
    m.tree
        .set_value(0, i16::from(value) - 128, Some(u16::from(value)));
    let best = m.best.and_then(|e| tree_move(pos, e.0, e.1));
    (m.tree, best, value)
}
