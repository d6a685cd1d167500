//! The `full` profile's evaluation: tapered between middle game and endgame by the remaining
//! material, with material, piece-square tables, mobility, pawn structure (doubled, isolated,
//! passed pawns with king distance), bishop pair, rooks on open files and the seventh rank,
//! and king safety (pawn shield and pressure on the king zone). Not part of the reference.

use crate::piece::{self, BISHOP, BLACK, KNIGHT, PAWN, QUEEN, ROOK, WHITE};
use crate::position::Position;
use crate::square::{self, on_board, sq64, sq88};
use crate::tables::{BISHOP_DIRS, KING_DIRS, KNIGHT_OFFSETS, PST, PST_KING_END, ROOK_DIRS};

/// A middle-game / endgame pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score(pub i32, pub i32);

impl std::ops::Add for Score {
    type Output = Score;
    fn add(self, o: Score) -> Score {
        Score(self.0 + o.0, self.1 + o.1)
    }
}
impl std::ops::AddAssign for Score {
    fn add_assign(&mut self, o: Score) {
        self.0 += o.0;
        self.1 += o.1;
    }
}
impl std::ops::SubAssign for Score {
    fn sub_assign(&mut self, o: Score) {
        self.0 -= o.0;
        self.1 -= o.1;
    }
}
impl std::ops::Mul<i32> for Score {
    type Output = Score;
    fn mul(self, k: i32) -> Score {
        Score(self.0 * k, self.1 * k)
    }
}

/// Material by type, middle game and endgame.
pub const MATERIAL: [Score; 7] = [
    Score(0, 0),
    Score(85, 110),
    Score(325, 310),
    Score(335, 330),
    Score(480, 540),
    Score(960, 1010),
    Score(0, 0),
];

/// Game-phase weight by type (24 = all minor and major pieces on the board).
const PHASE: [i32; 7] = [0, 0, 1, 1, 2, 4, 0];

const PASSED_MG: [i32; 8] = [0, 5, 8, 15, 30, 55, 90, 0];
const PASSED_EG: [i32; 8] = [0, 12, 18, 35, 60, 100, 160, 0];

/// Squares (sq64) in front of a pawn on its file and the adjacent files, by colour index.
const PASSED_MASK: [[u64; 64]; 2] = {
    let mut t = [[0u64; 64]; 2];
    let mut s = 0;
    while s < 64 {
        let f = (s % 8) as i32;
        let r = (s / 8) as i32;
        let mut rr = 0;
        while rr < 8 {
            let mut ff = f - 1;
            while ff <= f + 1 {
                if ff >= 0 && ff < 8 {
                    let bit = 1u64 << (rr * 8 + ff);
                    if rr > r {
                        t[0][s] |= bit;
                    }
                    if rr < r {
                        t[1][s] |= bit;
                    }
                }
                ff += 1;
            }
            rr += 1;
        }
        s += 1;
    }
    t
};

const FILE_MASK: [u64; 8] = {
    let mut t = [0u64; 8];
    let mut f = 0;
    while f < 8 {
        t[f] = 0x0101_0101_0101_0101u64 << f;
        f += 1;
    }
    t
};

/// Endgame centralisation for knights, bishops and queens.
const CENTER_EG: [i32; 64] = {
    let mut t = [0i32; 64];
    let mut s = 0;
    while s < 64 {
        let f = (s % 8) as i32;
        let r = (s / 8) as i32;
        let df = if f < 4 { 3 - f } else { f - 4 };
        let dr = if r < 4 { 3 - r } else { r - 4 };
        t[s] = 12 - 4 * (df + dr);
        s += 1;
    }
    t
};

/// King-safety penalty by accumulated attack weight on the king zone.
fn king_danger(weight: i32) -> i32 {
    let w = weight.min(60);
    w * w / 4 + 2 * w
}

fn chebyshev(a: usize, b: usize) -> i32 {
    let df = ((a % 8) as i32 - (b % 8) as i32).abs();
    let dr = ((a / 8) as i32 - (b / 8) as i32).abs();
    df.max(dr)
}

/// Per-side accumulators.
#[derive(Default)]
struct Side {
    score: Score,
    /// Squares attacked by this side's pawns.
    pawn_attacks: u64,
    /// Weighted attacks on the enemy king zone.
    king_attack_weight: i32,
    king_attackers: i32,
}

/// Evaluates `pos` in centipawns from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let mut sides = [Side::default(), Side::default()];
    let mut phase = 0;
    let king_zone = [king_zone(pos, WHITE), king_zone(pos, BLACK)];
    // Pawn attacks first: minor-piece mobility does not count squares guarded by enemy pawns.
    for (ci, side) in sides.iter_mut().enumerate() {
        let pawns = pos.bb[ci][PAWN as usize];
        side.pawn_attacks = if ci == 0 {
            ((pawns << 7) & !FILE_MASK[7]) | ((pawns << 9) & !FILE_MASK[0])
        } else {
            ((pawns >> 9) & !FILE_MASK[7]) | ((pawns >> 7) & !FILE_MASK[0])
        };
    }
    for ci in 0..2 {
        let them = 1 - ci;
        let enemy = (sides[them].pawn_attacks, king_zone[them]);
        let mut s = pieces(pos, ci, enemy, &mut sides[ci], &mut phase);
        if pos.bb[ci][BISHOP as usize].count_ones() >= 2 {
            s += Score(30, 50);
        }
        s += pawn_structure(pos, ci);
        s += king_shelter(pos, (ci as u8) << 3);
        sides[ci].score += s;
    }
    for side in sides.iter_mut() {
        if side.king_attackers >= 2 {
            let danger = king_danger(side.king_attack_weight);
            side.score += Score(danger, danger / 8);
        }
    }
    let total = Score(
        sides[0].score.0 - sides[1].score.0,
        sides[0].score.1 - sides[1].score.1,
    );
    let phase = phase.min(24);
    let mut score = (total.0 * phase + total.1 * (24 - phase)) / 24;
    score = scale_drawish(pos, score);
    let tempo = 12;
    if pos.side() == BLACK {
        -score + tempo
    } else {
        score + tempo
    }
}

/// The pieces of side `ci`: material and placement of each, and the mobility, king-zone
/// attacks (counted into `side`) and rook files of its pieces; their game phase added to
/// `phase`. `enemy`: the squares the enemy pawns attack and the enemy king's zone.
#[inline(always)]
fn pieces(pos: &Position, ci: usize, enemy: (u64, u64), side: &mut Side, phase: &mut i32) -> Score {
    let own_all = pos.bb[ci][0];
    let mut s = Score::default();
    let mut all = own_all;
    while all != 0 {
        let i = all.trailing_zeros() as usize;
        all &= all - 1;
        let sq = sq88(i);
        let t = piece::piece_type(pos.board[sq as usize]);
        let rel = if ci == 0 { i } else { i ^ 56 };
        *phase += PHASE[t as usize];
        s += MATERIAL[t as usize];
        match t {
            PAWN => {
                s += Score(PST[1][rel] as i32, (rel as i32 / 8) * 4);
            }
            KNIGHT | BISHOP | ROOK | QUEEN => {
                s += officer(pos, ci, (t, sq, i, rel), enemy, side);
            }
            _ => {
                s += Score(PST[6][rel] as i32, PST_KING_END[rel] as i32);
            }
        }
    }
    s
}

/// A knight, bishop, rook or queen of side `ci` (its type, 0x88 square, index and index from
/// its side's point of view): placement, mobility (squares neither own nor guarded by enemy
/// pawns), attacks on the enemy king zone (counted into `side`), and a rook's open or half-open
/// file and seventh rank.
#[inline(always)]
fn officer(
    pos: &Position,
    ci: usize,
    (t, sq, i, rel): (u8, u8, usize, usize),
    (enemy_pawn_attacks, enemy_king_zone): (u64, u64),
    side: &mut Side,
) -> Score {
    let own_all = pos.bb[ci][0];
    let (mg, eg) = match t {
        KNIGHT => (PST[2][rel] as i32, CENTER_EG[i]),
        BISHOP => (PST[3][rel] as i32, CENTER_EG[i] / 2),
        ROOK => (PST[4][rel] as i32, 0),
        _ => (PST[5][rel] as i32, CENTER_EG[i] / 2),
    };
    let mut s = Score(mg, eg);
    let attacks = attacks_of(pos, sq, t);
    let mob = (attacks & !own_all & !enemy_pawn_attacks).count_ones() as i32;
    s += match t {
        KNIGHT => Score(4 * (mob - 4), 4 * (mob - 4)),
        BISHOP => Score(5 * (mob - 6), 5 * (mob - 6)),
        ROOK => Score(2 * (mob - 7), 4 * (mob - 7)),
        _ => Score(mob - 13, 2 * (mob - 13)),
    };
    let zone_hits = (attacks & enemy_king_zone).count_ones() as i32;
    if zone_hits > 0 {
        let w = [0, 0, 2, 2, 3, 5, 0][t as usize];
        side.king_attackers += 1;
        side.king_attack_weight += w * zone_hits;
    }
    if t == ROOK {
        let them = 1 - ci;
        let file = FILE_MASK[i % 8];
        if file & pos.bb[ci][PAWN as usize] == 0 {
            s += if file & pos.bb[them][PAWN as usize] == 0 {
                Score(28, 12)
            } else {
                Score(12, 8)
            };
        }
        if rel / 8 == 6 {
            s += Score(15, 25);
        }
    }
    s
}

/// Pulls scores of material-drawn endings towards zero.
fn scale_drawish(pos: &Position, score: i32) -> i32 {
    let strong = if score > 0 { 0 } else { 1 };
    let pawns = pos.bb[strong][PAWN as usize].count_ones();
    if pawns == 0 {
        let npm = pos.npm[strong] as i32 - pos.npm[1 - strong] as i32;
        if npm < 400 {
            return score / 8;
        }
    }
    score
}

fn pawn_structure(pos: &Position, ci: usize) -> Score {
    let mut s = Score::default();
    let pawns = pos.bb[ci][PAWN as usize];
    let enemy_pawns = pos.bb[1 - ci][PAWN as usize];
    let own_king = sq64(pos.kings[ci]);
    let enemy_king = sq64(pos.kings[1 - ci]);
    let mut p = pawns;
    while p != 0 {
        let i = p.trailing_zeros() as usize;
        p &= p - 1;
        let f = i % 8;
        let rel_rank = if ci == 0 { i / 8 } else { 7 - i / 8 };
        let adjacent =
            (if f > 0 { FILE_MASK[f - 1] } else { 0 }) | (if f < 7 { FILE_MASK[f + 1] } else { 0 });
        if pawns & adjacent == 0 {
            s -= Score(10, 14);
        }
        if (pawns & FILE_MASK[f]).count_ones() > 1 {
            s -= Score(6, 12);
        }
        if PASSED_MASK[ci][i] & enemy_pawns == 0 {
            let mut bonus = Score(PASSED_MG[rel_rank], PASSED_EG[rel_rank]);
            let front = if ci == 0 { i + 8 } else { i - 8 };
            if front < 64 {
                let blocked = pos.board[sq88(front) as usize] != 0;
                if blocked {
                    bonus.1 = bonus.1 * 2 / 3;
                }
                let weight = rel_rank as i32;
                bonus.1 += weight * (2 * chebyshev(front, enemy_king) - chebyshev(front, own_king));
            }
            s += bonus;
        }
    }
    s
}

fn king_shelter(pos: &Position, colour: u8) -> Score {
    let ci = piece::index(colour);
    let k = pos.kings[ci];
    let kf = square::file(k) as i32;
    let kr = square::rank(k) as i32;
    let home = if colour == WHITE { kr <= 1 } else { kr >= 6 };
    if !home {
        return Score(-20, 0);
    }
    let dir = if colour == WHITE { 1 } else { -1 };
    let mut missing = 0;
    for df in -1..=1 {
        let f = kf + df;
        if !(0..8).contains(&f) {
            continue;
        }
        let r1 = kr + dir;
        let r2 = kr + 2 * dir;
        let own_pawn = PAWN | colour;
        let at = |r: i32| {
            (0..8).contains(&r) && pos.board[square::square(f as u8, r as u8) as usize] == own_pawn
        };
        // A pawn one step ahead is a full shield, two steps ahead half of one.
        if !at(r1) {
            missing += if at(r2) { 1 } else { 3 };
        }
    }
    Score(-8 * missing, 0)
}

/// Squares around a king plus the squares in front of the ring (sq64 bitboard).
fn king_zone(pos: &Position, colour: u8) -> u64 {
    let k = pos.kings[piece::index(colour)];
    let mut zone = 1u64 << sq64(k);
    for d in KING_DIRS {
        let t = k as i32 + d as i32;
        if on_board(t) {
            zone |= 1 << sq64(t as u8);
            let f = t + if colour == WHITE { 16 } else { -16 };
            if on_board(f) && (d == 15 || d == 16 || d == 17 || d == -15 || d == -16 || d == -17) {
                zone |= 1 << sq64(f as u8);
            }
        }
    }
    zone
}

/// Squares attacked by a piece (sq64 bitboard), sliding rays stopping at the first piece.
fn attacks_of(pos: &Position, sq: u8, t: u8) -> u64 {
    let mut a = 0u64;
    if t == KNIGHT {
        for off in KNIGHT_OFFSETS {
            let to = sq as i32 + off as i32;
            if on_board(to) {
                a |= 1 << sq64(to as u8);
            }
        }
        return a;
    }
    let dirs: &[i8] = match t {
        BISHOP => &BISHOP_DIRS,
        ROOK => &ROOK_DIRS,
        _ => &KING_DIRS,
    };
    for &d in dirs {
        let mut to = sq as i32 + d as i32;
        while on_board(to) {
            a |= 1 << sq64(to as u8);
            if pos.board[to as usize] != 0 {
                break;
            }
            to += d as i32;
        }
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mirror(fen: &str) -> String {
        let parts: Vec<&str> = fen.split(' ').collect();
        let board: Vec<String> = parts[0]
            .split('/')
            .rev()
            .map(|r| {
                r.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        let side = if parts[1] == "w" { "b" } else { "w" };
        format!("{} {} - - 0 1", board.join("/"), side)
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        ] {
            let a = evaluate(&Position::from_fen(fen).unwrap());
            let b = evaluate(&Position::from_fen(&mirror(fen)).unwrap());
            assert_eq!(a, b, "{fen}");
        }
    }

    #[test]
    fn extra_queen_is_winning() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
        assert!(evaluate(&pos) > 800);
    }
}
