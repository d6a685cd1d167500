//! Host glue for Kempelen's hand-written 8-bit chess engines: assembles the sources of each
//! port folder (`z80/`, `6502/`) and drives them through the host protocol described in
//! `docs/PROTOCOL.md`. The code is CPU-neutral; a [`port::Port`] describes what differs.
//!
//! - [`port`]: the description of each port (sources, load and entry, memory map, ROM limit,
//!   machines, table writer) and which ports' sources are present.
//! - [`tables`]: generator of `z80/tables.inc` and `6502/tables.inc`, the tables shared with the
//!   native engine.
//! - [`layout`]: where a build lies in memory (the bases of `layout.inc`), the Kempelen
//!   machine's or a target machine's.
//! - [`setup`]: the position as the protocol block carries it (0x88 board and state).
//! - [`suite`]: EPD suites (with `moves` for repetition histories), such as the bundled one.
//! - [`engine`]: a port's engine: assemble, load, run a command, read the result.
//! - [`sliced`] (a part of [`engine`]): a port engine's search driven by the host one slice of
//!   cycles at a time.
//! - [`inspect`]: a port engine's state read from the machine (board, ply frames, routine),
//!   and its search followed node by node.
//! - [`differential`]: a port's engine against the native reference on generated cases.
//! - [`console`]: a port's console front end (`console.asm`): assemble it, run it, drive it.
//! - [`target`]: the target machines (CP/M, ZX Spectrum, MSX, TRS-80, C64, Apple II, Atari
//!   800, KIM-1, py65): the console game as a program file in each machine's format
//!   ([`formats`]), `kempelen build --target T`.
//! - [`bench`](mod@bench): the measurements of `kempelen bench --cpu z80|6502` (speed, RAM by
//!   depth, profile).
//! - [`compare`]: the builds against the native reference, row by row (`kempelen compare`,
//!   the page's compare view).
//! - [`player`]: the builds as tournament players (`z80`, `6502`).
//! - [`snippets`]: the guided examples of the assembler to try (`roms-src/snippets/`), some
//!   taking routines of the engine's own sources.

pub mod bench;
pub mod compare;
pub mod console;
pub mod differential;
pub mod engine;
pub mod formats;
pub mod inspect;
pub mod layout;
pub mod player;
pub mod port;
pub mod setup;
pub mod snippets;
pub mod suite;
pub mod tables;
pub mod target;

pub use engine::sliced::{self, Slice, SlicedSearch};
pub use engine::{PerftOutcome, PortEngine, PortEngineError, SearchOutcome};
pub use port::{PORTS, Port};
pub use setup::Setup;

/// A generated file checked in (`path` below this crate's folder) must be exactly `want`, the
/// generator's text; with `KEMPELEN_BLESS=1` it is rewritten first.
#[cfg(test)]
pub(crate) fn assert_checked_in(path: &str, want: &str) {
    let path = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("KEMPELEN_BLESS").is_some() {
        std::fs::write(&path, want).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "{path} is stale: run with KEMPELEN_BLESS=1 (or `kempelen gen-tables` for tables.inc)"
    );
}
