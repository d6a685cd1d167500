//! One game between two [`Engine`]s: fixed nodes, fixed depth, a time per move or a clock,
//! each side with its own limit if it has one; from a start position and an opening line;
//! ended by the rules (mate, stalemate, fifty moves, threefold repetition, insufficient
//! material, the same tests as [`Game::status`]), by a move cap, or by a forfeit (loss on
//! time, illegal move, engine failure). Also the game as PGN, with each move's time.

use super::clock::{ClockMode, SideClock, TimeControl, pgn_time};
use crate::engine::{Engine, EngineClock, Limits, SearchControl};
use crate::game::{Game, GameStatus};
use crate::moves::Move;
use crate::piece::BLACK;
use crate::position::{Position, START_FEN};
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use web_time::Instant;

/// The longest string (a tag's value) and symbol (a tag's name, a move) the PGN standard
/// allows: "a string is limited to a maximum of 255 characters of data" (Edwards, "Portable
/// Game Notation Specification and Implementation Guide", 1994, section 7).
pub const MAX_STRING_CHARS: usize = 255;

/// What limits every move of a game (or one player's moves).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveLimit {
    /// A fixed node budget per move.
    Nodes(u64),
    /// A fixed depth per move.
    Depth(u32),
    /// A fixed time per move (on the player's clock: emulated time for an 8-bit build or an
    /// adapted program under [`ClockMode::Emulated`]).
    MoveTime(Duration),
    /// A chess clock per side.
    Clock(TimeControl),
}

/// Below this many milliseconds a plain `movetime` is taken for the seconds it used to mean.
const MOVETIME_PLAIN_MIN_MS: u64 = 100;

/// A fixed time per move as `search`, `uci` (`go movetime`) and the tournament take it:
/// milliseconds (`30000`), or with a unit, `30000ms` or `30s` (`0.5s`). A plain number below
/// 100 is refused with a hint: the tournament once took seconds, and `30` meant 30 s (write
/// `30ms` for so short a time). At most 864000 s.
pub fn parse_movetime(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let (number, seconds) = match (t.strip_suffix("ms"), t.strip_suffix('s')) {
        (Some(ms), _) => (ms, false),
        (None, Some(s)) => (s, true),
        (None, None) => (t, false),
    };
    let value: f64 = number
        .trim()
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite())
        .ok_or_else(|| {
            format!("'{text}' is not a time: milliseconds (30000), or 30000ms or 30s")
        })?;
    let plain = number.len() == t.len();
    if plain && (value.fract() != 0.0 || value < MOVETIME_PLAIN_MIN_MS as f64) && value > 0.0 {
        return Err(format!(
            "'{text}': a plain number is milliseconds (as in search and uci); for {value} seconds write {}s or {}, for {value} milliseconds {value}ms",
            value,
            (value * 1000.0).round()
        ));
    }
    let secs = if seconds { value } else { value / 1000.0 };
    if !(secs > 0.0 && secs <= super::clock::MAX_PERIOD_SECONDS) {
        return Err(format!(
            "'{text}' is out of range (above 0, at most {} s)",
            super::clock::MAX_PERIOD_SECONDS
        ));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// The deepest fixed depth a tournament asks for: more than any of Kempelen's searches goes
/// (the 8-bit builds stop at 32), and far more than a game can wait for.
pub const MAX_DEPTH: u32 = 64;

impl MoveLimit {
    /// A player's own limit: `depth:N`, `nodes:N` or `movetime:MS` (see [`parse_movetime`]).
    pub fn parse_fixed(text: &str) -> Result<MoveLimit, String> {
        let (kind, value) = text
            .split_once(':')
            .ok_or_else(|| format!("'{text}': expected depth:N, nodes:N or movetime:MS"))?;
        let value = value.trim();
        let limit = match kind.trim().to_ascii_lowercase().as_str() {
            "depth" => MoveLimit::Depth(
                value
                    .parse()
                    .map_err(|_| format!("'{text}': depth '{value}' is not a whole number"))?,
            ),
            "nodes" => MoveLimit::Nodes(
                value
                    .parse()
                    .map_err(|_| format!("'{text}': nodes '{value}' is not a whole number"))?,
            ),
            "movetime" => MoveLimit::MoveTime(
                parse_movetime(value).map_err(|e| format!("'{text}': movetime {e}"))?,
            ),
            _ => {
                return Err(format!(
                    "'{text}': expected depth:N, nodes:N or movetime:MS"
                ));
            }
        };
        limit.check().map_err(|e| format!("'{text}': {e}"))?;
        Ok(limit)
    }

    /// Refuses limits no game can be played at: depth 0 or above [`MAX_DEPTH`], no nodes.
    pub fn check(&self) -> Result<(), String> {
        match self {
            MoveLimit::Depth(0) => Err("the depth must be at least 1".into()),
            MoveLimit::Depth(d) if *d > MAX_DEPTH => Err(format!(
                "depth {d} is beyond any search (at most {MAX_DEPTH})"
            )),
            MoveLimit::Nodes(0) => Err("the node limit must be at least 1".into()),
            MoveLimit::MoveTime(t) if t.is_zero() => Err("the move time must be positive".into()),
            _ => Ok(()),
        }
    }

    /// Adds this limit to a search request (a clock is kept by the game, not here).
    fn apply(&self, limits: &mut Limits) {
        match self {
            MoveLimit::Nodes(n) => limits.nodes = Some(*n),
            MoveLimit::Depth(d) => limits.depth = Some(*d),
            MoveLimit::MoveTime(t) => limits.movetime = Some(*t),
            MoveLimit::Clock(_) => {}
        }
    }
}

impl fmt::Display for MoveLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveLimit::Nodes(n) => write!(f, "{n} nodes/move"),
            MoveLimit::Depth(d) => write!(f, "depth {d}"),
            MoveLimit::MoveTime(t) => write!(f, "{} s/move", t.as_secs_f64()),
            MoveLimit::Clock(tc) => write!(f, "{tc}"),
        }
    }
}

/// How a game is played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSettings {
    /// The limit of each move.
    pub limit: MoveLimit,
    /// A draw is adjudicated when the game reaches this many plies (counting the opening).
    pub max_plies: usize,
    /// Whose time the clocks are charged and each move's time is recorded in.
    pub clock: ClockMode,
    /// The host time a move may take beyond its limit (its time per move or the time left
    /// on its clock) before the search is stopped and the player forfeits; `None`: no bound.
    /// It bounds players that run in this process; an external engine has its own.
    pub move_timeout: Option<Duration>,
}

impl Default for GameSettings {
    fn default() -> Self {
        GameSettings {
            limit: MoveLimit::Nodes(10_000),
            max_plies: 400,
            clock: ClockMode::Host,
            move_timeout: None,
        }
    }
}

/// One side of a game: its name, its engine and its own limit, if any (in a game with a
/// clock both the clock and this limit bound its moves; otherwise this limit replaces the
/// game's).
pub struct Seat<'a> {
    /// The name in the record and the PGN.
    pub name: &'a str,
    /// What plays.
    pub engine: &'a mut dyn Engine,
    /// The player's own limit.
    pub limit: Option<MoveLimit>,
}

impl<'a> Seat<'a> {
    /// A side playing at the game's limit.
    pub fn new(name: &'a str, engine: &'a mut dyn Engine) -> Seat<'a> {
        Seat {
            name,
            engine,
            limit: None,
        }
    }

    /// A side with a limit of its own.
    pub fn with_limit(mut self, limit: Option<MoveLimit>) -> Seat<'a> {
        self.limit = limit;
        self
    }
}

/// A start position and the opening moves played from it before the engines take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// A name for the PGN (`Opening` tag).
    pub name: String,
    /// The position the game starts from.
    pub start: Position,
    /// Moves played from `start` (legal there, checked when the opening is made).
    pub moves: Vec<Move>,
}

impl Opening {
    /// The standard start position without opening moves.
    pub fn startpos() -> Opening {
        Opening {
            name: "Start position".into(),
            start: Position::startpos(),
            moves: Vec::new(),
        }
    }
}

/// Who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// A draw.
    Draw,
}

impl Outcome {
    /// PGN result text.
    pub fn pgn(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }

    /// The outcome of a PGN result (`None` for `*` and anything else).
    pub fn from_pgn(text: &str) -> Option<Outcome> {
        match text {
            "1-0" => Some(Outcome::WhiteWins),
            "0-1" => Some(Outcome::BlackWins),
            "1/2-1/2" => Some(Outcome::Draw),
            _ => None,
        }
    }

    /// Points of White (1, 0.5, 0).
    pub fn white_points(self) -> f64 {
        match self {
            Outcome::WhiteWins => 1.0,
            Outcome::BlackWins => 0.0,
            Outcome::Draw => 0.5,
        }
    }

    fn win_for(side: u8) -> Outcome {
        if side == BLACK {
            Outcome::BlackWins
        } else {
            Outcome::WhiteWins
        }
    }
}

/// Why the game ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Termination {
    /// The side to move was checkmated.
    Checkmate,
    /// The side to move had no legal move and was not in check.
    Stalemate,
    /// The position occurred the third time.
    ThreefoldRepetition,
    /// 100 plies without capture or pawn move.
    FiftyMoves,
    /// Neither side can mate.
    InsufficientMaterial,
    /// The move cap was reached (adjudicated draw).
    MoveCap,
    /// The side to move overstepped its clock.
    TimeForfeit,
    /// The side to move sent an illegal move.
    IllegalMove {
        /// The move as sent.
        text: String,
    },
    /// The side to move's engine failed (crash, timeout, garbage, refused request).
    EngineFailure {
        /// The engine's error.
        reason: String,
    },
}

impl Termination {
    /// Whether the game ended by the rules (not by a forfeit or the move cap).
    pub fn is_rules(&self) -> bool {
        matches!(
            self,
            Termination::Checkmate
                | Termination::Stalemate
                | Termination::ThreefoldRepetition
                | Termination::FiftyMoves
                | Termination::InsufficientMaterial
        )
    }

    /// Whether a player lost by a forfeit (time, illegal move, engine failure).
    pub fn is_forfeit(&self) -> bool {
        matches!(
            self,
            Termination::TimeForfeit
                | Termination::IllegalMove { .. }
                | Termination::EngineFailure { .. }
        )
    }

    /// The kind of ending, for counts: the text without a forfeit's detail.
    pub fn category(&self) -> String {
        match self {
            Termination::IllegalMove { .. } => "illegal move".to_string(),
            Termination::EngineFailure { .. } => "engine failure".to_string(),
            t => t.to_string(),
        }
    }

    /// The termination whose text ([`fmt::Display`]) is `text`, as the PGN comment after the
    /// last move records it; `None` for any other text.
    pub fn from_text(text: &str) -> Option<Termination> {
        let text = text.trim();
        let plain = [
            Termination::Checkmate,
            Termination::Stalemate,
            Termination::ThreefoldRepetition,
            Termination::FiftyMoves,
            Termination::InsufficientMaterial,
            Termination::MoveCap,
            Termination::TimeForfeit,
        ];
        if let Some(t) = plain.into_iter().find(|t| t.to_string() == text) {
            return Some(t);
        }
        if let Some(reason) = text.strip_prefix("engine failure: ") {
            return Some(Termination::EngineFailure {
                reason: printable(reason),
            });
        }
        let quoted = text
            .strip_prefix("illegal move '")?
            .strip_suffix("' (forfeit)")?;
        Some(Termination::IllegalMove {
            text: printable(quoted),
        })
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Termination::Checkmate => f.write_str("checkmate"),
            Termination::Stalemate => f.write_str("stalemate"),
            Termination::ThreefoldRepetition => f.write_str("threefold repetition"),
            Termination::FiftyMoves => f.write_str("fifty-move rule"),
            Termination::InsufficientMaterial => f.write_str("insufficient material"),
            Termination::MoveCap => f.write_str("move cap (adjudicated draw)"),
            Termination::TimeForfeit => f.write_str("loss on time"),
            Termination::IllegalMove { text } => write!(f, "illegal move '{text}' (forfeit)"),
            Termination::EngineFailure { reason } => write!(f, "engine failure: {reason}"),
        }
    }
}

/// The time of one move: what the player's clock was charged and what it shows after.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveStamp {
    /// The time the move took: the player's emulated time when `emulated`, else the host's.
    pub time: Duration,
    /// Whether `time` is emulated time at the player's machine's clock.
    pub emulated: bool,
    /// The player's clock after the move, in a game with a clock.
    pub clock: Option<Duration>,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The opening played.
    pub opening: Opening,
    /// Every move from the start position, opening moves first.
    pub moves: Vec<Move>,
    /// The time of each move of `moves` that a player searched (`None` for opening moves).
    pub stamps: Vec<Option<MoveStamp>>,
    /// The result.
    pub outcome: Outcome,
    /// Why it ended.
    pub termination: Termination,
    /// Nodes searched by White and Black (as the engines report them).
    pub nodes: [u64; 2],
    /// The game's limit.
    pub limit: MoveLimit,
    /// Whose time the game charged.
    pub clock_mode: ClockMode,
    /// The clock of White's and Black's engine (host, or an emulated machine).
    pub clocks: [EngineClock; 2],
    /// White's and Black's own limits.
    pub limits: [Option<MoveLimit>; 2],
}

impl GameRecord {
    /// A game that ended before any engine moved (an engine that did not start): the
    /// opening's moves and the result.
    pub fn unplayed(
        names: [&str; 2],
        opening: &Opening,
        settings: &GameSettings,
        outcome: Outcome,
        termination: Termination,
    ) -> GameRecord {
        GameRecord {
            white: names[0].to_string(),
            black: names[1].to_string(),
            opening: opening.clone(),
            moves: opening.moves.clone(),
            stamps: vec![None; opening.moves.len()],
            outcome,
            termination,
            nodes: [0, 0],
            limit: settings.limit.clone(),
            clock_mode: settings.clock,
            clocks: [EngineClock::Host, EngineClock::Host],
            limits: [None, None],
        }
    }
}

/// Plays one game. The engines get `new_game` first; names are taken from the seats so the
/// caller decides how players are labelled.
pub fn play_game<'a>(
    white: Seat<'a>,
    black: Seat<'a>,
    opening: &Opening,
    settings: &GameSettings,
) -> GameRecord {
    let mut game = Game::new(opening.start.clone());
    for &m in &opening.moves {
        game.push(m)
            .expect("opening moves are checked when the opening is made");
    }
    let mut record = GameRecord::unplayed(
        [white.name, black.name],
        opening,
        settings,
        Outcome::Draw,
        Termination::MoveCap,
    );
    record.clocks = [white.engine.clock(), black.engine.clock()];
    record.limits = [white.limit.clone(), black.limit.clone()];
    let mut seats = [white, black];
    for (i, s) in seats.iter_mut().enumerate() {
        if let Err(err) = s.engine.new_game() {
            let side = if i == 0 { 0 } else { BLACK };
            return finish(record, Outcome::win_for(side ^ BLACK), failure(&err));
        }
    }
    let mut clocks = match &settings.limit {
        MoveLimit::Clock(tc) => Some([SideClock::new(tc), SideClock::new(tc)]),
        _ => None,
    };
    loop {
        if let Some((outcome, t)) = ended(&game, settings.max_plies) {
            return finish(record, outcome, t);
        }
        let side = game.position().side();
        let who = usize::from(side == BLACK);
        let limits = move_limits(settings, seats[who].limit.as_ref(), clocks.as_ref(), who);
        let turn = Turn {
            game: &game,
            limits: &limits,
            who,
            settings,
        };
        match play_move(&turn, &mut *seats[who].engine, &mut record, clocks.as_mut()) {
            Ok(best) => {
                game.push(best)
                    .expect("play_move checks that the move is legal");
            }
            Err(t) => return finish(record, Outcome::win_for(side ^ BLACK), t),
        }
    }
}

/// An engine's failure as a game's termination, its reason printable.
fn failure(err: &impl fmt::Display) -> Termination {
    Termination::EngineFailure {
        reason: printable(&err.to_string()),
    }
}

/// How the game ends before the next move, if it does: by the rules, or by the move cap.
fn ended(game: &Game, max_plies: usize) -> Option<(Outcome, Termination)> {
    let termination = match game.status() {
        GameStatus::Ongoing => None,
        GameStatus::Checkmate { winner } => {
            return Some((Outcome::win_for(winner), Termination::Checkmate));
        }
        GameStatus::Stalemate => Some(Termination::Stalemate),
        GameStatus::ThreefoldRepetition => Some(Termination::ThreefoldRepetition),
        GameStatus::FiftyMoves => Some(Termination::FiftyMoves),
        GameStatus::InsufficientMaterial => Some(Termination::InsufficientMaterial),
    };
    if let Some(t) = termination {
        return Some((Outcome::Draw, t));
    }
    (game.moves().len() >= max_plies).then_some((Outcome::Draw, Termination::MoveCap))
}

/// The search limits of the next move of side `who`: the clocks and the side's own limit in
/// a game with a clock, else the side's own limit or the game's.
fn move_limits(
    settings: &GameSettings,
    own: Option<&MoveLimit>,
    clocks: Option<&[SideClock; 2]>,
    who: usize,
) -> Limits {
    let mut limits = Limits::default();
    match (&settings.limit, own) {
        (MoveLimit::Clock(_), own) => {
            let c = clocks.expect("a clock game has clocks");
            limits.wtime = Some(c[0].remaining());
            limits.btime = Some(c[1].remaining());
            limits.winc = Some(c[0].increment());
            limits.binc = Some(c[1].increment());
            limits.movestogo = c[who].moves_to_go();
            if let Some(own) = own {
                own.apply(&mut limits);
            }
        }
        (_, Some(own)) => own.apply(&mut limits),
        (game_limit, None) => game_limit.apply(&mut limits),
    }
    limits
}

/// One move to be searched: the game so far, the side's limits, the side, the settings.
struct Turn<'a> {
    game: &'a Game,
    limits: &'a Limits,
    who: usize,
    settings: &'a GameSettings,
}

/// Searches one move and records it with its time, charging the side's clock; the move, or
/// the forfeit that ends the game (an engine failure, the move timeout, the flag, no move, an
/// illegal move).
fn play_move(
    turn: &Turn<'_>,
    engine: &mut dyn Engine,
    record: &mut GameRecord,
    clocks: Option<&mut [SideClock; 2]>,
) -> Result<Move, Termination> {
    let who = turn.who;
    // Whose time this move is charged: the engine's own report when the game keeps
    // emulated time and the engine runs on an emulated clock, else the host's.
    let emulated = turn.settings.clock == ClockMode::Emulated
        && matches!(record.clocks[who], EngineClock::Emulated { .. });
    let (result, host_time, timed_out) =
        search_bounded(engine, turn.game, turn.limits, who, turn.settings);
    let result = result.map_err(|err| failure(&err))?;
    if let Some(t) = timed_out {
        let reason = format!(
            "no move within the move timeout ({} s of host time beyond its limit); stopped",
            t.as_secs_f64()
        );
        return Err(Termination::EngineFailure { reason });
    }
    record.nodes[who] += result.nodes;
    let spent = if emulated { result.time } else { host_time };
    let mut stamp = MoveStamp {
        time: spent,
        emulated,
        clock: None,
    };
    if let Some(c) = clocks {
        if !c[who].charge(spent) {
            return Err(Termination::TimeForfeit);
        }
        stamp.clock = Some(c[who].remaining());
    }
    let Some(best) = result.best else {
        return Err(Termination::EngineFailure {
            reason: "returned no move in a position with legal moves".into(),
        });
    };
    if !turn.game.position().legal_moves().contains(best) {
        return Err(Termination::IllegalMove {
            text: best.to_uci(),
        });
    }
    record.moves.push(best);
    record.stamps.push(Some(stamp));
    Ok(best)
}

/// Runs one search, stopped after the host time the settings allow it. Returns the result,
/// the host time it took, and the timeout when it was stopped for it.
fn search_bounded(
    engine: &mut dyn Engine,
    game: &Game,
    limits: &Limits,
    who: usize,
    settings: &GameSettings,
) -> (
    Result<crate::SearchResult, crate::EngineError>,
    Duration,
    Option<Duration>,
) {
    let stop = Arc::new(AtomicBool::new(false));
    let control = SearchControl {
        stop: Arc::clone(&stop),
        info: None,
        start: Instant::now(),
    };
    let Some(timeout) = settings.move_timeout else {
        let result = engine.search(game, limits, &control);
        return (result, control.start.elapsed(), None);
    };
    // The move's own limit (its time, or what is left on its clock), then the timeout. An
    // emulated clock is taken as host time too: no emulated machine of Kempelen's is slower
    // than the host emulating it.
    let own = if who == 0 { limits.wtime } else { limits.btime };
    let allowed = limits
        .movetime
        .into_iter()
        .chain(own)
        .max()
        .unwrap_or_default()
        + timeout;
    let fired = AtomicBool::new(false);
    let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
    let result = std::thread::scope(|scope| {
        let (fired, stop) = (&fired, &stop);
        scope.spawn(move || {
            if done_rx.recv_timeout(allowed).is_err() {
                fired.store(true, Ordering::Relaxed);
                stop.store(true, Ordering::Relaxed);
            }
        });
        let result = engine.search(game, limits, &control);
        let _ = done_tx.send(());
        result
    });
    let elapsed = control.start.elapsed();
    (
        result,
        elapsed,
        fired.load(Ordering::Relaxed).then_some(timeout),
    )
}

fn finish(mut record: GameRecord, outcome: Outcome, t: Termination) -> GameRecord {
    record.outcome = outcome;
    record.termination = t;
    record
}

/// PGN tags beyond the players, the result and what the record holds.
#[derive(Clone, Debug, Default)]
pub struct PgnTags {
    /// `Event`.
    pub event: String,
    /// `Round`.
    pub round: String,
    /// `Date` (`YYYY.MM.DD`; empty: unknown).
    pub date: String,
}

/// A tag value as PGN can hold it: no control characters (a newline would end the tag; each
/// becomes a space), at most [`MAX_STRING_CHARS`] characters (PGN's limit), backslash and
/// quote escaped.
pub fn pgn_tag_value(v: &str) -> String {
    v.chars()
        .take(MAX_STRING_CHARS)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
}

/// Text as a terminal or a PGN comment can show it: each control character (a NUL, the ESC
/// that starts a terminal's escape sequence, a line end) as `\xNN`, or `\u{NNNN}` past
/// `\x7F`.
pub fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c as u32 {
            n @ (0..=0x1F | 0x7F) => out.push_str(&format!("\\x{n:02X}")),
            n if c.is_control() => out.push_str(&format!("\\u{{{n:04X}}}")),
            _ => out.push(c),
        }
    }
    out
}

/// The game as PGN (export format: tag pairs, SAN movetext wrapped at 79 columns, a comment
/// with the termination when it is not evident from the moves).
///
/// Tags: the seven of the standard roster; `SetUp` and `FEN` for a start other than the
/// standard position; `Opening`; `TimeControl` (a clock as PGN writes it, `40/7200`, or `-`
/// with a `Limit` tag for nodes, depth or a time per move); `WhiteLimit`/`BlackLimit` for a
/// player's own limit; `WhiteMachine` and `WhiteMHz` (and Black's) for a player on an
/// emulated machine; `WhiteClock`/`BlackClock` (`emulated` or `host`) and a `[%emt H:MM:SS]`
/// comment after each move for the time it took, where the time is emulated or decided a
/// clock; `[%clk H:MM:SS]` for the clock after the move in a game with a clock.
pub fn to_pgn(record: &GameRecord, tags: &PgnTags) -> String {
    let mut out = String::new();
    write_tags(&mut out, record, tags);
    out.push('\n');
    let mut line = String::new();
    for t in movetext_tokens(record) {
        if !line.is_empty() && line.len() + 1 + t.len() > 79 {
            out += &line;
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line += &t;
    }
    out += &line;
    out += "\n\n";
    out
}

/// Whether side `i`'s moves carry their time: in a game with a clock, or when the game
/// charges emulated time and the side runs on an emulated clock.
fn timed(record: &GameRecord, i: usize) -> bool {
    matches!(record.limit, MoveLimit::Clock(_))
        || (record.clock_mode == ClockMode::Emulated
            && matches!(record.clocks[i], EngineClock::Emulated { .. }))
}

/// The tag pairs of the game's PGN (see [`to_pgn`]).
fn write_tags(out: &mut String, record: &GameRecord, tags: &PgnTags) {
    let mut tag = |k: &str, v: &str| {
        let v = if v.is_empty() { "?" } else { v };
        out.push_str(&format!("[{k} \"{}\"]\n", pgn_tag_value(v)));
    };
    let date = if tags.date.is_empty() {
        "????.??.??"
    } else {
        &tags.date
    };
    tag("Event", &tags.event);
    tag("Site", "Kempelen tournament");
    tag("Date", date);
    tag("Round", &tags.round);
    tag("White", &record.white);
    tag("Black", &record.black);
    tag("Result", record.outcome.pgn());
    let start_fen = record.opening.start.to_fen();
    if start_fen != START_FEN {
        tag("SetUp", "1");
        tag("FEN", &start_fen);
    }
    tag("Opening", &record.opening.name);
    match &record.limit {
        MoveLimit::Clock(tc) => tag("TimeControl", &tc.to_string()),
        limit => {
            tag("TimeControl", "-");
            tag("Limit", &limit.to_string());
        }
    }
    for (colour, i) in [("White", 0), ("Black", 1)] {
        if let Some(l) = &record.limits[i] {
            tag(&format!("{colour}Limit"), &l.to_string());
        }
        if let EngineClock::Emulated { machine, mhz } = &record.clocks[i] {
            tag(&format!("{colour}Machine"), machine);
            tag(&format!("{colour}MHz"), &mhz.to_string());
        }
    }
    for (colour, i) in [("White", 0), ("Black", 1)] {
        if timed(record, i) {
            let clock = match (record.clock_mode, &record.clocks[i]) {
                (ClockMode::Emulated, EngineClock::Emulated { .. }) => "emulated",
                _ => "host",
            };
            tag(&format!("{colour}Clock"), clock);
        }
    }
    tag("PlyCount", &record.moves.len().to_string());
    let termination = match &record.termination {
        Termination::TimeForfeit => "time forfeit",
        Termination::IllegalMove { .. } | Termination::EngineFailure { .. } => "rules infraction",
        Termination::MoveCap => "adjudication",
        _ => "normal",
    };
    tag("Termination", termination);
}

/// The movetext as tokens, each a move with its number and its comment (so a line never
/// starts with a comment or ends with a move number), then the termination's comment and the
/// result.
fn movetext_tokens(record: &GameRecord) -> Vec<String> {
    let mut pos = record.opening.start.clone();
    let mut tokens = Vec::new();
    // Black's move gets its number at the start and after a comment.
    let mut numbered = false;
    for (i, &m) in record.moves.iter().enumerate() {
        let who = usize::from(pos.side() == BLACK);
        let mut san = if pos.side() == 0 {
            format!("{}. ", pos.fullmove_number())
        } else if !numbered {
            format!("{}... ", pos.fullmove_number())
        } else {
            String::new()
        };
        san += &pos.san(m);
        numbered = pos.side() == 0;
        if let (Some(Some(stamp)), true) = (record.stamps.get(i), timed(record, who)) {
            san += &format!(" {{[%emt {}]", pgn_time(stamp.time));
            if let Some(clock) = stamp.clock {
                san += &format!(" [%clk {}]", pgn_time(clock));
            }
            san.push('}');
            numbered = false;
        }
        tokens.push(san);
        pos.play(m);
    }
    if record.termination != Termination::Checkmate {
        // A comment holds no closing brace and no control character.
        tokens.push(format!(
            "{{{}}}",
            printable(&record.termination.to_string()).replace('}', ")")
        ));
    }
    tokens.push(record.outcome.pgn().to_string());
    tokens
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{EngineError, NativeEngine, Profile, SearchRequest, SearchResult};

    /// A game from the start position between `white` and `black`, each with its name.
    fn from_start(
        white: (&str, &mut dyn Engine),
        black: (&str, &mut dyn Engine),
        settings: &GameSettings,
    ) -> GameRecord {
        let (white, black) = (Seat::new(white.0, white.1), Seat::new(black.0, black.1));
        play_game(white, black, &Opening::startpos(), settings)
    }

    #[test]
    fn movetime_is_milliseconds_and_the_old_seconds_are_refused_with_a_hint() {
        let ms = |t: &str| parse_movetime(t).map(|d| d.as_millis());
        assert_eq!(ms("30000"), Ok(30_000));
        assert_eq!(ms("30s"), Ok(30_000));
        assert_eq!(ms("0.5s"), Ok(500));
        assert_eq!(ms("50ms"), Ok(50));
        assert_eq!(ms(" 100 "), Ok(100));
        let old = parse_movetime("30").unwrap_err();
        assert!(old.contains("write 30s or 30000"), "{old}");
        let old = parse_movetime("1.5").unwrap_err();
        assert!(old.contains("1.5s or 1500"), "{old}");
        for bad in [
            "", "s", "ms", "abc", "-5s", "0", "0ms", "inf", "NaN", "864001s",
        ] {
            assert!(parse_movetime(bad).is_err(), "{bad}");
        }
        assert!(matches!(
            MoveLimit::parse_fixed("movetime:2s"),
            Ok(MoveLimit::MoveTime(d)) if d.as_millis() == 2000
        ));
        assert!(MoveLimit::parse_fixed("movetime:2").is_err());
    }

    #[test]
    fn a_short_game_is_recorded_and_exported() {
        let mut a = NativeEngine::new(Profile::Reference);
        let mut b = NativeEngine::new(Profile::Reference);
        let settings = GameSettings {
            limit: MoveLimit::Depth(1),
            max_plies: 12,
            ..GameSettings::default()
        };
        let r = from_start(("A", &mut a), ("B", &mut b), &settings);
        assert_eq!(r.moves.len(), 12);
        assert_eq!(r.outcome, Outcome::Draw);
        assert_eq!(r.termination, Termination::MoveCap);
        let pgn = to_pgn(&r, &PgnTags::default());
        assert!(pgn.contains("[White \"A\"]") && pgn.contains("[PlyCount \"12\"]"));
        assert!(
            pgn.trim_end()
                .ends_with("{move cap (adjudicated draw)} 1/2-1/2"),
            "{pgn}"
        );
    }

    /// An engine that always answers the same way.
    struct Scripted(Result<Option<Move>, crate::EngineError>);

    impl Engine for Scripted {
        fn name(&self) -> String {
            "scripted".into()
        }
        fn search_request(&mut self, _: SearchRequest<'_>) -> Result<SearchResult, EngineError> {
            let best = self.0.clone()?;
            let mut r = crate::SearchResult::no_move(false, Duration::ZERO);
            r.best = best;
            Ok(r)
        }
    }

    #[test]
    fn forfeits_name_the_reason() {
        let settings = GameSettings {
            limit: MoveLimit::Nodes(100),
            max_plies: 10,
            ..GameSettings::default()
        };
        let play = |black: Result<Option<Move>, crate::EngineError>| {
            let mut white = NativeEngine::new(Profile::Reference);
            let mut black = Scripted(black);
            from_start(("w", &mut white), ("b", &mut black), &settings)
        };
        let e2e5 = Move::new(0x14, 0x44, 0);
        let r = play(Ok(Some(e2e5)));
        assert_eq!(r.outcome, Outcome::WhiteWins);
        assert_eq!(
            r.termination,
            Termination::IllegalMove {
                text: "e2e5".into()
            }
        );
        assert_eq!(
            r.moves.len(),
            1,
            "White's move is kept, Black's illegal one is not"
        );
        let r = play(Ok(None));
        assert!(matches!(r.termination, Termination::EngineFailure { .. }));
        let r = play(Err(crate::EngineError::Backend("pipe closed".into())));
        assert_eq!(
            r.termination.to_string(),
            "engine failure: engine backend failed: pipe closed"
        );
        let pgn = to_pgn(&r, &PgnTags::default());
        assert!(pgn.contains("[Termination \"rules infraction\"]"), "{pgn}");
    }

    #[test]
    fn mate_in_one_ends_the_game() {
        // White mates with Ra8.
        let start = Position::from_fen("7k/8/6K1/8/8/8/8/R7 w - - 0 1").unwrap();
        let opening = Opening {
            name: "mate".into(),
            start,
            moves: Vec::new(),
        };
        let mut a = NativeEngine::new(Profile::Reference);
        let mut b = NativeEngine::new(Profile::Reference);
        let r = play_game(
            Seat::new("A", &mut a),
            Seat::new("B", &mut b),
            &opening,
            &GameSettings {
                limit: MoveLimit::Depth(2),
                max_plies: 10,
                ..GameSettings::default()
            },
        );
        assert_eq!(
            (r.outcome, r.termination.clone()),
            (Outcome::WhiteWins, Termination::Checkmate)
        );
        assert_eq!(r.moves.len(), 1);
        let pgn = to_pgn(&r, &PgnTags::default());
        assert!(
            pgn.contains("[FEN \"7k/8/6K1/8/8/8/8/R7 w - - 0 1\"]"),
            "{pgn}"
        );
        assert!(pgn.contains("1. Ra8# 1-0"), "{pgn}");
    }

    /// An engine on an emulated clock that reports `per_move` for every move and plays the
    /// first legal move.
    struct Emulated {
        per_move: Duration,
    }

    impl Engine for Emulated {
        fn name(&self) -> String {
            "emulated".into()
        }
        fn search_request(
            &mut self,
            request: SearchRequest<'_>,
        ) -> Result<SearchResult, EngineError> {
            let game = request.game;
            let mut r = crate::SearchResult::no_move(false, self.per_move);
            r.best = game.position().legal_moves().as_slice().first().copied();
            r.nodes = 1;
            Ok(r)
        }
        fn clock(&self) -> EngineClock {
            EngineClock::Emulated {
                machine: "jupiter-3".into(),
                mhz: 2.0,
            }
        }
    }

    #[test]
    fn emulated_clocks_charge_the_reported_time_and_flags_fall() {
        // 3 moves in 100 s: White takes 30 s a move, Black 40 s. Black's third move would
        // leave him 100 - 120 < 0: his flag falls on it, White's does not (90 s of 100).
        let settings = GameSettings {
            limit: MoveLimit::Clock("3/100".parse().unwrap()),
            max_plies: 20,
            clock: ClockMode::Emulated,
            move_timeout: Some(Duration::from_secs(60)),
        };
        let mut w = Emulated {
            per_move: Duration::from_secs(30),
        };
        let mut b = Emulated {
            per_move: Duration::from_secs(40),
        };
        let r = from_start(("w", &mut w), ("b", &mut b), &settings);
        assert_eq!(
            (r.outcome, r.termination.clone()),
            (Outcome::WhiteWins, Termination::TimeForfeit)
        );
        assert_eq!(r.moves.len(), 5, "w b w b w, then b's flag falls");
        let s = r.stamps[3].unwrap();
        assert_eq!(
            (s.time, s.emulated, s.clock),
            (Duration::from_secs(40), true, Some(Duration::from_secs(20)))
        );
        // White's third move ends the period: 10 s left plus another 100.
        assert_eq!(r.stamps[4].unwrap().clock, Some(Duration::from_secs(110)));
        let pgn = to_pgn(&r, &PgnTags::default());
        for tag in [
            "[TimeControl \"3/100\"]",
            "[WhiteMachine \"jupiter-3\"]",
            "[WhiteMHz \"2\"]",
            "[BlackClock \"emulated\"]",
            "[Termination \"time forfeit\"]",
        ] {
            assert!(pgn.contains(tag), "{tag}: {pgn}");
        }
        assert!(
            pgn.contains("1. Na3 {[%emt 0:00:30] [%clk 0:01:10]} 1... a6 {[%emt 0:00:40]"),
            "{pgn}"
        );
        assert!(pgn.contains("{[%emt 0:00:40] [%clk 0:00:20]}"), "{pgn}");
        assert!(pgn.trim_end().ends_with("{loss on time} 1-0"), "{pgn}");
        // The same engines on host clocks are charged the host's time: no flag.
        let host = GameSettings {
            clock: ClockMode::Host,
            ..settings
        };
        let r = from_start(("w", &mut w), ("b", &mut b), &host);
        assert_ne!(r.termination, Termination::TimeForfeit);
        assert!(!r.stamps.iter().flatten().any(|s| s.emulated));
        assert!(to_pgn(&r, &PgnTags::default()).contains("[WhiteClock \"host\"]"));
    }

    #[test]
    fn a_search_beyond_the_move_timeout_is_stopped_and_forfeits() {
        // The reference at a depth it cannot finish, stopped after 50 ms of host time.
        let settings = GameSettings {
            limit: MoveLimit::Depth(MAX_DEPTH),
            max_plies: 10,
            clock: ClockMode::Host,
            move_timeout: Some(Duration::from_millis(50)),
        };
        let mut a = NativeEngine::new(Profile::Reference);
        let mut b = NativeEngine::new(Profile::Reference);
        let r = from_start(("a", &mut a), ("b", &mut b), &settings);
        assert_eq!(r.outcome, Outcome::BlackWins);
        let Termination::EngineFailure { reason } = &r.termination else {
            panic!("{:?}", r.termination)
        };
        assert!(
            reason.contains("no move within the move timeout (0.05 s"),
            "{reason}"
        );
    }
}
