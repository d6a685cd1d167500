//! Shannon's Type A strategy (C. E. Shannon, "Programming a Computer for Playing Chess", 1950):
//! every variation followed to a fixed depth, minimax over the tree (no alpha-beta: it was
//! not yet known), and at the end of each variation his evaluation
//! f(P) = 200(K-K') + 9(Q-Q') + 5(R-R') + 3(B-B'+N-N') + (P-P') - 0.5(D-D'+S-S'+I-I') + 0.1(M-M'),
//! here in centipawns. See docs/history/shannon.md.

use super::{Budget, Iteration, deepen, moves_of};
use crate::engine::{MATE, SearchResult};
use crate::movegen::GenMode;
use crate::moves::MoveList;
use crate::piece::{BISHOP, BLACK, KNIGHT, PAWN, QUEEN, ROOK, WHITE};
use crate::position::Position;
use crate::pv::PvTable;
use crate::square::{self, sq88};

/// Deepest search Kempelen starts when no depth is given.
pub const MAX_DEPTH: u32 = 64;

/// The terms of f(P) for one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terms {
    /// Queens, rooks, bishops, knights, pawns.
    pub queens: i32,
    /// Rooks.
    pub rooks: i32,
    /// Bishops.
    pub bishops: i32,
    /// Knights.
    pub knights: i32,
    /// Pawns.
    pub pawns: i32,
    /// D: pawns that share their file with another pawn of their colour.
    pub doubled: i32,
    /// S: backward pawns (see [`is_backward`]).
    pub backward: i32,
    /// I: pawns with no pawn of their colour on a neighbouring file.
    pub isolated: i32,
    /// M: legal moves the side has (or would have, if it were to move).
    pub mobility: i32,
}

impl Terms {
    /// The side's share of f(P) in centipawns: 900Q + 500R + 300(B+N) + 100P - 50(D+S+I) + 10M.
    pub fn centipawns(&self) -> i32 {
        900 * self.queens
            + 500 * self.rooks
            + 300 * (self.bishops + self.knights)
            + 100 * self.pawns
            - 50 * (self.doubled + self.backward + self.isolated)
            + 10 * self.mobility
    }
}

/// Bitboard of a file (over sq64).
fn file_mask(file: i32) -> u64 {
    if (0..8).contains(&file) {
        0x0101_0101_0101_0101u64 << file
    } else {
        0
    }
}

/// Whether the pawn of `colour` on `sq` is backward: it is not isolated, no pawn of its colour
/// on a neighbouring file stands level with it or behind it (so none can come up to protect
/// it), and the square in front of it is attacked by an enemy pawn. Shannon does not define
/// the term; this is the usual textbook definition.
pub fn is_backward(pos: &Position, sq: u8, colour: u8) -> bool {
    let own = pos.pieces(colour, PAWN);
    let file = square::file(sq) as i32;
    let rank = square::rank(sq) as i32;
    let neighbours = own & (file_mask(file - 1) | file_mask(file + 1));
    if neighbours == 0 {
        return false;
    }
    let mut n = neighbours;
    while n != 0 {
        let s = n.trailing_zeros() as i32;
        n &= n - 1;
        let r = s / 8;
        let level_or_behind = if colour == WHITE {
            r <= rank
        } else {
            r >= rank
        };
        if level_or_behind {
            return false;
        }
    }
    let dir = if colour == WHITE { 1 } else { -1 };
    let stop_rank = rank + dir;
    if !(0..8).contains(&stop_rank) {
        return false;
    }
    let enemy = pos.pieces(colour ^ BLACK, PAWN);
    let guard_rank = stop_rank + dir;
    if !(0..8).contains(&guard_rank) {
        return false;
    }
    [file - 1, file + 1]
        .iter()
        .any(|&f| (0..8).contains(&f) && enemy & (1u64 << (guard_rank * 8 + f)) != 0)
}

/// The terms of f(P) for `colour`.
pub fn terms(pos: &Position, colour: u8) -> Terms {
    let pawns = pos.pieces(colour, PAWN);
    let mut doubled = 0;
    let mut isolated = 0;
    let mut backward = 0;
    let mut p = pawns;
    while p != 0 {
        let s = p.trailing_zeros() as usize;
        p &= p - 1;
        let file = (s % 8) as i32;
        if (pawns & file_mask(file)).count_ones() > 1 {
            doubled += 1;
        }
        if pawns & (file_mask(file - 1) | file_mask(file + 1)) == 0 {
            isolated += 1;
        } else if is_backward(pos, sq88(s), colour) {
            backward += 1;
        }
    }
    Terms {
        queens: pos.count(colour, QUEEN) as i32,
        rooks: pos.count(colour, ROOK) as i32,
        bishops: pos.count(colour, BISHOP) as i32,
        knights: pos.count(colour, KNIGHT) as i32,
        pawns: pos.count(colour, PAWN) as i32,
        doubled,
        backward,
        isolated,
        mobility: moves_of(pos, colour, GenMode::All).len() as i32,
    }
}

/// f(P) in centipawns from White's point of view (the king term is 0: both kings are always
/// on the board).
pub fn evaluate(pos: &Position) -> i32 {
    terms(pos, WHITE).centipawns() - terms(pos, BLACK).centipawns()
}

struct TypeA<'a, 'b, 'c> {
    pos: Position,
    pv: PvTable,
    budget: &'a mut Budget<'b, 'c>,
}

impl TypeA<'_, '_, '_> {
    /// Minimax in negamax form: the value for the side to move.
    fn minimax(&mut self, depth: u32, ply: usize) -> i32 {
        if self.budget.tick() {
            return 0;
        }
        self.pv.clear(ply);
        let mut list = MoveList::new();
        self.pos.generate(&mut list, GenMode::All);
        if ply == 0 {
            let budget = &*self.budget;
            list.retain(|m| budget.allows(m));
        }
        if list.is_empty() {
            return if self.pos.in_check() {
                -(MATE - ply as i32)
            } else {
                0
            };
        }
        if depth == 0 || ply >= MAX_DEPTH as usize {
            let f = evaluate(&self.pos);
            return if self.pos.side() == BLACK { -f } else { f };
        }
        let mut best = -MATE - 1;
        for &m in list.iter() {
            let undo = self.pos.make(m);
            let v = -self.minimax(depth - 1, ply + 1);
            self.pos.unmake(m, &undo);
            if self.budget.aborted {
                return 0;
            }
            if v > best {
                best = v;
                self.pv.update(ply, m);
            }
        }
        best
    }
}

/// The `shannon` profile: a Type A tree at depth 1, 2, ... (the requested depth's tree is
/// Shannon's search; the shallower ones give a node or time budget a move to play).
pub(crate) fn search(pos: &Position, depth: Option<u32>, budget: &mut Budget) -> SearchResult {
    deepen(depth, MAX_DEPTH, budget, |d, budget| {
        let mut t = TypeA {
            pos: pos.clone(),
            pv: PvTable::new(MAX_DEPTH as usize),
            budget,
        };
        let score = t.minimax(d, 0);
        if t.budget.aborted {
            return None;
        }
        Some(Iteration {
            score,
            pv: t.pv.line(0).to_vec(),
        })
    })
}
