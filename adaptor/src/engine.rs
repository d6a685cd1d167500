//! [`AdaptorEngine`]: an adapted program as a [`kempelen_engine::Engine`]. It keeps the
//! program running between searches when the game only grew by the opponent's move, sets it up
//! afresh otherwise, and reads the program's reply (a move, castling, an en-passant capture,
//! and the depth, score and nodes when the program prints them) from its console text.
//!
//! A move sent in the program's name is the program's own: the move it printed (with the
//! piece a pawn became read from its board when it names none), or, when the search is
//! stopped (`stop`, the time limit, the node limit), the move it holds as its best so far in
//! RAM. When there is none (the program faulted, printed nothing readable, held no move yet,
//! or cannot take the position), the search fails with the reason, and UCI answers
//! `bestmove 0000`.
//!
//! Time is the emulated time of the turn in which the program computes its move, at the
//! machine's clock. The level (the program's `{depth}`) is the one asked for (`go depth`, the
//! `Level` option), or chosen from the time limits with the adaptor's time model, as an owner
//! chose a level to fit a tournament's rate; the time limit's hard end stops the emulated CPU.

use kempelen_engine::{
    Engine, EngineClock, EngineError, EngineOption, Game, Limits, Move, OptionKind, SearchControl,
    SearchInfo, SearchRequest, SearchResult, time,
};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use crate::board::{BoardError, ProgramBoard};
use crate::description::Adaptor;
use crate::error::AdaptorError;
use crate::held::Held;
use crate::machine::{
    Action, Advanced, Cause, Cmd, Host, Progress, SearchTurn, Turn, TurnEnd, one_line, run_actions,
};
use crate::setup::{Setup, before_last};

/// The UCI option that sets the program's level (0: chosen from the time limits).
const LEVEL_OPTION: &str = "Level";
/// The UCI option that holds the emulation to the machine's real speed.
const REALTIME_OPTION: &str = "Realtime";

/// An adaptor as a UCI engine.
pub struct AdaptorEngine {
    adaptor: Arc<Adaptor>,
    /// The running program, if any.
    worker: Option<Host>,
    /// Whether the program's machine runs on a thread of its own (else on the caller's).
    threaded: bool,
    /// The game as the program knows it: start FEN and moves.
    known: Option<(String, Vec<Move>)>,
    /// The `Level` option: 0 chooses the level from the time limits.
    level: u32,
    /// The `Realtime` option.
    realtime: bool,
    /// The exact figures of the last search's turn.
    last: Option<SearchFigures>,
    /// The program's board around the last search's turn.
    boards: Option<TurnBoards>,
}

/// The program's board read from its RAM (where its adaptor file says it keeps it) in the
/// turn in which it computed its move: as the turn began (what the set-up left there) and as
/// it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnBoards {
    /// As the turn began.
    pub before: Result<ProgramBoard, BoardError>,
    /// As the program answered; `None` when the turn was stopped in the middle of its search
    /// (its board then holds a move of the search, not its answer) or never read.
    pub after: Option<Result<ProgramBoard, BoardError>>,
}

/// The exact figures of the turn in which the program computed (or was stopped computing) its
/// move: what `kempelen bench --program` reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchFigures {
    /// The turn's cycles (emulated time = cycles / the machine's clock), from the key that
    /// starts the search to the program's next wait for a key.
    pub cycles: u64,
    /// The entries to the adaptor's node routines in that turn (`None`: the adaptor counts no
    /// nodes).
    pub nodes: Option<u64>,
    /// The level it searched at (`None`: the program has no levels).
    pub level: Option<u32>,
    /// Whether the turn was ended before the program answered (stop, time or node limit).
    pub stopped: bool,
}

impl AdaptorEngine {
    /// An engine for the adaptor file at `path`.
    pub fn new(path: &Path) -> Result<AdaptorEngine, AdaptorError> {
        Ok(AdaptorEngine::with_thread(Adaptor::from_file(path)?, true))
    }

    /// An engine for an adaptor read before (from text and picked files:
    /// [`Adaptor::from_text`]), whose program's machine runs on a thread of its own
    /// (`threaded`, as on the command line: `stop` reaches a running turn) or on the caller's
    /// thread, each turn run to its end in the call (a host without threads: a page's Web
    /// Worker).
    pub fn with_thread(adaptor: Adaptor, threaded: bool) -> AdaptorEngine {
        AdaptorEngine {
            adaptor: Arc::new(adaptor),
            worker: None,
            threaded,
            known: None,
            level: 0,
            realtime: false,
            last: None,
            boards: None,
        }
    }

    /// The adaptor file as read.
    pub fn adaptor(&self) -> &Adaptor {
        &self.adaptor
    }

    /// The exact figures of the last search, when it reached the program's search turn.
    pub fn last_search(&self) -> Option<SearchFigures> {
        self.last
    }

    /// The program's board in the last search's turn (`None` before any, or when the search
    /// ended before that turn).
    pub fn last_boards(&self) -> Option<&TurnBoards> {
        self.boards.as_ref()
    }

    /// Holds the emulation to the machine's clock while the program computes its move.
    pub fn set_realtime(&mut self, on: bool) {
        self.realtime = on;
    }

    /// The level for a search within `limits` (`None`: the program has no levels and none was
    /// asked for).
    fn level_for(&self, limits: &Limits, side: u8) -> Option<u32> {
        let a = &self.adaptor;
        if let Some(d) = limits.depth {
            return Some(a.depth.clamp(d));
        }
        if !a.has_levels {
            return None;
        }
        if self.level > 0 {
            return Some(a.depth.clamp(self.level));
        }
        // Without a time limit the program searches at its usual level; `stop` (or the node
        // limit) ends the search with the move it holds by then.
        if limits.infinite || limits.nodes.is_some() {
            return Some(a.depth_for(None));
        }
        match time::budget(limits, side).soft {
            Some(target) if !a.levels.is_empty() => {
                let t = target.as_secs_f64();
                let fits = a
                    .levels
                    .iter()
                    .filter(|l| l.mean <= t)
                    .map(|l| l.depth)
                    .max();
                let lowest = a.levels.iter().map(|l| l.depth).min();
                fits.or(lowest).map(|d| a.depth.clamp(d))
            }
            _ => Some(a.depth_for(None)),
        }
    }

    /// The actions that bring the program to `game` and make it move, on the running program
    /// when it knows the game up to the opponent's last move.
    /// A program that has to start first starts under the search's `stop`, so a program that
    /// never waits for input is ended by `stop` (and `quit`) too.
    fn actions(
        &mut self,
        game: &Game,
        level: Option<u32>,
        stop: &Arc<std::sync::atomic::AtomicBool>,
    ) -> Result<Vec<Action>, EngineError> {
        let a = Arc::clone(&self.adaptor);
        let setup = Setup { adaptor: &a };
        let start = game.start().to_fen();
        let moves = game.moves();
        let mut pre = String::new();
        if let (Some(d), Some(t)) = (level, &a.keys.depth) {
            pre.push_str(&t.replace("{depth}", &a.depth.clamp(d).to_string()));
        }
        if let (Some((fen, known)), Some(_)) = (&self.known, &self.worker) {
            if *fen == start && moves.starts_with(known) {
                match (moves.len() - known.len(), &a.keys.go) {
                    (0, Some(go)) => {
                        return Ok(vec![
                            Action::Keys(pre),
                            Action::Flush,
                            Action::Search(go.clone()),
                        ]);
                    }
                    (1, _) => {
                        let mut before = game.clone();
                        while before.moves().len() > known.len() {
                            before = before_last(&before);
                        }
                        let m = moves[known.len()];
                        if setup.typeable(before.position(), m) {
                            let mut actions = vec![Action::Keys(pre), Action::Flush];
                            actions.extend(setup.move_then_go(before.position(), &m));
                            return Ok(actions);
                        }
                    }
                    _ => {}
                }
            }
        }
        let plan = setup.plan(game, level)?;
        // A fresh program: the new-game keys if it has them and the plan starts from its own
        // start, else a new machine.
        let mut actions = Vec::new();
        match (&self.worker, &a.keys.new_game, plan.fresh_keys) {
            (Some(w), Some(n), true) => {
                actions.push(Action::Keys(n.clone()));
                actions.push(Action::Flush);
                let _ = w;
            }
            _ => {
                self.worker = None;
                let w = if self.threaded {
                    Host::spawn(Arc::clone(&a))
                } else {
                    Host::inline(Arc::clone(&a))
                };
                w.ask(Cmd::Boot(Arc::clone(stop)))?;
                self.worker = Some(w);
                // Start keys as a turn of their own (the program answers its questions).
                actions.push(Action::Keys(plan.start));
                actions.push(Action::Flush);
            }
        }
        actions.push(Action::Keys(pre));
        actions.push(Action::Flush);
        actions.extend(plan.actions);
        Ok(actions)
    }

    /// The depth to report: the one the program printed, else its level.
    fn reported_depth(&self, printed: Option<u32>, level: Option<u32>) -> Option<u32> {
        printed.or(if self.adaptor.has_levels { level } else { None })
    }

    /// The UCI score and the line's text for the byte of the program's score.
    fn score_of(&self, raw: Option<u8>) -> (Option<i32>, Option<String>) {
        let (Some(raw), Some(s)) = (raw, &self.adaptor.ram.score) else {
            return (None, None);
        };
        if let Some((_, meaning)) = s.special.iter().find(|(v, _)| *v == raw) {
            return (None, Some(format!("value {raw}: {meaning}")));
        }
        let cp = s
            .centipawns
            .map(|c| ((f64::from(raw) - f64::from(s.neutral)) * c).round() as i32);
        (cp, Some(format!("value {raw} ({})", s.scale)))
    }

    /// The info line for what the program holds while it searches.
    fn progress_info(&self, game: &Game, level: Option<u32>, p: &Progress) -> Option<SearchInfo> {
        let held = p.held.as_ref()?;
        let mv = legal(game, &held.uci)?;
        let (score, string) = self.score_of(held.score);
        Some(SearchInfo {
            depth: match p.nodes {
                Some(0) => None,
                _ => self.reported_depth(None, level),
            },
            seldepth: 0,
            score,
            nodes: p.nodes,
            time: self.adaptor.clock.duration(p.cycles),
            pv: vec![mv],
            hashfull: None,
            string,
        })
    }

    /// The program's boards of a turn that computed its move (see [`TurnBoards`]).
    fn turn_boards(&self, turn: &Turn, program_black: bool) -> Option<TurnBoards> {
        let a = &self.adaptor;
        let Some((before, after)) = &turn.boards else {
            return a.board_memory().is_none().then(|| TurnBoards {
                before: Err(BoardError::NotDescribed {
                    program: a.name.clone(),
                }),
                after: None,
            });
        };
        Some(TurnBoards {
            before: a.board_from_bytes(before, program_black),
            after: (turn.end == TurnEnd::Waiting).then(|| a.board_from_bytes(after, program_black)),
        })
    }

    /// Forgets the running program (after a failure, or a stop in the middle of its search).
    fn drop_program(&mut self) {
        self.worker = None;
        self.known = None;
    }
}

#[cfg(feature = "opened")]
/// The actions that set a freshly booted program up in `game` at `level` and make it move:
/// its start keys, the depth keys, then the plan (see `Setup::plan`).
pub(crate) fn fresh_actions(
    a: &Adaptor,
    game: &Game,
    level: Option<u32>,
) -> Result<Vec<Action>, EngineError> {
    let setup = Setup { adaptor: a };
    let plan = setup.plan(game, level)?;
    let mut pre = String::new();
    if let (Some(d), Some(t)) = (level, &a.keys.depth) {
        pre.push_str(&t.replace("{depth}", &a.depth.clamp(d).to_string()));
    }
    let mut actions = vec![
        Action::Keys(plan.start),
        Action::Flush,
        Action::Keys(pre),
        Action::Flush,
    ];
    actions.extend(plan.actions);
    Ok(actions)
}

#[cfg(feature = "opened")]
/// The level an adapted program searches at when asked for `depth` (`None`: its default, when
/// it has levels).
pub(crate) fn level_of(a: &Adaptor, depth: Option<u32>) -> Option<u32> {
    match depth {
        Some(d) => Some(a.depth.clamp(d)),
        None => a.has_levels.then(|| a.depth_for(None)),
    }
}

/// The program's reply in what it printed in its turn (the last or first match of the
/// adaptor's pattern) as a move's coordinates (`e2e4`: a promotion without its piece when the
/// program names none), and what it printed beside it.
fn reply_text(a: &Adaptor, game: &Game, out: &str) -> Result<(String, Printed), EngineError> {
    let caps: Vec<regex::Captures> = a.reply.captures_iter(out).collect();
    let cap = if a.first { caps.first() } else { caps.last() };
    let Some(cap) = cap else {
        return Err(EngineError::Backend(format!(
            "{}: no reply matching `{}` in: {}",
            a.name,
            a.reply.as_str(),
            one_line(out)
        )));
    };
    let pos = game.position();
    let white = pos.side() == kempelen_engine::piece::WHITE;
    let rank = if white { '1' } else { '8' };
    let text = match (cap.name("move"), cap.name("castle")) {
        _ if cap.name("en_passant").is_some() => {
            let ep: Vec<Move> = pos
                .legal_moves()
                .iter()
                .copied()
                .filter(|&m| pos.is_en_passant(m))
                .collect();
            match ep.as_slice() {
                [m] => m.to_uci(),
                [] => {
                    return Err(EngineError::Backend(format!(
                        "{}: it replies with an en-passant capture, and there is none here",
                        a.name
                    )));
                }
                _ => {
                    return Err(EngineError::Backend(format!(
                        "{}: it replies with an en-passant capture without saying which pawn takes ({} can)",
                        a.name,
                        ep.iter().map(|m| m.to_uci()).collect::<Vec<_>>().join(", ")
                    )));
                }
            }
        }
        (_, Some(c)) if c.as_str().len() > 3 => format!("e{rank}c{rank}"),
        (_, Some(_)) => format!("e{rank}g{rank}"),
        (Some(mv), None) => mv.as_str().to_ascii_lowercase(),
        (None, None) => {
            let sq = |n: &str| {
                cap.name(n)
                    .and_then(|t| a.squares.decode(t.as_str(), !white))
            };
            match (sq("from"), sq("to")) {
                (Some(f), Some(t)) => format!("{f}{t}"),
                _ => String::new(),
            }
        }
    };
    let num = |n: &str| cap.name(n).and_then(|t| t.as_str().parse::<i64>().ok());
    Ok((
        text,
        Printed {
            depth: num("depth").and_then(|d| u32::try_from(d).ok()),
            score: num("score").and_then(|s| i32::try_from(s).ok()),
            nodes: num("nodes").and_then(|n| u64::try_from(n).ok()),
        },
    ))
}

#[cfg(feature = "opened")]
impl Adaptor {
    /// The move the program answered with in what it printed (`out`) in `game`'s position, if
    /// the adaptor's pattern finds one that is legal there (a pawn reaching the last rank
    /// without a piece named: a queen).
    pub fn answer(&self, game: &Game, out: &str) -> Option<Move> {
        let (text, _) = reply_text(self, game, out).ok()?;
        legal(game, &text).or_else(|| legal(game, &format!("{text}q")))
    }
}

/// `text` as a legal move of `game`'s position.
fn legal(game: &Game, text: &str) -> Option<Move> {
    let mut g = game.clone();
    g.push_uci(text).ok()
}

impl Engine for AdaptorEngine {
    fn name(&self) -> String {
        format!("{} (in Kempelen's emulator)", self.adaptor.name)
    }

    fn author(&self) -> String {
        match &self.adaptor.author {
            Some(a) => format!("{a} (adapted for UCI by the Kempelen developers)"),
            None => "the Kempelen developers".into(),
        }
    }

    fn perft(&mut self, _pos: &kempelen_engine::Position, _depth: u32) -> Result<u64, EngineError> {
        Err(EngineError::Unsupported(
            "perft: an adapted program only plays".into(),
        ))
    }

    fn new_game(&mut self) -> Result<(), EngineError> {
        self.known = None;
        Ok(())
    }

    /// An adapted program's time is always the emulated time at its machine's clock. The
    /// machine is the personality it runs on (`rictor-sbc`, whose clock is the `kim-1`
    /// profile's), or the clock profile when the adaptor names no personality.
    fn clock(&self) -> EngineClock {
        let machine = self
            .adaptor
            .personality
            .as_ref()
            .map_or(self.adaptor.clock.id, |p| p.id.as_str());
        EngineClock::Emulated {
            machine: machine.to_string(),
            mhz: self.adaptor.clock.mhz,
        }
    }

    /// `Level` (when the program has levels: its `{depth}`, 0 = chosen from the time
    /// limits) and `Realtime` (hold the emulation to the machine's clock while the program
    /// thinks).
    fn options(&self) -> Vec<EngineOption> {
        let mut options = Vec::new();
        if self.adaptor.has_levels {
            options.push(EngineOption {
                name: LEVEL_OPTION.into(),
                kind: OptionKind::Spin {
                    default: 0,
                    min: 0,
                    max: i64::from(self.adaptor.depth.clamp(u32::MAX)),
                },
            });
        }
        options.push(EngineOption {
            name: REALTIME_OPTION.into(),
            kind: OptionKind::Check { default: false },
        });
        options
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        let invalid =
            |option: &str, reason: String| EngineError::invalid_option(option, value, reason);
        if name.eq_ignore_ascii_case(REALTIME_OPTION) {
            self.realtime = kempelen_engine::check_option(REALTIME_OPTION, value)?;
            return Ok(());
        }
        if name.eq_ignore_ascii_case(LEVEL_OPTION) && self.adaptor.has_levels {
            let max = self.adaptor.depth.clamp(u32::MAX);
            self.level = match value.trim().parse::<u32>() {
                Ok(n) if n <= max => n,
                _ => {
                    return Err(invalid(
                        LEVEL_OPTION,
                        format!("0 (from the time limits) to {max}"),
                    ));
                }
            };
            return Ok(());
        }
        Err(EngineError::UnknownOption(name.to_string()))
    }

    fn search_request(&mut self, request: SearchRequest<'_>) -> Result<SearchResult, EngineError> {
        let (game, limits, control) = (request.game, request.limits, request.control);
        self.check_request(game, limits)?;
        self.last = None;
        self.boards = None;
        let side = game.position().side();
        let level = self.level_for(limits, side);
        let turn = self.search_turn(game, limits, control, level)?;
        self.finish_search(game, limits, control, level, turn)
    }
}

impl AdaptorEngine {
    /// The search's result from the turn in which the program computed its move (or was
    /// stopped): its figures and boards kept, its move read (what it printed, or what it held
    /// as best), its info line reported.
    fn finish_search(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &SearchControl<'_>,
        level: Option<u32>,
        turn: Turn,
    ) -> Result<SearchResult, EngineError> {
        let side = game.position().side();
        self.boards = self.turn_boards(&turn, side != kempelen_engine::piece::WHITE);
        let time = self.adaptor.clock.duration(turn.cycles);
        self.last = Some(SearchFigures {
            cycles: turn.cycles,
            nodes: turn.nodes,
            level: if self.adaptor.has_levels { level } else { None },
            stopped: turn.end != TurnEnd::Waiting,
        });
        let (best, printed, score_raw) = match turn.end {
            TurnEnd::Waiting => self.replied_move(game, &turn.out)?,
            TurnEnd::Stopped(cause) => self.held_move(game, limits, cause, &turn, time)?,
        };
        let (mut score, mut string) = self.score_of(score_raw);
        if let Some(s) = printed.score {
            score = Some(s);
            string = None;
        }
        let nodes = printed.nodes.or(turn.nodes);
        // A move found without a search (a book move: no node counted) has no depth.
        let depth = match (printed.depth, turn.nodes) {
            (None, Some(0)) => None,
            _ => self.reported_depth(printed.depth, level),
        };
        control.report(&SearchInfo {
            depth,
            seldepth: 0,
            score,
            nodes,
            time,
            pv: vec![best],
            hashfull: None,
            string,
        });
        let result = SearchResult {
            best: Some(best),
            // The result's score and depth are numbers; the info line above says which the
            // program produced.
            score: score.unwrap_or(0),
            pv: vec![best],
            depth: depth.unwrap_or(0),
            nodes: nodes.unwrap_or(0),
            time: time.max(Duration::from_nanos(1)),
        };
        limits.unrestricted(
            result,
            &self.adaptor.name,
            "the program chooses among all its moves",
        )
    }
}

/// A search opened by [`AdaptorEngine::open_search`], whose turns run a slice at a time.
#[derive(Debug)]
pub struct OpenSearch {
    game: Game,
    limits: Limits,
    level: Option<u32>,
    program_black: bool,
}

/// What a slice of an open search ([`AdaptorEngine::advance`]) did.
#[derive(Debug)]
pub enum SearchSlice {
    /// The program is still being set up, or still computes its move.
    Running {
        /// It computes its move (else a turn of its set-up runs).
        searching: bool,
        /// The cycles of the turn under way.
        cycles: u64,
        /// Its nodes in that turn, when its adaptor counts them.
        nodes: Option<u64>,
        /// Its board read from its RAM as the turn that computes its move began (`None`
        /// before that turn, or when its adaptor file does not say where it keeps its board).
        board_before: Option<Result<ProgramBoard, BoardError>>,
    },
    /// The search is over: what [`Engine::search`] returns.
    Done(SearchResult),
}

impl AdaptorEngine {
    /// Sets the program up for a search of `game` within `limits` as [`Engine::search`] does,
    /// up to the point where its turns run (the program booted when it must start afresh):
    /// [`AdaptorEngine::advance`] runs them a slice at a time. So a host that runs the machine
    /// on its own thread (a page's Web Worker) reads its messages between slices:
    /// `control.stop` set between two slices ends the search with the move the program holds
    /// as best (as `stop` does on the command line), and the host may pace the slices to the
    /// machine's clock. For an engine made with [`AdaptorEngine::with_thread`] `false` only.
    pub fn open_search(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &SearchControl<'_>,
    ) -> Result<OpenSearch, EngineError> {
        if self.threaded {
            return Err(EngineError::Unsupported(
                "a search in slices: the engine's machine runs on a thread of its own".into(),
            ));
        }
        self.check_request(game, limits)?;
        self.last = None;
        self.boards = None;
        let side = game.position().side();
        let level = self.level_for(limits, side);
        let program_black = side != kempelen_engine::piece::WHITE;
        let search = SearchTurn {
            keys: String::new(),
            stop: Arc::clone(&control.stop),
            deadline: self.deadline(limits, side),
            nodes: limits.nodes,
            realtime: false,
            program_black,
        };
        let opened = self
            .actions(game, level, &control.stop)
            .and_then(|actions| {
                let w = self.worker.as_ref().expect("a running program");
                w.open(actions, search)
            });
        if let Err(e) = opened {
            self.drop_program();
            return Err(e);
        }
        Ok(OpenSearch {
            game: game.clone(),
            limits: limits.clone(),
            level,
            program_black,
        })
    }

    /// Runs the open search on for at most `cycles` cycles of its machine (a slice ends
    /// early when a turn ends). The program's progress (the move it holds as best) is
    /// reported to `control` as in [`Engine::search`]; once the program answered, or a limit
    /// or `control.stop` ended its turn, the search's result.
    pub fn advance(
        &mut self,
        open: &OpenSearch,
        cycles: u64,
        control: &SearchControl<'_>,
    ) -> Result<SearchSlice, EngineError> {
        let w = self
            .worker
            .as_ref()
            .ok_or_else(|| EngineError::Backend("no search is open".into()))?;
        let mut progress = |p: Progress| {
            if let Some(info) = self.progress_info(&open.game, open.level, &p) {
                control.report(&info);
            }
        };
        match w.advance(cycles, &mut progress) {
            Ok(Advanced::Running {
                cycles,
                nodes,
                searching,
                board_before,
            }) => Ok(SearchSlice::Running {
                searching,
                cycles,
                nodes,
                board_before: board_before
                    .map(|b| self.adaptor.board_from_bytes(&b, open.program_black)),
            }),
            Ok(Advanced::Done(turn)) => self
                .finish_search(&open.game, &open.limits, control, open.level, turn)
                .map(SearchSlice::Done),
            Err(e) => {
                self.drop_program();
                Err(e)
            }
        }
    }
}

/// What the program printed beside its move.
#[derive(Default)]
struct Printed {
    depth: Option<u32>,
    score: Option<i32>,
    nodes: Option<u64>,
}

impl AdaptorEngine {
    /// The searches the program cannot make: without a legal move, for a colour it does not
    /// play, with a node limit it cannot count.
    fn check_request(&self, game: &Game, limits: &Limits) -> Result<(), EngineError> {
        let a = &self.adaptor;
        let pos = game.position();
        if pos.legal_moves().is_empty() {
            return Err(EngineError::Unsupported(format!(
                "{}: the side to move has no legal move",
                a.name
            )));
        }
        let white = pos.side() == kempelen_engine::piece::WHITE;
        if let Some(side) = a.plays {
            if (side == 'w') != white {
                return Err(EngineError::Unsupported(format!(
                    "{} plays {} only",
                    a.name,
                    if side == 'w' { "White" } else { "Black" }
                )));
            }
        }
        if limits.nodes.is_some() && a.nodes.is_none() {
            return Err(EngineError::Unsupported(format!(
                "go nodes: {} counts no nodes (its adaptor names no node routine)",
                a.name
            )));
        }
        Ok(())
    }

    /// The program set up for `game` (or carried on from the game it knows) and the turn in
    /// which it computes its move, within the time and node limits; its progress is reported
    /// as it searches. If either fails, the program is dropped (set up afresh next time).
    fn search_turn(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &SearchControl<'_>,
        level: Option<u32>,
    ) -> Result<Turn, EngineError> {
        let side = game.position().side();
        let deadline = self.deadline(limits, side);
        let actions = match self.actions(game, level, &control.stop) {
            Ok(x) => x,
            Err(e) => {
                self.drop_program();
                return Err(e);
            }
        };
        let search = SearchTurn {
            keys: String::new(),
            stop: Arc::clone(&control.stop),
            deadline,
            nodes: limits.nodes,
            realtime: self.realtime,
            program_black: side != kempelen_engine::piece::WHITE,
        };
        let w = self.worker.as_ref().expect("a running program");
        let mut progress = |p: Progress| {
            if let Some(info) = self.progress_info(game, level, &p) {
                control.report(&info);
            }
        };
        match run_actions(w, actions, search, &mut progress) {
            Ok(t) => Ok(t),
            Err(e) => {
                self.drop_program();
                Err(e)
            }
        }
    }

    /// The time limit's hard end in cycles of the machine, if the limits have one.
    fn deadline(&self, limits: &Limits, side: u8) -> Option<u64> {
        time::budget(limits, side)
            .hard
            .map(|h| (h.as_secs_f64() * self.adaptor.clock.hz()).ceil().max(1.0) as u64)
    }

    /// The move the program printed at the end of its turn, what it printed beside it, and
    /// its score byte when it keeps it after moving; the game it now knows grows by the move.
    fn replied_move(
        &mut self,
        game: &Game,
        out: &str,
    ) -> Result<(Move, Printed, Option<u8>), EngineError> {
        match self.read_reply(game, out) {
            Ok((best, printed)) => {
                let score = match &self.adaptor.ram.score {
                    Some(s) if s.after_move => {
                        let w = self.worker.as_ref().expect("a running program");
                        w.read(s.at, 1).ok().and_then(|b| b.first().copied())
                    }
                    _ => None,
                };
                let mut known = game.moves().to_vec();
                known.push(best);
                self.known = Some((game.start().to_fen(), known));
                Ok((best, printed, score))
            }
            Err(e) => {
                self.drop_program();
                Err(e)
            }
        }
    }

    /// A turn ended before the program answered: the move it held as best in RAM, if it held
    /// a legal one. The program, in the middle of its search, is set up afresh next time.
    fn held_move(
        &mut self,
        game: &Game,
        limits: &Limits,
        cause: Cause,
        turn: &Turn,
        time: Duration,
    ) -> Result<(Move, Printed, Option<u8>), EngineError> {
        self.drop_program();
        let name = &self.adaptor.name;
        let why = match cause {
            Cause::Stop => "stopped".to_string(),
            Cause::Time => "its time was up".to_string(),
            Cause::Nodes => format!("it reached {} nodes", limits.nodes.unwrap_or(0)),
        };
        let Some(Held { uci, score }) = &turn.held else {
            return Err(EngineError::Backend(format!(
                "{name}: {why} after {:.3} s of emulated time, and it holds no best move yet",
                time.as_secs_f64()
            )));
        };
        let Some(best) = legal(game, uci) else {
            return Err(EngineError::Backend(format!(
                "{name}: {why}; the move it holds as best, `{uci}`, is not legal here"
            )));
        };
        Ok((best, Printed::default(), *score))
    }

    /// The program's move in what it printed in its turn: a legal move of `game`, with the
    /// piece a pawn became read from its board when the reply names none.
    fn read_reply(&self, game: &Game, out: &str) -> Result<(Move, Printed), EngineError> {
        let (text, printed) = reply_text(&self.adaptor, game, out)?;
        let mv = match legal(game, &text) {
            Some(m) => m,
            None => self.promoted(game, &text)?,
        };
        Ok((mv, printed))
    }

    /// A reply `text` that is a pawn's move to the last rank without a piece: the piece the
    /// pawn became, read from the program's board; any other reply that is not legal is an
    /// error.
    fn promoted(&self, game: &Game, text: &str) -> Result<Move, EngineError> {
        let a = &self.adaptor;
        let not_legal = |why: &str| {
            EngineError::Backend(format!(
                "{}: its reply `{text}` is not legal here{why}",
                a.name
            ))
        };
        let pawn_to_last_rank = text.len() == 4
            && game
                .position()
                .legal_moves()
                .iter()
                .any(|m| m.promotion() != 0 && m.to_uci().starts_with(text));
        if !pawn_to_last_rank {
            return Err(not_legal(""));
        }
        let Some(at) = a.ram.board.as_ref().and_then(|r| r.address(&text[2..4])) else {
            return Err(not_legal(
                ": a pawn to the last rank, and the program names no piece (its adaptor has no [ram_board] to read it from)",
            ));
        };
        let w = self.worker.as_ref().expect("a running program");
        let byte = w.read(at, 1)?.first().copied().unwrap_or(0);
        let Some(piece) = a.ram.board.as_ref().and_then(|r| r.piece(byte)) else {
            return Err(not_legal(&format!(
                ": a pawn to the last rank, and its board holds ${byte:02X} there, no piece a pawn becomes"
            )));
        };
        legal(game, &format!("{text}{piece}")).ok_or_else(|| not_legal(""))
    }
}
