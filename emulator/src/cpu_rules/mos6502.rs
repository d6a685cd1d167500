//! The machine's rules for NMOS 6502 instructions.

use super::class;
use crate::Cpu;
use mos6502::Variant;
use mos6502::instruction::{AddressingMode, Instruction, Nmos6502};

/// Whether `op` is a documented NMOS 6502 opcode: a row of the assembler's instruction table
/// (the one table the assembler, the disassembler and the machine share).
pub fn is_documented_6502(op: u8) -> bool {
    kempelen_asm::decode(Cpu::Mos6502, &[op, 0, 0], 0).is_ok_and(|d| d.is_documented())
}

/// The 6502 `JAM` (`KIL`) opcodes, which lock the CPU.
pub(crate) fn is_jam_6502(op: u8) -> bool {
    op & 0x0F == 0x02 && !matches!(op, 0x82 | 0xA2 | 0xC2 | 0xE2)
}

/// The 6502's opcode classes: `JAM` and (unless allowed) undocumented opcodes are refused,
/// `BRK` stops the run when asked, and an opcode that may read outside plain memory other
/// than through its decoded address (zero-page pointers, pulls from the stack, `BRK`'s vector,
/// `JMP (ind)`) runs with every access checked when such memory exists.
pub(crate) fn class_table(
    allow_undocumented: bool,
    stop_on_brk: bool,
    plain: impl Fn(u8) -> bool,
) -> [u8; 256] {
    let mut t = [class::PLAIN; 256];
    let any_special = !(0..=255).all(&plain);
    for op in 0..=255u8 {
        let careful = match Nmos6502::decode(op) {
            // Pointers in the zero page.
            Some((_, AddressingMode::IndexedIndirectX | AddressingMode::IndirectIndexedY)) => {
                !plain(0x00)
            }
            // Pulls read the stack page.
            Some((
                Instruction::PLA | Instruction::PLP | Instruction::RTS | Instruction::RTI,
                _,
            )) => !plain(0x01),
            // BRK reads its vector.
            Some((Instruction::BRK, _)) => !plain(0xFF),
            // JMP (ind) reads a pointer anywhere.
            Some((_, AddressingMode::Indirect | AddressingMode::BuggyIndirect)) => any_special,
            _ => false,
        };
        t[usize::from(op)] = if is_jam_6502(op) || (!allow_undocumented && !is_documented_6502(op))
        {
            class::ILLEGAL
        } else if careful {
            class::CAREFUL
        } else {
            class::PLAIN
        };
    }
    if stop_on_brk {
        t[0x00] = class::BRK;
    }
    t
}

/// Whether the instruction at `a` (its bytes from `byte(0)` on) may leave PC and SP as they
/// were: `JMP` to its own address, `JMP (ind)`, branches with offset -2, and the opcodes the
/// `mos6502` crate does not know, which leave PC where it is.
pub(crate) fn may_jump_to_itself(byte: impl Fn(u16) -> u8, a: u16) -> bool {
    let word = |d: u16| u16::from_le_bytes([byte(d), byte(d + 1)]);
    match byte(0) {
        0x4C => word(1) == a,
        0x6C => true,
        0x10 | 0x30 | 0x50 | 0x70 | 0x90 | 0xB0 | 0xD0 | 0xF0 => byte(1) == 0xFE,
        op => Nmos6502::decode(op).is_none(),
    }
}

/// `TXS`, which sets S to anything (the stack check computes the depth afresh after it).
pub(crate) const TXS: u8 = 0x9A;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documented_6502_grid_has_151_opcodes_the_core_knows() {
        let documented: Vec<u8> = (0..=255u8).filter(|&op| is_documented_6502(op)).collect();
        assert_eq!(documented.len(), 151);
        for op in documented {
            assert!(Nmos6502::decode(op).is_some(), "{op:02X}");
            assert!(!is_jam_6502(op), "{op:02X}");
        }
        let jams: Vec<u8> = (0..=255u8).filter(|&op| is_jam_6502(op)).collect();
        assert_eq!(
            jams,
            [
                0x02, 0x12, 0x22, 0x32, 0x42, 0x52, 0x62, 0x72, 0x92, 0xB2, 0xD2, 0xF2
            ]
        );
    }
}
