//! `kempelen uci`: the engine as a UCI engine on standard input and output.

use crate::engine_common::ProfileArg;
use kempelen_engine::Engine;

/// Arguments of `kempelen uci`.
#[derive(clap::Args, Debug)]
pub struct UciArgs {
    /// Search profile at start-up (the UCI option `Profile` changes it).
    #[arg(long, value_enum, default_value = "full")]
    pub profile: ProfileArg,
}

/// Runs the UCI loop until `quit` or end of input.
pub fn run(engine: &mut dyn Engine) -> anyhow::Result<()> {
    let stdin = std::io::stdin();
    kempelen_engine::uci::run(engine, stdin.lock(), std::io::stdout())?;
    Ok(())
}
