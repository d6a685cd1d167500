//! Helpers shared by the integration tests: encoding a table row with chosen operand values.
#![allow(dead_code)]

use kempelen_asm::Instr;
use kempelen_asm::isa::Form;
use kempelen_asm::isa::mos6502::Mode;
use kempelen_asm::isa::z80::Operand;

/// Operand values to put into an encoding.
#[derive(Clone, Copy, Debug)]
pub struct Values {
    /// `n`, `(n)`, 6502 `#n` and zero-page addresses.
    pub byte: u8,
    /// `nn`, `(nn)`, 6502 absolute addresses.
    pub word: u16,
    /// `(IX+d)` displacement.
    pub disp: i8,
    /// Relative jump offset (`e`, 6502 `rel`).
    pub rel: i8,
}

pub const SAMPLE: Values = Values {
    byte: 0x12,
    word: 0x3456,
    disp: -5,
    rel: 0x10,
};

/// The bytes of `instr` with `v` for its operands.
pub fn encode(instr: &Instr, v: Values) -> Vec<u8> {
    match &instr.form {
        Form::Z80(ops) => {
            let mut out = instr.prefix.to_vec();
            if instr.prefix.len() == 2 {
                // DD CB d op
                out.push(v.disp as u8);
                out.push(instr.opcode);
                return out;
            }
            out.push(instr.opcode);
            for op in ops {
                match op {
                    Operand::Indexed(_) => out.push(v.disp as u8),
                    Operand::Imm8 | Operand::Port => out.push(v.byte),
                    Operand::Rel => out.push(v.rel as u8),
                    Operand::Imm16 | Operand::Mem => out.extend(v.word.to_le_bytes()),
                    Operand::Word(_) | Operand::Ind(_) | Operand::Fixed(_) => {}
                }
            }
            out
        }
        Form::Mos6502(mode) => {
            let mut out = vec![instr.opcode];
            match mode.operand_size() {
                0 => {}
                1 if *mode == Mode::Relative => out.push(v.rel as u8),
                1 => out.push(v.byte),
                2 if *mode == Mode::ZeroPageRelative => out.extend([v.byte, v.rel as u8]),
                _ => out.extend(v.word.to_le_bytes()),
            }
            out
        }
    }
}
