//! Clock profiles: the historical machines Kempelen measures its 8-bit builds against.
//!
//! Every row names its source by publication (the same figures, with their sources, are in
//! `docs/history/figures.toml`). A run reports exact cycles; a profile turns them into the time the run would have
//! taken on that machine (`cycles / clock`), and `--realtime` paces the emulator to that clock.
//! That is the CPU clock only (`--timing cpu`); the machines' wait states, video contention
//! (ZX Spectrum, C64 bad lines, Atari DMA) and interrupt routines are their timing models,
//! [`crate::timing`], which `--timing machine` (the default) applies.

use crate::Cpu;
use std::fmt;
use std::time::Duration;

/// A historical machine's CPU and clock.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct ClockProfile {
    /// Short id used on the command line (`trs-80`).
    pub id: &'static str,
    /// The machine and the chess program it is remembered for (`name` in JSON, where
    /// `machine` is always the id).
    #[serde(rename = "name")]
    pub machine: &'static str,
    /// The instruction set the emulator runs for it.
    #[serde(serialize_with = "crate::serialize_cpu")]
    pub cpu: Cpu,
    /// The chip as named by the source (6502, 6507, 6510, Z80).
    pub chip: &'static str,
    /// CPU clock in MHz.
    pub mhz: f64,
    /// RAM of the machine, as the source gives it.
    pub ram: &'static str,
    /// Remarks on the clock figure.
    pub note: &'static str,
    /// Where the figures come from.
    pub source: &'static str,
}

impl ClockProfile {
    /// Clock in Hz.
    pub fn hz(&self) -> f64 {
        self.mhz * 1e6
    }

    /// How long `cycles` take at this clock.
    pub fn duration(&self, cycles: u64) -> Duration {
        Duration::from_secs_f64(cycles as f64 / self.hz())
    }

    /// Events per second at this clock for something that happened `count` times in `cycles`
    /// (for example nodes per second).
    pub fn per_second(&self, count: u64, cycles: u64) -> f64 {
        if cycles == 0 {
            0.0
        } else {
            count as f64 * self.hz() / cycles as f64
        }
    }
}

impl fmt::Display for ClockProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}, {} at {} MHz)",
            self.id, self.machine, self.chip, self.mhz
        )
    }
}

/// The historical machines, each with its source.
pub const MACHINES: &[ClockProfile] = &[
    ClockProfile {
        id: "kim-1",
        machine: "MOS KIM-1 (Microchess, 1976)",
        cpu: Cpu::Mos6502,
        chip: "6502",
        mhz: 1.0,
        ram: "1 KB + 128 B",
        note: "",
        source: "A. Adrian, \"Computer-Schach\" (2011); KIM-1 User Manual (MOS Technology, 1976)",
    },
    ClockProfile {
        id: "trs-80",
        machine: "Tandy TRS-80 Model I (Sargon, 1978)",
        cpu: Cpu::Z80,
        chip: "Z80",
        mhz: 1.774,
        ram: "4-16 KB",
        note: "",
        source: "A. Adrian, \"Computer-Schach\" (2011); retro-sargon timings (B. Forster)",
    },
    ClockProfile {
        id: "jupiter-3",
        machine: "Wavemate Jupiter III (Sargon, 1978)",
        cpu: Cpu::Z80,
        chip: "Z80",
        mhz: 2.0,
        ram: "8 KB used by Sargon",
        note: "8K RAM: 2K data, 2K UI, 4K logic",
        source: "A. Adrian, \"Computer-Schach\" (2011)",
    },
    ClockProfile {
        id: "nascom-1",
        machine: "Nascom 1 (Sargon 1.3, Cyrus 1981)",
        cpu: Cpu::Z80,
        chip: "Z80",
        mhz: 4.0,
        ram: "-",
        note: "Cyrus ran at 4 MHz",
        source: "A. Adrian, \"Computer-Schach\" (2011)",
    },
    ClockProfile {
        id: "zx-spectrum",
        machine: "Sinclair ZX Spectrum (Colossus 4, Cyrus II)",
        cpu: Cpu::Z80,
        chip: "Z80",
        mhz: 3.5,
        ram: "16/48/128 KB",
        note: "",
        source: "A. Adrian, \"Computer-Schach\" (2011)",
    },
    ClockProfile {
        id: "zx-spectrum-16k",
        machine: "Sinclair ZX Spectrum 16K",
        cpu: Cpu::Z80,
        chip: "Z80A",
        mhz: 3.5,
        ram: "16 KB, all of it contended",
        note: "",
        source: "comp.sys.sinclair FAQ, \"Contended memory\"",
    },
    ClockProfile {
        id: "zx81",
        machine: "Sinclair ZX81 (1K Chess, 1983)",
        cpu: Cpu::Z80,
        chip: "Z80",
        mhz: 3.25,
        ram: "1 KB",
        note: "",
        source: "A. Adrian, \"Computer-Schach\" (2011)",
    },
    ClockProfile {
        id: "cpc464",
        machine: "Amstrad CPC464 (Cyrus II, Colossus 4)",
        cpu: Cpu::Z80,
        chip: "Z80",
        mhz: 4.0,
        ram: "64 KB",
        note: "about 3.3 MHz effective",
        source: "A. Adrian, \"Computer-Schach\" (2011)",
    },
    ClockProfile {
        id: "msx",
        machine: "MSX (MSX1 standard, 1983)",
        cpu: Cpu::Z80,
        chip: "Z80A",
        mhz: 3.579545,
        ram: "8-64 KB",
        note: "one wait state in every M1 cycle",
        source: "MSX Technical Handbook (ASCII Corporation, 1985); MSX Assembly Page, Z80 timing on the MSX",
    },
    ClockProfile {
        id: "apple-2",
        machine: "Apple II (Sargon III, 1983)",
        cpu: Cpu::Mos6502,
        chip: "6502",
        mhz: 1.023,
        ram: "48 KB",
        note: "",
        source: "A. Adrian, \"Computer-Schach\" (2011)",
    },
    ClockProfile {
        id: "c64",
        machine: "Commodore 64 (Sargon III, Colossus 4)",
        cpu: Cpu::Mos6502,
        chip: "6510",
        mhz: 0.985,
        ram: "64 KB",
        note: "PAL clock",
        source: "A. Adrian, \"Computer-Schach\" (2011)",
    },
    ClockProfile {
        id: "atari-800",
        machine: "Atari 400/800 (Computer Chess, 1979)",
        cpu: Cpu::Mos6502,
        chip: "6502",
        mhz: 1.79,
        ram: "8 KB+",
        note: "",
        source: "A. Adrian, \"Computer-Schach\" (2011)",
    },
    ClockProfile {
        id: "vcs-2600",
        machine: "Atari VCS Video Chess (1979)",
        cpu: Cpu::Mos6502,
        chip: "6507",
        mhz: 1.19,
        ram: "128 B RAM, 4 KB ROM",
        note: "",
        source: "A. Adrian, \"Computer-Schach\" (2011)",
    },
    ClockProfile {
        id: "turbostar",
        machine: "Scisys Turbostar 432 (1984, Kaplan, 1780 Elo)",
        cpu: Cpu::Mos6502,
        chip: "6502",
        mhz: 4.0,
        ram: "8 KB RAM, 40 KB ROM",
        note: "",
        source: "A. Adrian, \"Computer-Schach\" (2011)",
    },
    MILANO,
    // The source gives the Rebel 5 the Milano's CPU, clock and memory.
    ClockProfile {
        id: "rebel5",
        machine: "Mephisto Rebel 5 (1986, 1875 Elo)",
        ..MILANO
    },
];

const MILANO: ClockProfile = ClockProfile {
    id: "milano",
    machine: "Mephisto Milano (1991, Schroeder, 1961 Elo)",
    cpu: Cpu::Mos6502,
    chip: "6502",
    mhz: 4.9,
    ram: "8 KB RAM, 32 KB ROM",
    note: "",
    source: "A. Adrian, \"Computer-Schach\" (2011)",
};

/// The profile with this id (case-insensitive).
pub fn machine(id: &str) -> Option<&'static ClockProfile> {
    MACHINES.iter().find(|m| m.id.eq_ignore_ascii_case(id))
}

/// The profile used when none is chosen: the ZX Spectrum for the Z80, the KIM-1 for the 6502.
pub fn default_machine(cpu: Cpu) -> &'static ClockProfile {
    machine(match cpu {
        Cpu::Z80 => "zx-spectrum",
        Cpu::Mos6502 | Cpu::Cmos65c02 => "kim-1",
    })
    .expect("default machines are in the table")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_found() {
        for m in MACHINES {
            assert_eq!(machine(m.id), Some(m));
            assert_eq!(MACHINES.iter().filter(|n| n.id == m.id).count(), 1);
            assert!(m.mhz > 0.0 && !m.source.is_empty());
        }
        assert_eq!(machine("TRS-80").unwrap().mhz, 1.774);
        assert!(machine("pdp-11").is_none());
    }

    #[test]
    fn every_profile_is_documented_in_machine_md() {
        let history = include_str!("../../docs/MACHINE.md");
        for m in MACHINES {
            assert!(
                history.contains(m.id),
                "{} missing from docs/MACHINE.md",
                m.id
            );
        }
    }

    #[test]
    fn time_at_clock() {
        let spectrum = machine("zx-spectrum").unwrap();
        assert_eq!(spectrum.duration(3_500_000), Duration::from_secs(1));
        assert_eq!(spectrum.per_second(10, 350_000), 100.0);
        let kim = default_machine(Cpu::Mos6502);
        assert_eq!(kim.duration(1_500_000), Duration::from_millis(1500));
    }
}
