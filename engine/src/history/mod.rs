//! The historical profiles: small re-creations of the chess programs whose decisions Kempelen
//! teaches, each in its own module on the shared board ([`Position`]) and the one legal move
//! generator. Each page `docs/history/NAME.md` says what the original did, what the module
//! does and where the record is silent.
//!
//! This module holds what they share: the search budget (node, time and stop limits, checked
//! the same way as in the reference search), the driver that deepens a fixed-depth search
//! until the budget is spent, the info reports, and a few board questions the old evaluations
//! ask (who attacks a square, the moves of the side not to move). Which profile runs is the
//! native engine's business ([`crate::native`]); nothing here knows the list of profiles.

pub mod microchess;
pub mod micromax;
pub mod nimzo;
pub mod salomon;
pub mod sargon;
pub mod shannon;
pub mod tartan;
pub mod turing;

use crate::engine::{EngineError, Limits, SearchControl, SearchInfo, SearchResult};
use crate::game::Game;
use crate::movegen::GenMode;
use crate::moves::{Move, MoveList};
use crate::piece::{self, BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK};
use crate::position::Position;
use crate::square::{Square, on_board, sq88};
use crate::tables::{self, ATTACK_MASK, STEP};
use crate::time;
use std::time::Duration;
use web_time::Instant;

/// Settings of the historical profiles that change their behaviour (UCI options).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HistoryOptions {
    /// Tartan: score a stalemate 0 (the test Zwerschke says is missing). Off: the side without
    /// a move scores as mated, as the printed program does.
    pub tartan_stalemate_fix: bool,
    /// Tartan: give the depth counter back on return. Off: the counter counts calls, as a
    /// counter that is only ever incremented does (see docs/history/tartan.md).
    pub tartan_depth_fix: bool,
    /// Microchess: STRATGY as the manual prints it (exact hundredths, BMAXC weighed 2.56 and
    /// 0.50). Off: the byte arithmetic of the 1976 KIM-1 binary.
    pub microchess_printed_formula: bool,
}

impl Default for HistoryOptions {
    fn default() -> Self {
        HistoryOptions {
            tartan_stalemate_fix: true,
            tartan_depth_fix: true,
            microchess_printed_formula: false,
        }
    }
}

/// Runs a historical search on the current position of `game` within `limits`: a depth of 0
/// is refused and a position without legal moves answered at once; otherwise `search` gets
/// the position and the budget.
pub(crate) fn with_budget(
    game: &Game,
    limits: &Limits,
    control: &SearchControl,
    search: impl FnOnce(&Position, &mut Budget) -> SearchResult,
) -> Result<SearchResult, EngineError> {
    limits.check_depth()?;
    let pos = game.position();
    let mut budget = Budget::new(limits, pos.side(), control);
    if pos.legal_moves().is_empty() {
        return Ok(SearchResult::no_move(pos.in_check(), budget.elapsed()));
    }
    Ok(search(pos, &mut budget))
}

/// The limits of one search: nodes, time and the stop flag. Like the reference search, the
/// limits hold only once a profile arms them, normally after its first finished iteration, so
/// every search has a move to play (Turing's machine, whose first decision is not cheap, arms
/// them at once and keeps the best root move valued so far; Microchess after its first move).
pub(crate) struct Budget<'c, 'i> {
    /// Nodes counted so far (each profile's page says what it counts).
    pub nodes: u64,
    node_limit: Option<u64>,
    soft: Option<Duration>,
    hard: Option<Duration>,
    control: &'c SearchControl<'i>,
    start: Instant,
    armed: bool,
    /// Set once a limit was hit; the running iteration is then abandoned.
    pub aborted: bool,
    /// The root moves the search may choose (UCI `searchmoves`); empty: every legal move.
    root_moves: Vec<Move>,
}

impl<'c, 'i> Budget<'c, 'i> {
    pub(crate) fn new(limits: &Limits, side: u8, control: &'c SearchControl<'i>) -> Self {
        let b = time::budget(limits, side);
        Budget {
            nodes: 0,
            node_limit: limits.nodes,
            soft: b.soft,
            hard: b.hard,
            control,
            start: control.start,
            armed: false,
            aborted: false,
            root_moves: limits.searchmoves.clone(),
        }
    }

    /// Counts a node; true when the search must stop (a limit was hit after the first
    /// iteration).
    #[inline]
    pub(crate) fn tick(&mut self) -> bool {
        self.nodes += 1;
        if !self.armed || self.aborted {
            return self.aborted;
        }
        let over_nodes = self.node_limit.is_some_and(|n| self.nodes > n);
        let checkpoint = self.nodes & 1023 == 0;
        if over_nodes
            || (checkpoint
                && (self.control.stopped() || self.hard.is_some_and(|h| self.start.elapsed() >= h)))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Whether the search may choose the root move `m` (no `searchmoves`, or one of them).
    pub(crate) fn allows(&self, m: Move) -> bool {
        self.root_moves.is_empty() || self.root_moves.contains(&m)
    }

    /// Whether `searchmoves` restricts the root.
    pub(crate) fn restricted(&self) -> bool {
        !self.root_moves.is_empty()
    }

    /// Arms the limits (called after the first completed iteration).
    pub(crate) fn arm(&mut self) {
        self.armed = true;
    }

    /// Whether another iteration may start: not stopped, node limit and soft time not reached.
    pub(crate) fn may_deepen(&self) -> bool {
        !self.aborted
            && !self.control.stopped()
            && self.node_limit.is_none_or(|n| self.nodes < n)
            && self.soft.is_none_or(|s| self.start.elapsed() < s)
    }

    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Sends an info line the profile built itself.
    pub(crate) fn report_info(&self, info: &SearchInfo) {
        self.control.report(info);
    }

    /// Sends an info report (depth, score, nodes, PV).
    pub(crate) fn report(&self, depth: u32, seldepth: u32, score: i32, pv: &[Move]) {
        self.control.report(&SearchInfo {
            depth: Some(depth),
            seldepth,
            score: Some(score),
            nodes: Some(self.nodes),
            time: self.elapsed(),
            pv: pv.to_vec(),
            hashfull: None,
            string: None,
        });
    }

    /// The result of a finished search.
    pub(crate) fn result(&self, depth: u32, score: i32, pv: Vec<Move>) -> SearchResult {
        SearchResult::of_iteration(depth, score, pv, self.nodes, self.elapsed())
    }
}

/// One finished iteration of a fixed-depth search: score (centipawns, side to move's view)
/// and principal variation.
pub(crate) struct Iteration {
    pub score: i32,
    pub pv: Vec<Move>,
}

/// Runs `iteration(depth, budget)` for depth 1, 2, ... up to `max_depth` (the requested depth,
/// or `default_max` when none was requested) while the budget allows, reporting each finished
/// iteration; returns the result of the deepest finished one. `iteration` returns `None` when
/// the budget ran out during it.
pub(crate) fn deepen(
    requested: Option<u32>,
    default_max: u32,
    budget: &mut Budget,
    mut iteration: impl FnMut(u32, &mut Budget) -> Option<Iteration>,
) -> SearchResult {
    let max_depth = requested.unwrap_or(default_max).max(1);
    let mut last: Option<(u32, Iteration)> = None;
    for depth in 1..=max_depth {
        if depth > 1 && !budget.may_deepen() {
            break;
        }
        match iteration(depth, budget) {
            Some(it) => {
                budget.report(depth, depth, it.score, &it.pv);
                last = Some((depth, it));
                budget.arm();
            }
            None => break,
        }
    }
    let (depth, it) = last.expect("the first iteration runs without limits");
    budget.result(depth, it.score, it.pv)
}

/// Number of pieces of colour `by` (0/8) that attack `sq` (pawns diagonally forward, the other
/// pieces by their moves, sliders through empty squares only). Used for "defended" and
/// "attacked" in the old evaluations.
pub fn attackers(pos: &Position, sq: Square, by: u8) -> u32 {
    let mut count = 0;
    let s = sq as i32;
    let back = -(tables::PAWN_DIR[piece::index(by)] as i32);
    for d in [back - 1, back + 1] {
        let t = s + d;
        if on_board(t) && pos.piece_at(t as Square) == PAWN | by {
            count += 1;
        }
    }
    let mut all = pos.pieces(by, 0) & !pos.pieces(by, PAWN);
    while all != 0 {
        let from = sq88(all.trailing_zeros() as usize);
        all &= all - 1;
        if from == sq {
            continue;
        }
        let ty = piece::piece_type(pos.piece_at(from));
        let v = (s - from as i32 + 119) as usize;
        if ATTACK_MASK[v] & tables::type_bit(ty) == 0 {
            continue;
        }
        if matches!(ty, KNIGHT | KING) {
            count += 1;
            continue;
        }
        let step = STEP[v] as i32;
        let mut t = from as i32 + step;
        while t != s && pos.piece_at(t as Square) == 0 {
            t += step;
        }
        if t == s {
            count += 1;
        }
    }
    count
}

/// The legal moves `colour` would have if it were to move in `pos` (for the side not to move:
/// the position with the move passed to it, no en-passant square). When that side gives check,
/// the list holds the captures of the king too; callers only count such moves.
pub fn moves_of(pos: &Position, colour: u8, mode: GenMode) -> MoveList {
    let mut list = MoveList::new();
    if pos.side() == colour {
        pos.generate(&mut list, mode);
    } else {
        let mut p = pos.clone();
        p.make_null();
        p.generate(&mut list, mode);
    }
    list
}

/// Whether a move gives checkmate: after it the opponent is in check with no legal move.
pub fn is_mate_after(pos: &Position, m: Move) -> bool {
    let mut p = pos.clone();
    p.make(m);
    p.in_check() && p.legal_moves().is_empty()
}

/// Piece types that are not pawns or kings (for loops over the pieces).
pub const OFFICERS: [u8; 4] = [KNIGHT, BISHOP, ROOK, QUEEN];

/// A re-creation of a program whose search tree Kempelen records, to set beside the tree the
/// program itself visits in the emulator (an adaptor file's `profile`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeProfile {
    /// Sargon's FNDMOV ([`sargon::search_tree`]).
    Sargon,
    /// Microchess's GO ([`microchess::search_tree`]).
    Microchess,
    /// Kempelen's small teaching program ([`crate::tree::minisearch`]).
    Minisearch,
}

impl std::str::FromStr for TreeProfile {
    type Err = String;
    fn from_str(s: &str) -> Result<TreeProfile, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "sargon" => Ok(TreeProfile::Sargon),
            "microchess" => Ok(TreeProfile::Microchess),
            "minisearch" => Ok(TreeProfile::Minisearch),
            _ => Err(format!(
                "no profile '{s}' records a program's tree (sargon, microchess, minisearch)"
            )),
        }
    }
}

impl TreeProfile {
    /// Its name (`sargon`).
    pub fn name(self) -> &'static str {
        match self {
            TreeProfile::Sargon => "sargon",
            TreeProfile::Microchess => "microchess",
            TreeProfile::Minisearch => "minisearch",
        }
    }

    /// What its values are.
    pub fn units(self) -> &'static str {
        match self {
            TreeProfile::Sargon => "Sargon's score byte less 128 (4 per pawn)",
            TreeProfile::Microchess => {
                "Microchess's STRATGY byte less 208 (D0H); below ply 1 the program backs up no value"
            }
            TreeProfile::Minisearch => "minisearch's value byte less 128 (1 per pawn)",
        }
    }
}

/// The tree a profile's search visits on the game's position, recorded as the program it
/// re-creates would make it ([`crate::tree::searched`]): Sargon's FNDMOV at look-ahead
/// `depth` (default 2), Microchess's one fixed look (no depth), minisearch at `depth`
/// (default 2). `None` when the program answers from its book or the position has no legal
/// move.
pub fn profile_tree(
    profile: TreeProfile,
    game: &crate::game::Game,
    depth: Option<u32>,
    limit: usize,
) -> Option<crate::tree::searched::SearchTree> {
    match profile {
        TreeProfile::Sargon => sargon::search_tree(game, depth.unwrap_or(2) as usize, limit),
        TreeProfile::Microchess => microchess::search_tree(game, limit),
        TreeProfile::Minisearch => {
            let pos = game.position();
            (!pos.legal_moves().is_empty())
                .then(|| crate::tree::minisearch::search_tree(pos, depth.unwrap_or(2), limit).0)
        }
    }
}
