//! Piece and colour codes of ALGORITHM.md §1: one byte per square, `type = code & 7`
//! (1 pawn ... 6 king), `colour = code & 8` (0 white, 8 black).

/// A piece code as stored on the board (`0` = empty).
pub type Piece = u8;

/// Empty square.
pub const EMPTY: Piece = 0;
/// Piece types.
pub const PAWN: u8 = 1;
/// Knight type.
pub const KNIGHT: u8 = 2;
/// Bishop type.
pub const BISHOP: u8 = 3;
/// Rook type.
pub const ROOK: u8 = 4;
/// Queen type.
pub const QUEEN: u8 = 5;
/// King type.
pub const KING: u8 = 6;

/// Colour bits (the same bit as in a piece code and as the side to move).
pub const WHITE: u8 = 0;
/// Black's colour bit.
pub const BLACK: u8 = 8;

/// The type of a piece code.
#[inline]
pub const fn piece_type(p: Piece) -> u8 {
    p & 7
}

/// The colour bit of a piece code.
#[inline]
pub const fn colour(p: Piece) -> u8 {
    p & 8
}

/// Colour index 0 (white) or 1 (black) of a colour bit.
#[inline]
pub const fn index(colour: u8) -> usize {
    (colour >> 3) as usize
}

/// FEN letter of a piece code (`P` white pawn ... `k` black king).
pub fn to_char(p: Piece) -> char {
    let c = b" PNBRQK"[piece_type(p) as usize] as char;
    if colour(p) == BLACK {
        c.to_ascii_lowercase()
    } else {
        c
    }
}

/// Piece code of a FEN letter.
pub fn from_char(c: char) -> Option<Piece> {
    let t = match c.to_ascii_uppercase() {
        'P' => PAWN,
        'N' => KNIGHT,
        'B' => BISHOP,
        'R' => ROOK,
        'Q' => QUEEN,
        'K' => KING,
        _ => return None,
    };
    Some(if c.is_ascii_lowercase() { t | BLACK } else { t })
}
