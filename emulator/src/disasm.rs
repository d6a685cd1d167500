//! Disassembly for traces.
//!
//! Interim: the shared instruction tables live in `kempelen_asm` (the assembler issue); until
//! its decoder lands this module shows 6502 instructions through the `mos6502` crate's decoder
//! and Z80 instructions as raw bytes.

use crate::Cpu;
use mos6502::Variant;
use mos6502::instruction::{AddressingMode, Nmos6502};

/// One decoded instruction.
pub(crate) struct Decoded {
    /// Length in bytes.
    pub len: usize,
    /// Assembler text.
    pub text: String,
}

/// Decodes the instruction at `pc`.
pub(crate) fn decode(cpu: Cpu, mem: &[u8; 0x10000], pc: u16) -> Decoded {
    let at = |i: u16| mem[pc.wrapping_add(i) as usize];
    match cpu {
        Cpu::Z80 => Decoded {
            len: 1,
            text: format!("db ${:02X}", at(0)),
        },
        Cpu::Mos6502 => match Nmos6502::decode(at(0)) {
            Some((instr, mode)) => {
                let len = 1 + mode.extra_bytes() as usize;
                let b = at(1);
                let w = u16::from_le_bytes([at(1), at(2)]);
                let op = match mode {
                    AddressingMode::Accumulator | AddressingMode::Implied => String::new(),
                    AddressingMode::Immediate => format!(" #${b:02X}"),
                    AddressingMode::ZeroPage => format!(" ${b:02X}"),
                    AddressingMode::ZeroPageX => format!(" ${b:02X},X"),
                    AddressingMode::ZeroPageY => format!(" ${b:02X},Y"),
                    AddressingMode::Relative => {
                        let target = pc.wrapping_add(2).wrapping_add(b as i8 as u16);
                        format!(" ${target:04X}")
                    }
                    AddressingMode::Absolute => format!(" ${w:04X}"),
                    AddressingMode::AbsoluteX => format!(" ${w:04X},X"),
                    AddressingMode::AbsoluteY => format!(" ${w:04X},Y"),
                    AddressingMode::Indirect | AddressingMode::BuggyIndirect => {
                        format!(" (${w:04X})")
                    }
                    AddressingMode::IndexedIndirectX => format!(" (${b:02X},X)"),
                    AddressingMode::IndirectIndexedY => format!(" (${b:02X}),Y"),
                    _ => format!(" {mode:?}"),
                };
                Decoded {
                    len,
                    text: format!("{instr:?}{op}"),
                }
            }
            None => Decoded {
                len: 1,
                text: format!(".byte ${:02X}", at(0)),
            },
        },
    }
}
