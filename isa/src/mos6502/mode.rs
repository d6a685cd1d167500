//! The 6502 addressing modes, in the notation of the MOS datasheet's opcode grid.

use std::fmt;

/// 6502 addressing modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// No operand (`CLC`, `RTS`).
    Implied,
    /// `ASL A` (also written `ASL`).
    Accumulator,
    /// `LDA #$10`.
    Immediate,
    /// `LDA $10`.
    ZeroPage,
    /// `LDA $10,X`.
    ZeroPageX,
    /// `LDX $10,Y`.
    ZeroPageY,
    /// `LDA $1234`.
    Absolute,
    /// `LDA $1234,X`.
    AbsoluteX,
    /// `LDA $1234,Y`.
    AbsoluteY,
    /// `JMP ($1234)`.
    Indirect,
    /// `LDA ($10,X)`.
    IndirectX,
    /// `LDA ($10),Y`.
    IndirectY,
    /// Branches: `BNE label`.
    Relative,
    /// 65C02: `LDA ($10)`.
    ZeroPageIndirect,
    /// 65C02: `JMP ($1234,X)`.
    AbsoluteIndexedIndirect,
    /// 65C02 (W65C02S) bit branches: `BBR0 $10,label`, the zero-page byte to test, then the
    /// branch offset.
    ZeroPageRelative,
}

impl Mode {
    const ALL: [Mode; 16] = [
        Mode::Implied,
        Mode::Accumulator,
        Mode::Immediate,
        Mode::ZeroPage,
        Mode::ZeroPageX,
        Mode::ZeroPageY,
        Mode::Absolute,
        Mode::AbsoluteX,
        Mode::AbsoluteY,
        Mode::Indirect,
        Mode::IndirectX,
        Mode::IndirectY,
        Mode::Relative,
        Mode::ZeroPageIndirect,
        Mode::AbsoluteIndexedIndirect,
        Mode::ZeroPageRelative,
    ];

    /// The notation used in the grid and in "accepted forms" notes.
    pub fn notation(self) -> &'static str {
        match self {
            Mode::Implied => "",
            Mode::Accumulator => "A",
            Mode::Immediate => "#n",
            Mode::ZeroPage => "zp",
            Mode::ZeroPageX => "zp,X",
            Mode::ZeroPageY => "zp,Y",
            Mode::Absolute => "abs",
            Mode::AbsoluteX => "abs,X",
            Mode::AbsoluteY => "abs,Y",
            Mode::Indirect => "(abs)",
            Mode::IndirectX => "(zp,X)",
            Mode::IndirectY => "(zp),Y",
            Mode::Relative => "rel",
            Mode::ZeroPageIndirect => "(zp)",
            Mode::AbsoluteIndexedIndirect => "(abs,X)",
            Mode::ZeroPageRelative => "zp,rel",
        }
    }

    /// Operand bytes after the opcode.
    pub fn operand_size(self) -> u8 {
        match self {
            Mode::Implied | Mode::Accumulator => 0,
            Mode::Absolute
            | Mode::AbsoluteX
            | Mode::AbsoluteY
            | Mode::Indirect
            | Mode::AbsoluteIndexedIndirect
            | Mode::ZeroPageRelative => 2,
            _ => 1,
        }
    }

    /// The zero-page mode an absolute mode shrinks to when its address fits in a byte.
    pub fn zero_page_form(self) -> Option<Mode> {
        match self {
            Mode::Absolute => Some(Mode::ZeroPage),
            Mode::AbsoluteX => Some(Mode::ZeroPageX),
            Mode::AbsoluteY => Some(Mode::ZeroPageY),
            _ => None,
        }
    }

    pub(crate) fn parse(text: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.notation() == text)
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.notation())
    }
}
