//! A debugger over an adapted program's turn: the program set up in a position the way its
//! adaptor sets it up for a game ([`crate::AdaptorEngine`]), then paused where its turn begins,
//! the keys that make it move typed. From there it is stepped, stepped over and out of, run to
//! a label of its listing or to a line, to breakpoints, or on; at every stop the
//! [`StopView`] gives the source line with its author's comment, the instruction and its
//! cycles, the registers and flags, and the variables its adaptor file declares, decoded.
//!
//! Nothing reads the host's clock: the same calls give the same stops on every host, and a
//! stop is reproduced from the program, the position and the turn's cycles alone
//! ([`Session::seek`]): what a link to a paused program holds.
//!
//! ```no_run
//! # use std::sync::Arc;
//! # use kempelen_adaptor::{Adaptor, session::Session};
//! # fn demo(adaptor: Adaptor) -> Result<(), Box<dyn std::error::Error>> {
//! let game = kempelen_engine::Game::default();
//! let mut s = Session::open(Arc::new(adaptor), &game, Some(2))?;
//! let at = s.resolve("FNDMOV")?;
//! s.run_to(at, u64::MAX)?;
//! let stop = s.view();
//! println!("{} {}", stop.cycles, stop.source.map(|l| l.text).unwrap_or_default());
//! # Ok(()) }
//! ```

use std::sync::Arc;

use kempelen_emulator::core::RegisterValue;
use kempelen_emulator::debug::{DebugStop, Debugger, DisasmLine, Why};
use kempelen_emulator::{Flag, Machine, StopReason};
use kempelen_engine::{Game, piece::WHITE};
use serde::Serialize;

use crate::description::Adaptor;
use crate::engine::{fresh_actions, level_of};
use crate::lessons::LessonStep;
use crate::machine::{output, prepare_search};
use crate::variables::{Context, VariableValue, count_values, counters_decoded};

/// Why a session cannot go on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    /// The program could not be set up in the position.
    #[error("{0}")]
    Setup(String),
    /// A place to run to that the program's listing does not have.
    #[error(
        "`{0}`: no label, line or address of the program (a label, LABEL+offset, $ADDRESS, or FILE:LINE / :LINE)"
    )]
    Target(String),
    /// The machine faulted.
    #[error("{0}")]
    Machine(String),
}

/// A program paused in its turn.
pub struct Session {
    adaptor: Arc<Adaptor>,
    machine: Machine,
    debugger: Debugger,
    game: Game,
    level: Option<u32>,
    program_black: bool,
    /// The machine's cycles when the turn began.
    start: u64,
    /// The turn is over: the program waits for input again.
    over: bool,
    /// What the program printed in the turn.
    printed: String,
}

/// The source line at an address: where, its text, and the author's comment apart.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SourceView {
    /// The file.
    pub file: String,
    /// Its line (from 1).
    pub line: u32,
    /// The whole line as written.
    pub text: String,
    /// The line without its comment.
    pub code: String,
    /// The comment, as printed (without the `;`).
    pub comment: Option<String>,
}

/// Everything at a stop.
#[derive(Clone, Debug, Serialize)]
pub struct StopView {
    /// The program.
    pub program: String,
    /// The turn's cycles so far (the machine's time in its turn: cycles at its clock).
    pub cycles: u64,
    /// The machine's clock in MHz.
    pub mhz: f64,
    /// The PC.
    pub pc: u16,
    /// The label at the PC, if one is there.
    pub label: Option<String>,
    /// `ROUTINE+offset`.
    pub routine: Option<String>,
    /// The source line that put the instruction there.
    pub source: Option<SourceView>,
    /// Where a listing laid over a binary does not explain the code here: what it says.
    pub differs: Option<String>,
    /// The instruction (`LD A,(NPLY)`) with the listing's names.
    pub instruction: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// Its cycles from the table (`7/12`: not taken / taken).
    pub instruction_cycles: String,
    /// The registers the core shows.
    pub registers: Vec<RegisterValue>,
    /// The flags.
    pub flags: Option<Vec<Flag>>,
    /// The declared variables, decoded.
    pub variables: Vec<VariableValue>,
    /// The turn is over (the program answered).
    pub over: bool,
}

/// A line's code and its comment: the text after the first `;` outside quotes.
pub fn split_comment(text: &str) -> (String, Option<String>) {
    let mut quote: Option<char> = None;
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, ';') => {
                let comment = text[i + 1..].trim();
                return (
                    text[..i].trim_end().to_string(),
                    (!comment.is_empty()).then(|| comment.to_string()),
                );
            }
            _ => {}
        }
    }
    (text.trim_end().to_string(), None)
}

impl Session {
    /// The program of `adaptor` set up in `game` (the program to move) at `depth` (its level;
    /// `None`: its default), paused at the start of its turn.
    pub fn open(
        adaptor: Arc<Adaptor>,
        game: &Game,
        depth: Option<u32>,
    ) -> Result<Session, SessionError> {
        Session::open_on(adaptor, game, depth, true)
    }

    /// [`Session::open`], a Z80 on the core that shows every register (`all_registers`: the
    /// debugger's) or on the fast one (a run that reads only memory and the registers the
    /// fast core shows, such as a tree's; the two run the same cycles).
    pub fn open_on(
        adaptor: Arc<Adaptor>,
        game: &Game,
        depth: Option<u32>,
        all_registers: bool,
    ) -> Result<Session, SessionError> {
        let pos = game.position();
        if pos.legal_moves().is_empty() {
            return Err(SessionError::Setup(format!(
                "{}: the side to move has no legal move",
                adaptor.name
            )));
        }
        let level = level_of(&adaptor, depth);
        let actions =
            fresh_actions(&adaptor, game, level).map_err(|e| SessionError::Setup(e.to_string()))?;
        let machine = prepare_search(&adaptor, actions, all_registers)
            .map_err(|e| SessionError::Setup(e.to_string()))?;
        let debugger = Debugger::new().with_sources(adaptor.program.lines.clone());
        Ok(Session {
            start: machine.total_cycles(),
            machine,
            debugger,
            game: game.clone(),
            level,
            program_black: pos.side() != WHITE,
            adaptor,
            over: false,
            printed: String::new(),
        })
    }

    /// The adaptor.
    pub fn adaptor(&self) -> &Adaptor {
        &self.adaptor
    }

    /// The game the program plays in.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Its level.
    pub fn level(&self) -> Option<u32> {
        self.level
    }

    /// Whether the program plays Black.
    pub fn program_black(&self) -> bool {
        self.program_black
    }

    /// The turn's cycles so far.
    pub fn cycles(&self) -> u64 {
        self.machine.total_cycles() - self.start
    }

    /// Whether the turn is over (the program waits for input again).
    pub fn over(&self) -> bool {
        self.over
    }

    /// What the program printed in its turn so far.
    pub fn printed(&mut self) -> &str {
        let more = output(&mut self.machine);
        self.printed.push_str(&more);
        &self.printed
    }

    /// The machine.
    pub fn machine(&self) -> &Machine {
        &self.machine
    }

    /// The machine, to run on directly (a tree collector runs the turn this way).
    pub fn machine_mut(&mut self) -> &mut Machine {
        &mut self.machine
    }

    /// The debugger: its breakpoints, its goal.
    pub fn debugger(&mut self) -> &mut Debugger {
        &mut self.debugger
    }

    /// An address of the program: a label (`FNDMOV`), a label with an offset (`FM30+9`), an
    /// address (`$1A00`, `0x1A00`), or a line of its source (`sargon2.asm:1715`, `:1715`;
    /// a line without code stands for the first line of code after it).
    pub fn resolve(&self, target: &str) -> Result<u16, SessionError> {
        let t = target.trim();
        let err = || SessionError::Target(t.to_string());
        if let Some((file, line)) = t.rsplit_once(':') {
            let line: u32 = line.trim().parse().map_err(|_| err())?;
            return self.line_address(file.trim(), line).ok_or_else(err);
        }
        if let Some(hex) = t.strip_prefix('$').or_else(|| t.strip_prefix("0x")) {
            return u16::from_str_radix(hex, 16).map_err(|_| err());
        }
        let (name, offset) = match t.rsplit_once('+') {
            Some((n, o)) => (n.trim(), o.trim().parse::<u16>().map_err(|_| err())?),
            None => (t, 0),
        };
        let symbols = &self.adaptor.program.symbols;
        let found = symbols.get(name).or_else(|| {
            symbols
                .iter()
                .find(|s| s.name.eq_ignore_ascii_case(name))
                .map(|s| s.value)
        });
        found.map(|a| a.wrapping_add(offset)).ok_or_else(err)
    }

    /// The address of the first code at or after `line` of `file` (any file when empty).
    fn line_address(&self, file: &str, line: u32) -> Option<u16> {
        let lines = &self.adaptor.program.lines;
        let of_file =
            |f: &str| file.is_empty() || f == file || f.rsplit(['/', '\\']).next() == Some(file);
        lines
            .iter()
            .filter(|l| l.code && of_file(&l.file) && l.line >= line)
            .min_by_key(|l| (l.line, l.addr))
            .map(|l| l.addr)
    }

    /// A debugger's stop, noting the end of the turn.
    fn done(
        &mut self,
        r: Result<DebugStop, kempelen_emulator::RunError>,
    ) -> Result<DebugStop, SessionError> {
        let s = r.map_err(|e| SessionError::Machine(e.to_string()))?;
        if let Why::Stopped(StopReason::InputWait { .. }) = s.why {
            self.over = true;
        }
        Ok(s)
    }

    /// One instruction.
    pub fn step(&mut self) -> Result<DebugStop, SessionError> {
        let r = self.debugger.step(&mut self.machine);
        self.done(r)
    }

    /// Over a call (within `budget` cycles; the goal stays set when the budget ends first).
    pub fn step_over(&mut self, budget: u64) -> Result<DebugStop, SessionError> {
        let r = self.debugger.step_over(&mut self.machine, budget);
        self.done(r)
    }

    /// Out of the routine.
    pub fn step_out(&mut self, budget: u64) -> Result<DebugStop, SessionError> {
        let r = self.debugger.step_out(&mut self.machine, budget);
        self.done(r)
    }

    /// On to `addr` (or a breakpoint).
    pub fn run_to(&mut self, addr: u16, budget: u64) -> Result<DebugStop, SessionError> {
        let r = self.debugger.run_to(&mut self.machine, addr, budget);
        self.done(r)
    }

    /// On to a breakpoint or the end of the turn.
    pub fn run(&mut self, budget: u64) -> Result<DebugStop, SessionError> {
        let r = self.debugger.run(&mut self.machine, budget);
        self.done(r)
    }

    /// On with the goal set before, for at most `budget` cycles.
    pub fn resume(&mut self, budget: u64) -> Result<DebugStop, SessionError> {
        let r = self.debugger.resume(&mut self.machine, budget);
        self.done(r)
    }

    /// On to the turn's cycle count `cycles` (no breakpoints), at most `budget` cycles now:
    /// whether it is reached (or the turn ended first). Run from a freshly opened session, it
    /// reproduces the stop at which `cycles` was read.
    pub fn seek(&mut self, cycles: u64, budget: u64) -> Result<bool, SessionError> {
        while !self.over && self.cycles() < cycles {
            let left = (cycles - self.cycles()).min(budget.max(1));
            let before = self.cycles();
            let paused = self
                .machine
                .run_to_break(left, &[], false)
                .map_err(|e| SessionError::Machine(e.to_string()))?;
            if let kempelen_emulator::Paused::Stop(r) = paused {
                if matches!(r, StopReason::InputWait { .. }) {
                    self.over = true;
                } else {
                    return Err(SessionError::Machine(format!("the program stopped: {r}")));
                }
            }
            if self.cycles() < cycles && self.cycles() - before >= budget {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// On to the entry of `step`'s routine that the step names (its `hit`th where its
    /// condition holds), within `budget` cycles in all: whether it was reached.
    pub fn run_to_lesson(&mut self, step: &LessonStep, budget: u64) -> Result<bool, SessionError> {
        let end = self.cycles().saturating_add(budget);
        let mut hits = 0;
        while !self.over && self.cycles() < end {
            let s = self.run_to(step.at, end - self.cycles())?;
            if s.why != Why::Done || self.machine.pc() != step.at {
                continue;
            }
            let holds = match &step.when {
                Some(w) => {
                    w.eval(&self.machine)
                        .map_err(|e| SessionError::Machine(e.to_string()))?
                        != 0
                }
                None => true,
            };
            if holds {
                hits += 1;
                if hits == step.hit {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// The counters' values now (`[[count]]`).
    pub fn counters(&self) -> Vec<(String, i64)> {
        count_values(self.adaptor.counters(), &self.machine)
    }

    /// The declared counters and variables, decoded now.
    pub fn variables(&self) -> Vec<VariableValue> {
        let counters = self.counters();
        let cx = Context {
            adaptor: &self.adaptor,
            program_black: self.program_black,
            counters: &counters,
        };
        let mut out = counters_decoded(self.adaptor.counters(), &counters);
        out.extend(
            self.adaptor
                .variables()
                .iter()
                .map(|v| v.decode(&self.machine, &cx)),
        );
        out
    }

    /// The disassembly around the PC, each instruction with its source line.
    pub fn disassembly(&self, before: usize, after: usize) -> Vec<DisasmLine> {
        self.debugger
            .disassembly(&self.machine, self.machine.pc(), before, after)
    }

    /// Everything at the PC now.
    pub fn view(&self) -> StopView {
        let m = &self.machine;
        let pc = m.pc();
        let line = self.debugger.disassembly(m, pc, 0, 1).into_iter().next();
        let source = self.adaptor.program.lines.at(pc).map(|l| {
            let (code, comment) = split_comment(&l.text);
            SourceView {
                file: l.file.to_string(),
                line: l.line,
                text: l.text.to_string(),
                code,
                comment,
            }
        });
        let differs = match self.adaptor.listing() {
            Some(Ok(map)) => map.difference_at(pc).map(|d| {
                format!(
                    "${:04X}-${:04X}: the binary differs from {} here{}",
                    d.first,
                    d.last,
                    map.file,
                    d.after
                        .as_deref()
                        .map(|a| format!(" (after {a})"))
                        .unwrap_or_default()
                )
            }),
            _ => None,
        };
        let regs = m.registers();
        StopView {
            program: self.adaptor.name.clone(),
            cycles: self.cycles(),
            mhz: self.adaptor.clock.mhz,
            pc,
            label: line.as_ref().and_then(|l| l.label.clone()),
            routine: line.as_ref().and_then(|l| l.routine.clone()),
            source,
            differs,
            instruction: line.as_ref().map(|l| l.text.clone()).unwrap_or_default(),
            bytes: line.as_ref().map(|l| l.bytes.clone()).unwrap_or_default(),
            instruction_cycles: line.map(|l| l.cycles).unwrap_or_default(),
            registers: regs.values(),
            flags: regs.flags(),
            variables: self.variables(),
            over: self.over,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_are_split_outside_quotes() {
        assert_eq!(
            split_comment("FNDMOV: LDA     MOVENO          ; Current move number"),
            (
                "FNDMOV: LDA     MOVENO".to_string(),
                Some("Current move number".to_string())
            )
        );
        assert_eq!(
            split_comment("        .ASCII  'A;B'   ; a quote"),
            (
                "        .ASCII  'A;B'".to_string(),
                Some("a quote".to_string())
            )
        );
        assert_eq!(split_comment("  RTS"), ("  RTS".to_string(), None));
    }
}
