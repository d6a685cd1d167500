//! The one legal move generator (ALGORITHM.md §3). It serves perft, both search profiles and
//! the parsing of UCI and SAN text, and emits moves in the canonical order of the document:
//! squares a1..h8, per piece the listed directions, promotions queen, rook, bishop, knight.
//!
//! Legality is decided while generating, from the checkers and pinned pieces computed once per
//! position, so the emitted list is legal and still in canonical order. En passant, the one
//! move that can uncover two lines at once, is tested by making it on a copy.

pub use crate::moves::GenMode;
use crate::moves::{Move, MoveList};
use crate::piece::{self, BISHOP, BLACK, KNIGHT, PAWN, QUEEN, ROOK};
use crate::position::{Legality, Position};
use crate::square::{self, NO_SQUARE, Square, on_board, sq64, sq88};
use crate::tables::{self, ATTACK_MASK, BISHOP_DIRS, KING_DIRS, KNIGHT_OFFSETS, ROOK_DIRS, STEP};

const PROMOTIONS: [u8; 4] = [QUEEN, ROOK, BISHOP, KNIGHT];

impl Position {
    /// The legal moves in canonical order.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list, GenMode::All);
        list
    }

    /// Fills `list` with the legal moves of `mode` in canonical order.
    pub fn generate(&self, list: &mut MoveList, mode: GenMode) {
        list.clear();
        let info = self.legality();
        let quiet = mode == GenMode::All;
        let us = self.side;
        let ci = piece::index(us);
        let mut own = self.bb[ci][0];
        while own != 0 {
            let from = sq88(own.trailing_zeros() as usize);
            own &= own - 1;
            let p = self.board[from as usize];
            match piece::piece_type(p) {
                PAWN => self.gen_pawn(list, &info, from, quiet),
                KNIGHT => {
                    if info.checkers < 2 {
                        let free = Self::unrestricted(&info, from);
                        for off in KNIGHT_OFFSETS {
                            self.gen_step(list, &info, from, off, quiet, free);
                        }
                    }
                }
                BISHOP => self.gen_slider(list, &info, from, &BISHOP_DIRS, quiet),
                ROOK => self.gen_slider(list, &info, from, &ROOK_DIRS, quiet),
                QUEEN => self.gen_slider(list, &info, from, &KING_DIRS, quiet),
                _ => self.gen_king(list, &info, from, quiet),
            }
        }
    }

    fn legality(&self) -> Legality {
        let us = self.side;
        let them = us ^ BLACK;
        let ci = piece::index(us);
        let ti = piece::index(them);
        let king = self.kings[ci];
        let k = king as i32;
        let mut checkers = 0;
        let mut evasion = 0u64;
        let mut pinned = 0u64;
        let f = tables::PAWN_DIR[ci] as i32;
        for d in [f - 1, f + 1] {
            let t = k + d;
            if on_board(t) && self.board[t as usize] == PAWN | them {
                checkers += 1;
                evasion |= 1 << sq64(t as Square);
            }
        }
        let mut n = self.bb[ti][KNIGHT as usize];
        while n != 0 {
            let s = n.trailing_zeros() as usize;
            n &= n - 1;
            let from = sq88(s) as i32;
            if ATTACK_MASK[(k - from + 119) as usize] & tables::type_bit(KNIGHT) != 0 {
                checkers += 1;
                evasion |= 1 << s;
            }
        }
        let mut sliders =
            self.bb[ti][BISHOP as usize] | self.bb[ti][ROOK as usize] | self.bb[ti][QUEEN as usize];
        while sliders != 0 {
            let s = sliders.trailing_zeros() as usize;
            sliders &= sliders - 1;
            let from = sq88(s) as i32;
            let ty = piece::piece_type(self.board[from as usize]);
            if ATTACK_MASK[(k - from + 119) as usize] & tables::type_bit(ty) == 0 {
                continue;
            }
            let step = STEP[(from - k + 119) as usize] as i32;
            let mut t = k + step;
            let mut ray = 0u64;
            let mut blocker = NO_SQUARE;
            let mut blocked_twice = false;
            while t != from {
                if self.board[t as usize] != 0 {
                    if blocker != NO_SQUARE {
                        blocked_twice = true;
                        break;
                    }
                    blocker = t as Square;
                }
                ray |= 1 << sq64(t as Square);
                t += step;
            }
            if blocked_twice {
                continue;
            }
            if blocker == NO_SQUARE {
                checkers += 1;
                evasion |= ray | (1 << s);
            } else if piece::colour(self.board[blocker as usize]) == us {
                pinned |= 1 << sq64(blocker);
            }
        }
        if checkers == 0 {
            evasion = !0;
        }
        Legality {
            king,
            checkers,
            evasion,
            pinned,
        }
    }

    /// Whether every pseudo-legal move of the piece on `from` (other than en passant) is legal:
    /// not in check and not pinned. The common case, decided once per piece.
    #[inline]
    fn unrestricted(info: &Legality, from: Square) -> bool {
        info.checkers == 0 && info.pinned & (1 << sq64(from)) == 0
    }

    /// Whether a non-king, non-en-passant move is legal given the check and pin information.
    #[inline]
    fn legal_non_king(&self, info: &Legality, from: Square, to: Square) -> bool {
        if info.checkers >= 2 || info.evasion & (1 << sq64(to)) == 0 {
            return false;
        }
        if info.pinned & (1 << sq64(from)) != 0 {
            let k = info.king as i32;
            return STEP[(to as i32 - k + 119) as usize] == STEP[(from as i32 - k + 119) as usize];
        }
        true
    }

    fn en_passant_legal(&self, from: Square, to: Square) -> bool {
        let mut copy = self.clone();
        copy.make(Move::new(from, to, 0));
        !copy.is_attacked(copy.kings[piece::index(self.side)], copy.side)
    }

    fn gen_pawn(&self, list: &mut MoveList, info: &Legality, from: Square, quiet: bool) {
        let us = self.side;
        let ci = piece::index(us);
        let f = tables::PAWN_DIR[ci] as i32;
        let last_rank = if us == BLACK { 0 } else { 7 };
        let start_rank = if us == BLACK { 6 } else { 1 };
        let push = (from as i32 + f) as Square;
        let promotes = square::rank(push) == last_rank;
        let free = Self::unrestricted(info, from);
        let ok = |to: Square| free || self.legal_non_king(info, from, to);
        if self.board[push as usize] == 0 {
            if promotes {
                if ok(push) {
                    emit_promotions(list, from, push, quiet);
                }
            } else if quiet {
                if ok(push) {
                    list.push(Move::new(from, push, 0));
                }
                let double = (push as i32 + f) as Square;
                if square::rank(from) == start_rank
                    && self.board[double as usize] == 0
                    && ok(double)
                {
                    list.push(Move::new(from, double, 0));
                }
            }
        }
        for side_step in [-1, 1] {
            let t = from as i32 + f + side_step;
            if !on_board(t) {
                continue;
            }
            let to = t as Square;
            let target = self.board[to as usize];
            if target != 0 && piece::colour(target) != us {
                if ok(to) {
                    if promotes {
                        emit_promotions(list, from, to, quiet);
                    } else {
                        list.push(Move::new(from, to, 0));
                    }
                }
            } else if target == 0 && to == self.ep && self.en_passant_legal(from, to) {
                list.push(Move::new(from, to, 0));
            }
        }
    }

    #[inline]
    fn gen_step(
        &self,
        list: &mut MoveList,
        info: &Legality,
        from: Square,
        off: i8,
        quiet: bool,
        free: bool,
    ) {
        let t = from as i32 + off as i32;
        if !on_board(t) {
            return;
        }
        let to = t as Square;
        if self.wanted(to, quiet) && (free || self.legal_non_king(info, from, to)) {
            list.push(Move::new(from, to, 0));
        }
    }

    /// Whether a step to `to` is a move of the kind asked for: onto an empty square when
    /// `quiet` moves are wanted, onto an opponent's piece always (captures).
    #[inline(always)]
    fn wanted(&self, to: Square, quiet: bool) -> bool {
        let target = self.board[to as usize];
        if target == 0 {
            quiet
        } else {
            piece::colour(target) != self.side
        }
    }

    fn gen_slider(
        &self,
        list: &mut MoveList,
        info: &Legality,
        from: Square,
        dirs: &[i8],
        quiet: bool,
    ) {
        if info.checkers >= 2 {
            return;
        }
        let free = Self::unrestricted(info, from);
        for &d in dirs {
            let mut t = from as i32 + d as i32;
            while on_board(t) {
                let to = t as Square;
                let target = self.board[to as usize];
                if target == 0 {
                    if quiet && (free || self.legal_non_king(info, from, to)) {
                        list.push(Move::new(from, to, 0));
                    }
                } else {
                    if piece::colour(target) != self.side
                        && (free || self.legal_non_king(info, from, to))
                    {
                        list.push(Move::new(from, to, 0));
                    }
                    break;
                }
                t += d as i32;
            }
        }
    }

    fn gen_king(&self, list: &mut MoveList, info: &Legality, from: Square, quiet: bool) {
        let them = self.side ^ BLACK;
        for d in KING_DIRS {
            let t = from as i32 + d as i32;
            if !on_board(t) {
                continue;
            }
            let to = t as Square;
            if self.wanted(to, quiet) && !self.attacked_ignoring(to, them, from) {
                list.push(Move::new(from, to, 0));
            }
        }
        if !quiet || info.checkers != 0 {
            return;
        }
        let (short_bit, long_bit) = if self.side == BLACK { (4, 8) } else { (1, 2) };
        let b = &self.board;
        let f = from as usize;
        if self.castling & short_bit != 0
            && b[f + 1] == 0
            && b[f + 2] == 0
            && !self.is_attacked(from + 1, them)
            && !self.attacked_ignoring(from + 2, them, from)
        {
            list.push(Move::new(from, from + 2, 0));
        }
        if self.castling & long_bit != 0
            && b[f - 1] == 0
            && b[f - 2] == 0
            && b[f - 3] == 0
            && !self.is_attacked(from - 1, them)
            && !self.attacked_ignoring(from - 2, them, from)
        {
            list.push(Move::new(from, from - 2, 0));
        }
    }

    /// The legal move with these squares and promotion, if there is one.
    pub fn find_move(&self, from: Square, to: Square, promotion: u8) -> Option<Move> {
        let m = Move::new(from, to, promotion);
        self.legal_moves().contains(m).then_some(m)
    }

    /// Parses UCI text (`e2e4`, `e7e8q`) into a legal move of this position.
    pub fn parse_uci(&self, text: &str) -> Result<Move, crate::moves::MoveError> {
        let m = Move::parse_uci_parts(text)
            .ok_or_else(|| crate::moves::MoveError::Syntax(text.to_string(), "UCI"))?;
        self.find_move(m.from(), m.to(), m.promotion())
            .ok_or_else(|| crate::moves::MoveError::Illegal(text.to_string()))
    }
}

#[inline]
fn emit_promotions(list: &mut MoveList, from: Square, to: Square, quiet: bool) {
    if quiet {
        for p in PROMOTIONS {
            list.push(Move::new(from, to, p));
        }
    } else {
        list.push(Move::new(from, to, QUEEN));
    }
}
