//! `kempelen gen-tables`: writes the generated `tables.inc` of every port whose sources are
//! present (`roms-src/z80/tables.inc`, `roms-src/6502/tables.inc`): the assembler include
//! file with every table the port shares with the native engine (piece values, piece-square
//! tables, castling masks, Zobrist keys, move offsets, ordering keys), generated from the
//! native engine's public constants by the port's table writer (`Port::tables`). `--check`
//! only compares; the test suite does the same.

use anyhow::{Context, bail};
use kempelen_roms::Port;
use std::path::PathBuf;

use crate::engine_common::{CpuArg, PortCpuArg};

/// Arguments of `kempelen gen-tables`.
#[derive(clap::Args, Debug)]
pub struct GenTablesArgs {
    /// Only this port (default: every port whose sources are present).
    #[arg(long, value_enum)]
    pub cpu: Option<PortCpuArg>,
    /// Where to write (only with one port, `--cpu`; default: `roms-src/<port>/tables.inc` of
    /// this source tree).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Do not write: fail if a file differs from what would be written.
    #[arg(long)]
    pub check: bool,
    /// Print a JSON summary (file, lines, up_to_date or written) instead of the text line.
    #[arg(long)]
    pub json: bool,
}

/// Runs the command.
pub fn run(args: &GenTablesArgs) -> anyhow::Result<()> {
    let ports: Vec<&'static Port> = match args.cpu {
        Some(cpu) => {
            let port = CpuArg::from(cpu).port().expect("an 8-bit CPU");
            port.require()
                .with_context(|| format!("--cpu {}", port.id))?;
            vec![port]
        }
        None => Port::present(),
    };
    if args.out.is_some() && ports.len() != 1 {
        bail!("--out names one file: choose the port with --cpu z80 or --cpu 6502");
    }
    let mut stale = Vec::new();
    let mut summary = Vec::new();
    for port in ports {
        let Some(writer) = port.tables else {
            if !args.json {
                println!("{}: no table writer yet (Port::tables)", port.name);
            }
            continue;
        };
        let path = args
            .out
            .clone()
            .unwrap_or_else(|| port.source_dir().join("tables.inc"));
        let text = writer();
        let up_to_date = if args.check {
            let have = std::fs::read_to_string(&path)
                .with_context(|| format!("reading {}", path.display()))?;
            if have != text {
                stale.push(path.display().to_string());
            } else if !args.json {
                println!("{} is up to date", path.display());
            }
            have == text
        } else {
            // Another file of the port's sources is never replaced by the tables.
            let sources: Vec<PathBuf> = std::fs::read_dir(port.source_dir())
                .map(|dir| {
                    dir.filter_map(|e| e.ok().map(|e| e.path()))
                        .filter(|p| p.file_name() != Some("tables.inc".as_ref()))
                        .collect()
                })
                .unwrap_or_default();
            crate::output::write_output("--out", &path, text.as_bytes(), &sources)?;
            if !args.json {
                println!("wrote {} ({} lines)", path.display(), text.lines().count());
            }
            true
        };
        summary.push(serde_json::json!({
            "cpu": port.id,
            "file": path.display().to_string(),
            "lines": text.lines().count(),
            "bytes": text.len(),
            "written": !args.check,
            "up_to_date": up_to_date,
        }));
    }
    if args.json {
        let v = serde_json::json!({ "tables": summary });
        println!("{}", serde_json::to_string_pretty(&v)?);
    }
    if !stale.is_empty() {
        bail!(
            "{} is stale: run `kempelen gen-tables` to regenerate it",
            stale.join(", ")
        );
    }
    Ok(())
}
