//! `kempelen run`: run an 8-bit program in Kempelen's machine with the console on the terminal,
//! and report exact cycles, the time at a historical machine's clock, RAM use, a cycle profile
//! and a trace.

use anyhow::{Context, Result, bail};
use clap::Args;
use kempelen_emulator::Timing;
use kempelen_emulator::clock::{self, ClockProfile};
use kempelen_emulator::resolve::{self, MachineChoice};
use kempelen_emulator::trace::TraceFilter;
use kempelen_emulator::{
    AddrRange, ConsoleHost, CoreKind, Cpu, Machine, MachineBuilder, MemoryMap, RunStats,
    StopReason, SymbolTable, TraceEntry, Tracer,
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

/// Turns `--input` escapes into bytes: `\n`, `\r`, `\t`, `\\`, `\xNN`.
pub(crate) fn unescape(text: &str) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        match b.get(i + 1) {
            Some(b'n') => out.push(b'\n'),
            Some(b'r') => out.push(b'\r'),
            Some(b't') => out.push(b'\t'),
            Some(b'\\') => out.push(b'\\'),
            Some(b'x') => {
                let hex = text.get(i + 2..i + 4).unwrap_or("");
                let v = u8::from_str_radix(hex, 16).ok().filter(|_| hex.len() == 2);
                match v {
                    Some(v) => out.push(v),
                    None => bail!("--input: `\\x` at column {} needs two hex digits", i + 1),
                }
                i += 4;
                continue;
            }
            _ => bail!(
                "--input: unknown escape at column {} (known: \\n \\r \\t \\\\ \\xNN)",
                i + 1
            ),
        }
        i += 2;
    }
    Ok(out)
}

/// Splits input into lines, each with its end (`\n`, `\r\n` or `\r`).
pub(crate) fn input_lines(bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut lines = Vec::new();
    let mut cur = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        cur.push(c);
        let ends = c == b'\n' || (c == b'\r' && bytes.get(i + 1) != Some(&b'\n'));
        if ends {
            lines.push(std::mem::take(&mut cur));
        }
        i += 1;
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines
}

/// Parses `ADDR=BYTES` of `--poke`.
fn parse_poke(s: &str) -> Result<(u16, Vec<u8>)> {
    let (a, bytes) = s
        .split_once('=')
        .with_context(|| format!("--poke `{s}`: write ADDR=BYTES (hex), e.g. 000C=6A"))?;
    let addr = parse_address(a.trim()).map_err(|e| anyhow::anyhow!("--poke `{s}`: {e}"))?;
    let digits: Vec<u8> = bytes
        .chars()
        .filter(|c| !c.is_whitespace() && *c != ',')
        .map(|c| c.to_digit(16).map(|d| d as u8))
        .collect::<Option<_>>()
        .with_context(|| format!("--poke `{s}`: `{bytes}` is not hex bytes"))?;
    if digits.is_empty() || digits.len() % 2 != 0 {
        bail!("--poke `{s}`: the bytes must be pairs of hex digits");
    }
    let v: Vec<u8> = digits.chunks(2).map(|p| p[0] << 4 | p[1]).collect();
    if usize::from(addr) + v.len() > 0x10000 {
        bail!(
            "--poke `{s}`: {} bytes at ${addr:04X} run past $FFFF (nothing wraps to $0000)",
            v.len()
        );
    }
    Ok((addr, v))
}

/// The machine builder for the run: the personality's or the CPU's default map with the
/// command line's changes, and every image.
fn builder(args: &RunArgs) -> Result<(MachineBuilder, &'static ClockProfile, Cpu)> {
    let machine = if args.cpm {
        Some("cpm")
    } else {
        args.machine.as_deref()
    };
    let choice = machine.map(resolve::machine).transpose()?;
    let (personality, clock_choice) = match choice {
        Some(MachineChoice::Personality(p)) => (Some(p), None),
        Some(MachineChoice::Clock(c)) => (None, Some(c)),
        None => (None, None),
    };
    let cpu = match (&personality, args.cpu) {
        (Some(p), Some(c)) if p.cpu != c => bail!(
            "--machine {}: the personality has a {} CPU, not {c}",
            p.id,
            p.cpu
        ),
        (Some(p), _) => p.cpu,
        (None, Some(c)) => c,
        (None, None) => {
            bail!("--cpu is required (z80 or 6502) unless --machine names a personality")
        }
    };
    let clock = match (&personality, clock_choice) {
        (Some(p), _) => p.clock,
        (None, Some(c)) => {
            if c.cpu != cpu {
                eprintln!(
                    "note: {} has a {} CPU; its clock is used for a {} program",
                    c.id, c.chip, cpu
                );
            }
            c
        }
        (None, None) => clock::default_machine(cpu),
    };
    let base_map = match &personality {
        Some(p) => p.map.clone(),
        None => MemoryMap::default_for(cpu),
    };
    let mut map = if args.rom_regions.is_empty() && args.ram_regions.is_empty() {
        base_map
    } else {
        let mut map = MemoryMap::empty();
        map.io_page = base_map.io_page;
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
    let default_addr = args
        .load
        .or(personality.as_ref().and_then(|p| p.load))
        .unwrap_or(match cpu {
            Cpu::Z80 => 0x0000,
            Cpu::Mos6502 | Cpu::Cmos65c02 => 0xC000,
        });
    let mut b = match &personality {
        Some(p) => p.builder(),
        None => MachineBuilder::new(cpu),
    };
    b = b
        .memory_map(map)
        .allow_undocumented(args.allow_undocumented)
        .stop_on_brk(!args.run_brk);
    let mut images: Vec<(PathBuf, Option<u16>)> = Vec::new();
    if let Some(p) = &args.image {
        images.push((p.clone(), None));
    }
    for spec in &args.images {
        match spec.rsplit_once('@') {
            Some((file, addr)) => {
                let a = parse_address(addr).map_err(|e| anyhow::anyhow!("--image {spec}: {e}"))?;
                images.push((PathBuf::from(file), Some(a)));
            }
            None => images.push((PathBuf::from(spec), None)),
        }
    }
    if images.is_empty() {
        bail!("no program: give a ROM file or --image FILE[@ADDR]");
    }
    // Chunks of one file never overlap (the loaders refuse it); chunks of different files
    // may only with --overlap later-wins. The first file that names its entry (a tape's USR,
    // a .prg's SYS, ...) gives it, unless --entry does.
    let mut loaded: Vec<(usize, &PathBuf, AddrRange)> = Vec::new();
    let mut named_entry = None;
    for (i, (path, addr)) in images.iter().enumerate() {
        let file = resolve::program(path, *addr, default_addr)?;
        named_entry = named_entry.or(file.entry);
        for chunk in file.chunks {
            let range = AddrRange::new(chunk.addr, chunk.addr + (chunk.bytes.len() - 1) as u16)
                .expect("a chunk holds bytes and ends below $10000");
            if args.overlap == kempelen_asm::Overlap::Error {
                if let Some((_, other, r)) = loaded
                    .iter()
                    .find(|(j, _, r)| *j != i && r.overlaps(&range))
                {
                    bail!(
                        "{}: its bytes at {range} overlap those of {} at {r}; give --overlap later-wins to let the later file win",
                        path.display(),
                        other.display()
                    );
                }
            }
            loaded.push((i, path, range));
            b = b.load(chunk.addr, &chunk.bytes);
        }
    }
    b = b.overlap(args.overlap);
    if let Some(entry) = args.entry.or(named_entry) {
        b = b.entry(entry);
    }
    if let Some(sp) = args.sp {
        b = b.stack_pointer(sp);
    }
    Ok((b, clock, cpu))
}

/// The name of the program in messages: the first image.
fn program_name(args: &RunArgs) -> String {
    match (&args.image, args.images.first()) {
        (Some(p), _) => p.display().to_string(),
        (None, Some(s)) => s.clone(),
        (None, None) => "the program".into(),
    }
}

/// A line of `--input` and when it was queued: at cycle 0 for the first, else the cycle count
/// when the program found the input empty and waited.
#[derive(serde::Serialize)]
struct QueuedLine {
    cycles: u64,
    time_ms_at_clock: f64,
    input: String,
}

/// A character the program took from the console: the cycle count at the end of the
/// instruction (or host trap) that took it, that time at the run's clock, the character.
#[derive(serde::Serialize)]
struct StampedRead {
    cycles: u64,
    time_ms_at_clock: f64,
    char: String,
}

/// The console's recorded reads, with their times at `clock`.
fn stamped_reads(m: &mut Machine, clock: &ClockProfile) -> Vec<StampedRead> {
    m.console_mut()
        .reads()
        .iter()
        .map(|r| StampedRead {
            cycles: r.cycles,
            time_ms_at_clock: crate::output::millis(clock.duration(r.cycles)),
            char: escape_bytes(&[r.byte]),
        })
        .collect()
}

pub fn run(args: &RunArgs) -> Result<()> {
    let name = program_name(args);
    let (b, profile_clock, cpu) = builder(args)?;
    // The machine's timing model, when its machine has the program's CPU (a clock borrowed
    // for another CPU's program is the clock alone).
    let same_cpu = profile_clock.cpu.is_6502_family() == cpu.is_6502_family();
    let model = match &args.timing {
        Timing::Named(_) if !same_cpu => bail!(
            "--timing {}: {} has a {} CPU, the program a {cpu}",
            args.timing,
            profile_clock.id,
            profile_clock.chip
        ),
        choice if same_cpu => crate::engine_common::timing_model(profile_clock, choice)?,
        _ => None,
    };
    let b = b.timing(model);
    let tracing = args.trace.is_some() || args.trace_range.is_some();
    let core = match (cpu, args.core.as_deref()) {
        (cpu @ (Cpu::Mos6502 | Cpu::Cmos65c02), Some(c)) => {
            bail!("--core {c} is a Z80 core; the {} has one core", cpu.title())
        }
        (Cpu::Mos6502, None) => CoreKind::Mos6502,
        (Cpu::Cmos65c02, None) => CoreKind::Cmos65c02,
        (Cpu::Z80, Some("rustzx")) => CoreKind::RustzxZ80,
        (Cpu::Z80, Some(_)) => CoreKind::Z80,
        (Cpu::Z80, None) if tracing => CoreKind::RustzxZ80,
        (Cpu::Z80, None) => CoreKind::Z80,
    };
    let symbols = match (&args.profile, &args.symbols) {
        (Some(p), _) | (None, Some(p)) => Some(read_symbols(p)?),
        (None, None) => None,
    };
    let mut b = b.core(core).clock(profile_clock);
    if let Some(s) = symbols {
        b = b.symbols(s);
    }
    let mut m = b
        .build()
        .with_context(|| format!("cannot set up the machine for {name}"))?;
    let pokes = args
        .poke
        .iter()
        .map(|p| parse_poke(p))
        .collect::<Result<Vec<_>>>()?;
    for (p, (addr, bytes)) in args.poke.iter().zip(pokes) {
        m.write_bytes(addr, &bytes)
            .with_context(|| format!("--poke {p}"))?;
    }
    let mut lines = match &args.input {
        Some(text) => input_lines(&unescape(text)?).into_iter(),
        None => Vec::new().into_iter(),
    };
    let mut queued = Vec::new();
    if let Some(first) = lines.next() {
        queued.push(QueuedLine {
            cycles: 0,
            time_ms_at_clock: 0.0,
            input: escape_bytes(&first),
        });
        m.console_mut().push_input(&first);
    }
    if args.json || args.input.is_some() {
        // Scripted input that has run out never grows: stop instead of spinning to the budget.
        m.console_mut().set_stop_on_empty_input(true);
    }
    if args.json {
        m.console_mut().set_record_reads(true);
    }
    if !args.json && args.input.is_none() {
        m.console_mut().attach(Box::new(Terminal::new()));
    }
    if args.profile.is_some() || args.cycle_profile {
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
    let mut result = m.run(args.max_cycles);
    // Feed the next line each time the program waits for input.
    while let Ok(stats) = &result {
        let StopReason::InputWait { .. } = stats.stop else {
            break;
        };
        let Some(line) = lines.next() else {
            break;
        };
        queued.push(QueuedLine {
            cycles: stats.cycles,
            time_ms_at_clock: crate::output::millis(stats.time_at(profile_clock)),
            input: escape_bytes(&line),
        });
        m.console_mut().push_input(&line);
        result = m.run_more(args.max_cycles);
    }
    let _ = std::io::stdout().flush();
    if args.json {
        return print_json(&mut m, &result, profile_clock, &queued, &args.dump);
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
        Ok(stats) => report(&m, stats, profile_clock, args),
        Err(e) => {
            if let Some(p) = m.profile() {
                eprintln!("{p}");
            }
            bail!("{name}: {e}");
        }
    }
    Ok(())
}

/// Memory as a hex dump, 16 bytes a line (`ADDR b b b ...`, the format `--image` reads).
fn hex_dump(m: &Machine, range: AddrRange) -> String {
    let mut out = String::new();
    let mut a = u32::from(range.start);
    while a <= u32::from(range.end) {
        let n = (u32::from(range.end) - a + 1).min(16);
        let bytes = m.read_bytes(a as u16, n as usize);
        let hex = kempelen_asm::isa::hex_bytes(&bytes);
        out.push_str(&format!("{a:04X} {hex}\n"));
        a += n;
    }
    out
}

/// Console bytes as text: bytes above $7F (and control bytes other than new line, carriage
/// return and tab) as `\xNN`, a backslash as `\\`, so every byte survives in JSON.
pub(crate) fn escape_bytes(bytes: &[u8]) -> String {
    let mut s = String::new();
    for &b in bytes {
        match b {
            b'\\' => s.push_str("\\\\"),
            b'\n' | b'\r' | b'\t' | 0x20..=0x7E => s.push(b as char),
            _ => s.push_str(&format!("\\x{b:02X}")),
        }
    }
    s
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
    if let Some(p) = m.profile() {
        eprintln!("{p}");
    }
}

fn print_json(
    m: &mut Machine,
    result: &Result<RunStats, kempelen_emulator::RunError>,
    clock: &ClockProfile,
    lines: &[QueuedLine],
    dumps: &[AddrRange],
) -> Result<()> {
    let console = escape_bytes(&m.console_mut().take_output());
    let reads = stamped_reads(m, clock);
    let dumps: Vec<serde_json::Value> = dumps
        .iter()
        .map(|r| {
            serde_json::json!({
                "range": r.to_string(),
                "bytes": m.read_bytes(r.start, r.len() as usize),
            })
        })
        .collect();
    let value = match result {
        Ok(stats) => serde_json::json!({
            "ok": true,
            "stop": stats.stop,
            "cycles": stats.cycles,
            "instructions": stats.instructions,
            "unmapped_reads": stats.unmapped_reads,
            "machine": clock.id,
            "mhz": clock.mhz,
            "time_ms_at_clock": crate::output::millis(stats.time_at(clock)),
            "timing": stats.machine_time.map_or("cpu".to_string(), |t| t.model.full_id()),
            "time_ms": crate::output::millis(stats.time(clock)),
            "machine_time": stats.machine_time,
            "ram": m.ram_profile(),
            "profile": m.profile(),
            "console": console,
            "reads": reads,
            "lines": lines,
            "dumps": dumps,
        }),
        Err(e) => serde_json::json!({
            "ok": false,
            "error": e.fault.to_string(),
            "fault": e.fault,
            "cycles": e.cycles,
            "instructions": e.instructions,
            "trace": e.trace,
            "console": console,
            "reads": reads,
            "lines": lines,
            "dumps": dumps,
        }),
    };
    println!("{}", serde_json::to_string_pretty(&value)?);
    if let Err(e) = result {
        bail!("{}", e.fault);
    }
    Ok(())
}
