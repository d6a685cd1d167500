//! The machine that hosts Kempelen's 8-bit builds and measures them exactly.
//!
//! Kempelen runs its hand-written Z80 (and 6502) chess engines inside this crate's
//! [`Machine`]: a CPU core from a well-tested crate behind one narrow trait ([`Core`]), a
//! 64 KB address space cut into ROM, RAM, I/O and unmapped space ([`MemoryMap`]), a console
//! and the host-call device ([`devices`]), and a run loop that counts every cycle and guards
//! against runaway programs (a cycle budget, ROM writes, illegal opcodes, the PC leaving the
//! program, the stack leaving its region). Runs report exact cycles and instructions
//! ([`RunStats`]), the time at a historical machine's clock ([`clock`]), RAM use
//! ([`RamProfile`]) and, when asked, cycles per routine ([`profiler`]) and per source line
//! ([`lines`]) and an instruction trace
//! ([`trace`]). A [`debug::Debugger`] steps, steps over and out, runs to breakpoints and
//! disassembles around the PC with symbols and source lines.
//!
//! The layout follows the hardware: [`core`] (CPUs), [`bus`] (what a CPU sees), [`memory`]
//! (the map), [`devices`], [`machine`] (the run loop), then the measuring parts. The library
//! does no I/O: the console talks to the terminal only through a [`ConsoleHost`] the caller
//! attaches. `docs/MACHINE.md` documents the memory map and devices for program authors.

pub mod bench;
pub mod builder;
pub mod bus;
mod bus_impl;
pub mod clock;
pub mod core;
pub mod cpm;
pub mod cpu_rules;
pub mod debug;
pub mod devices;
pub mod error;
pub mod files;
pub mod lines;
pub mod loaders;
pub mod machine;
pub mod memory;
pub mod personality;
pub mod profiler;
pub mod resolve;
pub mod runner;
mod stack;
pub mod stats;
mod step;
pub mod symbols;
pub mod timing;
pub mod trace;
pub mod traps;

pub use builder::MachineBuilder;
pub use bus::{Bus, FlatBus};
pub use bus_impl::{BusEvent, MachineBus};
pub use clock::{ClockProfile, MACHINES};
pub use core::{Core, Flag, RegisterValue, Registers};
pub use devices::{Console, ConsoleHost, ConsoleRead};
pub use error::{Fault, RunError};
pub use kempelen_isa::{Cpu, SymbolKind, SymbolTable, UnknownCpu};
pub use lines::{LineCost, LineProfile};
pub use machine::{CoreKind, Machine};
pub use memory::{AddrRange, ConfigError, MemoryMap, RegionKind};
pub use personality::{Personality, PersonalityError};
pub use profiler::{InstructionCost, ProfileReport, grouped};
pub use stats::{Paused, RamProfile, RunStats, StopReason};
pub use symbols::Routines;
pub use timing::{MachineTime, Timing, TimingModel};
pub use trace::{TraceEntry, TraceFilter, TraceStore, Tracer};

/// Serializes a [`Cpu`] as its command-line name (`z80`, `6502`).
pub(crate) fn serialize_cpu<S: serde::Serializer>(cpu: &Cpu, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(cpu.name())
}
