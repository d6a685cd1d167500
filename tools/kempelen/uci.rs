//! `kempelen uci`: an engine as a UCI engine on standard input and output: the native engine
//! (either profile) or an 8-bit build (`--cpu z80|6502`) run in Kempelen's emulator.
//!
//! Time with an 8-bit engine: every time figure is emulated time at the chosen machine's clock
//! (default the ZX Spectrum's 3.5 MHz). `go movetime 10000` means "what the Z80 would do in
//! ten seconds at that clock", and `info ... time` and `nps` are that machine's. The emulator
//! runs as fast as the host allows, so a move usually takes a small part of the real time the
//! GUI granted. With `--realtime` the emulator is held to the machine's clock, so the emulated
//! time is also the real time: the engine thinks as long as the machine would have.

use crate::engine_common::{CpuArg, ProfileArg, port_engine, port_machine, present_port};
use anyhow::bail;
use kempelen_engine::Engine;

/// Arguments of `kempelen uci`.
#[derive(clap::Args, Debug)]
pub struct UciArgs {
    /// Search profile at start-up (the UCI option `Profile` changes it; the 8-bit engines
    /// have only `reference`).
    #[arg(long, value_enum)]
    pub profile: Option<ProfileArg>,
    /// Which engine plays: the native one or an 8-bit build in the emulator (`--engine` is an
    /// alias).
    #[arg(long, value_enum, alias = "engine", default_value = "native")]
    pub cpu: CpuArg,
    /// 8-bit engine: the machine whose clock time limits and reported times refer to (see
    /// `kempelen machines`; default zx-spectrum for the Z80, kim-1 for the 6502).
    #[arg(long, value_name = "ID")]
    pub machine: Option<String>,
    /// 8-bit engine: run at the machine's real speed, so a move takes the historical time.
    #[arg(long)]
    pub realtime: bool,
}

/// Runs the UCI loop until `quit` or end of input; `native` builds the native backend for a
/// profile.
pub fn run(
    args: &UciArgs,
    native: impl FnOnce(ProfileArg) -> Box<dyn Engine>,
) -> anyhow::Result<()> {
    let port = present_port(args.cpu)?;
    let mut engine: Box<dyn Engine> = match port {
        None => {
            if args.machine.is_some() || args.realtime {
                bail!(
                    "--machine and --realtime: only an 8-bit engine (--cpu z80 or --cpu 6502) runs at a machine's clock"
                );
            }
            native(args.profile.unwrap_or(ProfileArg::Full))
        }
        Some(port) => {
            if args.profile == Some(ProfileArg::Full) {
                bail!(
                    "--profile full: the {} build runs the reference profile only (the full profile is the native engine's)",
                    port.name
                );
            }
            let clock = port_machine(port, args.machine.as_deref())?;
            Box::new(port_engine(port, clock, args.realtime, None)?)
        }
    };
    let stdin = std::io::stdin();
    kempelen_engine::uci::run(engine.as_mut(), stdin.lock(), std::io::stdout())?;
    Ok(())
}
