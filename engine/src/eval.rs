//! The reference evaluation (ALGORITHM.md §5): material plus piece-square tables, with the
//! endgame king table once non-pawn material is low. The non-king part is kept incrementally
//! by the position ([`Position::psq`]); the two king terms are added here.

use crate::piece::{BLACK, WHITE};
use crate::position::Position;
use crate::square::sq64;
use crate::tables::{ENDGAME_NPM, PST, PST_KING_END};

/// Whether the endgame king table applies: `npm[white] + npm[black] <= 2600`.
#[inline]
pub fn is_endgame(pos: &Position) -> bool {
    pos.npm(WHITE) + pos.npm(BLACK) <= ENDGAME_NPM
}

/// The reference evaluation in centipawns from the side to move's point of view.
#[inline]
pub fn evaluate(pos: &Position) -> i16 {
    let king_table = if is_endgame(pos) {
        &PST_KING_END
    } else {
        &PST[6]
    };
    let white_king = king_table[sq64(pos.king_square(WHITE))] as i16;
    let black_king = king_table[sq64(pos.king_square(BLACK)) ^ 56] as i16;
    let score = pos.psq() + white_king - black_king;
    if pos.side() == BLACK { -score } else { score }
}

/// The same evaluation computed from the board alone, square by square, as a port without
/// incremental terms would; used to check the incremental sum.
pub fn evaluate_from_scratch(pos: &Position) -> i16 {
    use crate::piece::{KING, colour, piece_type};
    use crate::square::sq88;
    use crate::tables::VALUE;
    let endgame = is_endgame(pos);
    let mut white = 0i16;
    let mut black = 0i16;
    for s in 0..64 {
        let p = pos.piece_at(sq88(s));
        if p == 0 {
            continue;
        }
        let t = piece_type(p) as usize;
        let idx = if colour(p) == WHITE { s } else { s ^ 56 };
        let table = if t == KING as usize && endgame {
            &PST_KING_END
        } else {
            &PST[t]
        };
        let term = VALUE[t] + table[idx] as i16;
        if colour(p) == WHITE {
            white += term;
        } else {
            black += term;
        }
    }
    let score = white - black;
    if pos.side() == BLACK { -score } else { score }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_balanced() {
        assert_eq!(evaluate(&Position::startpos()), 0);
    }

    #[test]
    fn incremental_sum_matches_scratch_along_a_tree() {
        let mut pos = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        for m in pos.legal_moves().iter().copied() {
            let u = pos.make(m);
            assert_eq!(evaluate(&pos), evaluate_from_scratch(&pos), "after {m}");
            for r in pos.legal_moves().iter().copied() {
                let u2 = pos.make(r);
                assert_eq!(evaluate(&pos), evaluate_from_scratch(&pos), "after {m} {r}");
                pos.unmake(r, &u2);
            }
            pos.unmake(m, &u);
        }
    }
}
