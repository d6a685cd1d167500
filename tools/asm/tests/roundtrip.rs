//! The instruction tables walked both ways: every row encodes, decodes to itself, and its
//! disassembly assembles back to the same bytes; and every opcode byte (with every prefix
//! combination) disassembles into source that assembles back to the same bytes, documented or
//! not.

mod common;

use common::{SAMPLE, Values, encode};
use kempelen_asm::isa::instructions;
use kempelen_asm::{Cpu, assemble_source, decode, disassemble};

/// Operands at their limits: `$00`, `a:$00FF` (absolute below $100), displacement -128, and a
/// relative jump back across address 0 (the target wraps to the top of memory).
const EDGE: Values = Values {
    byte: 0x00,
    word: 0x00FF,
    disp: -128,
    rel: -128,
};

fn reassemble(cpu: Cpu, org: u16, lines: &[String]) -> Result<Vec<u8>, String> {
    let source = format!(
        "        org ${org:04X}\n{}",
        lines
            .iter()
            .map(|l| format!("        {l}\n"))
            .collect::<String>()
    );
    let out = assemble_source(cpu, "roundtrip.asm", &source);
    if out.is_ok() {
        Ok(out.image.bytes)
    } else {
        Err(format!("{}\n{source}", out.report()))
    }
}

fn walk_rows(cpu: Cpu) {
    let mut failures = Vec::new();
    for (values, org) in [(SAMPLE, 0x4000u16), (EDGE, 0x0010)] {
        for row in instructions(cpu) {
            let bytes = encode(row, values);
            let d = match decode(cpu, &bytes, org) {
                Ok(d) => d,
                Err(e) => {
                    failures.push(format!("{}: {e}", row.syntax()));
                    continue;
                }
            };
            if d.instr != Some(row) || d.len != row.len || d.len as usize != bytes.len() {
                failures.push(format!(
                    "{} {bytes:02X?} decodes as {} ({} bytes)",
                    row.syntax(),
                    d.text(),
                    d.len
                ));
                continue;
            }
            match reassemble(cpu, org, &[d.text()]) {
                Ok(back) if back == bytes => {}
                Ok(back) => failures.push(format!(
                    "{}: {} assembles to {back:02X?}, not {bytes:02X?}",
                    row.syntax(),
                    d.text()
                )),
                Err(e) => failures.push(format!(
                    "{}: {} does not assemble:\n{e}",
                    row.syntax(),
                    d.text()
                )),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_z80_row_round_trips() {
    walk_rows(Cpu::Z80);
}

#[test]
fn every_6502_row_round_trips() {
    walk_rows(Cpu::Mos6502);
}

/// Disassembles `bytes` at `org` and assembles the text back.
fn round_trip_buffer(cpu: Cpu, bytes: &[u8], org: u16) -> Result<(), String> {
    let decoded = disassemble(cpu, bytes, org, None);
    let lines: Vec<String> = decoded.iter().map(|d| d.text()).collect();
    let back = reassemble(cpu, org, &lines)?;
    if back == bytes {
        return Ok(());
    }
    let at = back
        .iter()
        .zip(bytes)
        .position(|(a, b)| a != b)
        .unwrap_or(back.len().min(bytes.len()));
    let line = decoded
        .iter()
        .rev()
        .find(|d| (d.addr - org) as usize <= at)
        .map(|d| d.text())
        .unwrap_or_default();
    Err(format!(
        "differs at offset {at} (instruction '{line}'): {:02X?}",
        &bytes[at.saturating_sub(2)..(at + 4).min(bytes.len())]
    ))
}

#[test]
fn every_z80_byte_sequence_round_trips() {
    let mut failures = Vec::new();
    for b0 in 0..=255u8 {
        let mut buffer = Vec::new();
        match b0 {
            0xCB | 0xED => {
                for b1 in 0..=255u8 {
                    buffer.extend([b0, b1, 0x34, 0x12]);
                }
            }
            0xDD | 0xFD => {
                for b1 in 0..=255u8 {
                    buffer.extend([b0, b1, 0x34, 0x12]);
                }
                for op in 0..=255u8 {
                    buffer.extend([b0, 0xCB, 0x85, op]);
                }
            }
            _ => buffer.extend([b0, 0x34, 0x12, 0x00]),
        }
        if let Err(e) = round_trip_buffer(Cpu::Z80, &buffer, 0x8000) {
            failures.push(format!("first byte {b0:02X}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_6502_byte_sequence_round_trips() {
    let mut buffer = Vec::new();
    for op in 0..=255u8 {
        buffer.extend([op, 0x12, 0x34, op, 0x00, 0x00]);
    }
    round_trip_buffer(Cpu::Mos6502, &buffer, 0x0200).unwrap();
}
