//! The machine's rules for Z80 instructions.

use super::class;

/// Whether `ED op` is a defined Z80 instruction (documented, or one of the undocumented
/// mirrors in `ED 40-7F` that real Z80s execute). The rest of the `ED` page acts as a
/// two-byte `NOP` on a real Z80; no program means that, so the machine refuses it.
pub fn is_defined_z80_ed(op: u8) -> bool {
    matches!(op, 0x40..=0x7F | 0xA0..=0xA3 | 0xA8..=0xAB | 0xB0..=0xB3 | 0xB8..=0xBB)
}

/// The Z80's opcode classes: `HALT` stops the run, an `ED` prefix has its second byte checked.
pub(crate) fn class_table() -> [u8; 256] {
    let mut t = [class::PLAIN; 256];
    t[0x76] = class::HALT;
    t[0xED] = class::ED;
    t
}

/// Whether the instruction at `a` (its bytes from `byte(0)` on) may leave PC and SP as they
/// were: `JR`/`JR cc` with offset -2, `JP`/`JP cc` to their own address, `JP (HL)`; with
/// `DD`/`FD` prefixes, any jump, `DJNZ` or `ED` instruction (and chains of four prefixes).
/// (`CALL`, `RST`, `RET` move SP; unprefixed `DJNZ` and `ED` instructions repeat in place
/// and are no jumps to themselves; `HALT` stops before it runs.)
pub(crate) fn may_jump_to_itself(byte: impl Fn(u16) -> u8, a: u16) -> bool {
    const JP: [u8; 9] = [0xC3, 0xC2, 0xCA, 0xD2, 0xDA, 0xE2, 0xEA, 0xF2, 0xFA];
    const JR: [u8; 5] = [0x18, 0x20, 0x28, 0x30, 0x38];
    let word = |d: u16| u16::from_le_bytes([byte(d), byte(d + 1)]);
    let prefixes = (0..4)
        .take_while(|&d| matches!(byte(d), 0xDD | 0xFD))
        .count() as u16;
    let op = byte(prefixes);
    match prefixes {
        0 if JR.contains(&op) => byte(1) == 0xFE,
        0 if JP.contains(&op) => word(1) == a,
        0 => op == 0xE9,
        1..=3 => JR.contains(&op) || JP.contains(&op) || matches!(op, 0xE9 | 0x10 | 0xED),
        _ => true,
    }
}

/// The block instructions (`LDIR` and friends, `ED`-prefixed) and `DJNZ $` keep their PC while
/// they make progress.
#[inline(always)]
pub(crate) fn repeats_in_place(op: u8) -> bool {
    op == 0xED || op == 0x10
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defined_ed_opcodes() {
        assert_eq!(
            (0..=255u8).filter(|&op| is_defined_z80_ed(op)).count(),
            64 + 16
        );
        assert!(is_defined_z80_ed(0xB0)); // LDIR
        assert!(is_defined_z80_ed(0x4D)); // RETI
        assert!(!is_defined_z80_ed(0x00));
        assert!(!is_defined_z80_ed(0xFF));
    }
}
