//! `kempelen gen-tables`: writes `roms-src/z80/tables.inc`, the assembler include file with
//! every table the Z80 engine shares with the native engine (piece values, piece-square
//! tables, castling masks, Zobrist keys, move offsets, ordering keys), generated from the
//! native engine's public constants. `--check` only compares; the test suite does the same.

use anyhow::{Context, bail};
use std::path::PathBuf;

/// Arguments of `kempelen gen-tables`.
#[derive(clap::Args, Debug)]
pub struct GenTablesArgs {
    /// Where to write (default: roms-src/z80/tables.inc of this source tree).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Do not write: fail if the file differs from what would be written.
    #[arg(long)]
    pub check: bool,
    /// Print a JSON summary (file, lines, up_to_date or written) instead of the text line.
    #[arg(long)]
    pub json: bool,
}

/// Runs the command.
pub fn run(args: &GenTablesArgs) -> anyhow::Result<()> {
    let path = args
        .out
        .clone()
        .unwrap_or_else(|| kempelen_roms::z80::source_dir().join("tables.inc"));
    let text = kempelen_roms::tables::tables_inc();
    if args.check {
        let have = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        if have != text {
            bail!(
                "{} is stale: run `kempelen gen-tables` to regenerate it",
                path.display()
            );
        }
        if !args.json {
            println!("{} is up to date", path.display());
        }
    } else {
        std::fs::write(&path, &text).with_context(|| format!("writing {}", path.display()))?;
        if !args.json {
            println!("wrote {} ({} lines)", path.display(), text.lines().count());
        }
    }
    if args.json {
        let v = serde_json::json!({
            "file": path.display().to_string(),
            "lines": text.lines().count(),
            "bytes": text.len(),
            "written": !args.check,
            "up_to_date": true,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
    }
    Ok(())
}
