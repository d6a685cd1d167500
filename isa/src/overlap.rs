//! What happens when two pieces of a program claim the same address: lines of one source (the
//! assembler's `--overlap`) or images loaded into one machine (the emulator's images).

/// The rule for overlapping bytes: ORG areas of one source (`--overlap`), or images loaded into
/// one machine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Overlap {
    /// An error naming both lines (the default).
    #[default]
    Error,
    /// The later bytes win, with a warning naming both lines (what zmac does; the published
    /// Sargon listing relies on it).
    LaterWins,
}

impl std::str::FromStr for Overlap {
    type Err = String;

    fn from_str(s: &str) -> Result<Overlap, String> {
        match s {
            "error" => Ok(Overlap::Error),
            "later-wins" => Ok(Overlap::LaterWins),
            _ => Err(format!(
                "unknown overlap rule '{s}' (expected 'error' or 'later-wins')"
            )),
        }
    }
}
