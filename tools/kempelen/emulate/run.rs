//! `kempelen run`: run an 8-bit program in Kempelen's machine with the console on the terminal,
//! and report exact cycles, the time at a historical machine's clock, RAM use, a cycle profile
//! and a trace.

use anyhow::{Context, Result, bail};
use clap::Args;
use kempelen_asm::isa::SourceMap;
use kempelen_asm::source::FsSource;
use kempelen_emulator::Timing;
use kempelen_emulator::clock::ClockProfile;
use kempelen_emulator::resolve;
use kempelen_emulator::runner::{
    self, ImageSpec, Poke, RunOptions, RunReport, RunSetup, Script, hex_dump,
};
use kempelen_emulator::trace::TraceFilter;
use kempelen_emulator::{
    AddrRange, ConsoleHost, Cpu, LineProfile, Machine, RunStats, SymbolTable, TraceEntry, Tracer,
};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::mpsc;

/// Default cycle budget: 10 billion cycles (48 minutes of a 3.5 MHz Z80).
const DEFAULT_BUDGET: u64 = 10_000_000_000;

#[derive(Args, Debug)]
pub struct RunArgs {
    /// The program: a raw binary, Intel HEX, a hex dump (`ADDR b b b ...` per line), a KIM-1
    /// paper tape, or a machine's program file: ZX Spectrum .tap, Commodore .prg, Atari .xex,
    /// MSX cartridge .rom, TRS-80 /CMD (the format is detected; these name their entry). More
    /// with --image.
    #[arg(value_name = "ROM")]
    pub image: Option<PathBuf>,
    /// Another image, FILE or FILE@ADDR (repeatable): a raw binary loads at ADDR (default
    /// --load); the text formats carry their addresses.
    #[arg(long = "image", value_name = "FILE[@ADDR]")]
    pub images: Vec<String>,
    /// Images that share addresses: `error` (default, naming both files, as the assembler
    /// refuses overlapping ORG areas) or `later-wins` (the later image's bytes win).
    #[arg(long, value_name = "RULE", default_value = "error", value_parser = super::asm::parse_overlap)]
    pub overlap: kempelen_asm::Overlap,
    /// CPU: z80, 6502 or 65c02 (default: the --machine personality's).
    #[arg(long, value_parser = parse_cpu)]
    pub cpu: Option<Cpu>,
    /// Load address of a raw image (hex: 4000, $4000, 0x4000). Default: the personality's,
    /// else $0000 (Z80), $C000 (6502).
    #[arg(long, value_parser = parse_address)]
    pub load: Option<u16>,
    /// Entry point. Default: the first image's address, or the 6502 reset vector when an
    /// image covers it.
    #[arg(long, value_parser = parse_address)]
    pub entry: Option<u16>,
    /// Initial stack pointer (6502: S in the low byte). Default: top of the stack region.
    #[arg(long, value_parser = parse_address)]
    pub sp: Option<u16>,
    /// The machine: a personality (the historical kim-1, cpm, jupiter-3; the machines Kempelen's
    /// builds are made for, zx-spectrum, msx, trs-80, c64, apple-2, atari-800; or a FILE.toml of
    /// one's own: memory map, ROM or monitor routines served by the host, clock), or a clock
    /// profile only (see `kempelen machines --personalities`). Default clock: zx-spectrum
    /// (Z80), kim-1 (6502).
    #[arg(long = "machine", value_name = "ID|FILE.toml")]
    pub machine: Option<String>,
    /// Cycle budget: exceeding it stops the run with an error.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_BUDGET)]
    pub max_cycles: u64,
    /// Run at the machine's speed (its time under --timing).
    #[arg(long)]
    pub realtime: bool,
    /// The machine's time (its timing model: display DMA, contention, wait states, the ROM's
    /// interrupt; docs/TIMING.md) or the CPU clock's (`cpu`), or a model the machine names.
    #[arg(long, value_name = "MODEL", default_value = "machine", value_parser = crate::engine_common::parse_timing)]
    pub timing: Timing,
    /// Trace the first N instructions (to standard error).
    #[arg(long, value_name = "N")]
    pub trace: Option<u64>,
    /// Trace only instructions in this address range (START-END, hex).
    #[arg(long, value_name = "RANGE", value_parser = parse_range)]
    pub trace_range: Option<AddrRange>,
    /// Print the cycles per routine (the routines of --symbols).
    #[arg(long)]
    pub cycle_profile: bool,
    /// Old spelling of `--symbols FILE --cycle-profile`.
    #[arg(long, value_name = "SYMFILE", hide = true, conflicts_with = "symbols")]
    pub profile: Option<PathBuf>,
    /// Symbol file (`NAME EQU $XXXX`) for traces, error reports and --cycle-profile.
    #[arg(long, value_name = "SYMFILE")]
    pub symbols: Option<PathBuf>,
    /// The program's assembly source: assembled for the run's CPU, it must give the bytes
    /// loaded; its lines are those of --hot-lines, and its labels the routines (unless
    /// --symbols names others).
    #[arg(long, value_name = "FILE.asm")]
    pub source: Option<PathBuf>,
    /// Print the N lines with the most cycles: file:line, cycles, share, executions, cycles
    /// per execution, routine and the line (with --source; else each instruction,
    /// disassembled, by its address). --json: `hot_lines`.
    #[arg(long, value_name = "N")]
    pub hot_lines: Option<usize>,
    /// Z80 core: z80 (fast, default) or rustzx (shows every register; default with --trace
    /// and with a personality's host traps).
    #[arg(long, value_parser = ["z80", "rustzx"])]
    pub core: Option<String>,
    /// ROM region (repeatable). Giving --rom or --ram replaces the memory map.
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
    /// Run a CP/M .COM program: the same as --machine cpm.
    #[arg(long, conflicts_with_all = ["machine", "rom_regions", "ram_regions"])]
    pub cpm: bool,
    /// 6502: run undocumented opcodes instead of stopping.
    #[arg(long)]
    pub allow_undocumented: bool,
    /// 6502: execute BRK through the IRQ vector instead of stopping.
    #[arg(long)]
    pub run_brk: bool,
    /// Write bytes before the run: ADDR=BYTES, hex (`0C=6A`, `0200=A9 41`, `0200=A941`);
    /// repeatable.
    #[arg(long, value_name = "ADDR=BYTES")]
    pub poke: Vec<String>,
    /// Print memory after the run as a hex dump (START-END, hex; repeatable).
    #[arg(long, value_name = "RANGE", value_parser = parse_range)]
    pub dump: Vec<AddrRange>,
    /// Console input instead of the terminal, with escapes `\n`, `\r`, `\t`, `\\` and `\xNN`.
    /// The first line is queued at the start; each further line when the program waits for
    /// input (the JSON output gives the cycle count of each line queued and of each
    /// character read).
    #[arg(long, value_name = "TEXT")]
    pub input: Option<String>,
    /// Print the RAM profile after the run.
    #[arg(long)]
    pub ram_profile: bool,
    /// Print the results as JSON on standard output (the console output is captured into it,
    /// bytes above $7F and backslashes escaped as `\xNN` and `\\`; input comes from --input
    /// only).
    #[arg(long)]
    pub json: bool,
}

fn parse_cpu(s: &str) -> Result<Cpu, String> {
    s.parse::<Cpu>().map_err(|e| e.to_string())
}

fn parse_address(s: &str) -> Result<u16, String> {
    resolve::address(s).map_err(|e| e.to_string())
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

    fn is_closed(&self) -> bool {
        self.closed && self.after_eof.is_empty()
    }

    fn put(&mut self, byte: u8) {
        let _ = self.out.write_all(&[byte]);
        if byte == b'\n' {
            let _ = self.out.flush();
        }
    }
}

fn read_symbols(path: &std::path::Path) -> Result<SymbolTable> {
    let text = super::asm::read_symbols(path)?;
    SymbolTable::parse(&text).with_context(|| format!("in {}", path.display()))
}

/// `--image FILE[@ADDR]` and the ROM argument (first).
fn images(args: &RunArgs) -> Result<Vec<ImageSpec>> {
    let mut images = Vec::new();
    if let Some(p) = &args.image {
        images.push(ImageSpec {
            path: p.clone(),
            addr: None,
        });
    }
    for spec in &args.images {
        let (path, addr) = match spec.rsplit_once('@') {
            Some((file, addr)) => {
                let a = parse_address(addr).map_err(|e| anyhow::anyhow!("--image {spec}: {e}"))?;
                (file, Some(a))
            }
            None => (spec.as_str(), None),
        };
        images.push(ImageSpec {
            path: PathBuf::from(path),
            addr,
        });
    }
    Ok(images)
}

/// The run's options from the flags (the images come later, [`images`]).
fn options(args: &RunArgs) -> RunOptions {
    let machine = if args.cpm {
        Some("cpm".to_string())
    } else {
        args.machine.clone()
    };
    RunOptions {
        images: Vec::new(),
        overlap: args.overlap,
        cpu: args.cpu,
        machine,
        load: args.load,
        entry: args.entry,
        sp: args.sp,
        rom_regions: args.rom_regions.clone(),
        ram_regions: args.ram_regions.clone(),
        stack: args.stack,
        no_stack_check: args.no_stack_check,
        io_page: args.io_page,
        allow_undocumented: args.allow_undocumented,
        run_brk: args.run_brk,
        timing: args.timing.clone(),
        core: args.core.clone(),
        tracing: args.trace.is_some() || args.trace_range.is_some(),
    }
}

/// The name of the program in messages: the first image.
fn program_name(args: &RunArgs) -> String {
    match (&args.image, args.images.first()) {
        (Some(p), _) => p.display().to_string(),
        (None, Some(s)) => s.clone(),
        (None, None) => "the program".into(),
    }
}

/// `--source FILE`: the program assembled for `cpu` (refused with the assembler's report).
fn assembled_source(args: &RunArgs, cpu: Cpu) -> Result<Option<kempelen_asm::Assembly>> {
    let Some(path) = &args.source else {
        return Ok(None);
    };
    let main = path.to_string_lossy().into_owned();
    let out = kempelen_asm::assemble(&main, &FsSource, &kempelen_asm::Options::new(cpu));
    if !out.is_ok() {
        bail!("--source {main}: it does not assemble\n{}", out.report());
    }
    Ok(Some(out))
}

/// Whether the machine holds the bytes `out` assembled (else the first address that
/// differs: the source is not the program's).
fn check_source(m: &Machine, out: &kempelen_asm::Assembly, path: &std::path::Path) -> Result<()> {
    let origin = out.image.origin;
    let loaded = m.read_bytes(origin, out.image.bytes.len());
    if let Some(k) = loaded
        .iter()
        .zip(&out.image.bytes)
        .position(|(a, b)| a != b)
    {
        let at = usize::from(origin) + k;
        bail!(
            "--source {}: it assembles to ${:02X} at ${at:04X}, where the program loaded has ${:02X}: not the program's source",
            path.display(),
            out.image.bytes[k],
            loaded[k]
        );
    }
    Ok(())
}

/// The machine of the run, its clock, the pokes written, and the program's source lines
/// (--source).
fn machine(args: &RunArgs) -> Result<(Machine, &'static ClockProfile, Option<SourceMap>)> {
    let name = program_name(args);
    let mut options = options(args);
    let setup = RunSetup::new(&options)?;
    if let Some(note) = &setup.note {
        eprintln!("note: {note}");
    }
    options.images = images(args)?;
    let assembled = assembled_source(args, setup.cpu)?;
    let mut b = setup.builder(&options)?;
    let symbols = match (&args.profile, &args.symbols) {
        (Some(p), _) | (None, Some(p)) => Some(read_symbols(p)?),
        (None, None) => assembled.as_ref().map(|a| a.symbols.clone()),
    };
    if let Some(s) = symbols {
        b = b.symbols(s);
    }
    let mut m = b
        .build()
        .with_context(|| format!("cannot set up the machine for {name}"))?;
    if let (Some(out), Some(path)) = (&assembled, &args.source) {
        check_source(&m, out, path)?;
    }
    let pokes = args
        .poke
        .iter()
        .map(|p| Poke::parse(p))
        .collect::<Result<Vec<_>, _>>()?;
    for (p, poke) in args.poke.iter().zip(pokes) {
        m.write_bytes(poke.addr, &poke.bytes)
            .with_context(|| format!("--poke {p}"))?;
    }
    Ok((m, setup.clock, assembled.map(|a| a.listing.source_map())))
}

/// Cycles per line of the run (--hot-lines): by the source's lines, else by instruction.
fn line_profile(m: &Machine, sources: Option<&SourceMap>) -> Option<LineProfile> {
    let report = m.profile()?;
    Some(LineProfile::new(&report, sources, |a| {
        let window = m.read_bytes(a, 4);
        kempelen_asm::isa::decode_with(m.cpu(), &window, a, m.symbols())
            .map_or_else(|_| format!("${a:04X}"), |d| d.text())
    }))
}

pub fn run(args: &RunArgs) -> Result<()> {
    let name = program_name(args);
    if args.hot_lines == Some(0) {
        bail!("--hot-lines must be at least 1");
    }
    let (mut m, clock, sources) = machine(args)?;
    let input = args.input.as_deref().map(runner::unescape).transpose()?;
    let mut script = Script::new(input.as_deref());
    // Scripted input that has run out never grows: stop instead of spinning to the budget.
    script.start(&mut m, args.json || args.input.is_some(), args.json);
    if !args.json && args.input.is_none() {
        m.console_mut().attach(Box::new(Terminal::new()));
    }
    if args.profile.is_some() || args.cycle_profile || args.hot_lines.is_some() {
        m.enable_profiler();
    }
    if args.trace.is_some() || args.trace_range.is_some() {
        let filter = TraceFilter {
            max_entries: args.trace,
            range: args.trace_range,
        };
        m.set_tracer(Tracer::new(filter, |e: &TraceEntry| eprintln!("{e}")));
    }
    m.set_realtime(args.realtime);
    let result = script.run(&mut m, args.max_cycles, clock);
    let _ = std::io::stdout().flush();
    if args.json {
        let report = RunReport::new(&mut m, &result, clock, &script.queued, &args.dump);
        // Through a JSON value, so the keys come out sorted, as in every --json output.
        let mut value = serde_json::to_value(&report)?;
        if let (Some(n), Some(lines)) = (args.hot_lines, line_profile(&m, sources.as_ref())) {
            value["hot_lines"] = serde_json::json!({
                "total_cycles": lines.total_cycles,
                "lines": lines.top(n).iter().map(|l| serde_json::json!({
                    "place": l.place(), "file": l.file, "line": l.line, "text": l.text,
                    "routine": l.routine, "address": l.address, "cycles": l.cycles,
                    "share": l.share, "executions": l.executions,
                })).collect::<Vec<_>>(),
            });
        }
        println!("{}", serde_json::to_string_pretty(&value)?);
        if let Err(e) = result {
            bail!("{}", e.fault);
        }
        return Ok(());
    }
    if !m.console_mut().output().is_empty() {
        let out = m.console_mut().take_output();
        std::io::stdout().write_all(&out)?;
        if !out.ends_with(b"\n") {
            println!();
        }
    }
    for range in &args.dump {
        print!("{}", hex_dump(&m, *range));
    }
    match &result {
        Ok(stats) => report(&m, stats, clock, args),
        Err(e) => {
            if args.cycle_profile || args.profile.is_some() {
                if let Some(p) = m.profile() {
                    eprintln!("{p}");
                }
            }
            print_hot_lines(&m, sources.as_ref(), args);
            bail!("{name}: {e}");
        }
    }
    print_hot_lines(&m, sources.as_ref(), args);
    Ok(())
}

/// --hot-lines N: the table of the N lines with the most cycles.
fn print_hot_lines(m: &Machine, sources: Option<&SourceMap>, args: &RunArgs) {
    if let (Some(n), Some(lines)) = (args.hot_lines, line_profile(m, sources)) {
        eprintln!("cycles per line, the {n} with the most:");
        eprint!("{}", lines.table(n));
    }
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
    if let Some(t) = &stats.machine_time {
        eprintln!(
            "time on the machine (timing {}): {:.6} s ({} interrupts, {} ticks of display DMA, {} of waits)",
            t.model.full_id(),
            t.seconds(),
            grouped(t.stats.interrupts),
            grouped(t.stats.dma_ticks),
            grouped(t.stats.wait_ticks)
        );
    }
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
    if args.cycle_profile || args.profile.is_some() {
        if let Some(p) = m.profile() {
            eprintln!("{p}");
        }
    }
}
