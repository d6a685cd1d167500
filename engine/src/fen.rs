//! FEN parsing and printing. Parsing validates the position in one place and refuses anything
//! malformed or illegal with a [`FenError`] that names the field and the reason, so every
//! [`Position`] the engine holds is one the move generator and the ports may trust.

use crate::piece::{self, BLACK, KING, PAWN, WHITE};
use crate::position::Position;
use crate::square::{self, NO_SQUARE, Square};
use crate::tables;
use std::fmt;

/// The six fields of a FEN record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FenField {
    /// Piece placement (field 1).
    Board,
    /// Active colour (field 2).
    SideToMove,
    /// Castling availability (field 3).
    Castling,
    /// En-passant target square (field 4).
    EnPassant,
    /// Halfmove clock (field 5).
    HalfmoveClock,
    /// Fullmove number (field 6).
    FullmoveNumber,
    /// The record as a whole (wrong number of fields).
    Record,
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenField::Board => "piece placement (field 1)",
            FenField::SideToMove => "side to move (field 2)",
            FenField::Castling => "castling rights (field 3)",
            FenField::EnPassant => "en-passant square (field 4)",
            FenField::HalfmoveClock => "halfmove clock (field 5)",
            FenField::FullmoveNumber => "fullmove number (field 6)",
            FenField::Record => "record",
        })
    }
}

/// Why a FEN was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FenReason {
    /// Not 4 to 6 space-separated fields.
    FieldCount(usize),
    /// The placement does not have 8 ranks.
    RankCount(usize),
    /// A rank does not describe exactly 8 squares.
    RankLength { rank: u8, squares: usize },
    /// A character that is not a piece letter or digit.
    BadChar(char),
    /// Two digits in a row (`44`): a run of empty squares is one digit.
    AdjacentDigits { rank: u8, digits: String },
    /// A side has no king.
    MissingKing(&'static str),
    /// A side has more than one king.
    ExtraKing(&'static str),
    /// A pawn stands on rank 1 or 8.
    PawnOnBackRank(String),
    /// More pieces than promotions could produce (at most 16, at most 8 pawns).
    TooManyPieces(&'static str),
    /// The side not to move is in check.
    OpponentInCheck,
    /// The side to move is in a check no move can give (three checkers, two knights or pawns,
    /// two checkers on one line through the king, a check that was there before the double
    /// push the en-passant square names).
    ImpossibleCheck(String),
    /// Not `w` or `b`.
    BadSide(String),
    /// Not `-` or a set of `KQkq` without repeats.
    BadCastling(String),
    /// A castling right without the king or rook on its original square.
    CastlingInconsistent { right: char, missing: String },
    /// Not `-` or a square name.
    BadSquare(String),
    /// The en-passant square is not on the rank a double push passes for this side to move.
    EpWrongRank(String),
    /// No enemy pawn in front of the en-passant square, or the squares it passed are occupied.
    EpNoDoublePush(String),
    /// Not a non-negative number (16 bits).
    BadNumber(String),
    /// A fullmove number of 0: the first move is number 1.
    FullmoveZero,
    /// A halfmove clock above 0 beside an en-passant square: the double push that made the
    /// square reset the clock.
    ClockAfterDoublePush(u16),
}

impl fmt::Display for FenReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenReason::FieldCount(n) => write!(f, "expected 6 fields (4 are accepted), found {n}"),
            FenReason::RankCount(n) => write!(f, "expected 8 ranks separated by '/', found {n}"),
            FenReason::RankLength { rank, squares } => {
                write!(f, "rank {rank} describes {squares} squares instead of 8")
            }
            FenReason::BadChar(c) => write!(f, "'{c}' is not a piece letter or a digit 1-8"),
            FenReason::AdjacentDigits { rank, digits } => write!(
                f,
                "rank {rank} has the digits '{digits}' in a row; a run of empty squares is one digit 1-8"
            ),
            FenReason::MissingKing(side) => write!(f, "{side} has no king"),
            FenReason::ExtraKing(side) => write!(f, "{side} has more than one king"),
            FenReason::PawnOnBackRank(sq) => write!(f, "pawn on the back rank at {sq}"),
            FenReason::TooManyPieces(side) => {
                write!(f, "{side} has more pieces than promotions can produce")
            }
            FenReason::OpponentInCheck => write!(f, "the side not to move is in check"),
            FenReason::ImpossibleCheck(why) => {
                write!(f, "the side to move is in a check no move can give: {why}")
            }
            FenReason::BadSide(s) => write!(f, "'{s}' is not 'w' or 'b'"),
            FenReason::BadCastling(s) => write!(f, "'{s}' is not '-' or a subset of 'KQkq'"),
            FenReason::CastlingInconsistent { right, missing } => {
                write!(f, "right '{right}' but {missing}")
            }
            FenReason::BadSquare(s) => write!(f, "'{s}' is not '-' or a square"),
            FenReason::EpWrongRank(s) => {
                write!(
                    f,
                    "{s} is not on the rank a double push of the side that just moved passes"
                )
            }
            FenReason::EpNoDoublePush(s) => {
                write!(
                    f,
                    "{s} does not follow a double pawn push (pawn missing or squares occupied)"
                )
            }
            FenReason::BadNumber(s) => write!(f, "'{s}' is not a number from 0 to 65535"),
            FenReason::FullmoveZero => write!(f, "0: the first move is number 1"),
            FenReason::ClockAfterDoublePush(n) => write!(
                f,
                "{n} with an en-passant square: the double pawn push that made it resets the \
                 clock to 0"
            ),
        }
    }
}

/// A refused FEN: which field and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid FEN, {field}: {reason}")]
pub struct FenError {
    /// The field that failed.
    pub field: FenField,
    /// What is wrong with it.
    pub reason: FenReason,
}

fn err(field: FenField, reason: FenReason) -> FenError {
    FenError { field, reason }
}

const SIDE_NAMES: [&str; 2] = ["White", "Black"];

/// The UTF-8 byte-order mark some editors write at the start of a text file: not part of the
/// text a FEN or a PGN reader reads.
pub const BYTE_ORDER_MARK: char = '\u{feff}';

impl Position {
    /// Parses and validates a FEN (the last two fields may be left out together, as in EPD;
    /// five fields are refused). A byte-order mark before it (a FEN file saved with one) is
    /// skipped.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fen = fen
            .trim_start()
            .strip_prefix(BYTE_ORDER_MARK)
            .unwrap_or(fen);
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() != 4 && fields.len() != 6 {
            return Err(err(FenField::Record, FenReason::FieldCount(fields.len())));
        }
        let mut pos = Position::empty();
        parse_board(&mut pos, fields[0])?;
        pos.side = match fields[1] {
            "w" => WHITE,
            "b" => BLACK,
            s => return Err(err(FenField::SideToMove, FenReason::BadSide(s.to_string()))),
        };
        pos.castling = parse_castling(fields[2])?;
        pos.ep = match fields[3] {
            "-" => NO_SQUARE,
            s => square::parse(s)
                .ok_or_else(|| err(FenField::EnPassant, FenReason::BadSquare(s.to_string())))?,
        };
        pos.halfmove = parse_number(fields.get(4).copied(), 0, FenField::HalfmoveClock)?;
        pos.fullmove = parse_number(fields.get(5).copied(), 1, FenField::FullmoveNumber)?;
        if pos.fullmove == 0 {
            return Err(err(FenField::FullmoveNumber, FenReason::FullmoveZero));
        }
        if pos.ep != NO_SQUARE && pos.halfmove != 0 {
            return Err(err(
                FenField::HalfmoveClock,
                FenReason::ClockAfterDoublePush(pos.halfmove),
            ));
        }
        validate(&pos)?;
        pos.init_keys();
        Ok(pos)
    }

    /// The position as a six-field FEN.
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let p = self.board[square::square(file, rank) as usize];
                if p == 0 {
                    empty += 1;
                } else {
                    if empty > 0 {
                        s.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    s.push(piece::to_char(p));
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push_str(if self.side == BLACK { " b " } else { " w " });
        if self.castling == 0 {
            s.push('-');
        }
        for (bit, c) in [(1, 'K'), (2, 'Q'), (4, 'k'), (8, 'q')] {
            if self.castling & bit != 0 {
                s.push(c);
            }
        }
        s.push(' ');
        s.push_str(&if self.ep == NO_SQUARE {
            "-".to_string()
        } else {
            square::name(self.ep)
        });
        s.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        s
    }
}

fn parse_board(pos: &mut Position, text: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(err(FenField::Board, FenReason::RankCount(ranks.len())));
    }
    for (i, row) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0usize;
        let mut previous_digit = None;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                if let Some(p) = previous_digit {
                    return Err(err(
                        FenField::Board,
                        FenReason::AdjacentDigits {
                            rank: rank + 1,
                            digits: format!("{p}{c}"),
                        },
                    ));
                }
                previous_digit = Some(c);
                file += d as usize;
                continue;
            }
            previous_digit = None;
            if let Some(p) = piece::from_char(c) {
                if file < 8 {
                    let sq = square::square(file as u8, rank);
                    if piece::piece_type(p) == KING
                        && pos.kings[piece::index(piece::colour(p))] != NO_SQUARE
                    {
                        let side = SIDE_NAMES[piece::index(piece::colour(p))];
                        return Err(err(FenField::Board, FenReason::ExtraKing(side)));
                    }
                    pos.put_keyed(sq, p);
                }
                file += 1;
            } else {
                return Err(err(FenField::Board, FenReason::BadChar(c)));
            }
        }
        if file != 8 {
            return Err(err(
                FenField::Board,
                FenReason::RankLength {
                    rank: rank + 1,
                    squares: file,
                },
            ));
        }
    }
    Ok(())
}

fn parse_castling(text: &str) -> Result<u8, FenError> {
    if text == "-" {
        return Ok(0);
    }
    let mut rights = 0;
    for c in text.chars() {
        let bit = match c {
            'K' => 1,
            'Q' => 2,
            'k' => 4,
            'q' => 8,
            _ => 0,
        };
        if bit == 0 || rights & bit != 0 {
            return Err(err(
                FenField::Castling,
                FenReason::BadCastling(text.to_string()),
            ));
        }
        rights |= bit;
    }
    Ok(rights)
}

fn parse_number(text: Option<&str>, default: u16, field: FenField) -> Result<u16, FenError> {
    match text {
        None => Ok(default),
        Some(t) => t
            .parse::<u16>()
            .map_err(|_| err(field, FenReason::BadNumber(t.to_string()))),
    }
}

fn validate(pos: &Position) -> Result<(), FenError> {
    for (ci, side) in SIDE_NAMES.iter().enumerate() {
        if pos.kings[ci] == NO_SQUARE {
            return Err(err(FenField::Board, FenReason::MissingKing(side)));
        }
        let bb = &pos.bb[ci];
        let pawns = bb[PAWN as usize].count_ones() as i32;
        let extra = |t: u8, normal: i32| (bb[t as usize].count_ones() as i32 - normal).max(0);
        let promoted = extra(piece::KNIGHT, 2)
            + extra(piece::BISHOP, 2)
            + extra(piece::ROOK, 2)
            + extra(piece::QUEEN, 1);
        if bb[0].count_ones() > 16 || pawns > 8 || pawns + promoted > 8 {
            return Err(err(FenField::Board, FenReason::TooManyPieces(side)));
        }
    }
    let back_ranks = 0xFF00_0000_0000_00FFu64;
    for ci in 0..2 {
        let on_back = pos.bb[ci][PAWN as usize] & back_ranks;
        if on_back != 0 {
            let sq = square::sq88(on_back.trailing_zeros() as usize);
            return Err(err(
                FenField::Board,
                FenReason::PawnOnBackRank(square::name(sq)),
            ));
        }
    }
    // Castling rights need king and rook on their original squares.
    for (bit, c, king_sq, rook_sq, colour) in [
        (1u8, 'K', 0x04u8, 0x07u8, WHITE),
        (2, 'Q', 0x04, 0x00, WHITE),
        (4, 'k', 0x74, 0x77, BLACK),
        (8, 'q', 0x74, 0x70, BLACK),
    ] {
        if pos.castling & bit == 0 {
            continue;
        }
        let side = SIDE_NAMES[piece::index(colour)];
        let missing = if pos.board[king_sq as usize] != KING | colour {
            Some(format!("{side}'s king is not on {}", square::name(king_sq)))
        } else if pos.board[rook_sq as usize] != piece::ROOK | colour {
            Some(format!("{side} has no rook on {}", square::name(rook_sq)))
        } else {
            None
        };
        if let Some(missing) = missing {
            return Err(err(
                FenField::Castling,
                FenReason::CastlingInconsistent { right: c, missing },
            ));
        }
    }
    if pos.ep != NO_SQUARE {
        let name = square::name(pos.ep);
        let (ep_rank, dir): (u8, i32) = if pos.side == WHITE { (5, -16) } else { (2, 16) };
        if square::rank(pos.ep) != ep_rank {
            return Err(err(FenField::EnPassant, FenReason::EpWrongRank(name)));
        }
        let pawn_sq = (pos.ep as i32 + dir) as usize;
        let origin = (pos.ep as i32 - dir) as usize;
        let them = pos.side ^ BLACK;
        if pos.board[pawn_sq] != PAWN | them
            || pos.board[pos.ep as usize] != 0
            || pos.board[origin] != 0
        {
            return Err(err(FenField::EnPassant, FenReason::EpNoDoublePush(name)));
        }
    }
    let them = pos.side ^ BLACK;
    if pos.is_attacked(pos.kings[piece::index(them)], pos.side) {
        return Err(err(FenField::SideToMove, FenReason::OpponentInCheck));
    }
    if let Some(why) = impossible_check(pos) {
        return Err(err(FenField::Board, FenReason::ImpossibleCheck(why)));
    }
    Ok(())
}

/// Whether the piece `p` on `from` attacks `to` on the board of `pos`.
fn attacks(pos: &Position, p: piece::Piece, from: Square, to: Square) -> bool {
    let v = (to as i32 - from as i32 + 119) as usize;
    let ty = piece::piece_type(p);
    let bit = match ty {
        PAWN if piece::colour(p) == WHITE => tables::WHITE_PAWN_BIT,
        _ => tables::type_bit(ty),
    };
    if tables::ATTACK_MASK[v] & bit == 0 {
        return false;
    }
    if !is_slider(ty) {
        return true;
    }
    let step = tables::STEP[v] as i32;
    let mut t = from as i32 + step;
    while t != to as i32 {
        if pos.board()[t as usize] != 0 {
            return false;
        }
        t += step;
    }
    true
}

fn is_slider(ty: u8) -> bool {
    matches!(ty, piece::BISHOP | piece::ROOK | piece::QUEEN)
}

/// Whether `mid` lies strictly between `a` and `b` on a line.
fn between(a: Square, b: Square, mid: Square) -> bool {
    let step = tables::STEP[(b as i32 - a as i32 + 119) as usize] as i32;
    if step == 0 {
        return false;
    }
    let mut t = a as i32 + step;
    while t != b as i32 {
        if t == mid as i32 {
            return true;
        }
        t += step;
    }
    false
}

/// Why the check on the side to move could not have come from the opponent's last move, if it
/// could not: a move gives check with the piece that moved, and may discover one more along a
/// line through the square it left (a slider's, as only sliders give check along lines).
fn impossible_check(pos: &Position) -> Option<String> {
    let king = pos.kings[piece::index(pos.side)];
    let them = pos.side ^ BLACK;
    let checkers: Vec<Square> = (0..128u8)
        .filter(|&sq| square::on_board(i32::from(sq)))
        .filter(|&sq| {
            let p = pos.board()[sq as usize];
            p != 0 && piece::colour(p) == them && attacks(pos, p, sq, king)
        })
        .collect();
    let name = |sq: Square| {
        let p = pos.board()[sq as usize];
        format!("{} on {}", piece::to_char(p), square::name(sq))
    };
    let names = || {
        checkers
            .iter()
            .map(|&s| name(s))
            .collect::<Vec<_>>()
            .join(" and ")
    };
    match checkers.as_slice() {
        [] => return None,
        [_, _, _, ..] => {
            return Some(format!(
                "{} pieces give check at once ({})",
                checkers.len(),
                names()
            ));
        }
        &[a, b] => {
            let slider = |sq: Square| is_slider(piece::piece_type(pos.board()[sq as usize]));
            if !slider(a) && !slider(b) {
                return Some(format!(
                    "{} both check, and neither could be discovered",
                    names()
                ));
            }
            if between(a, b, king) {
                return Some(format!("{} check from both sides along one line", names()));
            }
        }
        [_] => {}
    }
    if pos.ep != NO_SQUARE {
        // The last move was the double push through the en-passant square: the pushed pawn
        // gives the check, or the check came through the square it left.
        let dir: i32 = if pos.side == WHITE { -16 } else { 16 };
        let pushed = (pos.ep as i32 + dir) as Square;
        let origin = (pos.ep as i32 - dir) as Square;
        if checkers.len() > 1 {
            return Some(format!(
                "{} check after the double push to {}",
                names(),
                square::name(pushed)
            ));
        }
        let c = checkers[0];
        let discovered =
            is_slider(piece::piece_type(pos.board()[c as usize])) && between(c, king, origin);
        if c != pushed && !discovered {
            return Some(format!(
                "{} gave check before the double push to {} the en-passant square names",
                name(c),
                square::name(pushed)
            ));
        }
    }
    None
}
