//! The port engine: one 8-bit build of the reference algorithm, described by a [`Port`]
//! (crate::port): assemble its `engine.asm`, load it, write a command and a position into
//! the protocol block (docs/PROTOCOL.md), run the CPU until the engine's "done" host call,
//! read the result back. Every address comes from the assembler's symbol table, so the same
//! code drives the Z80 and the 6502 builds. [`PortEngine`] implements the native engine's
//! [`Engine`] trait, so `perft`, `search`, `compare`, `bench` and `uci` run it like the
//! native engine.
//!
//! The program runs in kempelen-emulator's machine with the CPU's default memory map
//! (docs/MACHINE.md), which also measures it: exact cycles, the RAM profile and, on request,
//! cycles per routine.

use kempelen_asm::isa::{self, SourceMap};
use kempelen_asm::source::{MemorySource, SourceProvider};
use kempelen_asm::{Options, assemble};
use std::sync::Arc;
use std::time::Duration;

use kempelen_emulator::timing::TimingError;
use kempelen_emulator::{
    ClockProfile, CoreKind, Machine, MachineBuilder, ProfileReport, RamProfile, SymbolTable,
    Timing, TimingModel,
};
use kempelen_engine::engine::{
    Engine, EngineClock, EngineError, EngineOption, OptionKind, SearchControl, SearchInfo,
    SearchRequest, SearchResult,
};
use kempelen_engine::{Move, Position, time};
use thiserror::Error;

use crate::layout::Layout;
use crate::port::{Port, PortError};
use crate::setup::Setup;

pub mod sliced;

use sliced::Slice;

/// What went wrong running a port engine.
#[derive(Debug, Error)]
pub enum PortEngineError {
    #[error("{0}")]
    Absent(#[from] PortError),
    #[error("assembling {file}: {message}")]
    Assemble { file: String, message: String },
    #[error("the symbol table has no `{0}`: engine sources and host glue disagree")]
    MissingSymbol(&'static str),
    #[error("the engine stopped with status {code} ({})", status_name(*code))]
    Status { code: u8 },
    #[error("the machine stopped: {0}")]
    Run(Box<kempelen_emulator::RunError>),
    #[error("the machine could not be set up: {0}")]
    Config(#[from] kempelen_emulator::ConfigError),
    #[error("the program ended without the \"done\" host call: {0}")]
    NotDone(kempelen_emulator::StopReason),
    #[error("the engine did not finish within {0} cycles")]
    CycleBudget(u64),
    #[error("history has {0} keys; the engine takes at most {1}")]
    HistoryTooLong(usize, usize),
    #[error("search depth {0} is outside 1..=32")]
    Depth(u32),
    #[error("the engine returned move {from:02x}{to:02x}, which is not legal in {fen}")]
    IllegalMove { from: u8, to: u8, fen: String },
}

/// The name of an engine status code (ram.inc, docs/PROTOCOL.md).
pub fn status_name(code: u8) -> &'static str {
    match code {
        0 => "ok",
        1 => "bad command",
        2 => "bad position",
        3 => "history overflow",
        5 => "search stack overflow",
        6 => "counter overflow",
        _ => "unknown status",
    }
}

/// Result of a perft run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerftOutcome {
    /// Leaves of the legal move tree.
    pub count: u64,
    /// CPU cycles (Z80 T-states, 6502 cycles) the run took.
    pub cycles: u64,
}

/// Result of a search run: the engine's answer plus what it cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchOutcome {
    /// Best move, score, principal variation, completed depth, nodes (`time` is the
    /// emulated time at [`PortEngine::clock`], or the host's time without a clock).
    pub result: SearchResult,
    /// CPU cycles from reset to the "done" host call.
    pub cycles: u64,
    /// The same span in ticks of the engine's timing model, when it has one.
    pub machine_ticks: Option<u64>,
    /// RAM the engine used (docs/MACHINE.md: distinct bytes the CPU wrote outside the stack
    /// region plus the deepest stack); the host's input (position, history) comes on top.
    pub ram: RamProfile,
}

/// Protocol addresses, read from the symbol table.
#[derive(Debug, Clone)]
struct Protocol {
    p_cmd: u16,
    p_depth: u16,
    p_nodes: u16,
    p_side: u16,
    p_castle: u16,
    p_ep: u16,
    p_half: u16,
    p_hcount: u16,
    r_status: u16,
    r_depth: u16,
    r_best: u16,
    r_score: u16,
    r_nodes: u16,
    r_perft: u16,
    r_pvlen: u16,
    r_pv: u16,
    board: u16,
    hist: u16,
    hist_max: u16,
    v_limit_on: u16,
    v_budget: u16,
    cmd_perft: u8,
    cmd_search: u8,
}

impl Protocol {
    fn from_symbols(s: &SymbolTable) -> Result<Protocol, PortEngineError> {
        let g = |n: &'static str| s.get(n).ok_or(PortEngineError::MissingSymbol(n));
        Ok(Protocol {
            p_cmd: g("P_CMD")?,
            p_depth: g("P_DEPTH")?,
            p_nodes: g("P_NODES")?,
            p_side: g("P_SIDE")?,
            p_castle: g("P_CASTLE")?,
            p_ep: g("P_EP")?,
            p_half: g("P_HALF")?,
            p_hcount: g("P_HCOUNT")?,
            r_status: g("R_STATUS")?,
            r_depth: g("R_DEPTH")?,
            r_best: g("R_BEST")?,
            r_score: g("R_SCORE")?,
            r_nodes: g("R_NODES")?,
            r_perft: g("R_PERFT")?,
            r_pvlen: g("R_PVLEN")?,
            r_pv: g("R_PV")?,
            board: g("BOARD")?,
            hist: g("HIST")?,
            hist_max: g("HIST_MAX_GAME")?,
            v_limit_on: g("V_LIMIT_ON")?,
            v_budget: g("V_BUDGET")?,
            cmd_perft: g("CMD_PERFT")? as u8,
            cmd_search: g("CMD_SEARCH")? as u8,
        })
    }
}

/// The assembled engine, ready to run commands.
#[derive(Debug, Clone)]
pub struct PortEngine {
    port: &'static Port,
    layout: Layout,
    rom: Vec<u8>,
    origin: u16,
    entry: u16,
    symbols: SymbolTable,
    /// The source line of each address, where the engine was assembled here (empty for an
    /// engine made from an image).
    sources: Arc<SourceMap>,
    protocol: Protocol,
    /// Cycle budget of one command (a run that needs more stops with [`PortEngineError::Run`]
    /// or, sliced, [`PortEngineError::CycleBudget`]).
    pub max_cycles: u64,
    /// The historical machine whose clock turns cycles into time; with it, search times and
    /// time limits are emulated time, without it the host's time.
    pub clock: Option<&'static ClockProfile>,
    /// With a clock: hold the emulation back to the machine's real speed.
    pub realtime: bool,
    /// The machine's timing model (its display, wait states and interrupt; see
    /// `kempelen_emulator::timing`): with it and a clock, search times, time limits and
    /// `realtime` are the machine's time under the model; without it, the CPU clock's.
    pub timing: Option<&'static TimingModel>,
    /// How `timing` follows the machine when the UCI option `Machine` changes it.
    pub timing_choice: Timing,
    /// The CPU core the machine runs on (the CPU's default; a debugger that shows every
    /// register takes `CoreKind::RustzxZ80` for the Z80, with the same cycles).
    pub core: CoreKind,
}

/// How often the run loop looks at the stop flag and the clock.
const POLL_CYCLES: u64 = 1 << 20;

/// Inside an iteration, how much time passes between two progress reports (the iteration
/// searched and the nodes so far) when nothing else was reported: one second of the machine's
/// time (of emulated time with a clock, of the host's without).
pub const PROGRESS_EVERY: Duration = Duration::from_secs(1);

impl PortEngine {
    /// Builds the engine of `port` from an image assembled at `origin` and its symbols, in the
    /// Kempelen machine's layout.
    pub fn new(
        port: &'static Port,
        origin: u16,
        rom: Vec<u8>,
        symbols: SymbolTable,
    ) -> Result<PortEngine, PortEngineError> {
        PortEngine::with_layout(port, Layout::kempelen(port.cpu), origin, rom, symbols)
    }

    /// [`PortEngine::new`] for an image assembled in `layout` (crate::layout): it runs in a
    /// machine whose memory is only what the layout names, and starts at its first byte unless
    /// the layout has the 6502 vectors. The ROM limit holds for the Kempelen layouts only (a
    /// target's engine may grow by the absolute addressing of its protocol block).
    pub fn with_layout(
        port: &'static Port,
        layout: Layout,
        origin: u16,
        rom: Vec<u8>,
        symbols: SymbolTable,
    ) -> Result<PortEngine, PortEngineError> {
        let limit = if layout.is_kempelen() {
            port.rom_limit
        } else {
            0x10000
        };
        let fits = usize::from(origin) + rom.len() <= 0x10000;
        if rom.len() > limit || !fits {
            return Err(PortEngineError::Assemble {
                file: port.engine_main.into(),
                message: format!(
                    "the image has {} bytes at ${origin:04X}; the {} engine's ROM holds {limit}",
                    rom.len(),
                    port.name
                ),
            });
        }
        let entry = if port.cpu != kempelen_emulator::Cpu::Z80 && !layout.vectors {
            Some(origin)
        } else {
            port.entry_of(origin, &rom)
        };
        let entry = entry.ok_or_else(|| PortEngineError::Assemble {
            file: port.engine_main.into(),
            message: format!(
                "the image at ${origin:04X} ({} bytes) does not hold the reset vector at $FFFC",
                rom.len()
            ),
        })?;
        let protocol = Protocol::from_symbols(&symbols)?;
        Ok(PortEngine {
            port,
            layout,
            rom,
            origin,
            entry,
            symbols,
            sources: Arc::default(),
            protocol,
            max_cycles: 1 << 44,
            clock: None,
            realtime: false,
            timing: None,
            timing_choice: Timing::Machine,
            core: CoreKind::default_for(port.cpu),
        })
    }

    /// Assembles the bundled sources of the port's `engine.asm` with Kempelen's assembler;
    /// a port whose sources are not in this tree gives [`PortEngineError::Absent`].
    pub fn assemble(port: &'static Port) -> Result<PortEngine, PortEngineError> {
        port.require()?;
        let mut source = MemorySource::new();
        for (name, text) in port.engine_sources() {
            source.add(name, text.as_bytes());
        }
        PortEngine::assemble_from(port, &source, port.engine_main)
    }

    /// Assembles the bundled sources of the port's `engine.asm` in `layout` (its `layout.inc`
    /// written from it), as a target machine places the engine.
    pub fn assemble_at(
        port: &'static Port,
        layout: &Layout,
    ) -> Result<PortEngine, PortEngineError> {
        port.require()?;
        layout.check().map_err(|e| PortEngineError::Assemble {
            file: "layout.inc".into(),
            message: e.to_string(),
        })?;
        let inc = layout.to_inc("a layout of the engine's host-protocol build");
        let mut source = MemorySource::new();
        for (name, text) in port.engine_sources() {
            let text = if *name == "layout.inc" {
                inc.as_str()
            } else {
                text
            };
            source.add(name, text.as_bytes());
        }
        let out = assemble(port.engine_main, &source, &Options::new(port.cpu));
        if !out.is_ok() {
            return Err(PortEngineError::Assemble {
                file: port.engine_main.into(),
                message: out.report(),
            });
        }
        PortEngine::with_layout(
            port,
            layout.clone(),
            out.image.origin,
            out.image.bytes.clone(),
            out.symbols.clone(),
        )
        .map(|e| e.with_sources(out.listing.source_map()))
    }

    /// The layout the engine was assembled in.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Assembles an engine from `main` and the files it includes as `source` serves them: a
    /// changed copy of the sources (a directory through [`kempelen_asm::source::FsSource`],
    /// or strings), so that a change can be compared with the native reference before it
    /// goes in. The image must keep the protocol symbols (docs/PROTOCOL.md).
    pub fn assemble_from(
        port: &'static Port,
        source: &dyn SourceProvider,
        main: &str,
    ) -> Result<PortEngine, PortEngineError> {
        let out = assemble(main, source, &Options::new(port.cpu));
        if !out.is_ok() {
            return Err(PortEngineError::Assemble {
                file: main.into(),
                message: out.report(),
            });
        }
        PortEngine::new(
            port,
            out.image.origin,
            out.image.bytes.clone(),
            out.symbols.clone(),
        )
        .map(|e| e.with_sources(out.listing.source_map()))
    }

    /// The engine with the source map of its image (what [`PortEngine::source_map`] gives).
    pub fn with_sources(mut self, sources: SourceMap) -> PortEngine {
        self.sources = Arc::new(sources);
        self
    }

    /// The source line of each address of the image (empty when the engine was made from an
    /// image without its sources).
    pub fn source_map(&self) -> &SourceMap {
        &self.sources
    }

    /// The instruction at `addr` disassembled (`LD A,(IX+$05)`), with the engine's symbols;
    /// `None` outside the image.
    pub fn disassemble(&self, addr: u16) -> Option<String> {
        let at = usize::from(addr.checked_sub(self.origin)?);
        let window: Vec<u8> = (0..4)
            .map(|k| self.rom.get(at + k).copied().unwrap_or(0))
            .collect();
        (at < self.rom.len()).then(|| {
            isa::decode_with(self.port.cpu, &window, addr, Some(&self.symbols))
                .map_or_else(|_| format!("${addr:04X}"), |d| d.text())
        })
    }

    /// The engine of `port` assembled once from the bundled sources and shared (for tests
    /// and tools that run many commands); panics if the present sources do not assemble.
    pub fn shared(port: &'static Port) -> Result<&'static PortEngine, PortError> {
        use std::sync::OnceLock;
        static ENGINES: [OnceLock<PortEngine>; crate::port::PORT_COUNT] =
            [const { OnceLock::new() }; crate::port::PORT_COUNT];
        port.require()?;
        let i = crate::port::PORTS
            .iter()
            .position(|p| p.id == port.id)
            .unwrap_or_else(|| panic!("{} is not in PORTS", port.name));
        Ok(ENGINES[i].get_or_init(|| {
            PortEngine::assemble(port)
                .unwrap_or_else(|e| panic!("the {} engine does not assemble: {e}", port.name))
        }))
    }

    /// The port this engine is a build of.
    pub fn port(&self) -> &'static Port {
        self.port
    }

    /// Where the image is loaded.
    pub fn origin(&self) -> u16 {
        self.origin
    }

    /// The assembled image.
    pub fn rom(&self) -> &[u8] {
        &self.rom
    }

    /// The symbol table.
    pub fn symbols(&self) -> &SymbolTable {
        &self.symbols
    }

    /// Counts the leaves of the legal move tree of `depth` plies.
    pub fn perft(&self, pos: &Position, depth: u8) -> Result<PerftOutcome, PortEngineError> {
        let l = &self.protocol;
        let mut m = self.perft_machine(pos, depth)?;
        let cycles = run(&mut m, self.max_cycles)?;
        self.check_status(&m)?;
        Ok(PerftOutcome {
            count: read_u32(&m, l.r_perft) as u64,
            cycles,
        })
    }

    /// Searches `pos` to `depth` (1..=32) with an optional node limit (ALGORITHM.md
    /// section 9; `Some(u32::MAX)` is the protocol's "none", which the node counter cannot
    /// pass). `history` holds the keys of the game positions before the root, oldest
    /// first, ending with the root's own key (see [`kempelen_engine::Game::reference_history`]); it may be
    /// empty.
    pub fn search(
        &self,
        pos: &Position,
        history: &[u32],
        depth: u32,
        nodes: Option<u32>,
    ) -> Result<SearchOutcome, PortEngineError> {
        let mut m = self.search_machine(pos, history, depth, nodes)?;
        let cycles = run(&mut m, self.max_cycles)?;
        self.search_outcome(&m, pos, cycles, None)
    }

    /// Sets the machine whose time the engine reports (`clock`) and its timing model as
    /// `choice` gives it (`machine`: the machine's own model, `cpu`: none, or a named model
    /// of that machine).
    pub fn set_machine(
        &mut self,
        clock: &'static ClockProfile,
        choice: &Timing,
    ) -> Result<(), TimingError> {
        self.timing = choice.model_for(clock.id)?;
        self.clock = Some(clock);
        self.timing_choice = choice.clone();
        Ok(())
    }

    /// The emulated time of everything `m` ran: the machine's time under the timing model
    /// when there is one, else at the clock; `None` without a clock.
    fn emulated(&self, m: &Machine) -> Option<Duration> {
        self.clock.map(|_| m.elapsed())
    }

    /// [`PortEngine::search`] with a control (stop flag, info callback after every iteration)
    /// and time limits (soft: no new iteration, hard: stop), measured in emulated time when
    /// [`PortEngine::clock`] is set. Each completed iteration is reported to the control as it
    /// completes (the engine's host call "iteration complete", docs/PROTOCOL.md), with the
    /// same depth, score, nodes and principal variation as the native reference search
    /// reports. Between the iterations the machine runs in slices of at most 2^20 cycles
    /// between which the host looks at the stop flag and the clock ([`sliced::SlicedSearch`], which a
    /// host that cannot block drives itself); the slices are one run of the machine, so the
    /// outcome's cycles and `ram` are those of [`PortEngine::search`] in one piece. The
    /// iterations go to `report` (the control's own callback: `|info, _| control.report(info)`),
    /// each with the cycles from the start of the search to the end of the iteration.
    #[allow(clippy::too_many_arguments)]
    pub fn search_with(
        &self,
        pos: &Position,
        history: &[u32],
        depth: u32,
        nodes: Option<u32>,
        control: &SearchControl,
        budget: time::TimeBudget,
        report: &dyn Fn(&SearchInfo, u64),
    ) -> Result<SearchOutcome, PortEngineError> {
        let limits = SearchBounds {
            depth,
            nodes,
            budget,
        };
        self.search_reporting(pos, history, limits, control, report, None)
    }

    /// [`PortEngine::search_with`], and with `progress` also a report to the control inside
    /// a long iteration: when `progress` of the machine's time has passed since the last
    /// report, the iteration being searched (`V_ITER`) and the nodes so far (`R_NODES`, the
    /// live counter), read from RAM between two slices, with the time, and no score or line
    /// (the iteration has none yet). Reading RAM changes nothing of the search: its nodes and
    /// cycles are those of a run without progress reports.
    fn search_reporting(
        &self,
        pos: &Position,
        history: &[u32],
        limits: SearchBounds,
        control: &SearchControl,
        report: &dyn Fn(&SearchInfo, u64),
        progress: Option<Duration>,
    ) -> Result<SearchOutcome, PortEngineError> {
        let SearchBounds {
            depth,
            nodes,
            budget,
        } = limits;
        let mut search = self.start_search(pos, history, depth, nodes, budget, control.start)?;
        // When the next progress report is due (moved on by every report).
        let mut next_progress = progress;
        loop {
            match search.step(POLL_CYCLES)? {
                Slice::Running => {
                    if control.stopped() {
                        search.stop()?;
                    }
                    let t = search.elapsed();
                    if let (Some(every), Some(due)) = (progress, next_progress) {
                        if t >= due && !search.is_stopping() {
                            control.report(&progress_info(&search, t));
                            next_progress = Some(t + every);
                        }
                    }
                }
                Slice::Iteration { info, cycles } => {
                    report(&info, cycles);
                    next_progress = progress.map(|every| search.elapsed() + every);
                }
                Slice::Done(out) => {
                    if let Some(info) = search.unreported_iteration() {
                        report(&info, out.cycles);
                    }
                    return Ok(*out);
                }
            }
        }
    }

    /// The last completed iteration (R_DEPTH, R_SCORE, R_NODES, R_PV) in `m` as the native
    /// engine's search reports it, at time `time`; `None` if its principal variation cannot
    /// be read.
    pub(crate) fn iteration_info(
        &self,
        m: &Machine,
        pos: &Position,
        time: Duration,
    ) -> Option<SearchInfo> {
        iteration_info(m, &self.protocol, pos, time)
    }

    /// The live node counter and the iteration being searched (see
    /// [`sliced::SlicedSearch::live_counters`]).
    pub(crate) fn live_counters(&self, m: &Machine) -> (u64, u32) {
        let nodes = u64::from(read_u32(m, self.protocol.r_nodes));
        let iteration = self
            .symbols
            .get("V_ITER")
            .map_or(0, |a| u32::from(m.read_byte(a)));
        (nodes, iteration)
    }

    /// Sets the engine's node limit to "reached" (ALGORITHM.md section 9): it ends at its
    /// next node with the last completed iteration.
    pub(crate) fn limit_nodes_now(&self, m: &mut Machine) -> Result<(), PortEngineError> {
        let l = &self.protocol;
        m.write_bytes(l.v_budget, &[0; 4])?;
        m.write_bytes(l.v_limit_on, &[1])?;
        Ok(())
    }

    /// The outcome of the search that ended in `m` after `cycles`, at time `time`.
    pub(crate) fn search_outcome_at(
        &self,
        m: &Machine,
        pos: &Position,
        cycles: u64,
        time: Duration,
    ) -> Result<SearchOutcome, PortEngineError> {
        self.search_outcome(m, pos, cycles, Some(time))
    }

    /// Runs a search with the profiler on and returns its report (cycles per routine).
    pub fn profile_search(
        &self,
        pos: &Position,
        depth: u32,
    ) -> Result<ProfileReport, PortEngineError> {
        self.search_profiled(pos, &[], depth, None)
            .map(|(_, report)| report)
    }

    /// [`PortEngine::search`] with the cycle profiler on: the outcome (the same result, cycles
    /// and RAM profile as without the profiler) and the cycles per routine of this search.
    pub fn search_profiled(
        &self,
        pos: &Position,
        history: &[u32],
        depth: u32,
        nodes: Option<u32>,
    ) -> Result<(SearchOutcome, ProfileReport), PortEngineError> {
        let mut m = self.search_machine(pos, history, depth, nodes)?;
        m.enable_profiler();
        let cycles = run(&mut m, self.max_cycles)?;
        let outcome = self.search_outcome(&m, pos, cycles, None)?;
        Ok((outcome, m.profile().expect("the profiler is on")))
    }

    /// The machine with the engine loaded and a perft command written, not yet run: for a
    /// host that drives the run itself (in slices, traced, or looking at RAM between
    /// slices). The result is at `R_STATUS` and `R_PERFT` (docs/PROTOCOL.md).
    pub fn perft_machine(&self, pos: &Position, depth: u8) -> Result<Machine, PortEngineError> {
        let l = &self.protocol;
        let mut m = self.machine()?;
        self.write_position(&mut m, &Setup::from_position(pos), &[])?;
        m.write_bytes(l.p_cmd, &[l.cmd_perft])?;
        m.write_bytes(l.p_depth, &[depth])?;
        Ok(m)
    }

    /// The machine with the engine loaded and a search command written, not yet run (see
    /// [`PortEngine::perft_machine`]); the arguments are those of [`PortEngine::search`].
    fn machine(&self) -> Result<Machine, PortEngineError> {
        let mut b = MachineBuilder::new(self.port.cpu)
            .core(self.core)
            .memory_map(self.layout.memory_map(self.origin, self.rom.len()))
            .load(self.origin, &self.rom)
            .entry(self.entry)
            .symbols(self.symbols.clone());
        if let Some(c) = self.clock {
            b = b.clock(c);
        }
        let mut m = b.timing(self.timing).build()?;
        m.set_realtime(self.realtime && self.clock.is_some());
        Ok(m)
    }

    /// The machine with the engine loaded and a search command written, not yet run (see
    /// [`PortEngine::perft_machine`]); the arguments are those of [`PortEngine::search`].
    pub fn search_machine(
        &self,
        pos: &Position,
        history: &[u32],
        depth: u32,
        nodes: Option<u32>,
    ) -> Result<Machine, PortEngineError> {
        if !(1..=32).contains(&depth) {
            return Err(PortEngineError::Depth(depth));
        }
        let l = &self.protocol;
        let mut m = self.machine()?;
        self.write_position(&mut m, &Setup::from_position(pos), history)?;
        m.write_bytes(l.p_cmd, &[l.cmd_search])?;
        m.write_bytes(l.p_depth, &[depth as u8])?;
        // FFFFFFFFh means no limit: the engine stops with ST_COUNT_OVERFLOW before its
        // counter could pass it, so it is the same as none (0 is a real limit).
        m.write_bytes(l.p_nodes, &nodes.unwrap_or(u32::MAX).to_le_bytes())?;
        Ok(m)
    }

    fn search_outcome(
        &self,
        m: &Machine,
        pos: &Position,
        cycles: u64,
        time: Option<Duration>,
    ) -> Result<SearchOutcome, PortEngineError> {
        let l = &self.protocol;
        self.check_status(m)?;
        let pv = read_pv(m, l, pos)?;
        // R_BEST is the first PV move, or FFh FFh when the root has no legal move.
        let best = if m.read_byte(l.r_best) == 0xFF {
            None
        } else {
            pv.first().copied()
        };
        let ram = m.ram_profile();
        let result = SearchResult {
            best,
            score: m.read_word(l.r_score) as i16 as i32,
            pv,
            depth: m.read_byte(l.r_depth) as u32,
            nodes: read_u32(m, l.r_nodes) as u64,
            time: time.unwrap_or_else(|| self.emulated(m).unwrap_or(Duration::ZERO)),
        };
        Ok(SearchOutcome {
            result,
            cycles,
            machine_ticks: self.timing.and_then(|_| m.machine_ticks()),
            ram,
        })
    }

    fn write_position(
        &self,
        m: &mut Machine,
        s: &Setup,
        history: &[u32],
    ) -> Result<(), PortEngineError> {
        let l = &self.protocol;
        if history.len() > l.hist_max as usize {
            return Err(PortEngineError::HistoryTooLong(
                history.len(),
                l.hist_max as usize,
            ));
        }
        m.write_bytes(l.board, &s.board)?;
        m.write_bytes(l.p_side, &[s.side])?;
        m.write_bytes(l.p_castle, &[s.castling])?;
        m.write_bytes(l.p_ep, &[s.ep])?;
        m.write_bytes(l.p_half, &s.halfmove.to_le_bytes())?;
        m.write_bytes(l.p_hcount, &[history.len() as u8])?;
        let bytes: Vec<u8> = history.iter().flat_map(|k| k.to_le_bytes()).collect();
        m.write_bytes(l.hist, &bytes)?;
        Ok(())
    }

    fn check_status(&self, m: &Machine) -> Result<(), PortEngineError> {
        match m.read_byte(self.protocol.r_status) {
            0 => Ok(()),
            code => Err(PortEngineError::Status { code }),
        }
    }
}

/// Runs the machine to the "done" host call; returns the cycles.
fn run(m: &mut Machine, budget: u64) -> Result<u64, PortEngineError> {
    let stats = m
        .run(budget)
        .map_err(|e| PortEngineError::Run(Box::new(e)))?;
    if stats.is_done() {
        Ok(stats.cycles)
    } else {
        Err(PortEngineError::NotDone(stats.stop))
    }
}

/// A search's progress inside an iteration: the iteration being searched (V_ITER) and the
/// nodes so far (R_NODES counts live), without a score or a line.
fn progress_info(search: &sliced::SlicedSearch, time: Duration) -> SearchInfo {
    let (nodes, iteration) = search.live_counters();
    SearchInfo {
        depth: Some(iteration),
        seldepth: 0,
        score: None,
        nodes: Some(nodes),
        time,
        pv: Vec::new(),
        hashfull: None,
        string: None,
    }
}

/// What bounds one search of the 8-bit engine: the deepest iteration, the node limit
/// (ALGORITHM.md section 9) and the time limits.
struct SearchBounds {
    depth: u32,
    nodes: Option<u32>,
    budget: time::TimeBudget,
}

/// The last completed iteration (R_DEPTH, R_SCORE, R_NODES, R_PV) as the native engine's
/// search reports it; `None` if its principal variation cannot be read.
fn iteration_info(m: &Machine, l: &Protocol, pos: &Position, time: Duration) -> Option<SearchInfo> {
    let pv = read_pv(m, l, pos).ok()?;
    let depth = m.read_byte(l.r_depth) as u32;
    Some(SearchInfo {
        depth: Some(depth),
        // The protocol block has no selective depth.
        seldepth: 0,
        score: Some(m.read_word(l.r_score) as i16 as i32),
        nodes: Some(read_u32(m, l.r_nodes) as u64),
        time,
        pv,
        hashfull: None,
        string: None,
    })
}

fn read_u32(m: &Machine, a: u16) -> u32 {
    let b = m.read_bytes(a, 4);
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

/// Decodes the principal variation in RAM by replaying it: the promotion bits of a `to`
/// byte only mean something for a pawn reaching the last rank.
fn read_pv(m: &Machine, l: &Protocol, root: &Position) -> Result<Vec<Move>, PortEngineError> {
    let len = m.read_byte(l.r_pvlen) as usize;
    let mut pos = root.clone();
    let mut pv = Vec::with_capacity(len);
    for i in 0..len.min(32) {
        let a = l.r_pv + 2 * i as u16;
        let (from, to) = (m.read_byte(a), m.read_byte(a + 1));
        let Some(mv) = protocol_move(&pos, from, to) else {
            return Err(PortEngineError::IllegalMove {
                from,
                to,
                fen: pos.to_fen(),
            });
        };
        pos.play(mv);
        pv.push(mv);
    }
    Ok(pv)
}

/// The legal move of `pos` that a build writes as `from`, `to` (docs/PROTOCOL.md: the
/// promotion piece in the bits of `to` a square never uses, meaningful only for a pawn
/// reaching the last rank), if there is one.
pub fn protocol_move(pos: &Position, from: u8, to: u8) -> Option<Move> {
    let promo = match to & 0x88 {
        0x00 => 5,
        0x08 => 4,
        0x80 => 3,
        _ => 2,
    };
    pos.legal_moves().iter().copied().find(|mv| {
        mv.from() == from
            && mv.to() == to & 0x77
            && (mv.promotion() == 0 || mv.promotion() == promo)
    })
}

fn backend(e: PortEngineError) -> EngineError {
    EngineError::Backend(e.to_string())
}

/// The UCI option that names the search profile; the 8-bit builds have only `reference`.
const PROFILE_OPTION: &str = "Profile";
/// The UCI option that names the machine whose clock measures time.
const MACHINE_OPTION: &str = "Machine";
/// The UCI option that holds the emulation to the machine's real speed.
const REALTIME_OPTION: &str = "Realtime";
/// The UCI option that picks the machine's time (`machine`: its timing model) or the CPU
/// clock's (`cpu`).
const TIMING_OPTION: &str = "Timing";

impl Engine for PortEngine {
    fn name(&self) -> String {
        match self.clock {
            Some(c) => format!(
                "Kempelen {} ({} reference, {} at {} MHz{})",
                env!("CARGO_PKG_VERSION"),
                self.port.name,
                c.id,
                c.mhz,
                self.timing
                    .map(|m| format!(", timing {}", m.full_id()))
                    .unwrap_or_default()
            ),
            None => format!(
                "Kempelen {} ({} reference)",
                env!("CARGO_PKG_VERSION"),
                self.port.name
            ),
        }
    }

    fn perft(&mut self, pos: &Position, depth: u32) -> Result<u64, EngineError> {
        let d = u8::try_from(depth)
            .map_err(|_| EngineError::Unsupported(format!("perft depth {depth} above 255")))?;
        PortEngine::perft(self, pos, d)
            .map(|p| p.count)
            .map_err(backend)
    }

    fn search_request(&mut self, request: SearchRequest<'_>) -> Result<SearchResult, EngineError> {
        let (game, limits, control) = (request.game, request.limits, request.control);
        // A GUI may ask for any depth (`go depth 50`, `go mate 20`): deeper than the engine's
        // 32 iterations means "as deep as it goes", like no depth limit at all.
        let depth = limits.depth.unwrap_or(32).min(32);
        if depth == 0 {
            return Err(EngineError::Unsupported(format!(
                "depth 0: the {} engine searches depths 1 to 32",
                self.port.name
            )));
        }
        let nodes =
            match limits.nodes {
                None => None,
                Some(n) => Some(u32::try_from(n).map_err(|_| {
                    EngineError::Unsupported(format!("node limit {n} above 2^32 - 1"))
                })?),
            };
        let pos = game.position();
        let budget = time::budget(limits, pos.side());
        // A GUI hears from the engine at least once a second of the machine's time, also
        // inside an iteration that takes minutes.
        let bounds = SearchBounds {
            depth,
            nodes,
            budget,
        };
        let out = self
            .search_reporting(
                pos,
                &game.reference_history(),
                bounds,
                control,
                &|info, _| control.report(info),
                Some(PROGRESS_EVERY),
            )
            .map_err(backend)?;
        limits.unrestricted(
            out.result,
            &format!("the {} engine", self.port.name),
            "its assembly has no list of root moves to restrict",
        )
    }

    /// Emulated time at the machine's clock when the engine has one, else the host's.
    fn clock(&self) -> EngineClock {
        match self.clock {
            Some(p) => EngineClock::Emulated {
                machine: p.id.to_string(),
                mhz: p.mhz,
            },
            None => EngineClock::Host,
        }
    }

    /// `Profile` is listed so that a GUI sees the one profile this build has (`full` is the
    /// native engine's and cannot run here); `Machine` picks the historical machine whose
    /// clock measures time (the port's machines), `Realtime` holds the emulation to that
    /// machine's real speed (a UCI `check`, `true`/`false`).
    fn options(&self) -> Vec<EngineOption> {
        let machine = self.clock.unwrap_or_else(|| self.port.default_machine());
        vec![
            EngineOption {
                name: PROFILE_OPTION.into(),
                kind: OptionKind::Combo {
                    default: "reference".into(),
                    choices: vec!["reference".into()],
                },
            },
            EngineOption {
                name: MACHINE_OPTION.into(),
                kind: OptionKind::Combo {
                    default: machine.id.into(),
                    choices: self.port.machines.iter().map(|m| m.to_string()).collect(),
                },
            },
            EngineOption {
                name: REALTIME_OPTION.into(),
                kind: OptionKind::Check {
                    default: self.realtime,
                },
            },
            EngineOption {
                name: TIMING_OPTION.into(),
                kind: OptionKind::Combo {
                    default: match self.timing_choice {
                        Timing::Cpu => "cpu".into(),
                        _ => "machine".into(),
                    },
                    choices: vec!["machine".into(), "cpu".into()],
                },
            },
        ]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        let invalid =
            |option: &str, reason: String| EngineError::invalid_option(option, value, reason);
        if name.eq_ignore_ascii_case(MACHINE_OPTION) {
            let machine = self
                .port
                .machines
                .iter()
                .find(|m| m.eq_ignore_ascii_case(value))
                .and_then(|id| kempelen_emulator::clock::machine(id))
                .ok_or_else(|| {
                    invalid(
                        MACHINE_OPTION,
                        format!(
                            "the {} machines are {}",
                            self.port.name,
                            self.port.machines.join(", ")
                        ),
                    )
                })?;
            let choice = self.timing_choice.clone();
            if self.set_machine(machine, &choice).is_err() {
                // A named model the new machine lacks: its own model.
                self.set_machine(machine, &Timing::Machine)
                    .map_err(|e| invalid(MACHINE_OPTION, e.to_string()))?;
            }
            return Ok(());
        }
        if name.eq_ignore_ascii_case(TIMING_OPTION) {
            let choice = match value.to_ascii_lowercase().as_str() {
                "machine" => Timing::Machine,
                "cpu" => Timing::Cpu,
                _ => return Err(invalid(TIMING_OPTION, "machine or cpu".into())),
            };
            let machine = self.clock.unwrap_or_else(|| self.port.default_machine());
            self.set_machine(machine, &choice)
                .map_err(|e| invalid(TIMING_OPTION, e.to_string()))?;
            return Ok(());
        }
        if name.eq_ignore_ascii_case(REALTIME_OPTION) {
            self.realtime = kempelen_engine::check_option(REALTIME_OPTION, value)?;
            return Ok(());
        }
        if !name.eq_ignore_ascii_case(PROFILE_OPTION) {
            return Err(EngineError::UnknownOption(name.to_string()));
        }
        if value.eq_ignore_ascii_case("reference") {
            Ok(())
        } else {
            Err(invalid(
                PROFILE_OPTION,
                format!(
                    "the {} build runs the reference profile only (the full profile is the native engine's)",
                    self.port.name
                ),
            ))
        }
    }
}
