//! `kempelen run`: run an 8-bit program in Kempelen's machine with the console on the terminal,
//! and report exact cycles, the time at a historical machine's clock, RAM use, a cycle profile
//! and a trace.

use anyhow::{Context, Result, bail};
use clap::Args;
use kempelen_emulator::clock::{self, ClockProfile};
use kempelen_emulator::memory::parse_addr;
use kempelen_emulator::trace::TraceFilter;
use kempelen_emulator::{
    AddrRange, ConsoleHost, CoreKind, Cpu, Machine, MachineBuilder, MemoryMap, RunStats,
    SymbolTable, TraceEntry, Tracer, cpm,
};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::mpsc;

/// Default cycle budget: 10 billion cycles (48 minutes of a 3.5 MHz Z80).
const DEFAULT_BUDGET: u64 = 10_000_000_000;

#[derive(Args, Debug)]
pub struct RunArgs {
    /// The program: a raw binary image.
    #[arg(value_name = "ROM")]
    pub image: PathBuf,
    /// CPU: z80 or 6502.
    #[arg(long, value_parser = parse_cpu)]
    pub cpu: Cpu,
    /// Load address (hex: 4000, $4000, 0x4000). Default: $0000 (Z80), $C000 (6502).
    #[arg(long, value_parser = parse_address)]
    pub load: Option<u16>,
    /// Entry point. Default: the load address, or the 6502 reset vector when the image covers
    /// it.
    #[arg(long, value_parser = parse_address)]
    pub entry: Option<u16>,
    /// Initial stack pointer (6502: S in the low byte). Default: top of the stack region.
    #[arg(long, value_parser = parse_address)]
    pub sp: Option<u16>,
    /// Clock profile for the time report and --realtime (see `kempelen machines`). Default:
    /// zx-spectrum (Z80), kim-1 (6502).
    #[arg(long = "machine", value_name = "ID")]
    pub machine: Option<String>,
    /// Cycle budget: exceeding it stops the run with an error.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_BUDGET)]
    pub max_cycles: u64,
    /// Run at the clock profile's speed.
    #[arg(long)]
    pub realtime: bool,
    /// Trace the first N instructions (to standard error).
    #[arg(long, value_name = "N")]
    pub trace: Option<u64>,
    /// Trace only instructions in this address range (START-END, hex).
    #[arg(long, value_name = "RANGE", value_parser = parse_range)]
    pub trace_range: Option<AddrRange>,
    /// Profile cycles per routine with this symbol file (`NAME EQU $XXXX`).
    #[arg(long, value_name = "SYMFILE")]
    pub profile: Option<PathBuf>,
    /// Symbol file for traces and error reports (implied by --profile).
    #[arg(long, value_name = "SYMFILE")]
    pub symbols: Option<PathBuf>,
    /// Z80 core: z80 (fast, default) or rustzx (shows every register; default with --trace).
    #[arg(long, value_parser = ["z80", "rustzx"])]
    pub core: Option<String>,
    /// ROM region (repeatable). Giving --rom or --ram replaces the default memory map.
    #[arg(long = "rom", value_name = "RANGE", value_parser = parse_range)]
    pub rom_regions: Vec<AddrRange>,
    /// RAM region (repeatable).
    #[arg(long = "ram", value_name = "RANGE", value_parser = parse_range)]
    pub ram_regions: Vec<AddrRange>,
    /// Stack region: the stack pointer must stay inside it.
    #[arg(long, value_name = "RANGE", value_parser = parse_range, conflicts_with = "no_stack_check")]
    pub stack: Option<AddrRange>,
    /// No stack region check.
    #[arg(long)]
    pub no_stack_check: bool,
    /// 6502: base of the I/O page (default $BF00).
    #[arg(long, value_name = "ADDR", value_parser = parse_address)]
    pub io_page: Option<u16>,
    /// Run a CP/M .COM program (Z80): 64 KB RAM, loaded at $0100, BDOS functions 2 and 9.
    #[arg(long, conflicts_with_all = ["load", "entry", "rom_regions", "ram_regions"])]
    pub cpm: bool,
    /// 6502: run undocumented opcodes instead of stopping.
    #[arg(long)]
    pub allow_undocumented: bool,
    /// 6502: execute BRK through the IRQ vector instead of stopping.
    #[arg(long)]
    pub run_brk: bool,
    /// Console input given on the command line (`\n` for a newline) instead of the terminal.
    #[arg(long, value_name = "TEXT")]
    pub input: Option<String>,
    /// Print the RAM profile after the run.
    #[arg(long)]
    pub ram_profile: bool,
    /// Print the results as JSON on standard output (the console output is captured into it;
    /// input comes from --input only).
    #[arg(long)]
    pub json: bool,
}

fn parse_cpu(s: &str) -> Result<Cpu, String> {
    s.parse::<Cpu>().map_err(|e| e.to_string())
}

fn parse_address(s: &str) -> Result<u16, String> {
    parse_addr(s).ok_or_else(|| format!("`{s}` is not a 16-bit address (hex: C000, $C000, 0xC000)"))
}

fn parse_range(s: &str) -> Result<AddrRange, String> {
    s.parse::<AddrRange>().map_err(|e| e.to_string())
}

/// The console on the terminal: typed lines arrive through a reader thread, output goes to
/// standard output (flushed at each newline and whenever the program looks for input).
pub(crate) struct Terminal {
    input: mpsc::Receiver<u8>,
    closed: bool,
    idle_polls: u32,
    out: std::io::Stdout,
    /// Typed for the user once standard input has ended (`kempelen play` quits the game).
    after_eof: std::collections::VecDeque<u8>,
}

impl Terminal {
    pub(crate) fn new() -> Self {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut stdin = std::io::stdin().lock();
            let mut buf = [0u8; 256];
            while let Ok(n) = stdin.read(&mut buf) {
                if n == 0 || buf[..n].iter().any(|&b| tx.send(b).is_err()) {
                    break;
                }
            }
        });
        Terminal {
            input: rx,
            closed: false,
            idle_polls: 0,
            out: std::io::stdout(),
            after_eof: Default::default(),
        }
    }
}

impl ConsoleHost for Terminal {
    fn poll(&mut self) -> Option<u8> {
        let _ = self.out.flush();
        match self.input.try_recv() {
            Ok(b) => {
                self.idle_polls = 0;
                Some(b)
            }
            Err(mpsc::TryRecvError::Disconnected) => {
                self.closed = true;
                self.after_eof.pop_front()
            }
            Err(mpsc::TryRecvError::Empty) => {
                // A program waiting for a key polls in a tight loop: past a few thousand empty
                // polls, give the host CPU back while a person types.
                self.idle_polls = self.idle_polls.saturating_add(1);
                if !self.closed && self.idle_polls > 4096 {
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
                None
            }
        }
    }

    fn put(&mut self, byte: u8) {
        let _ = self.out.write_all(&[byte]);
        if byte == b'\n' {
            let _ = self.out.flush();
        }
    }
}

fn read_symbols(path: &PathBuf) -> Result<SymbolTable> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read symbol file {}", path.display()))?;
    SymbolTable::parse(&text).with_context(|| format!("in {}", path.display()))
}

fn builder(args: &RunArgs, image: &[u8]) -> Result<MachineBuilder> {
    if args.cpm {
        if args.cpu != Cpu::Z80 {
            bail!("--cpm runs CP/M programs, which need --cpu z80");
        }
        let mut b = cpm::builder(image);
        if let Some(stack) = args.stack {
            b = b.memory_map(MemoryMap::all_ram().with_stack(stack));
        }
        return Ok(b);
    }
    let mut map = if args.rom_regions.is_empty() && args.ram_regions.is_empty() {
        MemoryMap::default_for(args.cpu)
    } else {
        let mut map = MemoryMap::empty();
        map.io_page = MemoryMap::default_for(args.cpu).io_page;
        for r in &args.rom_regions {
            map = map.rom("rom", *r);
        }
        for r in &args.ram_regions {
            map = map.ram("ram", *r);
        }
        map.stack = None;
        map
    };
    if let Some(io) = args.io_page {
        map.io_page = Some(io);
    }
    if let Some(stack) = args.stack {
        map.stack = Some(stack);
    }
    if args.no_stack_check {
        map.stack = None;
    }
    let load = args.load.unwrap_or(match args.cpu {
        Cpu::Z80 => 0x0000,
        Cpu::Mos6502 => 0xC000,
    });
    let mut b = Machine::builder(args.cpu)
        .memory_map(map)
        .load(load, image)
        .allow_undocumented(args.allow_undocumented)
        .stop_on_brk(!args.run_brk);
    if let Some(entry) = args.entry {
        b = b.entry(entry);
    }
    if let Some(sp) = args.sp {
        b = b.stack_pointer(sp);
    }
    Ok(b)
}

fn clock_profile(args: &RunArgs) -> Result<&'static ClockProfile> {
    match &args.machine {
        None => Ok(clock::default_machine(args.cpu)),
        Some(id) => {
            let m = clock::machine(id).with_context(|| {
                let ids: Vec<&str> = clock::MACHINES.iter().map(|m| m.id).collect();
                format!("unknown machine `{id}` (known: {})", ids.join(", "))
            })?;
            if m.cpu != args.cpu {
                eprintln!(
                    "note: {} has a {} CPU; its clock is used for a {} program",
                    m.id, m.chip, args.cpu
                );
            }
            Ok(m)
        }
    }
}

pub fn run(args: &RunArgs) -> Result<()> {
    let image = std::fs::read(&args.image)
        .with_context(|| format!("cannot read {}", args.image.display()))?;
    if image.is_empty() {
        bail!("{} is empty", args.image.display());
    }
    let profile_clock = clock_profile(args)?;
    let tracing = args.trace.is_some() || args.trace_range.is_some();
    let core = match (args.cpu, args.core.as_deref()) {
        (Cpu::Mos6502, Some(c)) => bail!("--core {c} is a Z80 core; the 6502 has one core"),
        (Cpu::Mos6502, None) => CoreKind::Mos6502,
        (Cpu::Z80, Some("rustzx")) => CoreKind::RustzxZ80,
        (Cpu::Z80, Some(_)) => CoreKind::Z80,
        (Cpu::Z80, None) if tracing => CoreKind::RustzxZ80,
        (Cpu::Z80, None) => CoreKind::Z80,
    };
    let symbols = match (&args.profile, &args.symbols) {
        (Some(p), _) | (None, Some(p)) => Some(read_symbols(p)?),
        (None, None) => None,
    };
    let mut b = builder(args, &image)?.core(core).clock(profile_clock);
    if let Some(s) = symbols {
        b = b.symbols(s);
    }
    let mut m = b
        .build()
        .with_context(|| format!("cannot set up the machine for {}", args.image.display()))?;
    if let Some(text) = &args.input {
        m.console_mut()
            .push_input(text.replace("\\n", "\n").as_bytes());
    }
    if args.json || args.input.is_some() {
        // Scripted input that has run out never grows: stop instead of spinning to the budget.
        m.console_mut().set_stop_on_empty_input(true);
    }
    if !args.json && args.input.is_none() {
        m.console_mut().attach(Box::new(Terminal::new()));
    }
    if args.profile.is_some() {
        m.enable_profiler();
    }
    if tracing {
        let filter = TraceFilter {
            max_entries: args.trace,
            range: args.trace_range,
        };
        m.set_tracer(Tracer::new(filter, |e: &TraceEntry| eprintln!("{e}")));
    }
    m.set_realtime(args.realtime);
    let result = m.run(args.max_cycles);
    let _ = std::io::stdout().flush();
    if args.json {
        return print_json(&mut m, &result, profile_clock);
    }
    if !m.console_mut().output().is_empty() {
        let out = m.console_mut().take_output();
        std::io::stdout().write_all(&out)?;
        if !out.ends_with(b"\n") {
            println!();
        }
    }
    match &result {
        Ok(stats) => report(&m, stats, profile_clock, args),
        Err(e) => {
            if let Some(p) = m.profile() {
                eprintln!("{p}");
            }
            bail!("{}: {e}", args.image.display());
        }
    }
    Ok(())
}

pub(crate) use kempelen_emulator::grouped;

fn report(m: &Machine, stats: &RunStats, clock: &ClockProfile, args: &RunArgs) {
    eprintln!("stopped: {}", stats.stop);
    eprintln!(
        "cycles: {}   instructions: {}",
        grouped(stats.cycles),
        grouped(stats.instructions)
    );
    eprintln!(
        "time at {} MHz ({}): {:.6} s",
        clock.mhz,
        clock.id,
        stats.time_at(clock).as_secs_f64()
    );
    eprintln!(
        "emulator: {} core, {:.1} emulated MHz ({:.3} s wall)",
        m.core_kind().name(),
        stats.emulated_mhz(),
        stats.wall_time.as_secs_f64()
    );
    if stats.unmapped_reads > 0 {
        eprintln!("unmapped reads: {} (each gave $FF)", stats.unmapped_reads);
    }
    if args.ram_profile {
        eprintln!("{}", m.ram_profile());
    }
    if let Some(p) = m.profile() {
        eprintln!("{p}");
    }
}

fn print_json(
    m: &mut Machine,
    result: &Result<RunStats, kempelen_emulator::RunError>,
    clock: &ClockProfile,
) -> Result<()> {
    let console = String::from_utf8_lossy(&m.console_mut().take_output()).into_owned();
    let value = match result {
        Ok(stats) => serde_json::json!({
            "ok": true,
            "stop": stats.stop,
            "cycles": stats.cycles,
            "instructions": stats.instructions,
            "unmapped_reads": stats.unmapped_reads,
            "machine": clock.id,
            "mhz": clock.mhz,
            "seconds_at_clock": stats.time_at(clock).as_secs_f64(),
            "ram": m.ram_profile(),
            "profile": m.profile(),
            "console": console,
        }),
        Err(e) => serde_json::json!({
            "ok": false,
            "error": e.fault.to_string(),
            "fault": e.fault,
            "cycles": e.cycles,
            "instructions": e.instructions,
            "trace": e.trace,
            "console": console,
        }),
    };
    println!("{}", serde_json::to_string_pretty(&value)?);
    if let Err(e) = result {
        bail!("{}", e.fault);
    }
    Ok(())
}
