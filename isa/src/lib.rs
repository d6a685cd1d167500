//! What Kempelen's assembler and its emulated machine agree on, below both: the CPUs
//! ([`Cpu`]), the instruction tables (one per instruction set, shared by the assembler, the
//! disassembler and the emulator's tracer), decoding ([`disasm`]) and the symbol file the
//! assembler writes and the profiler and tracer read ([`symbols`]).
//!
//! Each table is written so that it can be read side by side with the datasheet: the Z80 table
//! in [`z80`] has one block per prefix group (unprefixed, `CB`, `ED`, `DD`/`FD`, `DDCB`/`FDCB`),
//! the 6502 table in [`mos6502`] is the 16x16 opcode grid. Both are parsed once into a list of
//! [`Instr`] rows; everything else (encoding, decoding, listings, cycle counts) reads those rows.
//!
//! ```
//! use kempelen_isa::{Cpu, decode};
//!
//! let bne = decode(Cpu::Mos6502, &[0xD0, 0xFD], 0x0601).unwrap();
//! assert_eq!((bne.text().as_str(), bne.cycles.to_string().as_str()), ("BNE $0600", "2/3/4"));
//! ```

mod cpu;
pub mod disasm;
pub mod files;
pub mod hash;
pub mod mos6502;
mod overlap;
pub mod symbols;
pub mod z80;

pub use cpu::{Cpu, UnknownCpu};
pub use disasm::{DecodeError, Decoded, decode, decode_with, disassemble};
pub use overlap::Overlap;
pub use symbols::{SymbolKind, SymbolTable};

use crate::hash::FastMap as HashMap;
use std::fmt;

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
    Z80(Vec<z80::Operand>),
    /// 6502: the addressing mode.
    Mos6502(mos6502::Mode),
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

fn table(cpu: Cpu) -> &'static Table {
    match cpu {
        Cpu::Z80 => z80::table(),
        Cpu::Mos6502 => mos6502::table(),
        Cpu::Cmos65c02 => mos6502::cmos_table(),
    }
}

/// Calls `f` with `name` in upper case, without allocating for names of up to 8 bytes.
pub fn with_upper<R>(name: &str, f: impl FnOnce(&str) -> R) -> R {
    let mut buf = [0u8; 8];
    if name.len() <= buf.len() && name.is_ascii() {
        for (b, c) in buf.iter_mut().zip(name.bytes()) {
            *b = c.to_ascii_uppercase();
        }
        f(std::str::from_utf8(&buf[..name.len()]).expect("ASCII stays UTF-8"))
    } else {
        f(&name.to_ascii_uppercase())
    }
}

/// Every documented encoding of `cpu`, in opcode order per prefix group.
pub fn instructions(cpu: Cpu) -> &'static [Instr] {
    &table(cpu).instrs
}

/// The rows of `cpu` with this mnemonic (any case), in table order; empty if it is not one.
pub fn forms(cpu: Cpu, mnemonic: &str) -> Vec<&'static Instr> {
    let table = table(cpu);
    let upper = mnemonic.to_ascii_uppercase();
    match table.by_mnemonic.get(upper.as_str()) {
        Some(rows) => rows.iter().map(|&i| &table.instrs[i]).collect(),
        None => Vec::new(),
    }
}

/// The rows of an upper-case mnemonic, without allocating (the assembler's hot path).
pub fn rows(cpu: Cpu, upper: &str) -> impl Iterator<Item = &'static Instr> {
    let table = table(cpu);
    table
        .by_mnemonic
        .get(upper)
        .into_iter()
        .flatten()
        .map(move |&i| &table.instrs[i])
}

/// Whether `name` (any case) is a mnemonic of `cpu`.
pub fn is_mnemonic(cpu: Cpu, name: &str) -> bool {
    with_upper(name, |upper| table(cpu).by_mnemonic.contains_key(upper))
}

/// All mnemonics of `cpu`, sorted.
pub fn mnemonics(cpu: Cpu) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = table(cpu).by_mnemonic.keys().copied().collect();
    names.sort_unstable();
    names
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

    #[test]
    fn table_sizes_match_the_datasheets() {
        // NMOS 6502: 151 documented opcodes.
        assert_eq!(instructions(Cpu::Mos6502).len(), 151);
        assert_eq!(mnemonics(Cpu::Mos6502).len(), 56);
        assert!(is_mnemonic(Cpu::Z80, "ld") && !is_mnemonic(Cpu::Z80, "lda"));
        assert_eq!(forms(Cpu::Mos6502, "lda").len(), 8);
        // 65C02 (the W65C02S): 27 more opcodes and 8 more mnemonics in the common CMOS set
        // (LDA gains (zp)), then 32 bit instructions (RMB0-7, SMB0-7, BBR0-7, BBS0-7), WAI and
        // STP.
        assert_eq!(instructions(Cpu::Cmos65c02).len(), 178 + 32 + 2);
        assert_eq!(mnemonics(Cpu::Cmos65c02).len(), 64 + 32 + 2);
        assert_eq!(forms(Cpu::Cmos65c02, "lda").len(), 9);
    }
}
