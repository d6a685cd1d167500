//! A whole bench of one 8-bit build, as `kempelen bench --cpu z80|6502` runs it: the suites
//! ([`load_suite`]), the measurements ([`measure`]: speed with the cycle profile, RAM by depth,
//! ROM of the engine and of the console front end), the figures together ([`PortBench`]) and
//! the goals each build is held to ([`targets`]). The command prints these figures as text or
//! JSON and hands them to the chart; no figure here depends on the host's clock except
//! [`PortBench::host`], which says so.

use std::path::Path;
use std::time::Duration;
use web_time::Instant;

use kempelen_emulator::{ClockProfile, LineProfile, Timing};
use thiserror::Error;

use super::figures::{self, BenchError, BenchPosition, ProfileSummary, RamReport, SpeedReport};
use crate::console::{ConsoleError, ConsoleRom};
use crate::engine::{PortEngine, PortEngineError};
use crate::port::Port;
use crate::suite::{self, SuiteError};

/// Why a bench could not run.
#[derive(Debug, Error)]
pub enum MeasureError {
    /// A suite that could not be read or parsed.
    #[error(transparent)]
    Suite(#[from] SuiteError),
    /// A suite without a position, or without one that has a legal move.
    #[error("{file}: {message}")]
    NothingToSearch {
        /// The suite.
        file: String,
        /// What is missing.
        message: &'static str,
    },
    /// The engine did not assemble.
    #[error("assembling the {name} engine")]
    Engine {
        /// The port's name.
        name: &'static str,
        /// Why.
        source: PortEngineError,
    },
    /// The console front end did not assemble.
    #[error("assembling the {name} console front end")]
    Console {
        /// The port's name.
        name: &'static str,
        /// Why.
        source: ConsoleError,
    },
    /// A search of the bench failed.
    #[error(transparent)]
    Bench(#[from] BenchError),
}

/// The goals a build is measured against.
pub struct Targets {
    /// Nodes per second at least, at this machine's clock.
    pub nps: (&'static str, f64),
    /// Engine ROM at most, bytes: 12 KB, what the tuning may take (issue "speed": code may
    /// grow to 12 KB per build while every program-file target still builds and plays; the
    /// first builds' target was 8 KB).
    pub rom: usize,
    /// Peak RAM of a depth-8 search at most, bytes.
    pub ram_depth8: u32,
    /// Bytes per ply at most.
    pub bytes_per_ply: f64,
}

/// The targets of a port's build.
pub fn targets(port: &Port) -> Targets {
    match port.id {
        "6502" => Targets {
            // At most 2,650 cycles a node: at least 375 nodes/s at the KIM-1's 1 MHz (issue
            // "speed"; the first builds' target was 4,000 cycles, 250 nodes/s).
            nps: ("kim-1", 375.0),
            rom: 12288,
            ram_depth8: 4096,
            bytes_per_ply: 96.0,
        },
        _ => Targets {
            // At most 6,100 T-states a node: at least 570 nodes/s at the Spectrum's 3.5 MHz CPU
            // clock (issue "speed"; the first builds' target was 340).
            nps: ("zx-spectrum", 570.0),
            rom: 12288,
            ram_depth8: 4096,
            bytes_per_ply: 128.0,
        },
    }
}

/// Everything the bench measured for one build, for the text, the JSON and the chart.
pub struct PortBench {
    /// The build.
    pub port: &'static Port,
    /// Suite of the speed run.
    pub suite: String,
    /// The speed run (with the profile).
    pub speed: SpeedReport,
    /// The speed run's cycles per source line of the engine.
    pub lines: LineProfile,
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

/// A suite of the bench: its name and positions.
pub struct BenchSuite {
    /// The file, or the bundled suite's name.
    pub name: String,
    /// Its positions.
    pub positions: Vec<BenchPosition>,
}

/// The suite at `path`, or the bundled one (`bundled_name`, `bundled`); refused when it has
/// no position with a legal move.
pub fn load_suite(
    path: Option<&Path>,
    bundled_name: &str,
    bundled: &str,
) -> Result<BenchSuite, MeasureError> {
    let (name, text) = match path {
        Some(p) => (p.display().to_string(), suite::read_file(p)?),
        None => (bundled_name.to_string(), bundled.to_string()),
    };
    let positions = figures::positions(&text, &name)?;
    let nothing = |message| MeasureError::NothingToSearch {
        file: name.clone(),
        message,
    };
    if positions.is_empty() {
        return Err(nothing("the suite has no positions"));
    }
    if !positions.iter().any(BenchPosition::has_move) {
        return Err(nothing(
            "no position of the suite has a legal move; nothing to search",
        ));
    }
    Ok(BenchSuite { name, positions })
}

/// What a bench measures: the speed run's suite and depth, the RAM table's suite and deepest
/// depth, and the threads.
pub struct BenchPlan<'a> {
    /// Suite of the speed run.
    pub suite: &'a BenchSuite,
    /// Depth of the speed run.
    pub depth: u32,
    /// Suite of the RAM table.
    pub ram_suite: &'a BenchSuite,
    /// Deepest depth of the RAM table.
    pub ram_depth: u32,
    /// Threads.
    pub jobs: usize,
    /// The machines' time (`machine`: each one's timing model, repeating the speed run under
    /// each model) or the CPU clock's only (`cpu`).
    pub timing: Timing,
}

impl BenchPlan<'_> {
    /// How many searches one build's bench runs on `port` (for a progress count).
    pub fn searches_of(&self, port: &'static Port) -> u64 {
        let models = figures::models_for(&port.clocks(), &self.timing).len() as u64;
        self.searches() + models * self.suite.positions.len() as u64
    }

    /// How many searches the speed and RAM runs take (for a progress count).
    pub fn searches(&self) -> u64 {
        let ram = self
            .ram_suite
            .positions
            .iter()
            .filter(|p| p.has_move())
            .count() as u64
            * u64::from(self.ram_depth);
        self.suite.positions.len() as u64 + ram
    }
}

/// Assembles `port`'s engine (and its console front end, if it has one) and measures it by
/// `plan`, highlighting `machine`. `phase` is told what runs next, `done` is called after
/// each search.
pub fn measure(
    port: &'static Port,
    machine: &'static ClockProfile,
    plan: &BenchPlan,
    phase: &dyn Fn(String),
    done: &(dyn Fn() + Sync),
) -> Result<PortBench, MeasureError> {
    let engine = PortEngine::assemble(port).map_err(|source| MeasureError::Engine {
        name: port.name,
        source,
    })?;
    let console = if port.has_console() {
        Some(
            ConsoleRom::assemble(port).map_err(|source| MeasureError::Console {
                name: port.name,
                source,
            })?,
        )
    } else {
        None
    };
    let started = Instant::now();
    phase(format!("{} speed, depth {}", port.name, plan.depth));
    let (suite, ram_suite) = (plan.suite, plan.ram_suite);
    let speed = figures::speed(
        &engine,
        &suite.name,
        &suite.positions,
        plan.depth,
        true,
        plan.jobs,
        done,
    )?;
    let mut speed = speed;
    let models = figures::models_for(&port.clocks(), &plan.timing);
    if !models.is_empty() {
        phase(format!(
            "{} speed under {} timing models",
            port.name,
            models.len()
        ));
        speed.machine = figures::machine_speed(
            &engine,
            &suite.name,
            &suite.positions,
            &speed,
            &models,
            plan.jobs,
            done,
        )?;
    }
    let lines = speed
        .profile
        .as_ref()
        .expect("the speed run is profiled")
        .lines(&engine);
    phase(format!("{} RAM, depths 1-{}", port.name, plan.ram_depth));
    let ram = figures::ram_by_depth(
        &engine,
        &ram_suite.name,
        &ram_suite.positions,
        plan.ram_depth,
        plan.jobs,
        done,
    )?;
    Ok(PortBench {
        port,
        suite: suite.name.clone(),
        speed,
        lines,
        ram_suite: ram_suite.name.clone(),
        ram,
        rom_engine: engine.rom().len(),
        rom_console: console
            .as_ref()
            .map(|c| (c.image.len(), c.engine_bytes(), c.front_end_bytes())),
        machine,
        host: started.elapsed(),
        jobs: plan.jobs,
    })
}
