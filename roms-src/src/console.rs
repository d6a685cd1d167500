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

use kempelen_asm::source::MemorySource;
use kempelen_asm::{Options, SymbolTable, assemble};
use kempelen_emulator::{ConfigError, Machine, RunError, StopReason};
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
    /// 8 KB).
    pub fn engine_bytes(&self) -> usize {
        usize::from(self.front_end.start - self.origin)
    }

    /// Bytes of the front end on top of the engine.
    pub fn front_end_bytes(&self) -> usize {
        usize::from(self.front_end.end - self.front_end.start)
    }

    /// A Kempelen machine of the port's CPU and memory map with the ROM loaded, ready to run
    /// from its entry point.
    pub fn machine(&self) -> Result<Machine, ConsoleError> {
        Ok(Machine::builder(self.port.cpu)
            .memory_map(self.port.memory_map())
            .load(self.origin, &self.image)
            .entry(self.entry)
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

    /// CPU cycles of all turns so far.
    pub fn cycles(&self) -> u64 {
        self.cycles
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
