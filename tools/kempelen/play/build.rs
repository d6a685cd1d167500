//! `kempelen build --target T -o FILE`: the console game (front end and engine) as a program
//! file for a real computer, in its own format (kempelen_roms::target).

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use kempelen_roms::target::Target;

#[derive(Args, Debug)]
pub struct BuildArgs {
    /// The machine: cpm, zx-spectrum, msx, trs-80, c64, apple-2, atari-800, kim-1, py65.
    #[arg(long, value_name = "TARGET")]
    pub target: String,
    /// The program file to write (written whole or not at all).
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// Also write the program's symbols (`NAME EQU $XXXX`), for an emulator's debugger or
    /// `kempelen run --symbols`.
    #[arg(long, value_name = "SYMFILE")]
    pub symbols: Option<PathBuf>,
}

pub fn run(args: &BuildArgs) -> Result<()> {
    let t = Target::by_id(&args.target)?;
    let program = t.build()?;
    write_whole(&args.output, &program.file)?;
    if let Some(path) = &args.symbols {
        write_whole(path, program.symbols.to_string().as_bytes())?;
    }
    println!(
        "{}: {} ({}, {} bytes): the program at {}, started at ${:04X}",
        args.output.display(),
        t.name,
        t.format,
        program.file.len(),
        program.addresses(),
        program.entry
    );
    for (what, r) in t.memory_plan(&program).iter().skip(1) {
        println!("  {what}: ${:04X}-${:04X}", r.start, r.end);
    }
    println!("load: {}", t.how_to_load);
    println!("RAM: {}", t.ram_needed);
    println!(
        "in Kempelen: kempelen run {} --machine {}",
        args.output.display(),
        t.machine
    );
    Ok(())
}

/// Writes `bytes` to a temporary file beside `path` and renames it into place.
fn write_whole(path: &std::path::Path, bytes: &[u8]) -> Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    let name = path
        .file_name()
        .with_context(|| format!("{} is not a file name", path.display()))?;
    let tmp = dir
        .map(|d| d.to_path_buf())
        .unwrap_or_default()
        .join(format!(
            ".{}.tmp{}",
            name.to_string_lossy(),
            std::process::id()
        ));
    std::fs::write(&tmp, bytes).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| {
        let _ = std::fs::remove_file(&tmp);
        format!("cannot write {}", path.display())
    })?;
    Ok(())
}
