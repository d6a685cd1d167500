//! The cycle profiler: where the cycles go, by routine.
//!
//! Every instruction's cycles are charged to the routine containing its address: the nearest
//! symbol at or below the PC (from the assembler's symbol file). That is the "self" time of
//! the profiler table of the Salomon thesis (TU Graz, 1992: routine, time, share). On top, the profiler
//! follows calls (`CALL`, `CALL cc`, `RST` on the Z80, `JSR` on the 6502): a call that pushes a
//! return address opens a frame for the routine it enters, and the frame closes when the stack
//! unwinds above that return address (a `RET`, or any stack reset). The cycles between are the
//! callee's inclusive time (counted once when the routine is already on the call stack, so
//! recursion does not count twice), and the calls are counted. A routine entered at its first
//! byte by a jump or branch from another routine (a tail call, a jump table, an `RST` vector
//! that jumps on to its handler) counts as entered too: the jump replaces the frame the jumping
//! routine had at that stack depth. Such a jump never ends a frame opened by a call: the called
//! routine's inclusive time runs from the call to its return, whatever labels are jumped to in
//! between, and the routine entered by the jump gets a frame of its own inside it, which runs
//! until the next jump into another routine (a loop among labels opens no endless frames) or
//! the return.
//!
//! Besides the routines, the profiler counts every instruction address's cycles and executions
//! ([`ProfileReport::instructions`]): the cycles per source line of [`crate::lines`] are made
//! from them, so a line's figure and its routine's add up to the same cycles.
//!
//! The look-up is a 64K table built once, so profiling costs a few table reads per instruction,
//! and nothing at all when the profiler is off (the machine's step loop is compiled without it).

use crate::Cpu;
use crate::symbols::Routines;
use std::fmt;

/// Index of the pseudo-routine for addresses below the first symbol.
const NO_SYMBOL: usize = 0;

/// Whether `op` (the first opcode byte) is a call instruction of `cpu`.
fn is_call(cpu: Cpu, op: u8) -> bool {
    match cpu {
        // CALL nn, CALL cc,nn, RST n
        Cpu::Z80 => op == 0xCD || op & 0xC7 == 0xC4 || op & 0xC7 == 0xC7,
        // JSR abs
        Cpu::Mos6502 | Cpu::Cmos65c02 => op == 0x20,
    }
}

/// Whether `op` (the first opcode byte) is a jump or branch of `cpu` (not a fall-through).
fn is_jump(cpu: Cpu, op: u8) -> bool {
    match cpu {
        // JP nn, JP cc,nn, JR, JR cc, DJNZ, JP (HL)
        Cpu::Z80 => {
            op == 0xC3
                || op & 0xC7 == 0xC2
                || matches!(op, 0x18 | 0x20 | 0x28 | 0x30 | 0x38 | 0x10 | 0xE9)
        }
        // JMP abs, JMP (ind), the branches
        Cpu::Mos6502 => matches!(op, 0x4C | 0x6C) || op & 0x1F == 0x10,
        // The 65C02 adds JMP (ind,X) and BRA.
        Cpu::Cmos65c02 => matches!(op, 0x4C | 0x6C | 0x7C | 0x80) || op & 0x1F == 0x10,
    }
}

#[derive(Debug, Clone, Copy)]
struct Frame {
    routine: usize,
    depth: u32,
    entry_cycles: u64,
    /// Opened by a jump to the routine's first byte (not by a call): the next such jump at the
    /// same depth replaces it, while a call's frame stays open until the stack unwinds.
    by_jump: bool,
}

/// Accumulates cycles per routine over one or more runs.
#[derive(Debug, Clone)]
pub struct Profiler {
    cpu: Cpu,
    symbols: Routines,
    /// Routine index (0 = no symbol, i + 1 = symbol i) for every address.
    routine_of: Box<[u16]>,
    self_cycles: Vec<u64>,
    inclusive: Vec<u64>,
    calls: Vec<u64>,
    on_stack: Vec<u32>,
    /// Cycles and executions of the instruction at each address.
    at_cycles: Box<[u64]>,
    at_count: Box<[u64]>,
    frames: Vec<Frame>,
    base_sp: u16,
    last_depth: u32,
    clock: u64,
}

impl Profiler {
    /// A profiler charging `cpu` cycles to `symbols` (at most 65535 of them).
    pub fn new(cpu: Cpu, symbols: Routines) -> Self {
        let mut routine_of = vec![NO_SYMBOL as u16; 0x10000].into_boxed_slice();
        for addr in 0..=0xFFFFu16 {
            if let Some(i) = symbols.index_at(addr) {
                routine_of[addr as usize] = (i + 1).min(0xFFFF) as u16;
            }
        }
        let n = symbols.len() + 1;
        Profiler {
            cpu,
            symbols,
            routine_of,
            self_cycles: vec![0; n],
            inclusive: vec![0; n],
            calls: vec![0; n],
            on_stack: vec![0; n],
            at_cycles: vec![0; 0x10000].into_boxed_slice(),
            at_count: vec![0; 0x10000].into_boxed_slice(),
            frames: Vec::new(),
            base_sp: 0,
            last_depth: 0,
            clock: 0,
        }
    }

    /// The routines cycles are charged to.
    pub fn routines(&self) -> &Routines {
        &self.symbols
    }

    /// Forgets everything counted so far.
    pub fn reset(&mut self) {
        for v in [&mut self.self_cycles, &mut self.inclusive, &mut self.calls] {
            v.iter_mut().for_each(|c| *c = 0);
        }
        self.on_stack.iter_mut().for_each(|c| *c = 0);
        self.at_cycles.iter_mut().for_each(|c| *c = 0);
        self.at_count.iter_mut().for_each(|c| *c = 0);
        self.frames.clear();
        self.clock = 0;
    }

    fn depth(&self, sp: u16) -> u32 {
        match self.cpu {
            Cpu::Z80 => u32::from(self.base_sp.wrapping_sub(sp)),
            Cpu::Mos6502 | Cpu::Cmos65c02 => u32::from((self.base_sp as u8).wrapping_sub(sp as u8)),
        }
    }

    /// Called by the machine before the first instruction of a run.
    pub(crate) fn begin_run(&mut self, sp: u16) {
        self.base_sp = sp;
        self.last_depth = 0;
    }

    /// Called by the machine after each instruction: the instruction at `pc` with first opcode
    /// byte `op` took `cycles`, and left the stack pointer at `sp` and the PC at `new_pc`.
    #[inline]
    pub(crate) fn after_step(&mut self, pc: u16, op: u8, cycles: u32, sp: u16, new_pc: u16) {
        let r = self.routine_of[pc as usize] as usize;
        self.self_cycles[r] += u64::from(cycles);
        self.at_cycles[pc as usize] += u64::from(cycles);
        self.at_count[pc as usize] += 1;
        self.clock += u64::from(cycles);
        let depth = self.depth(sp);
        if depth < self.last_depth {
            while let Some(f) = self.frames.last().copied() {
                if depth >= f.depth {
                    break;
                }
                self.close(f);
                self.frames.pop();
            }
        } else if depth == self.last_depth + 2 && is_call(self.cpu, op) {
            let callee = self.routine_of[new_pc as usize] as usize;
            self.enter(callee, depth, false);
        } else if depth == self.last_depth {
            let callee = self.routine_of[new_pc as usize] as usize;
            let entered = callee != r
                && is_jump(self.cpu, op)
                && callee != NO_SYMBOL
                && self
                    .symbols
                    .get(callee - 1)
                    .is_some_and(|(a, _)| a == new_pc);
            if entered {
                if let Some(f) = self
                    .frames
                    .last()
                    .copied()
                    .filter(|f| f.depth == depth && f.by_jump)
                {
                    self.close(f);
                    self.frames.pop();
                }
                self.enter(callee, depth, true);
            }
        }
        self.last_depth = depth;
    }

    /// A routine entered at stack `depth` (by a call, or by a jump to its first byte): counted
    /// and its frame opened.
    fn enter(&mut self, routine: usize, depth: u32, by_jump: bool) {
        self.calls[routine] += 1;
        self.on_stack[routine] += 1;
        self.frames.push(Frame {
            routine,
            depth,
            entry_cycles: self.clock,
            by_jump,
        });
    }

    fn close(&mut self, f: Frame) {
        self.on_stack[f.routine] -= 1;
        if self.on_stack[f.routine] == 0 {
            self.inclusive[f.routine] += self.clock - f.entry_cycles;
        }
    }

    /// Called by the machine when a run ends: open frames are closed at the current cycle.
    pub(crate) fn end_run(&mut self) {
        while let Some(f) = self.frames.pop() {
            self.close(f);
        }
    }

    /// The table so far: routines with cycles or calls, most cycles first.
    pub fn report(&self) -> ProfileReport {
        let total: u64 = self.self_cycles.iter().sum();
        let mut rows: Vec<ProfileRow> = (0..self.self_cycles.len())
            .filter(|&i| self.self_cycles[i] > 0 || self.calls[i] > 0)
            .map(|i| {
                let (routine, address) = match i.checked_sub(1).and_then(|s| self.symbols.get(s)) {
                    Some((a, n)) => (n.to_string(), Some(a)),
                    None => ("(no symbol)".to_string(), None),
                };
                ProfileRow {
                    routine,
                    address,
                    cycles: self.self_cycles[i],
                    share: if total == 0 {
                        0.0
                    } else {
                        self.self_cycles[i] as f64 * 100.0 / total as f64
                    },
                    inclusive: self.inclusive[i],
                    calls: self.calls[i],
                }
            })
            .collect();
        rows.sort_by(|a, b| b.cycles.cmp(&a.cycles).then(a.address.cmp(&b.address)));
        let instructions = (0..=0xFFFFu16)
            .filter(|&a| self.at_count[usize::from(a)] > 0)
            .map(|address| InstructionCost {
                address,
                cycles: self.at_cycles[usize::from(address)],
                executions: self.at_count[usize::from(address)],
            })
            .collect();
        ProfileReport {
            rows,
            total_cycles: total,
            instructions,
        }
    }
}

/// One routine's line in the profile.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ProfileRow {
    /// Symbol name, or `(no symbol)`.
    pub routine: String,
    /// Address of the symbol.
    pub address: Option<u16>,
    /// Cycles spent in the routine itself.
    pub cycles: u64,
    /// `cycles` as a percentage of all profiled cycles.
    pub share: f64,
    /// Cycles from entering the routine to returning from it, callees and the labels it jumps
    /// to included (0 for routines never entered, such as the entry point). A routine entered
    /// by a jump counts from the jump to the next jump into another routine or the return.
    pub inclusive: u64,
    /// Times the routine was entered: by a call, or by a jump to its first byte from another
    /// routine.
    pub calls: u64,
}

/// What the instruction at one address cost over the profiled runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct InstructionCost {
    /// The instruction's first byte.
    pub address: u16,
    /// Its cycles, all executions together.
    pub cycles: u64,
    /// Times it ran.
    pub executions: u64,
}

/// Cycles per routine, and per instruction.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ProfileReport {
    /// Routines, most self cycles first.
    pub rows: Vec<ProfileRow>,
    /// Cycles profiled.
    pub total_cycles: u64,
    /// Every instruction that ran, by address (not serialized: [`crate::lines`] turns them
    /// into lines, which is what a report shows).
    #[serde(skip)]
    pub instructions: Vec<InstructionCost>,
}

impl ProfileReport {
    /// The row of `routine`.
    pub fn row(&self, routine: &str) -> Option<&ProfileRow> {
        self.rows.iter().find(|r| r.routine == routine)
    }

    /// The routine an instruction at `addr` is charged to: the row with the highest address
    /// at or below it (the profiler's `(no symbol)` row below the first symbol). Every
    /// instruction that ran has its routine among the rows, since that routine has cycles.
    pub fn routine_of(&self, addr: u16) -> Option<&ProfileRow> {
        let below = self
            .rows
            .iter()
            .filter(|r| r.address.is_some_and(|a| a <= addr))
            .max_by_key(|r| r.address);
        below.or_else(|| self.rows.iter().find(|r| r.address.is_none()))
    }
}

/// Thousands separated by commas (`1234567` -> `1,234,567`): the one formatter of counts
/// shared by the emulator's tables and the command line.
pub fn grouped(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

impl fmt::Display for ProfileReport {
    /// The table, in the layout of the profiler table in the Salomon thesis: routine, cycles,
    /// share; then inclusive cycles and calls.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = self
            .rows
            .iter()
            .map(|r| r.routine.len())
            .max()
            .unwrap_or(0)
            .max(7);
        writeln!(
            f,
            "{:<width$}  {:>15}  {:>7}  {:>15}  {:>10}",
            "routine", "cycles", "share", "inclusive", "calls"
        )?;
        for r in &self.rows {
            let share = if r.share > 0.0 && r.share < 1.0 {
                "<1 %".to_string()
            } else {
                format!("{:.1} %", r.share)
            };
            writeln!(
                f,
                "{:<width$}  {:>15}  {:>7}  {:>15}  {:>10}",
                r.routine,
                grouped(r.cycles),
                share,
                grouped(r.inclusive),
                grouped(r.calls)
            )?;
        }
        write!(
            f,
            "{:<width$}  {:>15}  {:>7}",
            "total",
            grouped(self.total_cycles),
            "100.0 %"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn call_detection_covers_call_cc_and_rst() {
        for op in [
            0xCD, 0xC4, 0xCC, 0xD4, 0xDC, 0xE4, 0xEC, 0xF4, 0xFC, 0xC7, 0xFF,
        ] {
            assert!(is_call(Cpu::Z80, op), "{op:02X}");
        }
        for op in [0xC3, 0xC9, 0xC0, 0x18, 0xE9, 0xC5] {
            assert!(!is_call(Cpu::Z80, op), "{op:02X}");
        }
        assert!(is_call(Cpu::Mos6502, 0x20));
        assert!(!is_call(Cpu::Mos6502, 0x4C));
    }

    #[test]
    fn grouping() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(96_241_367), "96,241,367");
    }

    #[test]
    fn self_and_inclusive_time_with_recursion() {
        // MAIN at $0100 calls REC at $0200, which calls itself once and returns.
        let syms = Routines::new([("MAIN", 0x0100), ("REC", 0x0200)]);
        let mut p = Profiler::new(Cpu::Z80, syms);
        p.begin_run(0x0000);
        p.after_step(0x0100, 0xCD, 17, 0xFFFE, 0x0200); // CALL REC
        p.after_step(0x0200, 0xCD, 17, 0xFFFC, 0x0200); // CALL REC (recursive)
        p.after_step(0x0200, 0x00, 4, 0xFFFC, 0x0201); // NOP
        p.after_step(0x0201, 0xC9, 10, 0xFFFE, 0x0203); // RET
        p.after_step(0x0203, 0xC9, 10, 0x0000, 0x0103); // RET
        p.after_step(0x0103, 0x00, 4, 0x0000, 0x0104); // NOP
        p.end_run();
        let r = p.report();
        assert_eq!(r.total_cycles, 62);
        let rec = r.row("REC").unwrap();
        assert_eq!(rec.cycles, 17 + 4 + 10 + 10);
        assert_eq!(rec.calls, 2);
        // From after the first CALL to after the last RET, counted once despite recursion.
        assert_eq!(rec.inclusive, 17 + 4 + 10 + 10);
        let main = r.row("MAIN").unwrap();
        assert_eq!((main.cycles, main.calls, main.inclusive), (21, 0, 0));
        assert_eq!(r.rows[0].routine, "REC");
        let table = r.to_string();
        assert!(table.contains("REC"), "{table}");
        assert!(table.lines().last().unwrap().starts_with("total"));
    }
}
