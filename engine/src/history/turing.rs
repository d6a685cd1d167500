//! Turing's paper machine (A. M. Turing, "Chess", in B. V. Bowden (ed.), *Faster than
//! Thought*, 1953; the program later called Turochamp): every move and every reply are
//! "considerable", after that only captures that Turing's rules call considerable; a position
//! without considerable moves is "dead" and valued by material W/B; among the moves of best
//! value the machine plays the one whose position has the highest position-play value.
//! See docs/history/turing.md.

use super::{Budget, Iteration, attackers, deepen, is_mate_after, moves_of};
use crate::engine::{MATE, SearchResult};
use crate::movegen::GenMode;
use crate::moves::{Move, MoveList};
use crate::piece::{self, BISHOP, BLACK, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE};
use crate::position::Position;
use crate::pv::PvTable;
use crate::square::{self, Square, on_board, sq88};
use crate::tables::{KING_DIRS, PAWN_DIR};

/// Turing's piece values in tenths of a pawn: P 1, N 3, B 3.5, R 5, Q 10.
pub fn value_tenths(piece_type: u8) -> i32 {
    match piece_type {
        PAWN => 10,
        KNIGHT => 30,
        BISHOP => 35,
        ROOK => 50,
        QUEEN => 100,
        _ => 0,
    }
}

/// Full-width plies of Turing's machine (its move and the reply).
pub const FULL_PLIES: u32 = 2;
/// Kempelen's cap on the lines: a position this many plies from the root counts as dead (the
/// record sets no limit; Turing followed the captures by hand).
pub const MAX_PLY: usize = 8;
/// Value of a checkmate for the winner (Turing's 1000), above every material ratio.
pub const MATE_VALUE: f64 = 1.0e6;

/// Material of a colour in tenths of a pawn.
pub fn material(pos: &Position, colour: u8) -> i32 {
    [PAWN, KNIGHT, BISHOP, ROOK, QUEEN]
        .iter()
        .map(|&t| value_tenths(t) * pos.count(colour, t) as i32)
        .sum()
}

/// Turing's material value W/B for `me` (a bare king counts as a tenth of a pawn, so the
/// ratio stays finite; the record does not say).
pub fn material_ratio(pos: &Position, me: u8) -> f64 {
    material(pos, me) as f64 / material(pos, me ^ BLACK).max(1) as f64
}

/// The position-play terms of one position for the side `me` that has just moved (Turing
/// adds them up for the machine's pieces and the opponent's king).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PositionPlay {
    /// Queens, rooks, bishops, knights: the square root of their moves, captures counted twice.
    pub mobility: f64,
    /// Rooks, bishops, knights: 1.0 if defended, another 0.5 if defended twice.
    pub defence: f64,
    /// The king's own moves (no castling), as the pieces' mobility.
    pub king_mobility: f64,
    /// Minus the mobility a queen of its own colour would have on the king's square.
    pub king_vulnerability: f64,
    /// 1.0 castling still possible later, 1.0 castling possible now, 1.0 castling just played.
    pub castling: f64,
    /// Pawns: 0.2 per rank advanced.
    pub pawn_advance: f64,
    /// Pawns: 0.3 if defended by at least one piece that is not a pawn.
    pub pawn_defence: f64,
    /// The opponent's king: 1.0 for a threat of mate, 0.5 for check.
    pub enemy_king: f64,
}

impl PositionPlay {
    /// The sum of the terms.
    pub fn total(&self) -> f64 {
        self.mobility
            + self.defence
            + self.king_mobility
            + self.king_vulnerability
            + self.castling
            + self.pawn_advance
            + self.pawn_defence
            + self.enemy_king
    }
}

/// Mobility count of the moves from `from` in `list`: one per move, two per capture.
fn weighted_moves(pos: &Position, list: &MoveList, from: Square, skip_castling: bool) -> u32 {
    list.iter()
        .filter(|m| m.from() == from && !(skip_castling && pos.is_castling(**m)))
        .map(|&m| if pos.is_capture(m) { 2 } else { 1 })
        .sum()
}

/// Pawn defenders of `sq` of colour `by`.
fn pawn_attackers(pos: &Position, sq: Square, by: u8) -> u32 {
    let back = -(PAWN_DIR[piece::index(by)] as i32);
    [back - 1, back + 1]
        .iter()
        .filter(|&&d| {
            let t = sq as i32 + d;
            on_board(t) && pos.piece_at(t as Square) == PAWN | by
        })
        .count() as u32
}

/// The position-play value of `pos` for `me`, the side that has just moved (`castled`: that
/// move was castling).
pub fn position_play(pos: &Position, me: u8, castled: bool) -> PositionPlay {
    let them = me ^ BLACK;
    // `me` to move: its legal moves, and the same position for the questions about the move.
    let mut mine = pos.clone();
    if mine.side() != me {
        mine.make_null();
    }
    let list = moves_of(pos, me, GenMode::All);
    let mut pp = PositionPlay::default();
    let mut own = pos.pieces(me, 0);
    while own != 0 {
        let s = sq88(own.trailing_zeros() as usize);
        own &= own - 1;
        let ty = piece::piece_type(pos.piece_at(s));
        match ty {
            KNIGHT | BISHOP | ROOK | QUEEN => {
                pp.mobility += (weighted_moves(&mine, &list, s, false) as f64).sqrt();
                if ty != QUEEN {
                    let defenders = attackers(pos, s, me);
                    if defenders >= 1 {
                        pp.defence += 1.0;
                    }
                    if defenders >= 2 {
                        pp.defence += 0.5;
                    }
                }
            }
            KING => {
                pp.king_mobility += (weighted_moves(&mine, &list, s, true) as f64).sqrt();
                let mut queen = 0u32;
                for d in KING_DIRS {
                    let mut t = s as i32 + d as i32;
                    while on_board(t) {
                        let p = pos.piece_at(t as Square);
                        if p == 0 {
                            queen += 1;
                        } else {
                            if piece::colour(p) == them {
                                queen += 2;
                            }
                            break;
                        }
                        t += d as i32;
                    }
                }
                pp.king_vulnerability -= (queen as f64).sqrt();
                let rights = if me == WHITE { 0b0011 } else { 0b1100 };
                if pos.castling() & rights != 0 {
                    pp.castling += 1.0;
                }
                if list.iter().any(|&m| mine.is_castling(m)) {
                    pp.castling += 1.0;
                }
                if castled {
                    pp.castling += 1.0;
                }
            }
            _ => {
                let rank = square::rank(s) as i32;
                let advanced = if me == WHITE { rank - 1 } else { 6 - rank };
                pp.pawn_advance += 0.2 * advanced as f64;
                if attackers(pos, s, me) > pawn_attackers(pos, s, me) {
                    pp.pawn_defence += 0.3;
                }
            }
        }
    }
    let mut enemy = pos.clone();
    if enemy.side() != them {
        enemy.make_null();
    }
    if enemy.in_check() {
        pp.enemy_king += 0.5;
    } else if list.iter().any(|&m| is_mate_after(&mine, m)) {
        pp.enemy_king += 1.0;
    }
    pp
}

/// Whether `m` is considerable beyond the full-width plies: a recapture on the square of the
/// previous capture, the capture of an undefended piece, the capture of a piece worth more
/// than the capturing one, or a move giving checkmate.
pub fn is_considerable(pos: &Position, m: Move, last_capture: Option<Square>) -> bool {
    if pos.is_capture(m) {
        if last_capture == Some(m.to()) {
            return true;
        }
        let (victim_sq, victim) = if pos.is_en_passant(m) {
            let back = -(PAWN_DIR[piece::index(pos.side())] as i32);
            ((m.to() as i32 + back) as Square, PAWN)
        } else {
            (m.to(), piece::piece_type(pos.piece_at(m.to())))
        };
        let mover = piece::piece_type(pos.piece_at(m.from()));
        if attackers(pos, victim_sq, pos.side() ^ BLACK) == 0 {
            return true;
        }
        if value_tenths(victim) > value_tenths(mover) {
            return true;
        }
    }
    is_mate_after(pos, m)
}

struct Machine<'a, 'b, 'c> {
    pos: Position,
    me: u8,
    full: u32,
    pv: PvTable,
    budget: &'a mut Budget<'b, 'c>,
}

impl Machine<'_, '_, '_> {
    /// The value of the position (for `me`: material W/B at dead positions, minimax over the
    /// considerable moves otherwise).
    fn value(&mut self, ply: usize, last_capture: Option<Square>) -> f64 {
        if self.budget.tick() {
            return 0.0;
        }
        self.pv.clear(ply);
        let list = self.pos.legal_moves();
        let maximising = self.pos.side() == self.me;
        if list.is_empty() {
            return if !self.pos.in_check() {
                1.0
            } else if maximising {
                -MATE_VALUE + ply as f64
            } else {
                MATE_VALUE - ply as f64
            };
        }
        if ply >= MAX_PLY {
            return material_ratio(&self.pos, self.me);
        }
        let full_width = (ply as u32) < self.full;
        let mut best: Option<f64> = None;
        for &m in list.iter() {
            if !full_width && !is_considerable(&self.pos, m, last_capture) {
                continue;
            }
            let capture = self.pos.is_capture(m).then_some(m.to());
            let undo = self.pos.make(m);
            let v = self.value(ply + 1, capture);
            self.pos.unmake(m, &undo);
            if self.budget.aborted {
                return 0.0;
            }
            let better = match best {
                None => true,
                Some(b) => (maximising && v > b) || (!maximising && v < b),
            };
            if better {
                best = Some(v);
                self.pv.update(ply, m);
            }
        }
        best.unwrap_or_else(|| material_ratio(&self.pos, self.me))
    }
}

/// A ratio W/B shown as centipawns: (W/B - 1) x 100 when ahead, -(B/W - 1) x 100 when behind.
pub fn ratio_to_cp(v: f64) -> i32 {
    if v >= MATE_VALUE / 2.0 {
        MATE - (MATE_VALUE - v).round() as i32
    } else if v <= -MATE_VALUE / 2.0 {
        -(MATE - (v + MATE_VALUE).round() as i32)
    } else if v >= 1.0 {
        ((v - 1.0) * 100.0).round() as i32
    } else if v > 0.0 {
        -((1.0 / v - 1.0) * 100.0).round().min(30000.0) as i32
    } else {
        -30000
    }
}

/// One decision of the machine with `full` full-width plies: every root move valued, the best
/// value chosen, ties broken by position play (then by move order). Returns the value and the
/// line; when the budget runs out, the best of the root moves valued so far (the first legal
/// move if none was), or `None` if an earlier decision exists (`partial_ok` false).
fn decide(
    pos: &Position,
    full: u32,
    partial_ok: bool,
    budget: &mut Budget,
) -> Option<(f64, Vec<Move>)> {
    let me = pos.side();
    let mut machine = Machine {
        pos: pos.clone(),
        me,
        full,
        pv: PvTable::new(MAX_PLY + 1),
        budget,
    };
    let mut best: Option<(f64, f64, Vec<Move>)> = None;
    for &m in pos.legal_moves().iter() {
        if !machine.budget.allows(m) {
            continue;
        }
        let castled = pos.is_castling(m);
        let capture = pos.is_capture(m).then_some(m.to());
        let undo = machine.pos.make(m);
        let v = machine.value(1, capture);
        if machine.budget.aborted {
            if !partial_ok {
                return None;
            }
            return Some(match best {
                Some((v, _, line)) => (v, line),
                None => (1.0, vec![m]),
            });
        }
        let mut line = vec![m];
        line.extend_from_slice(machine.pv.line(1));
        let better = match &best {
            None => true,
            Some((bv, _, _)) if v > *bv => true,
            Some((bv, bpp, _)) if v == *bv => {
                let pp = position_play(&machine.pos, me, castled).total();
                pp > *bpp
            }
            _ => false,
        };
        if better {
            let pp = position_play(&machine.pos, me, castled).total();
            best = Some((v, pp, line));
        }
        machine.pos.unmake(m, &undo);
    }
    best.map(|(v, _, line)| (v, line))
}

/// The `turing` profile: depth 1 looks one ply full width, depth 2 (the most, and the default)
/// is Turing's machine.
pub(crate) fn search(pos: &Position, depth: Option<u32>, budget: &mut Budget) -> SearchResult {
    deepen(
        depth.map(|d| d.min(FULL_PLIES)),
        FULL_PLIES,
        budget,
        |d, budget| {
            // Turing's search has no cheap first iteration: the limits hold from the start,
            // and a decision cut short plays the best root move valued so far.
            budget.arm();
            let (v, pv) = decide(pos, d, d == 1, budget)?;
            Some(Iteration {
                score: ratio_to_cp(v),
                pv,
            })
        },
    )
}

/// Turing's choice in `pos` with two full-width plies, without limits (for tests and lessons):
/// the move, its value W/B and the position-play value after it.
pub fn choose(pos: &Position) -> Option<(Move, f64, f64)> {
    let control = crate::SearchControl::default();
    let mut budget = Budget::new(&crate::Limits::default(), pos.side(), &control);
    let (v, line) = decide(pos, FULL_PLIES, false, &mut budget)?;
    let m = *line.first()?;
    let mut after = pos.clone();
    let castled = pos.is_castling(m);
    after.make(m);
    Some((m, v, position_play(&after, pos.side(), castled).total()))
}
