//! Cycles per source line: the profiler's cycles and executions of every instruction
//! ([`ProfileReport::instructions`]) added up by the source line that assembled it (the
//! assembler's [`SourceMap`]), so a reader sees which lines of a routine its cycles come from.
//!
//! A line is counted once per routine it runs in: a macro's line (the source map names the
//! macro's definition) used by two routines gives two rows, so the lines of a routine add up
//! to exactly the routine's cycles in the routine profile, and all lines to the profile's
//! total. An instruction without a source line (a program run without its source) is a line
//! of its own, named by its address and shown disassembled.
//!
//! ```
//! use kempelen_emulator::lines::LineProfile;
//! use kempelen_emulator::{Cpu, MachineBuilder, SymbolTable};
//! use kempelen_isa::SourceMap;
//!
//! // loop: DEC B / JR NZ,loop / XOR A / OUT ($FF),A (host call "done")
//! let program = [0x05, 0x20, 0xFD, 0xAF, 0xD3, 0xFF];
//! let mut sources = SourceMap::new();
//! sources.insert(0x0000, 1, true, "count.asm", 2, "loop:   dec b");
//! sources.insert(0x0001, 2, true, "count.asm", 3, "        jr nz,loop");
//! sources.insert(0x0003, 1, true, "count.asm", 4, "        xor a");
//! sources.insert(0x0004, 2, true, "count.asm", 5, "        out (0FFh),a");
//! let symbols = SymbolTable::parse("loop EQU $0000").unwrap();
//! let mut m = MachineBuilder::new(Cpu::Z80).load(0, &program).symbols(symbols).build().unwrap();
//! m.enable_profiler();
//! m.run(1_000_000).unwrap();
//! let report = m.profile().unwrap();
//! let lines = LineProfile::new(&report, Some(&sources), |a| format!("${a:04X}"));
//! // B starts at 0: DEC B runs 256 times, JR NZ jumps 255 times (12 T-states) and falls
//! // through once (7).
//! let jr = lines.line("count.asm", 3).unwrap();
//! assert_eq!((jr.executions, jr.cycles), (256, 255 * 12 + 7));
//! assert_eq!(lines.line("count.asm", 2).unwrap().cycles, 256 * 4);
//! assert_eq!(lines.total_cycles, report.total_cycles);
//! assert_eq!(lines.lines[0].place(), "count.asm:3");
//! ```

use crate::profiler::{ProfileReport, ProfileRow, grouped};
use kempelen_isa::SourceMap;
use std::collections::HashMap;
use std::fmt::Write as _;

/// One source line's cost in one routine.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct LineCost {
    /// The source file (`None` for an instruction without a source line).
    pub file: Option<String>,
    /// The 1-based line in `file`.
    pub line: Option<u32>,
    /// The line as assembled (or the instruction disassembled, without a source line).
    pub text: String,
    /// The routine its instructions are charged to (as in the routine profile).
    pub routine: String,
    /// The first address of its instructions in that routine.
    pub address: u16,
    /// Cycles of all its instructions' executions.
    pub cycles: u64,
    /// `cycles` as a percentage of all profiled cycles.
    pub share: f64,
    /// Times an instruction of the line ran (for a line of one instruction: how often it ran).
    pub executions: u64,
}

impl LineCost {
    /// `file:line`, or `$ADDR` without a source line.
    pub fn place(&self) -> String {
        match (&self.file, self.line) {
            (Some(f), Some(l)) => format!("{f}:{l}"),
            _ => format!("${:04X}", self.address),
        }
    }

    /// Mean cycles of one execution.
    pub fn per_execution(&self) -> f64 {
        if self.executions == 0 {
            0.0
        } else {
            self.cycles as f64 / self.executions as f64
        }
    }
}

/// Cycles per source line.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct LineProfile {
    /// The lines, most cycles first (then by address).
    pub lines: Vec<LineCost>,
    /// All profiled cycles (the sum over `lines`, and the routine profile's total).
    pub total_cycles: u64,
}

/// A line's key: its routine, and its file and line (or its address, without a source line).
type Key = (usize, Option<(std::sync::Arc<str>, u32)>, Option<u16>);

impl LineProfile {
    /// The lines of `report`'s instructions: by `sources` where it names their line, else
    /// one line per instruction with `text_at(address)` as its text.
    pub fn new(
        report: &ProfileReport,
        sources: Option<&SourceMap>,
        text_at: impl Fn(u16) -> String,
    ) -> LineProfile {
        // The routines by address, for the one at or below each instruction.
        let mut by_addr: Vec<(u16, usize)> = report
            .rows
            .iter()
            .enumerate()
            .filter_map(|(i, r)| r.address.map(|a| (a, i)))
            .collect();
        by_addr.sort_unstable();
        let unnamed = report.rows.iter().position(|r| r.address.is_none());
        let mut index: HashMap<Key, usize> = HashMap::new();
        let mut lines: Vec<LineCost> = Vec::new();
        for ins in &report.instructions {
            let below = by_addr.partition_point(|&(a, _)| a <= ins.address);
            let routine = below
                .checked_sub(1)
                .map(|k| by_addr[k].1)
                .or(unnamed)
                .unwrap_or(usize::MAX);
            let source = sources.and_then(|s| s.containing(ins.address));
            let key: Key = match source {
                Some(l) => (routine, Some((l.file.clone(), l.line)), None),
                None => (routine, None, Some(ins.address)),
            };
            let i = *index.entry(key).or_insert_with(|| {
                lines.push(LineCost {
                    file: source.map(|l| l.file.to_string()),
                    line: source.map(|l| l.line),
                    text: source.map_or_else(|| text_at(ins.address), |l| l.text.trim_end().into()),
                    routine: report
                        .rows
                        .get(routine)
                        .map_or_else(|| "(no symbol)".into(), |r: &ProfileRow| r.routine.clone()),
                    address: ins.address,
                    cycles: 0,
                    share: 0.0,
                    executions: 0,
                });
                lines.len() - 1
            });
            lines[i].cycles += ins.cycles;
            lines[i].executions += ins.executions;
        }
        let total: u64 = lines.iter().map(|l| l.cycles).sum();
        for l in &mut lines {
            l.share = if total == 0 {
                0.0
            } else {
                l.cycles as f64 * 100.0 / total as f64
            };
        }
        lines.sort_by(|a, b| b.cycles.cmp(&a.cycles).then(a.address.cmp(&b.address)));
        LineProfile {
            lines,
            total_cycles: total,
        }
    }

    /// The `n` lines with the most cycles.
    pub fn top(&self, n: usize) -> &[LineCost] {
        &self.lines[..n.min(self.lines.len())]
    }

    /// The row of `file:line` with the most cycles (a line run in several routines has a row
    /// in each).
    pub fn line(&self, file: &str, line: u32) -> Option<&LineCost> {
        self.lines
            .iter()
            .find(|l| l.file.as_deref() == Some(file) && l.line == Some(line))
    }

    /// The rows of the lines of `routine`, most cycles first.
    pub fn of_routine<'a>(&'a self, routine: &'a str) -> impl Iterator<Item = &'a LineCost> {
        self.lines.iter().filter(move |l| l.routine == routine)
    }

    /// The hottest `n` lines as a table: place, cycles, share, executions, cycles per
    /// execution, routine and the line's text; then how much of the total they hold.
    pub fn table(&self, n: usize) -> String {
        let top = self.top(n);
        let place_w = top
            .iter()
            .map(|l| l.place().len())
            .max()
            .unwrap_or(0)
            .max(5);
        let routine_w = top
            .iter()
            .map(|l| l.routine.len())
            .max()
            .unwrap_or(0)
            .max(7);
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{:<place_w$}  {:>15}  {:>7}  {:>13}  {:>6}  {:<routine_w$}  source",
            "line", "cycles", "share", "executions", "each", "routine"
        );
        for l in top {
            let _ = writeln!(
                s,
                "{:<place_w$}  {:>15}  {:>6.2} %  {:>13}  {:>6.1}  {:<routine_w$}  {}",
                l.place(),
                grouped(l.cycles),
                l.share,
                grouped(l.executions),
                l.per_execution(),
                l.routine,
                l.text.trim()
            );
        }
        let shown: u64 = top.iter().map(|l| l.cycles).sum();
        let share = if self.total_cycles == 0 {
            0.0
        } else {
            shown as f64 * 100.0 / self.total_cycles as f64
        };
        let _ = writeln!(
            s,
            "{} of {} lines: {} of {} cycles ({share:.1} %)",
            top.len(),
            self.lines.len(),
            grouped(shown),
            grouped(self.total_cycles)
        );
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profiler::{InstructionCost, ProfileRow};

    fn row(routine: &str, address: Option<u16>, cycles: u64) -> ProfileRow {
        ProfileRow {
            routine: routine.into(),
            address,
            cycles,
            share: 0.0,
            inclusive: 0,
            calls: 0,
        }
    }

    fn cost(address: u16, cycles: u64, executions: u64) -> InstructionCost {
        InstructionCost {
            address,
            cycles,
            executions,
        }
    }

    #[test]
    fn a_macro_line_in_two_routines_is_a_row_in_each_and_routines_add_up() {
        // A at $10 and B at $20 both use the macro line m.inc:2; $30 has no source line;
        // $05 lies below the first symbol.
        let report = ProfileReport {
            rows: vec![
                row("A", Some(0x10), 30),
                row("B", Some(0x20), 16),
                row("(no symbol)", None, 4),
            ],
            total_cycles: 50,
            instructions: vec![
                cost(0x05, 4, 1),
                cost(0x10, 10, 2),
                cost(0x12, 20, 2),
                cost(0x20, 8, 1),
                cost(0x30, 8, 2),
            ],
        };
        let mut map = SourceMap::new();
        map.insert(0x10, 2, true, "a.asm", 7, "ld a,b");
        map.insert(0x12, 2, true, "m.inc", 2, "inc a");
        map.insert(0x20, 2, true, "m.inc", 2, "inc a");
        let p = LineProfile::new(&report, Some(&map), |a| format!("op at {a:04X}"));
        assert_eq!(p.total_cycles, 50);
        let sum = |r: &str| p.of_routine(r).map(|l| l.cycles).sum::<u64>();
        assert_eq!((sum("A"), sum("B"), sum("(no symbol)")), (30, 16, 4));
        let macro_rows: Vec<(&str, u64)> = p
            .lines
            .iter()
            .filter(|l| l.place() == "m.inc:2")
            .map(|l| (l.routine.as_str(), l.cycles))
            .collect();
        assert_eq!(macro_rows, [("A", 20), ("B", 8)]);
        let unsourced = p.lines.iter().find(|l| l.address == 0x30).unwrap();
        assert_eq!(
            (
                unsourced.place(),
                unsourced.text.as_str(),
                unsourced.routine.as_str()
            ),
            ("$0030".to_string(), "op at 0030", "B")
        );
        assert_eq!(unsourced.per_execution(), 4.0);
        assert_eq!(p.lines[0].place(), "m.inc:2");
        let table = p.table(2);
        assert!(
            table.lines().nth(1).unwrap().starts_with("m.inc:2"),
            "{table}"
        );
        assert!(
            table.contains("2 of 5 lines: 30 of 50 cycles (60.0 %)"),
            "{table}"
        );
    }
}
