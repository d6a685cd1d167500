//! `kempelen machines`: the clock profiles of the historical machines.

use anyhow::Result;
use clap::Args;
use kempelen_emulator::MACHINES;
use std::io::Write;

#[derive(Args, Debug)]
pub struct MachinesArgs {
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &MachinesArgs) -> Result<()> {
    // Write through a lock and return errors (a closed pipe) instead of panicking.
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(MACHINES)?)?;
        return Ok(());
    }
    writeln!(
        out,
        "{:<12} {:<46} {:<5} {:>6}  {:<22} source",
        "id", "machine", "CPU", "MHz", "RAM"
    )?;
    for m in MACHINES {
        writeln!(
            out,
            "{:<12} {:<46} {:<5} {:>6}  {:<22} {}",
            m.id, m.machine, m.chip, m.mhz, m.ram, m.source
        )?;
    }
    writeln!(out, "\nnotes:")?;
    for m in MACHINES.iter().filter(|m| !m.note.is_empty()) {
        writeln!(out, "  {}: {}", m.id, m.note)?;
    }
    Ok(())
}
