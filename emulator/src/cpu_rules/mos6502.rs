//! The machine's rules for the instructions of the 6502 family: the NMOS 6502 and the CMOS
//! 65C02 (the WDC W65C02S).

use super::choices::OpcodeRules;
use super::class;
use crate::Cpu;
use mos6502::Variant;
use mos6502::instruction::{AddressingMode, Instruction, Nmos6502, W65C02S};

/// Whether `op` is a documented NMOS 6502 opcode: a row of the assembler's instruction table
/// (the one table the assembler, the disassembler and the machine share).
pub fn is_documented_6502(op: u8) -> bool {
    is_documented(Cpu::Mos6502, op)
}

/// Whether `op` is a documented opcode of `cpu` (a row of the assembler's table).
pub fn is_documented(cpu: Cpu, op: u8) -> bool {
    kempelen_isa::decode(cpu, &[op, 0, 0], 0).is_ok_and(|d| d.is_documented())
}

/// The 6502 `JAM` (`KIL`) opcodes, which lock the CPU.
pub(crate) fn is_jam_6502(op: u8) -> bool {
    op & 0x0F == 0x02 && !matches!(op, 0x82 | 0xA2 | 0xC2 | 0xE2)
}

/// `op` as the `mos6502` crate decodes it for `cpu`.
fn decode(cpu: Cpu, op: u8) -> Option<(Instruction, AddressingMode)> {
    match cpu {
        Cpu::Cmos65c02 => W65C02S::decode(op),
        _ => Nmos6502::decode(op),
    }
}

/// Which cycles of `op` are writes, counted from its last cycle (bit 0): what a 6502 on RDY
/// may still do while a video chip asks for the bus (see [`crate::timing`]). Stores write in
/// their last cycle, read-modify-write instructions in their last two, pushes in their third
/// (last), `JSR` in its fourth and fifth of six, `BRK` in its third to fifth of seven.
pub(crate) fn write_cycles(cpu: Cpu, op: u8) -> u8 {
    use Instruction::*;
    let Some((instr, mode)) = decode(cpu, op) else {
        return 0;
    };
    match instr {
        STA | STX | STY | STZ | SAX | PHA | PHP | PHX | PHY => 0b1,
        ASL | LSR | ROL | ROR | INC | DEC if matches!(mode, AddressingMode::Accumulator) => 0,
        ASL | LSR | ROL | ROR | INC | DEC | SLO | RLA | SRE | RRA | DCP | ISC | TRB | TSB => 0b11,
        RMB(_) | SMB(_) => 0b11,
        JSR => 0b110,
        BRK | BRKcld => 0b11100,
        _ => 0,
    }
}

/// The 65C02's `WAI` (wait for an interrupt).
pub(crate) const WAI: u8 = 0xCB;
/// The 65C02's `STP` (stop the clock until a reset).
pub(crate) const STP: u8 = 0xDB;

/// The 6502's opcode classes: `JAM` and (unless allowed) undocumented opcodes are refused,
/// `BRK` stops the run when asked, the 65C02's `STP` stops it and its `WAI` stops it unless an
/// interrupt is pending, and an opcode that may read outside plain memory other
/// than through its decoded address (zero-page pointers, pulls from the stack, `BRK`'s vector,
/// `JMP (ind)`) runs with every access checked when such memory exists.
pub(crate) fn class_table(cpu: Cpu, rules: OpcodeRules, plain: impl Fn(u8) -> bool) -> [u8; 256] {
    let mut t = [class::PLAIN; 256];
    let any_special = !(0..=255).all(&plain);
    for op in 0..=255u8 {
        let careful = match decode(cpu, op) {
            // Pointers in the zero page.
            Some((
                _,
                AddressingMode::IndexedIndirectX
                | AddressingMode::IndirectIndexedY
                | AddressingMode::ZeroPageIndirect,
            )) => !plain(0x00),
            // Pulls read the stack page.
            Some((
                Instruction::PLA
                | Instruction::PLP
                | Instruction::PLX
                | Instruction::PLY
                | Instruction::RTS
                | Instruction::RTI,
                _,
            )) => !plain(0x01),
            // BRK reads its vector.
            Some((Instruction::BRK | Instruction::BRKcld, _)) => !plain(0xFF),
            // JMP (ind) and JMP (ind,X) read a pointer anywhere.
            Some((
                _,
                AddressingMode::Indirect
                | AddressingMode::BuggyIndirect
                | AddressingMode::AbsoluteIndexedIndirect,
            )) => any_special,
            _ => false,
        };
        let jam = cpu == Cpu::Mos6502 && is_jam_6502(op);
        t[usize::from(op)] = if jam || (!rules.allow_undocumented && !is_documented(cpu, op)) {
            class::ILLEGAL
        } else if careful {
            class::CAREFUL
        } else {
            class::PLAIN
        };
    }
    if rules.stop_on_brk {
        t[0x00] = class::BRK;
    }
    if cpu == Cpu::Cmos65c02 {
        t[usize::from(WAI)] = class::WAI;
        t[usize::from(STP)] = class::STP;
    }
    t
}

/// Whether the instruction at `a` (its bytes from `byte(0)` on) may leave PC and SP as they
/// were: `JMP` to its own address, `JMP (ind)`, branches with offset -2, the 65C02's bit
/// branches (`BBR`/`BBS`) with offset -3, and the opcodes the `mos6502` crate does not know,
/// which leave PC where it is.
pub(crate) fn may_jump_to_itself(cpu: Cpu, byte: impl Fn(u16) -> u8, a: u16) -> bool {
    let word = |d: u16| u16::from_le_bytes([byte(d), byte(d + 1)]);
    match byte(0) {
        0x4C => word(1) == a,
        0x6C => true,
        0x7C if cpu == Cpu::Cmos65c02 => true,
        0x10 | 0x30 | 0x50 | 0x70 | 0x90 | 0xB0 | 0xD0 | 0xF0 => byte(1) == 0xFE,
        0x80 if cpu == Cpu::Cmos65c02 => byte(1) == 0xFE,
        op if cpu == Cpu::Cmos65c02 && op & 0x0F == 0x0F => byte(2) == 0xFD,
        op => decode(cpu, op).is_none(),
    }
}

/// `TXS`, which sets S to anything (the stack check computes the depth afresh after it).
pub(crate) const TXS: u8 = 0x9A;

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(allow_undocumented: bool, stop_on_brk: bool) -> OpcodeRules {
        OpcodeRules {
            allow_undocumented,
            stop_on_brk,
        }
    }

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

    #[test]
    fn documented_65c02_opcodes_the_core_knows() {
        let documented: Vec<u8> = (0..=255u8)
            .filter(|&op| is_documented(Cpu::Cmos65c02, op))
            .collect();
        // The W65C02S: 178 CMOS opcodes, Rockwell's 32 bit instructions, WAI and STP.
        assert_eq!(documented.len(), 212);
        for op in documented {
            assert!(W65C02S::decode(op).is_some(), "{op:02X}");
        }
        let t = class_table(Cpu::Cmos65c02, rules(false, false), |_| true);
        assert_eq!(t[usize::from(WAI)], class::WAI);
        assert_eq!(t[usize::from(STP)], class::STP);
        for op in [0x07, 0x87, 0x0F, 0xFF] {
            assert_eq!(t[op], class::PLAIN, "{op:02X}");
        }
        // The NMOS 6502 refuses them: they are undocumented there.
        let t = class_table(Cpu::Mos6502, rules(false, false), |_| true);
        assert_eq!(t[usize::from(WAI)], class::ILLEGAL);
        assert_eq!(t[0x0F], class::ILLEGAL);
        // No JAM on the 65C02: $02 is an undocumented NOP there, refused as undocumented.
        let t = class_table(Cpu::Cmos65c02, rules(true, false), |_| true);
        assert_ne!(t[0x02], class::ILLEGAL);
        let t = class_table(Cpu::Cmos65c02, rules(false, false), |_| true);
        assert_eq!(t[0x02], class::ILLEGAL);
        assert_ne!(t[0xB2], class::ILLEGAL);
    }

    #[test]
    fn bit_branch_to_itself_may_loop() {
        let at = |bytes: [u8; 3]| move |d: u16| bytes[usize::from(d)];
        // BBR0 $12,* (offset -3) and BBS7 $12,*.
        assert!(may_jump_to_itself(
            Cpu::Cmos65c02,
            at([0x0F, 0x12, 0xFD]),
            0x0200
        ));
        assert!(may_jump_to_itself(
            Cpu::Cmos65c02,
            at([0xFF, 0x12, 0xFD]),
            0x0200
        ));
        assert!(!may_jump_to_itself(
            Cpu::Cmos65c02,
            at([0x0F, 0x12, 0xFE]),
            0x0200
        ));
    }
}
