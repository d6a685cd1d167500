//! The ports of the reference algorithm to 8-bit CPUs, each described by a [`Port`]: where its
//! sources are, how its image is loaded and entered, its memory map, its ROM limit and the
//! historical machines it ran on. Everything else (driving the host protocol, differential
//! testing, bench, console) is CPU-neutral code in [`crate::engine`], [`crate::console`],
//! [`crate::bench`] and [`crate::differential`], driven by the description.
//!
//! A new port adds its folder `roms-src/<folder>/` (with `engine.asm`, optionally
//! `console.asm`) and one entry in [`PORTS`]; `build.rs` bundles every `.asm`/`.inc` file of
//! the folder, so no Rust list of files needs to change.

use std::path::{Path, PathBuf};

use kempelen_emulator::{ClockProfile, Cpu, MemoryMap, clock};

mod bundled {
    include!(concat!(env!("OUT_DIR"), "/port_sources.rs"));
}

/// The bundled files of port folder `folder` with its generated `tables.inc` put back in name
/// order. The build bundles the folder without it: the tables are the engine's constants (the
/// Zobrist keys as hex, 14 KB deflated for both ports, which the page would download), and
/// the generator writes exactly the checked-in file (`tables::tests::tables_inc_files_are_fresh`).
fn with_generated(
    folder: &str,
    mut files: Vec<(&'static str, &'static str)>,
) -> Vec<(&'static str, &'static str)> {
    if let Some(write) = PORTS.iter().find(|p| p.id == folder).and_then(|p| p.tables) {
        files.push(("tables.inc", Box::leak(write().into_boxed_str())));
        files.sort_by_key(|(name, _)| *name);
    }
    files
}

/// Where execution starts once the image is loaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// At the image's first byte (the Z80 starts at `0000h` after reset).
    LoadAddress,
    /// At the address in the 6502 reset vector (`$FFFC-$FFFD`, inside the image).
    ResetVector,
}

/// The description of one port.
#[derive(Debug)]
pub struct Port {
    /// Short name as typed (`--cpu z80`), also the source folder under `roms-src/`.
    pub id: &'static str,
    /// Name as printed ("Z80", "6502").
    pub name: &'static str,
    /// The CPU it runs on.
    pub cpu: Cpu,
    /// Main file of the engine image (protocol engine, docs/PROTOCOL.md).
    pub engine_main: &'static str,
    /// Main file of the console front end (engine included).
    pub console_main: &'static str,
    /// How execution starts; the load address is the assembled image's origin.
    pub entry: Entry,
    /// The engine image may have at most this many bytes (tables included).
    pub rom_limit: usize,
    /// Ids of the clock profiles (`kempelen machines`) of this CPU's historical machines; the
    /// first is the default machine for time figures.
    pub machines: &'static [&'static str],
    /// Writer of the port's generated `tables.inc` (`kempelen gen-tables`), if it has one.
    pub tables: Option<fn() -> String>,
}

/// The Z80 port: `roms-src/z80/`, loaded at `0000h` and entered there, in the Z80 default
/// map of docs/MACHINE.md (ROM `0000h-3FFFh`, RAM above, stack region `F000h-FFFFh`).
pub static Z80: Port = Port {
    id: "z80",
    name: "Z80",
    cpu: Cpu::Z80,
    engine_main: "engine.asm",
    console_main: "console.asm",
    entry: Entry::LoadAddress,
    // 12 KB: the tuned generator's unrolled code and tables (docs/PORTS.md).
    rom_limit: 12288,
    machines: &[
        "zx-spectrum",
        "zx-spectrum-16k",
        "trs-80",
        "jupiter-3",
        "nascom-1",
        "zx81",
        "cpc464",
        "msx",
    ],
    tables: Some(crate::tables::tables_inc),
};

/// The 6502 port: `roms-src/6502/`, an image of at most 8 KB at the top of the 6502 default
/// map's ROM (`$C000-$FFFF`), entered through its reset vector; RAM `$0000-$BEFF` (zero page
/// and the stack page `$0100-$01FF` included), I/O page `$BF00-$BFFF` (docs/MACHINE.md).
pub static M6502: Port = Port {
    id: "6502",
    name: "6502",
    cpu: Cpu::Mos6502,
    engine_main: "engine.asm",
    console_main: "console.asm",
    entry: Entry::ResetVector,
    // 10.25 KB: ENGINE_BASE ($D700) to the vectors (layout.inc; docs/PORTS.md).
    rom_limit: 10496,
    machines: &[
        "kim-1",
        "apple-2",
        "c64",
        "atari-800",
        "vcs-2600",
        "turbostar",
        "milano",
        "rebel5",
    ],
    tables: Some(crate::tables::tables_inc_6502),
};

/// How many ports are described.
pub const PORT_COUNT: usize = 2;

/// Every port, in the order tables and reports list them.
pub static PORTS: [&Port; PORT_COUNT] = [&Z80, &M6502];

/// What asking for a port can fail with.
#[derive(Debug, thiserror::Error)]
pub enum PortError {
    /// The port is described but its sources are not in this tree.
    #[error("the {0} build's sources are not in this tree (roms-src/{1}/{2} is missing)")]
    Absent(&'static str, &'static str, &'static str),
}

/// A machine that a port's build does not run on.
#[derive(Debug, thiserror::Error)]
pub enum MachineError {
    /// No clock profile has this id.
    #[error("unknown machine")]
    Unknown,
    /// The machine has another CPU than the build asked about: the build of `other` runs
    /// on it.
    #[error("the {} has a {}, not a {}", machine.machine, machine.chip, build.name)]
    OtherCpu {
        /// The machine.
        machine: &'static ClockProfile,
        /// The port asked about.
        build: &'static Port,
        /// The port of the machine's CPU.
        other: &'static Port,
    },
}

impl Port {
    /// The port running on `cpu` (the 6502's for the 65C02 too).
    pub fn for_cpu(cpu: Cpu) -> &'static Port {
        PORTS
            .iter()
            .copied()
            .find(|p| p.cpu == cpu || (p.cpu.is_6502_family() && cpu.is_6502_family()))
            .expect("every CPU has a port description")
    }

    /// The port with this id (`z80`, `6502`), case-insensitive.
    pub fn by_id(id: &str) -> Option<&'static Port> {
        PORTS
            .iter()
            .copied()
            .find(|p| p.id.eq_ignore_ascii_case(id))
    }

    /// The ports whose sources are in this tree.
    pub fn present() -> Vec<&'static Port> {
        PORTS.iter().copied().filter(|p| p.is_present()).collect()
    }

    /// The bundled sources of the port's folder (every `.asm` and `.inc` file, by name): the
    /// engine's and the console front end's.
    pub fn sources(&self) -> &'static [(&'static str, &'static str)] {
        bundled::all(self.id)
    }

    /// The bundled sources of the engine alone (every `.asm` and `.inc` file but the console
    /// front end's `console*`, by name): what `engine.asm` includes. A program that runs only
    /// the engine (the page) reads these, and so carries no front end.
    pub fn engine_sources(&self) -> &'static [(&'static str, &'static str)] {
        bundled::bundled(self.id)
    }

    /// Whether the engine's sources were bundled (the folder has an `engine.asm`).
    pub fn is_present(&self) -> bool {
        self.engine_sources()
            .iter()
            .any(|(n, _)| *n == self.engine_main)
    }

    /// Whether the console front end's sources were bundled.
    pub fn has_console(&self) -> bool {
        bundled::console(self.id)
            .iter()
            .any(|(n, _)| *n == self.console_main)
    }

    /// `Ok` when the sources are present, else the error that says so.
    pub fn require(&self) -> Result<(), PortError> {
        if self.is_present() {
            Ok(())
        } else {
            Err(PortError::Absent(self.name, self.id, self.engine_main))
        }
    }

    /// The port's source folder in this source tree.
    pub fn source_dir(&self) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join(self.id)
    }

    /// The memory map the port runs in: the CPU's default map (docs/MACHINE.md).
    pub fn memory_map(&self) -> MemoryMap {
        MemoryMap::default_for(self.cpu)
    }

    /// The clock profiles of the port's machines, slowest first.
    pub fn clocks(&self) -> Vec<&'static ClockProfile> {
        let mut v: Vec<&'static ClockProfile> = self
            .machines
            .iter()
            .map(|id| clock::machine(id).expect("port machines are clock profiles"))
            .collect();
        v.sort_by(|a, b| a.mhz.total_cmp(&b.mhz));
        v
    }

    /// The machine time figures refer to by default (the first of [`Port::machines`]).
    pub fn default_machine(&self) -> &'static ClockProfile {
        clock::machine(self.machines[0]).expect("port machines are clock profiles")
    }

    /// The clock profile `id`, refused unless it is one of the port's machines (its CPU).
    pub fn machine(&'static self, id: &str) -> Result<&'static ClockProfile, MachineError> {
        let m = clock::machine(id).ok_or(MachineError::Unknown)?;
        if m.cpu != self.cpu {
            return Err(MachineError::OtherCpu {
                machine: m,
                build: self,
                other: Port::for_cpu(m.cpu),
            });
        }
        Ok(m)
    }

    /// The engine's program entry for an image assembled at `origin`.
    pub fn entry_of(&self, origin: u16, image: &[u8]) -> Option<u16> {
        match self.entry {
            Entry::LoadAddress => Some(origin),
            Entry::ResetVector => {
                let at = 0xFFFCusize.checked_sub(usize::from(origin))?;
                let lo = *image.get(at)?;
                let hi = *image.get(at + 1)?;
                Some(u16::from_le_bytes([lo, hi]))
            }
        }
    }
}

/// Runs `test` with `port` when its sources are present; otherwise prints that the test is
/// skipped and why (the per-port tests of [`port_tests!`](crate::port_tests)).
pub fn run_if_present(port: &'static Port, test: impl FnOnce(&'static Port)) {
    match port.require() {
        Ok(()) => test(port),
        Err(e) => eprintln!("skipped for the {}: {e}", port.name),
    }
}

/// [`run_if_present`] for a test of the console front end: skipped (with a message) unless
/// the port's `console.asm` is present too.
pub fn run_if_console_present(port: &'static Port, test: impl FnOnce(&'static Port)) {
    match port.require() {
        Ok(()) if port.has_console() => test(port),
        Ok(()) => eprintln!(
            "skipped for the {}: roms-src/{}/{} is not in this tree",
            port.name, port.id, port.console_main
        ),
        Err(e) => eprintln!("skipped for the {}: {e}", port.name),
    }
}

/// Declares one `#[test]` per port (with `console` first: a test of the console front end) in a module `$name` (`$name::z80`, `$name::m6502`), each
/// running `$body` (a closure taking the `&'static Port`) when the port's sources are present
/// and printing that it is skipped otherwise. Written once, a test runs for every port.
#[macro_export]
macro_rules! port_tests {
    (console $(#[$attr:meta])* $name:ident, $body:expr) => {
        $crate::port_tests!(@with run_if_console_present $(#[$attr])* $name, $body);
    };
    ($(#[$attr:meta])* $name:ident, $body:expr) => {
        $crate::port_tests!(@with run_if_present $(#[$attr])* $name, $body);
    };
    // The tests themselves, each run through `$crate::port::$run`.
    (@with $run:ident $(#[$attr:meta])* $name:ident, $body:expr) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;
            #[test]
            $(#[$attr])*
            fn z80() {
                $crate::port::$run(&$crate::port::Z80, $body)
            }
            #[test]
            $(#[$attr])*
            fn m6502() {
                $crate::port::$run(&$crate::port::M6502, $body)
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_port_machine_is_a_clock_profile_of_its_cpu_and_every_one_is_listed() {
        for p in PORTS.iter().copied() {
            for id in p.machines {
                let m = clock::machine(id).unwrap_or_else(|| panic!("{id}"));
                assert_eq!(m.cpu, p.cpu, "{id}");
            }
            let listed = clock::MACHINES.iter().filter(|m| m.cpu == p.cpu).count();
            assert_eq!(listed, p.machines.len(), "{}: machines", p.name);
            assert_eq!(p.default_machine().id, clock::default_machine(p.cpu).id);
        }
    }

    #[test]
    fn ports_are_found_by_id_and_cpu() {
        assert_eq!(Port::by_id("Z80").unwrap().cpu, Cpu::Z80);
        assert_eq!(Port::by_id("6502").unwrap().cpu, Cpu::Mos6502);
        assert!(Port::by_id("6809").is_none());
        assert_eq!(Port::for_cpu(Cpu::Mos6502).id, "6502");
        assert!(Z80.is_present(), "the Z80 sources are in the tree");
    }

    #[test]
    fn an_absent_port_says_so() {
        let absent = Port {
            id: "no-such-port",
            ..Z80
        };
        assert!(!absent.is_present());
        let e = absent.require().unwrap_err().to_string();
        assert!(e.contains("sources are not in this tree"), "{e}");
    }

    #[test]
    fn the_reset_vector_gives_the_entry() {
        let mut image = vec![0u8; 0x2000];
        image[0x1FFC] = 0x34;
        image[0x1FFD] = 0xE0;
        assert_eq!(M6502.entry_of(0xE000, &image), Some(0xE034));
        assert_eq!(M6502.entry_of(0xC000, &image), None);
        assert_eq!(Z80.entry_of(0, &image), Some(0));
    }
}
