//! The position as the Z80 engine's protocol block carries it: a 0x88 board in the piece
//! codes of ALGORITHM.md section 1, side to move, castling rights, en-passant square and
//! halfmove clock. Built from a position the native engine has validated (ports may assume a
//! valid position, ALGORITHM.md section 1).

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

impl Setup {
    /// The protocol form of a position validated by the native engine.
    pub fn from_position(pos: &kempelen_engine::Position) -> Setup {
        let mut board = [0u8; 128];
        board.copy_from_slice(pos.board());
        for (sq, b) in board.iter_mut().enumerate() {
            if sq & 0x88 != 0 {
                *b = 0;
            }
        }
        Setup {
            board,
            side: pos.side(),
            castling: pos.castling(),
            ep: pos.ep_square(),
            halfmove: pos.halfmove_clock(),
        }
    }
}
