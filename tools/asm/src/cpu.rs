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
}

impl Cpu {
    /// Both CPUs, in a fixed order (useful for tests and help texts).
    pub const ALL: [Cpu; 2] = [Cpu::Z80, Cpu::Mos6502];

    /// The short name used on the command line and in test files: `z80` or `6502`.
    pub fn name(self) -> &'static str {
        match self {
            Cpu::Z80 => "z80",
            Cpu::Mos6502 => "6502",
        }
    }
}

impl fmt::Display for Cpu {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A CPU name that is neither `z80` nor `6502`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown CPU '{0}': expected 'z80' or '6502'")]
pub struct UnknownCpu(pub String);

impl FromStr for Cpu {
    type Err = UnknownCpu;

    /// Accepts `z80` and `6502` (also `mos6502`, `nmos6502`), in any case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "z80" => Ok(Cpu::Z80),
            "6502" | "mos6502" | "nmos6502" => Ok(Cpu::Mos6502),
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
        assert!("8080".parse::<Cpu>().is_err());
    }
}
