//! The operand values of one decoded Z80 instruction: what its bytes say at each operand
//! position of its row. Both spellings of the disassembler (Zilog's and TDL's) render these.

use super::operand::{Kw, Operand};
use crate::row::{Form, Instr};

/// One operand of a decoded instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// A register, pair or condition (`A`, `HL`, `NZ`).
    Word(Kw),
    /// A register used as a pointer (`(HL)`, `(C)`).
    Ind(Kw),
    /// A number that is part of the opcode: bit number, interrupt mode, restart address.
    Fixed(u8),
    /// `(IX+d)`, `(IY+d)` with its displacement.
    Indexed(Kw, i8),
    /// An immediate byte.
    Imm8(u8),
    /// A port number `(n)`.
    Port(u8),
    /// An immediate word (`LD HL,nn`; the address of `JP nn`, `CALL nn`).
    Imm16(u16),
    /// A memory address `(nn)`.
    Mem(u16),
    /// The destination of a relative jump.
    Rel(u16),
}

/// The operand values of `instr` (a Z80 row) at `addr`, from its `bytes` (at least
/// `instr.len` of them).
pub fn values(instr: &Instr, bytes: &[u8], addr: u16) -> Vec<Value> {
    let Form::Z80(operands) = &instr.form else {
        return Vec::new();
    };
    // DD CB d op: the displacement comes before the opcode.
    let mut pos = if instr.prefix.len() == 2 {
        2
    } else {
        instr.prefix.len() + 1
    };
    let mut take = |n: usize| {
        pos += n;
        &bytes[pos - n..pos]
    };
    operands
        .iter()
        .map(|op| match *op {
            Operand::Word(kw) => Value::Word(kw),
            Operand::Ind(kw) => Value::Ind(kw),
            Operand::Fixed(v) => Value::Fixed(v),
            Operand::Indexed(kw) => Value::Indexed(kw, take(1)[0] as i8),
            Operand::Imm8 => Value::Imm8(take(1)[0]),
            Operand::Port => Value::Port(take(1)[0]),
            Operand::Imm16 => {
                let b = take(2);
                Value::Imm16(u16::from_le_bytes([b[0], b[1]]))
            }
            Operand::Mem => {
                let b = take(2);
                Value::Mem(u16::from_le_bytes([b[0], b[1]]))
            }
            Operand::Rel => {
                let e = take(1)[0] as i8;
                Value::Rel(addr.wrapping_add(instr.len as u16).wrapping_add(e as u16))
            }
        })
        .collect()
}
