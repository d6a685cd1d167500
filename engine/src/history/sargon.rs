//! `sargon`: Dan and Kathe Spracklen's Sargon (1978) as their book describes and lists it.
//!
//! - FNDMOV: a full-width, depth-first alpha-beta search to a fixed number of plies, with
//!   scores kept as single bytes (neutral = 0x80) in a table of one entry per ply, and one
//!   more ply for a move that gives check at the last ply;
//! - SORTM / EVAL: at every ply above the last, each move is made, scored by POINTS and the
//!   list sorted best first;
//! - POINTS: material (in half pawns, predominant), adjusted by XCHNG for exchanges still
//!   hanging, plus board control (attackers counted on every square) and development, both
//!   measured against the root position and truncated by LIMIT (material to +-30 half pawns,
//!   board control to +-6);
//! - XCHNG: the exchange on one square from the lists of attackers and defenders that ATTACK
//!   collects (x-rays through own pieces on the same line included);
//! - PINFND: pieces pinned against a king or a queen, which then count as attackers only
//!   along the pin;
//! - BOOK: a one-move opening book.
//!
//! The arithmetic is the listing's, byte for byte (wrapping 8-bit values). The moves come in
//! GENMOV's order; Kempelen's legal move generator says which are legal (Sargon promotes to a
//! queen only, so under-promotions are left out). POSQ, where the program believes the queens
//! stand, is kept as MOVE and UNMOVE keep it, through the search and through the game. See
//! `docs/history/sargon.md` for every place where Kempelen had to choose.

use super::Budget;
use crate::engine::{Limits, MATE, SearchControl, SearchInfo, SearchResult};
use crate::game::Game;
use crate::moves::{Move, MoveList};
use crate::piece::{self, BISHOP, BLACK, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE};
use crate::position::Position;
use crate::square::Square;
use crate::tree::searched::{Cut, NO_PARENT, SearchTree};

/// Deepest look-ahead Kempelen accepts (the original stops at 6 for want of memory).
pub const MAX_DEPTH: u32 = 20;
/// Board array value of a border square.
const BORDER: u8 = 0xFF;
/// Colour bit of a board byte (set for Black).
const SBLACK: u8 = 0x80;
/// "Piece has moved" flag of a board byte.
const MOVED: u8 = 0x08;
/// "King has castled" flag of a board byte.
const CASTLED: u8 = 0x10;
/// Piece values by type (the PVALUE table): pawn 1, knight 3, bishop 3, rook 5, queen 9,
/// king 10.
pub const PVALUE: [u8; 7] = [0, 1, 3, 3, 5, 9, 10];
/// Scan directions on the 10-wide board (the DIRECT table): four diagonals, four lines,
/// eight knight jumps.
const DIRECT: [i8; 16] = [
    9, 11, -11, -9, 10, -10, 1, -1, -21, -12, 8, 19, 21, 12, -8, -19,
];
/// LIMIT for the material change (half pawns).
pub const MATERIAL_LIMIT: u8 = 30;
/// LIMIT for the board-control change.
pub const CONTROL_LIMIT: u8 = 6;
/// Score of a checkmated position (from the mated side's opponent's view) and of stalemate.
pub const MATE_SCORE: u8 = 0xFF;
/// Neutral score.
pub const NEUTRAL: u8 = 0x80;

/// Sargon's board: 120 bytes, ten per rank with a border of 0xFF, a1 = 21, h8 = 98. A piece
/// byte is `type | 0x80 for Black | 0x08 moved | 0x10 castled (kings)`.
pub type Board = [u8; 120];

/// Board index of a 0x88 square.
pub fn index(sq: Square) -> usize {
    21 + (sq >> 4) as usize * 10 + (sq & 7) as usize
}

/// The board of a game's current position: pieces from the start position marked as moved when
/// they are off their home squares (or their castling right is gone), then every game move
/// replayed so that the moved and castled flags follow the game.
pub fn board_of_game(game: &Game) -> Board {
    let mut pos = game.start().clone();
    let mut board = initial_board(&pos);
    for &m in game.moves() {
        make_on_board(&mut board, &pos, m);
        pos.play(m);
    }
    board
}

/// The board of a position without history (see [`board_of_game`]).
pub fn initial_board(pos: &Position) -> Board {
    let mut b = [BORDER; 120];
    for r in 0..8u8 {
        for f in 0..8u8 {
            let sq = (r << 4) | f;
            let p = pos.piece_at(sq);
            let ix = index(sq);
            if p == 0 {
                b[ix] = 0;
                continue;
            }
            let t = piece::piece_type(p);
            let black = piece::colour(p) == BLACK;
            let home_rank = if black { 7 } else { 0 };
            let rights = pos.castling() >> if black { 2 } else { 0 };
            let unmoved = match t {
                PAWN => r == if black { 6 } else { 1 },
                KNIGHT => r == home_rank && (f == 1 || f == 6),
                BISHOP => r == home_rank && (f == 2 || f == 5),
                QUEEN => r == home_rank && f == 3,
                ROOK => {
                    r == home_rank && ((f == 0 && rights & 2 != 0) || (f == 7 && rights & 1 != 0))
                }
                _ => r == home_rank && f == 4 && rights & 3 != 0,
            };
            let mut byte = t | if black { SBLACK } else { 0 };
            if !unmoved {
                byte |= MOVED;
            }
            if t == KING && r == home_rank && rights & 3 == 0 {
                let rook = ROOK | if black { BLACK } else { WHITE };
                if (f == 6 && pos.piece_at((r << 4) | 5) == rook)
                    || (f == 2 && pos.piece_at((r << 4) | 3) == rook)
                {
                    byte |= CASTLED;
                }
            }
            b[ix] = byte;
        }
    }
    b
}

/// Plays a legal move of `pos` on the board (the MOVE routine): the piece gets the moved
/// flag, a castling king the castled flag, a promoted pawn its new type.
pub fn make_on_board(b: &mut Board, pos: &Position, m: Move) {
    let from = index(m.from());
    let to = index(m.to());
    let p = b[from];
    if pos.is_en_passant(m) {
        let captured = if pos.side() == WHITE {
            to - 10
        } else {
            to + 10
        };
        b[captured] = 0;
    }
    let mut moved = p | MOVED;
    if pos.is_castling(m) {
        moved |= CASTLED;
        let (rf, rt) = if to > from {
            (from + 3, from + 1)
        } else {
            (from - 4, from - 1)
        };
        b[rt] = b[rf] | MOVED;
        b[rf] = 0;
    }
    if m.promotion() != 0 {
        moved = (moved & !7) | m.promotion();
    }
    b[to] = moved;
    b[from] = 0;
}

/// The attack list that ATTACK builds for one square: byte 0 White's count, bytes 1-6 White's
/// attackers by type (two values a byte, low half first), byte 7 Black's count, bytes 8-13
/// Black's attackers. A piece found behind a queen on the same line goes into the queen's
/// slot.
pub type AttackList = [u8; 14];

/// A pinned piece: its board index and the direction from the royal piece to it.
pub type Pin = (usize, i8);

/// ATTACK for POINTS: every attacker and defender of square `sq`, whose occupant (0 if empty)
/// is `p1`, with x-rays through pieces of one colour on the same line. Pinned pieces count
/// only along their pin.
pub fn attack_list(b: &Board, sq: usize, pins: &[Pin]) -> AttackList {
    let mut list = [0u8; 14];
    let p1 = b[sq];
    for (i, &dir) in DIRECT.iter().enumerate() {
        let counter = 16 - i; // the listing's direction counter B
        let knight_scan = counter < 9;
        let mut at = sq as isize;
        let (mut count, mut same, mut opposite, mut queen) = (0, false, false, false);
        loop {
            count += 1;
            at += dir as isize;
            let p2 = b[at as usize];
            if p2 == BORDER {
                break;
            }
            if p2 == 0 {
                if knight_scan {
                    break;
                }
                continue;
            }
            if (p2 ^ p1) & SBLACK != 0 {
                if same {
                    break;
                }
                opposite = true;
            } else {
                if opposite {
                    break;
                }
                same = true;
            }
            let t2 = p2 & 7;
            let attacks = if knight_scan {
                t2 == KNIGHT
            } else if t2 == QUEEN {
                queen = true;
                true
            } else if count == 1 && t2 == KING {
                true
            } else if counter >= 13 {
                // Diagonals: a bishop, or a pawn on the first square of a diagonal it takes on.
                t2 == BISHOP
                    || (count == 1
                        && t2 == PAWN
                        && if p2 & SBLACK != 0 {
                            counter >= 15
                        } else {
                            counter < 15
                        })
            } else {
                t2 == ROOK
            };
            if !attacks {
                break;
            }
            if pin_allows(at as usize, dir, pins) {
                // ATKSAV picks the queen's slot when bit 7 of register D is set. D holds the
                // scan's flags (bit 7: a queen was passed), but when the pin list is not
                // empty, PNCK has just loaded D with the direction of the scan: then every
                // attacker found in a negative direction goes into the queen's slot and the
                // queen flag is lost.
                let queen_slot = if pins.is_empty() { queen } else { dir < 0 };
                save_attacker(&mut list, p2, if queen_slot { QUEEN } else { t2 });
            }
            if t2 == KING || t2 == KNIGHT {
                break;
            }
        }
    }
    list
}

/// PNCK: whether a piece on `at` may attack along `dir`: not pinned, or pinned once along the
/// same line.
fn pin_allows(at: usize, dir: i8, pins: &[Pin]) -> bool {
    let mut found = pins.iter().filter(|p| p.0 == at);
    match (found.next(), found.next()) {
        (None, _) => true,
        (Some(&(_, d)), None) => d == dir || d == -dir,
        _ => false,
    }
}

/// ATKSAV: counts the attacker and stores its value in its slot (two values a byte).
fn save_attacker(list: &mut AttackList, p2: u8, slot_type: u8) {
    let base = if p2 & SBLACK != 0 { 7 } else { 0 };
    list[base] = list[base].wrapping_add(1);
    let mut slot = base + slot_type as usize;
    let value = PVALUE[(p2 & 7) as usize];
    let byte = list[slot];
    if byte & 0x0F != 0 && byte & 0xF0 == 0 {
        list[slot] = (value << 4) | byte;
        return;
    }
    if byte & 0x0F != 0 {
        slot += 1; // both halves full: the next slot
    }
    if slot < list.len() {
        list[slot] = (list[slot] << 4) | value;
    }
}

/// The attack list as XCHNG walks it: each side's pointer and count, whose turn it is, and how
/// often NEXTAD was called (its parity says whose capture a value is).
struct Exchange {
    list: AttackList,
    ptr: [usize; 2],
    count: [u8; 2],
    cur: usize,
    calls: u8,
}

impl Exchange {
    /// NEXTAD: the next attacker or defender, alternating sides, doubled.
    fn next(&mut self) -> Option<u8> {
        self.calls = self.calls.wrapping_add(1);
        self.cur ^= 1;
        let side = self.cur;
        if self.count[side] == 0 {
            return None;
        }
        self.count[side] -= 1;
        let end = if self.ptr[side] < 7 { 7 } else { 14 };
        let mut p = self.ptr[side];
        loop {
            p += 1;
            if p >= end {
                return None;
            }
            if self.list[p] != 0 {
                break;
            }
        }
        let v = self.list[p] & 0x0F;
        self.list[p] >>= 4;
        self.ptr[side] = p - 1;
        Some(v.wrapping_add(v))
    }

    /// `v` as the owner counts it: negated after an odd number of NEXTAD calls.
    fn signed(&self, v: u8) -> u8 {
        if self.calls & 1 != 0 {
            v.wrapping_neg()
        } else {
            v
        }
    }

    /// XC15: the capture of `b` gains less than the capturer (`attacker`) is worth, so the
    /// exchange is looked at further: the points lost `e` stand when a defender is worth less
    /// than the next attacker or a side runs out; when the last attacker is not answered
    /// (XC18), `b` is counted too.
    fn look_further(&mut self, defender: u8, attacker: u8, b: u8, e: u8) -> u8 {
        let mut def = defender;
        let mut att = attacker;
        loop {
            if def < att {
                return e;
            }
            let Some(na) = self.next() else {
                return e;
            };
            att = na;
            match self.next() {
                Some(nd) => def = nd,
                None => break,
            }
        }
        e.wrapping_add(self.signed(b))
    }
}

/// XCHNG: the points (in half pawns) the owner of the piece `p1` on a square would lose in the
/// exchange there, with the attack list of that square. Returns `(points lost, value of the
/// piece doubled)`.
pub fn exchange(list: &AttackList, p1: u8) -> (u8, u8) {
    let black = p1 & SBLACK != 0;
    let (own, opp) = if black { (7, 0) } else { (0, 7) };
    // Side 0 is the owner's list, side 1 the opponent's; the first call takes side 1.
    let mut l = Exchange {
        list: *list,
        ptr: [own, opp],
        count: [list[own], list[opp]],
        cur: 0,
        calls: 0,
    };
    let d = PVALUE[(p1 & 7) as usize].wrapping_mul(2);
    let mut b = d;
    let mut e: u8 = 0;
    let Some(mut a) = l.next() else {
        return (0, d);
    };
    loop {
        // XC10: `a` is the next piece to capture on the square, `b` the piece standing there.
        let attacker = a;
        let (saved, value) = match l.next() {
            None => (None, b),
            Some(defender) if b >= attacker => (Some(defender), b),
            Some(defender) => return (l.look_further(defender, attacker, b, e), d),
        };
        // XC19: the capture happens.
        e = e.wrapping_add(l.signed(value));
        match saved {
            None => return (e, d),
            Some(next) => {
                b = attacker;
                a = next;
            }
        }
    }
}

/// POSQ: where the program believes each side's queen stands (board index, 0 for none),
/// White's first. PINFND starts from the kings and these squares. MOVE and UNMOVE keep them:
/// a queen's move sets its square, the capture of a queen sets 0, and UNMOVE writes back the
/// queen's square before the move, or the square a queen was captured on. A promoted pawn
/// becomes a queen without entering POSQ, so after a search that tried a promotion and the
/// capture of the new queen, POSQ names the square of that capture, whatever stands there.
pub type Queens = [usize; 2];

/// ROYALT's queens: the last queen of each colour on the board counted from a1 (0 for none),
/// as the program sets POSQ after a position is set up.
pub fn queens_on_board(b: &Board) -> Queens {
    let mut q = [0usize; 2];
    for (ix, &p) in b.iter().enumerate().take(99).skip(21) {
        if p != BORDER && p & 7 == QUEEN {
            q[(p >> 7) as usize] = ix;
        }
    }
    q
}

/// POSQ at the start of a game: d1 and d8 (INITBD).
pub const QUEENS_AT_START: Queens = [24, 94];

/// MOVE's change to POSQ for the move `from`-`to` on board `b` (before the move).
fn queens_after_move(q: &mut Queens, b: &Board, from: usize, to: usize, promotion: bool) {
    let (moved, captured) = (b[from], b[to]);
    if !promotion && moved & 7 == QUEEN {
        q[(moved >> 7) as usize] = to;
    }
    if captured != 0 && captured & 7 == QUEEN {
        q[(captured >> 7) as usize] = 0;
    }
}

/// UNMOVE's change to POSQ when the move `from`-`to` is taken back (`b`: the board before
/// the move).
fn queens_after_unmove(q: &mut Queens, b: &Board, from: usize, to: usize, promotion: bool) {
    let (moved, captured) = (b[from], b[to]);
    if !promotion && moved & 7 == QUEEN {
        q[(moved >> 7) as usize] = from;
    }
    if captured != 0 && captured & 7 == QUEEN {
        q[(captured >> 7) as usize] = to;
    }
}

/// The royal pieces PINFND starts from: white king, black king, and POSQ.
fn royals(pos: &Position, q: Queens) -> [usize; 4] {
    [
        index(pos.king_square(WHITE)),
        index(pos.king_square(BLACK)),
        q[0],
        q[1],
    ]
}

/// PINFND: the pieces pinned against a king or a queen, both colours. A piece pinned against a
/// queen by a queen counts only when the pinned-against queen has no more defenders than
/// attackers.
pub fn find_pins(b: &Board, royal: [usize; 4]) -> Vec<Pin> {
    let mut pins: Vec<Pin> = Vec::new();
    for &r in royal.iter() {
        if r == 0 {
            continue;
        }
        let p1 = b[r];
        for (i, &dir) in DIRECT[..8].iter().enumerate() {
            let diagonal = i < 4;
            let mut at = r as isize;
            let mut candidate = 0usize;
            loop {
                at += dir as isize;
                let p = b[at as usize];
                if p == 0 {
                    continue;
                }
                if p == BORDER {
                    break;
                }
                if (p ^ p1) & SBLACK == 0 {
                    if candidate != 0 {
                        break;
                    }
                    candidate = at as usize;
                    continue;
                }
                if candidate == 0 {
                    break;
                }
                let t = p & 7;
                let pinner = if t == QUEEN {
                    if p1 & 7 == QUEEN {
                        let list = attack_list(b, r, &pins);
                        let (own, opp) = if p1 & SBLACK != 0 { (7, 0) } else { (0, 7) };
                        (list[own].wrapping_sub(list[opp]).wrapping_sub(1) as i8) < 0
                    } else {
                        true
                    }
                } else if diagonal {
                    t == BISHOP
                } else {
                    t == ROOK
                };
                if pinner {
                    pins.push((candidate, dir));
                }
                break;
            }
        }
    }
    pins
}

/// LIMIT: `value` (a signed byte) truncated to `-limit..=limit`.
pub fn limit(value: u8, limit: u8) -> u8 {
    let v = value as i8;
    v.clamp(-(limit as i8), limit as i8) as u8
}

/// What POINTS computes for one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Points {
    /// The score of the move just made, 0x80 neutral, from the view of the side now to move
    /// (lower is better for the side that moved).
    pub valm: u8,
    /// Material, White minus Black, in half pawns, each threatened piece half a pawn less.
    pub material: i8,
    /// Board control plus development, White minus Black.
    pub control: i8,
    /// Most points the side that moved may lose in an exchange.
    pub lost: u8,
    /// The two largest gains the side that moved threatens.
    pub won: [u8; 2],
    /// Whether the piece that moved is the one most at risk.
    pub moved_piece_lost: bool,
}

/// What POINTS needs besides the board: who just moved, where the last move went (0 at the
/// root), the move number (early queen and rook moves cost before move 7) and the root's
/// material and board control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PointsContext {
    /// Colour bit of the side that just moved (0 white, 8 black).
    pub mover: u8,
    /// Board index of the last move's destination, 0 if none.
    pub moved_to: usize,
    /// Move number (MOVENO).
    pub move_number: u16,
    /// Material at the root (MV0).
    pub root_material: u8,
    /// Board control at the root (BC0).
    pub root_control: u8,
}

/// POINTS: the static evaluation.
pub fn points(b: &Board, pins: &[Pin], ctx: &PointsContext) -> Points {
    let mut mtrl: u8 = 0;
    let mut brdc: u8 = 0;
    let (mut ptsl, mut ptsw1, mut ptsw2) = (0u8, 0u8, 0u8);
    let mut ptsck = 0usize;
    let mover_black = ctx.mover == BLACK;
    for sq in 21..99 {
        let p1 = b[sq];
        if p1 == BORDER {
            continue;
        }
        let t = p1 & 7;
        let black = p1 & SBLACK != 0;
        let penalty: u8 = if black { 2 } else { (-2i8) as u8 };
        match t {
            KNIGHT | BISHOP if p1 & MOVED == 0 => brdc = brdc.wrapping_add(penalty),
            KING if p1 & CASTLED != 0 => {
                brdc = brdc.wrapping_add(if black { (-6i8) as u8 } else { 6 })
            }
            KING if p1 & MOVED != 0 => brdc = brdc.wrapping_add(penalty),
            ROOK | QUEEN if ctx.move_number < 7 && p1 & MOVED != 0 => {
                brdc = brdc.wrapping_add(penalty)
            }
            _ => {}
        }
        let list = attack_list(b, sq, pins);
        brdc = brdc.wrapping_add(list[0].wrapping_sub(list[7]));
        if p1 == 0 {
            continue;
        }
        let (e, mut d) = exchange(&list, p1);
        if e != 0 {
            d = d.wrapping_sub(1);
            if black == mover_black {
                if e >= ptsl {
                    ptsl = e;
                    if sq == ctx.moved_to {
                        ptsck = sq;
                    }
                }
            } else {
                let mut a = e;
                if e >= ptsw1 {
                    a = ptsw1;
                    ptsw1 = e;
                }
                if a >= ptsw2 {
                    ptsw2 = a;
                }
            }
        }
        mtrl = if black {
            mtrl.wrapping_sub(d)
        } else {
            mtrl.wrapping_add(d)
        };
    }
    let (won, lost) = ([ptsw1, ptsw2], ptsl);
    if ptsck != 0 {
        ptsw1 = ptsw2;
        ptsw2 = 0;
    }
    let loss = if ptsl == 0 { 0 } else { ptsl - 1 };
    let gain = if ptsw1 == 0 || ptsw2 == 0 {
        0
    } else {
        (ptsw2 - 1) >> 1
    };
    let mut a = gain.wrapping_sub(loss);
    if mover_black {
        a = a.wrapping_neg();
    }
    let a = a.wrapping_add(mtrl).wrapping_sub(ctx.root_material);
    let material = limit(a, MATERIAL_LIMIT);
    let control_change = if ptsck != 0 {
        0
    } else {
        brdc.wrapping_sub(ctx.root_control)
    };
    let control = limit(control_change, CONTROL_LIMIT);
    let mut score = material.wrapping_mul(4).wrapping_add(control);
    if !mover_black {
        score = score.wrapping_neg();
    }
    Points {
        valm: score.wrapping_add(NEUTRAL),
        material: mtrl as i8,
        control: brdc as i8,
        lost,
        won,
        moved_piece_lost: ptsck != 0,
    }
}

/// POINTS of a position as the root sees it (ply 0): material and board control only, POSQ
/// as ROYALT sets it.
pub fn root_points(b: &Board, pos: &Position) -> Points {
    root_points_with(b, pos, queens_on_board(b))
}

/// POINTS at ply 0 with POSQ `q`.
fn root_points_with(b: &Board, pos: &Position, q: Queens) -> Points {
    let pins = find_pins(b, royals(pos, q));
    points(
        b,
        &pins,
        &PointsContext {
            mover: pos.side(),
            moved_to: 0,
            move_number: pos.fullmove_number(),
            root_material: 0,
            root_control: 0,
        },
    )
}

/// BOOK: Sargon's one-move opening book. As White in the start position, 1. e4 or 1. d4 at
/// random (`coin` picks); as Black after any first move, 1... e5 after a pawn move on the
/// a-, b-, c- or e-file, otherwise 1... d5.
pub fn book_move(pos: &Position, coin: bool) -> Option<Move> {
    let start = Position::startpos();
    if pos.fullmove_number() != 1 {
        return None;
    }
    let find = |text: &str| pos.parse_uci(text).ok();
    if pos.side() == WHITE {
        if *pos != start {
            return None;
        }
        return find(if coin { "d2d4" } else { "e2e4" });
    }
    // Which first move led here?
    let first = start.legal_moves().iter().copied().find(|&m| {
        let mut p = start.clone();
        p.play(m);
        p.board() == pos.board() && p.castling() == pos.castling()
    })?;
    let from = first.from();
    let is_pawn = start.piece_at(from) == PAWN;
    let file = from & 7;
    if is_pawn && (file <= 2 || file == 4) {
        find("e7e5")
    } else {
        find("d7d5")
    }
}

/// Moves Sargon considers, in the order GENMOV generates them: the board scanned from a1 to h8
/// (index 21 to 98), each piece of the side to move by the directions of its DPOINT/DCOUNT
/// entry in the DIRECT table (a pawn: ahead, two ahead while it has not moved, the capture
/// to the right of it as seen from White, then to the left, en passant in place of a capture
/// onto an empty square; a king: its eight steps, then castling king's side, then queen's
/// side), keeping those that are legal in `pos` (Sargon tests the king's safety after making
/// each move). Promotions are to a queen only.
pub fn sargon_moves(b: &Board, pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    for (m, legal) in generated_moves(b, pos) {
        if legal {
            list.push(m);
        }
    }
    list
}

/// GENMOV's moves in its order (see [`sargon_moves`]), each with whether it is legal: the
/// program makes and takes back the illegal ones too (EVAL, and FNDMOV at the last ply), which
/// can change POSQ.
fn generated_moves(b: &Board, pos: &Position) -> Vec<(Move, bool)> {
    let legal = pos.legal_moves();
    let mut list = Vec::new();
    let side = if pos.side() == WHITE { 0 } else { SBLACK };
    let entry = |from: usize, to: usize| {
        let (f, t) = (square_of(from), square_of(to));
        let last = if side == 0 { 7 } else { 0 };
        let promotion = if b[from] & 7 == PAWN && crate::square::rank(t) == last {
            QUEEN
        } else {
            0
        };
        let m = Move::new(f, t, promotion);
        (m, legal.contains(m))
    };
    for from in 21..99usize {
        let p = b[from];
        if p == 0 || p == BORDER || p & SBLACK != side {
            continue;
        }
        let at = |ix: isize| b[ix as usize];
        let opponent = |q: u8| q != 0 && q != BORDER && q & SBLACK != side;
        let f = from as isize;
        match p & 7 {
            PAWN => {
                let ahead: isize = if side == 0 { 10 } else { -10 };
                let one = f + ahead;
                if at(one) == 0 {
                    list.push(entry(from, one as usize));
                    let two = one + ahead;
                    if p & MOVED == 0 && at(two) == 0 {
                        list.push(entry(from, two as usize));
                    }
                }
                // DIRECT's pawn captures: +11, +9 for White, -11, -9 for Black.
                for d in [ahead + ahead.signum(), ahead - ahead.signum()] {
                    let to = f + d;
                    if opponent(at(to))
                        || (at(to) == 0 && pos.ep_square() == square_of(to as usize))
                    {
                        list.push(entry(from, to as usize));
                    }
                }
            }
            t => {
                let (dirs, slide): (&[i8], bool) = match t {
                    KNIGHT => (&DIRECT[8..16], false),
                    BISHOP => (&DIRECT[0..4], true),
                    ROOK => (&DIRECT[4..8], true),
                    QUEEN => (&DIRECT[0..8], true),
                    _ => (&DIRECT[0..8], false),
                };
                for &d in dirs {
                    let mut to = f;
                    loop {
                        to += d as isize;
                        let q = at(to);
                        if q == BORDER || (q != 0 && !opponent(q)) {
                            break;
                        }
                        list.push(entry(from, to as usize));
                        if q != 0 || !slide {
                            break;
                        }
                    }
                }
                if t == KING {
                    // CASTLE: king's side first (the king two squares towards the rook).
                    // CASTLE tests the squares itself: only legal castling is made.
                    for to in [f + 2, f - 2] {
                        if at(to) != BORDER {
                            let (m, legal) = entry(from, to as usize);
                            if legal {
                                list.push((m, true));
                            }
                        }
                    }
                }
            }
        }
    }
    list
}

/// The square of a board index.
fn square_of(ix: usize) -> Square {
    let (rank, file) = ((ix - 21) / 10, (ix - 21) % 10);
    crate::square::square(file as u8, rank as u8)
}

enum NodeEnd {
    /// The node's value went into its score-table entry.
    Done,
    /// A cut-off: the parent ignores this node.
    Cut,
    /// A checkmate was found at the root: stop.
    Mate,
    /// A limit ended the search.
    Aborted,
}

struct Fndmov<'c, 'i, 'b> {
    pos: Position,
    board: Board,
    plymax: usize,
    root_material: u8,
    root_control: u8,
    score: Vec<u8>,
    pv: Vec<Vec<Move>>,
    best: Option<Move>,
    budget: &'b mut Budget<'c, 'i>,
    seldepth: usize,
    /// The moves the root may choose (UCI `searchmoves`); empty: every move.
    root_moves: Vec<Move>,
    /// Every POINTS of the search in order, when asked: (ply, from, to, score byte).
    log: Option<Vec<PointsCall>>,
    /// POSQ as MOVE and UNMOVE leave it.
    queens: Queens,
    /// The tree of the search, when asked ([`search_tree`]).
    tree: Option<TreeRecorder>,
}

/// The tree of a search as FNDMOV walks it: the node made at each ply of the path.
struct TreeRecorder {
    tree: SearchTree,
    /// The node of each ply on the path (the root at 0; [`NO_PARENT`] where the tree was
    /// full).
    path: Vec<u32>,
}

impl TreeRecorder {
    /// The move `m` of ply `p` made (a leaf at the end of the look-ahead): its node.
    fn enter(&mut self, p: usize, m: Move, leaf: bool) -> u32 {
        let parent = self.path[p - 1];
        let i = if parent == NO_PARENT {
            None
        } else {
            self.tree.push(parent, m, leaf, 0)
        };
        let i = i.unwrap_or(NO_PARENT);
        self.path.truncate(p);
        self.path.push(i);
        i
    }
}

/// One call of POINTS in a search: the ply (0 for the root position), the move just made
/// (board indices; 0 at the root) and the score byte it gave.
pub type PointsCall = (u8, u8, u8, u8);

impl<'c, 'i, 'b> Fndmov<'c, 'i, 'b> {
    /// A search of `pos` (on `board`, POSQ `queens`) to `plymax` plies, the root's material
    /// and board control taken as POINTS measures against them; `log`: every POINTS kept, the
    /// root position's first (ply 0, from and to 0).
    fn new(
        pos: &Position,
        board: Board,
        plymax: usize,
        queens: Queens,
        budget: &'b mut Budget<'c, 'i>,
        log: bool,
    ) -> Self {
        let root = root_points_with(&board, pos, queens);
        Fndmov {
            pos: pos.clone(),
            board,
            plymax,
            root_material: root.material as u8,
            root_control: root.control as u8,
            score: vec![0; plymax + 4],
            pv: vec![Vec::new(); plymax + 4],
            best: None,
            budget,
            seldepth: 0,
            root_moves: Vec::new(),
            log: log.then(|| vec![(0, 0, 0, root.valm)]),
            queens,
            tree: None,
        }
    }

    /// A score byte as a tree's value: the side to move's view, 0x80 as 0.
    fn tree_value(v: u8) -> i16 {
        i16::from(v) - i16::from(NEUTRAL)
    }

    /// The node of the move `m` at ply `p`, made (a leaf when it is evaluated there).
    fn tree_enter(&mut self, p: usize, m: Move, leaf: bool) -> u32 {
        self.tree
            .as_mut()
            .map_or(NO_PARENT, |t| t.enter(p, m, leaf))
    }

    /// The value `v` FNDMOV compares for `node` (a move of ply `p`), and the cut-off it causes
    /// at the node above: the moves of `order` after `rank` left unsearched.
    fn tree_back_up(
        &mut self,
        p: usize,
        node: u32,
        v: u8,
        end: Option<&NodeEnd>,
        rest: &[(Move, bool)],
    ) {
        let bound = self.score[p - 1];
        let Some(t) = self.tree.as_mut() else { return };
        if node != NO_PARENT {
            t.tree
                .set_value(node, Self::tree_value(v), Some(u16::from(v)));
        }
        if matches!(end, Some(NodeEnd::Cut)) && t.path[p - 1] != NO_PARENT {
            t.tree.cuts.push(Cut {
                node: t.path[p - 1],
                by: (node != NO_PARENT).then_some(node),
                value: Self::tree_value(v),
                bound: Self::tree_value(bound),
                skipped: rest.iter().filter(|(_, l)| *l).map(|(m, _)| *m).collect(),
            });
        }
    }

    fn evaluate_here(&mut self, m: Move, p: usize, mover: u8, move_number: u16) -> u8 {
        let moved_to = index(m.to());
        let pins = find_pins(&self.board, royals(&self.pos, self.queens));
        let v = points(
            &self.board,
            &pins,
            &PointsContext {
                mover,
                moved_to,
                move_number,
                root_material: self.root_material,
                root_control: self.root_control,
            },
        )
        .valm;
        if let Some(log) = self.log.as_mut() {
            log.push((p as u8, index(m.from()) as u8, moved_to as u8, v));
        }
        v
    }

    /// MOVE on the board and POSQ (the position is made by the caller).
    fn make_move(&mut self, m: Move) {
        let (from, to) = (index(m.from()), index(m.to()));
        queens_after_move(&mut self.queens, &self.board, from, to, m.promotion() != 0);
        make_on_board(&mut self.board, &self.pos, m);
    }

    /// UNMOVE: the board back to `saved` (the board before the move), POSQ as UNMOVE leaves it.
    fn unmake_move(&mut self, m: Move, saved: Board) {
        let (from, to) = (index(m.from()), index(m.to()));
        queens_after_unmove(&mut self.queens, &saved, from, to, m.promotion() != 0);
        self.board = saved;
    }

    /// An illegal move the program makes and takes back at once: only POSQ changes.
    fn make_and_take_back(&mut self, m: Move) {
        let saved = self.board;
        self.make_move(m);
        self.unmake_move(m, saved);
    }

    /// EVAL: makes the move, scores it with POINTS, takes it back.
    fn eval_move(&mut self, m: Move, p: usize) -> Option<u8> {
        if self.budget.tick() {
            return None;
        }
        let mover = self.pos.side();
        let number = self.pos.fullmove_number();
        let saved = self.board;
        self.make_move(m);
        let undo = self.pos.make(m);
        let v = self.evaluate_here(m, p, mover, number);
        self.pos.unmake(m, &undo);
        self.unmake_move(m, saved);
        Some(v)
    }

    /// The score-table comparison after a move of ply `p` got the value `v` (from the view of
    /// the side to move after it): cut-off, new best, or nothing.
    fn back_up(&mut self, p: usize, v: u8, m: Option<Move>) -> Option<NodeEnd> {
        if v <= self.score[p - 1] {
            return Some(NodeEnd::Cut);
        }
        let nv = v.wrapping_neg();
        if nv <= self.score[p] {
            return None;
        }
        self.score[p] = nv;
        if let Some(m) = m {
            let (head, tail) = self.pv.split_at_mut(p + 1);
            head[p].clear();
            head[p].push(m);
            head[p].extend_from_slice(&tail[0]);
            if p == 1 {
                self.best = Some(m);
                if nv == MATE_SCORE {
                    return Some(NodeEnd::Mate);
                }
            }
        }
        None
    }

    fn node(&mut self, p: usize) -> NodeEnd {
        self.seldepth = self.seldepth.max(p);
        let in_check = self.pos.in_check();
        let mut order = generated_moves(&self.board, &self.pos);
        let any_legal = order.iter().any(|&(_, legal)| legal);
        if p < self.plymax {
            // SORTM: each move scored by EVAL (an illegal one made, found illegal and taken
            // back), lowest (best for the mover) first, ties in generation order; the search
            // then skips the illegal ones.
            let mut scored = Vec::with_capacity(order.len());
            for &(m, legal) in &order {
                if !legal {
                    self.make_and_take_back(m);
                    continue;
                }
                match self.eval_move(m, p) {
                    Some(v) => scored.push((v, m)),
                    None => return NodeEnd::Aborted,
                }
            }
            scored.sort_by_key(|&(v, _)| v);
            order = scored.into_iter().map(|(_, m)| (m, true)).collect();
        }
        if p == 1 && !self.root_moves.is_empty() {
            order.retain(|(m, _)| self.root_moves.contains(m));
        }
        for (rank, &(m, legal)) in order.iter().enumerate() {
            if p == 1 && self.budget.aborted {
                return NodeEnd::Aborted;
            }
            if !legal {
                // The last ply: the move is made, found illegal and taken back.
                self.make_and_take_back(m);
                continue;
            }
            let mover = self.pos.side();
            let number = self.pos.fullmove_number();
            let saved = self.board;
            self.make_move(m);
            let undo = self.pos.make(m);
            self.pv[p + 1].clear();
            let descend = p < self.plymax || (p == self.plymax && self.pos.in_check());
            let node = self.tree_enter(p, m, !descend);
            let v = if descend {
                // Descend (at the last ply only for a check: one more ply).
                self.score[p + 1] = self.score[p - 1];
                match self.node(p + 1) {
                    NodeEnd::Done => Some(self.score[p + 1]),
                    NodeEnd::Cut => None,
                    end => {
                        self.pos.unmake(m, &undo);
                        self.unmake_move(m, saved);
                        return end;
                    }
                }
            } else if self.budget.tick() {
                self.pos.unmake(m, &undo);
                self.unmake_move(m, saved);
                return NodeEnd::Aborted;
            } else {
                Some(self.evaluate_here(m, p, mover, number))
            };
            self.pos.unmake(m, &undo);
            self.unmake_move(m, saved);
            if let Some(v) = v {
                let end = self.back_up(p, v, Some(m));
                if self.tree.is_some() {
                    self.tree_back_up(p, node, v, end.as_ref(), &order[rank + 1..]);
                }
                if let Some(end) = end {
                    return end;
                }
            }
        }
        if !any_legal {
            let v = if in_check { MATE_SCORE } else { NEUTRAL };
            let end = self.back_up(p, v, None);
            if self.tree.is_some() {
                self.tree_back_up(p, NO_PARENT, v, end.as_ref(), &[]);
            }
            if let Some(end) = end {
                return end;
            }
        }
        NodeEnd::Done
    }
}

/// One FNDMOV search at look-ahead `plymax` with POSQ `queens`: best move, root score byte,
/// PV, the deepest ply and POSQ as the search leaves it; `None` when a limit ended it.
fn fndmov(
    pos: &Position,
    board: &Board,
    plymax: usize,
    queens: Queens,
    budget: &mut Budget,
) -> Option<(Move, u8, Vec<Move>, usize, Queens)> {
    fndmov_of(pos, board, plymax, queens, &[], budget)
}

/// [`fndmov`] choosing among `root_moves` only at the root (empty: every move).
fn fndmov_of(
    pos: &Position,
    board: &Board,
    plymax: usize,
    queens: Queens,
    root_moves: &[Move],
    budget: &mut Budget,
) -> Option<(Move, u8, Vec<Move>, usize, Queens)> {
    let mut f = Fndmov::new(pos, *board, plymax, queens, budget, false);
    f.root_moves = root_moves.to_vec();
    match f.node(1) {
        NodeEnd::Aborted => None,
        _ => Some((f.best?, f.score[1], f.pv[1].clone(), f.seldepth, f.queens)),
    }
}

/// POSQ as the program keeps it when it comes to search the game's position at look-ahead
/// `plymax`, having played the game from its start as the side to move now: d1 and d8 from
/// the start position (ROYALT's queens from a position set up), then every move of the game
/// as MOVE makes it, and before each of the program's own moves the net change its search
/// made (see [`Queens`]). A search can change POSQ only when POSQ does not name each side's
/// one queen (or 0 for none), or a pawn could promote within it; only those searches are run
/// again, at `plymax`. `None` when a limit ended a search.
fn queens_of_game(game: &Game, plymax: usize, budget: &mut Budget) -> Option<Queens> {
    let mut pos = game.start().clone();
    let mut board = initial_board(&pos);
    let mut queens = if pos == Position::startpos() {
        QUEENS_AT_START
    } else {
        queens_on_board(&board)
    };
    let program = game.position().side();
    for &m in game.moves() {
        if pos.side() == program
            && book_move(&pos, REFRESH_BIT_ON_JUPITER3).is_none()
            && !search_keeps_queens(&board, queens, plymax)
        {
            queens = fndmov(&pos, &board, plymax, queens, budget)?.4;
        }
        let (from, to) = (index(m.from()), index(m.to()));
        queens_after_move(&mut queens, &board, from, to, m.promotion() != 0);
        make_on_board(&mut board, &pos, m);
        pos.play(m);
    }
    Some(queens)
}

/// Whether a search at look-ahead `plymax` (one more ply for a check) leaves POSQ as it is:
/// it names each side's one queen, or 0 for a side without one, and no pawn can reach its last
/// rank within the search.
fn search_keeps_queens(b: &Board, queens: Queens, plymax: usize) -> bool {
    // The moves a side gets in plymax + 1 plies, at most.
    let reach = (plymax + 2) / 2;
    let mut count = [0usize; 2];
    let mut at = [0usize; 2];
    for (ix, &p) in b.iter().enumerate().take(99).skip(21) {
        if p == BORDER || p == 0 {
            continue;
        }
        let c = (p >> 7) as usize;
        match p & 7 {
            QUEEN => {
                count[c] += 1;
                at[c] = ix;
            }
            PAWN => {
                let rank = (ix - 21) / 10;
                let steps = if c == 0 { 7 - rank } else { rank };
                let moves = if p & MOVED == 0 { steps - 1 } else { steps };
                if moves <= reach {
                    return false;
                }
            }
            _ => {}
        }
    }
    (0..2).all(|c| match count[c] {
        0 => queens[c] == 0,
        1 => queens[c] == at[c],
        _ => false,
    })
}

/// One FNDMOV at look-ahead `plymax` with POSQ `queens` on the game's position, without the
/// book and without the search for a shorter mate: the move, the root score byte, and every
/// POINTS of the search in the order Sargon computes them (the root position's first, at ply
/// 0, with from and to 0).
pub fn traced_fndmov(
    game: &Game,
    plymax: usize,
    queens: Queens,
) -> (Option<Move>, u8, Vec<PointsCall>) {
    let pos = game.position();
    let board = board_of_game(game);
    let control = SearchControl::default();
    let mut budget = Budget::new(&Limits::default(), pos.side(), &control);
    let mut f = Fndmov::new(pos, board, plymax, queens, &mut budget, true);
    f.node(1);
    (f.best, f.score[1], f.log.unwrap_or_default())
}

/// The tree one FNDMOV walks on the game's position at look-ahead `plymax`, as the program
/// does it (POSQ followed through the game, see [`Queens`]): every move it makes in the search
/// (not SORTM's: those only order the moves; their scores are the move list's values) with its
/// ply and the score byte FNDMOV compares for it, and every cut-off with the moves it skipped.
/// `None` when the book answers (move 1) or the position has no legal move. The tree holds at
/// most `limit` nodes.
pub fn search_tree(game: &Game, plymax: usize, limit: usize) -> Option<SearchTree> {
    let pos = game.position();
    if pos.legal_moves().is_empty() || book_move(pos, REFRESH_BIT_ON_JUPITER3).is_some() {
        return None;
    }
    let control = SearchControl::default();
    let mut budget = Budget::new(&Limits::default(), pos.side(), &control);
    let plymax = plymax.clamp(1, MAX_DEPTH as usize);
    let queens = queens_of_game(game, plymax, &mut budget)?;
    let board = board_of_game(game);
    let mut f = Fndmov::new(pos, board, plymax, queens, &mut budget, false);
    f.tree = Some(TreeRecorder {
        tree: SearchTree::new(pos.clone(), limit),
        path: vec![0],
    });
    f.node(1);
    let root = f.score[1];
    let mut t = f.tree.take()?.tree;
    t.set_value(0, Fndmov::tree_value(root), Some(u16::from(root)));
    Some(t)
}

/// Centipawns of a root score byte: one unit is a quarter of a half pawn (12.5 cp); 0xFF is a
/// mate for the side to move, 0x01 a mate against it.
pub fn score_to_cp(score: u8, pv_len: usize) -> i32 {
    match score {
        MATE_SCORE => MATE - pv_len as i32,
        1 => -(MATE - pv_len as i32 - 1),
        s => (s as i32 - NEUTRAL as i32) * 25 / 2,
    }
}

/// Searches the current position of `game` within `limits`: the book on move 1, then FNDMOV.
/// A depth limit alone runs one search at that look-ahead, as Sargon did; node and time limits
/// run look-aheads 1, 2, 3, ... and keep the last one completed.
pub fn search(game: &Game, limits: &Limits, control: &SearchControl) -> SearchResult {
    let pos = game.position();
    let mut budget = Budget::new(limits, pos.side(), control);
    if pos.legal_moves().is_empty() {
        return SearchResult::no_move(pos.in_check(), budget.elapsed());
    }
    let root_moves = limits.searchmoves.clone();
    if let Some(m) = book_move(pos, REFRESH_BIT_ON_JUPITER3).filter(|&m| budget.allows(m)) {
        let result = SearchResult {
            best: Some(m),
            score: 0,
            pv: vec![m],
            depth: 1,
            nodes: 0,
            time: budget.elapsed(),
        };
        budget.report_info(&info_of(&result, 1));
        return result;
    }
    let board = board_of_game(game);
    let only_depth = limits.depth.is_some()
        && limits.nodes.is_none()
        && limits.movetime.is_none()
        && limits.wtime.is_none()
        && limits.btime.is_none()
        && !limits.infinite;
    let max = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH) as usize;
    let mut result: Option<SearchResult> = None;
    let first = if only_depth { max } else { 1 };
    for plymax in first..=max {
        if plymax > first && !budget.may_deepen() {
            break;
        }
        let Some(queens) = queens_of_game(game, plymax, &mut budget) else {
            break;
        };
        let Some(found) = fndmov_of(pos, &board, plymax, queens, &root_moves, &mut budget) else {
            break;
        };
        budget.arm();
        let mut found = found;
        if found.1 == MATE_SCORE && only_depth {
            // After a search that found a mate, FNDMOV lowers the look-ahead by two for the
            // rest of the game: find the look-ahead in effect from the game's earlier
            // positions and search again with it.
            let Some(in_effect) = look_ahead_in_effect(game, plymax, &mut budget) else {
                break;
            };
            if in_effect != plymax {
                match fndmov_of(pos, &board, in_effect, queens, &root_moves, &mut budget) {
                    Some(f) => found = f,
                    None => break,
                }
            }
        }
        let (best, score, pv, seldepth, _) = found;
        let r = SearchResult {
            best: Some(best),
            score: score_to_cp(score, pv.len()),
            pv,
            depth: plymax as u32,
            nodes: budget.nodes,
            time: budget.elapsed(),
        };
        let mut info = info_of(&r, seldepth as u32);
        info.nodes = Some(budget.nodes);
        budget.report_info(&info);
        let mate = score == MATE_SCORE;
        result = Some(r);
        if mate {
            break;
        }
    }
    // Only a root restricted to moves the program does not make (underpromotions) leaves
    // the first look-ahead without a move.
    let Some(mut r) = result else {
        return SearchResult::default();
    };
    r.nodes = budget.nodes;
    r.time = budget.elapsed();
    r
}

/// The random bit BOOK reads as White on move 1 (bit 0 of the refresh register R, 0: 1. e4)
/// as Kempelen's `jupiter-3` machine gives it: started as the adaptor starts it, the program
/// reaches BOOK after the same instructions every time, with R = 0x32.
pub const REFRESH_BIT_ON_JUPITER3: bool = false;

/// The look-ahead Sargon has in effect in the game's position when the game was played at
/// `plymax`: each search that finds a mate lowers PLYMAX by two for the rest of the game
/// (at 0 the first ply is scored without the check extension). The program's earlier
/// positions (two, four ... plies back) are searched again while they hold a mate at
/// `plymax`; a position without one there had the full look-ahead (a mate found earlier
/// would still be found). `None` when a limit ended a search.
fn look_ahead_in_effect(game: &Game, plymax: usize, budget: &mut Budget) -> Option<usize> {
    let moves = game.moves();
    let before = |plies: usize| {
        let mut g = Game::new(game.start().clone());
        for &m in &moves[..moves.len() - plies] {
            g.push(m).expect("a move of the game");
        }
        g
    };
    let mut chain = Vec::new();
    let mut back = 2;
    while back <= moves.len() && chain.len() < MAX_DEPTH as usize {
        let g = before(back);
        if book_move(g.position(), REFRESH_BIT_ON_JUPITER3).is_some() {
            break;
        }
        let queens = queens_of_game(&g, plymax, budget)?;
        let found = fndmov(g.position(), &board_of_game(&g), plymax, queens, budget)?;
        if found.1 != MATE_SCORE {
            break;
        }
        chain.push(g);
        back += 2;
    }
    let mut in_effect = plymax;
    for g in chain.iter().rev() {
        let queens = queens_of_game(g, in_effect, budget)?;
        let found = fndmov(g.position(), &board_of_game(g), in_effect, queens, budget)?;
        if found.1 == MATE_SCORE {
            in_effect = in_effect.saturating_sub(2);
        }
    }
    Some(in_effect)
}

fn info_of(r: &SearchResult, seldepth: u32) -> SearchInfo {
    SearchInfo {
        depth: Some(r.depth),
        seldepth,
        score: Some(r.score),
        nodes: Some(r.nodes),
        time: r.time,
        pv: r.pv.clone(),
        hashfull: None,
        string: None,
    }
}

/// The positions of the `tests[]` table of a Sargon test program (retro-sargon's
/// `src/sargon-tests.cpp`, which each user keeps locally): (FEN, look-ahead, the move the
/// original chose), in the table's order. Comments are skipped; an entry whose first string is
/// not a FEN is passed over. Empty when `text` holds no such table.
pub fn regression_positions(text: &str) -> Vec<(String, u32, String)> {
    let Some(start) = text.find("static TEST tests[]") else {
        return Vec::new();
    };
    let body: String = text[start..]
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let parts: Vec<&str> = body.split('"').collect();
    let mut cases = Vec::new();
    let mut i = 1;
    while i + 2 < parts.len() {
        let depth = parts[i + 1]
            .trim_matches(|c: char| c == ',' || c.is_whitespace())
            .parse::<u32>();
        match (Position::from_fen(parts[i]), depth) {
            (Ok(_), Ok(depth)) => {
                cases.push((parts[i].to_string(), depth, parts[i + 2].to_string()));
                i += 4;
            }
            _ => i += 2,
        }
    }
    cases
}
