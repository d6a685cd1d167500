//! The CPU id.
//!
//! The project's one CPU enum is `kempelen_asm::Cpu`; until the assembler crate publishes it,
//! this module holds a stand-in with the same shape (`Z80`, `Mos6502`) so the emulator can be
//! built and tested. When `kempelen_asm::Cpu` lands this module becomes a re-export.

use std::fmt;
use std::str::FromStr;

/// Which processor a machine runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Cpu {
    /// Zilog Z80.
    Z80,
    /// MOS 6502, NMOS variant (also stands for the 6507 and 6510, which run the same code).
    Mos6502,
}

impl fmt::Display for Cpu {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Cpu::Z80 => "z80",
            Cpu::Mos6502 => "6502",
        })
    }
}

/// A CPU name that is neither `z80` nor `6502`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown CPU `{0}` (expected `z80` or `6502`)")]
pub struct UnknownCpu(pub String);

impl FromStr for Cpu {
    type Err = UnknownCpu;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "z80" => Ok(Cpu::Z80),
            "6502" | "mos6502" | "nmos6502" => Ok(Cpu::Mos6502),
            _ => Err(UnknownCpu(s.to_string())),
        }
    }
}
