//! Why a run failed.
//!
//! A [`RunError`] is a [`Fault`] (what went wrong and where) together with the counts at the
//! moment of the fault and a short trace of the instructions that led there, so a runaway
//! program explains itself without a rerun under the tracer.

use crate::memory::AddrRange;
use crate::trace::RecentTrace;
use kempelen_isa::hex_bytes;
use std::fmt;

/// What stopped a run abnormally. Every variant names the PC of the instruction at fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, serde::Serialize)]
pub enum Fault {
    /// The run used up its cycle budget.
    #[error("cycle budget of {budget} cycles exceeded at PC ${pc:04X}")]
    BudgetExceeded {
        /// The budget.
        budget: u64,
        /// PC of the next instruction.
        pc: u16,
    },
    /// The CPU wrote to ROM; the write was not applied.
    #[error("write of ${value:02X} to ROM at ${addr:04X} by the instruction at PC ${pc:04X}")]
    RomWrite {
        /// Address written.
        addr: u16,
        /// Value.
        value: u8,
        /// Instruction.
        pc: u16,
    },
    /// The CPU wrote to unmapped memory or an unconnected I/O address; not applied.
    #[error(
        "write of ${value:02X} to unmapped address ${addr:04X} by the instruction at PC ${pc:04X}"
    )]
    UnmappedWrite {
        /// Address written.
        addr: u16,
        /// Value.
        value: u8,
        /// Instruction.
        pc: u16,
    },
    /// A Z80 `OUT` to a port with no device.
    #[error("OUT of ${value:02X} to unconnected port ${port:02X} at PC ${pc:04X}", port = port & 0xFF)]
    UnconnectedPort {
        /// Full 16-bit port address.
        port: u16,
        /// Value.
        value: u8,
        /// Instruction.
        pc: u16,
    },
    /// An opcode the machine refuses to run (Z80: an undefined `ED` opcode; 6502: a `JAM`
    /// opcode, or an undocumented one unless allowed).
    #[error("illegal opcode {} at PC ${pc:04X}", hex_bytes(bytes))]
    IllegalOpcode {
        /// The opcode bytes.
        bytes: Vec<u8>,
        /// Where.
        pc: u16,
    },
    /// The PC left the loaded program.
    #[error("PC ${pc:04X} is outside the program ({}){}", loaded_at(program), came_from(*from))]
    PcOutOfProgram {
        /// The PC.
        pc: u16,
        /// The previous instruction, if any.
        from: Option<u16>,
        /// The loaded images.
        program: String,
    },
    /// The stack grew below its region.
    #[error(
        "stack overflow: SP ${sp:04X} below the stack region {region} after the instruction at PC ${pc:04X}"
    )]
    StackOverflow {
        /// SP after the instruction.
        sp: u16,
        /// Instruction.
        pc: u16,
        /// The stack region.
        region: AddrRange,
    },
    /// The stack was popped above the top of its region (or SP was set outside it).
    #[error(
        "stack underflow: SP ${sp:04X} above the stack region {region} after the instruction at PC ${pc:04X}"
    )]
    StackUnderflow {
        /// SP after the instruction.
        sp: u16,
        /// Instruction.
        pc: u16,
        /// The stack region.
        region: AddrRange,
    },
    /// A host trap (see [`crate::traps`]) was called with a function it does not serve.
    #[error("{trap} at ${pc:04X}: function ${code:02X} is not supported")]
    UnsupportedTrapFunction {
        /// The trap's name.
        trap: String,
        /// The function code: a register's value, or the two bytes after the call (the
        /// first in the high byte).
        code: u16,
        /// The trap's address.
        pc: u16,
    },
    /// A host trap needs registers that the core keeps private.
    #[error(
        "{trap} at ${pc:04X} needs registers that the Z80 core `z80` does not show (use rustzx)"
    )]
    TrapNeedsRegisters {
        /// The trap's name.
        trap: String,
        /// The trap's address.
        pc: u16,
    },
    /// A host call with a reserved value.
    #[error(
        "unknown host call ${value:02X} at PC ${pc:04X} (only $00 = done and $01 = iteration complete are defined)"
    )]
    UnknownHostCall {
        /// The value written.
        value: u8,
        /// Instruction.
        pc: u16,
    },
}

impl Fault {
    /// The PC the fault names.
    pub fn pc(&self) -> u16 {
        match self {
            Fault::BudgetExceeded { pc, .. }
            | Fault::RomWrite { pc, .. }
            | Fault::UnmappedWrite { pc, .. }
            | Fault::UnconnectedPort { pc, .. }
            | Fault::IllegalOpcode { pc, .. }
            | Fault::PcOutOfProgram { pc, .. }
            | Fault::StackOverflow { pc, .. }
            | Fault::StackUnderflow { pc, .. }
            | Fault::UnsupportedTrapFunction { pc, .. }
            | Fault::TrapNeedsRegisters { pc, .. }
            | Fault::UnknownHostCall { pc, .. } => *pc,
        }
    }
}

fn loaded_at(program: &str) -> String {
    if program.is_empty() {
        "no program is loaded".into()
    } else {
        format!("loaded at {program}")
    }
}

fn came_from(from: Option<u16>) -> String {
    from.map(|f| format!(", reached from PC ${f:04X}"))
        .unwrap_or_default()
}

/// A failed run: the fault, the counts when it happened, and the last instructions.
#[derive(Debug, Clone, serde::Serialize)]
pub struct RunError {
    /// What went wrong.
    pub fault: Fault,
    /// Cycles of this run up to the fault.
    pub cycles: u64,
    /// Instructions of this run up to the fault.
    pub instructions: u64,
    /// The last instructions before the fault, oldest first, with the registers at the end.
    pub trace: RecentTrace,
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} ({} cycles, {} instructions into the run)",
            self.fault, self.cycles, self.instructions
        )?;
        write!(f, "{}", self.trace)
    }
}

impl std::error::Error for RunError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.fault)
    }
}
