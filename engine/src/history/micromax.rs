//! micro-Max 4.8 (H. G. Muller; the 8-bit AVR port AVR-Max by A. Adrian, 2011, drops its hash
//! table): one recursive negamax function with a soft-fail alpha-beta window, internal
//! iterative deepening in every node (the best move of the previous iteration is tried
//! first), a null move at depth - 3, a capture-only level with stand-pat below the full-width
//! depths, futility and late-move reductions with re-searches, a check extension, and an
//! evaluation updated move by move. Kempelen re-creates that algorithm on its own board and
//! move generator; see docs/history/micromax.md for what is kept and what is not.

use super::{Budget, OFFICERS};
use crate::engine::{MATE, SearchResult};
use crate::moves::{Move, MoveList};
use crate::piece::{self, BISHOP, BLACK, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE};
use crate::position::Position;
use crate::square::{self, Square};

/// micro-Max's "infinity", also the value of capturing a king.
pub const INF: i32 = 8000;
/// Deepest internal iteration (micro-Max stops deepening at 98).
pub const MAX_ITERATION: i32 = 98;
/// Kempelen's cap on the recursion (micro-Max relies on its stack).
pub const MAX_PLY: usize = 64;

/// Piece values: 37 times micro-Max's table (pawn 2, knight 7, bishop 8, rook 12, queen 23).
pub fn value(piece_type: u8) -> i32 {
    match piece_type {
        PAWN => 74,
        KNIGHT => 259,
        BISHOP => 296,
        ROOK => 444,
        QUEEN => 851,
        _ => 0,
    }
}

/// micro-Max's piece codes, used in its "most valuable victim, least valuable attacker" score:
/// pawn 1, knight 3, king 4, bishop 5, rook 6, queen 7.
pub fn code(piece_type: u8) -> i32 {
    match piece_type {
        PAWN => 1,
        KNIGHT => 3,
        KING => 4,
        BISHOP => 5,
        ROOK => 6,
        _ => 7,
    }
}

/// The centre table: the squared distance of a square from the point between e4 and e5 (file
/// e, between ranks 4 and 5), rounded down: (file - 4)^2 + (rank - 3.5)^2.
pub fn centre(sq: Square) -> i32 {
    let f = square::file(sq) as f64 - 4.0;
    let r = square::rank(sq) as f64 - 3.5;
    (f * f + r * r) as i32
}

/// The game phase R: non-pawn material taken off the board (knight and bishop 2, rook 3,
/// queen 6; 40 when only kings and pawns are left).
pub fn phase(pos: &Position) -> i32 {
    let units = |ty: u8| match ty {
        KNIGHT | BISHOP => 2,
        ROOK => 3,
        _ => 6,
    };
    let on_board: i32 = OFFICERS
        .iter()
        .map(|&t| units(t) * (pos.count(WHITE, t) + pos.count(BLACK, t)) as i32)
        .sum();
    (40 - on_board).max(0)
}

/// Whether a pawn of `colour` on `sq` has not moved yet (micro-Max keeps a flag; Kempelen
/// reads the start rank).
fn unmoved_pawn(sq: Square, colour: u8) -> bool {
    square::rank(sq) == if colour == WHITE { 1 } else { 6 }
}

/// What a move adds to the mover's evaluation, not counting the captured piece: the change in
/// the centre table (pawns, knights, bishops, king), 50 for castling, -20 for a king move
/// before the endgame (R <= 29), and for pawns the structure term, the endgame push bonus R/4,
/// 64 for reaching the 6th or 7th rank after an earlier move, and the promotion to a queen.
pub fn positional_gain(pos: &Position, m: Move, r: i32) -> i32 {
    let from = m.from();
    let to = m.to();
    let us = pos.side();
    let ty = piece::piece_type(pos.piece_at(from));
    let mut v = if matches!(ty, PAWN | KNIGHT | BISHOP | KING) {
        centre(from) - centre(to)
    } else {
        0
    };
    if pos.is_castling(m) {
        v += 50;
    }
    if ty == KING && r <= 29 {
        v -= 20;
    }
    if ty == PAWN {
        let same = |d: i32| {
            let f = square::file(from) as i32 + d;
            if !(0..8).contains(&f) {
                return false;
            }
            let s = square::square(f as u8, square::rank(from));
            pos.piece_at(s) == PAWN | us && unmoved_pawn(s, us) == unmoved_pawn(from, us)
        };
        let lonely = |d: i32| i32::from(!same(d));
        let behind = from as i32 - crate::tables::PAWN_DIR[piece::index(us)] as i32;
        let king_behind = i32::from(
            square::on_board(behind)
                && pos.piece_at(behind as Square) == KING | us
                && pos.castling() & if us == WHITE { 0b0011 } else { 0b1100 } == 0,
        );
        v -= 9 * (lonely(-2) + lonely(2) - 1 + king_behind) - (r >> 2);
        let rel_rank = if us == WHITE {
            square::rank(to)
        } else {
            7 - square::rank(to)
        };
        if m.promotion() != 0 {
            v += value(QUEEN) - value(PAWN) - 1;
        } else if (rel_rank == 5 || rel_rank == 6) && !unmoved_pawn(from, us) {
            v += 64;
        }
    }
    v
}

/// The moves micro-Max searches: the legal moves, promotions to a queen only.
fn moves(pos: &Position) -> MoveList {
    let all = pos.legal_moves();
    let mut list = MoveList::new();
    for &m in all.iter() {
        if m.promotion() == 0 || m.promotion() == QUEEN {
            list.push(m);
        }
    }
    list
}

struct MicroMax<'a, 'b, 'c> {
    pos: Position,
    r: i32,
    budget: &'a mut Budget<'b, 'c>,
}

impl MicroMax<'_, '_, '_> {
    /// The recursive search: window (q, l), the mover's evaluation `e`, depth `n` (n = 1 only
    /// orders moves, 2 searches captures, 3 and more everything). Every node deepens itself
    /// from 1 to max(n, 2), trying the previous iteration's best move first.
    fn search(&mut self, q: i32, l: i32, e: i32, n: i32, ply: usize) -> i32 {
        if self.budget.tick() {
            return 0;
        }
        let q = q - i32::from(q < e);
        let l = l - i32::from(l <= e);
        let list = moves(&self.pos);
        let in_check = self.pos.in_check();
        let mut m = if list.is_empty() {
            if in_check { -INF } else { 0 }
        } else if ply >= MAX_PLY {
            e
        } else {
            let mut m = e;
            let mut best: Option<Move> = None;
            for d in 1..=n.max(2) {
                let (nm, nb) = self.iteration(q, l, e, d, ply, &list, best, in_check);
                if self.budget.aborted {
                    return 0;
                }
                m = nm;
                best = nb.or(best);
                if m.abs() > INF - 136 {
                    break;
                }
            }
            m
        };
        m += i32::from(m < e);
        m
    }

    /// The root: the same deepening, with a report after each iteration from depth 3 (one
    /// full-width ply) on, until the requested depth or the budget ends it.
    fn root(&mut self, requested: Option<u32>) -> SearchResult {
        let e = material(&self.pos);
        let q = -INF - 1;
        let l = INF - i32::from(INF <= e);
        let mut list = moves(&self.pos);
        let budget = &*self.budget;
        list.retain(|m| budget.allows(m));
        let in_check = self.pos.in_check();
        let last = requested.map(|d| d as i32 + 2).unwrap_or(MAX_ITERATION);
        let mut best: Option<Move> = None;
        let mut result: Option<SearchResult> = None;
        for d in 1..=last {
            if d > 3 && !self.budget.may_deepen() {
                break;
            }
            let (m, b) = self.iteration(q, l, e, d, 0, &list, best, in_check);
            if self.budget.aborted {
                break;
            }
            best = b.or(best);
            if d >= 3 {
                let mv = best.unwrap_or(list.as_slice()[0]);
                let depth = (d - 2) as u32;
                let score = to_cp(m);
                self.budget.report(depth, depth, score, &[mv]);
                result = Some(self.budget.result(depth, score, vec![mv]));
                self.budget.arm();
                if m.abs() > INF - 136 {
                    break;
                }
            }
        }
        let mut r = result.expect("iterations 1 to 3 run without limits");
        r.nodes = self.budget.nodes;
        r.time = self.budget.elapsed();
        r
    }

    /// One iteration of the internal deepening at depth `d`; returns the best score and move.
    #[allow(clippy::too_many_arguments)]
    fn iteration(
        &mut self,
        q: i32,
        l: i32,
        e: i32,
        d: i32,
        ply: usize,
        list: &MoveList,
        prev_best: Option<Move>,
        in_check: bool,
    ) -> (i32, Option<Move>) {
        // Null move: the opponent moves twice at depth d - 3 with a window at beta.
        let p = if d < 3 || in_check {
            INF
        } else if self.r > 35 {
            0
        } else {
            let undo = self.pos.make_null();
            let s = self.search(-l, 1 - l, -e, d - 3, ply + 1);
            self.pos.unmake_null(&undo);
            s
        };
        let mut m = if -p < l || self.r > 35 {
            if d > 2 { -INF } else { e }
        } else {
            -p
        };
        let mut best = None;
        let order = prev_best
            .into_iter()
            .chain(list.iter().copied().filter(|&x| Some(x) != prev_best));
        for mv in order {
            if m >= l && d > 1 {
                break;
            }
            let capture = self.pos.is_capture(mv);
            let victim = if self.pos.is_en_passant(mv) {
                PAWN
            } else {
                piece::piece_type(self.pos.piece_at(mv.to()))
            };
            let i = value(victim);
            let mover = piece::piece_type(self.pos.piece_at(mv.from()));
            let mut v = if d > 1 { e } else { i - code(mover) };
            if d - i32::from(!capture) > 1 {
                v = positional_gain(&self.pos, mv, self.r) + e + i;
                let alpha = m.max(q);
                let reduce = d > 5 && mover != PAWN && !capture && Some(mv) != prev_best;
                let mut c = d - 1 - i32::from(reduce);
                if !(self.r > 29 || d < 3 || p != INF) {
                    c = d;
                }
                let undo = self.pos.make(mv);
                let mut s;
                loop {
                    s = if c > 2 || v > alpha {
                        -self.search(-l, -alpha, -v, c, ply + 1)
                    } else {
                        v
                    };
                    if self.budget.aborted {
                        break;
                    }
                    c += 1;
                    if !(s > q && c < d) {
                        break;
                    }
                }
                self.pos.unmake(mv, &undo);
                if self.budget.aborted {
                    return (0, None);
                }
                v = s;
            }
            if v > m {
                m = v;
                best = Some(mv);
            }
        }
        if m == -INF && p != INF {
            m = 0;
        }
        (m, best)
    }
}

/// The material balance in micro-Max's units from the side to move's point of view (the root
/// evaluation; micro-Max carries a running sum from the start of the game instead).
pub fn material(pos: &Position) -> i32 {
    let side = |c: u8| -> i32 {
        [PAWN, KNIGHT, BISHOP, ROOK, QUEEN]
            .iter()
            .map(|&t| value(t) * pos.count(c, t) as i32)
            .sum()
    };
    side(pos.side()) - side(pos.side() ^ BLACK)
}

/// A micro-Max score (a pawn is 74) in centipawns; scores beyond INF - 200 as mate scores.
pub fn to_cp(m: i32) -> i32 {
    if m > INF - 200 {
        MATE - (INF - m)
    } else if m < -(INF - 200) {
        -(MATE - (INF + m))
    } else {
        m * 100 / 74
    }
}

/// The `micromax` profile: `depth` counts full-width plies (micro-Max's depth 3 is one ply).
pub(crate) fn search(pos: &Position, depth: Option<u32>, budget: &mut Budget) -> SearchResult {
    let mut mm = MicroMax {
        pos: pos.clone(),
        r: phase(pos),
        budget,
    };
    mm.root(depth)
}

/// A micro-Max search of `depth` full-width plies without other limits (for tests and lessons).
pub fn search_depth(pos: &Position, depth: u32) -> SearchResult {
    let control = crate::SearchControl::default();
    let mut budget = Budget::new(&crate::Limits::default(), pos.side(), &control);
    search(pos, Some(depth), &mut budget)
}
