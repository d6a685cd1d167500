//! Searches as the page's worker runs them: a request (position, moves, engine, machine,
//! limits, speed) checked with the command line's rules, then either
//! - an 8-bit build's search in the emulator, a [`PortJob`] the worker advances a slice at a
//!   time ([`kempelen_roms::SlicedSearch`]) so that it reads its messages between slices:
//!   stop works at any moment, and at the machine's real speed the slices are paced to the
//!   emulated clock; or
//! - a native profile's search, run in one piece by [`run_native`], reporting each iteration
//!   as it completes (the worker posts them while it computes; to stop it the page ends the
//!   worker, and then no move is claimed).
//!
//! What the page shows comes from here as [`Event`]s, serialised to JSON.

use std::time::Duration;

use kempelen_emulator::{ClockProfile, CoreKind, StopReason, Timing};
use kempelen_engine::time::budget;
use kempelen_engine::{
    Engine, Game, Limits, Move, NativeEngine, Position, Profile, SearchControl, SearchInfo,
    SearchResult, mate_in,
};
use kempelen_roms::{Port, PortEngine, SearchOutcome, Slice, SlicedSearch};
use serde::{Deserialize, Serialize};
use web_time::Instant;

use crate::WebError;
use crate::choice::EngineChoice;
use crate::link::Speed;
use crate::session::Session;

/// The transposition table of the `full` profile in the page (the command line's default, 64
/// MB, is more than a page should take).
pub const PAGE_HASH_MB: usize = 16;

/// Cycles of one slice when nothing else bounds it: small enough that the worker looks at its
/// messages many times a second at any speed the browser runs the emulator.
pub const SLICE_CYCLES: u64 = 1 << 16;

/// A search as the page asks for it (JSON from the worker's message).
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SearchSpec {
    /// Start position (default: the standard one).
    #[serde(default)]
    pub fen: Option<String>,
    /// Moves in coordinates from it (the game: they give the repetition history).
    #[serde(default)]
    pub moves: Vec<String>,
    /// `z80`, `6502` or a profile.
    pub engine: String,
    /// The 8-bit build's machine (default: its first).
    #[serde(default)]
    pub machine: Option<String>,
    /// Depth in plies.
    #[serde(default)]
    pub depth: Option<u32>,
    /// Node limit.
    #[serde(default)]
    pub nodes: Option<u64>,
    /// Time for the move in milliseconds (an 8-bit build: emulated time).
    #[serde(default)]
    pub movetime_ms: Option<u64>,
    /// An 8-bit build's speed (default: as fast as the browser runs it).
    #[serde(default)]
    pub speed: Option<Speed>,
    /// For the machine view: every register visible (the Z80 on the `rustzx` core, same
    /// cycles) and the cycle profiler on (both slower).
    #[serde(default)]
    pub debug: bool,
}

/// A request that passed its checks.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The game whose current position is searched.
    pub game: Game,
    /// The engine.
    pub engine: EngineChoice,
    /// Its machine (8-bit builds).
    pub clock: Option<&'static ClockProfile>,
    /// The limits.
    pub limits: Limits,
    /// Paced to the machine's clock.
    pub realtime: bool,
    /// For the machine view ([`SearchSpec::debug`]).
    pub debug: bool,
}

impl SearchSpec {
    /// Checks the request: the position and moves, the engine and its machine, at least one
    /// limit within what the engine takes.
    pub fn prepare(&self) -> Result<Prepared, WebError> {
        let fen = self.fen.as_deref().unwrap_or(kempelen_engine::START_FEN);
        let game = Session::from_moves(fen, &self.moves)?.game().clone();
        let engine = EngineChoice::parse(&self.engine)?;
        let clock = engine.machine(self.machine.as_deref())?;
        if self.depth.is_none() && self.nodes.is_none() && self.movetime_ms.is_none() {
            return Err(WebError::Limit(
                "give a limit: a depth, a node count or a time".into(),
            ));
        }
        if let Some(d) = self.depth {
            engine.check_depth(d)?;
        }
        if let (EngineChoice::Port(p), Some(n)) = (engine, self.nodes) {
            if n > u64::from(u32::MAX) {
                return Err(WebError::Limit(format!(
                    "{n} nodes: the {} engine's node limit is at most {}",
                    p.name,
                    u32::MAX
                )));
            }
        }
        let realtime = self.speed == Some(Speed::Real);
        if realtime && clock.is_none() {
            return Err(WebError::Limit(
                "speed=real: only an 8-bit build runs at a machine's speed".into(),
            ));
        }
        Ok(Prepared {
            game,
            engine,
            clock,
            limits: Limits {
                depth: self.depth,
                nodes: self.nodes,
                movetime: self.movetime_ms.map(Duration::from_millis),
                ..Limits::default()
            },
            realtime,
            debug: self.debug,
        })
    }
}

/// A completed iteration (or, for the `full` profile, a new best move), as the page shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InfoView {
    /// Depth of the iteration.
    pub depth: Option<u32>,
    /// Score in centipawns, side to move's view.
    pub score: Option<i32>,
    /// Moves to mate, when the score is a mate score.
    pub mate: Option<i32>,
    /// Nodes so far.
    pub nodes: Option<u64>,
    /// Principal variation in coordinates.
    pub pv: Vec<String>,
    /// The same in SAN.
    pub pv_san: Vec<String>,
    /// Time so far in ms (emulated time for an 8-bit build on a machine).
    pub time_ms: f64,
    /// Cycles from the start of the search (8-bit builds).
    pub cycles: Option<u64>,
    /// Nodes per second on the engine's clock (the machine's for an 8-bit build).
    pub nps: Option<f64>,
}

/// How far an 8-bit search has come, between its iterations.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProgressView {
    /// Cycles so far.
    pub cycles: u64,
    /// Emulated time so far in ms.
    pub emulated_ms: f64,
    /// Host time the emulation took so far in ms (waits for the machine's clock left out).
    pub host_ms: f64,
    /// The engine's live node counter.
    pub nodes: u64,
    /// The iteration being searched.
    pub iteration: u32,
}

/// The search's answer, as the page shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ResultView {
    /// The engine's id.
    pub engine: &'static str,
    /// The move it chose, in coordinates; `None` when it chose none (no legal move, or
    /// stopped before it had one).
    pub best: Option<String>,
    /// The same in SAN.
    pub best_san: Option<String>,
    /// Score in centipawns, side to move's view (none when no iteration completed).
    pub score: Option<i32>,
    /// Moves to mate.
    pub mate: Option<i32>,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes.
    pub nodes: u64,
    /// Principal variation in coordinates.
    pub pv: Vec<String>,
    /// The same in SAN.
    pub pv_san: Vec<String>,
    /// Time in ms on the engine's clock (the machine's emulated time for an 8-bit build).
    pub time_ms: f64,
    /// Nodes per second on that clock.
    pub nps: f64,
    /// The historical profile's book move, played without a search.
    pub book: bool,
    /// The search was stopped before its limits.
    pub stopped: bool,
    /// What the page says about the result, if anything (why there is no move).
    pub note: Option<String>,
    /// The 8-bit build's figures.
    pub machine: Option<MachineFigures>,
}

/// What an 8-bit build's search cost on its machine and in the browser.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MachineFigures {
    /// The machine's id.
    pub id: &'static str,
    /// Its CPU clock in MHz.
    pub mhz: f64,
    /// Its timing model (`cpu`: the clock alone).
    pub timing: String,
    /// Cycles from the start of the search.
    pub cycles: u64,
    /// Emulated time in ms.
    pub emulated_ms: f64,
    /// The host time the emulation took in ms (waits for the machine's clock left out).
    pub host_ms: f64,
    /// Emulated MHz: cycles per microsecond of host time.
    pub emulated_mhz: f64,
}

/// What the worker posts to the page.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Event {
    /// A completed iteration.
    Info(InfoView),
    /// How far an 8-bit search has come.
    Progress(ProgressView),
    /// The answer.
    Done(ResultView),
}

/// The principal variation in SAN from `pos` (as far as its moves are legal).
pub fn pv_san(pos: &Position, pv: &[Move]) -> Vec<String> {
    let mut p = pos.clone();
    let mut out = Vec::with_capacity(pv.len());
    for &m in pv {
        if !p.legal_moves().contains(m) {
            break;
        }
        out.push(p.san(m));
        p.play(m);
    }
    out
}

fn per_second(count: u64, time: Duration) -> f64 {
    let s = time.as_secs_f64();
    if s > 0.0 { count as f64 / s } else { 0.0 }
}

/// A duration in milliseconds, as the page shows times.
pub fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// An iteration as the page shows it.
pub fn info_view(pos: &Position, info: &SearchInfo, cycles: Option<u64>) -> InfoView {
    InfoView {
        depth: info.depth,
        score: info.score,
        mate: info.score.and_then(mate_in),
        nodes: info.nodes,
        pv: info.pv.iter().map(|m| m.to_uci()).collect(),
        pv_san: pv_san(pos, &info.pv),
        time_ms: millis(info.time),
        cycles,
        nps: info.nodes.map(|n| per_second(n, info.time)),
    }
}

fn result_view(engine: EngineChoice, pos: &Position, r: &SearchResult) -> ResultView {
    let book = r.best.is_some() && r.nodes == 0;
    ResultView {
        engine: engine.id(),
        best: r.best.map(|m| m.to_uci()),
        best_san: r.best.map(|m| pos.san(m)),
        score: Some(r.score),
        mate: mate_in(r.score),
        depth: r.depth,
        nodes: r.nodes,
        pv: r.pv.iter().map(|m| m.to_uci()).collect(),
        pv_san: pv_san(pos, &r.pv),
        time_ms: millis(r.time),
        nps: per_second(r.nodes, r.time),
        book,
        stopped: false,
        note: r
            .best
            .is_none()
            .then(|| "no legal move in this position".to_string()),
        machine: None,
    }
}

/// Runs a native profile's search in one piece; each iteration goes to `sink` as it
/// completes (an [`Event::Info`]), and the answer is returned.
pub fn run_native(
    prepared: &Prepared,
    sink: &(dyn Fn(&Event) + Send + Sync),
) -> Result<ResultView, WebError> {
    let EngineChoice::Native(profile) = prepared.engine else {
        return Err(WebError::Engine(format!(
            "{} is an 8-bit build: it runs sliced (PortJob)",
            prepared.engine.id()
        )));
    };
    let mut engine = NativeEngine::new(profile);
    if profile == Profile::Full {
        engine.set_hash_mb(PAGE_HASH_MB);
    }
    let pos = prepared.game.position().clone();
    let control = SearchControl::with_info(|info| sink(&Event::Info(info_view(&pos, info, None))));
    let r = engine
        .search(&prepared.game, &prepared.limits, &control)
        .map_err(|e| WebError::Search(e.to_string()))?;
    Ok(result_view(prepared.engine, &pos, &r))
}

/// Where the pacing to the machine's clock counts from: the host's instant and the emulated
/// time then.
#[derive(Debug, Clone, Copy)]
struct Pace {
    wall: Instant,
    emulated: Duration,
}

/// An 8-bit build's search that the worker advances a slice at a time.
#[derive(Debug)]
pub struct PortJob {
    search: SlicedSearch,
    port: &'static Port,
    clock: &'static ClockProfile,
    realtime: bool,
    pace: Pace,
    /// Host time spent emulating (waits left out).
    busy: Duration,
    /// Stopped before iteration 1 completed: the search is abandoned without a move.
    abandoned: bool,
    done: bool,
    /// The engine's outcome once it made its "done" host call.
    outcome: Option<Box<SearchOutcome>>,
}

/// What one call of [`PortJob::advance`] did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Advance {
    /// What happened, in order (a progress report last unless the search ended).
    pub events: Vec<Event>,
    /// The search is over (its last event is [`Event::Done`]).
    pub done: bool,
    /// At the machine's speed: how long the page waits before the next call, because the
    /// emulated clock is ahead of the host's (ms).
    pub wait_ms: f64,
}

impl PortJob {
    /// Starts the search of a prepared request by an 8-bit build.
    pub fn start(prepared: &Prepared) -> Result<PortJob, WebError> {
        let EngineChoice::Port(port) = prepared.engine else {
            return Err(WebError::Engine(format!(
                "{} is a native profile: it runs in one piece (run_native)",
                prepared.engine.id()
            )));
        };
        let clock = prepared.clock.unwrap_or_else(|| port.default_machine());
        let mut engine = PortEngine::shared(port)
            .map_err(|e| WebError::Engine(e.to_string()))?
            .clone();
        engine
            .set_machine(clock, &Timing::Machine)
            .map_err(|e| WebError::Machine(e.to_string()))?;
        if prepared.debug && port.cpu == kempelen_emulator::Cpu::Z80 {
            engine.core = CoreKind::RustzxZ80;
        }
        let game = &prepared.game;
        let pos = game.position();
        let nodes = prepared.limits.nodes.map(|n| n as u32);
        let depth = prepared.limits.depth.unwrap_or(32);
        let mut search = engine
            .start_search(
                pos,
                &game.reference_history(),
                depth,
                nodes,
                budget(&prepared.limits, pos.side()),
                Instant::now(),
            )
            .map_err(|e| WebError::Search(e.to_string()))?;
        if prepared.debug {
            search.machine_mut().enable_profiler();
        }
        Ok(PortJob {
            search,
            port,
            clock,
            realtime: prepared.realtime,
            pace: Pace {
                wall: Instant::now(),
                emulated: Duration::ZERO,
            },
            busy: Duration::ZERO,
            abandoned: false,
            done: false,
            outcome: None,
        })
    }

    /// Runs slices for at most `max_host_ms` of host time, fewer when an iteration completes,
    /// the search ends, or (at the machine's speed) the emulated clock gets ahead of the
    /// host's.
    pub fn advance(&mut self, max_host_ms: f64) -> Result<Advance, WebError> {
        let mut events = Vec::new();
        if self.done {
            return Ok(Advance {
                events,
                done: true,
                wait_ms: 0.0,
            });
        }
        let started = Instant::now();
        let limit = Duration::from_secs_f64(max_host_ms.max(0.0) / 1000.0);
        let mut wait_ms = 0.0;
        loop {
            if self.abandoned {
                events.push(Event::Done(self.abandoned_result()));
                self.done = true;
                break;
            }
            let want = match self.paced_cycles() {
                Ok(c) => c,
                Err(ahead) => {
                    wait_ms = millis(ahead);
                    break;
                }
            };
            let t = Instant::now();
            let slice = self.search.step(want);
            self.busy += t.elapsed();
            let slice = slice.map_err(|e| WebError::Search(e.to_string()))?;
            if !matches!(slice, Slice::Running) {
                self.take(slice, &mut events);
                break;
            }
            if started.elapsed() >= limit {
                break;
            }
        }
        if !self.done {
            events.push(Event::Progress(self.progress()));
        }
        Ok(Advance {
            events,
            done: self.done,
            wait_ms,
        })
    }

    /// What a slice that was not [`Slice::Running`] means for the page: an iteration's event,
    /// or the result (the search is then over).
    fn take(&mut self, slice: Slice, events: &mut Vec<Event>) {
        match slice {
            Slice::Running => {}
            Slice::Iteration { info, cycles } => {
                let pos = self.search.position();
                events.push(Event::Info(info_view(pos, &info, Some(cycles))));
            }
            Slice::Done(out) => {
                if let Some(info) = self.search.unreported_iteration() {
                    let pos = self.search.position();
                    events.push(Event::Info(info_view(pos, &info, Some(out.cycles))));
                }
                events.push(Event::Done(self.result(&out.result)));
                self.outcome = Some(out);
                self.done = true;
            }
        }
    }

    /// A stop the machine met while the debugger ran it (the engine's host call "iteration
    /// complete" or "done"): its events, as a slice that met it would give them.
    pub fn observe(&mut self, stop: StopReason) -> Result<Vec<Event>, WebError> {
        let mut events = Vec::new();
        if self.done {
            return Ok(events);
        }
        let slice = self
            .search
            .observe(stop)
            .map_err(|e| WebError::Search(e.to_string()))?;
        self.take(slice, &mut events);
        Ok(events)
    }

    /// Host time spent in the machine outside [`PortJob::advance`] (a debugger's run).
    pub fn add_busy(&mut self, time: Duration) {
        self.busy += time;
    }

    /// The cycles the next slice may run: [`SLICE_CYCLES`], or at the machine's speed as many
    /// as bring the emulated clock up to the host's; `Err(ahead)` when the emulated clock is
    /// ahead by `ahead`.
    fn paced_cycles(&self) -> Result<u64, Duration> {
        if !self.realtime {
            return Ok(SLICE_CYCLES);
        }
        let allowed = self.pace.emulated + self.pace.wall.elapsed();
        let now = self.search.elapsed();
        if now >= allowed {
            return Err(now - allowed);
        }
        let cycles = self.search.cycles();
        let rate = if cycles > 0 && now > Duration::ZERO {
            cycles as f64 / now.as_secs_f64()
        } else {
            self.clock.hz()
        };
        let gap = (allowed - now).as_secs_f64();
        Ok(SLICE_CYCLES.min(((gap * rate).ceil() as u64).max(1)))
    }

    /// Asks the engine to stop: after its first iteration it ends at its next node with its
    /// last completed iteration; before that the search is abandoned and no move is claimed.
    pub fn stop(&mut self) -> Result<(), WebError> {
        if self.search.completed_depth() == 0 {
            self.abandoned = true;
            return Ok(());
        }
        self.search
            .stop()
            .map_err(|e| WebError::Search(e.to_string()))
    }

    /// After a pause (the machine view's): the machine's speed is counted again from now.
    pub fn resume(&mut self) {
        self.pace = Pace {
            wall: Instant::now(),
            emulated: self.search.elapsed(),
        };
    }

    /// The search, to look at its machine.
    pub fn search(&self) -> &SlicedSearch {
        &self.search
    }

    /// The search, to step its machine (a debugger's step).
    pub fn search_mut(&mut self) -> &mut SlicedSearch {
        &mut self.search
    }

    /// The engine's outcome (cycles and RAM besides the result), once it ended with its
    /// "done" host call; `None` before, and for a search abandoned without a move.
    pub fn outcome(&self) -> Option<&SearchOutcome> {
        self.outcome.as_deref()
    }

    /// The machine's id.
    pub fn machine_id(&self) -> &'static str {
        self.clock.id
    }

    /// Whether the search is over.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// How far the search has come.
    pub fn progress(&self) -> ProgressView {
        let (nodes, iteration) = self.search.live_counters();
        ProgressView {
            cycles: self.search.cycles(),
            emulated_ms: millis(self.search.elapsed()),
            host_ms: millis(self.busy),
            nodes,
            iteration,
        }
    }

    fn figures(&self) -> MachineFigures {
        let cycles = self.search.cycles();
        MachineFigures {
            id: self.clock.id,
            mhz: self.clock.mhz,
            timing: self
                .search
                .engine()
                .timing
                .map_or("cpu".into(), |m| m.full_id()),
            cycles,
            emulated_ms: millis(self.search.elapsed()),
            host_ms: millis(self.busy),
            emulated_mhz: per_second(cycles, self.busy) / 1e6,
        }
    }

    fn result(&self, r: &SearchResult) -> ResultView {
        let mut v = result_view(EngineChoice::Port(self.port), self.search.position(), r);
        v.stopped = self.search.is_stopping();
        v.machine = Some(self.figures());
        v
    }

    fn abandoned_result(&self) -> ResultView {
        let (nodes, _) = self.search.live_counters();
        let time = self.search.elapsed();
        ResultView {
            engine: self.port.id,
            best: None,
            best_san: None,
            score: None,
            mate: None,
            depth: 0,
            nodes,
            pv: Vec::new(),
            pv_san: Vec::new(),
            time_ms: millis(time),
            nps: per_second(nodes, time),
            book: false,
            stopped: true,
            note: Some(
                "stopped before its first iteration completed: the engine chose no move".into(),
            ),
            machine: Some(self.figures()),
        }
    }
}
