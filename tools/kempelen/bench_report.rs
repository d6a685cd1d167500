//! The figures `kempelen bench --cpu z80|6502` measured for one 8-bit build, shared by the
//! text and JSON report (`bench_port`) and the chart (`bench_chart`); data only, so that
//! neither of those modules imports the other.

use std::time::Duration;

use kempelen_emulator::ClockProfile;
use kempelen_roms::Port;
use kempelen_roms::bench::{ProfileSummary, RamReport, SpeedReport};

/// Everything the bench measured for one build, for the text, the JSON and the chart.
pub struct PortBench {
    /// The build.
    pub port: &'static Port,
    /// Suite of the speed run.
    pub suite: String,
    /// The speed run (with the profile).
    pub speed: SpeedReport,
    /// Suite of the RAM table.
    pub ram_suite: String,
    /// The RAM table.
    pub ram: RamReport,
    /// Bytes of the engine image (`engine.asm`).
    pub rom_engine: usize,
    /// The console front end's ROM, when the port has one: (whole image, engine part, front
    /// end part).
    pub rom_console: Option<(usize, usize, usize)>,
    /// The highlighted machine.
    pub machine: &'static ClockProfile,
    /// Host time of the measurement (not a figure of the build).
    pub host: Duration,
    /// Threads used.
    pub jobs: usize,
}

impl PortBench {
    /// The port's machines, slowest first.
    pub fn clocks(&self) -> Vec<&'static ClockProfile> {
        self.port.clocks()
    }

    /// The profile of the speed run.
    pub fn profile(&self) -> &ProfileSummary {
        self.speed
            .profile
            .as_ref()
            .expect("the speed run is profiled")
    }

    /// "Kempelen-Z80", "Kempelen-6502".
    pub fn label(&self) -> String {
        format!("Kempelen-{}", self.port.name)
    }
}
