//! `kempelen build --target T -o FILE`: the console game (front end and engine) as a program
//! file for a real computer, in its own format (kempelen_roms::target).

use std::path::PathBuf;

use crate::output::{Outputs, check_outputs};
use anyhow::Result;
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
    let mut outputs = vec![("-o", args.output.as_path())];
    if let Some(path) = &args.symbols {
        outputs.push(("--symbols", path.as_path()));
    }
    // Written through the writer `asm` uses: a symlink's file, not the link, is replaced; a
    // device or a FIFO is written, never replaced; both files or neither.
    check_outputs(&[], &outputs)?;
    let program = t.build()?;
    let mut out = Outputs::new();
    out.stage(&args.output, &program.file)?;
    if let Some(path) = &args.symbols {
        out.stage(path, program.symbols.to_string().as_bytes())?;
    }
    out.commit()?;
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
