//! The NMOS 6502 instruction table: the 16x16 opcode grid of the MOS datasheet.
//!
//! Row = high nibble, column = low nibble. Each cell is `"<mnemonic> <mode> <cycles>"` or `""`
//! for the 105 opcodes MOS does not document. Modes: `A` accumulator, `#n` immediate, `zp`,
//! `zp,X`, `zp,Y`, `abs`, `abs,X`, `abs,Y`, `(abs)` indirect (`JMP` only), `(zp,X)`, `(zp),Y`,
//! `rel` (branches), `zp,rel` (the 65C02's bit branches), nothing for implied. Cycles as in the
//! datasheet: `*` = one more if the indexed address crosses a page, `**` = one more if the
//! branch is taken and one more again if it lands on another page.

use std::sync::OnceLock;

pub(crate) mod mode;

pub use mode::Mode;

use crate::cpu::Cpu;
use crate::row::{Form, Instr, Table, parse_cycles};

#[rustfmt::skip]
const GRID: [[&str; 16]; 16] = [
/*        x0               x1                x2             x3  x4               x5               x6               x7  x8            x9               xA            xB  xC               xD               xE               xF */
/* 0x */ ["BRK 7",         "ORA (zp,X) 6",  "",            "", "",              "ORA zp 3",      "ASL zp 5",      "", "PHP 3",      "ORA #n 2",      "ASL A 2",    "", "",              "ORA abs 4",     "ASL abs 6",     ""],
/* 1x */ ["BPL rel 2**",   "ORA (zp),Y 5*", "",            "", "",              "ORA zp,X 4",    "ASL zp,X 6",    "", "CLC 2",      "ORA abs,Y 4*",  "",           "", "",              "ORA abs,X 4*",  "ASL abs,X 7",   ""],
/* 2x */ ["JSR abs 6",     "AND (zp,X) 6",  "",            "", "BIT zp 3",      "AND zp 3",      "ROL zp 5",      "", "PLP 4",      "AND #n 2",      "ROL A 2",    "", "BIT abs 4",     "AND abs 4",     "ROL abs 6",     ""],
/* 3x */ ["BMI rel 2**",   "AND (zp),Y 5*", "",            "", "",              "AND zp,X 4",    "ROL zp,X 6",    "", "SEC 2",      "AND abs,Y 4*",  "",           "", "",              "AND abs,X 4*",  "ROL abs,X 7",   ""],
/* 4x */ ["RTI 6",         "EOR (zp,X) 6",  "",            "", "",              "EOR zp 3",      "LSR zp 5",      "", "PHA 3",      "EOR #n 2",      "LSR A 2",    "", "JMP abs 3",     "EOR abs 4",     "LSR abs 6",     ""],
/* 5x */ ["BVC rel 2**",   "EOR (zp),Y 5*", "",            "", "",              "EOR zp,X 4",    "LSR zp,X 6",    "", "CLI 2",      "EOR abs,Y 4*",  "",           "", "",              "EOR abs,X 4*",  "LSR abs,X 7",   ""],
/* 6x */ ["RTS 6",         "ADC (zp,X) 6",  "",            "", "",              "ADC zp 3",      "ROR zp 5",      "", "PLA 4",      "ADC #n 2",      "ROR A 2",    "", "JMP (abs) 5",   "ADC abs 4",     "ROR abs 6",     ""],
/* 7x */ ["BVS rel 2**",   "ADC (zp),Y 5*", "",            "", "",              "ADC zp,X 4",    "ROR zp,X 6",    "", "SEI 2",      "ADC abs,Y 4*",  "",           "", "",              "ADC abs,X 4*",  "ROR abs,X 7",   ""],
/* 8x */ ["",              "STA (zp,X) 6",  "",            "", "STY zp 3",      "STA zp 3",      "STX zp 3",      "", "DEY 2",      "",              "TXA 2",      "", "STY abs 4",     "STA abs 4",     "STX abs 4",     ""],
/* 9x */ ["BCC rel 2**",   "STA (zp),Y 6",  "",            "", "STY zp,X 4",    "STA zp,X 4",    "STX zp,Y 4",    "", "TYA 2",      "STA abs,Y 5",   "TXS 2",      "", "",              "STA abs,X 5",   "",              ""],
/* Ax */ ["LDY #n 2",      "LDA (zp,X) 6",  "LDX #n 2",    "", "LDY zp 3",      "LDA zp 3",      "LDX zp 3",      "", "TAY 2",      "LDA #n 2",      "TAX 2",      "", "LDY abs 4",     "LDA abs 4",     "LDX abs 4",     ""],
/* Bx */ ["BCS rel 2**",   "LDA (zp),Y 5*", "",            "", "LDY zp,X 4",    "LDA zp,X 4",    "LDX zp,Y 4",    "", "CLV 2",      "LDA abs,Y 4*",  "TSX 2",      "", "LDY abs,X 4*",  "LDA abs,X 4*",  "LDX abs,Y 4*",  ""],
/* Cx */ ["CPY #n 2",      "CMP (zp,X) 6",  "",            "", "CPY zp 3",      "CMP zp 3",      "DEC zp 5",      "", "INY 2",      "CMP #n 2",      "DEX 2",      "", "CPY abs 4",     "CMP abs 4",     "DEC abs 6",     ""],
/* Dx */ ["BNE rel 2**",   "CMP (zp),Y 5*", "",            "", "",              "CMP zp,X 4",    "DEC zp,X 6",    "", "CLD 2",      "CMP abs,Y 4*",  "",           "", "",              "CMP abs,X 4*",  "DEC abs,X 7",   ""],
/* Ex */ ["CPX #n 2",      "SBC (zp,X) 6",  "",            "", "CPX zp 3",      "SBC zp 3",      "INC zp 5",      "", "INX 2",      "SBC #n 2",      "NOP 2",      "", "CPX abs 4",     "SBC abs 4",     "INC abs 6",     ""],
/* Fx */ ["BEQ rel 2**",   "SBC (zp),Y 5*", "",            "", "",              "SBC zp,X 4",    "INC zp,X 6",    "", "SED 2",      "SBC abs,Y 4*",  "",           "", "",              "SBC abs,X 4*",  "INC abs,X 7",   ""],
];

/// The 65C02's changes to the grid (WDC W65C02S datasheet, the set WDC and Rockwell parts
/// share): new opcodes in empty cells, and cells whose cycles differ from the NMOS part
/// (`JMP (abs)` takes 6; the shifts and rotates on `abs,X` take 6, plus one on a page
/// cross). Decimal-mode `ADC`/`SBC` take one cycle more, which a table cannot show.
const CMOS_CELLS: [(u8, &str); 31] = [
    (0x04, "TSB zp 5"),
    (0x0C, "TSB abs 6"),
    (0x12, "ORA (zp) 5"),
    (0x14, "TRB zp 5"),
    (0x1A, "INC A 2"),
    (0x1C, "TRB abs 6"),
    (0x1E, "ASL abs,X 6*"),
    (0x32, "AND (zp) 5"),
    (0x34, "BIT zp,X 4"),
    (0x3A, "DEC A 2"),
    (0x3C, "BIT abs,X 4*"),
    (0x3E, "ROL abs,X 6*"),
    (0x52, "EOR (zp) 5"),
    (0x5A, "PHY 3"),
    (0x5E, "LSR abs,X 6*"),
    (0x64, "STZ zp 3"),
    (0x6C, "JMP (abs) 6"),
    (0x72, "ADC (zp) 5"),
    (0x74, "STZ zp,X 4"),
    (0x7A, "PLY 4"),
    (0x7C, "JMP (abs,X) 6"),
    (0x7E, "ROR abs,X 6*"),
    (0x80, "BRA rel 3*"),
    (0x89, "BIT #n 2"),
    (0x92, "STA (zp) 5"),
    (0x9C, "STZ abs 4"),
    (0x9E, "STZ abs,X 5"),
    (0xB2, "LDA (zp) 5"),
    (0xD2, "CMP (zp) 5"),
    (0xDA, "PHX 3"),
    (0xF2, "SBC (zp) 5"),
];

/// The 65C02 cells that are not in [`CMOS_CELLS`] as a change of an NMOS cell.
const CMOS_PULL_X: (u8, &str) = (0xFA, "PLX 4");

/// The W65C02S's instructions beyond the common CMOS set (WDC W65C02S datasheet): WDC's `WAI`
/// (wait for an interrupt) and `STP` (stop the clock until a reset), 3 cycles each before they
/// wait.
const WDC_CELLS: [(u8, &str); 2] = [(0xCB, "WAI 3"), (0xDB, "STP 3")];

/// The W65C02S's bit instructions, first made by Rockwell, in columns 7 and F: `RMBn zp` /
/// `SMBn zp` (reset / set bit n of a zero-page byte, 5 cycles) in rows 0-7 / 8-F, and
/// `BBRn zp,rel` / `BBSn zp,rel` (branch if bit n is reset / set) likewise: 5 cycles, one
/// more when the branch is taken and one more again when it lands on another page, like
/// every branch.
fn bit_cells() -> impl Iterator<Item = (u8, &'static str)> {
    (0u8..16).flat_map(|row| {
        let n = usize::from(row & 7);
        let (memory_bit, bit_branch) = if row < 8 {
            (RMB[n], BBR[n])
        } else {
            (SMB[n], BBS[n])
        };
        [(row << 4 | 0x07, memory_bit), (row << 4 | 0x0F, bit_branch)]
    })
}

const RMB: [&str; 8] = [
    "RMB0 zp 5",
    "RMB1 zp 5",
    "RMB2 zp 5",
    "RMB3 zp 5",
    "RMB4 zp 5",
    "RMB5 zp 5",
    "RMB6 zp 5",
    "RMB7 zp 5",
];
const SMB: [&str; 8] = [
    "SMB0 zp 5",
    "SMB1 zp 5",
    "SMB2 zp 5",
    "SMB3 zp 5",
    "SMB4 zp 5",
    "SMB5 zp 5",
    "SMB6 zp 5",
    "SMB7 zp 5",
];
const BBR: [&str; 8] = [
    "BBR0 zp,rel 5**",
    "BBR1 zp,rel 5**",
    "BBR2 zp,rel 5**",
    "BBR3 zp,rel 5**",
    "BBR4 zp,rel 5**",
    "BBR5 zp,rel 5**",
    "BBR6 zp,rel 5**",
    "BBR7 zp,rel 5**",
];
const BBS: [&str; 8] = [
    "BBS0 zp,rel 5**",
    "BBS1 zp,rel 5**",
    "BBS2 zp,rel 5**",
    "BBS3 zp,rel 5**",
    "BBS4 zp,rel 5**",
    "BBS5 zp,rel 5**",
    "BBS6 zp,rel 5**",
    "BBS7 zp,rel 5**",
];

const MNEMONICS: [&str; 98] = [
    "ADC", "AND", "ASL", "BCC", "BCS", "BEQ", "BIT", "BMI", "BNE", "BPL", "BRK", "BVC", "BVS",
    "CLC", "CLD", "CLI", "CLV", "CMP", "CPX", "CPY", "DEC", "DEX", "DEY", "EOR", "INC", "INX",
    "INY", "JMP", "JSR", "LDA", "LDX", "LDY", "LSR", "NOP", "ORA", "PHA", "PHP", "PLA", "PLP",
    "ROL", "ROR", "RTI", "RTS", "SBC", "SEC", "SED", "SEI", "STA", "STX", "STY", "TAX", "TAY",
    "TSX", "TXA", "TXS", "TYA", // 65C02 only:
    "BRA", "PHX", "PHY", "PLX", "PLY", "STZ", "TRB", "TSB", // W65C02S only:
    "WAI", "STP", "RMB0", "RMB1", "RMB2", "RMB3", "RMB4", "RMB5", "RMB6", "RMB7", "SMB0", "SMB1",
    "SMB2", "SMB3", "SMB4", "SMB5", "SMB6", "SMB7", "BBR0", "BBR1", "BBR2", "BBR3", "BBR4", "BBR5",
    "BBR6", "BBR7", "BBS0", "BBS1", "BBS2", "BBS3", "BBS4", "BBS5", "BBS6", "BBS7",
];

fn row(cpu: Cpu, opcode: u8, cell: &str) -> Instr {
    let mut parts = cell.split(' ');
    let mnemonic = parts.next().expect("cell has a mnemonic");
    let mnemonic = MNEMONICS
        .iter()
        .copied()
        .find(|m| *m == mnemonic)
        .expect("known mnemonic");
    let rest: Vec<&str> = parts.collect();
    let (mode, cycles) = match rest.as_slice() {
        [cycles] => (Mode::Implied, *cycles),
        [mode, cycles] => (
            Mode::parse(mode).unwrap_or_else(|| panic!("bad mode in {cell:?}")),
            *cycles,
        ),
        _ => panic!("bad cell {cell:?}"),
    };
    Instr {
        cpu,
        mnemonic,
        operands: mode.notation().to_string(),
        prefix: &[],
        opcode,
        len: 1 + mode.operand_size(),
        cycles: parse_cycles(cycles, false),
        form: Form::Mos6502(mode),
    }
}

pub(crate) struct Mos6502Table {
    pub(crate) table: Table,
    decode: [Option<u16>; 256],
}

fn build(cpu: Cpu) -> Mos6502Table {
    let mut cells: [[&str; 16]; 16] = GRID;
    if cpu == Cpu::Cmos65c02 {
        let cmos = CMOS_CELLS.into_iter().chain([CMOS_PULL_X]);
        for (opcode, cell) in cmos.chain(WDC_CELLS).chain(bit_cells()) {
            cells[usize::from(opcode >> 4)][usize::from(opcode & 15)] = cell;
        }
    }
    let mut instrs = Vec::new();
    let mut decode = [None; 256];
    for (hi, cells) in cells.iter().enumerate() {
        for (lo, cell) in cells.iter().enumerate() {
            if cell.is_empty() {
                continue;
            }
            let opcode = (hi * 16 + lo) as u8;
            decode[opcode as usize] = Some(instrs.len() as u16);
            instrs.push(row(cpu, opcode, cell));
        }
    }
    Mos6502Table {
        table: Table::new(instrs),
        decode,
    }
}

fn mos_table(cpu: Cpu) -> &'static Mos6502Table {
    static NMOS: OnceLock<Mos6502Table> = OnceLock::new();
    static CMOS: OnceLock<Mos6502Table> = OnceLock::new();
    match cpu {
        Cpu::Cmos65c02 => CMOS.get_or_init(|| build(Cpu::Cmos65c02)),
        _ => NMOS.get_or_init(|| build(Cpu::Mos6502)),
    }
}

pub(crate) fn table() -> &'static Table {
    &mos_table(Cpu::Mos6502).table
}

pub(crate) fn cmos_table() -> &'static Table {
    &mos_table(Cpu::Cmos65c02).table
}

/// The documented NMOS row for an opcode.
#[cfg(test)]
pub(crate) fn lookup(opcode: u8) -> Option<&'static Instr> {
    lookup_for(Cpu::Mos6502, opcode)
}

/// The documented row for an opcode on the NMOS 6502 or the 65C02.
pub(crate) fn lookup_for(cpu: Cpu, opcode: u8) -> Option<&'static Instr> {
    let t = mos_table(cpu);
    t.decode[opcode as usize].map(|i| &t.table.instrs[i as usize])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 65C02's documented row for `op`.
    fn cmos(op: u8) -> &'static Instr {
        lookup_for(Cpu::Cmos65c02, op).unwrap()
    }

    #[test]
    fn grid_rows() {
        let lda = lookup(0xB1).unwrap();
        assert_eq!(lda.syntax(), "LDA (zp),Y");
        assert_eq!(lda.cycles.to_string(), "5/6");
        assert_eq!(lookup(0x6C).unwrap().syntax(), "JMP (abs)");
        assert!(lookup(0x02).is_none());
        assert_eq!(lookup(0xD0).unwrap().cycles.to_string(), "2/3/4");
    }

    #[test]
    fn cmos_cells() {
        assert_eq!(cmos(0xB2).syntax(), "LDA (zp)");
        assert_eq!(cmos(0x7C).syntax(), "JMP (abs,X)");
        assert_eq!(cmos(0x7C).len, 3);
        assert_eq!(cmos(0x6C).cycles.to_string(), "6");
        assert_eq!(cmos(0x1E).cycles.to_string(), "6/7");
        assert_eq!(cmos(0x80).cycles.to_string(), "3/4");
        assert_eq!(cmos(0xFA).syntax(), "PLX");
        // Unchanged NMOS cells and the NMOS table itself.
        assert_eq!(cmos(0xFE).cycles.to_string(), "7");
        assert!(lookup(0xB2).is_none());
        assert_eq!(lookup(0x6C).unwrap().cycles.to_string(), "5");
    }

    #[test]
    fn w65c02s_cells() {
        for (op, syntax) in [
            (0x07, "RMB0 zp"),
            (0x77, "RMB7 zp"),
            (0x87, "SMB0 zp"),
            (0xF7, "SMB7 zp"),
            (0x0F, "BBR0 zp,rel"),
            (0x7F, "BBR7 zp,rel"),
            (0x8F, "BBS0 zp,rel"),
            (0xFF, "BBS7 zp,rel"),
            (0xCB, "WAI"),
            (0xDB, "STP"),
        ] {
            assert_eq!(cmos(op).syntax(), syntax, "{op:02X}");
        }
        assert_eq!(cmos(0xF7).cycles.to_string(), "5");
        assert_eq!(
            (cmos(0xFF).len, cmos(0xFF).cycles.to_string()),
            (3, "5/6/7".into())
        );
        assert_eq!(cmos(0xDB).cycles.to_string(), "3");
        // None of them on the NMOS 6502.
        for op in [0x07, 0x87, 0x0F, 0x8F, 0xCB, 0xDB] {
            assert!(lookup(op).is_none(), "{op:02X}");
        }
    }
}
