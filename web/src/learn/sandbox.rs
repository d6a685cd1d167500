//! The assembler to try: a program typed in the page, assembled by Kempelen's assembler (its
//! diagnostics at line and column), loaded into Kempelen's machine and run or stepped with the
//! debugger: registers, flags, memory, exact cycles, the source line of each instruction.

use kempelen_asm::diag::Severity;
use kempelen_asm::{Assembly, Cpu, assemble_source};
use kempelen_emulator::debug::{DebugStop, Debugger, DisasmLine, Why};
use kempelen_emulator::{CoreKind, Flag, Machine, MachineBuilder, RegisterValue};
use serde::Serialize;

use crate::WebError;

/// The name the page's program has in diagnostics.
pub const FILE: &str = "program.asm";

/// A diagnostic at its place in the editor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Mark {
    /// `error` or `warning`.
    pub severity: &'static str,
    /// 1-based line (0: no place).
    pub line: u32,
    /// 1-based column.
    pub col: u32,
    /// Characters marked.
    pub width: u32,
    /// The message as `kempelen asm` prints it (`program.asm:3:9: error: ...`).
    pub text: String,
}

/// A program in the sandbox: assembled, and (if it assembled) on its machine.
pub struct Sandbox {
    cpu: Cpu,
    marks: Vec<Mark>,
    origin: u16,
    bytes: Vec<u8>,
    machine: Option<Machine>,
    debugger: Debugger,
    last: Option<String>,
}

/// What the page shows of the sandbox.
#[derive(Debug, Clone, Serialize)]
pub struct SandboxView {
    /// The CPU.
    pub cpu: String,
    /// The diagnostics.
    pub marks: Vec<Mark>,
    /// Whether the program assembled and is loaded.
    pub loaded: bool,
    /// Bytes and origin.
    pub origin: u16,
    /// Size in bytes.
    pub size: usize,
    /// The PC.
    pub pc: u16,
    /// The source line of the instruction at the PC.
    pub line: Option<u32>,
    /// Registers and flags.
    pub registers: Vec<RegisterValue>,
    /// Flags (none on a core that hides them).
    pub flags: Vec<Flag>,
    /// Cycles and instructions so far.
    pub cycles: u64,
    /// Instructions.
    pub instructions: u64,
    /// The disassembly around the PC.
    pub disasm: Vec<DisasmLine>,
    /// How the last action ended, in words.
    pub last: Option<String>,
    /// The breakpoints, as source lines.
    pub breakpoints: Vec<u32>,
}

fn cpu_of(name: &str) -> Result<Cpu, WebError> {
    name.parse::<Cpu>()
        .map_err(|e| WebError::Request(e.to_string()))
}

impl Sandbox {
    /// Assembles `source` for `cpu` (`z80`, `6502`, `65c02`) and loads it: at its origin,
    /// entered there, in the CPU's default memory map (as `kempelen run --load ORIGIN --entry
    /// ORIGIN` runs the assembled file).
    pub fn new(cpu: &str, source: &str) -> Result<Sandbox, WebError> {
        let cpu = cpu_of(cpu)?;
        let out = assemble_source(cpu, FILE, source);
        let marks = marks(&out);
        let mut s = Sandbox {
            cpu,
            marks,
            origin: out.image.origin,
            bytes: out.image.bytes.clone(),
            machine: None,
            debugger: Debugger::new().with_sources(out.listing.source_map()),
            last: None,
        };
        if out.is_ok() && !out.image.bytes.is_empty() {
            let core = match cpu {
                Cpu::Z80 => CoreKind::RustzxZ80,
                other => CoreKind::default_for(other),
            };
            let m = MachineBuilder::new(cpu)
                .core(core)
                .load(out.image.origin, &out.image.bytes)
                .entry(out.image.origin)
                .symbols(out.symbols.clone())
                .build()
                .map_err(|e| WebError::Request(e.to_string()))?;
            s.machine = Some(m);
        }
        Ok(s)
    }

    fn machine(&mut self) -> Result<&mut Machine, WebError> {
        self.machine
            .as_mut()
            .ok_or_else(|| WebError::Request("the program did not assemble".into()))
    }

    fn note(&mut self, stop: DebugStop) {
        self.last = Some(match stop.why {
            Why::Done if stop.instructions == 1 => format!("1 instruction, {} cycles", stop.cycles),
            Why::Done => format!("{} instructions, {} cycles", stop.instructions, stop.cycles),
            Why::Budget => format!(
                "paused after {} cycles (the budget of one run): run again to go on",
                stop.cycles
            ),
            Why::Breakpoint(pc) => format!("breakpoint at ${pc:04X} after {} cycles", stop.cycles),
            Why::Stopped(r) => format!("stopped: {r}"),
        });
    }

    fn act(
        &mut self,
        f: impl FnOnce(&mut Debugger, &mut Machine) -> Result<DebugStop, kempelen_emulator::RunError>,
    ) -> Result<(), WebError> {
        let mut d = std::mem::take(&mut self.debugger);
        let result = f(&mut d, self.machine()?);
        self.debugger = d;
        match result {
            Ok(stop) => self.note(stop),
            Err(e) => self.last = Some(format!("fault: {}", e.fault)),
        }
        Ok(())
    }

    /// One instruction.
    pub fn step(&mut self) -> Result<(), WebError> {
        self.act(|d, m| d.step(m))
    }

    /// Over a call.
    pub fn step_over(&mut self, budget: u64) -> Result<(), WebError> {
        self.act(|d, m| d.step_over(m, budget))
    }

    /// Out of the routine.
    pub fn step_out(&mut self, budget: u64) -> Result<(), WebError> {
        self.act(|d, m| d.step_out(m, budget))
    }

    /// On to a breakpoint or the end, at most `budget` cycles.
    pub fn run(&mut self, budget: u64) -> Result<(), WebError> {
        self.act(|d, m| d.run(m, budget))
    }

    /// Sets or clears a breakpoint at the instruction of source line `line`; whether one is
    /// set there now.
    pub fn toggle_breakpoint(&mut self, line: u32) -> Result<bool, WebError> {
        let addr = self
            .debugger
            .sources()
            .and_then(|s| s.lines_of(FILE).find(|l| l.line == line && l.code))
            .map(|l| l.addr)
            .ok_or_else(|| WebError::Request(format!("line {line} holds no instruction")))?;
        if self.debugger.clear_breakpoint(addr) {
            Ok(false)
        } else {
            self.debugger.set_breakpoint(addr);
            Ok(true)
        }
    }

    /// `len` bytes of memory from `addr` (at most 4 KB).
    pub fn memory(&self, addr: u16, len: usize) -> Vec<u8> {
        self.machine
            .as_ref()
            .map(|m| m.read_bytes(addr, len.min(4096)))
            .unwrap_or_default()
    }

    /// What the page shows now.
    pub fn view(&self) -> SandboxView {
        let line_of = |addr: u16| {
            self.debugger
                .sources()
                .and_then(|s| s.at(addr))
                .map(|l| l.line)
        };
        let breakpoints = self
            .debugger
            .breakpoints()
            .into_iter()
            .filter_map(line_of)
            .collect();
        let mut v = SandboxView {
            cpu: self.cpu.name().to_string(),
            marks: self.marks.clone(),
            loaded: self.machine.is_some(),
            origin: self.origin,
            size: self.bytes.len(),
            pc: 0,
            line: None,
            registers: Vec::new(),
            flags: Vec::new(),
            cycles: 0,
            instructions: 0,
            disasm: Vec::new(),
            last: self.last.clone(),
            breakpoints,
        };
        if let Some(m) = &self.machine {
            let r = m.registers();
            v.pc = m.pc();
            v.line = line_of(m.pc());
            v.registers = r.values();
            v.flags = r.flags().unwrap_or_default();
            v.cycles = m.total_cycles();
            v.instructions = m.total_instructions();
            v.disasm = self.debugger.disassembly(m, m.pc(), 6, 10);
        }
        v
    }
}

fn marks(out: &Assembly) -> Vec<Mark> {
    out.diagnostics
        .iter()
        .map(|d| Mark {
            severity: if d.severity == Severity::Error {
                "error"
            } else {
                "warning"
            },
            line: d.line,
            col: d.col,
            width: d.width,
            text: d.to_string().lines().next().unwrap_or("").to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broken_program_is_marked_at_its_line_and_column() {
        let s = Sandbox::new(
            "6502",
            "        .org $0200\n        lda #1\n        jmp nowhere\n",
        )
        .unwrap();
        let v = s.view();
        assert!(!v.loaded);
        assert_eq!((v.marks[0].line, v.marks[0].col), (3, 13));
        assert!(
            v.marks[0].text.starts_with("program.asm:3:13: error"),
            "{}",
            v.marks[0].text
        );
        assert!(Sandbox::new("8080", "").is_err());
    }

    #[test]
    fn stepping_a_snippet_ends_with_the_cycles_of_a_run() {
        let snippet = kempelen_roms::snippets::snippet("timed-loop-6502").unwrap();
        let mut s = Sandbox::new("6502", &snippet.source().unwrap()).unwrap();
        assert_eq!(s.view().line, Some(7));
        assert!(s.toggle_breakpoint(10).unwrap());
        s.run(1000).unwrap();
        assert_eq!((s.view().line, s.view().cycles), (Some(10), 26));
        assert!(s.view().last.unwrap().starts_with("breakpoint"));
        for _ in 0..2 {
            s.step().unwrap();
        }
        let v = s.view();
        assert_eq!(v.cycles, 32);
        assert!(v.last.unwrap().contains("host call"));
        assert_eq!(v.registers.iter().find(|r| r.name == "X").unwrap().value, 0);
    }
}
