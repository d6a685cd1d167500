//! Microchess (P. Jennings, KIM-1, 1976): no search tree in the modern sense. For each of its
//! moves the program counts what the move leaves behind (its own mobility and captures, the
//! opponent's replies and captures, and a capture tree of at most three captures a side that
//! stops at pawn and king captures) and combines the counts in one weighted sum, STRATGY.
//! It plays the move with the highest sum; a one-line opening book comes first.
//!
//! This module computes what the 1976 KIM-1 program computes, on the program's own data: a
//! table of 32 piece squares (the program's 16 pieces first, each with a fixed number, then the
//! opponent's), squares as `rank * 16 + file` counted from the program's side of the board,
//! moves generated piece by piece in the program's order, STRATGY in 8-bit arithmetic with the
//! carries, borrows and halvings of the listing, and the board as the program keeps it through
//! a game (it knows no castling, en passant or promotion). See docs/history/microchess.md.

use super::Budget;
use crate::engine::{MATE, SearchResult};
use crate::game::Game;
use crate::moves::Move;
use crate::piece::{self, BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE};
use crate::position::Position;
use crate::square::{self, Square};
use crate::tree::searched::{NO_PARENT, SearchTree, tree_move};
use std::ops::RangeInclusive;

/// Piece points by piece number (table POINTS): king 11, queen 10, rooks 6, bishops and
/// knights 4, pawns 2.
pub const POINTS: [u8; 16] = [11, 10, 6, 6, 4, 4, 4, 4, 2, 2, 2, 2, 2, 2, 2, 2];

/// The points of a piece type (Kempelen's types), as in [`POINTS`].
pub fn points(piece_type: u8) -> i32 {
    match piece_type {
        KING => 11,
        QUEEN => 10,
        ROOK => 6,
        BISHOP | KNIGHT => 4,
        PAWN => 2,
        _ => 0,
    }
}

/// The one opening line of the listing's book (White's moves are played while Black follows).
pub const BOOK: [&str; 17] = [
    "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "c2c3", "g8f6", "d2d4", "e5d4", "c3d4", "c5b4",
    "b1c3", "f6e4", "e1g1", "b4c3", "b2c3",
];

/// A square of Microchess's board: `rank * 16 + file`, both counted from the program's own
/// side (as White the files run from h to a, as Black from a to h). A captured piece stands on
/// [`CAPTURED`]; every square with bit 3 of either half set is off the board.
pub type McSquare = u8;

/// Where a captured piece is put.
pub const CAPTURED: McSquare = 0xCC;

/// The piece numbers: 0 king, 1 queen, 2-3 rooks, 4-5 bishops, 6-7 knights, 8-15 pawns. Their
/// files at the start, as White (table SETW): the rooks of h and a, the bishops of f and c, the
/// knights of g and b, the pawns h a g b f c d e.
const HOME_FILES: [u8; 16] = [4, 3, 7, 0, 5, 2, 6, 1, 7, 0, 6, 1, 5, 2, 3, 4];

/// The step table (MOVEX), by direction number 1-16: the king and queen use 8 to 1, rooks 4 to
/// 1, bishops 8 to 5, knights 16 to 9, pawns 6 and 5 (captures) and 4 (ahead).
const STEPS: [u8; 17] = [
    0x00, 0xF0, 0xFF, 0x01, 0x10, 0x11, 0x0F, 0xEF, 0xF1, 0xDF, 0xE1, 0xEE, 0xF2, 0x12, 0x0E, 0x1F,
    0x21,
];

/// The book as the table OPNING holds it, one entry per move: the square the opponent's last
/// move must have reached (the first entry stands for "the board was just set up"), the piece
/// number to move and its target square (White's frame).
const OPENING: [(McSquare, u8, McSquare); 9] = [
    (CAPTURED, 15, 0x33), // e2-e4
    (0x43, 6, 0x22),      // after ...e5: Ng1-f3
    (0x55, 4, 0x35),      // after ...c6: Bf1-c4
    (0x45, 13, 0x25),     // after ...c5: c2-c3
    (0x52, 14, 0x34),     // after ...f6: d2-d4
    (0x34, 13, 0x34),     // after ...xd4: c3xd4
    (0x36, 7, 0x25),      // after ...b4: Nb1-c3
    (0x33, 0, 0x01),      // after ...xe4: Ke1-g1 (the king alone)
    (0x25, 11, 0x25),     // after ...xc3: b2xc3
];

/// Microchess's board: the squares of the 32 pieces, the program's 16 first (BOARD), then the
/// opponent's (BK), each side's pieces numbered 0 king, 1 queen, 2-3 rooks, 4-5 bishops, 6-7
/// knights, 8-15 pawns.
pub type McBoard = [McSquare; 32];

/// Whether a square is off the board.
fn off_board(sq: McSquare) -> bool {
    sq & 0x88 != 0
}

/// REVERSE: the board seen from the other side: the two halves exchanged and every square
/// subtracted from 0x77 (a captured piece's 0xCC becomes 0xAB, also off the board).
pub fn reversed(b: &McBoard) -> McBoard {
    let mut r = [0u8; 32];
    for i in 0..16 {
        r[i] = 0x77u8.wrapping_sub(b[16 + i]);
        r[16 + i] = 0x77u8.wrapping_sub(b[i]);
    }
    r
}

/// The square of Kempelen's square `sq` on White's side of Microchess's board.
pub fn white_square(sq: Square) -> McSquare {
    (square::rank(sq) << 4) | (7 - square::file(sq))
}

/// Kempelen's square of a square on White's side of Microchess's board.
pub fn from_white_square(sq: McSquare) -> Square {
    square::square(7 - (sq & 7), sq >> 4)
}

/// MOVE on a board copy: whatever stands on `to` is captured, the piece goes to `to`.
fn make(b: &mut McBoard, piece: usize, to: McSquare) {
    if let Some(x) = (0..32).rev().find(|&x| b[x] == to) {
        b[x] = CAPTURED;
    }
    b[piece] = to;
}

/// What CMOVE says about one step: the square reached, and the flags it sets.
#[derive(Clone, Copy)]
struct Step {
    to: McSquare,
    /// N: off the board, onto an own piece, or (when tested) into check.
    illegal: bool,
    /// V: onto an opponent's piece.
    capture: bool,
    /// C: the step was tested and leaves the king in check.
    check: bool,
}

/// CMOVE: one step of `piece` from `from` in direction `dir`. With `test`, a step that stays
/// on the board and does not land on an own piece is tried out (CHKCHK): illegal when one of
/// the opponent's moves could then capture the king.
fn cmove(b: &McBoard, piece: usize, from: McSquare, dir: usize, test: bool) -> Step {
    let to = from.wrapping_add(STEPS[dir]);
    let illegal = Step {
        to,
        illegal: true,
        capture: false,
        check: false,
    };
    if off_board(to) {
        return illegal;
    }
    let capture = match (0..32).rev().find(|&x| b[x] == to) {
        Some(x) if x < 16 => return illegal,
        Some(_) => true,
        None => false,
    };
    let check = test && exposes_king(b, piece, to);
    Step {
        to,
        illegal: check,
        capture,
        check,
    }
}

/// CHKCHK: whether the move of `piece` to `to` lets one of the opponent's moves (pseudo-legal:
/// its own king's safety is not asked) reach the mover's king.
fn exposes_king(b: &McBoard, piece: usize, to: McSquare) -> bool {
    let mut after = *b;
    make(&mut after, piece, to);
    let r = reversed(&after);
    let king = r[16];
    let mut hit = false;
    each_move(&r, false, &mut |_, t, _| hit |= t == king);
    hit
}

/// GNM: every move of the pieces `b[0..16]`, pieces from number 15 down to 0, each piece's
/// directions from the highest number down, a line piece step by step until it is blocked.
/// With `test`, moves that leave the king in check are dropped as the listing drops them; a
/// pawn's step ahead that would leave the king in check also ends its double step. `visit`
/// gets the piece, the target square and whether it captures.
fn each_move(b: &McBoard, test: bool, visit: &mut dyn FnMut(usize, McSquare, bool)) {
    for piece in (0..16).rev() {
        let from = b[piece];
        if off_board(from) {
            continue; // a captured piece: every step leaves the board
        }
        match piece {
            8..=15 => {
                // Captures (directions 6 and 5), then ahead (4), twice from the second rank.
                for dir in [6, 5] {
                    let s = cmove(b, piece, from, dir, test);
                    if s.capture && !s.illegal {
                        visit(piece, s.to, true);
                    }
                }
                let mut at = from;
                loop {
                    let s = cmove(b, piece, at, 4, test);
                    if s.capture || s.illegal {
                        break;
                    }
                    visit(piece, s.to, false);
                    if s.to & 0xF0 != 0x20 {
                        break;
                    }
                    at = s.to;
                }
            }
            6 | 7 => piece_moves(b, piece, from, 9..=16, Reach::Step, test, visit),
            0 => piece_moves(b, piece, from, 1..=8, Reach::Step, test, visit),
            4 | 5 => piece_moves(b, piece, from, 5..=8, Reach::Line, test, visit),
            2 | 3 => piece_moves(b, piece, from, 1..=4, Reach::Line, test, visit),
            _ => piece_moves(b, piece, from, 1..=8, Reach::Line, test, visit),
        }
    }
}

/// How far a piece goes in one direction: the listing's two routines for it.
#[derive(Clone, Copy)]
enum Reach {
    /// SNGMV, for the king and knights: one step.
    Step,
    /// LINE, for the queen, rooks and bishops: until the board's edge, an own piece or a
    /// capture. A step that leaves the king in check is skipped and the line goes on, unless
    /// it is a capture, which ends the line.
    Line,
}

/// SNGMV or LINE (`reach`): the moves of `piece` from `from` in each direction of `dirs`, the
/// highest number first.
fn piece_moves(
    b: &McBoard,
    piece: usize,
    from: McSquare,
    dirs: RangeInclusive<usize>,
    reach: Reach,
    test: bool,
    visit: &mut dyn FnMut(usize, McSquare, bool),
) {
    for dir in dirs.rev() {
        if let Reach::Step = reach {
            let s = cmove(b, piece, from, dir, test);
            if !s.illegal {
                visit(piece, s.to, s.capture);
            }
            continue;
        }
        let mut at = from;
        loop {
            let s = cmove(b, piece, at, dir, test);
            at = s.to;
            if s.check && !s.capture {
                continue;
            }
            if s.illegal {
                break;
            }
            visit(piece, s.to, s.capture);
            if s.capture {
                break;
            }
        }
    }
}

/// Mobility and capture counts of one side (MOB, MAXC, CC, MAXP of the manual), bytes as the
/// listing keeps them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// MOB: moves, a queen's moves counted twice.
    pub mob: u8,
    /// MAXC: points of the most valuable piece that can be captured.
    pub maxc: u8,
    /// CC: points of all capturable pieces, once per capturing move.
    pub cc: u8,
    /// MAXP: the number of that most valuable piece (the last found on equal points; 0, the
    /// king's number, also when nothing can be captured).
    pub maxp: u8,
}

impl Counts {
    /// COUNTS: one move of `piece` to `to` on board `b` (the mover's pieces first).
    fn count(&mut self, b: &McBoard, piece: usize, to: McSquare, capture: bool) {
        self.mob = self.mob.wrapping_add(if piece == 1 { 2 } else { 1 });
        if capture {
            let y = (0..16).rev().find(|&y| b[16 + y] == to).unwrap_or(0);
            let pts = POINTS[y];
            if pts >= self.maxc {
                self.maxp = y as u8;
                self.maxc = pts;
            }
            self.cc = self.cc.wrapping_add(pts);
        }
    }
}

/// Every count STRATGY combines for one move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveCounts {
    /// Prior counts: the computer's, before any move.
    pub prior: Counts,
    /// Continuation counts: the computer's, after the move.
    pub cont: Counts,
    /// Reply counts: the opponent's, after the move.
    pub reply: Counts,
    /// WCAP0, WCAP1, WCAP2: best points the computer captures at each level of the exchange.
    pub wcap: [u8; 3],
    /// BCAP0, BCAP1, BCAP2: the same for the opponent.
    pub bcap: [u8; 3],
}

/// 6502 add with carry.
fn adc(a: &mut u8, carry: &mut bool, v: u8) {
    let s = u16::from(*a) + u16::from(v) + u16::from(*carry);
    *a = s as u8;
    *carry = s > 0xFF;
}

/// 6502 subtract with borrow (the carry set means no borrow).
fn sbc(a: &mut u8, carry: &mut bool, v: u8) {
    let d = i16::from(*a) - i16::from(v) - i16::from(!*carry);
    *a = d as u8;
    *carry = d >= 0;
}

/// The value STRATGY starts from when every count is 0: 0x80, halved, plus 0x40, halved, plus
/// 0x90.
pub const NEUTRAL: u8 = 0xD0;

/// The value CKMATE gives a move after which the opponent cannot move and the computer's best
/// capture would be the king (or there is none).
pub const MATE_VALUE: u8 = 0xFF;

/// The best value at the start of a search: a move must score more to be kept (BESTV).
pub const FIRST_BEST: u8 = 0x0C;

/// Below this best value the program resigns instead of moving.
pub const RESIGN_BELOW: u8 = 0x0F;

impl MoveCounts {
    /// STRATGY in hundredths, exactly as the manual prints it:
    /// 4.00 WCAP0 + 1.25 WCAP1 + 0.75 (WMAXC + WCC) + 0.25 (WMOB + WCAP2) - 2.56 BMAXC
    /// - 2.00 BCC - 1.25 BCAP1 - 0.50 BMAXC - 0.25 (PMAXC + PCC + PMOB + BCAP0 + BCAP2 + BMOB).
    pub fn stratgy(&self) -> i32 {
        let (p, w, b) = (&self.prior, &self.cont, &self.reply);
        let v = |x: u8| i32::from(x);
        400 * v(self.wcap[0])
            + 125 * v(self.wcap[1])
            + 75 * (v(w.maxc) + v(w.cc))
            + 25 * (v(w.mob) + v(self.wcap[2]))
            - 256 * v(b.maxc)
            - 200 * v(b.cc)
            - 125 * v(self.bcap[1])
            - 50 * v(b.maxc)
            - 25 * (v(p.maxc) + v(p.cc) + v(p.mob) + v(self.bcap[0]) + v(self.bcap[2]) + v(b.mob))
    }

    /// STRATGY as the KIM-1 binary computes it, one byte in three stages: (1) 0x80 plus WMOB,
    /// WMAXC, WCC, WCAP1, WCAP2, minus PMAXC, PCC, BCAP0, BCAP1, BCAP2, PMOB, BMOB, with the
    /// carries and borrows running on from one addition to the next, 0 when the last
    /// subtraction borrows; (2) halved, plus 0x40, WMAXC and WCC, minus BMAXC, halved again
    /// (both halvings drop the fraction); (3) plus 0x90, four times WCAP0, WCAP1, minus twice
    /// BMAXC, twice BCC and BCAP1, wrapping round. Returns the byte before the position bonus.
    pub fn stratgy_byte(&self) -> u8 {
        let (p, w, b) = (&self.prior, &self.cont, &self.reply);
        let (mut a, mut c) = (0x80u8, false);
        for v in [w.mob, w.maxc, w.cc, self.wcap[1], self.wcap[2]] {
            adc(&mut a, &mut c, v);
        }
        c = true;
        for v in [
            p.maxc,
            p.cc,
            self.bcap[0],
            self.bcap[1],
            self.bcap[2],
            p.mob,
            b.mob,
        ] {
            sbc(&mut a, &mut c, v);
        }
        if !c {
            a = 0;
        }
        a >>= 1;
        c = false;
        for v in [0x40, w.maxc, w.cc] {
            adc(&mut a, &mut c, v);
        }
        c = true;
        sbc(&mut a, &mut c, b.maxc);
        a >>= 1;
        c = false;
        for v in [
            0x90,
            self.wcap[0],
            self.wcap[0],
            self.wcap[0],
            self.wcap[0],
            self.wcap[1],
        ] {
            adc(&mut a, &mut c, v);
        }
        c = true;
        for v in [b.maxc, b.maxc, b.cc, b.cc, self.bcap[1]] {
            sbc(&mut a, &mut c, v);
        }
        a
    }

    /// CKMATE: a move that lets the opponent capture the king is worth 0 (the listing's test;
    /// its candidate moves are legal, so it never fires); a move after which the opponent has
    /// no move and the computer's best capture is the king, or none (the same byte 0), is mate.
    pub fn is_mate(&self) -> bool {
        self.reply.mob == 0 && self.cont.maxp == 0
    }
}

/// Which STRATGY a search uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Formula {
    /// The byte arithmetic of the 1976 KIM-1 binary (the default).
    #[default]
    Binary,
    /// The formula as the manual prints it, in exact hundredths ([`MoveCounts::stratgy`]).
    Printed,
}

/// One move the program valued.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Valued {
    /// The piece number.
    pub piece: u8,
    /// Its square before the move (the program's frame).
    pub from: McSquare,
    /// The target square (the program's frame).
    pub to: McSquare,
    /// The counts.
    pub counts: MoveCounts,
    /// The value PUSH compares: the byte (with the bonus, or 0xFF for mate), or with the printed
    /// formula the hundredths (with the bonus, `i32::MAX` for mate).
    pub value: i32,
}

/// What one GO computes: every legal move of the program in its order with its value, and the
/// one it keeps.
#[derive(Clone, Debug, Default)]
pub struct Analysis {
    /// The moves in the order the program values them.
    pub moves: Vec<Valued>,
    /// The index in `moves` of the first strictly best move, if any beat the start value.
    pub best: Option<usize>,
    /// Whether the program would resign (its best value stays below 15).
    pub resigns: bool,
    /// Whether a limit ended the analysis early.
    pub aborted: bool,
}

/// The listing's variables during one GO.
struct Work<'b, 'c, 'i> {
    prior: Counts,
    /// The candidate's own count (the listing's state 4); its MAXC is WCAP0.
    candidate: Counts,
    reply: Counts,
    cont: Counts,
    /// BCAP0, WCAP1, BCAP1, WCAP2, BCAP2: the best capture at each level of the tree.
    tree: [u8; 5],
    budget: Option<&'b mut Budget<'c, 'i>>,
    /// The tree of the analysis, when asked ([`search_tree`]).
    rec: Option<TreeRecorder>,
}

/// The moves MOVE makes in one GO, as a search tree: the candidates (ply 1), and below each
/// the captures of the capture tree that TREE makes (plies 2 to 5).
struct TreeRecorder {
    tree: SearchTree,
    /// The node of each ply on the path (the root at 0; [`NO_PARENT`] where the tree was full
    /// or a move could not be read on the real board).
    path: Vec<u32>,
    /// The position of each node on the path.
    positions: Vec<Position>,
    /// The program plays White.
    white: bool,
}

impl TreeRecorder {
    /// The move of `piece` to `to` made at ply `p` on `b` (the frame of the side that moves):
    /// its node.
    fn enter(&mut self, p: usize, b: &McBoard, piece: usize, to: McSquare) -> u32 {
        self.path.truncate(p);
        self.positions.truncate(p);
        let (parent, pos) = (self.path[p - 1], &self.positions[p - 1]);
        // Odd plies are the program's moves, in its frame.
        let white = self.white == (p % 2 == 1);
        let (f, t) = (real_square(b[piece], white), real_square(to, white));
        let made = (parent != NO_PARENT)
            .then(|| tree_move(pos, f, t))
            .flatten()
            .and_then(|m| {
                let i = self.tree.push(parent, m, false, 0)?;
                let mut next = pos.clone();
                next.play(m);
                Some((i, next))
            });
        let (i, next) = made.unwrap_or((NO_PARENT, pos.clone()));
        self.path.push(i);
        self.positions.push(next);
        i
    }
}

impl Work<'_, '_, '_> {
    /// TREE: a capture at `level` (0 = the opponent's reply) on board `b` (the capturing side
    /// first). Pawn and king captures are neither counted nor followed; the others are made and
    /// every further capture looked at, down to level 4.
    fn tree(&mut self, level: usize, b: &McBoard, piece: usize, to: McSquare, capture: bool) {
        if !capture {
            return;
        }
        let Some(y) = (1..8).rev().find(|&y| b[16 + y] == to) else {
            return;
        };
        self.tree[level] = self.tree[level].max(POINTS[y]);
        if level < 4 {
            if let Some(budget) = self.budget.as_deref_mut() {
                budget.nodes += 1;
            }
            if let Some(rec) = self.rec.as_mut() {
                rec.enter(level + 2, b, piece, to);
            }
            let mut after = *b;
            make(&mut after, piece, to);
            let r = reversed(&after);
            each_move(&r, false, &mut |p, t, c| self.tree(level + 1, &r, p, t, c));
        }
    }

    /// ON4 and STRATGY: the counts for the candidate `piece` to `to`.
    fn move_counts(&mut self, b: &McBoard, piece: usize, to: McSquare) -> MoveCounts {
        let wcap0 = self.candidate.maxc;
        self.tree = [0; 5];
        self.candidate = Counts::default();
        self.reply = Counts::default();
        self.cont = Counts::default();
        let mut after = *b;
        make(&mut after, piece, to);
        // The replies, legal ones, with the capture tree behind each capture.
        let r = reversed(&after);
        each_move(&r, true, &mut |p, t, c| {
            self.reply.count(&r, p, t, c);
            self.tree(0, &r, p, t, c);
        });
        // The continuation: every move again (pseudo-legal), except those of the piece the
        // opponent's best capture takes, unless that is the king.
        let skip = usize::from(self.reply.maxp);
        each_move(&after, false, &mut |p, t, c| {
            if p == 0 || p != skip {
                self.cont.count(&after, p, t, c);
            }
        });
        MoveCounts {
            prior: self.prior,
            cont: self.cont,
            reply: self.reply,
            wcap: [wcap0, self.tree[1], self.tree[3]],
            bcap: [self.tree[0], self.tree[2], self.tree[4]],
        }
    }
}

/// The bonus of 2: the move goes to one of four squares near the centre (0x33, 0x34, 0x22,
/// 0x25: e4, d4, f3, c3 for White; d5, e5, c6, f6 for Black), or a piece other than the king
/// leaves the program's back rank.
pub fn has_bonus(piece: u8, from: McSquare, to: McSquare) -> bool {
    matches!(to, 0x33 | 0x34 | 0x22 | 0x25) || (piece != 0 && from < 0x10)
}

/// GO without the book: values every legal move of the program (`b[0..16]`) as the listing
/// does and keeps the first strictly best.
pub fn analyse(b: &McBoard, formula: Formula) -> Analysis {
    analyse_with(b, formula, None, None).0
}

/// The moves of one GO on the game's position as a search tree, as the 1976 binary makes them
/// (MOVE, called by ON4 for each candidate and by TREE for each capture it follows): the
/// candidates at ply 1, each with the byte PUSH compares (side to move's view, 0xD0 as 0), and
/// below them the captures of the capture tree at plies 2 to 5 (TREE counts and values them
/// per level, not per move: they have no value). The root holds the best value (BESTV, which
/// starts at 12). `None` when the book answers or there is no legal move; at most `limit`
/// nodes.
pub fn search_tree(game: &Game, limit: usize) -> Option<SearchTree> {
    let pos = game.position();
    if pos.legal_moves().is_empty() || book_move(game).is_some() {
        return None;
    }
    let rec = TreeRecorder {
        tree: SearchTree::new(pos.clone(), limit),
        path: vec![0],
        positions: vec![pos.clone()],
        white: pos.side() == WHITE,
    };
    let (a, rec) = analyse_with(&program_board(game), Formula::Binary, None, Some(rec));
    let mut t = rec?.tree;
    let best = a.moves.iter().map(|v| v.value).max().unwrap_or(0);
    let root = best.max(i32::from(FIRST_BEST));
    t.set_value(0, (root - i32::from(NEUTRAL)) as i16, Some(root as u16));
    Some(t)
}

fn analyse_with(
    b: &McBoard,
    formula: Formula,
    budget: Option<&mut Budget>,
    rec: Option<TreeRecorder>,
) -> (Analysis, Option<TreeRecorder>) {
    let mut w = Work {
        prior: Counts::default(),
        candidate: Counts::default(),
        reply: Counts::default(),
        cont: Counts::default(),
        tree: [0; 5],
        budget,
        rec,
    };
    // The prior counts, pseudo-legal.
    let mut prior = Counts::default();
    each_move(b, false, &mut |p, t, c| prior.count(b, p, t, c));
    w.prior = prior;
    // The candidates: legal moves in the listing's order.
    let mut candidates = Vec::new();
    each_move(b, true, &mut |p, t, c| candidates.push((p, t, c)));
    let mut out = Analysis::default();
    let mut best_byte = FIRST_BEST;
    let mut best_printed: Option<i32> = None;
    for (piece, to, capture) in candidates {
        if let Some(budget) = w.budget.as_deref_mut() {
            if budget.tick() {
                out.aborted = true;
                break;
            }
        }
        w.candidate = Counts::default();
        w.candidate.count(b, piece, to, capture);
        let node = w.rec.as_mut().map(|r| r.enter(1, b, piece, to));
        let counts = w.move_counts(b, piece, to);
        let from = b[piece];
        let bonus = has_bonus(piece as u8, from, to);
        let value = match formula {
            Formula::Binary => {
                let v = if counts.reply.maxc == POINTS[0] {
                    0
                } else if counts.is_mate() {
                    MATE_VALUE
                } else {
                    counts
                        .stratgy_byte()
                        .wrapping_add(if bonus { 2 } else { 0 })
                };
                if v > best_byte {
                    best_byte = v;
                    out.best = Some(out.moves.len());
                }
                i32::from(v)
            }
            Formula::Printed => {
                let v = if counts.is_mate() {
                    i32::MAX
                } else {
                    counts.stratgy() + if bonus { 200 } else { 0 }
                };
                if best_printed.is_none_or(|bv| v > bv) {
                    best_printed = Some(v);
                    out.best = Some(out.moves.len());
                }
                v
            }
        };
        if let (Some(r), Some(i)) = (w.rec.as_mut(), node.filter(|&i| i != NO_PARENT)) {
            // PUSH's value is the program's (the mover's); the node's side to move is the
            // opponent.
            let v = (i32::from(NEUTRAL) - value) as i16;
            r.tree.set_value(i, v, Some(value as u16));
        }
        out.moves.push(Valued {
            piece: piece as u8,
            from,
            to,
            counts,
            value,
        });
        if let Some(budget) = w.budget.as_deref_mut() {
            budget.arm();
        }
    }
    out.resigns = formula == Formula::Binary && best_byte < RESIGN_BELOW;
    (out, w.rec)
}

/// The board at the start of a game, White's frame (table SETW).
pub fn start_board() -> McBoard {
    let mut b = [0u8; 32];
    for (i, &f) in HOME_FILES.iter().enumerate() {
        let rank = if i < 8 { 0 } else { 1 };
        b[i] = white_square(square::square(f, rank));
        b[16 + i] = white_square(square::square(f, 7 - rank));
    }
    b
}

/// Microchess's board for a position set up in it, White's frame, as Kempelen's adaptor
/// writes it (`adaptors/microchess-kim1.toml`, `[pieces]`): each side's pieces go to the numbers
/// of their kind (king, queen, two rooks, two bishops, two knights, eight pawns) in the order
/// of their squares from a1 to h8, unused numbers hold a captured piece. A piece beyond its
/// kind's numbers (a second queen) has no place on the program's board and is left out (the
/// adaptor refuses such a position).
pub fn board_of_position(pos: &Position) -> McBoard {
    const KINDS: [u8; 16] = [
        KING, QUEEN, ROOK, ROOK, BISHOP, BISHOP, KNIGHT, KNIGHT, PAWN, PAWN, PAWN, PAWN, PAWN,
        PAWN, PAWN, PAWN,
    ];
    let mut b = [CAPTURED; 32];
    for (side, colour) in [(0usize, WHITE), (16, piece::BLACK)] {
        let mut left: Vec<Square> = (0..128u8)
            .filter(|&sq| sq & 0x88 == 0)
            .filter(|&sq| {
                let p = pos.piece_at(sq);
                p != 0 && piece::colour(p) == colour
            })
            .collect();
        for (n, &kind) in KINDS.iter().enumerate() {
            if let Some(i) = left
                .iter()
                .position(|&sq| piece::piece_type(pos.piece_at(sq)) == kind)
            {
                b[side + n] = white_square(left.remove(i));
            }
        }
    }
    b
}

/// Whether Kempelen's adaptor gives the opponent's move `m` (in `before`) to Microchess by
/// setting up the position after it instead of typing it: a capture en passant (typed, it
/// would leave the captured pawn on the program's board) and a promotion (typed, the pawn
/// would stay a pawn); `en_passant = false` and the move keys without a promotion in the
/// adaptor file.
pub fn given_by_set_up(before: &Position, m: Move) -> bool {
    before.is_en_passant(m) || m.promotion() != 0
}

/// Microchess's board after the game's moves, White's frame, as the program playing the side
/// to move keeps it when Kempelen's adaptor gives it the game: a game from another position
/// than the start is set up in it ([`board_of_position`]); its own moves move one piece (its
/// book's castling moves only the king); the opponent's moves are typed as from and to square,
/// so a piece moves and whatever stands on the target is taken, and castling is typed as the
/// king's move and then the rook's; a capture en passant and a promotion of the opponent's
/// are given by setting up the position after them ([`given_by_set_up`]). A move from a square
/// where the program has no piece only takes what stands on the target.
pub fn board_of_game(game: &Game) -> McBoard {
    let mut b = if game.start() == &Position::startpos() {
        start_board()
    } else {
        board_of_position(game.start())
    };
    let program = game.position().side();
    let mut pos = game.start().clone();
    for &m in game.moves() {
        let own = pos.side() == program;
        if !own && given_by_set_up(&pos, m) {
            pos.play(m);
            b = board_of_position(&pos);
            continue;
        }
        typed_move(&mut b, m.from(), m.to());
        if !own && pos.is_castling(m) {
            let rank = square::rank(m.from());
            let (rf, rt) = if square::file(m.to()) == 6 {
                (7, 5)
            } else {
                (0, 3)
            };
            typed_move(&mut b, square::square(rf, rank), square::square(rt, rank));
        }
        pos.play(m);
    }
    b
}

/// Whether the program was set up during the game (an opponent's move given by set-up, see
/// [`board_of_game`]): its book is then off (the set-up clears its book pointer).
fn set_up_during(game: &Game) -> bool {
    let program = game.position().side();
    let mut pos = game.start().clone();
    game.moves().iter().any(|&m| {
        let set_up = pos.side() != program && given_by_set_up(&pos, m);
        pos.play(m);
        set_up
    })
}

/// A move typed or played on Microchess's board (White's frame).
fn typed_move(b: &mut McBoard, from: Square, to: Square) {
    let (from, to) = (white_square(from), white_square(to));
    match (0..32).rev().find(|&x| b[x] == from) {
        Some(x) => make(b, x, to),
        None => {
            if let Some(x) = (0..32).rev().find(|&x| b[x] == to) {
                b[x] = CAPTURED;
            }
        }
    }
}

/// The board as the program playing the side to move sees it: its own pieces first, in its
/// frame (as Black, after the E command, the board turned round).
pub fn program_board(game: &Game) -> McBoard {
    let b = board_of_game(game);
    if game.position().side() == WHITE {
        b
    } else {
        reversed(&b)
    }
}

/// Kempelen's square of a square in the program's frame.
pub fn real_square(sq: McSquare, white: bool) -> Square {
    from_white_square(if white { sq } else { 0x77 - sq })
}

/// The legal move of `pos` that the program's move (from, to in its frame) makes on the real
/// board, a pawn reaching the last rank becoming a queen.
fn real_move(pos: &Position, from: McSquare, to: McSquare) -> Option<Move> {
    let white = pos.side() == WHITE;
    let (f, t) = (real_square(from, white), real_square(to, white));
    let last = if white { 7 } else { 0 };
    let promotion = if piece::piece_type(pos.piece_at(f)) == PAWN && square::rank(t) == last {
        QUEEN
    } else {
        0
    };
    pos.find_move(f, t, promotion)
}

/// The book move for the game as the program makes it (from and to square on its board):
/// Microchess plays White from the start, and every move of Black's so far reached the square
/// the book expects (any piece may have gone there).
pub fn book_squares(game: &Game) -> Option<(McSquare, McSquare)> {
    let played = game.moves();
    if game.start() != &Position::startpos()
        || game.position().side() != WHITE
        || played.len() / 2 >= OPENING.len()
        || set_up_during(game)
    {
        return None;
    }
    let k = played.len() / 2;
    for i in 1..=k {
        let black = played[2 * i - 1];
        if white_square(black.to()) != OPENING[i].0 {
            return None;
        }
    }
    let (_, piece, to) = OPENING[k];
    Some((board_of_game(game)[usize::from(piece)], to))
}

/// The book move for the game (see [`book_squares`]), when it is legal on the real board.
pub fn book_move(game: &Game) -> Option<Move> {
    let (from, to) = book_squares(game)?;
    real_move(game.position(), from, to)
}

/// All the counts for the computer's move `m` in `pos` (the side to move is the computer),
/// on the board [`board_of_position`] gives the position.
pub fn counts_for_move(pos: &Position, m: Move) -> Option<MoveCounts> {
    valued(pos, m, Formula::Binary).map(|v| v.counts)
}

/// The value Microchess gives the move `m` in `pos` with `formula` (see [`Valued::value`]).
pub fn value_of(pos: &Position, m: Move, formula: Formula) -> Option<i32> {
    valued(pos, m, formula).map(|v| v.value)
}

fn valued(pos: &Position, m: Move, formula: Formula) -> Option<Valued> {
    let game = Game::new(pos.clone());
    let b = program_board(&game);
    let white = pos.side() == WHITE;
    analyse(&b, formula)
        .moves
        .into_iter()
        .find(|v| real_square(v.from, white) == m.from() && real_square(v.to, white) == m.to())
}

/// Centipawns of a value: one unit of the final byte is a quarter of a point, a pawn is 2
/// points, so 12.5 cp a unit, counted from [`NEUTRAL`].
pub fn value_to_cp(v: i32, formula: Formula) -> i32 {
    match formula {
        Formula::Binary if v == i32::from(MATE_VALUE) => MATE - 1,
        Formula::Binary => (v - i32::from(NEUTRAL)) * 25 / 2,
        Formula::Printed if v == i32::MAX => MATE - 1,
        Formula::Printed => v / 2,
    }
}

/// What the program does in the game's position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// It moves the piece on `from` to `to` (Kempelen's squares). The move can be one the
    /// real board does not allow, when the program's board differs from it (see
    /// [`board_of_game`]).
    Moves {
        /// The square the piece stands on, on the program's board.
        from: Square,
        /// The target square.
        to: Square,
    },
    /// Its best value stays below 15: it shows FF FF FF and gives up.
    Resigns,
}

/// What the 1976 program does in the game's position: its book move, or the first strictly
/// best move of GO, or resigning.
pub fn decision(game: &Game) -> Decision {
    let white = game.position().side() == WHITE;
    if let Some((from, to)) = book_squares(game) {
        return Decision::Moves {
            from: from_white_square(from),
            to: from_white_square(to),
        };
    }
    let a = analyse(&program_board(game), Formula::Binary);
    match a.best {
        Some(i) if !a.resigns => Decision::Moves {
            from: real_square(a.moves[i].from, white),
            to: real_square(a.moves[i].to, white),
        },
        _ => Decision::Resigns,
    }
}

/// The `microchess` profile (depth limits do not change its one fixed look; node and time
/// limits end it early with the best move valued so far).
pub(crate) fn search(game: &Game, budget: &mut Budget, formula: Formula) -> SearchResult {
    let pos = game.position();
    if let Some(m) = book_move(game).filter(|&m| budget.allows(m)) {
        let r = budget.result(1, 0, vec![m]);
        budget.report(1, 1, 0, &r.pv);
        return r;
    }
    let b = program_board(game);
    let a = analyse_with(&b, formula, Some(budget), None).0;
    // The program's choice, if it is a legal move on the real board; else the best valued
    // move that is (the real program's board can differ from the game's, see board_of_game);
    // else Kempelen's first legal move.
    let mut order: Vec<usize> = a.best.into_iter().collect();
    let mut rest: Vec<usize> = (0..a.moves.len()).filter(|&i| Some(i) != a.best).collect();
    rest.sort_by_key(|&i| std::cmp::Reverse(a.moves[i].value));
    order.extend(rest);
    // With `searchmoves`, the best valued of those moves.
    let chosen = order.iter().find_map(|&i| {
        let v = &a.moves[i];
        real_move(pos, v.from, v.to)
            .filter(|&m| budget.allows(m))
            .map(|m| (m, value_to_cp(v.value, formula)))
    });
    // Without `searchmoves`, Kempelen's first legal move when none of the program's can be
    // played; with them, no move (the program chose none of them, see NativeEngine).
    let Some((m, score)) = chosen.or_else(|| {
        let legal = pos.legal_moves();
        legal
            .iter()
            .find(|&&m| budget.allows(m) && !budget.restricted())
            .map(|&m| (m, 0))
    }) else {
        return SearchResult::default();
    };
    let r = budget.result(1, score, vec![m]);
    budget.report(1, 1, score, &r.pv);
    r
}
