//! The position as the Z80 engine's protocol block carries it: a 0x88 board in the piece
//! codes of ALGORITHM.md section 1, side to move, castling rights, en-passant square and
//! halfmove clock. Parsed from FEN here so that the glue can be tested on its own; the
//! native engine validates positions before any port sees them.

use thiserror::Error;

/// A position in protocol form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    /// 0x88 board: `board[16 * rank + file]`, 0 = empty, 1..6 white, 9..14 black.
    pub board: [u8; 128],
    /// 0 = White to move, 8 = Black.
    pub side: u8,
    /// Bit 0 white O-O, bit 1 white O-O-O, bit 2 black O-O, bit 3 black O-O-O.
    pub castling: u8,
    /// En-passant square (0x88) or 0x80.
    pub ep: u8,
    /// Plies since the last capture or pawn move.
    pub halfmove: u16,
}

/// A FEN the glue could not read; says which field.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum SetupError {
    #[error("FEN has {0} fields, expected 4 to 6")]
    Fields(usize),
    #[error("FEN board: {0}")]
    Board(String),
    #[error("FEN side to move: expected 'w' or 'b', found '{0}'")]
    Side(String),
    #[error("FEN castling rights: unexpected '{0}'")]
    Castling(String),
    #[error("FEN en-passant square: '{0}' is not a square on rank 3 or 6")]
    EnPassant(String),
    #[error("FEN halfmove clock: '{0}' is not a number")]
    Halfmove(String),
}

impl Setup {
    /// Reads the first four to six FEN fields.
    pub fn from_fen(fen: &str) -> Result<Setup, SetupError> {
        let f: Vec<&str> = fen.split_whitespace().collect();
        if !(4..=6).contains(&f.len()) {
            return Err(SetupError::Fields(f.len()));
        }
        let mut board = [0u8; 128];
        let ranks: Vec<&str> = f[0].split('/').collect();
        if ranks.len() != 8 {
            return Err(SetupError::Board(format!(
                "{} ranks, expected 8",
                ranks.len()
            )));
        }
        for (i, row) in ranks.iter().enumerate() {
            let rank = 7 - i;
            let mut file = 0usize;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    file += d as usize;
                } else {
                    let t = match c.to_ascii_lowercase() {
                        'p' => 1,
                        'n' => 2,
                        'b' => 3,
                        'r' => 4,
                        'q' => 5,
                        'k' => 6,
                        _ => return Err(SetupError::Board(format!("unknown piece '{c}'"))),
                    };
                    if file >= 8 {
                        return Err(SetupError::Board(format!("rank {} too long", rank + 1)));
                    }
                    board[16 * rank + file] = if c.is_ascii_uppercase() { t } else { t | 8 };
                    file += 1;
                }
            }
            if file != 8 {
                return Err(SetupError::Board(format!(
                    "rank {} has {file} files",
                    rank + 1
                )));
            }
        }
        let side = match f[1] {
            "w" => 0,
            "b" => 8,
            s => return Err(SetupError::Side(s.to_string())),
        };
        let mut castling = 0;
        if f[2] != "-" {
            for c in f[2].chars() {
                castling |= match c {
                    'K' => 1,
                    'Q' => 2,
                    'k' => 4,
                    'q' => 8,
                    _ => return Err(SetupError::Castling(c.to_string())),
                };
            }
        }
        let ep = if f[3] == "-" {
            0x80
        } else {
            let b = f[3].as_bytes();
            if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b[1] == b'3' || b[1] == b'6') {
                return Err(SetupError::EnPassant(f[3].to_string()));
            }
            (b[1] - b'1') * 16 + (b[0] - b'a')
        };
        let halfmove = match f.get(4) {
            Some(h) => h.parse().map_err(|_| SetupError::Halfmove(h.to_string()))?,
            None => 0,
        };
        Ok(Setup {
            board,
            side,
            castling,
            ep,
            halfmove,
        })
    }

    /// The Zobrist key of ALGORITHM.md section 6 (used to build repetition histories).
    pub fn key(&self) -> u32 {
        let keys = crate::tables::zobrist_keys();
        let mut k = 0;
        for sq in (0..128usize).filter(|s| s & 0x88 == 0) {
            let p = self.board[sq] as usize;
            if p != 0 {
                let sq64 = (sq + (sq & 7)) >> 1;
                k ^= keys[((p >> 3) * 6 + (p & 7) - 1) * 64 + sq64];
            }
        }
        if self.side == 8 {
            k ^= keys[768];
        }
        for bit in 0..4 {
            if self.castling & (1 << bit) != 0 {
                k ^= keys[769 + bit];
            }
        }
        k
    }
}
