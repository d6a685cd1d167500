//! The Z80 instruction table, in Zilog syntax as in the Z80 CPU User Manual (UM0080).
//!
//! One block per prefix group. Each cell is `"<instruction> <T-states>"`; two T-state figures
//! `a/b` mean "condition false / condition true" for `JR cc`, `DJNZ`, `CALL cc`, `RET cc`, and
//! "last iteration / repeating iteration" for the block repeats (`LDIR` ...). Operand
//! placeholders follow the manual: `n` 8-bit immediate, `nn` 16-bit immediate, `(n)` port,
//! `(nn)` memory, `d` signed index displacement, `e` relative jump target.
//!
//! Only documented instructions are rows. Undocumented encodings (`SLL`, `IXH`/`IXL`,
//! `OUT (C),0`, `ED` mirrors) still decode, as `DB` with their true length and T-states; see
//! `undocumented`.

use std::sync::OnceLock;

pub(crate) mod operand;
mod value;

pub use operand::{Kw, Operand};
pub use value::{Value, values};

use crate::cpu::Cpu;
use crate::row::{Form, Instr, Table, parse_cycles};

/// The prefix groups, each with its own 256-entry decoding index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Group {
    Base,
    Cb,
    Ed,
    Dd,
    Fd,
    DdCb,
    FdCb,
}

impl Group {
    fn prefix(self) -> &'static [u8] {
        match self {
            Group::Base => &[],
            Group::Cb => &[0xCB],
            Group::Ed => &[0xED],
            Group::Dd => &[0xDD],
            Group::Fd => &[0xFD],
            Group::DdCb => &[0xDD, 0xCB],
            Group::FdCb => &[0xFD, 0xCB],
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// Unprefixed opcodes 00-FF, eight to a line (x0-x7, x8-xF) as on the usual opcode chart.
/// `(CB)`, `(DD)`, `(ED)`, `(FD)` are the prefixes of the other groups.
#[rustfmt::skip]
const BASE: [&str; 256] = [
/* 0x */ "NOP 4",        "LD BC,nn 10",  "LD (BC),A 7",  "INC BC 6",     "INC B 4",        "DEC B 4",     "LD B,n 7",     "RLCA 4",
/* 0x */ "EX AF,AF' 4",  "ADD HL,BC 11", "LD A,(BC) 7",  "DEC BC 6",     "INC C 4",        "DEC C 4",     "LD C,n 7",     "RRCA 4",
/* 1x */ "DJNZ e 8/13",  "LD DE,nn 10",  "LD (DE),A 7",  "INC DE 6",     "INC D 4",        "DEC D 4",     "LD D,n 7",     "RLA 4",
/* 1x */ "JR e 12",      "ADD HL,DE 11", "LD A,(DE) 7",  "DEC DE 6",     "INC E 4",        "DEC E 4",     "LD E,n 7",     "RRA 4",
/* 2x */ "JR NZ,e 7/12", "LD HL,nn 10",  "LD (nn),HL 16","INC HL 6",     "INC H 4",        "DEC H 4",     "LD H,n 7",     "DAA 4",
/* 2x */ "JR Z,e 7/12",  "ADD HL,HL 11", "LD HL,(nn) 16","DEC HL 6",     "INC L 4",        "DEC L 4",     "LD L,n 7",     "CPL 4",
/* 3x */ "JR NC,e 7/12", "LD SP,nn 10",  "LD (nn),A 13", "INC SP 6",     "INC (HL) 11",    "DEC (HL) 11", "LD (HL),n 10", "SCF 4",
/* 3x */ "JR C,e 7/12",  "ADD HL,SP 11", "LD A,(nn) 13", "DEC SP 6",     "INC A 4",        "DEC A 4",     "LD A,n 7",     "CCF 4",
/* 4x */ "LD B,B 4",     "LD B,C 4",     "LD B,D 4",     "LD B,E 4",     "LD B,H 4",       "LD B,L 4",    "LD B,(HL) 7",  "LD B,A 4",
/* 4x */ "LD C,B 4",     "LD C,C 4",     "LD C,D 4",     "LD C,E 4",     "LD C,H 4",       "LD C,L 4",    "LD C,(HL) 7",  "LD C,A 4",
/* 5x */ "LD D,B 4",     "LD D,C 4",     "LD D,D 4",     "LD D,E 4",     "LD D,H 4",       "LD D,L 4",    "LD D,(HL) 7",  "LD D,A 4",
/* 5x */ "LD E,B 4",     "LD E,C 4",     "LD E,D 4",     "LD E,E 4",     "LD E,H 4",       "LD E,L 4",    "LD E,(HL) 7",  "LD E,A 4",
/* 6x */ "LD H,B 4",     "LD H,C 4",     "LD H,D 4",     "LD H,E 4",     "LD H,H 4",       "LD H,L 4",    "LD H,(HL) 7",  "LD H,A 4",
/* 6x */ "LD L,B 4",     "LD L,C 4",     "LD L,D 4",     "LD L,E 4",     "LD L,H 4",       "LD L,L 4",    "LD L,(HL) 7",  "LD L,A 4",
/* 7x */ "LD (HL),B 7",  "LD (HL),C 7",  "LD (HL),D 7",  "LD (HL),E 7",  "LD (HL),H 7",    "LD (HL),L 7", "HALT 4",       "LD (HL),A 7",
/* 7x */ "LD A,B 4",     "LD A,C 4",     "LD A,D 4",     "LD A,E 4",     "LD A,H 4",       "LD A,L 4",    "LD A,(HL) 7",  "LD A,A 4",
/* 8x */ "ADD A,B 4",    "ADD A,C 4",    "ADD A,D 4",    "ADD A,E 4",    "ADD A,H 4",      "ADD A,L 4",   "ADD A,(HL) 7", "ADD A,A 4",
/* 8x */ "ADC A,B 4",    "ADC A,C 4",    "ADC A,D 4",    "ADC A,E 4",    "ADC A,H 4",      "ADC A,L 4",   "ADC A,(HL) 7", "ADC A,A 4",
/* 9x */ "SUB B 4",      "SUB C 4",      "SUB D 4",      "SUB E 4",      "SUB H 4",        "SUB L 4",     "SUB (HL) 7",   "SUB A 4",
/* 9x */ "SBC A,B 4",    "SBC A,C 4",    "SBC A,D 4",    "SBC A,E 4",    "SBC A,H 4",      "SBC A,L 4",   "SBC A,(HL) 7", "SBC A,A 4",
/* Ax */ "AND B 4",      "AND C 4",      "AND D 4",      "AND E 4",      "AND H 4",        "AND L 4",     "AND (HL) 7",   "AND A 4",
/* Ax */ "XOR B 4",      "XOR C 4",      "XOR D 4",      "XOR E 4",      "XOR H 4",        "XOR L 4",     "XOR (HL) 7",   "XOR A 4",
/* Bx */ "OR B 4",       "OR C 4",       "OR D 4",       "OR E 4",       "OR H 4",         "OR L 4",      "OR (HL) 7",    "OR A 4",
/* Bx */ "CP B 4",       "CP C 4",       "CP D 4",       "CP E 4",       "CP H 4",         "CP L 4",      "CP (HL) 7",    "CP A 4",
/* Cx */ "RET NZ 5/11",  "POP BC 10",    "JP NZ,nn 10",  "JP nn 10",     "CALL NZ,nn 10/17","PUSH BC 11", "ADD A,n 7",    "RST $00 11",
/* Cx */ "RET Z 5/11",   "RET 10",       "JP Z,nn 10",   "(CB)",         "CALL Z,nn 10/17","CALL nn 17",  "ADC A,n 7",    "RST $08 11",
/* Dx */ "RET NC 5/11",  "POP DE 10",    "JP NC,nn 10",  "OUT (n),A 11", "CALL NC,nn 10/17","PUSH DE 11", "SUB n 7",      "RST $10 11",
/* Dx */ "RET C 5/11",   "EXX 4",        "JP C,nn 10",   "IN A,(n) 11",  "CALL C,nn 10/17","(DD)",        "SBC A,n 7",    "RST $18 11",
/* Ex */ "RET PO 5/11",  "POP HL 10",    "JP PO,nn 10",  "EX (SP),HL 19","CALL PO,nn 10/17","PUSH HL 11", "AND n 7",      "RST $20 11",
/* Ex */ "RET PE 5/11",  "JP (HL) 4",    "JP PE,nn 10",  "EX DE,HL 4",   "CALL PE,nn 10/17","(ED)",       "XOR n 7",      "RST $28 11",
/* Fx */ "RET P 5/11",   "POP AF 10",    "JP P,nn 10",   "DI 4",         "CALL P,nn 10/17","PUSH AF 11",  "OR n 7",       "RST $30 11",
/* Fx */ "RET M 5/11",   "LD SP,HL 6",   "JP M,nn 10",   "EI 4",         "CALL M,nn 10/17","(FD)",        "CP n 7",       "RST $38 11",
];

/// `ED` group: the documented opcodes (the rest of the group is undocumented).
#[rustfmt::skip]
const ED: &[(u8, &str)] = &[
    (0x40, "IN B,(C) 12"),  (0x41, "OUT (C),B 12"), (0x42, "SBC HL,BC 15"), (0x43, "LD (nn),BC 20"),
    (0x44, "NEG 8"),        (0x45, "RETN 14"),      (0x46, "IM 0 8"),       (0x47, "LD I,A 9"),
    (0x48, "IN C,(C) 12"),  (0x49, "OUT (C),C 12"), (0x4A, "ADC HL,BC 15"), (0x4B, "LD BC,(nn) 20"),
    (0x4D, "RETI 14"),      (0x4F, "LD R,A 9"),
    (0x50, "IN D,(C) 12"),  (0x51, "OUT (C),D 12"), (0x52, "SBC HL,DE 15"), (0x53, "LD (nn),DE 20"),
    (0x56, "IM 1 8"),       (0x57, "LD A,I 9"),
    (0x58, "IN E,(C) 12"),  (0x59, "OUT (C),E 12"), (0x5A, "ADC HL,DE 15"), (0x5B, "LD DE,(nn) 20"),
    (0x5E, "IM 2 8"),       (0x5F, "LD A,R 9"),
    (0x60, "IN H,(C) 12"),  (0x61, "OUT (C),H 12"), (0x62, "SBC HL,HL 15"), (0x67, "RRD 18"),
    (0x68, "IN L,(C) 12"),  (0x69, "OUT (C),L 12"), (0x6A, "ADC HL,HL 15"), (0x6F, "RLD 18"),
    (0x72, "SBC HL,SP 15"), (0x73, "LD (nn),SP 20"),
    (0x78, "IN A,(C) 12"),  (0x79, "OUT (C),A 12"), (0x7A, "ADC HL,SP 15"), (0x7B, "LD SP,(nn) 20"),
    (0xA0, "LDI 16"),       (0xA1, "CPI 16"),       (0xA2, "INI 16"),       (0xA3, "OUTI 16"),
    (0xA8, "LDD 16"),       (0xA9, "CPD 16"),       (0xAA, "IND 16"),       (0xAB, "OUTD 16"),
    (0xB0, "LDIR 16/21"),   (0xB1, "CPIR 16/21"),   (0xB2, "INIR 16/21"),   (0xB3, "OTIR 16/21"),
    (0xB8, "LDDR 16/21"),   (0xB9, "CPDR 16/21"),   (0xBA, "INDR 16/21"),   (0xBB, "OTDR 16/21"),
];

/// `DD` group (IX). The `FD` group (IY) is the same with `IY` for `IX`.
#[rustfmt::skip]
const DD: &[(u8, &str)] = &[
    (0x09, "ADD IX,BC 15"),     (0x19, "ADD IX,DE 15"),     (0x21, "LD IX,nn 14"),      (0x22, "LD (nn),IX 20"),
    (0x23, "INC IX 10"),        (0x29, "ADD IX,IX 15"),     (0x2A, "LD IX,(nn) 20"),    (0x2B, "DEC IX 10"),
    (0x34, "INC (IX+d) 23"),    (0x35, "DEC (IX+d) 23"),    (0x36, "LD (IX+d),n 19"),   (0x39, "ADD IX,SP 15"),
    (0x46, "LD B,(IX+d) 19"),   (0x4E, "LD C,(IX+d) 19"),   (0x56, "LD D,(IX+d) 19"),   (0x5E, "LD E,(IX+d) 19"),
    (0x66, "LD H,(IX+d) 19"),   (0x6E, "LD L,(IX+d) 19"),   (0x7E, "LD A,(IX+d) 19"),
    (0x70, "LD (IX+d),B 19"),   (0x71, "LD (IX+d),C 19"),   (0x72, "LD (IX+d),D 19"),   (0x73, "LD (IX+d),E 19"),
    (0x74, "LD (IX+d),H 19"),   (0x75, "LD (IX+d),L 19"),   (0x77, "LD (IX+d),A 19"),
    (0x86, "ADD A,(IX+d) 19"),  (0x8E, "ADC A,(IX+d) 19"),  (0x96, "SUB (IX+d) 19"),    (0x9E, "SBC A,(IX+d) 19"),
    (0xA6, "AND (IX+d) 19"),    (0xAE, "XOR (IX+d) 19"),    (0xB6, "OR (IX+d) 19"),     (0xBE, "CP (IX+d) 19"),
    (0xE1, "POP IX 14"),        (0xE3, "EX (SP),IX 23"),    (0xE5, "PUSH IX 15"),       (0xE9, "JP (IX) 8"),
    (0xF9, "LD SP,IX 10"),
];

/// The eight registers in the order of the 3-bit register field (110 = `(HL)`).
const REGISTER_FIELD: [&str; 8] = ["B", "C", "D", "E", "H", "L", "(HL)", "A"];

/// The `CB` group, written as the manual describes it by bit fields: `CB 00 yyy rrr` is a
/// rotate or shift (`y` = RLC RRC RL RR SLA SRA (SLL) SRL), `01 bbb rrr` is `BIT b,r`,
/// `10 bbb rrr` `RES b,r`, `11 bbb rrr` `SET b,r`. 8 T-states on a register; on `(HL)` 12 for
/// `BIT` and 15 for the others. `CB 30-37` (`SLL`) is undocumented and left out.
fn cb_cell(opcode: u8) -> Option<String> {
    const ROTATES: [Option<&str>; 8] = [
        Some("RLC"),
        Some("RRC"),
        Some("RL"),
        Some("RR"),
        Some("SLA"),
        Some("SRA"),
        None,
        Some("SRL"),
    ];
    let (x, y, z) = (opcode >> 6, (opcode >> 3) & 7, opcode & 7);
    let reg = REGISTER_FIELD[z as usize];
    let memory = z == 6;
    Some(match x {
        0 => format!(
            "{} {} {}",
            ROTATES[y as usize]?,
            reg,
            if memory { 15 } else { 8 }
        ),
        1 => format!("BIT {y},{reg} {}", if memory { 12 } else { 8 }),
        2 => format!("RES {y},{reg} {}", if memory { 15 } else { 8 }),
        _ => format!("SET {y},{reg} {}", if memory { 15 } else { 8 }),
    })
}

/// The `DD CB d op` group: every documented `CB` instruction on `(HL)`, applied to `(IX+d)`:
/// 20 T-states for `BIT`, 23 for the others. (`FD CB` is the same with `IY`.)
fn ddcb_cell(opcode: u8) -> Option<String> {
    if opcode & 7 != 6 {
        return None;
    }
    let cell = cb_cell(opcode)?;
    let (text, _) = cell.rsplit_once(' ').expect("cell has a cycle column");
    let cycles = if opcode >> 6 == 1 { 20 } else { 23 };
    Some(format!("{} {cycles}", text.replace("(HL)", "(IX+d)")))
}

/// Builds one row from a cell `"<mnemonic> <operands> <cycles>"`.
fn row(group: Group, opcode: u8, cell: &str) -> Instr {
    let (text, cycles) = cell
        .rsplit_once(' ')
        .unwrap_or_else(|| panic!("cell {cell:?} has no cycle column"));
    let (mnemonic, operands) = text.split_once(' ').unwrap_or((text, ""));
    let mnemonic: &'static str = leak_mnemonic(mnemonic);
    let form: Vec<Operand> = if operands.is_empty() {
        Vec::new()
    } else {
        operands
            .split(',')
            .map(|o| {
                Operand::parse_pattern(o)
                    .unwrap_or_else(|| panic!("bad operand {o:?} in cell {cell:?}"))
            })
            .collect()
    };
    let repeat = matches!(
        mnemonic,
        "LDIR" | "LDDR" | "CPIR" | "CPDR" | "INIR" | "INDR" | "OTIR" | "OTDR"
    );
    let len = group.prefix().len() as u8 + 1 + form.iter().map(|o| o.size()).sum::<u8>();
    Instr {
        cpu: Cpu::Z80,
        mnemonic,
        operands: operands.to_string(),
        prefix: group.prefix(),
        opcode,
        len,
        cycles: parse_cycles(cycles, repeat),
        form: Form::Z80(form),
    }
}

/// Mnemonics are kept as `&'static str` so rows and decoded instructions can hand them out
/// freely; the table is built once, so each distinct spelling is leaked once.
fn leak_mnemonic(name: &str) -> &'static str {
    const KNOWN: &[&str] = &[
        "ADC", "ADD", "AND", "BIT", "CALL", "CCF", "CP", "CPD", "CPDR", "CPI", "CPIR", "CPL",
        "DAA", "DEC", "DI", "DJNZ", "EI", "EX", "EXX", "HALT", "IM", "IN", "INC", "IND", "INDR",
        "INI", "INIR", "JP", "JR", "LD", "LDD", "LDDR", "LDI", "LDIR", "NEG", "NOP", "OR", "OTDR",
        "OTIR", "OUT", "OUTD", "OUTI", "POP", "PUSH", "RES", "RET", "RETI", "RETN", "RL", "RLA",
        "RLC", "RLCA", "RLD", "RR", "RRA", "RRC", "RRCA", "RRD", "RST", "SBC", "SCF", "SET", "SLA",
        "SRA", "SRL", "SUB", "XOR",
    ];
    KNOWN
        .iter()
        .copied()
        .find(|k| *k == name)
        .unwrap_or_else(|| panic!("mnemonic {name} missing from KNOWN"))
}

/// The parsed Z80 table and one decoding index per prefix group.
pub(crate) struct Z80Table {
    pub(crate) table: Table,
    /// `decode[group][opcode]` = row index.
    decode: [[Option<u16>; 256]; 7],
}

fn build() -> Z80Table {
    let mut rows: Vec<(Group, u8, String)> = Vec::new();
    for (op, cell) in BASE.iter().enumerate() {
        if !cell.starts_with('(') {
            rows.push((Group::Base, op as u8, cell.to_string()));
        }
    }
    for op in 0..=255u8 {
        if let Some(cell) = cb_cell(op) {
            rows.push((Group::Cb, op, cell));
        }
    }
    for &(op, cell) in ED {
        rows.push((Group::Ed, op, cell.to_string()));
    }
    for &(op, cell) in DD {
        rows.push((Group::Dd, op, cell.to_string()));
    }
    for &(op, cell) in DD {
        rows.push((Group::Fd, op, cell.replace("IX", "IY")));
    }
    for op in 0..=255u8 {
        if let Some(cell) = ddcb_cell(op) {
            rows.push((Group::DdCb, op, cell));
        }
    }
    for op in 0..=255u8 {
        if let Some(cell) = ddcb_cell(op) {
            rows.push((Group::FdCb, op, cell.replace("IX", "IY")));
        }
    }
    let mut decode = [[None; 256]; 7];
    let mut instrs = Vec::with_capacity(rows.len());
    for (i, (group, op, cell)) in rows.into_iter().enumerate() {
        decode[group.index()][op as usize] = Some(i as u16);
        instrs.push(row(group, op, &cell));
    }
    Z80Table {
        table: Table::new(instrs),
        decode,
    }
}

pub(crate) fn z80_table() -> &'static Z80Table {
    static TABLE: OnceLock<Z80Table> = OnceLock::new();
    TABLE.get_or_init(build)
}

pub(crate) fn table() -> &'static Table {
    &z80_table().table
}

/// The documented row for `opcode` in a prefix group.
pub(crate) fn lookup(group: Group, opcode: u8) -> Option<&'static Instr> {
    let t = z80_table();
    t.decode[group.index()][opcode as usize].map(|i| &t.table.instrs[i as usize])
}

/// Length and T-states of an undocumented encoding, as a real Z80 (and the `z80` crate)
/// executes it. `bytes` starts at the first prefix; the result is `None` if `bytes` is too short
/// to tell (the caller reports truncation).
///
/// - `CB 30-37` (`SLL`): like the other shifts, 8 T-states (15 on `(HL)`).
/// - `ED` outside the documented set: `NEG`/`RETN`/`IM` mirrors, `IN (C)` (`ED 70`),
///   `OUT (C),0` (`ED 71`), the `LD (nn),HL`/`LD HL,(nn)` duplicates `ED 63`/`ED 6B`; everything
///   else is an 8 T-state two-byte no-operation.
/// - `DD`/`FD` before an instruction that uses `H` or `L` reads `IXH`/`IXL`: 4 more T-states.
///   Before anything else (including another prefix) the prefix only costs 4 T-states and the
///   next byte is a new instruction: the prefix alone is one byte.
/// - `DD CB d op` / `FD CB d op` with a register field other than 110: the `(IX+d)` operation
///   whose result is also copied to a register, 23 T-states (20 for `BIT`).
pub(crate) fn undocumented(bytes: &[u8]) -> Option<(u8, u8)> {
    let first = *bytes.first()?;
    match first {
        0xCB => {
            let op = *bytes.get(1)?;
            Some((2, if op & 7 == 6 { 15 } else { 8 }))
        }
        0xED => {
            let op = *bytes.get(1)?;
            Some(match op {
                0x63 | 0x6B => (4, 20),
                0x70 | 0x71 => (2, 12),
                0x4C | 0x54 | 0x5C | 0x64 | 0x6C | 0x74 | 0x7C => (2, 8),
                0x55 | 0x5D | 0x65 | 0x6D | 0x75 | 0x7D => (2, 14),
                _ => (2, 8),
            })
        }
        0xDD | 0xFD => {
            let op = *bytes.get(1)?;
            if op == 0xCB {
                let op = *bytes.get(3)?;
                return Some((4, if op >> 6 == 1 { 20 } else { 23 }));
            }
            let base = lookup(Group::Base, op);
            match base {
                Some(instr) if uses_h_or_l(op) => Some((instr.len + 1, instr.cycles.base + 4)),
                _ => Some((1, 4)),
            }
        }
        _ => None,
    }
}

/// Unprefixed opcodes that name `H` or `L` as an 8-bit register (not `(HL)`, not `HL`): with a
/// `DD`/`FD` prefix they operate on `IXH`/`IXL`/`IYH`/`IYL` instead.
fn uses_h_or_l(op: u8) -> bool {
    match op {
        0x24 | 0x25 | 0x26 | 0x2C | 0x2D | 0x2E => true,
        0x40..=0x7F if op != 0x76 => {
            let (dst, src) = ((op >> 3) & 7, op & 7);
            // LD H,(HL) and LD (HL),H keep H and L (the prefix selects (IX+d) instead).
            if dst == 6 || src == 6 {
                false
            } else {
                matches!(dst, 4 | 5) || matches!(src, 4 | 5)
            }
        }
        0x80..=0xBF => matches!(op & 7, 4 | 5),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn z80_documented_rows() {
        let t = table();
        // 252 unprefixed + 248 CB + 56 ED + 39 DD + 39 FD + 31 DDCB + 31 FDCB.
        assert_eq!(t.instrs.len(), 696);
        let ld = lookup(Group::Dd, 0x36).unwrap();
        assert_eq!(ld.syntax(), "LD (IX+d),n");
        assert_eq!(ld.len, 4);
        assert_eq!(lookup(Group::FdCb, 0x46).unwrap().syntax(), "BIT 0,(IY+d)");
        assert_eq!(lookup(Group::Base, 0x08).unwrap().syntax(), "EX AF,AF'");
        assert_eq!(lookup(Group::Ed, 0xB0).unwrap().cycles.to_string(), "16/21");
    }

    #[test]
    fn undocumented_lengths() {
        assert_eq!(undocumented(&[0xDD, 0x26, 0x00]), Some((3, 11))); // LD IXH,n
        assert_eq!(undocumented(&[0xDD, 0x00]), Some((1, 4)));
        assert_eq!(undocumented(&[0xDD, 0x66]), Some((1, 4))); // documented elsewhere; prefix-only here
        assert_eq!(undocumented(&[0xED, 0x00]), Some((2, 8)));
        assert_eq!(undocumented(&[0xFD, 0xCB, 0x01, 0x00]), Some((4, 23)));
        assert_eq!(undocumented(&[0xED]), None);
    }
}
