//! Static exchange evaluation: the material balance of the capture sequence on one square when
//! both sides always recapture with their least valuable attacker. Used by the `full` profile
//! to order and prune captures.

use crate::moves::Move;
use crate::piece::{self, BISHOP, BLACK, KING, KNIGHT, PAWN, QUEEN, ROOK};
use crate::position::Position;
use crate::square::{Square, on_board, sq64, sq88};
use crate::tables::{ATTACK_MASK, PAWN_DIR, STEP, type_bit};

/// Exchange values (the king is large so capturing into it never pays).
pub const SEE_VALUE: [i32; 7] = [0, 100, 320, 330, 500, 950, 20000];

/// The least valuable piece of `colour` attacking `to`, ignoring pieces in `gone` (sq64 set),
/// whose squares also count as empty for sliding attacks.
fn least_attacker(pos: &Position, to: Square, colour: u8, gone: u64) -> Option<(Square, u8)> {
    let ci = piece::index(colour);
    let t = to as i32;
    let back = -(PAWN_DIR[ci] as i32);
    for d in [back - 1, back + 1] {
        let s = t + d;
        if on_board(s)
            && pos.board[s as usize] == PAWN | colour
            && gone & (1 << sq64(s as Square)) == 0
        {
            return Some((s as Square, PAWN));
        }
    }
    for ty in [KNIGHT, BISHOP, ROOK, QUEEN, KING] {
        let mut set = pos.bb[ci][ty as usize] & !gone;
        while set != 0 {
            let from = sq88(set.trailing_zeros() as usize);
            set &= set - 1;
            let v = t - from as i32 + 119;
            if ATTACK_MASK[v as usize] & type_bit(ty) == 0 {
                continue;
            }
            if ty == KNIGHT || ty == KING {
                return Some((from, ty));
            }
            let step = STEP[v as usize] as i32;
            let mut s = from as i32 + step;
            let mut clear = true;
            while s != t {
                if pos.board[s as usize] != 0 && gone & (1 << sq64(s as Square)) == 0 {
                    clear = false;
                    break;
                }
                s += step;
            }
            if clear {
                return Some((from, ty));
            }
        }
    }
    None
}

/// Static exchange value of a move in centipawns (positive: the mover gains material).
pub fn see(pos: &Position, m: Move) -> i32 {
    let to = m.to();
    let mut gain = [0i32; 34];
    let moving = piece::piece_type(pos.piece_at(m.from()));
    let victim = if pos.is_en_passant(m) {
        PAWN
    } else {
        piece::piece_type(pos.piece_at(to))
    };
    gain[0] = SEE_VALUE[victim as usize];
    let mut on_square = SEE_VALUE[moving as usize];
    if m.promotion() != 0 {
        gain[0] += SEE_VALUE[m.promotion() as usize] - SEE_VALUE[PAWN as usize];
        on_square = SEE_VALUE[m.promotion() as usize];
    }
    let mut gone = 1u64 << sq64(m.from());
    if pos.is_en_passant(m) {
        let cap = (to as i32 - PAWN_DIR[piece::index(pos.side())] as i32) as Square;
        gone |= 1 << sq64(cap);
    }
    let mut colour = pos.side() ^ BLACK;
    let mut d = 0;
    while d + 1 < gain.len() {
        let Some((from, ty)) = least_attacker(pos, to, colour, gone) else {
            break;
        };
        d += 1;
        gain[d] = on_square - gain[d - 1];
        on_square = SEE_VALUE[ty as usize];
        gone |= 1 << sq64(from);
        colour ^= BLACK;
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defended_pawn_costs_the_queen() {
        let pos = Position::from_fen("4k3/8/3p4/4p3/8/8/8/4QK2 w - - 0 1").unwrap();
        let m = pos.parse_uci("e1e5").unwrap();
        assert_eq!(see(&pos, m), 100 - 950);
        let pos = Position::from_fen("4k3/8/8/4p3/8/8/8/4RK2 w - - 0 1").unwrap();
        assert_eq!(see(&pos, pos.parse_uci("e1e5").unwrap()), 100);
        // x-ray: rook behind rook
        let pos = Position::from_fen("4k3/4r3/8/4p3/8/8/4R3/4RK2 w - - 0 1").unwrap();
        assert_eq!(see(&pos, pos.parse_uci("e2e5").unwrap()), 100);
    }
}
