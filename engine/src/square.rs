//! Squares of the 0x88 board (ALGORITHM.md §1): `sq = 16 * rank + file`, on the board iff
//! `sq & 0x88 == 0`, plus conversions to the 64-square index used by the tables and bitboards.

/// A 0x88 square index. Plain `u8` so that ports and host glue can use the same numbers.
pub type Square = u8;

/// "No square" (used for the en-passant square and for a missing king).
pub const NO_SQUARE: Square = 0x80;

/// Whether a 0x88 index is on the board.
#[inline]
pub const fn on_board(sq: i32) -> bool {
    sq & !0x77 == 0
}

/// The 64-square index `8 * rank + file` of a 0x88 square.
#[inline]
pub const fn sq64(sq: Square) -> usize {
    ((sq + (sq & 7)) >> 1) as usize
}

/// The 0x88 square of a 64-square index.
#[inline]
pub const fn sq88(sq64: usize) -> Square {
    (sq64 + (sq64 & !7)) as Square
}

/// File 0..7 (a..h).
#[inline]
pub const fn file(sq: Square) -> u8 {
    sq & 7
}

/// Rank 0..7 (1..8).
#[inline]
pub const fn rank(sq: Square) -> u8 {
    sq >> 4
}

/// Square from file and rank (both 0..7).
#[inline]
pub const fn square(file: u8, rank: u8) -> Square {
    rank * 16 + file
}

/// Algebraic name such as `e4`.
pub fn name(sq: Square) -> String {
    if sq & 0x88 != 0 {
        return "-".to_string();
    }
    let mut s = String::with_capacity(2);
    s.push((b'a' + file(sq)) as char);
    s.push((b'1' + rank(sq)) as char);
    s
}

/// Parses an algebraic square name such as `e4`.
pub fn parse(text: &str) -> Option<Square> {
    let b = text.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    Some(square(b[0] - b'a', b[1] - b'1'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_round_trip() {
        for i in 0..64 {
            assert_eq!(sq64(sq88(i)), i);
        }
        assert_eq!(sq88(63), 0x77);
        assert_eq!(parse("e4"), Some(0x34));
        assert_eq!(name(0x34), "e4");
        assert!(on_board(0x77) && !on_board(0x78) && !on_board(-1));
    }
}
