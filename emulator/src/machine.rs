//! The machine: a CPU core, the memory map, the devices, and the run loop that measures and
//! guards every instruction.
//!
//! Build one with [`MachineBuilder::new`](crate::MachineBuilder::new), load a program, and
//! [`Machine::run`] it with a cycle budget:
//!
//! ```
//! use kempelen_emulator::{Cpu, MachineBuilder, StopReason};
//!
//! // LD A,'K' ; OUT ($01),A ; XOR A ; OUT ($FF),A   (print "K", then host call "done")
//! let program = [0x3E, b'K', 0xD3, 0x01, 0xAF, 0xD3, 0xFF];
//! let mut m = MachineBuilder::new(Cpu::Z80).load(0x0000, &program).build().unwrap();
//! let stats = m.run(1_000).unwrap();
//! assert_eq!(stats.stop, StopReason::HostDone);
//! assert_eq!(stats.cycles, 7 + 11 + 4 + 11);
//! assert_eq!(m.console_mut().take_output(), b"K");
//! ```
//!
//! The step loop is compiled once per CPU core, so the wrapped crate's step function inlines
//! into it. A run pays, per instruction, for the checks every run needs, folded into one test
//! of an attribute byte at the PC (outside the program, an opcode to check, a possible jump to
//! itself), one compare for the budget and the bus events together, one for the stack
//! pointer, and one store into the ring of recent PCs; everything else (the checks' details,
//! the profiler and the tracer) runs on a slow path that the attribute byte asks for. See
//! `docs/MACHINE.md`, "Speed".

use crate::bus_impl::{BusEvent, MachineBus, Machined, attr, is_done, is_iteration};
use crate::clock::ClockProfile;
use crate::core::{Cmos65c02Core, Core, Mos6502Core, Registers, RustzxCore, Z80Core};
use crate::devices::Console;
use crate::error::{Fault, RunError};
use crate::memory::{AddrRange, ConfigError, MemoryMap};
use crate::profiler::{ProfileReport, Profiler};
use crate::stack::{StackCheck, stack_window};
use crate::stats::{Paused, RamProfile, RegionUse, RunStats, StackUse, StopReason};
use crate::step::{Exit, RunState, Runner, Watching};
use crate::symbols::Routines;
use crate::timing::{MachineTime, TimerStats, TimingModel};
use crate::trace::{RECENT, RecentTrace, TraceEntry, Tracer};
use crate::traps::{Served, Trap, TrapState};
use crate::{Cpu, SymbolTable};
use std::time::Duration;
use web_time::Instant;

pub use crate::cpu_rules::{is_defined_z80_ed, is_documented_6502};

/// Which emulation core runs the CPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum CoreKind {
    /// Z80 on the `z80` crate (fast; A, F, BC, DE, HL not visible).
    Z80,
    /// Z80 on `rustzx-z80` (every register visible; for tracing).
    RustzxZ80,
    /// NMOS 6502 on the `mos6502` crate.
    Mos6502,
    /// CMOS 65C02 (the WDC W65C02S) on the `mos6502` crate (its `W65C02S` variant).
    Cmos65c02,
}

impl CoreKind {
    /// The CPU the core emulates.
    pub fn cpu(self) -> Cpu {
        match self {
            CoreKind::Z80 | CoreKind::RustzxZ80 => Cpu::Z80,
            CoreKind::Mos6502 => Cpu::Mos6502,
            CoreKind::Cmos65c02 => Cpu::Cmos65c02,
        }
    }

    /// The default core for `cpu`.
    pub fn default_for(cpu: Cpu) -> Self {
        match cpu {
            Cpu::Z80 => CoreKind::Z80,
            Cpu::Mos6502 => CoreKind::Mos6502,
            Cpu::Cmos65c02 => CoreKind::Cmos65c02,
        }
    }

    /// The core's name (`z80`, `rustzx-z80`, `mos6502`).
    pub fn name(self) -> &'static str {
        match self {
            CoreKind::Z80 => <Z80Core<MachineBus> as Core>::NAME,
            CoreKind::RustzxZ80 => <RustzxCore<MachineBus> as Core>::NAME,
            CoreKind::Mos6502 => <Mos6502Core<MachineBus> as Core>::NAME,
            CoreKind::Cmos65c02 => <Cmos65c02Core<MachineBus> as Core>::NAME,
        }
    }

    /// Whether register snapshots from this core include every register.
    pub fn shows_all_registers(self) -> bool {
        self != CoreKind::Z80
    }
}

/// An 8-bit machine: CPU core, memory, devices, and the measurements of its runs.
pub struct Machine {
    pub(crate) cpu: Cpu,
    pub(crate) kind: CoreKind,
    pub(crate) core: Box<dyn Runner + Send>,
    pub(crate) map: MemoryMap,
    pub(crate) program: Vec<AddrRange>,
    pub(crate) st: RunState,
    pub(crate) symbols: Option<SymbolTable>,
    pub(crate) profiler: Option<Profiler>,
    pub(crate) tracer: Option<Tracer>,
    pub(crate) clock: &'static ClockProfile,
    pub(crate) realtime: bool,
    /// The timing model the machine runs under, if any (its timer is in the bus).
    pub(crate) timing: Option<&'static TimingModel>,
    /// The timer's ticks and figures when the current run began.
    pub(crate) run_start: (u64, TimerStats),
    pub(crate) total_cycles: u64,
    pub(crate) total_instructions: u64,
    pub(crate) traps: Vec<Trap>,
    pub(crate) trap_state: TrapState,
    /// Host time of the current run, over all its parts ([`Machine::run_more`]).
    pub(crate) run_wall: Duration,
    /// Whether a run has begun (that [`Machine::run_to_break`] continues).
    pub(crate) run_begun: bool,
}

/// A machine holds only what it owns (its core, memory, devices; a tracer's sink and a console
/// host are `Send`), so it may move to another thread.
const _: () = {
    const fn send<T: Send>() {}
    send::<Machine>()
};

impl std::fmt::Debug for Machine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Machine")
            .field("cpu", &self.cpu)
            .field("core", &self.kind)
            .field("registers", &self.registers())
            .field("map", &self.map)
            .field("program", &self.program)
            .finish()
    }
}

impl Machine {
    /// The CPU.
    pub fn cpu(&self) -> Cpu {
        self.cpu
    }

    /// The core running the CPU.
    pub fn core_kind(&self) -> CoreKind {
        self.kind
    }

    /// The memory map.
    pub fn memory_map(&self) -> &MemoryMap {
        &self.map
    }

    /// The loaded program images.
    pub fn program(&self) -> &[AddrRange] {
        &self.program
    }

    /// The clock profile used for time reports and real-time pacing.
    pub fn clock(&self) -> &'static ClockProfile {
        self.clock
    }

    /// Changes the clock profile.
    pub fn set_clock(&mut self, clock: &'static ClockProfile) {
        self.clock = clock;
    }

    /// Paces runs to the machine's speed (sleeping every 10 ms of emulated time) so a person
    /// can feel it: the time of its timing model where it has one, else the clock profile's.
    pub fn set_realtime(&mut self, on: bool) {
        self.realtime = on;
    }

    /// The timing model the machine runs under ([`MachineBuilder::timing`](crate::MachineBuilder::timing)), if any.
    pub fn timing(&self) -> Option<&'static TimingModel> {
        self.timing
    }

    /// The machine time of all runs so far under its timing model (ticks of
    /// [`TimingModel::hz`] since the machine was built), if it has one.
    pub fn machine_ticks(&self) -> Option<u64> {
        self.core.bus().timer.as_ref().map(|t| t.pos())
    }

    /// The time of all runs so far: under the timing model where the machine has one, else
    /// at the clock profile's speed.
    pub fn elapsed(&self) -> Duration {
        match (self.timing, self.machine_ticks()) {
            (Some(m), Some(t)) => m.duration(t),
            _ => self.clock.duration(self.total_cycles),
        }
    }

    /// Moves the machine to tick `tick` of its frame before the next run (for measuring a
    /// piece of code at a given moment of the display); `false` without a timing model.
    pub fn set_frame_position(&mut self, tick: u64) -> bool {
        match self.core.bus_mut().timer.as_deref_mut() {
            Some(t) => {
                t.set_frame_position(tick);
                true
            }
            None => false,
        }
    }

    /// Loads `bytes` at `addr` as program code (see [`MachineBuilder::load`](crate::MachineBuilder::load)). Writes ROM and
    /// RAM alike; fails on unmapped memory and the I/O page.
    pub fn load(&mut self, addr: u16, bytes: &[u8]) -> Result<(), ConfigError> {
        if bytes.is_empty() {
            return Ok(());
        }
        if usize::from(addr) + bytes.len() > 0x10000 {
            return Err(ConfigError::ImageTooLarge {
                addr,
                len: bytes.len(),
            });
        }
        self.write_bytes(addr, bytes)?;
        let range = AddrRange::new(addr, addr + (bytes.len() - 1) as u16).expect("non-empty");
        let bus = self.core.bus_mut();
        for a in range.indices() {
            bus.attr[a] &= !attr::OUTSIDE;
            bus.refresh(a as u16);
        }
        bus.refresh_pages();
        if self.cpu.is_6502_family() {
            bus.mark_careful();
        }
        self.program.push(range);
        Ok(())
    }

    /// The byte at `addr` as stored, without device side effects (`0xFF` if unmapped).
    pub fn read_byte(&self, addr: u16) -> u8 {
        self.core.bus().machine().peek(addr)
    }

    /// The little-endian word at `addr`.
    pub fn read_word(&self, addr: u16) -> u16 {
        u16::from_le_bytes([self.read_byte(addr), self.read_byte(addr.wrapping_add(1))])
    }

    /// `len` bytes from `addr` (wrapping at `$FFFF`).
    pub fn read_bytes(&self, addr: u16, len: usize) -> Vec<u8> {
        (0..len)
            .map(|i| self.read_byte(addr.wrapping_add(i as u16)))
            .collect()
    }

    /// Writes a byte as the host: ROM and RAM alike (the host may patch ROM), not counted in
    /// the RAM profile. Unmapped memory and the I/O page are refused.
    pub fn write_byte(&mut self, addr: u16, value: u8) -> Result<(), ConfigError> {
        let bus = self.core.bus_mut();
        let a = bus.attr[usize::from(addr)];
        if a & (attr::RAM | attr::ROM) == 0 {
            let what = if a & attr::IO != 0 {
                "the I/O page"
            } else {
                "unmapped"
            };
            return Err(ConfigError::NotMemory { addr, what });
        }
        bus.mem[usize::from(addr)] = value;
        bus.refresh(addr);
        Ok(())
    }

    /// Writes a little-endian word as the host.
    pub fn write_word(&mut self, addr: u16, value: u16) -> Result<(), ConfigError> {
        let [lo, hi] = value.to_le_bytes();
        self.write_byte(addr, lo)?;
        self.write_byte(addr.wrapping_add(1), hi)
    }

    /// Writes bytes as the host; bytes that would run past `$FFFF` are refused before any is
    /// written (a poke at `$FFFF` never lands on `$0000`).
    pub fn write_bytes(&mut self, addr: u16, bytes: &[u8]) -> Result<(), ConfigError> {
        if usize::from(addr) + bytes.len() > 0x10000 {
            return Err(ConfigError::WritePastEnd {
                addr,
                len: bytes.len(),
            });
        }
        for (i, &b) in bytes.iter().enumerate() {
            self.write_byte(addr.wrapping_add(i as u16), b)?;
        }
        Ok(())
    }

    /// Program counter.
    pub fn pc(&self) -> u16 {
        self.core.pc()
    }

    /// Sets the program counter (the entry point of the next run).
    pub fn set_pc(&mut self, pc: u16) {
        self.core.set_pc(pc)
    }

    /// Stack pointer (6502: `$0100 | S`).
    pub fn sp(&self) -> u16 {
        self.core.sp()
    }

    /// Sets the stack pointer (6502: the low byte).
    pub fn set_sp(&mut self, sp: u16) {
        self.core.set_sp(sp)
    }

    /// The registers (on the default Z80 core A, F, BC, DE, HL are not visible).
    pub fn registers(&self) -> Registers {
        self.core.registers()
    }

    /// Resets the CPU (the 6502 reads its reset vector; the Z80 starts at 0).
    pub fn reset_cpu(&mut self) {
        self.core.reset()
    }

    /// Drives the maskable interrupt line.
    pub fn set_irq(&mut self, active: bool) {
        self.core.set_irq(active)
    }

    /// Pulses the non-maskable interrupt line.
    pub fn pulse_nmi(&mut self) {
        self.core.pulse_nmi()
    }

    /// The console, to queue input and collect output.
    pub fn console_mut(&mut self) -> &mut Console {
        self.core.bus_mut().console.get_mut()
    }

    /// Cycles of all runs so far.
    pub fn total_cycles(&self) -> u64 {
        self.total_cycles
    }

    /// Instructions of all runs so far.
    pub fn total_instructions(&self) -> u64 {
        self.total_instructions
    }

    /// The symbols, if any.
    pub fn symbols(&self) -> Option<&SymbolTable> {
        self.symbols.as_ref()
    }

    /// Sets the symbols used by traces and error reports (and by a profiler enabled later).
    pub fn set_symbols(&mut self, symbols: SymbolTable) {
        self.symbols = Some(symbols);
    }

    /// Turns on the cycle profiler, charging cycles to the machine's routines: the global
    /// labels of its symbol table that lie inside the loaded program (constants and local
    /// labels are not routines).
    pub fn enable_profiler(&mut self) {
        let bus = self.core.bus();
        let code = self
            .symbols
            .as_ref()
            .map(Routines::from_table)
            .unwrap_or_default()
            .filtered(|_, a| bus.attr[usize::from(a)] & attr::OUTSIDE == 0);
        self.profiler = Some(Profiler::new(self.cpu, code));
    }

    /// The profile so far, if the profiler is on.
    pub fn profile(&self) -> Option<ProfileReport> {
        self.profiler.as_ref().map(Profiler::report)
    }

    /// The profiler, to reset it between measurements.
    pub fn profiler_mut(&mut self) -> Option<&mut Profiler> {
        self.profiler.as_mut()
    }

    /// Attaches an instruction tracer (replacing any other).
    pub fn set_tracer(&mut self, tracer: Tracer) {
        self.tracer = Some(tracer);
    }

    /// Detaches the tracer.
    pub fn take_tracer(&mut self) -> Option<Tracer> {
        self.tracer.take()
    }

    /// RAM use of the most recent run (or, before any run, nothing written).
    pub fn ram_profile(&self) -> RamProfile {
        let bus = self.core.bus();
        let written = |a: usize| bus.written[a] != 0;
        let regions = self
            .map
            .regions
            .iter()
            .map(|r| RegionUse {
                name: r.name.clone(),
                kind: r.kind,
                range: r.range,
                bytes_written: r.range.indices().filter(|&a| written(a)).count() as u32,
            })
            .collect();
        let stack_region = self.map.stack;
        let data_bytes = (0..0x10000)
            .filter(|&a| {
                written(a)
                    && bus.attr[a] & attr::RAM != 0
                    && !stack_region.is_some_and(|s| s.contains(a as u16))
            })
            .count() as u32;
        let stack = self.st.stack.map(|s| StackUse {
            region: s.region,
            low_water: s.top - s.max_depth as u32,
            max_depth: s.max_depth as u32,
        });
        let peak_bytes = match (&stack, stack_region) {
            (Some(s), _) => data_bytes + s.max_depth,
            _ => data_bytes,
        };
        RamProfile {
            regions,
            stack,
            data_bytes,
            peak_bytes,
        }
    }

    /// Counts every execution of the instructions at `addrs` from now on, across runs, with
    /// the counts starting at 0 (replacing earlier counters). For a routine entered only by
    /// calls, the count at its first instruction is the number of calls; a counted address
    /// costs the step loop's slow path there and nothing elsewhere.
    pub fn count_executions(&mut self, addrs: &[u16]) {
        self.core.bus_mut().set_counted(addrs.to_vec());
    }

    /// The counted addresses (ascending) and how often each instruction ran since
    /// [`Machine::count_executions`].
    pub fn execution_counts(&self) -> Vec<(u16, u64)> {
        self.core.bus().counts()
    }

    /// Whether the host call "iteration complete" (`0x01`) stops the run with
    /// [`StopReason::HostIteration`] (resumable: running again continues after it). Off by
    /// default: the call then does nothing, so programs run in one piece.
    pub fn set_stop_on_iteration(&mut self, on: bool) {
        self.core.bus_mut().stop_on_iteration = on;
    }

    /// Runs from the current PC until the program stops (host call "done", `HALT`, `BRK`, a
    /// jump to itself, the 65C02's `STP` or `WAI`; see [`StopReason`]) or faults, with at most `budget` cycles (checked before each
    /// instruction, so the last instruction may end a few cycles past it).
    pub fn run(&mut self, budget: u64) -> Result<RunStats, RunError> {
        self.run_inner(budget, false)
    }

    /// Continues the last run as part of it (after [`StopReason::InputWait`], once the host
    /// queued more input): its cycles, instructions, RAM profile, stack depth and unmapped
    /// reads go on accumulating, and `budget` counts the whole run. The returned stats are
    /// the whole run's.
    pub fn run_more(&mut self, budget: u64) -> Result<RunStats, RunError> {
        self.run_inner(budget, true)
    }

    fn run_inner(&mut self, budget: u64, more: bool) -> Result<RunStats, RunError> {
        let started = Instant::now();
        let (cycles0, instructions0) = if more {
            (self.st.cycles, self.st.instructions)
        } else {
            (0, 0)
        };
        self.begin_run(more)?;
        let exit = if self.realtime {
            self.run_paced(budget, started)
        } else {
            self.run_until(budget)
        };
        let result = self.finish(exit, budget);
        if !more {
            self.run_wall = Duration::ZERO;
        }
        self.run_wall += started.elapsed();
        let machine_time = self.end_part(cycles0, instructions0);
        result.map(|stop| RunStats {
            stop,
            machine_time,
            cycles: self.st.cycles,
            instructions: self.st.instructions,
            unmapped_reads: self.core.bus().machine().unmapped_reads.get(),
            max_stack_depth: self.st.stack.map(|s| s.max_depth as u32),
            wall_time: self.run_wall,
        })
    }

    /// Runs on from the current PC as part of the machine's current run (as
    /// [`Machine::run_more`] does; a machine that has not run yet begins its first run) for
    /// at most `budget` more cycles, and stops before an instruction at any of `breaks`, the
    /// debugger's breakpoints. With `leave` a breakpoint at the PC lets its instruction run
    /// first (a run that resumes from the breakpoint it stopped at); without it the run stops
    /// there at once (a run that goes on after its budget ended just there). A budget of 1
    /// runs exactly one instruction. Nothing here reads
    /// the host's clock and nothing waits: each call does the same on every host, and a host
    /// without threads (a page's Web Worker) drives a long run as a series of calls.
    ///
    /// ```
    /// use kempelen_emulator::{Cpu, MachineBuilder, Paused, StopReason};
    ///
    /// // LD B,3 / loop: DJNZ loop / XOR A / OUT ($FF),A   (host call "done")
    /// let program = [0x06, 0x03, 0x10, 0xFE, 0xAF, 0xD3, 0xFF];
    /// let mut m = MachineBuilder::new(Cpu::Z80).load(0x0000, &program).build().unwrap();
    /// assert_eq!(m.run_to_break(1, &[], false).unwrap(), Paused::Budget);
    /// assert_eq!((m.pc(), m.total_cycles()), (0x0002, 7));
    /// let at = m.run_to_break(1_000, &[0x0004], false).unwrap();
    /// assert_eq!((at, m.total_cycles()), (Paused::Break { pc: 0x0004 }, 7 + 13 + 13 + 8));
    /// let done = m.run_to_break(1_000, &[0x0004], true).unwrap();
    /// assert_eq!(done, Paused::Stop(StopReason::HostDone));
    /// ```
    pub fn run_to_break(
        &mut self,
        budget: u64,
        breaks: &[u16],
        leave: bool,
    ) -> Result<Paused, RunError> {
        let more = self.run_begun;
        let (cycles0, instructions0) = if more {
            (self.st.cycles, self.st.instructions)
        } else {
            (0, 0)
        };
        self.begin_run(more)?;
        let pc = self.core.pc();
        let resume = (leave && breaks.contains(&pc)).then_some((pc, self.st.instructions));
        self.core.bus_mut().set_breaks(breaks.to_vec(), resume);
        let limit = self.st.cycles.saturating_add(budget);
        let exit = self.run_until(limit);
        self.core.bus_mut().set_breaks(Vec::new(), None);
        let paused = match exit {
            Exit::Limit => Ok(Paused::Budget),
            Exit::Break { pc } => Ok(Paused::Break { pc }),
            exit => self.finish(exit, limit).map(Paused::Stop),
        };
        self.end_part(cycles0, instructions0);
        paused
    }

    /// The end of a run or of a part of it, which began at `cycles0` cycles and
    /// `instructions0` instructions of the run: the timing model settled, the console's reads
    /// stamped, the profiler told, the totals counted. Returns the run's time under the
    /// timing model, if the machine has one.
    fn end_part(&mut self, cycles0: u64, instructions0: u64) -> Option<MachineTime> {
        let cycles = self.st.cycles;
        let last = self.last_pc().map_or(0, |pc| self.read_byte(pc));
        let machine_time = match (self.timing, self.core.bus_mut().timer.as_deref_mut()) {
            (Some(model), Some(t)) => {
                t.settle_end(cycles, last);
                let (pos0, stats0) = self.run_start;
                Some(MachineTime {
                    model,
                    ticks: t.pos() - pos0,
                    stats: t.stats().since(&stats0),
                })
            }
            _ => None,
        };
        // The program's reads are stamped at the end of the instruction or trap that took
        // them; none leaves the run without a cycle count (a read the host made itself through
        // `Console::read` gets the run's last one).
        let cycles = self.st.cycles;
        self.console_mut().stamp_reads(cycles);
        if let Some(p) = self.profiler.as_mut() {
            p.end_run();
        }
        self.total_cycles += self.st.cycles - cycles0;
        self.total_instructions += self.st.instructions - instructions0;
        machine_time
    }

    fn begin_run(&mut self, more: bool) -> Result<(), RunError> {
        let sp = self.core.sp();
        let bus = self.core.bus_mut();
        bus.event.set(None);
        bus.deferred_len = 0;
        bus.refresh_console();
        let cycles = self.st.cycles;
        if let Some(t) = bus.timer.as_deref_mut() {
            if more {
                t.resume_run(cycles);
            } else {
                t.begin_run();
                self.run_start = (t.pos(), t.stats());
            }
        }
        if more {
            return Ok(());
        }
        self.run_begun = true;
        let bus = self.core.bus_mut();
        bus.written.fill(0);
        bus.unmapped_reads.set(0);
        bus.code_log.clear();
        self.st.cycles = 0;
        self.st.instructions = 0;
        self.st.stack = self.map.stack.map(|region| {
            let mut s = StackCheck::new(region);
            s.depth = s.depth_of(self.cpu, sp);
            s.max_depth = s.depth.max(0);
            s
        });
        let window = stack_window(self.cpu, self.st.stack.as_ref());
        self.core.bus_mut().set_stack_window(window);
        if let Some(p) = self.profiler.as_mut() {
            p.begin_run(sp);
        }
        if let Some(s) = self.st.stack {
            if s.depth < 0 || s.depth > s.size {
                let fault = s.fault(self.cpu, sp, self.core.pc());
                return Err(self.error(fault, true));
            }
        }
        Ok(())
    }

    /// Runs the step loop until `limit`, serving host traps on the way.
    fn run_until(&mut self, limit: u64) -> Exit {
        loop {
            let exit = self.run_core(limit);
            let Exit::Trap { pc } = exit else {
                return exit;
            };
            let served = self.serve_trap(pc);
            // The characters the routine took, stamped after it (its cycles charged).
            let cycles = self.st.cycles;
            self.console_mut().stamp_reads(cycles);
            match served {
                Ok(Served::Continue) => {
                    // The routine's return popped the stack as RET / RTS would: popping above
                    // the region's top is an underflow here too.
                    if let Some(s) = self.st.stack {
                        if s.depth < 0 || s.depth > s.size {
                            return Exit::FaultAfter(s.fault(self.cpu, self.core.sp(), pc));
                        }
                    }
                }
                Ok(Served::Done) => return Exit::Stop(StopReason::HostDone),
                Ok(Served::Wait) => {
                    if self.console_mut().take_starved() {
                        return Exit::Stop(StopReason::InputWait { pc });
                    }
                    self.charge(crate::traps::WAIT_CYCLES);
                }
                Ok(Served::Unsupported { code }) => {
                    let trap = self.traps.iter().find(|t| t.at == pc);
                    return Exit::FaultBefore(Fault::UnsupportedTrapFunction {
                        trap: trap.map(|t| t.name.clone()).unwrap_or_default(),
                        code,
                        pc,
                    });
                }
                Err(fault) => return Exit::FaultBefore(fault),
            }
            if self.st.cycles >= limit {
                return Exit::Limit;
            }
        }
    }

    /// Adds `cycles` spent outside the CPU (a host trap's routine) to the run.
    pub(crate) fn charge(&mut self, cycles: u64) {
        self.st.cycles = self.st.cycles.saturating_add(cycles);
        let now = self.st.cycles;
        if let Some(t) = self.core.bus_mut().timer.as_deref_mut() {
            t.charge(cycles, now);
        }
    }

    /// Sets every register from a snapshot; `false` on a core that keeps some private.
    pub fn set_registers(&mut self, regs: &Registers) -> bool {
        self.core.set_registers(regs)
    }

    pub(crate) fn set_all_registers(&mut self, regs: &Registers) -> bool {
        self.set_registers(regs)
    }

    /// Follows a stack pointer the host moved from `old` to `new` (a trap's return), so the
    /// stack check keeps the depth right.
    pub(crate) fn sp_moved(&mut self, old: u16, new: u16) {
        let cpu = self.cpu;
        if let Some(s) = self.st.stack.as_mut() {
            match cpu {
                Cpu::Z80 => s.depth = s.depth_of(cpu, new),
                Cpu::Mos6502 | Cpu::Cmos65c02 => {
                    s.depth += i64::from((old as u8).wrapping_sub(new as u8) as i8)
                }
            }
        }
    }

    /// The host traps.
    pub fn traps(&self) -> &[Trap] {
        &self.traps
    }

    fn run_core(&mut self, limit: u64) -> Exit {
        if self.profiler.is_none() && self.tracer.is_none() {
            self.core.run_until(&mut self.st, None, limit)
        } else {
            let mut w = Watching {
                profiler: self.profiler.as_mut(),
                tracer: self.tracer.as_mut(),
                symbols: self.symbols.as_ref(),
                pending: None,
            };
            self.core.run_until(&mut self.st, Some(&mut w), limit)
        }
    }

    /// Runs in slices of 10 ms of emulated time, sleeping until the wall clock catches up
    /// with the machine's time (its timing model's, else its clock's).
    fn run_paced(&mut self, budget: u64, started: Instant) -> Exit {
        let hz = self.clock.hz();
        let slice = ((hz / 100.0) as u64).max(1);
        let ticks0 = self.machine_ticks();
        loop {
            let limit = budget.min(self.st.cycles + slice);
            let exit = self.run_until(limit);
            let emulated = match (self.timing, self.machine_ticks(), ticks0) {
                (Some(m), Some(t), Some(t0)) => m.duration(t - t0).as_secs_f64(),
                _ => self.st.cycles as f64 / hz,
            };
            let due = started + Duration::from_secs_f64(emulated);
            if let Some(wait) = due.checked_duration_since(Instant::now()) {
                std::thread::sleep(wait);
            }
            if !matches!(exit, Exit::Limit) || self.st.cycles >= budget {
                return exit;
            }
        }
    }

    /// Turns the loop's exit into the run's result.
    fn finish(&mut self, exit: Exit, budget: u64) -> Result<StopReason, RunError> {
        match exit {
            Exit::Stop(reason) => Ok(reason),
            Exit::Limit => {
                let fault = Fault::BudgetExceeded {
                    budget,
                    pc: self.core.pc(),
                };
                Err(self.error(fault, true))
            }
            Exit::FaultBefore(mut fault) => {
                if let Fault::PcOutOfProgram { from, program, .. } = &mut fault {
                    *from = self.last_pc();
                    *program = self
                        .program
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(", ");
                }
                Err(self.error(fault, true))
            }
            Exit::FaultAfter(fault) => Err(self.error(fault, false)),
            Exit::Trap { .. } => unreachable!("traps are served in run_until"),
            Exit::Break { .. } => unreachable!("breakpoints are set in run_to_break only"),
            Exit::Event { pc } => {
                let event = self.core.bus_mut().event.take().expect("event recorded");
                let fault = match event {
                    BusEvent::HostCall(v) if is_done(v) => return Ok(StopReason::HostDone),
                    BusEvent::HostCall(v) if is_iteration(v) => {
                        return Ok(StopReason::HostIteration { pc });
                    }
                    BusEvent::InputWait => return Ok(StopReason::InputWait { pc }),
                    BusEvent::HostCall(value) => Fault::UnknownHostCall { value, pc },
                    BusEvent::RomWrite { addr, value } => Fault::RomWrite { addr, value, pc },
                    BusEvent::UnmappedWrite { addr, value } => {
                        Fault::UnmappedWrite { addr, value, pc }
                    }
                    BusEvent::PortWrite { port, value } => {
                        Fault::UnconnectedPort { port, value, pc }
                    }
                };
                Err(self.error(fault, false))
            }
        }
    }

    /// The PC of the last executed instruction of this run.
    fn last_pc(&self) -> Option<u16> {
        let n = self.st.instructions;
        (n > 0).then(|| self.core.bus().ring[((n - 1) as usize) % RECENT])
    }

    /// A run error with the recent trace. `pending`: the fault is at the next instruction
    /// (not executed), which is shown as the last line.
    fn error(&self, fault: Fault, pending: bool) -> RunError {
        let n = self.st.instructions;
        let kept = n.min(RECENT as u64 - u64::from(pending));
        let bus = self.core.bus().machine();
        let pending_entry = pending.then(|| {
            let mut e =
                TraceEntry::new(self.cpu, &bus.mem, fault.pc(), self.symbols.as_ref(), None);
            e.index = n;
            e
        });
        // Each instruction is shown with its bytes as they were when it ran: going back from
        // the newest, the writes into code that it and the later instructions made are undone.
        let mut mem = Box::new(bus.mem);
        let mut log = bus.code_log.newest_first().peekable();
        let mut entries: Vec<TraceEntry> = (n - kept..n)
            .rev()
            .map(|i| {
                while let Some(w) = log.next_if(|w| w.executed > i) {
                    mem[usize::from(w.addr)] = w.old;
                }
                let pc = bus.ring[(i as usize) % RECENT];
                let mut e = TraceEntry::new(self.cpu, &mem, pc, self.symbols.as_ref(), None);
                e.index = i;
                e
            })
            .collect();
        entries.reverse();
        entries.extend(pending_entry);
        RunError {
            fault,
            cycles: self.st.cycles,
            instructions: n,
            trace: RecentTrace {
                entries,
                registers: self.registers(),
            },
        }
    }
}
