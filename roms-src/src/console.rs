//! A port's console front end (`z80/console.asm`, `6502/console.asm`): Kempelen's chess
//! played on a character console the way Microchess and Sargon were, with every part of the
//! game inside the 8-bit CPU (board diagram, move input and legality, the engine's reply,
//! mate, stalemate and draws).
//!
//! This module only builds and hosts it: [`ConsoleRom::assemble`] assembles the port's
//! sources bundled into this crate with Kempelen's assembler, [`ConsoleRom::machine`] loads
//! the ROM into Kempelen's machine (the port's memory map and entry, crate::port), and
//! [`ConsoleSession`] drives the program through its console turn by turn, for tests and
//! scripts: queue a line, run until the program waits for the next one, read what it printed.
//! `kempelen play` attaches the same machine to the terminal instead.

use std::ops::Range;
use std::time::Duration;
use web_time::Instant;

use kempelen_asm::source::MemorySource;
use kempelen_asm::{Options, SymbolTable, assemble};
use kempelen_emulator::{
    ClockProfile, ConfigError, Fault, Machine, MachineBuilder, RunError, StopReason, TimingModel,
};
use thiserror::Error;

use crate::port::{Port, PortError};

/// Cycle budget of one turn of a [`ConsoleSession`] (a search at a high depth needs more).
pub const DEFAULT_TURN_BUDGET: u64 = 20_000_000_000;

/// What went wrong building or running the front end.
#[derive(Debug, Error)]
pub enum ConsoleError {
    /// The port's sources (or its console front end) are not in this tree.
    #[error("{0}")]
    Absent(#[from] PortError),
    /// The port has an engine but no console front end yet.
    #[error("the {0} build has no console front end in this tree (roms-src/{1}/{2} is missing)")]
    NoConsole(&'static str, &'static str, &'static str),
    /// The sources did not assemble (the assembler's report, with file:line:col).
    #[error("assembling {0}:\n{1}")]
    Assemble(&'static str, String),
    /// A symbol the host needs is missing from the assembly.
    #[error("the assembly of {0} has no symbol `{1}`")]
    MissingSymbol(&'static str, &'static str),
    /// The image does not hold the 6502 reset vector.
    #[error("the image of {0} does not hold the reset vector at $FFFC")]
    NoEntry(&'static str),
    /// The machine could not be set up.
    #[error("setting up the machine: {0}")]
    Machine(#[from] ConfigError),
    /// The run faulted (with what the program printed so far).
    #[error("the front end faulted: {error}\noutput so far:\n{output}")]
    Run {
        /// The fault, with the last instructions.
        error: Box<RunError>,
        /// Console output of the turn.
        output: String,
    },
    /// The run stopped some other way than waiting for input or "done".
    #[error("the front end stopped unexpectedly: {stop}\noutput so far:\n{output}")]
    Stopped {
        /// How it stopped.
        stop: StopReason,
        /// Console output of the turn.
        output: String,
    },
    /// A line was sent after the program had ended (`q`), or the input ended twice.
    #[error("the front end has ended, or its input has; it reads no more input")]
    Ended,
}

/// The assembled front end.
#[derive(Debug, Clone)]
pub struct ConsoleRom {
    /// The port it was built for.
    pub port: &'static Port,
    /// The ROM image, loaded at [`ConsoleRom::origin`].
    pub image: Vec<u8>,
    /// Load address of the image.
    pub origin: u16,
    /// Where execution starts.
    pub entry: u16,
    /// The assembler's symbols.
    pub symbols: SymbolTable,
    /// Where the front end's own code and data lie (`con_begin..con_end`); everything from
    /// the origin to `con_begin` is the engine of `engine.asm` and its tables.
    pub front_end: Range<u16>,
}

impl ConsoleRom {
    /// Assembles the port's bundled sources with Kempelen's assembler.
    pub fn assemble(port: &'static Port) -> Result<ConsoleRom, ConsoleError> {
        port.require()?;
        if !port.has_console() {
            return Err(ConsoleError::NoConsole(
                port.name,
                port.id,
                port.console_main,
            ));
        }
        let main = port.console_main;
        let mut source = MemorySource::new();
        for (name, text) in port.sources() {
            source.add(name, text.as_bytes());
        }
        let out = assemble(main, &source, &Options::new(port.cpu));
        if !out.is_ok() {
            return Err(ConsoleError::Assemble(main, out.report()));
        }
        let symbol = |name: &'static str| {
            out.symbols
                .get(name)
                .ok_or(ConsoleError::MissingSymbol(main, name))
        };
        let front_end = symbol("con_begin")?..symbol("con_end")?;
        let origin = out.image.origin;
        let entry = port
            .entry_of(origin, &out.image.bytes)
            .ok_or(ConsoleError::NoEntry(main))?;
        Ok(ConsoleRom {
            port,
            image: out.image.bytes.clone(),
            origin,
            entry,
            symbols: out.symbols.clone(),
            front_end,
        })
    }

    /// Bytes of the engine part: reset code, tables and the engine's code (must stay within
    /// 8 KB). The engine comes first (origin to `con_begin`), or, when the source marks it
    /// with `engine_part` (the 6502's, whose tables are fixed at `$E100`), it follows the front
    /// end and runs from `engine_part` to the end of the image.
    pub fn engine_bytes(&self) -> usize {
        match self.symbols.get("engine_part") {
            Some(start) => usize::from(self.origin) + self.image.len() - usize::from(start),
            None => usize::from(self.front_end.start - self.origin),
        }
    }

    /// Bytes of the front end on top of the engine.
    pub fn front_end_bytes(&self) -> usize {
        usize::from(self.front_end.end - self.front_end.start)
    }

    /// A Kempelen machine of the port's CPU and memory map with the ROM loaded, ready to run
    /// from its entry point.
    pub fn machine(&self) -> Result<Machine, ConsoleError> {
        self.machine_timed(None)
    }

    /// [`ConsoleRom::machine`] under a machine's timing model (see
    /// `kempelen_emulator::timing`).
    pub fn machine_timed(
        &self,
        timing: Option<&'static TimingModel>,
    ) -> Result<Machine, ConsoleError> {
        Ok(MachineBuilder::new(self.port.cpu)
            .memory_map(self.port.memory_map())
            .load(self.origin, &self.image)
            .entry(self.entry)
            .symbols(self.symbols.clone())
            .timing(timing)
            .build()?)
    }
}

/// The front end in a machine with a scripted console, driven one line at a time.
pub struct ConsoleSession {
    machine: Machine,
    ended: bool,
    cycles: u64,
    machine_time: Option<Duration>,
    /// Cycle budget of one turn.
    pub turn_budget: u64,
}

impl ConsoleSession {
    /// Starts the program and runs it to its first prompt; returns the session and what the
    /// program printed (banner, board, prompt).
    pub fn start(rom: &ConsoleRom) -> Result<(ConsoleSession, String), ConsoleError> {
        ConsoleSession::start_machine(rom.machine()?)
    }

    /// [`ConsoleSession::start`] for a machine with the program already loaded (a target's
    /// file in its machine personality, crate::target).
    pub fn start_machine(mut machine: Machine) -> Result<(ConsoleSession, String), ConsoleError> {
        machine.console_mut().set_stop_on_empty_input(true);
        let mut session = ConsoleSession {
            machine,
            ended: false,
            cycles: 0,
            machine_time: None,
            turn_budget: DEFAULT_TURN_BUDGET,
        };
        let out = session.run()?;
        Ok((session, out))
    }

    /// Types `line` and a newline, runs until the program waits for more input (or ends) and
    /// returns what it printed.
    pub fn send(&mut self, line: &str) -> Result<String, ConsoleError> {
        if self.ended {
            return Err(ConsoleError::Ended);
        }
        let console = self.machine.console_mut();
        console.push_input(line.as_bytes());
        console.push_input(b"\n");
        self.run()
    }

    /// Whether the program has ended (the host call "done").
    pub fn ended(&self) -> bool {
        self.ended
    }

    /// CPU cycles of all turns so far.
    pub fn cycles(&self) -> u64 {
        self.cycles
    }

    /// The machine's time of all turns so far under the machine's timing model (display DMA,
    /// contention, wait states, interrupts; docs/TIMING.md), if it runs one.
    pub fn machine_time(&self) -> Option<Duration> {
        self.machine_time
    }

    /// The machine (for reading RAM or the RAM profile).
    pub fn machine(&self) -> &Machine {
        &self.machine
    }

    /// The machine, to change its RAM between two turns (tests of limits that a game would
    /// take too long to reach).
    pub fn machine_mut(&mut self) -> &mut Machine {
        &mut self.machine
    }

    fn run(&mut self) -> Result<String, ConsoleError> {
        let result = self.machine.run(self.turn_budget);
        let output =
            String::from_utf8_lossy(&self.machine.console_mut().take_output()).into_owned();
        match result {
            Ok(stats) => {
                self.cycles += stats.cycles;
                if let Some(t) = stats.machine_time {
                    *self.machine_time.get_or_insert(Duration::ZERO) += t.duration();
                }
                match stats.stop {
                    StopReason::InputWait { .. } => Ok(output),
                    StopReason::HostDone => {
                        self.ended = true;
                        Ok(output)
                    }
                    stop => Err(ConsoleError::Stopped { stop, output }),
                }
            }
            Err(error) => Err(ConsoleError::Run {
                error: Box::new(error),
                output,
            }),
        }
    }
}

/// A clock for [`Pacer`]: the host's real clock in `kempelen play`, a simulated one in tests
/// (no test may depend on the host's speed).
pub trait PaceClock {
    /// Time since an arbitrary origin.
    fn now(&self) -> Duration;
    /// Waits `d`.
    fn sleep(&mut self, d: Duration);
}

/// The host's clock.
pub struct RealClock(Instant);

impl Default for RealClock {
    fn default() -> Self {
        RealClock(Instant::now())
    }
}

impl PaceClock for RealClock {
    fn now(&self) -> Duration {
        self.0.elapsed()
    }
    fn sleep(&mut self, d: Duration) {
        std::thread::sleep(d);
    }
}

/// Holds an emulation back to a machine's real speed (`play --realtime`), counting only the
/// time the program runs: the time a person takes to type is not owed to the program, so an
/// engine that thinks 15 s on the machine thinks 15 s however long the move took to type.
pub struct Pacer<C> {
    clock: C,
    hz: f64,
    /// Host time and program cycles at the last resumption.
    since: Duration,
    base: u64,
    /// Told how long the program has been silent (thinking), see [`Pacer::on_thinking`].
    thinking: Option<ThinkingReport>,
}

/// A silent stretch of the program while it runs at the machine's speed: an engine thinking.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Thinking {
    /// The machine's time since the program was last given input (the move it answers).
    pub time: Duration,
    /// The engine's live node counter (`R_NODES`), when the ROM has one.
    pub nodes: Option<u32>,
}

/// Where [`Thinking`] goes, and the state of the reports.
struct ThinkingReport {
    /// Called with `Some` about once per second of the machine's time while the program is
    /// silent, and with `None` before it prints again (to take the last report back).
    report: Box<dyn FnMut(Option<Thinking>)>,
    /// The address of the node counter.
    nodes_at: Option<u16>,
    /// Cycles when the program was last given input.
    quiet_since: u64,
    /// Cycles of the last report or of the program's last output, and whether a report is
    /// shown.
    last: u64,
    shown: bool,
}

impl<C: PaceClock> Pacer<C> {
    /// A pacer at `clock` (cycles per second of `machine`), starting now at cycle 0.
    pub fn new(clock: C, machine: &ClockProfile) -> Pacer<C> {
        let since = clock.now();
        Pacer {
            clock,
            hz: machine.hz(),
            since,
            base: 0,
            thinking: None,
        }
    }

    /// Reports the program's silent stretches (an engine thinking for minutes at a historical
    /// machine's speed) to `report`: `Some(Thinking)` about once per second of the machine's
    /// time, with the node counter at `nodes_at` (the ROM's `R_NODES`), and `None` before the
    /// program prints again.
    pub fn on_thinking(
        mut self,
        nodes_at: Option<u16>,
        report: impl FnMut(Option<Thinking>) + 'static,
    ) -> Pacer<C> {
        self.thinking = Some(ThinkingReport {
            report: Box::new(report),
            nodes_at,
            quiet_since: 0,
            last: 0,
            shown: false,
        });
        self
    }

    /// The program printed at `cycles`: a report shown is taken back.
    fn spoke(&mut self, cycles: u64) {
        if let Some(t) = self.thinking.as_mut() {
            if t.shown {
                (t.report)(None);
                t.shown = false;
            }
            t.last = cycles;
        }
    }

    /// The program was given input at `cycles`: its thinking time counts from here.
    fn heard(&mut self, cycles: u64) {
        self.spoke(cycles);
        if let Some(t) = self.thinking.as_mut() {
            t.quiet_since = cycles;
        }
    }

    /// The program ran silently to `cycles`: a report when a second of the machine's time
    /// has passed since the last one.
    fn silent(&mut self, machine: &Machine, cycles: u64) {
        let second = (self.hz as u64).max(1);
        if let Some(t) = self.thinking.as_mut() {
            if cycles.saturating_sub(t.last) >= second {
                let nodes = t.nodes_at.map(|a| {
                    u32::from_le_bytes([
                        machine.read_byte(a),
                        machine.read_byte(a.wrapping_add(1)),
                        machine.read_byte(a.wrapping_add(2)),
                        machine.read_byte(a.wrapping_add(3)),
                    ])
                });
                let time =
                    Duration::from_secs_f64(cycles.saturating_sub(t.quiet_since) as f64 / self.hz);
                (t.report)(Some(Thinking { time, nodes }));
                t.last = cycles;
                t.shown = true;
            }
        }
    }

    /// `d` of emulated time in cycles of the machine's clock.
    pub fn cycles_of(&self, d: Duration) -> u64 {
        (d.as_secs_f64() * self.hz).round() as u64
    }

    /// Cycles of 10 ms of the machine's time: how long the program runs between two checks.
    pub fn slice(&self) -> u64 {
        ((self.hz / 100.0) as u64).max(1)
    }

    /// After the program has run to `cycles` (counted from the start): waits until the host
    /// time since the last resumption matches the program's time since then.
    pub fn pace(&mut self, cycles: u64) {
        let owed = Duration::from_secs_f64(cycles.saturating_sub(self.base) as f64 / self.hz);
        let due = self.since + owed;
        let now = self.clock.now();
        if due > now {
            self.clock.sleep(due - now);
        }
    }

    /// The program waited for input (no cycles ran) and goes on at `cycles`: the host time
    /// of the wait is not the program's.
    pub fn resume(&mut self, cycles: u64) {
        self.since = self.clock.now();
        self.base = cycles;
    }

    /// The clock (for tests that inspect a simulated one).
    pub fn clock(&self) -> &C {
        &self.clock
    }
}

/// Runs a console program (`kempelen play`) until it ends: its output goes to `output` as it
/// comes, and whenever it waits for input, `input` is asked for the next line (`None`: input
/// has ended, and the program gets Ctrl-D, which quits the front end). With a `pacer` the
/// program runs at the machine's speed, the waits for input excluded. Returns the program's
/// cycles; fails past `max_cycles` or when the program stops any other way.
pub fn run_console<C: PaceClock>(
    machine: &mut Machine,
    input: &mut dyn FnMut() -> Option<Vec<u8>>,
    output: &mut dyn FnMut(&[u8]),
    mut pacer: Option<&mut Pacer<C>>,
    max_cycles: u64,
) -> Result<u64, ConsoleError> {
    machine.console_mut().set_stop_on_empty_input(true);
    let slice = pacer.as_ref().map_or(max_cycles, |p| p.slice());
    let mut total = 0u64;
    let mut ended = false;
    loop {
        let budget = slice.min(max_cycles.saturating_sub(total)).max(1);
        let result = machine.run(budget);
        let printed = machine.console_mut().take_output();
        if !printed.is_empty() {
            // Before the program's words, any report of its thinking is taken back.
            if let Some(p) = pacer.as_deref_mut() {
                let cycles = match (&result, machine.timing()) {
                    (_, Some(_)) => p.cycles_of(machine.elapsed()),
                    (Ok(stats), None) => total + stats.cycles,
                    (Err(e), None) => total + e.cycles,
                };
                p.spoke(cycles);
            }
        }
        output(&printed);
        let stop = match result {
            Ok(stats) => {
                total += stats.cycles;
                Some(stats.stop)
            }
            Err(e)
                if matches!(e.fault, Fault::BudgetExceeded { .. })
                    && total + e.cycles < max_cycles =>
            {
                total += e.cycles;
                None
            }
            Err(error) => {
                return Err(ConsoleError::Run {
                    error: Box::new(error),
                    output: String::new(),
                });
            }
        };
        // Under a timing model the machine's time runs ahead of its cycles: pace to it.
        let progress = |m: &Machine, p: &Pacer<C>| match m.timing() {
            Some(_) => p.cycles_of(m.elapsed()),
            None => total,
        };
        if let Some(p) = pacer.as_deref_mut() {
            let at = progress(machine, p);
            p.pace(at);
            if stop.is_none() {
                p.silent(machine, at);
            }
        }
        match stop {
            None => {}
            Some(StopReason::HostDone) => return Ok(total),
            Some(StopReason::InputWait { .. }) => {
                match input() {
                    Some(line) => machine.console_mut().push_input(&line),
                    None if !ended => {
                        ended = true;
                        machine.console_mut().push_input(&[0x04]);
                    }
                    None => return Err(ConsoleError::Ended),
                }
                if let Some(p) = pacer.as_deref_mut() {
                    let at = progress(machine, p);
                    p.resume(at);
                    p.heard(at);
                }
            }
            Some(stop) => {
                return Err(ConsoleError::Stopped {
                    stop,
                    output: String::new(),
                });
            }
        }
    }
}
