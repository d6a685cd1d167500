//! Host glue for Kempelen's hand-written 8-bit chess engines: assembles the sources in this
//! folder and drives them through the host protocol described in `docs/PROTOCOL.md`.
//!
//! - [`tables`]: generator of `z80/tables.inc` and `6502/tables.inc`, the tables shared with the
//!   native engine.
//! - [`setup`]: the position as the protocol block carries it (0x88 board and state).
//! - [`suite`]: EPD suites (with `moves` for repetition histories), such as the bundled one.
//! - [`z80`]: the Z80 engine: assemble, load, run a command, read the result.
//! - [`differential`]: the Z80 engine against the native reference on generated cases.
//! - [`console`]: the console front end (`z80/console.asm`): assemble it, run it, drive it.
//! - [`bench`](mod@bench): the measurements of `kempelen bench --cpu z80` (speed, RAM by depth, profile).

pub mod bench;
pub mod console;
pub mod differential;
pub mod setup;
pub mod suite;
pub mod tables;
pub mod z80;

pub use setup::Setup;
pub use z80::{PerftOutcome, SearchOutcome, Z80Engine, Z80Error};
