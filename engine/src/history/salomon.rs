//! `salomon`: the program of the diploma thesis "Salomon Chess" (TU Graz, 1992).
//!
//! Search (thesis chapters 2.4.3, 2.4.5 and 4.1, appendix on v3.7): iterative deepening with an
//! aspiration window of `MaxGewinn` around the last value and a full-window re-search when the
//! value falls outside; alpha-beta; moves pre-scored (principal variation, recapture, killers,
//! material gained, checks) and sorted; five killer moves a ply, the worst replaced; in the
//! last iteration the principal variation is searched one ply deeper; a quiescence search of
//! captures with stand-pat, the futility cut ("a pawn capture can gain at most 100 + 100") and
//! a full-width answer to check; lazy evaluation (the positional part is at most about 120).
//!
//! Evaluation (chapter 4.3): material 100/325/325/500/900, endgame flags (< 2000 material),
//! the mating routine, pawn structure and passed pawns, knight centralisation, bishop pair,
//! mobility weighted queen : rook : bishop = 1 : 3 : 4, rook files and ranks, early queen
//! moves, king safety (the four cases with Figurensumme and Koenigsrelation) and king activity
//! in the endgame. See `docs/history/salomon.md` for what the thesis leaves open.

use super::Budget;
use crate::engine::{INF, Limits, MATE, SearchControl, SearchResult};
use crate::game::Game;
use crate::movegen::GenMode;
use crate::moves::{Move, MoveList};
use crate::piece::{self, BISHOP, BLACK, KNIGHT, PAWN, QUEEN, ROOK, WHITE};
use crate::position::Position;
use crate::pv::{PvTable, followed_move};
use crate::square::Square;

/// Deepest iteration.
pub const MAX_DEPTH: u32 = 32;
const MAX_PLY: usize = 96;
/// Piece values (thesis 4.3): pawn 100, knight 325, bishop 325, rook 500, queen 900.
pub const VALUE: [i32; 7] = [0, 100, 325, 325, 500, 900, 0];
/// Half-width of the aspiration window (`MaxGewinn`; the thesis gives no number).
pub const MAX_GAIN: i32 = 50;
/// Killer moves kept per ply (`MaxKillerZuege`).
pub const KILLERS: usize = 5;
/// Most the positional part adds (lazy evaluation and the futility cut).
pub const POSITIONAL_MAX: i32 = 120;
/// Futility margin for the positional change of a capture in quiescence (the thesis' example:
/// "100 for the pawn + 100 positional").
pub const FUTILITY_MARGIN: i32 = 100;
/// A side is in the endgame below this much material (pawns included).
pub const ENDGAME_MATERIAL: i32 = 2000;

/// The evaluation split into its terms, White minus Black, in centipawns.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Terms {
    /// Material.
    pub material: f64,
    /// Endgame bonus of the side ahead: min(own pawns, 3) x 10.
    pub endgame_bonus: f64,
    /// The mating routine's value (replaces the rest when it applies).
    pub mating: Option<f64>,
    /// Pawn structure: blocked centre pawns, isolated, doubled, tripled, backward, advance.
    pub pawns: f64,
    /// Passed pawns.
    pub passed: f64,
    /// Knights: centralisation, undeveloped.
    pub knights: f64,
    /// Bishops: pair, undeveloped.
    pub bishops: f64,
    /// Mobility of queens, rooks and bishops (1 : 3 : 4, centre squares double).
    pub mobility: f64,
    /// Rooks: files, 7th rank, behind passed pawns, doubled.
    pub rooks: f64,
    /// Queen out early.
    pub queens: f64,
    /// King safety (opening and middlegame) or king activity (endgame).
    pub king: f64,
}

impl Terms {
    /// The total in centipawns, White's view.
    pub fn total(&self) -> i32 {
        if let Some(m) = self.mating {
            return m.round() as i32;
        }
        (self.material
            + self.endgame_bonus
            + self.pawns
            + self.passed
            + self.knights
            + self.bishops
            + self.mobility
            + self.rooks
            + self.queens
            + self.king)
            .round() as i32
    }
}

fn rank_of(sq: Square) -> i32 {
    (sq >> 4) as i32
}
fn file_of(sq: Square) -> i32 {
    (sq & 7) as i32
}
fn squares(bb: u64) -> impl Iterator<Item = Square> {
    let mut b = bb;
    std::iter::from_fn(move || {
        if b == 0 {
            return None;
        }
        let s = b.trailing_zeros() as u8;
        b &= b - 1;
        Some(((s >> 3) << 4) | (s & 7))
    })
}
/// Rank counted from the side's own back rank (0..7).
fn rel_rank(sq: Square, colour: u8) -> i32 {
    if colour == WHITE {
        rank_of(sq)
    } else {
        7 - rank_of(sq)
    }
}

/// Material of one side, pawns included (kings excluded).
pub fn material(pos: &Position, c: u8) -> i32 {
    (PAWN..=QUEEN)
        .map(|t| pos.count(c, t) as i32 * VALUE[t as usize])
        .sum()
}

/// Whether a side is in the endgame (its material below 2000).
pub fn in_endgame(pos: &Position, c: u8) -> bool {
    material(pos, c) < ENDGAME_MATERIAL
}

fn pawn_files(pos: &Position, c: u8) -> [i32; 8] {
    let mut f = [0; 8];
    for s in squares(pos.pieces(c, PAWN)) {
        f[file_of(s) as usize] += 1;
    }
    f
}

fn is_passed(pos: &Position, sq: Square, c: u8) -> bool {
    let them = c ^ BLACK;
    let (r, f) = (rank_of(sq), file_of(sq));
    squares(pos.pieces(them, PAWN)).all(|s| {
        let ahead = if c == WHITE {
            rank_of(s) > r
        } else {
            rank_of(s) < r
        };
        !(ahead && (file_of(s) - f).abs() <= 1)
    })
}

/// Pawns of `by` that attack `sq`.
fn pawn_attackers(pos: &Position, sq: Square, by: u8) -> i32 {
    let dir: i32 = if by == WHITE { -16 } else { 16 };
    [-1, 1]
        .iter()
        .filter(|&&df| {
            let s = sq as i32 + dir + df;
            s >= 0 && s & 0x88 == 0 && pos.piece_at(s as Square) == (PAWN | by)
        })
        .count() as i32
}

fn is_backward(pos: &Position, sq: Square, c: u8) -> bool {
    let (r, f) = (rank_of(sq), file_of(sq));
    let supported = squares(pos.pieces(c, PAWN)).any(|s| {
        (file_of(s) - f).abs() == 1
            && if c == WHITE {
                rank_of(s) <= r
            } else {
                rank_of(s) >= r
            }
    });
    !supported
}

/// Pawn structure of one side (thesis 4.3, "Bauern").
fn pawn_terms(pos: &Position, c: u8, endgame: bool) -> (f64, f64) {
    let files = pawn_files(pos, c);
    let them = c ^ BLACK;
    let mut pawns = 0.0;
    let mut passed = 0.0;
    // File weights of the advance bonus (middlegame; the endgame uses 2.0 on every file).
    const ADVANCE: [f64; 8] = [0.0, 0.0, 3.9, 5.4, 7.0, 2.3, 0.0, 0.0];
    for &n in files.iter() {
        if n >= 3 {
            pawns -= 40.0;
        } else if n == 2 {
            pawns -= 4.0;
        }
    }
    let factor = if in_endgame(pos, them) || endgame {
        2.0
    } else {
        1.0
    };
    for sq in squares(pos.pieces(c, PAWN)) {
        let f = file_of(sq) as usize;
        let rr = rel_rank(sq, c);
        let left = if f > 0 { files[f - 1] } else { 0 };
        let right = if f < 7 { files[f + 1] } else { 0 };
        if left + right == 0 {
            pawns -= 15.0;
        }
        let stop = if c == WHITE { sq + 16 } else { sq - 16 };
        // A centre pawn still on its own second rank with its way blocked shuts pieces in.
        if (f == 3 || f == 4) && rr == 1 && pos.piece_at(stop) != 0 {
            pawns -= 10.0;
        }
        if is_backward(pos, sq, c) && rr < 6 {
            match pawn_attackers(pos, stop, them) {
                1 => pawns -= 2.0,
                n if n >= 2 => pawns -= 4.0,
                _ => {}
            }
        }
        pawns += (rr - 1) as f64 * if endgame { 2.0 } else { ADVANCE[f] };
        if is_passed(pos, sq, c) {
            let mut promo = 1.15 + 0.35 * (left + right) as f64;
            let blocker = pos.piece_at(stop);
            if blocker != 0 && piece::colour(blocker) == them {
                promo -= 0.35;
            }
            let rank = (rr + 1) as f64;
            passed += factor * promo * rank * rank;
        }
    }
    (pawns, passed)
}

/// Knight centralisation: 0.6 x (6 - 2 x centre distance), centre distance counted from the
/// middle of the board (|rank - 4.5| + |file - 4.5| on ranks and files 1-8).
pub fn knight_centre(sq: Square) -> f64 {
    let d = (rank_of(sq) as f64 + 1.0 - 4.5).abs() + (file_of(sq) as f64 + 1.0 - 4.5).abs();
    0.6 * (6.0 - 2.0 * d)
}

fn slider_mobility(pos: &Position, sq: Square, dirs: &[i32]) -> f64 {
    let mut m = 0.0;
    for &d in dirs {
        let mut s = sq as i32 + d;
        while s >= 0 && s & 0x88 == 0 {
            let p = pos.piece_at(s as Square);
            let (r, f) = (s >> 4, s & 7);
            let centre = (2..=5).contains(&r) && (2..=5).contains(&f);
            if p == 0 || piece::colour(p) != piece::colour(pos.piece_at(sq)) {
                m += if centre { 2.0 } else { 1.0 };
            }
            if p != 0 {
                break;
            }
            s += d;
        }
    }
    m
}

const DIAG: [i32; 4] = [15, 17, -15, -17];
const LINE: [i32; 4] = [16, -16, 1, -1];

/// Pieces, mobility and king terms of one side.
fn piece_terms(pos: &Position, c: u8, t: &mut [f64; 6]) {
    let them = c ^ BLACK;
    let home = if c == WHITE { 0 } else { 7 };
    let opp_end = in_endgame(pos, them);
    let undeveloped_minors = squares(pos.pieces(c, KNIGHT))
        .filter(|&s| rank_of(s) == home && (file_of(s) == 1 || file_of(s) == 6))
        .count()
        + squares(pos.pieces(c, BISHOP))
            .filter(|&s| rank_of(s) == home && (file_of(s) == 2 || file_of(s) == 5))
            .count();
    // [knights, bishops, mobility, rooks, queens, king]
    for s in squares(pos.pieces(c, KNIGHT)) {
        t[0] += knight_centre(s);
        if rank_of(s) == home && (file_of(s) == 1 || file_of(s) == 6) {
            t[0] -= 4.7;
        }
    }
    if pos.count(c, BISHOP) >= 2 {
        t[1] += 4.0;
    }
    for s in squares(pos.pieces(c, BISHOP)) {
        if rank_of(s) == home && (file_of(s) == 2 || file_of(s) == 5) {
            t[1] -= 5.5;
        }
        t[2] += 4.0 * slider_mobility(pos, s, &DIAG);
    }
    let own_pawns = pawn_files(pos, c);
    let their_pawns = pawn_files(pos, them);
    let passed_files: Vec<i32> = [c, them]
        .iter()
        .flat_map(|&side| {
            squares(pos.pieces(side, PAWN))
                .filter(move |&s| is_passed(pos, s, side))
                .map(file_of)
        })
        .collect();
    let rooks: Vec<Square> = squares(pos.pieces(c, ROOK)).collect();
    for &s in &rooks {
        let f = file_of(s) as usize;
        t[2] += 3.0 * slider_mobility(pos, s, &LINE);
        if own_pawns[f] == 0 {
            t[3] += if their_pawns[f] == 0 { 4.0 } else { 1.5 };
        }
        if rel_rank(s, c) == 6 {
            t[3] += 5.0;
            if rel_rank(pos.king_square(them), c) == 7 {
                t[3] += 6.0;
            }
        }
        if passed_files.contains(&(f as i32)) {
            t[3] += if opp_end { 15.0 } else { 10.0 };
        }
    }
    if rooks.len() >= 2 && file_of(rooks[0]) == file_of(rooks[1]) {
        t[3] += 8.0;
    }
    for s in squares(pos.pieces(c, QUEEN)) {
        t[2] += slider_mobility(pos, s, &DIAG) + slider_mobility(pos, s, &LINE);
        if rel_rank(s, c) > 1 {
            t[4] -= 2.5 * undeveloped_minors as f64;
        }
    }
    let k = pos.king_square(c);
    if opp_end {
        t[5] += king_activity(pos, k);
    } else {
        t[5] -= king_safety(pos, c);
    }
}

/// Figurensumme of the side `by`: knights and bishops 1, rooks 0.5, queens 3, pawns 0 (8 in
/// the start position).
pub fn figure_sum(pos: &Position, by: u8) -> f64 {
    (pos.count(by, KNIGHT) + pos.count(by, BISHOP)) as f64
        + 0.5 * pos.count(by, ROOK) as f64
        + 3.0 * pos.count(by, QUEEN) as f64
}

/// Where a king stands for the castling cases: 1 kingside castled, 2 queenside castled, 0 not
/// castled.
fn castled(pos: &Position, c: u8) -> u8 {
    let k = pos.king_square(c);
    let home = if c == WHITE { 0 } else { 7 };
    let rights = (pos.castling() >> if c == WHITE { 0 } else { 2 }) & 3;
    if rank_of(k) != home || rights != 0 {
        return 0;
    }
    match file_of(k) {
        6 | 7 => 1,
        0..=2 => 2,
        _ => 0,
    }
}

/// Value of one castling wing: +0.5 per shield pawn off its second rank, +1 per missing pawn,
/// +0.5 per piece still between king and rook.
fn wing_value(pos: &Position, c: u8, files: &[i32], path: &[i32]) -> f64 {
    let home = if c == WHITE { 0 } else { 7 };
    let second = if c == WHITE { 1 } else { 6 };
    let mut v = 0.0;
    for &f in files {
        let on_second = pos.piece_at(((second << 4) | f) as Square) == PAWN | c;
        let on_file = squares(pos.pieces(c, PAWN)).any(|s| file_of(s) == f);
        if !on_file {
            v += 1.0;
        } else if !on_second {
            v += 0.5;
        }
    }
    for &f in path {
        if pos.piece_at(((home << 4) | f) as Square) != 0 {
            v += 0.5;
        }
    }
    v
}

/// King safety penalty of side `c` (thesis 4.3, the four cases).
pub fn king_safety(pos: &Position, c: u8) -> f64 {
    let them = c ^ BLACK;
    let fs = figure_sum(pos, them);
    let k = pos.king_square(c);
    let own = castled(pos, c);
    let theirs = castled(pos, them);
    let relation = if own != 0 || theirs == 0 {
        0.0
    } else {
        let e_pawns = [WHITE, BLACK]
            .iter()
            .filter(|&&s| squares(pos.pieces(s, PAWN)).any(|p| file_of(p) == 4))
            .count();
        if e_pawns == 0 { 2.0 } else { 1.0 }
    };
    if rel_rank(k, c) > 1 && !in_endgame(pos, them) {
        return fs * (relation + 20.0);
    }
    let kingside = || wing_value(pos, c, &[6, 7], &[5, 6]);
    let queenside = || wing_value(pos, c, &[0, 1, 2], &[1, 2, 3]);
    match own {
        // Castled: the shield pawns only (the path squares now hold the king and rook).
        1 => fs * wing_value(pos, c, &[6, 7], &[]),
        2 => fs * wing_value(pos, c, &[0, 1, 2], &[]),
        _ => {
            let rights = (pos.castling() >> if c == WHITE { 0 } else { 2 }) & 3;
            let extra = if rights == 0 {
                // Rights lost: distance to the castling squares x 1.5, and 2 for the loss.
                let d = (file_of(k) - 6).abs().min((file_of(k) - 2).abs()) as f64;
                d * 1.5 + 2.0
            } else {
                0.5
            };
            fs * (relation + kingside().min(queenside()) + extra)
        }
    }
}

/// King activity in the endgame: -6 x (weighted mean distance to all pawns - 6), distances
/// counted in king steps along ranks plus files, passed pawns weighing 6, backward 3, others 2.
pub fn king_activity(pos: &Position, k: Square) -> f64 {
    let (mut sum, mut weights) = (0.0, 0.0);
    for c in [WHITE, BLACK] {
        for s in squares(pos.pieces(c, PAWN)) {
            let w = if is_passed(pos, s, c) {
                6.0
            } else if is_backward(pos, s, c) {
                3.0
            } else {
                2.0
            };
            let d = (rank_of(s) - rank_of(k)).abs() + (file_of(s) - file_of(k)).abs();
            sum += w * d as f64;
            weights += w;
        }
    }
    if weights == 0.0 {
        return 0.0;
    }
    -6.0 * (sum / weights - 6.0)
}

/// The mating routine: for a side ahead by at least a rook against at most two minor pieces
/// and no pawns, drive the weak king from the centre (9.4 per step) and bring the own king
/// close (1.6 x (14 - distance)). Returns White's view.
pub fn mating_value(pos: &Position, mat: [i32; 2]) -> Option<f64> {
    if pos.count(WHITE, PAWN) + pos.count(BLACK, PAWN) != 0 {
        return None;
    }
    let diff = mat[0] - mat[1];
    if diff.abs() < VALUE[ROOK as usize] {
        return None;
    }
    let (strong, weak) = if diff > 0 {
        (WHITE, BLACK)
    } else {
        (BLACK, WHITE)
    };
    if pos.count(weak, ROOK) + pos.count(weak, QUEEN) != 0
        || pos.count(weak, KNIGHT) + pos.count(weak, BISHOP) > 2
    {
        return None;
    }
    let wk = pos.king_square(weak);
    let sk = pos.king_square(strong);
    let centre = (rank_of(wk) as f64 + 1.0 - 4.5).abs() + (file_of(wk) as f64 + 1.0 - 4.5).abs();
    let dist = ((rank_of(wk) - rank_of(sk)).abs() + (file_of(wk) - file_of(sk)).abs()) as f64;
    let bonus = 9.4 * centre + 1.6 * (14.0 - dist);
    Some(if strong == WHITE {
        diff as f64 + bonus
    } else {
        diff as f64 - bonus
    })
}

/// The full evaluation split into terms.
pub fn terms(pos: &Position) -> Terms {
    let mat = [material(pos, WHITE), material(pos, BLACK)];
    let mut t = Terms {
        material: (mat[0] - mat[1]) as f64,
        ..Terms::default()
    };
    if let Some(m) = mating_value(pos, mat) {
        t.mating = Some(m);
        return t;
    }
    if in_endgame(pos, WHITE) || in_endgame(pos, BLACK) {
        if mat[0] > mat[1] {
            t.endgame_bonus = 10.0 * pos.count(WHITE, PAWN).min(3) as f64;
        } else if mat[1] > mat[0] {
            t.endgame_bonus = -10.0 * pos.count(BLACK, PAWN).min(3) as f64;
        }
    }
    for (c, sign) in [(WHITE, 1.0), (BLACK, -1.0)] {
        let (pawns, passed) = pawn_terms(pos, c, in_endgame(pos, c ^ BLACK));
        t.pawns += sign * pawns;
        t.passed += sign * passed;
        let mut p = [0.0; 6];
        piece_terms(pos, c, &mut p);
        t.knights += sign * p[0];
        t.bishops += sign * p[1];
        t.mobility += sign * p[2];
        t.rooks += sign * p[3];
        t.queens += sign * p[4];
        t.king += sign * p[5];
    }
    t
}

/// The evaluation in centipawns from the side to move's view.
pub fn evaluate(pos: &Position) -> i32 {
    let v = if pos.insufficient_material() {
        0
    } else {
        terms(pos).total()
    };
    if pos.side() == BLACK { -v } else { v }
}

/// Material balance from the side to move's view.
fn material_balance(pos: &Position) -> i32 {
    let v = material(pos, WHITE) - material(pos, BLACK);
    if pos.side() == BLACK { -v } else { v }
}

/// The killer list of one ply: up to five moves with the value each was best with.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Killers {
    /// (move, value) pairs.
    pub moves: Vec<(Move, i32)>,
}

impl Killers {
    /// Records a move that was best (or cut off) with `value`: updated if known, appended if
    /// there is room, otherwise it replaces the worst stored killer when it is better.
    pub fn record(&mut self, m: Move, value: i32) {
        if let Some(k) = self.moves.iter_mut().find(|k| k.0 == m) {
            k.1 = k.1.max(value);
            return;
        }
        if self.moves.len() < KILLERS {
            self.moves.push((m, value));
            return;
        }
        let (i, worst) = self
            .moves
            .iter()
            .enumerate()
            .min_by_key(|(_, k)| k.1)
            .map(|(i, k)| (i, k.1))
            .expect("full list");
        if value > worst {
            self.moves[i] = (m, value);
        }
    }

    /// Rank of a killer (higher = better value), if it is one.
    fn rank(&self, m: Move) -> Option<i32> {
        self.moves.iter().find(|k| k.0 == m).map(|k| k.1)
    }
}

/// Pre-scores a move for sorting (Bewerte_Zuege, with the heuristic order of chapter 2.4.3):
/// the principal-variation move first, then recaptures on the square the last move went to,
/// killers, other captures by the material they win, quiet moves; a check adds 50.
pub fn order_key(
    pos: &mut Position,
    m: Move,
    pv_move: Option<Move>,
    last_to: Option<Square>,
    killers: &Killers,
) -> i64 {
    if Some(m) == pv_move {
        return 1 << 40;
    }
    let victim = if pos.is_en_passant(m) {
        VALUE[PAWN as usize]
    } else {
        VALUE[piece::piece_type(pos.piece_at(m.to())) as usize]
    };
    let promo = if m.promotion() != 0 {
        VALUE[m.promotion() as usize] - VALUE[PAWN as usize]
    } else {
        0
    };
    let undo = pos.make(m);
    let check = pos.in_check();
    pos.unmake(m, &undo);
    let gain = (victim + promo) as i64 + if check { 50 } else { 0 };
    if victim > 0 && Some(m.to()) == last_to {
        return (1 << 36) + gain;
    }
    if let Some(v) = killers.rank(m) {
        return (1 << 32) + (v as i64 + 100_000);
    }
    gain
}

/// Counters of a finished search (for tests and the doc page).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SalomonStats {
    /// Iterations searched again with the full window.
    pub research: u64,
    /// Captures skipped by the futility cut in quiescence.
    pub futile: u64,
    /// Nodes searched one ply deeper on the principal variation.
    pub pv_extensions: u64,
    /// Horizon nodes whose positional part was only estimated (lazy evaluation).
    pub lazy: u64,
}

struct Salomon<'c, 'i> {
    pos: Position,
    budget: Budget<'c, 'i>,
    killers: Vec<Killers>,
    pv: PvTable,
    prev_pv: Vec<Move>,
    follow: bool,
    /// On the first line searched in this iteration (it starts with the previous PV).
    leftmost: bool,
    extend_pv: bool,
    last_to: Vec<Option<Square>>,
    seldepth: usize,
    stats: SalomonStats,
}

/// A finished search with its counters.
pub struct SalomonOutcome {
    /// The search result.
    pub result: SearchResult,
    /// Counters.
    pub stats: SalomonStats,
    /// The killer lists at the end, by ply.
    pub killers: Vec<Killers>,
}

/// Searches the current position of `game` within `limits`.
pub fn search(game: &Game, limits: &Limits, control: &SearchControl) -> SearchResult {
    run(game, limits, control).result
}

/// Like [`search`], with the counters and killer lists.
pub fn run(game: &Game, limits: &Limits, control: &SearchControl) -> SalomonOutcome {
    let pos = game.position();
    let mut s = Salomon {
        pos: pos.clone(),
        budget: Budget::new(limits, pos.side(), control),
        killers: vec![Killers::default(); MAX_PLY + 2],
        pv: PvTable::new(MAX_PLY + 1),
        prev_pv: Vec::new(),
        follow: false,
        leftmost: false,
        extend_pv: false,
        last_to: vec![None; MAX_PLY + 2],
        seldepth: 0,
        stats: SalomonStats::default(),
    };
    s.last_to[0] = game.moves().last().map(|m| m.to());
    let result = s.iterate(limits.depth);
    SalomonOutcome {
        result,
        stats: s.stats,
        killers: s.killers,
    }
}

impl Salomon<'_, '_> {
    fn iterate(&mut self, depth_limit: Option<u32>) -> SearchResult {
        if self.pos.legal_moves().is_empty() {
            return SearchResult::no_move(self.pos.in_check(), self.budget.elapsed());
        }
        let max_depth = depth_limit.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut result = SearchResult::default();
        for depth in 1..=max_depth {
            if depth > 1 && !self.budget.may_deepen() {
                break;
            }
            // The PV is extended in the last iteration: the one the depth limit names, or every
            // iteration when only nodes or time bound the search.
            self.extend_pv = depth == max_depth || depth_limit.is_none();
            let (mut alpha, mut beta) = if depth == 1 {
                (-INF, INF)
            } else {
                (result.score - MAX_GAIN, result.score + MAX_GAIN)
            };
            let mut score;
            loop {
                self.follow = true;
                self.leftmost = true;
                score = self.search(depth as i32, 0, alpha, beta, false);
                if self.budget.aborted {
                    break;
                }
                if (score <= alpha || score >= beta) && (alpha > -INF || beta < INF) {
                    self.stats.research += 1;
                    alpha = -INF;
                    beta = INF;
                    continue;
                }
                break;
            }
            if self.budget.aborted {
                break;
            }
            self.budget.arm();
            let pv = self.pv.line(0).to_vec();
            self.prev_pv = pv.clone();
            result = self.budget.result(depth, score, pv);
            self.budget
                .report_info(&result.info(self.seldepth as u32, None));
        }
        result.nodes = self.budget.nodes;
        result.time = self.budget.elapsed();
        result
    }

    fn sorted_moves(&mut self, ply: usize, mode: GenMode, pv_move: Option<Move>) -> Vec<Move> {
        let mut list = MoveList::new();
        self.pos.generate(&mut list, mode);
        if ply == 0 {
            let budget = &self.budget;
            list.retain(|m| budget.allows(m));
        }
        let last_to = self.last_to[ply];
        let killers = std::mem::take(&mut self.killers[ply]);
        let mut keyed: Vec<(i64, Move)> = list
            .iter()
            .map(|&m| (order_key(&mut self.pos, m, pv_move, last_to, &killers), m))
            .collect();
        self.killers[ply] = killers;
        keyed.sort_by_key(|&(k, _)| std::cmp::Reverse(k));
        keyed.into_iter().map(|(_, m)| m).collect()
    }

    /// The start of every node at `ply`: counts it against the budget (false when the budget
    /// is spent and the node is not searched), clears its PV and notes the depth reached.
    fn enter(&mut self, ply: usize) -> bool {
        if self.budget.tick() {
            return false;
        }
        self.pv.clear(ply);
        self.seldepth = self.seldepth.max(ply);
        true
    }

    fn search(&mut self, depth: i32, ply: usize, mut alpha: i32, beta: i32, extended: bool) -> i32 {
        if !self.enter(ply) || (ply > 0 && self.pos.insufficient_material()) {
            return 0;
        }
        let mut depth = depth;
        let mut extended = extended;
        if depth <= 0 && self.leftmost && self.extend_pv && !extended {
            // The principal variation, one ply deeper (last iteration only).
            depth = 1;
            extended = true;
            self.stats.pv_extensions += 1;
        }
        if depth <= 0 || ply >= MAX_PLY {
            // Lazy evaluation: when material alone is out of the window by more than the
            // positional part can add, the positional part is only estimated (as 0).
            let mat = material_balance(&self.pos);
            let positional = if mat + POSITIONAL_MAX <= alpha || mat - POSITIONAL_MAX >= beta {
                self.stats.lazy += 1;
                0
            } else {
                evaluate(&self.pos) - mat
            };
            return self.quiesce(ply, alpha, beta, positional);
        }
        let in_check = self.pos.in_check();
        let pv_move = followed_move(&mut self.follow, &self.prev_pv, ply);
        let moves = self.sorted_moves(ply, GenMode::All, pv_move);
        if moves.is_empty() {
            return if in_check { -(MATE - ply as i32) } else { 0 };
        }
        let mut result = alpha;
        for (i, &m) in moves.iter().enumerate() {
            if i > 0 {
                self.follow = false;
                self.leftmost = false;
            }
            let undo = self.pos.make(m);
            self.last_to[ply + 1] = Some(m.to());
            let score = -self.search(depth - 1, ply + 1, -beta, -alpha, extended);
            self.pos.unmake(m, &undo);
            if self.budget.aborted {
                return 0;
            }
            if score >= beta {
                self.killers[ply].record(m, score);
                return beta;
            }
            if score > alpha {
                alpha = score;
                result = alpha;
                self.pv.update(ply, m);
                self.killers[ply].record(m, score);
            }
        }
        result
    }

    /// Quiescence: `positional` is the positional part of the evaluation where quiescence
    /// began (side to move's view), kept fixed; inside it only material is counted.
    fn quiesce(&mut self, ply: usize, mut alpha: i32, beta: i32, positional: i32) -> i32 {
        let stand = material_balance(&self.pos) + positional;
        if self.pos.in_check() {
            // In check: every move, the static value as an upper bound, mate only if every
            // answer is mated.
            let moves = self.sorted_moves(ply, GenMode::All, None);
            if moves.is_empty() {
                return -(MATE - ply as i32);
            }
            let mut best = -(MATE - ply as i32);
            for m in moves {
                let undo = self.pos.make(m);
                let v = -self.quiesce_node(ply + 1, -beta, -alpha.max(best), -positional);
                self.pos.unmake(m, &undo);
                if self.budget.aborted {
                    return 0;
                }
                best = best.max(v);
                if best >= stand || best >= beta {
                    break;
                }
            }
            return best.max(alpha).min(beta);
        }
        if stand >= beta {
            return beta;
        }
        if stand > alpha {
            alpha = stand;
        }
        let moves = self.sorted_moves(ply, GenMode::Tactical, None);
        for m in moves {
            if !self.pos.is_capture(m) {
                continue;
            }
            let victim = if self.pos.is_en_passant(m) {
                VALUE[PAWN as usize]
            } else {
                VALUE[piece::piece_type(self.pos.piece_at(m.to())) as usize]
            };
            let promo = if m.promotion() != 0 {
                VALUE[m.promotion() as usize] - VALUE[PAWN as usize]
            } else {
                0
            };
            let optimistic = stand + victim + promo + FUTILITY_MARGIN;
            if optimistic <= alpha {
                // Futile: estimated, not searched.
                self.stats.futile += 1;
                continue;
            }
            let undo = self.pos.make(m);
            let score = -self.quiesce_node(ply + 1, -beta, -alpha, -positional);
            self.pos.unmake(m, &undo);
            if self.budget.aborted {
                return 0;
            }
            if score >= beta {
                return beta;
            }
            alpha = alpha.max(score);
        }
        alpha
    }

    fn quiesce_node(&mut self, ply: usize, alpha: i32, beta: i32, positional: i32) -> i32 {
        if !self.enter(ply) || self.pos.insufficient_material() {
            return 0;
        }
        if ply >= MAX_PLY {
            return material_balance(&self.pos) + positional;
        }
        self.quiesce(ply, alpha, beta, positional)
    }
}
