//! The debugger: step one instruction, step over a call, step out of a routine, run to an
//! address or a symbol, breakpoints; the disassembly around the PC with symbols and source
//! lines. What 8bitworkshop offers for a program in a page, over a [`Machine`].
//!
//! A [`Debugger`] holds the breakpoints and the goal being pursued ([`Goal`]); each call of
//! [`Debugger::resume`] pursues it for at most a budget of cycles and says where it paused
//! ([`DebugStop`]). A goal that needs more than one budget (stepping over a search) stays set,
//! and the next call goes on with it, so a host without threads (a page's Web Worker) keeps
//! answering between two calls. Nothing reads the host's clock: the same calls give the same
//! cycles and the same stops on every host.
//!
//! ```
//! use kempelen_emulator::debug::{Debugger, Why};
//! use kempelen_emulator::{Cpu, MachineBuilder};
//!
//! // $0200: JSR $0206 / BRK ... $0206: LDX #3 / loop: DEX / BNE loop / RTS
//! let code = [0x20, 0x06, 0x02, 0x00, 0xEA, 0xEA, 0xA2, 0x03, 0xCA, 0xD0, 0xFD, 0x60];
//! let mut m = MachineBuilder::new(Cpu::Mos6502).load(0x0200, &code).entry(0x0200).build().unwrap();
//! let mut d = Debugger::new();
//! let s = d.step(&mut m).unwrap();
//! assert_eq!((s.why, s.cycles, m.pc()), (Why::Done, 6, 0x0206)); // JSR: 6 cycles
//! let s = d.step_out(&mut m, 1_000).unwrap();
//! assert_eq!((s.why, m.pc()), (Why::Done, 0x0203));
//! assert_eq!(s.cycles, 2 + 3 * 2 + 2 * 3 + 2 + 6); // LDX, 3 DEX, BNE taken twice, not once, RTS
//! ```

use std::collections::BTreeSet;

use crate::error::RunError;
use crate::machine::Machine;
use crate::stats::{Paused, StopReason};
use crate::{Cpu, SymbolTable};
use kempelen_isa::source_map::SourceMap;

/// What the debugger is asked to reach.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Goal {
    /// Run until a breakpoint or until the program stops.
    Continue,
    /// Run one instruction.
    Step,
    /// Run over a call: until the instruction after it, `to`, with the stack pointer back at
    /// `sp` or above it (a recursive routine passes `to` deeper down first).
    Over {
        /// The instruction after the call.
        to: u16,
        /// The stack pointer before the call.
        sp: u16,
    },
    /// Run until the current routine returns: until a return instruction leaves the stack
    /// pointer above `sp`, its value when the goal was set.
    Out {
        /// The stack pointer when the goal was set.
        sp: u16,
    },
    /// Run until the PC reaches this address.
    To(u16),
}

/// Why [`Debugger::resume`] paused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Why {
    /// The goal is reached.
    Done,
    /// The budget is spent and the goal is not reached: [`Debugger::resume`] goes on.
    Budget,
    /// A breakpoint was reached first (the goal is dropped).
    Breakpoint(u16),
    /// The program stopped (the goal is dropped; see [`StopReason`] for what can resume).
    Stopped(StopReason),
}

/// Where a call of the debugger paused, and what it cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct DebugStop {
    /// Why.
    pub why: Why,
    /// The PC now (the next instruction, not executed).
    pub pc: u16,
    /// Cycles this call ran, exact.
    pub cycles: u64,
    /// Instructions this call ran.
    pub instructions: u64,
}

/// A symbol that is not in the program's symbol table.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no symbol '{0}' in the program")]
pub struct UnknownSymbol(pub String);

/// Breakpoints, the goal being pursued and the program's source map.
#[derive(Debug, Clone, Default)]
pub struct Debugger {
    breakpoints: BTreeSet<u16>,
    goal: Option<Goal>,
    /// The goal was set and not pursued yet: a breakpoint at the PC lets its instruction run.
    fresh: bool,
    sources: Option<SourceMap>,
}

/// How much deeper the stack is at `sp` than at `sp0` (negative: shallower), in bytes.
fn depth_below(cpu: Cpu, sp0: u16, sp: u16) -> i32 {
    match cpu {
        Cpu::Z80 => i32::from(sp0.wrapping_sub(sp) as i16),
        Cpu::Mos6502 | Cpu::Cmos65c02 => i32::from((sp0 as u8).wrapping_sub(sp as u8) as i8),
    }
}

/// Whether the instruction at `pc` is a call (Z80 `CALL`, `RST`; 6502 `JSR`), and its length.
fn call_at(m: &Machine, pc: u16) -> Option<u16> {
    let d = decode(m, pc);
    matches!(d.mnemonic, "CALL" | "RST" | "JSR").then_some(u16::from(d.len))
}

/// Whether the instruction at `pc` is a return (`RET`, `RET cc`, `RETI`, `RETN`, `RTS`, `RTI`).
fn return_at(m: &Machine, pc: u16) -> bool {
    matches!(
        decode(m, pc).mnemonic,
        "RET" | "RETI" | "RETN" | "RTS" | "RTI"
    )
}

fn decode(m: &Machine, pc: u16) -> kempelen_isa::Decoded {
    let window = m.read_bytes(pc, 4);
    // Four bytes always hold a whole instruction.
    kempelen_isa::decode_with(m.cpu(), &window, pc, m.symbols()).expect("4 bytes decode")
}

impl Debugger {
    /// A debugger without breakpoints, goal or sources.
    pub fn new() -> Debugger {
        Debugger::default()
    }

    /// Shows `sources` beside the disassembly ([`Debugger::disassembly`]).
    pub fn with_sources(mut self, sources: SourceMap) -> Debugger {
        self.sources = Some(sources);
        self
    }

    /// The source map, if one was given.
    pub fn sources(&self) -> Option<&SourceMap> {
        self.sources.as_ref()
    }

    /// Sets a breakpoint at `addr`.
    pub fn set_breakpoint(&mut self, addr: u16) {
        self.breakpoints.insert(addr);
    }

    /// Removes the breakpoint at `addr`; whether there was one.
    pub fn clear_breakpoint(&mut self, addr: u16) -> bool {
        self.breakpoints.remove(&addr)
    }

    /// The breakpoints, ascending.
    pub fn breakpoints(&self) -> Vec<u16> {
        self.breakpoints.iter().copied().collect()
    }

    /// The goal being pursued, if any.
    pub fn goal(&self) -> Option<Goal> {
        self.goal
    }

    /// Drops the goal (a pause button).
    pub fn cancel(&mut self) {
        self.goal = None;
    }

    /// Sets `goal` without running (see [`Debugger::resume`]).
    pub fn set_goal(&mut self, goal: Goal) {
        self.goal = Some(goal);
        self.fresh = true;
    }

    /// Runs one instruction.
    pub fn step(&mut self, m: &mut Machine) -> Result<DebugStop, RunError> {
        self.set_goal(Goal::Step);
        self.resume(m, 1)
    }

    /// Steps over the instruction at the PC: a call runs until it returns (within `budget`
    /// cycles for this call), anything else is one step.
    pub fn step_over(&mut self, m: &mut Machine, budget: u64) -> Result<DebugStop, RunError> {
        let pc = m.pc();
        self.set_goal(match call_at(m, pc) {
            Some(len) => Goal::Over {
                to: pc.wrapping_add(len),
                sp: m.sp(),
            },
            None => Goal::Step,
        });
        self.resume(m, budget)
    }

    /// Runs until the current routine returns.
    pub fn step_out(&mut self, m: &mut Machine, budget: u64) -> Result<DebugStop, RunError> {
        self.set_goal(Goal::Out { sp: m.sp() });
        self.resume(m, budget)
    }

    /// Runs until the PC reaches `addr`.
    pub fn run_to(
        &mut self,
        m: &mut Machine,
        addr: u16,
        budget: u64,
    ) -> Result<DebugStop, RunError> {
        self.set_goal(Goal::To(addr));
        self.resume(m, budget)
    }

    /// Runs until the PC reaches the symbol `name` (a routine's label).
    pub fn run_to_symbol(
        &mut self,
        m: &mut Machine,
        name: &str,
        budget: u64,
    ) -> Result<Result<DebugStop, RunError>, UnknownSymbol> {
        let addr = symbol(m.symbols(), name)?;
        Ok(self.run_to(m, addr, budget))
    }

    /// Runs until a breakpoint or a stop.
    pub fn run(&mut self, m: &mut Machine, budget: u64) -> Result<DebugStop, RunError> {
        self.set_goal(Goal::Continue);
        self.resume(m, budget)
    }

    /// Pursues the goal for at most `budget` cycles (the last instruction may end a few cycles
    /// past it). Without a goal it does nothing and says [`Why::Done`].
    pub fn resume(&mut self, m: &mut Machine, budget: u64) -> Result<DebugStop, RunError> {
        let (c0, i0) = (m.total_cycles(), m.total_instructions());
        let leave = std::mem::replace(&mut self.fresh, false);
        let why = match self.goal {
            None => Ok(Why::Done),
            Some(Goal::Step) => m.run_to_break(1, &[], false).map(|p| self.why(p, None)),
            Some(Goal::Continue) => self.run_breaks(m, budget, None, leave),
            Some(Goal::To(a)) => self.run_breaks(m, budget, Some(a), leave),
            Some(Goal::Over { to, sp }) => self.over(m, budget, to, sp, leave),
            Some(Goal::Out { sp }) => self.out(m, budget, sp),
        };
        let why = why.inspect_err(|_| self.goal = None)?;
        if why != Why::Budget {
            self.goal = None;
        }
        Ok(DebugStop {
            why,
            pc: m.pc(),
            cycles: m.total_cycles() - c0,
            instructions: m.total_instructions() - i0,
        })
    }

    /// What a pause means for the goal; `target`: the address the goal runs to.
    fn why(&self, p: Paused, target: Option<u16>) -> Why {
        match p {
            Paused::Budget if self.goal == Some(Goal::Step) => Why::Done,
            Paused::Budget => Why::Budget,
            Paused::Break { pc } if Some(pc) == target => Why::Done,
            Paused::Break { pc } => Why::Breakpoint(pc),
            Paused::Stop(r) => Why::Stopped(r),
        }
    }

    /// Runs to the breakpoints and `target`; `leave`: a breakpoint at the PC lets its
    /// instruction run (see [`Machine::run_to_break`]).
    fn run_breaks(
        &self,
        m: &mut Machine,
        budget: u64,
        target: Option<u16>,
        leave: bool,
    ) -> Result<Why, RunError> {
        let mut breaks = self.breakpoints();
        breaks.extend(target);
        m.run_to_break(budget, &breaks, leave)
            .map(|p| self.why(p, target))
    }

    /// [`Goal::Over`]: to `to` with the stack no deeper than `sp`.
    fn over(
        &self,
        m: &mut Machine,
        budget: u64,
        to: u16,
        sp: u16,
        mut leave: bool,
    ) -> Result<Why, RunError> {
        let end = m.total_cycles().saturating_add(budget);
        loop {
            let left = end.saturating_sub(m.total_cycles()).max(1);
            let why = self.run_breaks(m, left, Some(to), leave)?;
            let deeper = depth_below(m.cpu(), sp, m.sp()) > 0;
            match why {
                // A deeper call returned to `to`: on from there.
                Why::Done if deeper && m.total_cycles() < end => leave = true,
                Why::Done if deeper => {
                    // Stopped at `to` by the budget's end in effect: the next call leaves it.
                    return Ok(Why::Budget);
                }
                why => return Ok(why),
            }
        }
    }

    /// [`Goal::Out`]: instruction by instruction until a return leaves the stack above `sp`.
    fn out(&self, m: &mut Machine, budget: u64, sp: u16) -> Result<Why, RunError> {
        let end = m.total_cycles().saturating_add(budget);
        loop {
            let pc = m.pc();
            let returns = return_at(m, pc);
            if let Paused::Stop(r) = m.run_to_break(1, &[], false)? {
                return Ok(Why::Stopped(r));
            }
            if returns && depth_below(m.cpu(), sp, m.sp()) < 0 {
                return Ok(Why::Done);
            }
            if self.breakpoints.contains(&m.pc()) {
                return Ok(Why::Breakpoint(m.pc()));
            }
            if m.total_cycles() >= end {
                return Ok(Why::Budget);
            }
        }
    }

    /// The disassembly around `at`: up to `before` instructions before it (where their starts
    /// are known: from the source map, or decoding from the routine's label) and `after`
    /// instructions from it, each with its symbols, cycles and source line.
    pub fn disassembly(
        &self,
        m: &Machine,
        at: u16,
        before: usize,
        after: usize,
    ) -> Vec<DisasmLine> {
        let mut starts = self.starts_before(m, at, before);
        let mut a = at;
        for _ in 0..after {
            starts.push(a);
            a = a.wrapping_add(u16::from(decode(m, a).len));
        }
        starts.into_iter().map(|a| self.line(m, a)).collect()
    }

    /// Up to `n` instruction starts before `at`.
    fn starts_before(&self, m: &Machine, at: u16, n: usize) -> Vec<u16> {
        if let Some(map) = &self.sources {
            let known = map.code_before(at, n);
            if !known.is_empty() {
                return known.iter().map(|l| l.addr).collect();
            }
        }
        // Decode from the routine's label (at most 256 bytes back), if that lands on `at`.
        let Some((_, offset)) = m.symbols().and_then(|s| s.containing(at)) else {
            return Vec::new();
        };
        if offset == 0 || offset > 256 {
            return Vec::new();
        }
        let mut a = at - offset;
        let mut starts = Vec::new();
        while a < at {
            starts.push(a);
            a = a.wrapping_add(u16::from(decode(m, a).len));
        }
        if a != at {
            return Vec::new();
        }
        starts.split_off(starts.len().saturating_sub(n))
    }

    fn line(&self, m: &Machine, addr: u16) -> DisasmLine {
        let d = decode(m, addr);
        let symbols = m.symbols();
        DisasmLine {
            addr,
            bytes: d.bytes().to_vec(),
            text: d.text(),
            cycles: d.cycles.to_string(),
            label: symbols.and_then(|s| s.name_at(addr)).map(str::to_string),
            routine: symbols.and_then(|s| s.containing(addr)).map(|(n, off)| {
                if off == 0 {
                    n.to_string()
                } else {
                    format!("{n}+{off}")
                }
            }),
            source: self
                .sources
                .as_ref()
                .and_then(|s| s.at(addr))
                .map(|l| SourceRef {
                    file: l.file.to_string(),
                    line: l.line,
                    text: l.text.to_string(),
                }),
            current: addr == m.pc(),
            breakpoint: self.breakpoints.contains(&addr),
        }
    }
}

/// The address of `name` in `symbols`.
pub fn symbol(symbols: Option<&SymbolTable>, name: &str) -> Result<u16, UnknownSymbol> {
    symbols
        .and_then(|s| s.get(name))
        .ok_or_else(|| UnknownSymbol(name.to_string()))
}

/// One line of a disassembly.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DisasmLine {
    /// Address.
    pub addr: u16,
    /// The instruction's bytes.
    pub bytes: Vec<u8>,
    /// The instruction (`LD A,(IX+$05)`, symbols for the addresses it names).
    pub text: String,
    /// Its cycles from the table (`7/12`: not taken / taken).
    pub cycles: String,
    /// The symbol at exactly this address, if any.
    pub label: Option<String>,
    /// `ROUTINE+offset`, if a label lies at or below it.
    pub routine: Option<String>,
    /// The source line that assembled it, if the debugger has the source map.
    pub source: Option<SourceRef>,
    /// Whether the PC is here.
    pub current: bool,
    /// Whether a breakpoint is set here.
    pub breakpoint: bool,
}

/// A source line: `file:line` and its text.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SourceRef {
    /// The file.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// The line's text as assembled.
    pub text: String,
}
