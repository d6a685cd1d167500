//! The historical figures `kempelen bench --cpu z80` sets its measurements beside: one row per
//! figure, taken from the project's `HISTORY.md` (`../shared/HISTORY.md`), each with its
//! source and whether it is an estimate. `quote` is the figure's text as HISTORY.md gives it;
//! a test checks that every quote is still there, so the table cannot drift from its source.

/// What a historical figure measures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Figure {
    /// Search speed: `low..=high` per second (`unit`: what was counted) at `mhz`.
    Speed {
        /// Clock of the machine in MHz.
        mhz: f64,
        /// Lower end of the figure (equal to `high` for a single value).
        low: f64,
        /// Upper end.
        high: f64,
        /// What was counted: nodes, positions, evaluated positions.
        unit: &'static str,
    },
    /// Program size in bytes (`low..=high` where the source gives a range).
    Code {
        /// Smallest size.
        low: f64,
        /// Largest size.
        high: f64,
    },
    /// RAM of the program or machine in bytes (`low..=high`).
    Ram {
        /// Smallest.
        low: f64,
        /// Largest.
        high: f64,
    },
    /// RAM per ply of search depth in bytes.
    RamPerPly {
        /// Bytes per ply.
        bytes: f64,
    },
}

/// One historical figure.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Historical {
    /// Program (and author, year).
    pub program: &'static str,
    /// The machine or CPU it ran on.
    pub machine: &'static str,
    /// The figure.
    pub figure: Figure,
    /// Whether the source calls it an estimate (never shown as a measurement).
    pub estimate: bool,
    /// The figure's words in HISTORY.md.
    pub quote: &'static str,
    /// Where HISTORY.md has it from.
    pub source: &'static str,
}

impl Historical {
    /// A short label for charts and tables.
    pub fn label(&self) -> String {
        let mut s = format!("{} ({})", self.program, self.machine);
        if self.estimate {
            s.push_str(", estimate");
        }
        s
    }
}

/// The historical figures, from HISTORY.md's "Programs" table.
pub const HISTORICAL: &[Historical] = &[
    Historical {
        program: "Sargon (Spracklen, 1978)",
        machine: "TRS-80 Model I, Z80 1.774 MHz",
        figure: Figure::Speed {
            mhz: 1.774,
            low: 5.0,
            high: 40.0,
            unit: "evaluated positions/s",
        },
        estimate: true,
        quote: "estimated 5-40 evaluated positions/s",
        source: "HISTORY.md: seed 001; retro-sargon issue #1",
    },
    Historical {
        program: "Colossus Chess 4 (Bryant, 1985)",
        machine: "ZX Spectrum, Z80 3.5 MHz",
        figure: Figure::Speed {
            mhz: 3.5,
            low: 170.0,
            high: 170.0,
            unit: "positions/s",
        },
        estimate: false,
        quote: "about 170 positions/s",
        source: "HISTORY.md: public description",
    },
    Historical {
        program: "micro-Max on AVR (ChessMate)",
        machine: "ATmega328P 25 MHz",
        figure: Figure::Speed {
            mhz: 25.0,
            low: 1300.0,
            high: 1300.0,
            unit: "nodes/s",
        },
        estimate: false,
        quote: "about 1,300 nodes/s",
        source: "HISTORY.md: public README",
    },
    Historical {
        program: "eZ80 C engine (2026)",
        machine: "eZ80 48 MHz",
        figure: Figure::Speed {
            mhz: 48.0,
            low: 360.0,
            high: 360.0,
            unit: "nodes/s",
        },
        estimate: false,
        quote: "about 360 nodes/s",
        source: "HISTORY.md: public bench",
    },
    Historical {
        program: "Sargon (1978), move logic",
        machine: "Z80",
        figure: Figure::Code {
            low: 4096.0,
            high: 4096.0,
        },
        estimate: false,
        quote: "2 KB data, 2 KB UI, 4 KB move logic",
        source: "HISTORY.md: seed 001",
    },
    Historical {
        program: "AVR-Max (Adrian)",
        machine: "ATmega88/644 flash",
        figure: Figure::Code {
            low: 3192.0,
            high: 4968.0,
        },
        estimate: false,
        quote: "3192-4968 bytes flash",
        source: "HISTORY.md: seed 001",
    },
    Historical {
        program: "Microchess (Jennings, 1976)",
        machine: "KIM-1, 6502",
        figure: Figure::Code {
            low: 924.0,
            high: 924.0,
        },
        estimate: false,
        quote: "924 bytes of code",
        source: "HISTORY.md: seed 001; Microchess manual",
    },
    Historical {
        program: "1K ZX Chess (Horne, 1983)",
        machine: "ZX81, Z80",
        figure: Figure::Code {
            low: 672.0,
            high: 672.0,
        },
        estimate: false,
        quote: "672 bytes",
        source: "HISTORY.md: seed 001",
    },
    Historical {
        program: "Sargon (1978), data",
        machine: "Z80",
        figure: Figure::Ram {
            low: 2048.0,
            high: 2048.0,
        },
        estimate: false,
        quote: "8 KB RAM total: 2 KB data",
        source: "HISTORY.md: seed 001",
    },
    Historical {
        program: "Microchess (1976), code and data",
        machine: "KIM-1",
        figure: Figure::Ram {
            low: 1126.0,
            high: 1126.0,
        },
        estimate: false,
        quote: "runs in 1.1 KB",
        source: "HISTORY.md: seed 001; Microchess manual",
    },
    Historical {
        program: "AVR-Max (Adrian)",
        machine: "ATmega88/644",
        figure: Figure::Ram {
            low: 1024.0,
            high: 4096.0,
        },
        estimate: false,
        quote: "1-4 KB RAM",
        source: "HISTORY.md: seed 001",
    },
    Historical {
        program: "AVR-Max, recursive",
        machine: "AVR stack",
        figure: Figure::RamPerPly { bytes: 108.0 },
        estimate: false,
        quote: "108 bytes of stack per ply recursive",
        source: "HISTORY.md: seed 001",
    },
    Historical {
        program: "AVR-Max, iterative",
        machine: "AVR",
        figure: Figure::RamPerPly { bytes: 34.0 },
        estimate: false,
        quote: "34 bytes per ply iterative",
        source: "HISTORY.md: seed 001",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    /// HISTORY.md lives beside the repository (`../shared/HISTORY.md`, or one level up from
    /// a worktree under `wt/`); where it is not there (a clone on its own) the check says so
    /// and passes.
    #[test]
    fn every_quote_is_in_history_md() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let found = ["../shared/HISTORY.md", "../../shared/HISTORY.md"]
            .iter()
            .find_map(|p| std::fs::read_to_string(root.join(p)).ok());
        let Some(text) = found else {
            eprintln!("SKIPPED: ../shared/HISTORY.md not found");
            return;
        };
        for h in HISTORICAL {
            assert!(
                text.contains(h.quote),
                "{}: '{}' is not in HISTORY.md",
                h.program,
                h.quote
            );
        }
    }

    #[test]
    fn ranges_are_ordered_and_estimates_say_so() {
        for h in HISTORICAL {
            match h.figure {
                Figure::Speed { low, high, .. }
                | Figure::Code { low, high }
                | Figure::Ram { low, high } => assert!(low > 0.0 && low <= high, "{h:?}"),
                Figure::RamPerPly { bytes } => assert!(bytes > 0.0),
            }
            assert_eq!(h.estimate, h.quote.contains("estimate"), "{h:?}");
            assert_eq!(h.label().contains("estimate"), h.estimate);
        }
    }
}
