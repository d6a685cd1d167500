//! The position: a 0x88 board of piece codes plus side to move, castling rights, en-passant
//! square, clocks, and the incrementally kept state of ALGORITHM.md §1 (king squares, piece
//! bitboards from which the piece counts follow, non-pawn material, the 32-bit reference key,
//! the material-and-table part of the reference evaluation, and a 64-bit key for the `full`
//! profile). `make`/`unmake` change it in place; nothing is copied per move.

use crate::moves::Move;
use crate::piece::{self, BISHOP, BLACK, KING, KNIGHT, PAWN, Piece, QUEEN, ROOK, WHITE};
use crate::square::{self, NO_SQUARE, Square, sq64};
use crate::tables::{self, ATTACK_MASK, CASTLE_MASK, STEP, ZOBRIST32, ZOBRIST64};

/// Check and pin information of the side to move, which the move generator (`movegen`)
/// computes once per position and decides legality from.
pub(crate) struct Legality {
    pub(crate) king: Square,
    pub(crate) checkers: u32,
    /// Squares (sq64) a non-king move must reach to answer a single check; all when not in check.
    pub(crate) evasion: u64,
    /// Own pieces pinned to the king (sq64).
    pub(crate) pinned: u64,
}

/// 32-bit reference key of each piece code on each `sq64` (zero for empty and unused codes).
pub(crate) const KEY32: [[u32; 64]; 16] = {
    let mut t = [[0u32; 64]; 16];
    let mut ty = PAWN as usize;
    while ty <= KING as usize {
        t[ty] = ZOBRIST32.piece[0][ty];
        t[ty | BLACK as usize] = ZOBRIST32.piece[1][ty];
        ty += 1;
    }
    t
};

/// Signed material-plus-table value of each non-king piece code on each `sq64`, White positive
/// (ALGORITHM.md §5). Kings are 0: their table depends on the game phase.
pub(crate) const PSQ: [[i16; 64]; 16] = {
    let mut t = [[0i16; 64]; 16];
    let mut code = 0;
    while code < 16 {
        let ty = code & 7;
        if ty >= 1 && ty <= 5 {
            let mut s = 0;
            while s < 64 {
                if code & 8 == 0 {
                    t[code][s] = tables::VALUE[ty] + tables::PST[ty][s] as i16;
                } else {
                    t[code][s] = -(tables::VALUE[ty] + tables::PST[ty][s ^ 56] as i16);
                }
                s += 1;
            }
        }
        code += 1;
    }
    t
};

/// State saved by [`Position::make`] and handed back to [`Position::unmake`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Undo {
    captured: Piece,
    castling: u8,
    ep: Square,
    halfmove: u16,
    key: u32,
    key64: u64,
    psq: i16,
}

/// A chess position (see the module documentation). Construct it with [`Position::startpos`]
/// or [`Position::from_fen`], which refuses invalid positions, so every `Position` is legal.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    pub(crate) board: [Piece; 128],
    pub(crate) side: u8,
    pub(crate) castling: u8,
    pub(crate) ep: Square,
    pub(crate) halfmove: u16,
    pub(crate) fullmove: u16,
    pub(crate) kings: [Square; 2],
    /// `bb[colour index][type]` bitboards over `sq64`; `bb[c][0]` is all of colour `c`.
    pub(crate) bb: [[u64; 7]; 2],
    pub(crate) npm: [i16; 2],
    pub(crate) key: u32,
    pub(crate) key64: u64,
    pub(crate) psq: i16,
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

/// The standard start position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

impl Default for Position {
    fn default() -> Self {
        Self::startpos()
    }
}

impl Position {
    /// The standard start position.
    pub fn startpos() -> Position {
        Position::from_fen(START_FEN).expect("start position is valid")
    }

    /// An empty board with the given state; pieces are added with `put_keyed`. Used by the FEN
    /// parser before validation.
    pub(crate) fn empty() -> Position {
        Position {
            board: [0; 128],
            side: WHITE,
            castling: 0,
            ep: NO_SQUARE,
            halfmove: 0,
            fullmove: 1,
            kings: [NO_SQUARE; 2],
            bb: [[0; 7]; 2],
            npm: [0; 2],
            key: 0,
            key64: 0,
            psq: 0,
        }
    }

    /// Recomputes both keys from scratch (after the FEN parser has set up the position).
    pub(crate) fn init_keys(&mut self) {
        let mut key = 0;
        let mut key64 = 0;
        for c in 0..2 {
            let mut all = self.bb[c][0];
            while all != 0 {
                let s = all.trailing_zeros() as usize;
                all &= all - 1;
                let p = self.board[square::sq88(s) as usize] as usize;
                key ^= KEY32[p][s];
                key64 ^= ZOBRIST64.piece[p][s];
            }
        }
        if self.side == BLACK {
            key ^= ZOBRIST32.side;
            key64 ^= ZOBRIST64.side;
        }
        for b in 0..4 {
            if self.castling & (1 << b) != 0 {
                key ^= ZOBRIST32.castling[b];
            }
        }
        key64 ^= ZOBRIST64.castling[self.castling as usize];
        if self.ep != NO_SQUARE {
            key64 ^= ZOBRIST64.ep_file[square::file(self.ep) as usize];
        }
        self.key = key;
        self.key64 = key64;
    }

    // ----- accessors -----

    /// The 128 board bytes in the ALGORITHM.md encoding (index = 0x88 square).
    #[inline]
    pub fn board(&self) -> &[Piece; 128] {
        &self.board
    }

    /// The piece code on a square (0 if empty).
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Piece {
        self.board[sq as usize]
    }

    /// Side to move: 0 white, 8 black.
    #[inline]
    pub fn side(&self) -> u8 {
        self.side
    }

    /// Castling rights: bit 0 white O-O, bit 1 white O-O-O, bit 2 black O-O, bit 3 black O-O-O.
    #[inline]
    pub fn castling(&self) -> u8 {
        self.castling
    }

    /// En-passant square (set after every double push), or 0x80 for none.
    #[inline]
    pub fn ep_square(&self) -> Square {
        self.ep
    }

    /// Plies since the last capture or pawn move.
    #[inline]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// Full-move number (starts at 1, incremented after Black's move).
    #[inline]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    /// The king square of a colour (0 white, 8 black).
    #[inline]
    pub fn king_square(&self, colour: u8) -> Square {
        self.kings[piece::index(colour)]
    }

    /// The 32-bit reference Zobrist key (ALGORITHM.md §6).
    #[inline]
    pub fn key(&self) -> u32 {
        self.key
    }

    /// A 64-bit key (pieces, side, castling, en-passant file) for hash tables and repetition
    /// status; not part of the reference algorithm.
    #[inline]
    pub fn key64(&self) -> u64 {
        self.key64
    }

    /// Number of pieces of a colour (0/8) and type (1..6).
    #[inline]
    pub fn count(&self, colour: u8, piece_type: u8) -> u32 {
        self.bb[piece::index(colour)][piece_type as usize].count_ones()
    }

    /// Bitboard (over `sq64`) of a colour's pieces of one type, or all of them for type 0.
    #[inline]
    pub fn pieces(&self, colour: u8, piece_type: u8) -> u64 {
        self.bb[piece::index(colour)][piece_type as usize]
    }

    /// Non-pawn material of a colour: the sum of `VALUE` over its knights, bishops, rooks,
    /// queens (ALGORITHM.md §1).
    #[inline]
    pub fn npm(&self, colour: u8) -> i16 {
        self.npm[piece::index(colour)]
    }

    /// Material plus piece-square tables of all non-king pieces, White minus Black.
    #[inline]
    pub fn psq(&self) -> i16 {
        self.psq
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.is_attacked(self.kings[piece::index(self.side)], self.side ^ BLACK)
    }

    /// Whether the move captures something (including en passant).
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        self.board[m.to() as usize] != 0 || self.is_en_passant(m)
    }

    /// Whether the move is an en-passant capture.
    #[inline]
    pub fn is_en_passant(&self, m: Move) -> bool {
        m.to() == self.ep && piece::piece_type(self.board[m.from() as usize]) == PAWN
    }

    /// Whether the move is castling.
    #[inline]
    pub fn is_castling(&self, m: Move) -> bool {
        piece::piece_type(self.board[m.from() as usize]) == KING
            && (m.to() as i32 - m.from() as i32).abs() == 2
    }

    /// Tactical in the sense of ALGORITHM.md §2: a capture or a promotion, but not an
    /// underpromotion.
    #[inline]
    pub fn is_tactical(&self, m: Move) -> bool {
        match m.promotion() {
            0 => self.is_capture(m),
            p => p == QUEEN,
        }
    }

    /// Whether there is not enough material to mate (ALGORITHM.md §6): no pawns, rooks or
    /// queens and at most one knight or bishop in all.
    pub fn insufficient_material(&self) -> bool {
        let w = &self.bb[0];
        let b = &self.bb[1];
        if (w[PAWN as usize] | b[PAWN as usize] | w[ROOK as usize] | b[ROOK as usize]) != 0
            || (w[QUEEN as usize] | b[QUEEN as usize]) != 0
        {
            return false;
        }
        let minors =
            w[KNIGHT as usize] | b[KNIGHT as usize] | w[BISHOP as usize] | b[BISHOP as usize];
        minors.count_ones() <= 1
    }

    // ----- piece placement -----

    #[inline]
    fn put(&mut self, sq: Square, p: Piece) {
        self.board[sq as usize] = p;
        let c = piece::index(piece::colour(p));
        let bit = 1u64 << sq64(sq);
        self.bb[c][0] |= bit;
        self.bb[c][piece::piece_type(p) as usize] |= bit;
        self.npm[c] += NPM_VALUE[piece::piece_type(p) as usize];
    }

    #[inline]
    fn clear(&mut self, sq: Square, p: Piece) {
        self.board[sq as usize] = 0;
        let c = piece::index(piece::colour(p));
        let bit = !(1u64 << sq64(sq));
        self.bb[c][0] &= bit;
        self.bb[c][piece::piece_type(p) as usize] &= bit;
        self.npm[c] -= NPM_VALUE[piece::piece_type(p) as usize];
    }

    /// Places a piece and updates keys and the evaluation sum.
    #[inline]
    pub(crate) fn put_keyed(&mut self, sq: Square, p: Piece) {
        self.put(sq, p);
        let s = sq64(sq);
        self.key ^= KEY32[p as usize][s];
        self.key64 ^= ZOBRIST64.piece[p as usize][s];
        self.psq += PSQ[p as usize][s];
        if piece::piece_type(p) == KING {
            self.kings[piece::index(piece::colour(p))] = sq;
        }
    }

    #[inline]
    fn clear_keyed(&mut self, sq: Square, p: Piece) {
        self.clear(sq, p);
        let s = sq64(sq);
        self.key ^= KEY32[p as usize][s];
        self.key64 ^= ZOBRIST64.piece[p as usize][s];
        self.psq -= PSQ[p as usize][s];
    }

    // ----- make / unmake -----

    /// What [`Position::unmake`] needs to restore besides the board: the state a move changes
    /// for good, and `captured` (0 for none).
    #[inline(always)]
    fn undo(&self, captured: Piece) -> Undo {
        Undo {
            captured,
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            key: self.key,
            key64: self.key64,
            psq: self.psq,
        }
    }

    /// Plays a legal move (one returned by [`Position::legal_moves`]) and returns what
    /// [`Position::unmake`] needs to take it back (ALGORITHM.md §4).
    pub fn make(&mut self, m: Move) -> Undo {
        let from = m.from();
        let to = m.to();
        let us = self.side;
        let them = us ^ BLACK;
        let ci = piece::index(us);
        let moving = self.board[from as usize];
        let mut captured = self.board[to as usize];
        let undo = self.undo(captured);
        let is_pawn = piece::piece_type(moving) == PAWN;
        if captured != 0 {
            self.clear_keyed(to, captured);
        } else if is_pawn && to == self.ep {
            let cap_sq = (to as i32 - tables::PAWN_DIR[ci] as i32) as Square;
            captured = PAWN | them;
            self.clear_keyed(cap_sq, captured);
        }
        self.clear_keyed(from, moving);
        let placed = if m.promotion() != 0 {
            m.promotion() | us
        } else {
            moving
        };
        self.put_keyed(to, placed);
        if piece::piece_type(moving) == KING {
            let d = to as i32 - from as i32;
            if d == 2 {
                let rook = ROOK | us;
                self.clear_keyed(to + 1, rook);
                self.put_keyed(to - 1, rook);
            } else if d == -2 {
                let rook = ROOK | us;
                self.clear_keyed(to - 2, rook);
                self.put_keyed(to + 1, rook);
            }
        }
        let rights = self.castling & CASTLE_MASK[from as usize] & CASTLE_MASK[to as usize];
        if rights != self.castling {
            let changed = rights ^ self.castling;
            for b in 0..4 {
                if changed & (1 << b) != 0 {
                    self.key ^= ZOBRIST32.castling[b];
                }
            }
            self.key64 ^=
                ZOBRIST64.castling[self.castling as usize] ^ ZOBRIST64.castling[rights as usize];
            self.castling = rights;
        }
        if self.ep != NO_SQUARE {
            self.key64 ^= ZOBRIST64.ep_file[square::file(self.ep) as usize];
        }
        self.ep = NO_SQUARE;
        if is_pawn {
            self.halfmove = 0;
            if (to as i32 - from as i32).abs() == 32 {
                self.ep = ((from as i32 + to as i32) / 2) as Square;
                self.key64 ^= ZOBRIST64.ep_file[square::file(self.ep) as usize];
            }
        } else if captured != 0 {
            self.halfmove = 0;
        } else {
            self.halfmove = self.halfmove.saturating_add(1);
        }
        if us == BLACK {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = them;
        self.key ^= ZOBRIST32.side;
        self.key64 ^= ZOBRIST64.side;
        undo
    }

    /// Takes back the move `m` made by [`Position::make`], which returned `undo`.
    pub fn unmake(&mut self, m: Move, undo: &Undo) {
        let from = m.from();
        let to = m.to();
        let them = self.side;
        let us = them ^ BLACK;
        self.side = us;
        let ci = piece::index(us);
        let placed = self.board[to as usize];
        let moving = if m.promotion() != 0 {
            PAWN | us
        } else {
            placed
        };
        self.clear(to, placed);
        self.put(from, moving);
        if piece::piece_type(moving) == KING {
            self.kings[ci] = from;
            let d = to as i32 - from as i32;
            if d == 2 {
                self.clear(to - 1, ROOK | us);
                self.put(to + 1, ROOK | us);
            } else if d == -2 {
                self.clear(to + 1, ROOK | us);
                self.put(to - 2, ROOK | us);
            }
        }
        if undo.captured != 0 {
            self.put(to, undo.captured);
        } else if piece::piece_type(moving) == PAWN && to == undo.ep {
            let cap_sq = (to as i32 - tables::PAWN_DIR[ci] as i32) as Square;
            self.put(cap_sq, PAWN | them);
        }
        self.castling = undo.castling;
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.key = undo.key;
        self.key64 = undo.key64;
        self.psq = undo.psq;
        if us == BLACK {
            self.fullmove = self.fullmove.saturating_sub(1);
        }
    }

    /// Plays a legal move for good (no undo).
    pub fn play(&mut self, m: Move) {
        self.make(m);
    }

    /// The null move of ALGORITHM.md §4 (search only): side flips, no en-passant square,
    /// halfmove clock 0. Returns the state for [`Position::unmake_null`].
    pub fn make_null(&mut self) -> Undo {
        let undo = self.undo(0);
        if self.ep != NO_SQUARE {
            self.key64 ^= ZOBRIST64.ep_file[square::file(self.ep) as usize];
        }
        self.ep = NO_SQUARE;
        self.halfmove = 0;
        self.side ^= BLACK;
        self.key ^= ZOBRIST32.side;
        self.key64 ^= ZOBRIST64.side;
        undo
    }

    /// Takes back [`Position::make_null`].
    pub fn unmake_null(&mut self, undo: &Undo) {
        self.side ^= BLACK;
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.key = undo.key;
        self.key64 = undo.key64;
    }

    // ----- attacks -----

    /// Whether `sq` is attacked by a piece of colour `by` (0/8) (ALGORITHM.md §3).
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: u8) -> bool {
        self.attacked_ignoring(sq, by, NO_SQUARE)
    }

    /// Like [`Position::is_attacked`], treating `ignore` as empty (used for king moves, so the
    /// king does not shield the square behind it).
    #[inline]
    pub(crate) fn attacked_ignoring(&self, sq: Square, by: u8, ignore: Square) -> bool {
        let c = piece::index(by);
        let s = sq as i32;
        let pawn = PAWN | by;
        let back = -(tables::PAWN_DIR[c] as i32);
        for d in [back - 1, back + 1] {
            let t = s + d;
            if square::on_board(t) && self.board[t as usize] == pawn {
                return true;
            }
        }
        let bb = &self.bb[c];
        let mut n = bb[KNIGHT as usize];
        while n != 0 {
            let from = square::sq88(n.trailing_zeros() as usize) as i32;
            n &= n - 1;
            if ATTACK_MASK[(s - from + 119) as usize] & tables::type_bit(KNIGHT) != 0 {
                return true;
            }
        }
        let k = self.kings[c] as i32;
        if k != NO_SQUARE as i32
            && ATTACK_MASK[(s - k + 119) as usize] & tables::type_bit(KING) != 0
        {
            return true;
        }
        let mut sliders = bb[BISHOP as usize] | bb[ROOK as usize] | bb[QUEEN as usize];
        while sliders != 0 {
            let from = square::sq88(sliders.trailing_zeros() as usize);
            sliders &= sliders - 1;
            let ty = piece::piece_type(self.board[from as usize]);
            let v = s - from as i32 + 119;
            if ATTACK_MASK[v as usize] & tables::type_bit(ty) != 0 {
                let step = STEP[v as usize] as i32;
                let mut t = from as i32 + step;
                let mut clear = true;
                while t != s {
                    if self.board[t as usize] != 0 && t != ignore as i32 {
                        clear = false;
                        break;
                    }
                    t += step;
                }
                if clear {
                    return true;
                }
            }
        }
        false
    }
}

/// Non-pawn material value by type (pawns and kings count 0).
const NPM_VALUE: [i16; 7] = [
    0,
    0,
    tables::VALUE[2],
    tables::VALUE[3],
    tables::VALUE[4],
    tables::VALUE[5],
    0,
];
