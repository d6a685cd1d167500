//! Measuring a port's engine for `kempelen bench --cpu z80|6502`: the deterministic figures behind
//! the speed, memory and profile tables (no I/O, no wall-clock time).
//!
//! - [`speed`]: one search per suite position at a fixed depth: nodes and exact cycles, so
//!   nodes per second at any historical clock is `nodes * clock / cycles`; optionally with the
//!   cycle profiler, merged over all positions ([`ProfileSummary`]).
//! - [`ram_by_depth`]: the peak RAM in use (docs/MACHINE.md: distinct data bytes the CPU wrote
//!   plus the deepest stack) of a search to each depth 1..=D, per position, and
//!   [`RamReport::bytes_per_ply`].
//! - [`category`]: which part of the engine a routine of `engine.asm` belongs to (move
//!   generation, evaluation, search, make/unmake, attack and check tests).
//!
//! - [`report`]: a whole bench of one build ([`measure`] into a [`PortBench`]), its suites
//!   ([`load_suite`]) and the build's [`targets`].
//! - [`text`] and [`json`]: a bench as `kempelen bench --cpu` prints it, tables a section at a
//!   time or JSON, for one build or the CPUs side by side.
//!
//! Searches of different positions are independent, so both measurements spread the positions
//! over `jobs` threads; the results do not depend on it.

mod figures;
pub mod json;
pub mod report;
pub mod text;

pub use figures::{
    BenchError, BenchPosition, Category, MachineSpeed, ProfileSummary, RamReport, RamRow,
    RoutineCycles, SpeedReport, SpeedRow, category, machine_speed, models_for, positions,
    ram_by_depth, speed,
};
pub use report::{
    BenchPlan, BenchSuite, MeasureError, PortBench, Targets, load_suite, measure, targets,
};
