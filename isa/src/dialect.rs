//! Whose syntax a source is written in: Kempelen's own (Zilog's for the Z80, MOS's for the
//! 6502), or TDL's 8080-style Z80 syntax of the 1970s (the assembler's `--dialect`).

/// The syntax of a source, and the spelling the disassembler and the tracer print.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// Kempelen's: Zilog mnemonics on the Z80, MOS mnemonics on the 6502 (the default).
    #[default]
    Kempelen,
    /// Technical Design Labs' Z80 assembler (1977): Intel 8080 mnemonics and TDL's names for
    /// the Z80's additions, TDL's pseudo-operations (`.LOC`, `.BLKB`, `.DEFINE` ...). Z80 only.
    Tdl,
}

impl Dialect {
    /// The name `--dialect` takes.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Kempelen => "kempelen",
            Dialect::Tdl => "tdl",
        }
    }
}

impl std::fmt::Display for Dialect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Dialect {
    type Err = String;

    fn from_str(s: &str) -> Result<Dialect, String> {
        match s.to_ascii_lowercase().as_str() {
            "kempelen" => Ok(Dialect::Kempelen),
            "tdl" => Ok(Dialect::Tdl),
            _ => Err(format!(
                "unknown dialect '{s}' (expected 'kempelen' or 'tdl')"
            )),
        }
    }
}
