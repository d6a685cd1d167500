//! The Z80 table's operands: register, pair and condition names, and the operand positions of
//! a row in the Z80 CPU User Manual's notation.

use std::fmt;

/// A register, register pair or condition name as it appears in an operand. `C` is both the
/// register and the carry condition: which one is meant follows from the table row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Kw {
    A,
    B,
    C,
    D,
    E,
    H,
    L,
    I,
    R,
    AF,
    /// `AF'`, the alternate accumulator and flags (only in `EX AF,AF'`).
    AFx,
    BC,
    DE,
    HL,
    SP,
    IX,
    IY,
    NZ,
    Z,
    NC,
    PO,
    PE,
    P,
    M,
}

impl Kw {
    const ALL: [Kw; 24] = [
        Kw::A,
        Kw::B,
        Kw::C,
        Kw::D,
        Kw::E,
        Kw::H,
        Kw::L,
        Kw::I,
        Kw::R,
        Kw::AF,
        Kw::AFx,
        Kw::BC,
        Kw::DE,
        Kw::HL,
        Kw::SP,
        Kw::IX,
        Kw::IY,
        Kw::NZ,
        Kw::Z,
        Kw::NC,
        Kw::PO,
        Kw::PE,
        Kw::P,
        Kw::M,
    ];

    /// Upper-case spelling.
    pub fn name(self) -> &'static str {
        match self {
            Kw::A => "A",
            Kw::B => "B",
            Kw::C => "C",
            Kw::D => "D",
            Kw::E => "E",
            Kw::H => "H",
            Kw::L => "L",
            Kw::I => "I",
            Kw::R => "R",
            Kw::AF => "AF",
            Kw::AFx => "AF'",
            Kw::BC => "BC",
            Kw::DE => "DE",
            Kw::HL => "HL",
            Kw::SP => "SP",
            Kw::IX => "IX",
            Kw::IY => "IY",
            Kw::NZ => "NZ",
            Kw::Z => "Z",
            Kw::NC => "NC",
            Kw::PO => "PO",
            Kw::PE => "PE",
            Kw::P => "P",
            Kw::M => "M",
        }
    }

    /// The keyword spelled `text` (any case), if it is one.
    pub fn parse(text: &str) -> Option<Kw> {
        Kw::ALL
            .into_iter()
            .find(|kw| kw.name().eq_ignore_ascii_case(text))
    }
}

impl fmt::Display for Kw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One operand position of a table row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// A register, pair or condition written as is: `A`, `HL`, `AF'`, `NZ`.
    Word(Kw),
    /// A register used as a pointer: `(HL)`, `(BC)`, `(SP)`, `(C)`, `(IX)` (in `JP (IX)`).
    Ind(Kw),
    /// `(IX+d)` / `(IY+d)`: one signed displacement byte.
    Indexed(Kw),
    /// `n`: one immediate byte.
    Imm8,
    /// `nn`: two immediate bytes, low byte first.
    Imm16,
    /// `(n)`: an I/O port number byte.
    Port,
    /// `(nn)`: a memory address, low byte first.
    Mem,
    /// `e`: a jump target stored as a signed offset from the next instruction.
    Rel,
    /// A number that is part of the opcode: bit number, interrupt mode, restart address.
    Fixed(u8),
}

impl Operand {
    /// Operand bytes this position occupies in the encoding.
    pub fn size(self) -> u8 {
        match self {
            Operand::Word(_) | Operand::Ind(_) | Operand::Fixed(_) => 0,
            Operand::Indexed(_) | Operand::Imm8 | Operand::Port | Operand::Rel => 1,
            Operand::Imm16 | Operand::Mem => 2,
        }
    }

    /// Parses one operand of a table cell; `None` for text that is not one (a table bug).
    pub(crate) fn parse_pattern(text: &str) -> Option<Operand> {
        Some(match text {
            "n" => Operand::Imm8,
            "nn" => Operand::Imm16,
            "(n)" => Operand::Port,
            "(nn)" => Operand::Mem,
            "e" => Operand::Rel,
            "(IX+d)" => Operand::Indexed(Kw::IX),
            "(IY+d)" => Operand::Indexed(Kw::IY),
            _ => {
                if let Some(hex) = text.strip_prefix('$') {
                    Operand::Fixed(u8::from_str_radix(hex, 16).ok()?)
                } else if let Ok(v) = text.parse::<u8>() {
                    Operand::Fixed(v)
                } else if let Some(inner) = text.strip_prefix('(').and_then(|t| t.strip_suffix(')'))
                {
                    Operand::Ind(Kw::parse(inner)?)
                } else {
                    Operand::Word(Kw::parse(text)?)
                }
            }
        })
    }
}
