//! The console front end, `z80/console.asm`: Kempelen's chess played on a character console
//! the way Microchess and Sargon were, with every part of the game inside the Z80 (board
//! diagram, move input and legality, the engine's reply, mate, stalemate and draws).
//!
//! This module only builds and hosts it: [`ConsoleRom::assemble`] assembles the sources
//! bundled into this crate with Kempelen's assembler, [`ConsoleRom::machine`] loads the ROM
//! into Kempelen's machine (default Z80 memory map, entry at `$0000`), and
//! [`ConsoleSession`] drives the program through its console turn by turn, for tests and
//! scripts: queue a line, run until the program waits for the next one, read what it printed.
//! `kempelen play` attaches the same machine to the terminal instead.

use std::ops::Range;

use kempelen_asm::source::MemorySource;
use kempelen_asm::{Cpu, Options, SymbolTable, assemble};
use kempelen_emulator::{ConfigError, Machine, RunError, StopReason};
use thiserror::Error;

/// The sources of the front end and of the engine it includes, bundled at compile time so
/// the ROM can be built anywhere (`tests/console.rs` checks the list against the folder).
pub const SOURCES: &[(&str, &str)] = &[
    ("console.asm", include_str!("../z80/console.asm")),
    ("console_ram.inc", include_str!("../z80/console_ram.inc")),
    ("console_main.inc", include_str!("../z80/console_main.inc")),
    ("console_game.inc", include_str!("../z80/console_game.inc")),
    ("console_fen.inc", include_str!("../z80/console_fen.inc")),
    ("console_io.inc", include_str!("../z80/console_io.inc")),
    ("ram.inc", include_str!("../z80/ram.inc")),
    ("setup.inc", include_str!("../z80/setup.inc")),
    ("page0.inc", include_str!("../z80/page0.inc")),
    ("tables.inc", include_str!("../z80/tables.inc")),
    ("zhole1.inc", include_str!("../z80/zhole1.inc")),
    ("zhole2.inc", include_str!("../z80/zhole2.inc")),
    ("zhole3.inc", include_str!("../z80/zhole3.inc")),
    ("zhole4.inc", include_str!("../z80/zhole4.inc")),
    ("board.inc", include_str!("../z80/board.inc")),
    ("movegen.inc", include_str!("../z80/movegen.inc")),
    ("make.inc", include_str!("../z80/make.inc")),
    ("search.inc", include_str!("../z80/search.inc")),
    ("perft.inc", include_str!("../z80/perft.inc")),
];

/// The main source file among [`SOURCES`].
pub const MAIN: &str = "console.asm";

/// Cycle budget of one turn of a [`ConsoleSession`] (a search at a high depth needs more).
pub const DEFAULT_TURN_BUDGET: u64 = 20_000_000_000;

/// What went wrong building or running the front end.
#[derive(Debug, Error)]
pub enum ConsoleError {
    /// The sources did not assemble (the assembler's report, with file:line:col).
    #[error("assembling {MAIN}:\n{0}")]
    Assemble(String),
    /// A symbol the host needs is missing from the assembly.
    #[error("the assembly of {MAIN} has no symbol `{0}`")]
    MissingSymbol(&'static str),
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
    /// A line was sent after the program had ended (`q`).
    #[error("the front end has ended; it reads no more input")]
    Ended,
}

/// The assembled front end.
#[derive(Debug, Clone)]
pub struct ConsoleRom {
    /// The ROM image, loaded at `$0000`.
    pub image: Vec<u8>,
    /// The assembler's symbols.
    pub symbols: SymbolTable,
    /// Where the front end's own code and data lie (`con_begin..con_end`); everything before
    /// `con_begin` is the engine of `engine.asm` and its tables.
    pub front_end: Range<u16>,
}

impl ConsoleRom {
    /// Assembles the bundled sources with Kempelen's assembler.
    pub fn assemble() -> Result<ConsoleRom, ConsoleError> {
        let mut source = MemorySource::new();
        for (name, text) in SOURCES {
            source.add(name, text.as_bytes());
        }
        let out = assemble(MAIN, &source, &Options::new(Cpu::Z80));
        if !out.is_ok() {
            return Err(ConsoleError::Assemble(out.report()));
        }
        let symbol = |name: &'static str| {
            out.symbols
                .get(name)
                .ok_or(ConsoleError::MissingSymbol(name))
        };
        let front_end = symbol("con_begin")?..symbol("con_end")?;
        Ok(ConsoleRom {
            image: out.image.bytes.clone(),
            symbols: out.symbols.clone(),
            front_end,
        })
    }

    /// Bytes of the engine part: reset jump, tables and the engine's code (must stay within
    /// 8 KB).
    pub fn engine_bytes(&self) -> usize {
        usize::from(self.front_end.start)
    }

    /// Bytes of the front end on top of the engine.
    pub fn front_end_bytes(&self) -> usize {
        usize::from(self.front_end.end - self.front_end.start)
    }

    /// A Kempelen Z80 machine (default memory map: ROM `$0000-$3FFF`, RAM above) with the ROM
    /// loaded at `$0000`, ready to run from its entry point.
    pub fn machine(&self) -> Result<Machine, ConsoleError> {
        Ok(Machine::builder(Cpu::Z80)
            .load(0, &self.image)
            .symbols(self.symbols.clone())
            .build()?)
    }
}

/// The front end in a machine with a scripted console, driven one line at a time.
pub struct ConsoleSession {
    machine: Machine,
    ended: bool,
    cycles: u64,
    /// Cycle budget of one turn.
    pub turn_budget: u64,
}

impl ConsoleSession {
    /// Starts the program and runs it to its first prompt; returns the session and what the
    /// program printed (banner, board, prompt).
    pub fn start(rom: &ConsoleRom) -> Result<(ConsoleSession, String), ConsoleError> {
        let mut machine = rom.machine()?;
        machine.console_mut().set_stop_on_empty_input(true);
        let mut session = ConsoleSession {
            machine,
            ended: false,
            cycles: 0,
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

    /// Z80 cycles of all turns so far.
    pub fn cycles(&self) -> u64 {
        self.cycles
    }

    /// The machine (for reading RAM or the RAM profile).
    pub fn machine(&self) -> &Machine {
        &self.machine
    }

    fn run(&mut self) -> Result<String, ConsoleError> {
        let result = self.machine.run(self.turn_budget);
        let output =
            String::from_utf8_lossy(&self.machine.console_mut().take_output()).into_owned();
        match result {
            Ok(stats) => {
                self.cycles += stats.cycles;
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
