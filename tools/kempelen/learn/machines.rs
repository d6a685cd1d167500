//! `kempelen machines`: the clock profiles of the historical machines, and the built-in
//! machine personalities (memory map and monitor routines, for `kempelen run --machine`).

use anyhow::Result;
use clap::Args;
use kempelen_emulator::{MACHINES, Personality};
use std::io::Write;

#[derive(Args, Debug)]
pub struct MachinesArgs {
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// List the machine personalities (with --json: as JSON) instead of the clock profiles.
    #[arg(long)]
    pub personalities: bool,
}

/// One personality as `machines --personalities --json` prints it.
#[derive(serde::Serialize)]
struct PersonalityRow {
    id: String,
    name: String,
    cpu: &'static str,
    clock: &'static str,
    mhz: f64,
    memory: Vec<String>,
    traps: Vec<String>,
}

fn personality_rows() -> Vec<PersonalityRow> {
    Personality::all_built_in()
        .into_iter()
        .map(|p| PersonalityRow {
            cpu: p.cpu.name(),
            clock: p.clock.id,
            mhz: p.clock.mhz,
            memory: p
                .map
                .regions
                .iter()
                .map(|r| format!("{} {:?} {}", r.range, r.kind, r.name))
                .collect(),
            traps: p
                .traps
                .iter()
                .map(|t| format!("{} ${:04X}", t.name, t.at))
                .collect(),
            id: p.id,
            name: p.name,
        })
        .collect()
}

pub fn run(args: &MachinesArgs) -> Result<()> {
    // Write through a lock and return errors (a closed pipe) instead of panicking.
    let mut out = std::io::stdout().lock();
    if args.personalities && args.json {
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&personality_rows())?
        )?;
        return Ok(());
    }
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(MACHINES)?)?;
        return Ok(());
    }
    if args.personalities {
        return print_personalities(&mut out);
    }
    // Columns as wide as their longest entry (zx-spectrum-16k is the longest id).
    let id_width = MACHINES.iter().map(|m| m.id.len()).max().unwrap_or(2);
    let machine_width = MACHINES.iter().map(|m| m.machine.len()).max().unwrap_or(7);
    writeln!(
        out,
        "{:<id_width$} {:<machine_width$} {:<5} {:>6}  {:<22} source",
        "id", "machine", "CPU", "MHz", "RAM"
    )?;
    for m in MACHINES {
        writeln!(
            out,
            "{:<id_width$} {:<machine_width$} {:<5} {:>6}  {:<22} {}",
            m.id, m.machine, m.chip, m.mhz, m.ram, m.source
        )?;
    }
    writeln!(out, "\nnotes:")?;
    for m in MACHINES.iter().filter(|m| !m.note.is_empty()) {
        writeln!(out, "  {}: {}", m.id, m.note)?;
    }
    writeln!(
        out,
        "\ntiming models (--timing; the first is the default, docs/TIMING.md):"
    )?;
    for m in MACHINES {
        let models = kempelen_emulator::timing::machine_timing(m.id)
            .map(|t| {
                let mut ids: Vec<String> = t.models.iter().map(|x| x.id.clone()).collect();
                if let Some(d) = &t.default {
                    ids.sort_by_key(|id| id != d);
                }
                ids.join(", ")
            })
            .unwrap_or_default();
        let models = if models.is_empty() {
            "none: the CPU clock".to_string()
        } else {
            models
        };
        writeln!(out, "  {:<16} {models}", m.id)?;
    }
    writeln!(out)?;
    print_personalities(&mut out)
}

fn print_personalities(out: &mut impl Write) -> Result<()> {
    writeln!(
        out,
        "machine personalities (kempelen run --machine ID, or --machine FILE.toml of your own):"
    )?;
    let rows = personality_rows();
    let id_width = rows.iter().map(|p| p.id.len()).max().unwrap_or(2);
    for p in rows {
        writeln!(
            out,
            "  {:<id_width$} {:<5} {:>5} MHz  {}",
            p.id, p.cpu, p.mhz, p.name
        )?;
        let traps = if p.traps.is_empty() {
            "none (no ROM or monitor routine served by the host)".to_string()
        } else {
            p.traps.join(", ")
        };
        writeln!(out, "  {:<id_width$} traps: {traps}", "")?;
    }
    Ok(())
}
