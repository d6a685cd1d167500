//! `kempelen play`: play chess against the Z80 engine on the terminal. The console front end
//! (`roms-src/z80/console.asm`, bundled into the binary) is assembled with Kempelen's
//! assembler and run in Kempelen's machine with the console on the terminal; the board, the
//! move input, the engine's search and the end of the game all run inside the emulated Z80.
//! The same ROM runs under `kempelen run` (see the README).

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::Args;
use kempelen_emulator::clock;
use kempelen_roms::console::ConsoleRom;

use crate::run::{Terminal, grouped};

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Clock profile (see `kempelen machines`) for the time report and --realtime. Default:
    /// zx-spectrum.
    #[arg(long = "machine", value_name = "ID")]
    pub machine: Option<String>,
    /// Run at the machine's real speed: the engine thinks as long as it would have then.
    #[arg(long)]
    pub realtime: bool,
    /// Cycle budget of the whole session (waiting for a key costs cycles too).
    #[arg(long, value_name = "N", default_value_t = 1_000_000_000_000)]
    pub max_cycles: u64,
    /// Write the assembled ROM to FILE (and its symbols to FILE.sym) instead of playing.
    #[arg(long, value_name = "FILE")]
    pub write_rom: Option<PathBuf>,
}

pub fn run(args: &PlayArgs) -> Result<()> {
    let rom = ConsoleRom::assemble()?;
    if let Some(path) = &args.write_rom {
        std::fs::write(path, &rom.image)
            .with_context(|| format!("cannot write {}", path.display()))?;
        let mut sym = path.clone().into_os_string();
        sym.push(".sym");
        std::fs::write(&sym, rom.symbols.to_string())
            .with_context(|| format!("cannot write {}", sym.to_string_lossy()))?;
        eprintln!(
            "{}: {} bytes (engine {} + front end {}), symbols in {}",
            path.display(),
            rom.image.len(),
            rom.engine_bytes(),
            rom.front_end_bytes(),
            sym.to_string_lossy()
        );
        return Ok(());
    }
    let profile = match &args.machine {
        None => clock::default_machine(kempelen_emulator::Cpu::Z80),
        Some(id) => clock::machine(id).with_context(|| {
            let ids: Vec<&str> = clock::MACHINES.iter().map(|m| m.id).collect();
            format!("unknown machine `{id}` (known: {})", ids.join(", "))
        })?,
    };
    let mut m = rom.machine()?;
    m.set_clock(profile);
    m.set_realtime(args.realtime);
    // When standard input ends, the player "types" Ctrl-D (EOT), which quits like q.
    m.console_mut()
        .attach(Box::new(Terminal::with_eof_input(&[0x04])));
    let result = m.run(args.max_cycles);
    let _ = std::io::stdout().flush();
    match result {
        Ok(stats) if stats.is_done() => {
            eprintln!(
                "Z80 cycles: {}, {:.1} s at {} MHz ({})",
                grouped(stats.cycles),
                stats.time_at(profile).as_secs_f64(),
                profile.mhz,
                profile.id
            );
            Ok(())
        }
        Ok(stats) => bail!("the Z80 program stopped: {}", stats.stop),
        Err(e) => bail!("the Z80 program faulted: {e}"),
    }
}
