//! Helpers shared by the engine subcommands (`perft`, `search`, `uci`, `bench`): the profile
//! and engine flags, the Z80 machine flag, and building the backend they all run through
//! (`&mut dyn Engine`).

use anyhow::{Context, bail};
use kempelen_emulator::{ClockProfile, Cpu, clock};
use kempelen_engine::{Engine, NativeEngine, Profile};
use kempelen_roms::Z80Engine;

/// `--profile` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ProfileArg {
    /// Exactly docs/ALGORITHM.md (what the 8-bit ports reproduce).
    Reference,
    /// The native engine at its best.
    Full,
    /// Sargon (Spracklen, 1978), see docs/history/sargon.md.
    Sargon,
    /// The Salomon thesis program (1992), see docs/history/salomon.md.
    Salomon,
    /// The reference with Donninger's null move rules, see docs/history/nimzo.md.
    Nimzo,
}

impl From<ProfileArg> for Profile {
    fn from(p: ProfileArg) -> Profile {
        match p {
            ProfileArg::Reference => Profile::Reference,
            ProfileArg::Full => Profile::Full,
            ProfileArg::Sargon => Profile::Sargon,
            ProfileArg::Salomon => Profile::Salomon,
            ProfileArg::Nimzo => Profile::Nimzo,
        }
    }
}

/// The backend the engine commands run on.
pub fn backend(profile: Profile) -> Box<dyn Engine> {
    Box::new(NativeEngine::new(profile))
}

/// Nodes per second, guarding against a zero duration.
pub fn nps(nodes: u64, time: std::time::Duration) -> u64 {
    let us = time.as_micros().max(1);
    (nodes as u128 * 1_000_000 / us) as u64
}

/// `--engine` values of `perft`, `search` and `uci`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EngineArg {
    /// The native Rust engine.
    Native,
    /// The Z80 build of the reference algorithm, run in Kempelen's emulator.
    Z80,
}

/// The clock profile named by `--machine` (default: the ZX Spectrum, the machine the Z80
/// figures are quoted at), refused unless it is a Z80 machine.
pub fn z80_machine(id: Option<&str>) -> anyhow::Result<&'static ClockProfile> {
    let Some(id) = id else {
        return Ok(clock::default_machine(Cpu::Z80));
    };
    let known = || {
        clock::MACHINES
            .iter()
            .filter(|m| m.cpu == Cpu::Z80)
            .map(|m| m.id)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let m = clock::machine(id).with_context(|| {
        format!(
            "--machine {id}: unknown machine (Z80 machines: {})",
            known()
        )
    })?;
    if m.cpu != Cpu::Z80 {
        bail!(
            "--machine {id}: the {} has a {}, not a Z80 (Z80 machines: {})",
            m.machine,
            m.chip,
            known()
        );
    }
    Ok(m)
}

/// The Z80 engine, assembled from the bundled sources, with `clock` for time figures and
/// time limits (emulated time at that clock), paced to it when `realtime` is set, and the
/// cycle budget of one command (`--max-cycles`; `None` keeps the engine's default).
pub fn z80_engine(
    clock: &'static ClockProfile,
    realtime: bool,
    max_cycles: Option<u64>,
) -> anyhow::Result<Z80Engine> {
    let mut engine = Z80Engine::assemble().context("assembling the Z80 engine")?;
    engine.clock = Some(clock);
    engine.realtime = realtime;
    set_max_cycles(&mut engine, max_cycles)?;
    Ok(engine)
}

/// Applies `--max-cycles` to a Z80 engine, refusing 0.
pub fn set_max_cycles(engine: &mut Z80Engine, max_cycles: Option<u64>) -> anyhow::Result<()> {
    match max_cycles {
        Some(0) => bail!("--max-cycles 0: the cycle budget must be at least 1"),
        Some(n) => engine.max_cycles = n,
        None => {}
    }
    Ok(())
}

/// Help text of `--max-cycles` (the same on every command that runs the Z80 engine).
pub const MAX_CYCLES_HELP: &str = "Z80 engine: cycle budget of one command, in T-states \
(default 2^44, hours of host time); a run that needs more stops with an error";
