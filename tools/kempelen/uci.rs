//! `kempelen uci`: an engine as a UCI engine on standard input and output: the native engine
//! (either profile) or the Z80 build run in Kempelen's emulator.
//!
//! Time with the Z80 engine: every time figure is emulated time at the chosen machine's clock
//! (default the ZX Spectrum's 3.5 MHz). `go movetime 10000` means "what the Z80 would do in
//! ten seconds at that clock", and `info ... time` and `nps` are that machine's. The emulator
//! runs as fast as the host allows, so a move usually takes a small part of the real time the
//! GUI granted. With `--realtime` the emulator is held to the machine's clock, so the emulated
//! time is also the real time: the engine thinks as long as the machine would have.

use crate::engine_common::{EngineArg, ProfileArg, z80_engine, z80_machine};
use anyhow::bail;
use kempelen_engine::Engine;

/// Arguments of `kempelen uci`.
#[derive(clap::Args, Debug)]
pub struct UciArgs {
    /// Search profile at start-up (the UCI option `Profile` changes it; the Z80 engine has
    /// only `reference`).
    #[arg(long, value_enum)]
    pub profile: Option<ProfileArg>,
    /// Which engine plays: the native one or the Z80 build in the emulator.
    #[arg(long, value_enum, default_value = "native")]
    pub engine: EngineArg,
    /// Z80 engine: the machine whose clock time limits and reported times refer to (see
    /// `kempelen machines`; default zx-spectrum).
    #[arg(long, value_name = "ID")]
    pub machine: Option<String>,
    /// Z80 engine: run at the machine's real speed, so a move takes the historical time.
    #[arg(long)]
    pub realtime: bool,
    /// Play a console chess program through an engine adaptor file (see `adaptors/`).
    #[arg(long, value_name = "FILE.toml", conflicts_with_all = ["engine", "machine", "realtime", "profile"])]
    pub program: Option<std::path::PathBuf>,
}

/// Runs the UCI loop until `quit` or end of input; `native` builds the native backend for a
/// profile.
pub fn run(
    args: &UciArgs,
    native: impl FnOnce(ProfileArg) -> Box<dyn Engine>,
) -> anyhow::Result<()> {
    if let Some(file) = &args.program {
        let mut engine = crate::adaptor::AdaptorEngine::new(file)?;
        kempelen_engine::uci::run(&mut engine, std::io::stdin().lock(), std::io::stdout())?;
        return Ok(());
    }
    let mut engine: Box<dyn Engine> = match args.engine {
        EngineArg::Native => {
            if args.machine.is_some() || args.realtime {
                bail!(
                    "--machine and --realtime: only the Z80 engine (--engine z80) runs at a machine's clock"
                );
            }
            native(args.profile.unwrap_or(ProfileArg::Full))
        }
        EngineArg::Z80 => {
            if args.profile == Some(ProfileArg::Full) {
                bail!(
                    "--profile full: the Z80 build runs the reference profile only (the full profile is the native engine's)"
                );
            }
            let clock = z80_machine(args.machine.as_deref())?;
            Box::new(z80_engine(clock, args.realtime, None)?)
        }
    };
    let stdin = std::io::stdin();
    kempelen_engine::uci::run(engine.as_mut(), stdin.lock(), std::io::stdout())?;
    Ok(())
}
