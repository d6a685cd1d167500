//! The numeric tables of the reference algorithm (`docs/ALGORITHM.md` sections 4, 5, 6 and 8)
//! and the 0x88 geometry tables derived from them.
//!
//! Everything here is public so that `kempelen gen-tables` can emit assembler include files for
//! the 8-bit ports, and a test (`tests/algorithm_doc.rs`) compares these constants with the
//! tables printed in the document, so the two cannot drift apart.

/// Material value by piece type (index 1 pawn ... 6 king; index 0 unused), ALGORITHM.md §5.
pub const VALUE: [i16; 7] = [0, 100, 320, 330, 500, 900, 0];

/// Non-pawn material at or below which the endgame king table applies (both sides together).
pub const ENDGAME_NPM: i16 = 2600;

/// Piece-square tables from White's point of view, indexed by `[type][sq64]` with `sq64 = 0` at
/// a1 (the document prints them rank 8 first). Index 6 is the middle-game king table.
pub const PST: [[i8; 64]; 7] = [
    [0; 64],
    // pawn
    flip([
        0, 0, 0, 0, 0, 0, 0, 0, //
        50, 50, 50, 50, 50, 50, 50, 50, //
        12, 14, 20, 28, 28, 20, 14, 12, //
        6, 8, 12, 22, 22, 12, 8, 6, //
        2, 4, 8, 20, 20, 8, 4, 2, //
        4, 2, 4, 8, 8, 0, 2, 4, //
        0, 0, 0, -18, -18, 6, 6, 4, //
        0, 0, 0, 0, 0, 0, 0, 0,
    ]),
    // knight
    flip([
        -45, -30, -20, -20, -20, -20, -30, -45, //
        -30, -12, 0, 4, 4, 0, -12, -30, //
        -20, 4, 12, 16, 16, 12, 4, -20, //
        -20, 4, 16, 22, 22, 16, 4, -20, //
        -20, 2, 14, 20, 20, 14, 2, -20, //
        -20, 2, 10, 12, 12, 10, 2, -20, //
        -30, -12, 0, 4, 4, 0, -12, -30, //
        -45, -25, -20, -20, -20, -20, -25, -45,
    ]),
    // bishop
    flip([
        -18, -10, -10, -10, -10, -10, -10, -18, //
        -10, 0, 0, 0, 0, 0, 0, -10, //
        -10, 0, 6, 10, 10, 6, 0, -10, //
        -10, 6, 6, 10, 10, 6, 6, -10, //
        -10, 0, 10, 10, 10, 10, 0, -10, //
        -10, 10, 10, 10, 10, 10, 10, -10, //
        -10, 6, 0, 0, 0, 0, 6, -10, //
        -18, -10, -12, -10, -10, -12, -10, -18,
    ]),
    // rook
    flip([
        0, 0, 0, 4, 4, 0, 0, 0, //
        8, 12, 12, 12, 12, 12, 12, 8, //
        -4, 0, 0, 0, 0, 0, 0, -4, //
        -4, 0, 0, 0, 0, 0, 0, -4, //
        -4, 0, 0, 0, 0, 0, 0, -4, //
        -4, 0, 0, 0, 0, 0, 0, -4, //
        -4, 0, 0, 0, 0, 0, 0, -4, //
        0, 0, 0, 6, 6, 4, 0, 0,
    ]),
    // queen
    flip([
        -20, -10, -10, -4, -4, -10, -10, -20, //
        -10, 0, 0, 0, 0, 0, 0, -10, //
        -10, 0, 4, 4, 4, 4, 0, -10, //
        -4, 0, 4, 6, 6, 4, 0, -4, //
        -4, 0, 4, 6, 6, 4, 0, -4, //
        -10, 2, 4, 4, 4, 4, 0, -10, //
        -10, 0, 2, 0, 0, 0, 0, -10, //
        -20, -10, -10, -4, -4, -10, -10, -20,
    ]),
    // king, middle game
    flip([
        -32, -42, -42, -52, -52, -42, -42, -32, //
        -32, -42, -42, -52, -52, -42, -42, -32, //
        -32, -42, -42, -52, -52, -42, -42, -32, //
        -32, -42, -42, -52, -52, -42, -42, -32, //
        -22, -32, -32, -42, -42, -32, -32, -22, //
        -12, -22, -22, -24, -24, -22, -22, -12, //
        14, 14, -4, -8, -8, -4, 14, 14, //
        18, 28, 8, -2, 0, 6, 30, 18,
    ]),
];

/// The endgame king table (ALGORITHM.md §5), indexed by `sq64` from White's point of view.
pub const PST_KING_END: [i8; 64] = flip([
    -50, -36, -26, -20, -20, -26, -36, -50, //
    -36, -16, -6, 0, 0, -6, -16, -36, //
    -26, -6, 14, 22, 22, 14, -6, -26, //
    -20, 0, 22, 30, 30, 22, 0, -20, //
    -20, 0, 22, 30, 30, 22, 0, -20, //
    -26, -6, 14, 22, 22, 14, -6, -26, //
    -36, -16, -6, 0, 0, -6, -16, -36, //
    -50, -36, -26, -20, -20, -26, -36, -50,
]);

/// Turns a table written the way the document prints it (rank 8 first) into `sq64` order.
const fn flip(printed: [i8; 64]) -> [i8; 64] {
    let mut out = [0i8; 64];
    let mut i = 0;
    while i < 64 {
        out[i ^ 56] = printed[i];
        i += 1;
    }
    out
}

/// Castling-rights mask by 0x88 square (ALGORITHM.md §4): `rights &= MASK[from] & MASK[to]`.
pub const CASTLE_MASK: [u8; 128] = {
    let mut m = [0x0Fu8; 128];
    m[0x00] = 0x0D;
    m[0x04] = 0x0C;
    m[0x07] = 0x0E;
    m[0x70] = 0x07;
    m[0x74] = 0x03;
    m[0x77] = 0x0B;
    m
};

/// Start value of the xorshift32 generator for the Zobrist keys ("KEMP").
pub const ZOBRIST_SEED: u32 = 0x4B45_4D50;

/// One step of the xorshift32 generator of ALGORITHM.md §6; returns the new state, which is
/// also the output.
pub const fn xorshift32(mut x: u32) -> u32 {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    x
}

/// The 32-bit reference Zobrist keys, in the order they are drawn from the generator.
#[derive(Clone, Debug)]
pub struct Zobrist32 {
    /// `piece[colour][type][sq64]`, colour 0 white / 1 black, type 1..6 (index 0 unused, zero).
    pub piece: [[[u32; 64]; 7]; 2],
    /// XORed in when Black is to move.
    pub side: u32,
    /// One key per castling-rights bit 0..3.
    pub castling: [u32; 4],
}

/// The reference keys (ALGORITHM.md §6), computed at compile time.
pub const ZOBRIST32: Zobrist32 = {
    let mut z = Zobrist32 {
        piece: [[[0; 64]; 7]; 2],
        side: 0,
        castling: [0; 4],
    };
    let mut x = ZOBRIST_SEED;
    let mut c = 0;
    while c < 2 {
        let mut t = 1;
        while t <= 6 {
            let mut s = 0;
            while s < 64 {
                x = xorshift32(x);
                z.piece[c][t][s] = x;
                s += 1;
            }
            t += 1;
        }
        c += 1;
    }
    x = xorshift32(x);
    z.side = x;
    let mut b = 0;
    while b < 4 {
        x = xorshift32(x);
        z.castling[b] = x;
        b += 1;
    }
    z
};

/// 64-bit keys for the `full` profile's transposition table and for game repetition status.
/// Not part of the reference algorithm.
#[derive(Clone, Debug)]
pub struct Zobrist64 {
    /// `piece[code][sq64]` indexed by the piece code (0x01..0x0E).
    pub piece: [[u64; 64]; 16],
    /// XORed in when Black is to move.
    pub side: u64,
    /// By the 4-bit castling-rights value.
    pub castling: [u64; 16],
    /// By the file of the en-passant square.
    pub ep_file: [u64; 8],
}

/// The 64-bit keys (xorshift64 from a fixed seed), computed at compile time.
pub const ZOBRIST64: Zobrist64 = {
    const fn next(mut x: u64) -> u64 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
    let mut z = Zobrist64 {
        piece: [[0; 64]; 16],
        side: 0,
        castling: [0; 16],
        ep_file: [0; 8],
    };
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut p = 0;
    while p < 16 {
        let mut s = 0;
        while s < 64 {
            x = next(x);
            z.piece[p][s] = x;
            s += 1;
        }
        p += 1;
    }
    x = next(x);
    z.side = x;
    let mut i = 0;
    while i < 16 {
        x = next(x);
        z.castling[i] = x;
        i += 1;
    }
    let mut f = 0;
    while f < 8 {
        x = next(x);
        z.ep_file[f] = x;
        f += 1;
    }
    z
};

/// Ordering key of the principal-variation move (ALGORITHM.md §8).
pub const KEY_PV: u8 = 255;
/// Base of the capture key `KEY_CAPTURE + 8 * victim - attacker`.
pub const KEY_CAPTURE: u8 = 160;
/// Ordering key of a non-capturing promotion to a queen.
pub const KEY_QUEEN_PROMOTION: u8 = 160;
/// Ordering key of the first killer move.
pub const KEY_KILLER1: u8 = 150;
/// Ordering key of the second killer move.
pub const KEY_KILLER2: u8 = 140;
/// Ordering key of every other move.
pub const KEY_OTHER: u8 = 1;

/// Pawn move directions by colour index (ALGORITHM.md §3).
pub const PAWN_DIR: [i8; 2] = [16, -16];
/// Knight offsets in generation order.
pub const KNIGHT_OFFSETS: [i8; 8] = [-33, -31, -18, -14, 14, 18, 31, 33];
/// Bishop directions in generation order.
pub const BISHOP_DIRS: [i8; 4] = [-17, -15, 15, 17];
/// Rook directions in generation order.
pub const ROOK_DIRS: [i8; 4] = [-16, -1, 1, 16];
/// Queen and king directions in generation order.
pub const KING_DIRS: [i8; 8] = [-17, -16, -15, -1, 1, 15, 16, 17];

/// Bit set in [`ATTACK_MASK`] for each piece type that attacks along a vector.
pub const fn type_bit(piece_type: u8) -> u8 {
    1 << piece_type
}

/// Bit for a white pawn's attack vectors (+15, +17); `type_bit(1)` is used for Black's.
pub const WHITE_PAWN_BIT: u8 = 1 << 7;

/// For a vector `to - from` (index `to - from + 119`): which piece types could attack along it
/// ignoring blockers. Pawn bits: bit 1 black pawn (-15, -17), bit 7 white pawn (+15, +17).
pub const ATTACK_MASK: [u8; 239] = {
    let mut t = [0u8; 239];
    let mut i = 0;
    while i < 8 {
        let k = KNIGHT_OFFSETS[i] as i32;
        t[(k + 119) as usize] |= type_bit(2);
        let d = KING_DIRS[i] as i32;
        t[(d + 119) as usize] |= type_bit(6);
        let mut n = 1;
        while n < 8 {
            let v = d * n;
            let diagonal = d == -17 || d == -15 || d == 15 || d == 17;
            if diagonal {
                t[(v + 119) as usize] |= type_bit(3) | type_bit(5);
            } else {
                t[(v + 119) as usize] |= type_bit(4) | type_bit(5);
            }
            n += 1;
        }
        i += 1;
    }
    t[(15 + 119) as usize] |= WHITE_PAWN_BIT;
    t[(17 + 119) as usize] |= WHITE_PAWN_BIT;
    t[(-15 + 119) as usize] |= type_bit(1);
    t[(-17 + 119) as usize] |= type_bit(1);
    t
};

/// For a vector `to - from` (index `to - from + 119`) along a line: the unit step from `from`
/// towards `to`, else 0.
pub const STEP: [i8; 239] = {
    let mut t = [0i8; 239];
    let mut i = 0;
    while i < 8 {
        let d = KING_DIRS[i] as i32;
        let mut n = 1;
        while n < 8 {
            t[(d * n + 119) as usize] = d as i8;
            n += 1;
        }
        i += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_zobrist_key_is_first_generator_output() {
        assert_eq!(ZOBRIST32.piece[0][1][0], xorshift32(ZOBRIST_SEED));
        assert_ne!(ZOBRIST32.side, 0);
    }

    #[test]
    fn printed_tables_are_flipped_into_sq64_order() {
        // The last printed row of the king table is rank 1: a1 = 18, g1 = 30.
        assert_eq!(PST[6][0], 18);
        assert_eq!(PST[6][6], 30);
        // Pawn row "50" is rank 7.
        assert_eq!(PST[1][48], 50);
    }
}
