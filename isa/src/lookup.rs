//! Looking up the instruction tables: every row of a CPU, the rows of a mnemonic, the
//! mnemonics.

use crate::cpu::Cpu;
use crate::row::{Instr, Table};
use crate::{mos6502, z80};

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

#[cfg(test)]
mod tests {
    use super::*;

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
