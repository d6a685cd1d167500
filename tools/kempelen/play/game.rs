//! `kempelen play`: play chess against an 8-bit engine on the terminal (`--cpu z80`, the
//! default, or `--cpu 6502`). The port's console front end (`roms-src/<port>/console.asm`,
//! bundled into the binary) is assembled with Kempelen's assembler and run in Kempelen's
//! machine with the console on the terminal; the board, the move input, the engine's search
//! and the end of the game all run inside the emulated CPU. The same ROM runs under
//! `kempelen run` (see the README). The terminal gives the program a line at a time, read
//! while the emulation waits, so `--realtime` paces only the program's own work.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::Args;
use kempelen_emulator::{Timing, grouped};
use kempelen_roms::console::{ConsoleRom, Pacer, RealClock, Thinking, run_console};

use crate::engine_common::{PortCpuArg, port_machine, present_port, timing_model};

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Which 8-bit build plays (the console front end runs inside the emulated CPU).
    #[arg(long, value_enum, default_value = "z80")]
    pub cpu: PortCpuArg,
    /// Clock profile (see `kempelen machines`) for the time report and --realtime. Default:
    /// zx-spectrum for the Z80, kim-1 for the 6502.
    #[arg(long = "machine", value_name = "ID")]
    pub machine: Option<String>,
    /// Run at the machine's real speed: the engine thinks as long as it would have then.
    #[arg(long)]
    pub realtime: bool,
    /// The machine's time (its timing model) or the CPU clock's, for the report and
    /// --realtime.
    #[arg(long, value_name = "MODEL", default_value = "machine", value_parser = crate::engine_common::parse_timing, help = crate::engine_common::TIMING_HELP)]
    pub timing: Timing,
    /// Cycle budget of the whole session (the program's own cycles; waiting for a line costs
    /// none).
    #[arg(long, value_name = "N", default_value_t = 1_000_000_000_000)]
    pub max_cycles: u64,
    /// Write the assembled ROM to FILE (and its symbols to FILE.sym) instead of playing.
    #[arg(long, value_name = "FILE")]
    pub write_rom: Option<PathBuf>,
}

/// Shows [`Thinking`] after the cursor (` [12 s, 3,456 nodes]`) and takes it back with
/// backspaces, so the program's own output continues where it stopped.
fn thinking_on_the_terminal() -> impl FnMut(Option<Thinking>) + 'static {
    let mut shown = 0usize;
    move |t: Option<Thinking>| {
        let mut out = std::io::stdout().lock();
        let erase = format!("{0}{1}{0}", "\x08".repeat(shown), " ".repeat(shown));
        let text = match t {
            Some(t) => match t.nodes {
                Some(n) => format!(" [{} s, {} nodes]", t.time.as_secs(), grouped(u64::from(n))),
                None => format!(" [{} s]", t.time.as_secs()),
            },
            None => String::new(),
        };
        let _ = out.write_all(erase.as_bytes());
        let _ = out.write_all(text.as_bytes());
        let _ = out.flush();
        shown = text.chars().count();
    }
}

/// `--write-rom FILE`: the console program's image and its symbols (FILE.sym), both written
/// whole or neither.
fn write_rom(rom: &ConsoleRom, path: &std::path::Path) -> Result<()> {
    let mut sym = path.to_path_buf().into_os_string();
    sym.push(".sym");
    let sym = PathBuf::from(sym);
    // Both files or neither, each written whole.
    crate::output::check_outputs(
        &[],
        &[("--write-rom", path), ("its symbols", sym.as_path())],
    )?;
    let mut outputs = crate::output::Outputs::new();
    outputs.stage(path, &rom.image)?;
    outputs.stage(&sym, rom.symbols.to_string().as_bytes())?;
    outputs.commit()?;
    let sym = sym.into_os_string();
    eprintln!(
        "{}: {} bytes (engine {} + front end {}), symbols in {}",
        path.display(),
        rom.image.len(),
        rom.engine_bytes(),
        rom.front_end_bytes(),
        sym.to_string_lossy()
    );
    Ok(())
}

pub fn run(args: &PlayArgs) -> Result<()> {
    let Some(port) = present_port(args.cpu.into())? else {
        bail!("`play` runs an 8-bit build's console front end (--cpu z80 or --cpu 6502)");
    };
    let rom = ConsoleRom::assemble(port)?;
    if let Some(path) = &args.write_rom {
        return write_rom(&rom, path);
    }
    let profile = port_machine(port, args.machine.as_deref())?;
    let timing = timing_model(profile, &args.timing)?;
    let mut m = rom.machine_timed(timing)?;
    m.set_clock(profile);
    // The program runs until it waits for a line; the line is read from standard input
    // outside the emulation, so with --realtime the time a person takes to type is not taken
    // from the engine's thinking time (the pacer resumes after each wait). When standard
    // input ends, the player "types" Ctrl-D (EOT), which quits like q.
    let stdin = std::io::stdin();
    let mut input = || {
        let mut line = Vec::new();
        match std::io::BufRead::read_until(&mut stdin.lock(), b'\n', &mut line) {
            Ok(n) if n > 0 => Some(line),
            _ => None,
        }
    };
    let stdout = std::io::stdout();
    let mut output = |bytes: &[u8]| {
        let mut out = stdout.lock();
        let _ = out.write_all(bytes);
        let _ = out.flush();
    };
    // The front end's banner names the CPU; the machine whose clock it runs at is the host's
    // to say.
    eprintln!(
        "the {} build at the clock of the {} ({} MHz){}",
        port.name,
        profile.machine,
        profile.mhz,
        if args.realtime {
            ", in real time: it thinks as long as that machine would"
        } else {
            ""
        }
    );
    // In real time an iteration takes minutes: while the engine is silent, the time it has
    // thought and its nodes are shown after its last words on the terminal, and taken back
    // before it prints again.
    let nodes_at = rom.symbols.get("R_NODES");
    let mut pacer = args.realtime.then(|| {
        let pacer = Pacer::new(RealClock::default(), profile);
        if std::io::IsTerminal::is_terminal(&std::io::stdout()) {
            pacer.on_thinking(nodes_at, thinking_on_the_terminal())
        } else {
            pacer
        }
    });
    let result = run_console(
        &mut m,
        &mut input,
        &mut output,
        pacer.as_mut(),
        args.max_cycles,
    );
    let _ = std::io::stdout().flush();
    match result {
        Ok(cycles) => {
            let machine = match timing {
                Some(t) => format!(
                    "; {:.1} s on the machine (timing {})",
                    m.elapsed().as_secs_f64(),
                    t.full_id()
                ),
                None => String::new(),
            };
            eprintln!(
                "{} cycles: {}, {:.1} s at {} MHz ({}){machine}",
                port.name,
                grouped(cycles),
                profile.duration(cycles).as_secs_f64(),
                profile.mhz,
                profile.id
            );
            Ok(())
        }
        Err(e) => bail!("the {} program: {e}", port.name),
    }
}
