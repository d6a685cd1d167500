//! Helpers shared by the engine subcommands (`perft`, `search`, `uci`, `bench`, `compare`,
//! `play`): the profile flag, the one typed CPU flag (`--cpu native|z80|6502`), the machine
//! flag of the 8-bit builds, and building the backend they all run through (`&mut dyn
//! Engine`).

use anyhow::{Context, anyhow, bail};
use kempelen_emulator::{ClockProfile, Timing, TimingModel};
use kempelen_engine::{Engine, NativeEngine, Profile};
use kempelen_roms::PortEngine;
use kempelen_roms::port::{self, MachineError, Port};

/// `--profile` values: every engine profile, parsed by its name (`Profile::from_str`, whose
/// error lists the names).
pub use kempelen_engine::Profile as ProfileArg;

/// The backend the engine commands run on.
pub fn backend(profile: Profile) -> Box<dyn Engine> {
    Box::new(NativeEngine::new(profile))
}

/// Nodes per second, guarding against a zero duration.
pub fn nps(nodes: u64, time: std::time::Duration) -> u64 {
    let us = time.as_micros().max(1);
    (nodes as u128 * 1_000_000 / us) as u64
}

/// `--cpu` values: which engine runs, the native one or an 8-bit build (a port of the
/// reference algorithm, run in Kempelen's emulator). `--engine` is accepted as an alias on
/// `perft`, `search` and `uci`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CpuArg {
    /// The native Rust engine.
    Native,
    /// The Z80 build.
    Z80,
    /// The 6502 build.
    #[value(name = "6502")]
    M6502,
}

impl CpuArg {
    /// The port of an 8-bit build, `None` for the native engine.
    pub fn port(self) -> Option<&'static Port> {
        match self {
            CpuArg::Native => None,
            CpuArg::Z80 => Some(&port::Z80),
            CpuArg::M6502 => Some(&port::M6502),
        }
    }

    /// The name as typed.
    pub fn id(self) -> &'static str {
        self.port().map_or("native", |p| p.id)
    }
}

/// `--cpu` of the commands that only an 8-bit build serves (`play`, `gen-tables`): the same
/// names without `native`, so `--help` offers only what the command takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PortCpuArg {
    /// The Z80 build.
    Z80,
    /// The 6502 build.
    #[value(name = "6502")]
    M6502,
}

impl From<PortCpuArg> for CpuArg {
    fn from(cpu: PortCpuArg) -> CpuArg {
        match cpu {
            PortCpuArg::Z80 => CpuArg::Z80,
            PortCpuArg::M6502 => CpuArg::M6502,
        }
    }
}

/// The port of an 8-bit `--cpu`, refused when its sources are not in this tree.
pub fn present_port(cpu: CpuArg) -> anyhow::Result<Option<&'static Port>> {
    match cpu.port() {
        None => Ok(None),
        Some(p) => {
            p.require().with_context(|| format!("--cpu {}", p.id))?;
            Ok(Some(p))
        }
    }
}

/// The clock profile named by `--machine` (default: the port's default machine, the one its
/// figures are quoted at), refused unless it is one of the port's machines.
pub fn port_machine(
    port: &'static Port,
    id: Option<&str>,
) -> anyhow::Result<&'static ClockProfile> {
    let Some(id) = id else {
        return Ok(port.default_machine());
    };
    let known = port.machines.join(", ");
    port.machine(id).map_err(|e| match &e {
        MachineError::Unknown => anyhow!("--machine {id}: {e} ({} machines: {known})", port.name),
        MachineError::OtherCpu { other, .. } => anyhow!(
            "--machine {id}: {e} (add --cpu {} for it; {} machines: {known})",
            other.id,
            port.name
        ),
    })
}

/// Help text of `--timing` (the same on every command that runs an 8-bit engine).
pub const TIMING_HELP: &str = "Which time: `machine` (default) is the machine as it ran, \
its timing model (display DMA, contention, wait states, the ROM's interrupt; see docs/TIMING.md), \
`cpu` the CPU clock alone, or a model the machine names (zx81: slow, fast; atari-800: text, \
dma-off; c64: pal, screen-off; vcs-2600: picture, blank; msx: pal, ntsc)";

/// Reads `--timing`: `machine`, `cpu` or a model's id (checked against the machine later).
/// A control character is refused (and shown escaped, never sent to the terminal).
pub fn parse_timing(s: &str) -> Result<Timing, String> {
    if s.is_empty() || s.contains(char::is_whitespace) || s.contains(char::is_control) {
        return Err(format!(
            "`{}`: machine, cpu or a model of the machine",
            s.escape_debug()
        ));
    }
    Ok(Timing::parse(s))
}

/// Refuses a timing model for the native engine, which runs on no machine (`machine` and
/// `cpu`, the default and the clock alone, mean nothing there and pass).
pub fn native_timing(timing: &Timing) -> anyhow::Result<()> {
    if let Timing::Named(id) = timing {
        bail!(
            "--timing {id}: the native engine runs on no machine; a timing model is for an \
             8-bit engine (--cpu z80 or --cpu 6502)"
        );
    }
    Ok(())
}

/// The timing model `choice` gives on `clock`'s machine, with the flag in the error.
pub fn timing_model(
    clock: &ClockProfile,
    choice: &Timing,
) -> anyhow::Result<Option<&'static TimingModel>> {
    choice
        .model_for(clock.id)
        .map_err(|e| anyhow!("--timing {choice}: {e}"))
}

/// A port's engine, assembled from the bundled sources, with `clock` for time figures and
/// time limits (emulated time of that machine, under its timing model as `timing` chooses),
/// paced to it when `realtime` is set, and the cycle budget of one command (`--max-cycles`;
/// `None` keeps the engine's default).
pub fn port_engine(
    port: &'static Port,
    clock: &'static ClockProfile,
    timing: &Timing,
    realtime: bool,
    max_cycles: Option<u64>,
) -> anyhow::Result<PortEngine> {
    let mut engine = PortEngine::assemble(port)
        .with_context(|| format!("assembling the {} engine", port.name))?;
    engine
        .set_machine(clock, timing)
        .map_err(|e| anyhow!("--timing {timing}: {e}"))?;
    engine.realtime = realtime;
    set_max_cycles(&mut engine, max_cycles)?;
    Ok(engine)
}

/// Applies `--max-cycles` to a port's engine, refusing 0.
pub fn set_max_cycles(engine: &mut PortEngine, max_cycles: Option<u64>) -> anyhow::Result<()> {
    match max_cycles {
        Some(0) => bail!("--max-cycles 0: the cycle budget must be at least 1"),
        Some(n) => engine.max_cycles = n,
        None => {}
    }
    Ok(())
}

/// Help text of `--max-cycles` (the same on every command that runs an 8-bit engine).
pub const MAX_CYCLES_HELP: &str = "8-bit engine: cycle budget of one command, in CPU cycles \
(default 2^44, hours of host time); a run that needs more stops with an error";
