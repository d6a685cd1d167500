//! The program's own board, read from its RAM where its adaptor file says it keeps it: a
//! whole board (`[ram_board]` naming all six pieces and the colour bit: Sargon's 10 x 12
//! `BOARDA`) or a list of its pieces' squares (`[pieces]`: Microchess's `BOARD`, the side to
//! move's 16 pieces then the other side's, a captured piece at `captured`).
//!
//! What is read is what the program holds, not the game: a program keeps only what its
//! search needs (Microchess no castling rights, no en-passant square, no promoted piece;
//! Sargon a "moved" mark per piece instead of castling rights), so its board may differ from
//! the game's, and [`ProgramBoard::differences`] says where.
//!
//! ```no_run
//! # use kempelen_adaptor::{Adaptor, board::ProgramBoard};
//! # fn show(adaptor: &Adaptor, m: &kempelen_emulator::Machine) -> Result<(), Box<dyn std::error::Error>> {
//! let board: ProgramBoard = adaptor.board_from_ram(m, false)?;
//! println!("{}", board.placement()); // the first field of a FEN
//! # Ok(()) }
//! ```

use kempelen_emulator::Machine;
use kempelen_engine::Position;
use serde::Serialize;

use crate::description::{Adaptor, Pieces, RamBoard};

/// Why the program's board could not be read from its RAM.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// The adaptor file says nowhere where the program keeps its board.
    #[error(
        "{program}: its adaptor file does not say where it keeps its board (a [pieces] list, or a [ram_board] naming all six pieces and `black`)"
    )]
    NotDescribed {
        /// The program's name.
        program: String,
    },
    /// Fewer bytes than the board takes.
    #[error("{program}: its board takes {want} bytes from ${at:04X}, {got} were given")]
    Short {
        /// The program's name.
        program: String,
        /// The board's first address.
        at: u16,
        /// The bytes it takes.
        want: usize,
        /// The bytes given.
        got: usize,
    },
    /// A byte of a piece list that is neither a square nor the captured mark.
    #[error(
        "{program}: ${addr:04X} (the {piece} of {side}) holds ${byte:02X}, neither a square nor the captured mark ${captured:02X}"
    )]
    NotASquare {
        /// The program's name.
        program: String,
        /// Where.
        addr: u16,
        /// The byte.
        byte: u8,
        /// The piece of the slot (`king`).
        piece: &'static str,
        /// `White` or `Black`.
        side: &'static str,
        /// The byte of a captured piece.
        captured: u8,
    },
    /// Two pieces of a piece list on one square.
    #[error("{program}: ${first:04X} and ${second:04X} both put a piece on {square}")]
    SameSquare {
        /// The program's name.
        program: String,
        /// The square.
        square: String,
        /// The first slot's address.
        first: u16,
        /// The second slot's address.
        second: u16,
    },
    /// A square of a whole board whose byte names no piece the adaptor file knows.
    #[error("{program}: {square} (${addr:04X}) holds ${byte:02X}, which names no piece")]
    NotAPiece {
        /// The program's name.
        program: String,
        /// The square.
        square: String,
        /// Where.
        addr: u16,
        /// The byte.
        byte: u8,
    },
}

/// How the program keeps its board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BoardLayout {
    /// A byte per square (Sargon's 10 x 12 board).
    Squares,
    /// The square of each piece, a slot per piece (Microchess).
    PieceList,
}

/// The program's board as its RAM holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProgramBoard {
    /// The piece on each square, a1, b1, ..., h8: a FEN letter (`K` White, `k` Black), or
    /// `None`.
    pub squares: Vec<Option<char>>,
    /// How it keeps it.
    pub layout: BoardLayout,
    /// Where: the first address.
    pub at: u16,
    /// The bytes read from there.
    pub bytes: Vec<u8>,
    /// For each square, whether its piece carries the program's "has moved" mark (`None`:
    /// the program keeps no such mark).
    pub moved: Option<Vec<bool>>,
    /// The pieces of a piece list marked captured (FEN letters).
    pub captured: Vec<char>,
}

/// A square where the program's board and the game's differ.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SquareDifference {
    /// The square (`e1`).
    pub square: String,
    /// The game's piece there.
    pub game: Option<char>,
    /// The program's.
    pub program: Option<char>,
}

impl ProgramBoard {
    /// The first field of a FEN: the pieces as the program holds them.
    pub fn placement(&self) -> String {
        let mut out = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.squares[rank * 8 + file] {
                    Some(c) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out
    }

    /// The squares where `pos` has another piece (or none) than the program's board.
    pub fn differences(&self, pos: &Position) -> Vec<SquareDifference> {
        let game = squares_of(pos);
        (0..64)
            .filter(|&i| game[i] != self.squares[i])
            .map(|i| SquareDifference {
                square: square_name(i),
                game: game[i],
                program: self.squares[i],
            })
            .collect()
    }

    /// The castling its "moved" marks still allow, in FEN's letters (`KQkq`, `-`): a king
    /// and a rook on their first squares, neither marked; `None` when the program keeps no
    /// marks (it holds no castling rights at all).
    pub fn castling(&self) -> Option<String> {
        let moved = self.moved.as_ref()?;
        let unmoved = |sq: usize, piece: char| self.squares[sq] == Some(piece) && !moved[sq];
        let mut out = String::new();
        for (king, rook, letter) in [(4, 7, 'K'), (4, 0, 'Q'), (60, 63, 'k'), (60, 56, 'q')] {
            let (k, r) = if letter.is_ascii_uppercase() {
                ('K', 'R')
            } else {
                ('k', 'r')
            };
            if unmoved(king, k) && unmoved(rook, r) {
                out.push(letter);
            }
        }
        if out.is_empty() {
            out.push('-');
        }
        Some(out)
    }
}

/// `e4` for index 28 (a1 = 0, h8 = 63).
fn square_name(i: usize) -> String {
    format!("{}{}", (b'a' + (i % 8) as u8) as char, i / 8 + 1)
}

/// The pieces of `pos` by square, a1 first.
fn squares_of(pos: &Position) -> Vec<Option<char>> {
    let fen = pos.to_fen();
    let placement = fen.split(' ').next().unwrap_or("");
    let mut squares = vec![None; 64];
    for (r, row) in placement.split('/').enumerate() {
        let rank = 7 - r.min(7);
        let mut file = 0usize;
        for c in row.chars() {
            match c.to_digit(10) {
                Some(n) => file += n as usize,
                None => {
                    if file < 8 {
                        squares[rank * 8 + file] = Some(c);
                    }
                    file += 1;
                }
            }
        }
    }
    squares
}

/// The index (a1 = 0) of a square's name.
fn index_of(square: &str) -> usize {
    let b = square.as_bytes();
    usize::from(b[0] - b'a') + 8 * usize::from(b[1] - b'1')
}

/// Where the program keeps its board, as its adaptor file says.
enum Where<'a> {
    Board(&'a RamBoard),
    List(&'a Pieces),
}

impl Adaptor {
    fn board_source(&self) -> Option<Where<'_>> {
        let whole = self.ram.board.as_ref().filter(|b| {
            b.black.is_some()
                && "pnbrqk"
                    .chars()
                    .all(|p| b.pieces.iter().any(|(_, q)| *q == p))
        });
        match (whole, &self.ram.pieces) {
            (Some(b), _) => Some(Where::Board(b)),
            (None, Some(p)) => Some(Where::List(p)),
            (None, None) => None,
        }
    }

    /// Where the program keeps its board: the first address and the number of bytes
    /// (`None`: its adaptor file does not say).
    pub fn board_memory(&self) -> Option<(u16, usize)> {
        match self.board_source()? {
            Where::Board(b) => {
                let last = (0..8u8)
                    .flat_map(|f| (0..8u8).map(move |r| (f, r)))
                    .map(|(f, r)| b.squares.encode(f, r, false))
                    .max()
                    .unwrap_or(0);
                Some((b.at, usize::from(last) + 1))
            }
            Where::List(p) => Some((p.at, 2 * p.order.len())),
        }
    }

    /// The program's board from the bytes at [`Adaptor::board_memory`]. `program_black`:
    /// the program plays Black (Microchess then counts its squares from the other side).
    pub fn board_from_bytes(
        &self,
        bytes: &[u8],
        program_black: bool,
    ) -> Result<ProgramBoard, BoardError> {
        let program = || self.name.clone();
        let (source, (at, want)) = self
            .board_source()
            .zip(self.board_memory())
            .ok_or_else(|| BoardError::NotDescribed { program: program() })?;
        if bytes.len() < want {
            return Err(BoardError::Short {
                program: program(),
                at,
                want,
                got: bytes.len(),
            });
        }
        let bytes = &bytes[..want];
        match source {
            Where::Board(b) => self.whole_board(b, bytes),
            Where::List(p) => self.piece_list(p, bytes, program_black),
        }
    }

    /// The program's board read from the machine's RAM (see [`Adaptor::board_from_bytes`]).
    pub fn board_from_ram(
        &self,
        m: &Machine,
        program_black: bool,
    ) -> Result<ProgramBoard, BoardError> {
        let (at, len) = self
            .board_memory()
            .ok_or_else(|| BoardError::NotDescribed {
                program: self.name.clone(),
            })?;
        self.board_from_bytes(&m.read_bytes(at, len), program_black)
    }

    fn whole_board(&self, b: &RamBoard, bytes: &[u8]) -> Result<ProgramBoard, BoardError> {
        let mut squares = vec![None; 64];
        let mut moved = b.moved.map(|_| vec![false; 64]);
        for i in 0..64usize {
            let (file, rank) = ((i % 8) as u8, (i / 8) as u8);
            let offset = usize::from(b.squares.encode(file, rank, false));
            let byte = bytes[offset];
            if byte & b.mask == 0 {
                continue;
            }
            let Some(&(_, piece)) = b.pieces.iter().find(|(v, _)| byte & b.mask == *v) else {
                return Err(BoardError::NotAPiece {
                    program: self.name.clone(),
                    square: square_name(i),
                    addr: b.at.wrapping_add(offset as u16),
                    byte,
                });
            };
            let black = b.black.is_some_and(|bit| byte & bit != 0);
            squares[i] = Some(if black {
                piece
            } else {
                piece.to_ascii_uppercase()
            });
            if let (Some(marks), Some(bit)) = (moved.as_mut(), b.moved) {
                marks[i] = byte & bit != 0;
            }
        }
        Ok(ProgramBoard {
            squares,
            layout: BoardLayout::Squares,
            at: b.at,
            bytes: bytes.to_vec(),
            moved,
            captured: Vec::new(),
        })
    }

    fn piece_list(
        &self,
        p: &Pieces,
        bytes: &[u8],
        program_black: bool,
    ) -> Result<ProgramBoard, BoardError> {
        let n = p.order.len();
        let mut squares: Vec<Option<char>> = vec![None; 64];
        let mut owner: Vec<Option<u16>> = vec![None; 64];
        let mut captured = Vec::new();
        for (slot, &byte) in bytes.iter().enumerate() {
            let black = (slot < n) == program_black;
            let kind = p.order[slot % n];
            let letter = if black {
                kind
            } else {
                kind.to_ascii_uppercase()
            };
            let addr = p.at.wrapping_add(slot as u16);
            if byte == p.captured {
                captured.push(letter);
                continue;
            }
            let Some(square) = p.squares.decode(byte, program_black) else {
                return Err(BoardError::NotASquare {
                    program: self.name.clone(),
                    addr,
                    byte,
                    piece: piece_name(kind),
                    side: if black { "Black" } else { "White" },
                    captured: p.captured,
                });
            };
            let i = index_of(&square);
            if let Some(first) = owner[i] {
                return Err(BoardError::SameSquare {
                    program: self.name.clone(),
                    square,
                    first,
                    second: addr,
                });
            }
            owner[i] = Some(addr);
            squares[i] = Some(letter);
        }
        Ok(ProgramBoard {
            squares,
            layout: BoardLayout::PieceList,
            at: p.at,
            bytes: bytes.to_vec(),
            moved: None,
            captured,
        })
    }
}

fn piece_name(kind: char) -> &'static str {
    match kind {
        'k' => "king",
        'q' => "queen",
        'r' => "rook",
        'b' => "bishop",
        'n' => "knight",
        _ => "pawn",
    }
}
