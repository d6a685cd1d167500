//! The backend trait through which the command line runs `perft`, `search`, `bench` and `uci`:
//! the native engine implements it for both profiles, the Z80 host glue (`kempelen-roms`)
//! implements it for the 8-bit build. Also the shared vocabulary of a search request: limits,
//! control (stop flag, info callback) and result.

use crate::game::Game;
use crate::moves::Move;
use crate::position::Position;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use web_time::Instant;

/// Mate score (ALGORITHM.md §7): a side checkmated at ply `p` scores `-(MATE - p)`.
pub const MATE: i32 = 32000;
/// Larger than every score.
pub const INF: i32 = 32001;
/// Scores at least this far from zero are mate scores (up to 500 plies from the root).
pub const MATE_BOUND: i32 = MATE - 500;

/// Moves to mate for a mate score (positive: the side to move mates), `None` otherwise.
pub fn mate_in(score: i32) -> Option<i32> {
    if score >= MATE_BOUND {
        Some((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Some(-((MATE + score) / 2))
    } else {
        None
    }
}

/// What bounds a search. All given limits apply; none at all means "until stopped".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Node limit (for the reference profile with the exact semantics of ALGORITHM.md §9).
    pub nodes: Option<u64>,
    /// Time for this move.
    pub movetime: Option<Duration>,
    /// White's clock.
    pub wtime: Option<Duration>,
    /// Black's clock.
    pub btime: Option<Duration>,
    /// White's increment per move.
    pub winc: Option<Duration>,
    /// Black's increment per move.
    pub binc: Option<Duration>,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Search until stopped (the result is still reported when a depth or node limit is hit).
    pub infinite: bool,
    /// Search only these moves at the root (UCI `searchmoves`); empty: every legal move.
    pub searchmoves: Vec<Move>,
}

impl Limits {
    /// A fixed-depth search.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// A node-limited search.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// Refuses a depth of 0: every search looks at least one ply ahead.
    pub fn check_depth(&self) -> Result<(), EngineError> {
        if self.depth == Some(0) {
            return Err(EngineError::Unsupported("depth must be at least 1".into()));
        }
        Ok(())
    }

    /// A search of fixed duration.
    pub fn movetime(t: Duration) -> Limits {
        Limits {
            movetime: Some(t),
            ..Limits::default()
        }
    }

    /// Whether the root move `m` may be searched: no `searchmoves`, or `m` is one of them.
    pub fn allows(&self, m: Move) -> bool {
        self.searchmoves.is_empty() || self.searchmoves.contains(&m)
    }

    /// The result of a search that could not be restricted to `searchmoves` (an engine that
    /// searches every root move: the 8-bit builds, an adapted program, an xboard engine):
    /// kept when its move is one of them (it is then also the best of them), else an error
    /// that says so; `engine` names the engine, `why` why it cannot restrict its search. No
    /// move outside the list is played in the engine's name.
    pub fn unrestricted(
        &self,
        result: SearchResult,
        engine: &str,
        why: &str,
    ) -> Result<SearchResult, EngineError> {
        match result.best {
            Some(m) if !self.allows(m) => {
                let moves: Vec<String> = self.searchmoves.iter().map(|m| m.to_uci()).collect();
                Err(EngineError::Unsupported(format!(
                    "searchmoves {}: {engine} searches every move ({why}) and chose {}, which is not one of them",
                    moves.join(" "),
                    m.to_uci()
                )))
            }
            _ => Ok(result),
        }
    }

    /// Whether something other than a `stop` ends a search with these limits when `side` (0
    /// white, 8 black) is to move: a depth, a node count, a move time or that side's clock.
    /// Increments, moves to go and the other side's clock alone bound nothing.
    pub fn bounded_for(&self, side: u8) -> bool {
        let clock = if side == crate::piece::BLACK {
            self.btime
        } else {
            self.wtime
        };
        !self.infinite
            && (self.depth.is_some()
                || self.nodes.is_some()
                || self.movetime.is_some()
                || clock.is_some())
    }
}

/// Progress of a search, reported after each completed iteration (and by the full profile
/// when the best move changes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Completed depth; `None` for a program that has no depth (an adapted program without
    /// levels), and then UCI prints none.
    pub depth: Option<u32>,
    /// Deepest ply reached; 0 when the engine does not know it (the 8-bit builds and adapted
    /// programs report no selective depth), and then UCI prints none.
    pub seldepth: u32,
    /// Score in centipawns, side to move's view, mate scores as [`MATE`] minus plies; `None`
    /// when the engine keeps no score in centipawns (then UCI prints none).
    pub score: Option<i32>,
    /// Nodes so far; `None` when the engine does not count them (then UCI prints neither
    /// nodes nor nps).
    pub nodes: Option<u64>,
    /// Time since the search started, on the engine's [`Engine::clock`].
    pub time: Duration,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// Transposition-table fill in permille, if the backend has one.
    pub hashfull: Option<u32>,
    /// Text for the end of the line (UCI `string`), one line: what the engine reports that
    /// UCI has no field for (an adapted program's own score and its scale).
    pub string: Option<String>,
}

/// Callback receiving [`SearchInfo`] lines.
pub type InfoCallback<'a> = Box<dyn Fn(&SearchInfo) + Send + Sync + 'a>;

/// How the caller steers a running search: a stop flag (set from another thread) and an info
/// callback.
pub struct SearchControl<'a> {
    /// Set to stop the search; the result of the last completed iteration is returned.
    pub stop: Arc<AtomicBool>,
    /// Receives progress reports.
    pub info: Option<InfoCallback<'a>>,
    /// When the clock started (time limits count from here).
    pub start: Instant,
}

impl Default for SearchControl<'_> {
    fn default() -> Self {
        SearchControl {
            stop: Arc::new(AtomicBool::new(false)),
            info: None,
            start: Instant::now(),
        }
    }
}

impl<'a> SearchControl<'a> {
    /// A control with an info callback.
    pub fn with_info(info: impl Fn(&SearchInfo) + Send + Sync + 'a) -> Self {
        SearchControl {
            info: Some(Box::new(info)),
            ..SearchControl::default()
        }
    }

    /// Whether stop was requested.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Reports progress to the callback, if any.
    pub fn report(&self, info: &SearchInfo) {
        if let Some(cb) = &self.info {
            cb(info);
        }
    }
}

/// The outcome of a search (the default: nothing searched yet, no move, score 0, depth 0, no
/// nodes, no time).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchResult {
    /// Best move; `None` only when the side to move has no legal move.
    pub best: Option<Move>,
    /// Its score (centipawns, side to move's view; mate scores as [`MATE`] minus plies).
    pub score: i32,
    /// Principal variation, starting with the best move.
    pub pv: Vec<Move>,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Total nodes (ALGORITHM.md §7 definition for the reference profile).
    pub nodes: u64,
    /// Time spent, on the engine's [`Engine::clock`]: the host's wall clock, or the emulated
    /// time of the machine an 8-bit build or an adapted program runs on.
    pub time: Duration,
}

impl SearchResult {
    /// The result of a completed iteration: the best move is the PV's first.
    pub fn of_iteration(depth: u32, score: i32, pv: Vec<Move>, nodes: u64, time: Duration) -> Self {
        SearchResult {
            best: pv.first().copied(),
            score,
            pv,
            depth,
            nodes,
            time,
        }
    }

    /// The info line that reports this result, with the deepest ply reached and the
    /// transposition table's fill (if the backend has a table).
    pub fn info(&self, seldepth: u32, hashfull: Option<u32>) -> SearchInfo {
        SearchInfo {
            depth: Some(self.depth),
            seldepth,
            score: Some(self.score),
            nodes: Some(self.nodes),
            time: self.time,
            pv: self.pv.clone(),
            hashfull,
            string: None,
        }
    }

    /// The result for a position without legal moves: no move, `-MATE` when checkmated
    /// (`in_check`), 0 when stalemated, 0 nodes (ALGORITHM.md §7).
    pub fn no_move(in_check: bool, time: Duration) -> SearchResult {
        SearchResult {
            best: None,
            score: if in_check { -MATE } else { 0 },
            pv: Vec::new(),
            depth: 0,
            nodes: 0,
            time,
        }
    }
}

/// Errors of an engine backend.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// The backend itself failed (for example an emulator error in an 8-bit build).
    #[error("engine backend failed: {0}")]
    Backend(String),
    /// The request is outside what the backend supports.
    #[error("unsupported request: {0}")]
    Unsupported(String),
    /// A `setoption` name the backend does not have.
    #[error("unknown option '{0}'")]
    UnknownOption(String),
    /// A `setoption` value out of range or malformed.
    #[error("invalid value '{value}' for option '{name}': {reason}")]
    InvalidOption {
        /// Option name.
        name: String,
        /// Offending value.
        value: String,
        /// Why it was refused.
        reason: String,
    },
}

impl EngineError {
    /// The value `value` of option `name` is refused; `reason` says what it takes.
    pub fn invalid_option(name: &str, value: &str, reason: impl Into<String>) -> EngineError {
        EngineError::InvalidOption {
            name: name.to_string(),
            value: value.to_string(),
            reason: reason.into(),
        }
    }
}

/// The value of the UCI `check` option `name`: `true` or `false` (in any case, blanks
/// around it ignored).
pub fn check_option(name: &str, value: &str) -> Result<bool, EngineError> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(EngineError::invalid_option(
            name,
            value,
            "expected 'true' or 'false'",
        )),
    }
}

/// Kind of an engine option, as UCI prints it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// Integer in a range.
    Spin {
        /// Default value.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// On or off (`true` / `false`).
    Check {
        /// Default value.
        default: bool,
    },
    /// One of a list of strings.
    Combo {
        /// Default value.
        default: String,
        /// Allowed values.
        choices: Vec<String>,
    },
}

/// An option a backend offers (printed by `uci`, set by `setoption`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOption {
    /// Name as used by `setoption name`.
    pub name: String,
    /// Type and range.
    pub kind: OptionKind,
}

/// The clock an engine's times and time limits are measured on.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(tag = "clock", rename_all = "lowercase")]
pub enum EngineClock {
    /// The host's wall clock (native profiles, external engines).
    Host,
    /// Emulated time: the cycles an emulated CPU ran, at a historical machine's clock.
    Emulated {
        /// The machine's id (`jupiter-3`, `kim-1`).
        machine: String,
        /// Its clock in MHz.
        mhz: f64,
    },
}

/// What one search is asked: the game whose current position is searched, the limits and the
/// caller's control (stop flag, info callback, start of the clock).
#[derive(Clone, Copy)]
pub struct SearchRequest<'a> {
    /// The game: its current position is searched, its moves count for repetitions.
    pub game: &'a Game,
    /// What bounds the search.
    pub limits: &'a Limits,
    /// How the caller steers the search.
    pub control: &'a SearchControl<'a>,
}

/// A chess engine backend: the native engine or an 8-bit build in the emulator.
pub trait Engine: Send {
    /// Name and version for `id name`.
    fn name(&self) -> String;

    /// The authors for `id author`.
    fn author(&self) -> String {
        "the Kempelen developers".into()
    }

    /// Perft of `pos` to `depth`. A backend with no move generator of its own to count with
    /// (an external engine) refuses it, as this default does.
    fn perft(&mut self, pos: &Position, depth: u32) -> Result<u64, EngineError> {
        let _ = (pos, depth);
        Err(EngineError::Unsupported(format!(
            "perft through {}",
            self.name()
        )))
    }

    /// Searches the current position of the request's game within its limits. Returns the
    /// result of the last completed iteration when stopped or out of time.
    fn search_request(&mut self, request: SearchRequest<'_>) -> Result<SearchResult, EngineError>;

    /// [`Engine::search_request`] for `game`, `limits` and `control`.
    fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &SearchControl,
    ) -> Result<SearchResult, EngineError> {
        self.search_request(SearchRequest {
            game,
            limits,
            control,
        })
    }

    /// Forget everything learnt from previous searches (`ucinewgame`).
    fn new_game(&mut self) -> Result<(), EngineError> {
        Ok(())
    }

    /// The options this backend offers.
    fn options(&self) -> Vec<EngineOption> {
        Vec::new()
    }

    /// Sets an option.
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        let _ = value;
        Err(EngineError::UnknownOption(name.to_string()))
    }

    /// The clock [`SearchResult::time`], [`SearchInfo::time`] and the time limits are
    /// measured on.
    fn clock(&self) -> EngineClock {
        EngineClock::Host
    }
}
