//! One row of an instruction table ([`Instr`]): its operands, encoding and cycle cost, and the
//! parsed table with its index by mnemonic.

use std::fmt;

use crate::cpu::Cpu;
use crate::hash::FastMap as HashMap;
use crate::mos6502::mode::Mode;
use crate::z80::operand::Operand;

/// What can add cycles to an instruction beyond [`Cycles::base`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CycleExtra {
    /// Always the same number of cycles.
    None,
    /// Z80 `JR cc`, `DJNZ`, `CALL cc`, `RET cc`: this many more T-states when the condition holds
    /// (the jump, call or return is taken).
    Taken(u8),
    /// Z80 block repeats (`LDIR`, `CPDR`, `OTIR` ...): this many more T-states for every
    /// iteration that repeats; the last iteration costs [`Cycles::base`].
    Repeat(u8),
    /// 6502 indexed read: one more cycle when the effective address is on another page than the
    /// base address.
    PageCross,
    /// 6502 conditional branch: one more cycle when taken, and one more again when the target
    /// is on another page than the next instruction.
    Branch,
}

/// Cycle cost of one instruction: T-states on the Z80, clock cycles on the 6502.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cycles {
    /// Cycles when nothing adds any: branch not taken, last block iteration, no page crossed.
    pub base: u8,
    /// What may add cycles to `base`.
    pub extra: CycleExtra,
}

impl Cycles {
    /// A fixed cost.
    pub const fn fixed(base: u8) -> Cycles {
        Cycles {
            base,
            extra: CycleExtra::None,
        }
    }

    /// Every cost this instruction can have, cheapest first (`[7, 12]` for `JR NZ,e`).
    pub fn alternatives(&self) -> Vec<u8> {
        match self.extra {
            CycleExtra::None => vec![self.base],
            CycleExtra::Taken(n) | CycleExtra::Repeat(n) => vec![self.base, self.base + n],
            CycleExtra::PageCross => vec![self.base, self.base + 1],
            CycleExtra::Branch => vec![self.base, self.base + 1, self.base + 2],
        }
    }

    /// The most this instruction can cost in one execution.
    pub fn max(&self) -> u8 {
        *self
            .alternatives()
            .last()
            .expect("at least one alternative")
    }
}

/// `7`, `7/12` (not taken / taken), `4/5` (page crossed), `2/3/4` (branch).
impl fmt::Display for Cycles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let alternatives = self.alternatives();
        for (i, n) in alternatives.iter().enumerate() {
            if i > 0 {
                f.write_str("/")?;
            }
            write!(f, "{n}")?;
        }
        Ok(())
    }
}

/// The operand shape of one table row, in the terms of its instruction set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Form {
    /// Z80: the operands in order, as in `LD A,(IX+d)`.
    Z80(Vec<Operand>),
    /// 6502: the addressing mode.
    Mos6502(Mode),
}

/// One documented instruction encoding: one row of a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instr {
    /// The instruction set this row belongs to.
    pub cpu: Cpu,
    /// Upper-case mnemonic (`LD`, `LDA`).
    pub mnemonic: &'static str,
    /// Operand pattern in the datasheet's notation: Zilog `A,(IX+d)`, `nn`, `e`, `(n)`; MOS
    /// `#n`, `zp`, `zp,X`, `abs,Y`, `(abs)`, `(zp,X)`, `(zp),Y`, `rel`, `A`. Empty if none.
    pub operands: String,
    /// Prefix bytes before the opcode (`[]`, `[CB]`, `[ED]`, `[DD]`, `[FD]`, `[DD CB]`, `[FD CB]`).
    pub prefix: &'static [u8],
    /// The opcode byte. For `DD CB`/`FD CB` rows it comes after the displacement byte.
    pub opcode: u8,
    /// Length in bytes, operands included.
    pub len: u8,
    /// Cycle cost.
    pub cycles: Cycles,
    /// The operand shape, for encoders and decoders.
    pub form: Form,
}

impl Instr {
    /// The row as a datasheet would print it: `LD A,(IX+d)`, `LDA (zp),Y`.
    pub fn syntax(&self) -> String {
        if self.operands.is_empty() {
            self.mnemonic.to_string()
        } else {
            format!("{} {}", self.mnemonic, self.operands)
        }
    }

    /// The fixed bytes in encoding order, without operands (`DD CB 46` for `BIT 0,(IX+d)`, whose
    /// displacement sits between `CB` and `46`).
    pub fn opcode_bytes(&self) -> Vec<u8> {
        let mut bytes = self.prefix.to_vec();
        bytes.push(self.opcode);
        bytes
    }
}

/// A parsed table plus its indexes, built once per instruction set.
pub(crate) struct Table {
    pub(crate) instrs: Vec<Instr>,
    pub(crate) by_mnemonic: HashMap<&'static str, Vec<usize>>,
}

impl Table {
    pub(crate) fn new(instrs: Vec<Instr>) -> Table {
        let mut by_mnemonic: HashMap<&'static str, Vec<usize>> = HashMap::default();
        for (i, instr) in instrs.iter().enumerate() {
            by_mnemonic.entry(instr.mnemonic).or_default().push(i);
        }
        Table {
            instrs,
            by_mnemonic,
        }
    }
}

/// Parses a table cell's cycle column: `4`, `7/12` (taken), `16/21` (block repeat, decided by
/// the caller), `4*` (6502 page cross), `2**` (6502 branch).
pub(crate) fn parse_cycles(text: &str, repeat: bool) -> Cycles {
    if let Some(base) = text.strip_suffix("**") {
        return Cycles {
            base: base.parse().expect("cycle cell"),
            extra: CycleExtra::Branch,
        };
    }
    if let Some(base) = text.strip_suffix('*') {
        return Cycles {
            base: base.parse().expect("cycle cell"),
            extra: CycleExtra::PageCross,
        };
    }
    if let Some((base, taken)) = text.split_once('/') {
        let base: u8 = base.parse().expect("cycle cell");
        let taken: u8 = taken.parse().expect("cycle cell");
        let extra = if repeat {
            CycleExtra::Repeat(taken - base)
        } else {
            CycleExtra::Taken(taken - base)
        };
        return Cycles { base, extra };
    }
    Cycles::fixed(text.parse().expect("cycle cell"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cycles_display_lists_every_alternative() {
        assert_eq!(parse_cycles("7/12", false).to_string(), "7/12");
        assert_eq!(parse_cycles("16/21", true).extra, CycleExtra::Repeat(5));
        assert_eq!(parse_cycles("4*", false).to_string(), "4/5");
        assert_eq!(parse_cycles("2**", false).to_string(), "2/3/4");
        assert_eq!(parse_cycles("2**", false).max(), 4);
    }
}
