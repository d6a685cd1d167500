//! Microchess (P. Jennings, KIM-1, 1976): no search tree in the modern sense. For each of its
//! moves the program counts what the move leaves behind (its own mobility and captures, the
//! opponent's replies and captures, and a capture tree of at most three captures a side that
//! stops at pawn and king captures) and combines the counts in one weighted sum, STRATGY.
//! It plays the move with the highest sum; a one-line opening book comes first.
//! See docs/history/microchess.md.

use super::Budget;
use crate::engine::{MATE, SearchResult};
use crate::game::Game;
use crate::moves::{Move, MoveList};
use crate::piece::{self, BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE};
use crate::position::Position;
use crate::square::{self, Square};

/// Microchess's piece points: king 11, queen 10, rook 6, bishop 4, knight 4, pawn 2.
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

/// Mobility and capture counts of one side (MOB, MAXC, CC, MAXP of the manual).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// MOB: moves, a queen's moves counted twice.
    pub mob: i32,
    /// MAXC: points of the most valuable piece that can be captured.
    pub maxc: i32,
    /// CC: points of all capturable pieces, once per capturing move.
    pub cc: i32,
    /// MAXP: the square of that most valuable piece (the last found on equal points).
    pub maxp: Option<Square>,
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
    pub wcap: [i32; 3],
    /// BCAP0, BCAP1, BCAP2: the same for the opponent.
    pub bcap: [i32; 3],
}

impl MoveCounts {
    /// STRATGY in hundredths, exactly as the manual prints it:
    /// 4.00 WCAP0 + 1.25 WCAP1 + 0.75 (WMAXC + WCC) + 0.25 (WMOB + WCAP2) - 2.56 BMAXC
    /// - 2.00 BCC - 1.25 BCAP1 - 0.50 BMAXC - 0.25 (PMAXC + PCC + PMOB + BCAP0 + BCAP2 + BMOB).
    pub fn stratgy(&self) -> i32 {
        let (p, w, b) = (&self.prior, &self.cont, &self.reply);
        400 * self.wcap[0] + 125 * self.wcap[1] + 75 * (w.maxc + w.cc) + 25 * (w.mob + self.wcap[2])
            - 256 * b.maxc
            - 200 * b.cc
            - 125 * self.bcap[1]
            - 50 * b.maxc
            - 25 * (p.maxc + p.cc + p.mob + self.bcap[0] + self.bcap[2] + b.mob)
    }

    /// Whether the listing scores the move as mate: the opponent has no reply and the
    /// computer's most valuable capture would be the king, or there is no capture at all (the
    /// listing keeps "no capture" and "the king" in the same byte, so stalemate scores as mate).
    pub fn is_mate(&self) -> bool {
        self.reply.mob == 0 && (self.cont.maxc == points(KING) || self.cont.maxp.is_none())
    }
}

/// The moves Microchess knows: legal moves without castling, en passant and underpromotion
/// (Kempelen promotes to a queen; the 1976 program could not promote). When that leaves none,
/// every legal move.
pub fn known_moves(pos: &Position) -> MoveList {
    let all = pos.legal_moves();
    let mut list = MoveList::new();
    for &m in all.iter() {
        if !pos.is_castling(m)
            && !pos.is_en_passant(m)
            && (m.promotion() == 0 || m.promotion() == QUEEN)
        {
            list.push(m);
        }
    }
    if list.is_empty() { all } else { list }
}

/// The counts of the side to move in `pos`; moves of the piece on `skip` (unless it is the
/// king) are left out, as the listing leaves out the moves of the piece the opponent can win.
pub fn counts(pos: &Position, skip: Option<Square>) -> Counts {
    let mut c = Counts::default();
    for &m in known_moves(pos).iter() {
        let mover = piece::piece_type(pos.piece_at(m.from()));
        if skip == Some(m.from()) && mover != KING {
            continue;
        }
        c.mob += if mover == QUEEN { 2 } else { 1 };
        let victim = piece::piece_type(pos.piece_at(m.to()));
        if victim != 0 {
            let pts = points(victim);
            if pts >= c.maxc {
                c.maxc = pts;
                c.maxp = Some(m.to());
            }
            c.cc += pts;
        }
    }
    c
}

/// The position with the side not to move given the move (the listing's "continuation").
fn passed(pos: &Position) -> Position {
    let mut p = pos.clone();
    p.make_null();
    p
}

/// The capture tree after the computer's move: level 0 the opponent's captures (BCAP0), level 1
/// the computer's (WCAP1), then BCAP1, WCAP2, BCAP2. Each level keeps the most points any
/// capture at that level wins; captures of pawns and kings are neither counted nor followed.
fn capture_tree(pos: &mut Position, level: usize, best: &mut [i32; 5], budget: &mut Budget) {
    for &m in known_moves(pos).iter() {
        let victim = piece::piece_type(pos.piece_at(m.to()));
        if victim == 0 || victim == PAWN || victim == KING {
            continue;
        }
        best[level] = best[level].max(points(victim));
        if level < 4 {
            budget.tick();
            let undo = pos.make(m);
            capture_tree(pos, level + 1, best, budget);
            pos.unmake(m, &undo);
        }
    }
}

/// All the counts for the computer's move `m` in `pos` (the side to move is the computer).
pub fn counts_for_move(pos: &Position, m: Move) -> MoveCounts {
    let control = crate::SearchControl::default();
    let mut budget = Budget::new(&crate::Limits::default(), pos.side(), &control);
    move_counts(pos, m, counts(pos, None), &mut budget)
}

/// The value Microchess gives the move `m` in `pos` (STRATGY plus the position bonus, in
/// hundredths of its points; `i32::MAX` for a move it scores as mate).
pub fn value_of(pos: &Position, m: Move) -> i32 {
    let control = crate::SearchControl::default();
    let mut budget = Budget::new(&crate::Limits::default(), pos.side(), &control);
    move_value(pos, m, counts(pos, None), &mut budget)
}

/// All the counts for the computer's move `m` in `pos` (`prior`: the computer's counts before
/// any move).
pub(crate) fn move_counts(
    pos: &Position,
    m: Move,
    prior: Counts,
    budget: &mut Budget,
) -> MoveCounts {
    let mut after = pos.clone();
    let wcap0 = points(piece::piece_type(pos.piece_at(m.to())));
    after.make(m);
    let reply = counts(&after, None);
    let mut levels = [0i32; 5];
    capture_tree(&mut after, 0, &mut levels, budget);
    let cont = counts(&passed(&after), reply.maxp);
    MoveCounts {
        prior,
        cont,
        reply,
        wcap: [wcap0, levels[1], levels[3]],
        bcap: [levels[0], levels[2], levels[4]],
    }
}

/// The listing's bonus of 2 points (200 hundredths): the move goes to one of four squares near
/// the centre (for White e4, d4, f3, c3; the listing turns the board half round for Black, so
/// d5, e5, c6, f6), or a piece other than the king leaves the back rank.
pub fn position_bonus(pos: &Position, m: Move) -> i32 {
    let white = pos.side() == WHITE;
    let squares: [&str; 4] = if white {
        ["e4", "d4", "f3", "c3"]
    } else {
        ["d5", "e5", "c6", "f6"]
    };
    let to = square::name(m.to());
    let back_rank = if white { 0 } else { 7 };
    let mover = piece::piece_type(pos.piece_at(m.from()));
    if squares.contains(&to.as_str()) || (mover != KING && square::rank(m.from()) == back_rank) {
        200
    } else {
        0
    }
}

/// The value of a move: STRATGY plus the position bonus, or the mate value.
pub(crate) fn move_value(pos: &Position, m: Move, prior: Counts, budget: &mut Budget) -> i32 {
    let c = move_counts(pos, m, prior, budget);
    if c.is_mate() {
        i32::MAX
    } else {
        c.stratgy() + position_bonus(pos, m)
    }
}

/// The book move for the game, if the game started from the start position, Microchess is
/// White and Black has followed the line so far.
pub fn book_move(game: &Game) -> Option<Move> {
    let played = game.moves();
    if game.start() != &Position::startpos()
        || game.position().side() != WHITE
        || played.len() >= BOOK.len()
    {
        return None;
    }
    let follows = played
        .iter()
        .zip(BOOK.iter())
        .all(|(m, b)| m.to_uci() == *b);
    if !follows {
        return None;
    }
    game.position().parse_uci(BOOK[played.len()]).ok()
}

/// The `microchess` profile (depth limits do not change its one fixed look; node and time
/// limits end it early with the best move valued so far).
pub(crate) fn search(game: &Game, budget: &mut Budget) -> SearchResult {
    let pos = game.position();
    if let Some(m) = book_move(game) {
        let r = budget.result(1, 0, vec![m]);
        budget.report(1, 1, 0, &r.pv);
        return r;
    }
    let prior = counts(pos, None);
    let mut best: Option<(i32, Move)> = None;
    for &m in known_moves(pos).iter() {
        budget.tick();
        if budget.aborted {
            break;
        }
        let v = move_value(pos, m, prior, budget);
        if budget.aborted {
            break;
        }
        if best.is_none_or(|(bv, _)| v > bv) {
            best = Some((v, m));
        }
        budget.arm();
    }
    let (v, m) = best.expect("at least one move was valued");
    let score = if v == i32::MAX { MATE - 1 } else { v / 2 };
    let r = budget.result(1, score, vec![m]);
    budget.report(1, 1, score, &r.pv);
    r
}
