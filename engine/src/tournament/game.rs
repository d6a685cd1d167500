//! One game between two [`Engine`]s: fixed nodes, fixed depth or a clock; from a start position
//! and an opening line; ended by the rules (mate, stalemate, fifty moves, threefold repetition,
//! insufficient material, the same tests as [`Game::status`]), by a move cap, or by a forfeit
//! (loss on time, illegal move, engine failure). Also the game as PGN.

use crate::engine::{Engine, Limits, SearchControl};
use crate::game::{Game, GameStatus};
use crate::moves::Move;
use crate::piece::BLACK;
use crate::position::{Position, START_FEN};
use std::fmt;
use std::time::{Duration, Instant};

/// What limits every move of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveLimit {
    /// A fixed node budget per move.
    Nodes(u64),
    /// A fixed depth per move.
    Depth(u32),
    /// A Fischer clock: base time per side plus an increment per move.
    Clock {
        /// Time at the start.
        base: Duration,
        /// Added after each move.
        increment: Duration,
    },
}

impl fmt::Display for MoveLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveLimit::Nodes(n) => write!(f, "{n} nodes/move"),
            MoveLimit::Depth(d) => write!(f, "depth {d}"),
            MoveLimit::Clock { base, increment } => {
                write!(f, "{}+{}", base.as_secs_f64(), increment.as_secs_f64())
            }
        }
    }
}

/// How a game is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSettings {
    /// The limit of each move.
    pub limit: MoveLimit,
    /// A draw is adjudicated when the game reaches this many plies (counting the opening).
    pub max_plies: usize,
}

impl Default for GameSettings {
    fn default() -> Self {
        GameSettings {
            limit: MoveLimit::Nodes(10_000),
            max_plies: 400,
        }
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
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
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

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The opening played.
    pub opening: Opening,
    /// Every move from the start position, opening moves first.
    pub moves: Vec<Move>,
    /// The result.
    pub outcome: Outcome,
    /// Why it ended.
    pub termination: Termination,
    /// Nodes searched by White and Black (as the engines report them).
    pub nodes: [u64; 2],
}

/// Plays one game. The engines get `new_game` first; names are taken from the arguments so
/// the caller decides how players are labelled.
pub fn play_game(
    white: (&str, &mut dyn Engine),
    black: (&str, &mut dyn Engine),
    opening: &Opening,
    settings: &GameSettings,
) -> GameRecord {
    let (white_name, white_engine) = white;
    let (black_name, black_engine) = black;
    let mut game = Game::new(opening.start.clone());
    for &m in &opening.moves {
        game.push(m)
            .expect("opening moves are checked when the opening is made");
    }
    let mut record = GameRecord {
        white: white_name.to_string(),
        black: black_name.to_string(),
        opening: opening.clone(),
        moves: Vec::new(),
        outcome: Outcome::Draw,
        termination: Termination::MoveCap,
        nodes: [0, 0],
    };
    let mut engines: [&mut dyn Engine; 2] = [white_engine, black_engine];
    for (i, e) in engines.iter_mut().enumerate() {
        if let Err(err) = e.new_game() {
            let side = if i == 0 { 0 } else { BLACK };
            return finish(
                record,
                game,
                Outcome::win_for(side ^ BLACK),
                Termination::EngineFailure {
                    reason: err.to_string(),
                },
            );
        }
    }
    let mut clocks = match settings.limit {
        MoveLimit::Clock { base, .. } => [base, base],
        _ => [Duration::ZERO; 2],
    };
    loop {
        let status = game.status();
        let termination = match status {
            GameStatus::Ongoing => None,
            GameStatus::Checkmate { winner } => {
                return finish(
                    record,
                    game,
                    Outcome::win_for(winner),
                    Termination::Checkmate,
                );
            }
            GameStatus::Stalemate => Some(Termination::Stalemate),
            GameStatus::ThreefoldRepetition => Some(Termination::ThreefoldRepetition),
            GameStatus::FiftyMoves => Some(Termination::FiftyMoves),
            GameStatus::InsufficientMaterial => Some(Termination::InsufficientMaterial),
        };
        if let Some(t) = termination {
            return finish(record, game, Outcome::Draw, t);
        }
        if game.moves().len() >= settings.max_plies {
            return finish(record, game, Outcome::Draw, Termination::MoveCap);
        }
        let side = game.position().side();
        let who = usize::from(side == BLACK);
        let limits = match settings.limit {
            MoveLimit::Nodes(n) => Limits::nodes(n),
            MoveLimit::Depth(d) => Limits::depth(d),
            MoveLimit::Clock { increment, .. } => Limits {
                wtime: Some(clocks[0]),
                btime: Some(clocks[1]),
                winc: Some(increment),
                binc: Some(increment),
                ..Limits::default()
            },
        };
        let started = Instant::now();
        let result = engines[who].search(&game, &limits, &SearchControl::default());
        let spent = started.elapsed();
        let forfeit = Outcome::win_for(side ^ BLACK);
        let result = match result {
            Ok(r) => r,
            Err(err) => {
                let t = Termination::EngineFailure {
                    reason: err.to_string(),
                };
                return finish(record, game, forfeit, t);
            }
        };
        record.nodes[who] += result.nodes;
        if let MoveLimit::Clock { increment, .. } = settings.limit {
            if spent > clocks[who] {
                return finish(record, game, forfeit, Termination::TimeForfeit);
            }
            clocks[who] = clocks[who] - spent + increment;
        }
        let Some(best) = result.best else {
            let t = Termination::EngineFailure {
                reason: "returned no move in a position with legal moves".into(),
            };
            return finish(record, game, forfeit, t);
        };
        if game.push(best).is_err() {
            let t = Termination::IllegalMove {
                text: best.to_uci(),
            };
            return finish(record, game, forfeit, t);
        }
    }
}

fn finish(mut record: GameRecord, game: Game, outcome: Outcome, t: Termination) -> GameRecord {
    record.moves = game.moves().to_vec();
    record.outcome = outcome;
    record.termination = t;
    record
}

/// PGN tags beyond the players and the result.
#[derive(Clone, Debug, Default)]
pub struct PgnTags {
    /// `Event`.
    pub event: String,
    /// `Round`.
    pub round: String,
    /// `Date` (`YYYY.MM.DD`; empty: unknown).
    pub date: String,
    /// The move limit: a clock becomes the standard `TimeControl` tag (`base+inc` in seconds),
    /// nodes and depth a `TimeControl "-"` with a `Limit` tag saying which.
    pub limit: Option<MoveLimit>,
}

/// The game as PGN (export format: tag pairs, SAN movetext wrapped at 79 columns, a comment
/// with the termination when it is not evident from the moves).
pub fn to_pgn(record: &GameRecord, tags: &PgnTags) -> String {
    let mut out = String::new();
    let q = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
    let date = if tags.date.is_empty() {
        "????.??.??"
    } else {
        &tags.date
    };
    for (k, v) in [
        ("Event", tags.event.as_str()),
        ("Site", "Kempelen tournament"),
        ("Date", date),
        ("Round", tags.round.as_str()),
        ("White", record.white.as_str()),
        ("Black", record.black.as_str()),
        ("Result", record.outcome.pgn()),
    ] {
        out += &format!("[{k} \"{}\"]\n", q(if v.is_empty() { "?" } else { v }));
    }
    let start_fen = record.opening.start.to_fen();
    if start_fen != START_FEN {
        out += "[SetUp \"1\"]\n";
        out += &format!("[FEN \"{start_fen}\"]\n");
    }
    out += &format!("[Opening \"{}\"]\n", q(&record.opening.name));
    match tags.limit {
        Some(MoveLimit::Clock { base, increment }) => {
            out += &format!(
                "[TimeControl \"{}+{}\"]\n",
                base.as_secs_f64(),
                increment.as_secs_f64()
            );
        }
        Some(limit) => out += &format!("[TimeControl \"-\"]\n[Limit \"{limit}\"]\n"),
        None => {}
    }
    out += &format!("[PlyCount \"{}\"]\n", record.moves.len());
    let termination = match &record.termination {
        Termination::TimeForfeit => "time forfeit",
        Termination::IllegalMove { .. } | Termination::EngineFailure { .. } => "rules infraction",
        Termination::MoveCap => "adjudication",
        _ => "normal",
    };
    out += &format!("[Termination \"{termination}\"]\n\n");
    let mut pos = record.opening.start.clone();
    let mut tokens = Vec::new();
    for (i, &m) in record.moves.iter().enumerate() {
        if pos.side() == 0 {
            tokens.push(format!("{}.", pos.fullmove_number()));
        } else if i == 0 {
            tokens.push(format!("{}...", pos.fullmove_number()));
        }
        tokens.push(pos.san(m));
        pos.play(m);
    }
    if record.termination != Termination::Checkmate {
        tokens.push(format!("{{{}}}", record.termination));
    }
    tokens.push(record.outcome.pgn().to_string());
    let mut line = String::new();
    for t in tokens {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{NativeEngine, Profile};

    #[test]
    fn a_short_game_is_recorded_and_exported() {
        let mut a = NativeEngine::new(Profile::Reference);
        let mut b = NativeEngine::new(Profile::Reference);
        let settings = GameSettings {
            limit: MoveLimit::Depth(1),
            max_plies: 12,
        };
        let r = play_game(
            ("A", &mut a),
            ("B", &mut b),
            &Opening::startpos(),
            &settings,
        );
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
        fn perft(&mut self, _: &Position, _: u32) -> Result<u64, crate::EngineError> {
            Ok(0)
        }
        fn search(
            &mut self,
            _: &Game,
            _: &Limits,
            _: &SearchControl,
        ) -> Result<crate::SearchResult, crate::EngineError> {
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
        };
        let play = |black: Result<Option<Move>, crate::EngineError>| {
            let mut white = NativeEngine::new(Profile::Reference);
            let mut black = Scripted(black);
            play_game(
                ("w", &mut white),
                ("b", &mut black),
                &Opening::startpos(),
                &settings,
            )
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
            ("A", &mut a),
            ("B", &mut b),
            &opening,
            &GameSettings {
                limit: MoveLimit::Depth(2),
                max_plies: 10,
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
}
