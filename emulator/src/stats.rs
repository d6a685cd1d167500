//! What a run measured: exact cycle and instruction counts, how it ended, and RAM use.

use crate::clock::ClockProfile;
use crate::memory::{AddrRange, RegionKind};
use crate::timing::MachineTime;
use std::fmt;
use std::time::Duration;

/// How a run ended without a fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum StopReason {
    /// The program made the host call "done" (`0x00`). The normal end.
    HostDone,
    /// The program made the host call "iteration complete" (`0x01`) at `pc` while the machine
    /// was set to stop at it ([`Machine::set_stop_on_iteration`](crate::Machine::set_stop_on_iteration)).
    /// The instruction was executed; running again resumes after it.
    HostIteration {
        /// Address of the `OUT` / store that made the call.
        pc: u16,
    },
    /// A Z80 `HALT` at `pc` (not executed: the machine has no interrupt source to wake it).
    Halt {
        /// Address of the `HALT`.
        pc: u16,
    },
    /// A 6502 `BRK` at `pc` (not executed: the machine has no monitor to break into).
    Brk {
        /// Address of the `BRK`.
        pc: u16,
    },
    /// A 65C02 `STP` at `pc` (not executed): the W65C02S stops its clock until a reset, and
    /// the machine has no reset to give it.
    ClockStopped {
        /// Address of the `STP`.
        pc: u16,
    },
    /// A 65C02 `WAI` at `pc` while no interrupt was pending (not executed): the W65C02S waits
    /// for an interrupt that nothing in the machine would raise. Raising one
    /// ([`Machine::set_irq`](crate::Machine::set_irq), [`Machine::pulse_nmi`](crate::Machine::pulse_nmi))
    /// and running again executes the `WAI` and goes on (serving the interrupt unless it is
    /// an IRQ while the I flag is set).
    WaitForInterrupt {
        /// Address of the `WAI`.
        pc: u16,
    },
    /// An instruction at `pc` jumped to itself without touching the stack (`JR $`, `JP $`,
    /// `JMP *`, a branch to itself): the program waits forever. The instruction was executed
    /// once and is counted.
    SelfLoop {
        /// Address of the loop.
        pc: u16,
    },
    /// The instruction at `pc` read the console while no input was queued, and the console
    /// was set to stop then ([`Console::set_stop_on_empty_input`](crate::Console::set_stop_on_empty_input)). The
    /// instruction was executed (it read "nothing waiting"); running again resumes after it.
    InputWait {
        /// Address of the `IN` / load that found no input.
        pc: u16,
    },
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StopReason::HostDone => f.write_str("host call: done"),
            StopReason::HostIteration { pc } => {
                write!(f, "host call: iteration complete at ${pc:04X}")
            }
            StopReason::Halt { pc } => write!(f, "HALT at ${pc:04X}"),
            StopReason::Brk { pc } => write!(f, "BRK at ${pc:04X}"),
            StopReason::ClockStopped { pc } => {
                write!(f, "STP at ${pc:04X}: the clock is stopped until a reset")
            }
            StopReason::WaitForInterrupt { pc } => {
                write!(f, "WAI at ${pc:04X}: waiting for an interrupt (IRQ or NMI)")
            }
            StopReason::SelfLoop { pc } => write!(f, "jump to itself at ${pc:04X}"),
            StopReason::InputWait { pc } => write!(f, "waiting for console input at ${pc:04X}"),
        }
    }
}

/// Where a run towards breakpoints ([`Machine::run_to_break`](crate::Machine::run_to_break))
/// paused without a fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Paused {
    /// Its budget of cycles is spent; running again goes on.
    Budget,
    /// The PC reached a breakpoint (the instruction there is not executed yet).
    Break {
        /// The breakpoint's address.
        pc: u16,
    },
    /// The program stopped (see [`StopReason`] for which stops can be resumed).
    Stop(StopReason),
}

/// The result of a run that ended without a fault.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RunStats {
    /// How it ended.
    pub stop: StopReason,
    /// The run's time under the machine's timing model, if it has one (see
    /// [`crate::timing`]); without one the time is the clock's, [`RunStats::time_at`].
    pub machine_time: Option<MachineTime>,
    /// Clock cycles (T-states) of this run, exact.
    pub cycles: u64,
    /// Instructions executed in this run.
    pub instructions: u64,
    /// Reads of unmapped memory or unconnected ports in this run (each gave `0xFF`).
    pub unmapped_reads: u64,
    /// Deepest stack use of this run in bytes, if the stack region is checked.
    pub max_stack_depth: Option<u32>,
    /// Wall-clock time the emulator took (not deterministic; for speed reports only).
    #[serde(skip)]
    pub wall_time: Duration,
}

impl RunStats {
    /// Whether the program ended with the host call "done".
    pub fn is_done(&self) -> bool {
        self.stop == StopReason::HostDone
    }

    /// How long the run would have taken on `machine` at its CPU clock.
    pub fn time_at(&self, machine: &ClockProfile) -> Duration {
        machine.duration(self.cycles)
    }

    /// How long the run took on the machine: under its timing model where it has one, else
    /// at `clock`.
    pub fn time(&self, clock: &ClockProfile) -> Duration {
        self.machine_time
            .map_or_else(|| clock.duration(self.cycles), |t| t.duration())
    }

    /// Emulated MHz: cycles per microsecond of wall-clock time.
    pub fn emulated_mhz(&self) -> f64 {
        let us = self.wall_time.as_secs_f64() * 1e6;
        if us == 0.0 {
            0.0
        } else {
            self.cycles as f64 / us
        }
    }
}

/// CPU writes to one memory region during a run.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RegionUse {
    /// Region name.
    pub name: String,
    /// ROM or RAM.
    pub kind: RegionKind,
    /// The region.
    pub range: AddrRange,
    /// Distinct addresses the CPU wrote (for ROM: attempted writes are faults, so 0).
    pub bytes_written: u32,
}

/// Stack use during a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct StackUse {
    /// The stack region.
    pub region: AddrRange,
    /// Lowest address the stack reached (the low-water mark): top of the region + 1 minus the
    /// deepest depth.
    pub low_water: u32,
    /// Deepest stack use in bytes.
    pub max_depth: u32,
}

/// RAM use of the most recent run: what the RAM-per-ply figures are made of.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RamProfile {
    /// Per region, the distinct addresses the CPU wrote.
    pub regions: Vec<RegionUse>,
    /// The stack, if a stack region is configured.
    pub stack: Option<StackUse>,
    /// Distinct RAM bytes written outside the stack region.
    pub data_bytes: u32,
    /// Peak RAM in use: `data_bytes` plus the deepest stack extent (or, without a stack
    /// region, all distinct RAM bytes written).
    pub peak_bytes: u32,
}

impl fmt::Display for RamProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in &self.regions {
            writeln!(
                f,
                "{} {} {}: {} bytes written",
                r.kind, r.name, r.range, r.bytes_written
            )?;
        }
        if let Some(s) = &self.stack {
            writeln!(
                f,
                "stack {}: {} bytes deep at most, low-water mark ${:04X}",
                s.region, s.max_depth, s.low_water
            )?;
        }
        write!(
            f,
            "peak RAM in use: {} bytes ({} data + stack)",
            self.peak_bytes, self.data_bytes
        )
    }
}
