//! Moves (ALGORITHM.md §2): `(from, to, promotion)` in the 0x88 encoding, with UCI long
//! algebraic text (`e2e4`, `e7e8q`, castling as the king's two-square move `e1g1`).

use crate::piece;
use crate::square::{self, Square};
use std::fmt;

/// A move: `from` and `to` are 0x88 squares, `promotion` is 0 or the piece type the pawn
/// becomes (2 knight ... 5 queen). Castling is the king's move by two files, en passant is a
/// pawn moving onto the en-passant square: the position supplies the rest.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Move {
    from: u8,
    to: u8,
    promotion: u8,
}

impl Move {
    /// "No move" (a1a1): never a legal move.
    pub const NULL: Move = Move {
        from: 0,
        to: 0,
        promotion: 0,
    };

    /// A move from its parts. It is only meaningful for a position in which it is legal (see
    /// [`crate::Position::find_move`]).
    #[inline]
    pub const fn new(from: Square, to: Square, promotion: u8) -> Move {
        Move {
            from,
            to,
            promotion,
        }
    }

    /// Origin square (0x88).
    #[inline]
    pub const fn from(self) -> Square {
        self.from
    }

    /// Destination square (0x88).
    #[inline]
    pub const fn to(self) -> Square {
        self.to
    }

    /// 0, or the type the pawn promotes to (2 knight, 3 bishop, 4 rook, 5 queen).
    #[inline]
    pub const fn promotion(self) -> u8 {
        self.promotion
    }

    /// Whether this is [`Move::NULL`].
    #[inline]
    pub const fn is_null(self) -> bool {
        self.from == 0 && self.to == 0
    }

    /// UCI text such as `e2e4` or `a7a8q`; `0000` for the null move.
    pub fn to_uci(self) -> String {
        if self.is_null() {
            return "0000".to_string();
        }
        let mut s = square::name(self.from);
        s.push_str(&square::name(self.to));
        if self.promotion != 0 {
            s.push(piece::to_char(self.promotion | piece::BLACK));
        }
        s
    }

    /// Splits UCI text into its parts without looking at a position; use
    /// [`crate::Position::parse_uci`] to get a legal move.
    pub fn parse_uci_parts(text: &str) -> Option<Move> {
        if !text.is_ascii() || !(4..=5).contains(&text.len()) {
            return None;
        }
        let from = square::parse(&text[0..2])?;
        let to = square::parse(&text[2..4])?;
        let promotion = match text.as_bytes().get(4) {
            None => 0,
            Some(b'n') => piece::KNIGHT,
            Some(b'b') => piece::BISHOP,
            Some(b'r') => piece::ROOK,
            Some(b'q') => piece::QUEEN,
            Some(_) => return None,
        };
        Some(Move {
            from,
            to,
            promotion,
        })
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_uci())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_uci())
    }
}

/// Why a move given as text was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not a move in the expected notation.
    #[error("'{0}' is not a move in {1} notation")]
    Syntax(String, &'static str),
    /// The text names a move that is not legal in the position.
    #[error("'{0}' is not a legal move in this position")]
    Illegal(String),
    /// SAN text that fits more than one legal move.
    #[error("'{0}' is ambiguous in this position")]
    Ambiguous(String),
}

/// Up to 256 moves in a fixed array (ALGORITHM.md §10: no position has more legal moves).
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; 256],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    /// An empty list.
    pub const fn new() -> Self {
        MoveList {
            moves: [Move::NULL; 256],
            len: 0,
        }
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Appends a move.
    #[inline]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len] = m;
        self.len += 1;
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for reordering).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// Whether the list holds the move.
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    /// Keeps the moves `keep` says yes to, in their order.
    pub fn retain(&mut self, keep: impl Fn(Move) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if keep(m) {
                self.moves[kept] = m;
                kept += 1;
            }
        }
        self.len = kept;
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

/// Which moves to generate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GenMode {
    /// Every legal move.
    All,
    /// Only tactical moves (ALGORITHM.md §2): captures and promotions, no underpromotions.
    Tactical,
}
