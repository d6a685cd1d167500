//! The decoder: one instruction at an address, from the shared instruction tables.
//!
//! Used by `kempelen disasm` and by the emulator's tracer. Any byte string decodes: bytes no
//! documented instruction starts with come out as `DB $xx` (Z80, with the true length and
//! T-states of the undocumented instruction) or `.byte $xx` (6502). Operand text is valid
//! Kempelen assembler source, so a disassembly assembles back to the same bytes.

use std::fmt;

use crate::cpu::Cpu;
use crate::mos6502::{self, Mode};
use crate::row::{Cycles, Form, Instr};
use crate::symbols::SymbolTable;
use crate::z80::{self, Group, Value};

/// One decoded instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// Address of the first byte.
    pub addr: u16,
    /// Length in bytes (1 to 4).
    pub len: u8,
    bytes: [u8; 4],
    /// Upper-case mnemonic, or `DB` / `.byte` for bytes that are not a documented instruction.
    pub mnemonic: &'static str,
    /// Operands as assembler source (`A,(IX+$05)`, `($10),Y`); empty if none.
    pub operands: String,
    /// Cycle cost from the table. For 6502 bytes that are no documented opcode it is 0
    /// (unknown).
    pub cycles: Cycles,
    /// The table row, `None` for undocumented or unknown encodings.
    pub instr: Option<&'static Instr>,
    /// The address the operand names, if it names one: jump, call and branch destinations,
    /// memory operands (`(nn)`, 6502 `zp`/`abs` modes). `None` for immediates and registers.
    pub target: Option<u16>,
}

impl Decoded {
    /// The instruction's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }

    /// `LD A,(IX+$05)`.
    pub fn text(&self) -> String {
        self.to_string()
    }

    /// Whether this is a documented instruction (a table row).
    pub fn is_documented(&self) -> bool {
        self.instr.is_some()
    }
}

impl fmt::Display for Decoded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.operands.is_empty() {
            f.write_str(self.mnemonic)
        } else {
            write!(f, "{} {}", self.mnemonic, self.operands)
        }
    }
}

/// Why an instruction could not be decoded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// The bytes end inside the instruction.
    #[error("instruction at ${addr:04X} needs {needed} bytes, only {available} available")]
    Truncated {
        /// Address of the instruction.
        addr: u16,
        /// Bytes the instruction needs (at least this many).
        needed: u8,
        /// Bytes given.
        available: usize,
    },
}

/// Decodes the instruction at the start of `bytes`, which sit at address `addr`.
///
/// ```
/// use kempelen_isa::{Cpu, decode};
/// let d = decode(Cpu::Z80, &[0x20, 0xFE], 0x1000).unwrap();
/// assert_eq!((d.text().as_str(), d.len, d.cycles.to_string().as_str()), ("JR NZ,$1000", 2, "7/12"));
/// let d = decode(Cpu::Mos6502, &[0xB1, 0x10], 0x0200).unwrap();
/// assert_eq!(d.text(), "LDA ($10),Y");
/// ```
pub fn decode(cpu: Cpu, bytes: &[u8], addr: u16) -> Result<Decoded, DecodeError> {
    decode_with(cpu, bytes, addr, None)
}

/// Like [`decode`], naming addresses with `symbols` where one has exactly that value: jump,
/// call and branch targets and memory operands (never immediates).
pub fn decode_with(
    cpu: Cpu,
    bytes: &[u8],
    addr: u16,
    symbols: Option<&SymbolTable>,
) -> Result<Decoded, DecodeError> {
    match cpu {
        Cpu::Z80 => decode_z80(bytes, addr, symbols),
        Cpu::Mos6502 | Cpu::Cmos65c02 => decode_6502(cpu, bytes, addr, symbols),
    }
}

/// Bytes as two hex digits each, separated by spaces: `ED B0`.
pub fn hex_bytes(bytes: &[u8]) -> String {
    let pairs: Vec<String> = bytes.iter().map(|b| format!("{b:02X}")).collect();
    pairs.join(" ")
}

/// Decodes a whole buffer loaded at `org`. Bytes at the end that do not make a whole
/// instruction come out as data (`DB`/`.byte`).
pub fn disassemble(
    cpu: Cpu,
    bytes: &[u8],
    org: u16,
    symbols: Option<&SymbolTable>,
) -> Vec<Decoded> {
    let mut out = Vec::new();
    let mut offset = 0usize;
    while offset < bytes.len() {
        let addr = org.wrapping_add(offset as u16);
        let d = match decode_with(cpu, &bytes[offset..], addr, symbols) {
            Ok(d) => d,
            Err(DecodeError::Truncated { .. }) => data_byte(cpu, bytes[offset], addr),
        };
        offset += d.len as usize;
        out.push(d);
    }
    out
}

fn truncated(addr: u16, needed: u8, bytes: &[u8]) -> Result<(), DecodeError> {
    if bytes.len() < needed as usize {
        Err(DecodeError::Truncated {
            addr,
            needed,
            available: bytes.len(),
        })
    } else {
        Ok(())
    }
}

fn copy4(bytes: &[u8], len: u8) -> [u8; 4] {
    let mut out = [0u8; 4];
    out[..len as usize].copy_from_slice(&bytes[..len as usize]);
    out
}

/// A byte rendered as data: `DB $xx` / `.byte $xx`.
fn data_byte(cpu: Cpu, byte: u8, addr: u16) -> Decoded {
    data(cpu, &[byte], addr, Cycles::fixed(0))
}

fn data(cpu: Cpu, bytes: &[u8], addr: u16, cycles: Cycles) -> Decoded {
    let len = bytes.len() as u8;
    let operands = bytes
        .iter()
        .map(|b| format!("${b:02X}"))
        .collect::<Vec<_>>()
        .join(",");
    Decoded {
        addr,
        len,
        bytes: copy4(bytes, len),
        mnemonic: match cpu {
            Cpu::Z80 => "DB",
            Cpu::Mos6502 | Cpu::Cmos65c02 => ".byte",
        },
        operands,
        cycles,
        instr: None,
        target: None,
    }
}

fn name_or_hex(value: u16, symbols: Option<&SymbolTable>, digits: usize) -> String {
    match symbols.and_then(|s| s.name_at(value)) {
        Some(name) => name.to_string(),
        None if digits == 2 => format!("${value:02X}"),
        None => format!("${value:04X}"),
    }
}

fn decode_z80(
    bytes: &[u8],
    addr: u16,
    symbols: Option<&SymbolTable>,
) -> Result<Decoded, DecodeError> {
    truncated(addr, 1, bytes)?;
    let first = bytes[0];
    let row = match first {
        0xCB | 0xED | 0xDD | 0xFD => {
            truncated(addr, 2, bytes)?;
            let second = bytes[1];
            match (first, second) {
                (0xCB, op) => z80::lookup(Group::Cb, op),
                (0xED, op) => z80::lookup(Group::Ed, op),
                (0xDD | 0xFD, 0xCB) => {
                    truncated(addr, 4, bytes)?;
                    let group = if first == 0xDD {
                        Group::DdCb
                    } else {
                        Group::FdCb
                    };
                    z80::lookup(group, bytes[3])
                }
                (0xDD, op) => z80::lookup(Group::Dd, op),
                (_, op) => z80::lookup(Group::Fd, op),
            }
        }
        op => z80::lookup(Group::Base, op),
    };
    let Some(instr) = row else {
        // Undocumented: the sizes were checked above except for an immediate after IXH/IXL.
        let (len, t_states) = z80::undocumented(bytes).expect("prefix bytes present");
        truncated(addr, len, bytes)?;
        return Ok(data(
            Cpu::Z80,
            &bytes[..len as usize],
            addr,
            Cycles::fixed(t_states),
        ));
    };
    truncated(addr, instr.len, bytes)?;
    let values = z80::values(instr, bytes, addr);
    let target = z80_target(instr, &values);
    let texts: Vec<String> = values
        .iter()
        .map(|v| zilog_operand(instr, *v, symbols))
        .collect();
    Ok(Decoded {
        addr,
        len: instr.len,
        bytes: copy4(bytes, instr.len),
        mnemonic: instr.mnemonic,
        operands: texts.join(","),
        cycles: instr.cycles,
        instr: Some(instr),
        target,
    })
}

/// The address a Z80 instruction's operand names, if it names one: a jump, call or relative
/// jump destination, or a memory operand `(nn)`.
pub(crate) fn z80_target(instr: &Instr, values: &[Value]) -> Option<u16> {
    let is_jump = matches!(instr.mnemonic, "JP" | "CALL");
    values.iter().find_map(|v| match *v {
        Value::Mem(a) | Value::Rel(a) => Some(a),
        Value::Imm16(a) if is_jump => Some(a),
        _ => None,
    })
}

/// One operand in Zilog syntax with `$` hex numbers; addresses named from `symbols`.
fn zilog_operand(instr: &Instr, value: Value, symbols: Option<&SymbolTable>) -> String {
    match value {
        Value::Word(kw) => kw.name().to_string(),
        Value::Ind(kw) => format!("({kw})"),
        Value::Fixed(v) if instr.mnemonic == "RST" => format!("${v:02X}"),
        Value::Fixed(v) => v.to_string(),
        Value::Indexed(kw, d) => {
            let sign = if d < 0 { '-' } else { '+' };
            format!("({kw}{sign}${:02X})", d.unsigned_abs())
        }
        Value::Imm8(b) => format!("${b:02X}"),
        Value::Port(b) => format!("(${b:02X})"),
        Value::Mem(a) => format!("({})", name_or_hex(a, symbols, 4)),
        Value::Imm16(a) if matches!(instr.mnemonic, "JP" | "CALL") => name_or_hex(a, symbols, 4),
        Value::Imm16(a) => format!("${a:04X}"),
        Value::Rel(a) => name_or_hex(a, symbols, 4),
    }
}

/// Whether `mnemonic` has a zero-page mode its absolute `mode` would shrink to: then a small
/// absolute address must be written `a:$00xx` to keep the 3-byte encoding.
fn shrinks(cpu: Cpu, mnemonic: &str, mode: Mode) -> bool {
    mode.zero_page_form().is_some_and(|zp| {
        crate::lookup::forms(cpu, mnemonic)
            .iter()
            .any(|i| i.form == Form::Mos6502(zp))
    })
}

fn decode_6502(
    cpu: Cpu,
    bytes: &[u8],
    addr: u16,
    symbols: Option<&SymbolTable>,
) -> Result<Decoded, DecodeError> {
    truncated(addr, 1, bytes)?;
    let Some(instr) = mos6502::lookup_for(cpu, bytes[0]) else {
        return Ok(data_byte(cpu, bytes[0], addr));
    };
    truncated(addr, instr.len, bytes)?;
    let Form::Mos6502(mode) = instr.form else {
        unreachable!("6502 rows have 6502 forms")
    };
    let byte = bytes.get(1).copied().unwrap_or(0);
    let word = u16::from_le_bytes([byte, bytes.get(2).copied().unwrap_or(0)]);
    let zp = |symbols| name_or_hex(byte as u16, symbols, 2);
    let abs = |symbols| {
        let text = name_or_hex(word, symbols, 4);
        if word < 0x100 && shrinks(cpu, instr.mnemonic, mode) {
            format!("a:{text}")
        } else {
            text
        }
    };
    let (operands, target) = match mode {
        Mode::Implied => (String::new(), None),
        Mode::Accumulator => ("A".to_string(), None),
        Mode::Immediate => (format!("#${byte:02X}"), None),
        Mode::ZeroPage => (zp(symbols), Some(byte as u16)),
        Mode::ZeroPageX => (format!("{},X", zp(symbols)), Some(byte as u16)),
        Mode::ZeroPageY => (format!("{},Y", zp(symbols)), Some(byte as u16)),
        Mode::Absolute => (abs(symbols), Some(word)),
        Mode::AbsoluteX => (format!("{},X", abs(symbols)), Some(word)),
        Mode::AbsoluteY => (format!("{},Y", abs(symbols)), Some(word)),
        Mode::Indirect => (format!("({})", name_or_hex(word, symbols, 4)), Some(word)),
        Mode::IndirectX => (format!("({},X)", zp(symbols)), Some(byte as u16)),
        Mode::IndirectY => (format!("({}),Y", zp(symbols)), Some(byte as u16)),
        Mode::ZeroPageIndirect => (format!("({})", zp(symbols)), Some(byte as u16)),
        Mode::AbsoluteIndexedIndirect => {
            (format!("({},X)", name_or_hex(word, symbols, 4)), Some(word))
        }
        Mode::Relative => {
            let dest = addr.wrapping_add(2).wrapping_add(byte as i8 as u16);
            (name_or_hex(dest, symbols, 4), Some(dest))
        }
        // The zero-page byte in hex, the branch target by name: the target is the address
        // the instruction names (a zero-page name would need an EQU the listing may lack).
        Mode::ZeroPageRelative => {
            let offset = bytes.get(2).copied().unwrap_or(0) as i8;
            let dest = addr.wrapping_add(3).wrapping_add(offset as u16);
            (
                format!("${byte:02X},{}", name_or_hex(dest, symbols, 4)),
                Some(dest),
            )
        }
    };
    Ok(Decoded {
        addr,
        len: instr.len,
        bytes: copy4(bytes, instr.len),
        mnemonic: instr.mnemonic,
        operands,
        cycles: instr.cycles,
        instr: Some(instr),
        target,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symbols::SymbolKind;

    fn text(cpu: Cpu, bytes: &[u8], addr: u16) -> String {
        decode(cpu, bytes, addr).unwrap().text()
    }

    #[test]
    fn z80_forms() {
        assert_eq!(text(Cpu::Z80, &[0xDD, 0x7E, 0xFB], 0), "LD A,(IX-$05)");
        assert_eq!(
            text(Cpu::Z80, &[0xFD, 0x36, 0x05, 0x12], 0),
            "LD (IY+$05),$12"
        );
        assert_eq!(
            text(Cpu::Z80, &[0xDD, 0xCB, 0x7F, 0x7E], 0),
            "BIT 7,(IX+$7F)"
        );
        assert_eq!(text(Cpu::Z80, &[0xDB, 0xFE], 0), "IN A,($FE)");
        assert_eq!(text(Cpu::Z80, &[0xE9], 0), "JP (HL)");
        assert_eq!(text(Cpu::Z80, &[0xFF], 0), "RST $38");
        assert_eq!(text(Cpu::Z80, &[0xED, 0x5E], 0), "IM 2");
        assert_eq!(text(Cpu::Z80, &[0x2A, 0x34, 0x12], 0), "LD HL,($1234)");
        assert_eq!(text(Cpu::Z80, &[0x10, 0x80], 0x0000), "DJNZ $FF82");
        let d = decode(Cpu::Z80, &[0xED, 0xB0], 0).unwrap();
        assert_eq!((d.len, d.cycles.alternatives()), (2, vec![16, 21]));
    }

    #[test]
    fn z80_undocumented_as_data() {
        let d = decode(Cpu::Z80, &[0xCB, 0x30], 0).unwrap();
        assert_eq!(
            (d.text().as_str(), d.len, d.cycles.base),
            ("DB $CB,$30", 2, 8)
        );
        assert!(!d.is_documented());
        let d = decode(Cpu::Z80, &[0xDD, 0x00], 0).unwrap();
        assert_eq!((d.text().as_str(), d.len), ("DB $DD", 1));
    }

    #[test]
    fn truncation_is_an_error() {
        let e = decode(Cpu::Z80, &[0xDD, 0xCB, 0x01], 0x10).unwrap_err();
        assert_eq!(
            e,
            DecodeError::Truncated {
                addr: 0x10,
                needed: 4,
                available: 3
            }
        );
        assert!(decode(Cpu::Mos6502, &[0xAD, 0x00], 0).is_err());
        assert!(decode(Cpu::Mos6502, &[], 0).is_err());
    }

    #[test]
    fn mos6502_forms() {
        assert_eq!(text(Cpu::Mos6502, &[0x0A], 0), "ASL A");
        assert_eq!(text(Cpu::Mos6502, &[0xA9, 0x10], 0), "LDA #$10");
        assert_eq!(text(Cpu::Mos6502, &[0x9D, 0x34, 0x12], 0), "STA $1234,X");
        assert_eq!(text(Cpu::Mos6502, &[0xAD, 0x10, 0x00], 0), "LDA a:$0010");
        assert_eq!(text(Cpu::Mos6502, &[0x20, 0x10, 0x00], 0), "JSR $0010");
        assert_eq!(text(Cpu::Mos6502, &[0xD0, 0xFE], 0x0200), "BNE $0200");
        assert_eq!(text(Cpu::Mos6502, &[0x02], 0), ".byte $02");
        // The 65C02's own opcodes; the NMOS part has none of them.
        assert_eq!(text(Cpu::Cmos65c02, &[0xB2, 0x10], 0), "LDA ($10)");
        assert_eq!(
            text(Cpu::Cmos65c02, &[0x7C, 0x34, 0x12], 0),
            "JMP ($1234,X)"
        );
        assert_eq!(text(Cpu::Cmos65c02, &[0x80, 0xFE], 0x0200), "BRA $0200");
        assert_eq!(text(Cpu::Cmos65c02, &[0x9C, 0x10, 0x00], 0), "STZ a:$0010");
        assert_eq!(text(Cpu::Mos6502, &[0xB2, 0x10], 0), ".byte $B2");
        assert_eq!(text(Cpu::Mos6502, &[0x0F, 0x10, 0xFD], 0), ".byte $0F");
        // The W65C02S's bit instructions, WAI and STP.
        assert_eq!(text(Cpu::Cmos65c02, &[0x07, 0x10], 0), "RMB0 $10");
        assert_eq!(text(Cpu::Cmos65c02, &[0xF7, 0x10], 0), "SMB7 $10");
        assert_eq!(
            text(Cpu::Cmos65c02, &[0x0F, 0x10, 0xFD], 0x0200),
            "BBR0 $10,$0200"
        );
        assert_eq!(
            text(Cpu::Cmos65c02, &[0xFF, 0xFF, 0x7F], 0x0200),
            "BBS7 $FF,$0282"
        );
        let d = decode(Cpu::Cmos65c02, &[0x8F, 0x10, 0x80], 0x0200).unwrap();
        assert_eq!((d.len, d.target), (3, Some(0x0183)));
        assert_eq!(d.cycles.to_string(), "5/6/7");
        assert_eq!(text(Cpu::Cmos65c02, &[0xCB], 0), "WAI");
        assert_eq!(text(Cpu::Cmos65c02, &[0xDB], 0), "STP");
    }

    #[test]
    fn symbols_name_addresses_not_immediates() {
        let mut syms = SymbolTable::new();
        syms.insert("loop", 0x1000, SymbolKind::Label);
        syms.insert("ten", 0x0010, SymbolKind::Constant);
        let d = decode_with(Cpu::Z80, &[0x18, 0xFE], 0x1000, Some(&syms)).unwrap();
        assert_eq!((d.text().as_str(), d.target), ("JR loop", Some(0x1000)));
        let d = decode_with(Cpu::Z80, &[0x3E, 0x10], 0x1000, Some(&syms)).unwrap();
        assert_eq!(d.text(), "LD A,$10");
        let d = decode_with(Cpu::Mos6502, &[0xA5, 0x10], 0x1000, Some(&syms)).unwrap();
        assert_eq!(d.text(), "LDA ten");
        let d = decode_with(Cpu::Mos6502, &[0xAD, 0x10, 0x00], 0x1000, Some(&syms)).unwrap();
        assert_eq!(d.text(), "LDA a:ten");
    }

    #[test]
    fn disassemble_ends_with_data() {
        let out = disassemble(Cpu::Z80, &[0x00, 0x3E], 0x100, None);
        assert_eq!(
            out.iter().map(|d| d.text()).collect::<Vec<_>>(),
            ["NOP", "DB $3E"]
        );
    }
}
