//! The one CPU identifier of the workspace.
//!
//! The emulator re-exports [`Cpu`]; the command line parses it from `--cpu z80|6502`.

use std::fmt;
use std::str::FromStr;

/// The instruction sets Kempelen assembles, disassembles and emulates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cpu {
    /// Zilog Z80 (documented instruction set, Zilog syntax).
    Z80,
    /// MOS 6502, NMOS part (151 documented opcodes, MOS syntax).
    Mos6502,
    /// The CMOS 65C02 as the WDC W65C02S: the NMOS opcodes plus the set every 65C02 has
    /// (`BRA`, `PHX`, `PHY`, `PLX`, `PLY`, `STZ`, `TRB`, `TSB`, `INC A`, `DEC A`, the `(zp)`
    /// mode, `JMP (abs,X)` and the new `BIT` modes), the bit instructions Rockwell introduced
    /// (`RMB`, `SMB`, `BBR`, `BBS`) and WDC's `WAI` and `STP`: 212 opcodes.
    Cmos65c02,
}

impl Cpu {
    /// Every CPU, in a fixed order (useful for tests and help texts).
    pub const ALL: [Cpu; 3] = [Cpu::Z80, Cpu::Mos6502, Cpu::Cmos65c02];

    /// The short name used on the command line and in test files: `z80`, `6502` or `65c02`.
    pub fn name(self) -> &'static str {
        match self {
            Cpu::Z80 => "z80",
            Cpu::Mos6502 => "6502",
            Cpu::Cmos65c02 => "65c02",
        }
    }

    /// The name as prose writes it: `Z80`, `6502`, `65C02`.
    pub fn title(self) -> &'static str {
        match self {
            Cpu::Z80 => "Z80",
            Cpu::Mos6502 => "6502",
            Cpu::Cmos65c02 => "65C02",
        }
    }

    /// Whether this is a member of the 6502 family (NMOS or CMOS): the same syntax, registers
    /// and memory map.
    pub fn is_6502_family(self) -> bool {
        matches!(self, Cpu::Mos6502 | Cpu::Cmos65c02)
    }
}

impl fmt::Display for Cpu {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A CPU name that is not `z80`, `6502` or `65c02`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown CPU '{0}': expected 'z80', '6502' or '65c02'")]
pub struct UnknownCpu(pub String);

impl FromStr for Cpu {
    type Err = UnknownCpu;

    /// Accepts `z80`, `6502` (also `mos6502`, `nmos6502`) and `65c02` (also `65sc02`,
    /// `cmos6502`, `w65c02`, `w65c02s`, `r65c02`: parts whose instructions are all in it), in
    /// any case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "z80" => Ok(Cpu::Z80),
            "6502" | "mos6502" | "nmos6502" => Ok(Cpu::Mos6502),
            "65c02" | "65sc02" | "cmos6502" | "w65c02" | "w65c02s" | "r65c02" => Ok(Cpu::Cmos65c02),
            _ => Err(UnknownCpu(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_names() {
        for cpu in Cpu::ALL {
            assert_eq!(cpu.name().parse::<Cpu>(), Ok(cpu));
        }
        assert_eq!("Z80".parse::<Cpu>(), Ok(Cpu::Z80));
        for name in ["W65C02S", "r65c02", "65SC02"] {
            assert_eq!(name.parse::<Cpu>(), Ok(Cpu::Cmos65c02), "{name}");
        }
        assert!("8080".parse::<Cpu>().is_err());
    }
}
