//! A program run in Kempelen's machine as `kempelen run` runs it, apart from reading flags and
//! printing: the machine built from the run's options ([`RunSetup`]: a personality or a clock,
//! the memory map and its changes, the program's images in any [`loaders`](crate::loaders)
//! format, the entry, the timing model and the core), the bytes written before the run
//! ([`Poke`]), scripted console input fed a line at a time ([`Script`]), and what the run
//! leaves ([`RunReport`], serializable, and [`hex_dump`]).
//!
//! The errors carry the command's option names (`--machine`, `--poke`, ...): the options
//! here are those of `kempelen run`, one for one.

use std::path::PathBuf;

use kempelen_isa::{Cpu, Overlap};
use serde::Serialize;

use crate::clock::{self, ClockProfile};
use crate::error::{Fault, RunError};
use crate::personality::Personality;
use crate::profiler::ProfileReport;
use crate::resolve::{self, MachineChoice, ResolveError};
use crate::stats::{RamProfile, RunStats, StopReason};
use crate::timing::{MachineTime, Timing};
use crate::trace::RecentTrace;
use crate::{AddrRange, CoreKind, Machine, MachineBuilder, MemoryMap};

/// Why a run could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum RunSetupError {
    /// A machine name or an image that could not be resolved or read.
    #[error(transparent)]
    Resolve(#[from] ResolveError),
    /// A CPU other than the personality's.
    #[error("--machine {machine}: the personality has a {has} CPU, not {asked}")]
    OtherCpu {
        /// The personality.
        machine: String,
        /// Its CPU.
        has: Cpu,
        /// The CPU asked for.
        asked: Cpu,
    },
    /// Neither a CPU nor a personality.
    #[error("--cpu is required (z80 or 6502) unless --machine names a personality")]
    NoCpu,
    /// No image.
    #[error("no program: give a ROM file or --image FILE[@ADDR]")]
    NoProgram,
    /// Two files whose bytes share addresses, without `later-wins`.
    #[error(
        "{}: its bytes at {range} overlap those of {} at {other_range}; give --overlap later-wins to let the later file win",
        file.display(),
        other.display()
    )]
    Overlap {
        /// The later file.
        file: PathBuf,
        /// Its bytes that overlap.
        range: AddrRange,
        /// The earlier file.
        other: PathBuf,
        /// Its bytes.
        other_range: AddrRange,
    },
    /// A named timing model for a program of another CPU than the machine's.
    #[error("--timing {timing}: {machine} has a {chip} CPU, the program a {cpu}")]
    TimingOtherCpu {
        /// The model asked for.
        timing: Timing,
        /// The machine.
        machine: &'static str,
        /// Its chip.
        chip: &'static str,
        /// The program's CPU.
        cpu: Cpu,
    },
    /// A timing model the machine does not have.
    #[error("--timing {timing}: {reason}")]
    Timing {
        /// The model asked for.
        timing: Timing,
        /// Why it does not apply.
        reason: String,
    },
    /// A Z80 core asked for a 6502-family program.
    #[error("--core {core} is a Z80 core; the {} has one core", cpu.title())]
    Core {
        /// The core asked for.
        core: String,
        /// The program's CPU.
        cpu: Cpu,
    },
    /// A `--poke` that cannot be read.
    #[error("--poke `{spec}`: {message}")]
    Poke {
        /// The poke as given.
        spec: String,
        /// What is wrong.
        message: String,
    },
    /// A `--input` escape that cannot be read.
    #[error("--input: {0}")]
    Input(String),
}

/// An image to load: a file, and for a raw binary its address (`FILE@ADDR`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageSpec {
    /// The file.
    pub path: PathBuf,
    /// Where a raw binary goes (a format with its own addresses refuses one).
    pub addr: Option<u16>,
}

/// The machine and program of a run (the options of `kempelen run` that shape the machine).
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// The images, the first one naming the program in messages.
    pub images: Vec<ImageSpec>,
    /// What happens where images share addresses (`--overlap`).
    pub overlap: Overlap,
    /// The CPU (`--cpu`; default the personality's).
    pub cpu: Option<Cpu>,
    /// A personality or clock profile name, or a personality FILE.toml (`--machine`).
    pub machine: Option<String>,
    /// Load address of a raw image (`--load`).
    pub load: Option<u16>,
    /// Entry point (`--entry`; default the first image's named entry or address).
    pub entry: Option<u16>,
    /// Initial stack pointer (`--sp`).
    pub sp: Option<u16>,
    /// ROM regions replacing the map (`--rom`).
    pub rom_regions: Vec<AddrRange>,
    /// RAM regions replacing the map (`--ram`).
    pub ram_regions: Vec<AddrRange>,
    /// The stack region (`--stack`).
    pub stack: Option<AddrRange>,
    /// No stack region check (`--no-stack-check`).
    pub no_stack_check: bool,
    /// 6502: base of the I/O page (`--io-page`).
    pub io_page: Option<u16>,
    /// 6502: run undocumented opcodes (`--allow-undocumented`).
    pub allow_undocumented: bool,
    /// 6502: BRK through the IRQ vector (`--run-brk`).
    pub run_brk: bool,
    /// The machine's time or the CPU clock's (`--timing`).
    pub timing: Timing,
    /// Z80 core by name, `z80` or `rustzx` (`--core`).
    pub core: Option<String>,
    /// Whether instructions are traced (the Z80 then defaults to the core that shows every
    /// register).
    pub tracing: bool,
}

/// The machine a run's options name: a personality or only a clock, the CPU and the clock.
pub struct RunSetup {
    /// The personality, if the machine is one.
    pub personality: Option<Box<Personality>>,
    /// The program's CPU.
    pub cpu: Cpu,
    /// The clock that turns cycles into time.
    pub clock: &'static ClockProfile,
    /// A remark for the user (a clock borrowed from a machine of another CPU).
    pub note: Option<String>,
}

impl RunSetup {
    /// The machine `o` names (a personality, a clock profile, or the CPU's default clock).
    pub fn new(o: &RunOptions) -> Result<RunSetup, RunSetupError> {
        let choice = o.machine.as_deref().map(resolve::machine).transpose()?;
        let (personality, clock_choice) = match choice {
            Some(MachineChoice::Personality(p)) => (Some(p), None),
            Some(MachineChoice::Clock(c)) => (None, Some(c)),
            None => (None, None),
        };
        let cpu = match (&personality, o.cpu) {
            (Some(p), Some(c)) if p.cpu != c => {
                return Err(RunSetupError::OtherCpu {
                    machine: p.id.clone(),
                    has: p.cpu,
                    asked: c,
                });
            }
            (Some(p), _) => p.cpu,
            (None, Some(c)) => c,
            (None, None) => return Err(RunSetupError::NoCpu),
        };
        let mut note = None;
        let clock = match (&personality, clock_choice) {
            (Some(p), _) => p.clock,
            (None, Some(c)) => {
                if c.cpu != cpu {
                    note = Some(format!(
                        "{} has a {} CPU; its clock is used for a {} program",
                        c.id, c.chip, cpu
                    ));
                }
                c
            }
            (None, None) => clock::default_machine(cpu),
        };
        Ok(RunSetup {
            personality,
            cpu,
            clock,
            note,
        })
    }

    /// The memory map: the personality's or the CPU's, with `o`'s changes.
    pub fn memory_map(&self, o: &RunOptions) -> MemoryMap {
        let base_map = match &self.personality {
            Some(p) => p.map.clone(),
            None => MemoryMap::default_for(self.cpu),
        };
        let mut map = if o.rom_regions.is_empty() && o.ram_regions.is_empty() {
            base_map
        } else {
            let mut map = MemoryMap::empty();
            map.io_page = base_map.io_page;
            for r in &o.rom_regions {
                map = map.rom("rom", *r);
            }
            for r in &o.ram_regions {
                map = map.ram("ram", *r);
            }
            map.stack = None;
            map
        };
        if let Some(io) = o.io_page {
            map.io_page = Some(io);
        }
        if let Some(stack) = o.stack {
            map.stack = Some(stack);
        }
        if o.no_stack_check {
            map.stack = None;
        }
        map
    }

    /// The machine builder: the map, every image (refusing files that overlap unless
    /// `later-wins`), the entry (`--entry`, else the first file that names one), the stack
    /// pointer, the timing model and the core, with the clock.
    pub fn builder(&self, o: &RunOptions) -> Result<MachineBuilder, RunSetupError> {
        let mut b = match &self.personality {
            Some(p) => p.builder(),
            None => MachineBuilder::new(self.cpu),
        };
        b = b
            .memory_map(self.memory_map(o))
            .allow_undocumented(o.allow_undocumented)
            .stop_on_brk(!o.run_brk);
        let (b, named_entry) = self.load_images(b, o)?;
        let mut b = b.overlap(o.overlap);
        if let Some(entry) = o.entry.or(named_entry) {
            b = b.entry(entry);
        }
        if let Some(sp) = o.sp {
            b = b.stack_pointer(sp);
        }
        let b = b.timing(self.timing_model(&o.timing)?);
        Ok(b.core(self.core(o)?).clock(self.clock))
    }

    /// Loads every image into `b`; the entry the first file names, if any. Chunks of one file
    /// never overlap (the loaders refuse it); chunks of different files may only with
    /// `later-wins`.
    fn load_images(
        &self,
        mut b: MachineBuilder,
        o: &RunOptions,
    ) -> Result<(MachineBuilder, Option<u16>), RunSetupError> {
        if o.images.is_empty() {
            return Err(RunSetupError::NoProgram);
        }
        let default_addr = o
            .load
            .or(self.personality.as_ref().and_then(|p| p.load))
            .unwrap_or(match self.cpu {
                Cpu::Z80 => 0x0000,
                Cpu::Mos6502 | Cpu::Cmos65c02 => 0xC000,
            });
        let mut loaded: Vec<(usize, &PathBuf, AddrRange)> = Vec::new();
        let mut named_entry = None;
        for (i, image) in o.images.iter().enumerate() {
            let file = resolve::program(&image.path, image.addr, default_addr)?;
            named_entry = named_entry.or(file.entry);
            for chunk in file.chunks {
                let range = AddrRange::new(chunk.addr, chunk.addr + (chunk.bytes.len() - 1) as u16)
                    .expect("a chunk holds bytes and ends below $10000");
                if o.overlap == Overlap::Error {
                    if let Some((_, other, r)) = loaded
                        .iter()
                        .find(|(j, _, r)| *j != i && r.overlaps(&range))
                    {
                        return Err(RunSetupError::Overlap {
                            file: image.path.clone(),
                            range,
                            other: (*other).clone(),
                            other_range: *r,
                        });
                    }
                }
                loaded.push((i, &image.path, range));
                b = b.load(chunk.addr, &chunk.bytes);
            }
        }
        Ok((b, named_entry))
    }

    /// The machine's timing model under `timing`, when the machine has the program's CPU (a
    /// clock borrowed for another CPU's program is the clock alone).
    fn timing_model(
        &self,
        timing: &Timing,
    ) -> Result<Option<&'static crate::TimingModel>, RunSetupError> {
        let same_cpu = self.clock.cpu.is_6502_family() == self.cpu.is_6502_family();
        match timing {
            Timing::Named(_) if !same_cpu => Err(RunSetupError::TimingOtherCpu {
                timing: timing.clone(),
                machine: self.clock.id,
                chip: self.clock.chip,
                cpu: self.cpu,
            }),
            choice if same_cpu => {
                choice
                    .model_for(self.clock.id)
                    .map_err(|e| RunSetupError::Timing {
                        timing: choice.clone(),
                        reason: e.to_string(),
                    })
            }
            _ => Ok(None),
        }
    }

    /// The core: the 6502's own, or the Z80 core asked for (default the fast one, the one
    /// that shows every register when tracing).
    fn core(&self, o: &RunOptions) -> Result<CoreKind, RunSetupError> {
        Ok(match (self.cpu, o.core.as_deref()) {
            (cpu @ (Cpu::Mos6502 | Cpu::Cmos65c02), Some(c)) => {
                return Err(RunSetupError::Core {
                    core: c.to_string(),
                    cpu,
                });
            }
            (Cpu::Mos6502, None) => CoreKind::Mos6502,
            (Cpu::Cmos65c02, None) => CoreKind::Cmos65c02,
            (Cpu::Z80, Some("rustzx")) => CoreKind::RustzxZ80,
            (Cpu::Z80, Some(_)) => CoreKind::Z80,
            (Cpu::Z80, None) if o.tracing => CoreKind::RustzxZ80,
            (Cpu::Z80, None) => CoreKind::Z80,
        })
    }
}

/// Bytes written before a run: `ADDR=BYTES`, hex (`0C=6A`, `0200=A9 41`, `0200=A941`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Poke {
    /// Where.
    pub addr: u16,
    /// What.
    pub bytes: Vec<u8>,
}

impl Poke {
    /// Reads `ADDR=BYTES`; the bytes must not run past $FFFF.
    pub fn parse(s: &str) -> Result<Poke, RunSetupError> {
        let err = |message: String| RunSetupError::Poke {
            spec: s.to_string(),
            message,
        };
        let (a, bytes) = s
            .split_once('=')
            .ok_or_else(|| err("write ADDR=BYTES (hex), e.g. 000C=6A".into()))?;
        let addr = resolve::address(a.trim()).map_err(|e| err(e.to_string()))?;
        let digits: Vec<u8> = bytes
            .chars()
            .filter(|c| !c.is_whitespace() && *c != ',')
            .map(|c| c.to_digit(16).map(|d| d as u8))
            .collect::<Option<_>>()
            .ok_or_else(|| err(format!("`{bytes}` is not hex bytes")))?;
        if digits.is_empty() || digits.len() % 2 != 0 {
            return Err(err("the bytes must be pairs of hex digits".into()));
        }
        let v: Vec<u8> = digits.chunks(2).map(|p| p[0] << 4 | p[1]).collect();
        if usize::from(addr) + v.len() > 0x10000 {
            return Err(err(format!(
                "{} bytes at ${addr:04X} run past $FFFF (nothing wraps to $0000)",
                v.len()
            )));
        }
        Ok(Poke { addr, bytes: v })
    }
}

/// Turns input escapes into bytes: `\n`, `\r`, `\t`, `\\`, `\xNN`.
pub fn unescape(text: &str) -> Result<Vec<u8>, RunSetupError> {
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
                    None => {
                        return Err(RunSetupError::Input(format!(
                            "`\\x` at column {} needs two hex digits",
                            i + 1
                        )));
                    }
                }
                i += 4;
                continue;
            }
            _ => {
                return Err(RunSetupError::Input(format!(
                    "unknown escape at column {} (known: \\n \\r \\t \\\\ \\xNN)",
                    i + 1
                )));
            }
        }
        i += 2;
    }
    Ok(out)
}

/// Splits input into lines, each with its end (`\n`, `\r\n` or `\r`).
pub fn input_lines(bytes: &[u8]) -> Vec<Vec<u8>> {
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

/// Console bytes as text: bytes above $7F (and control bytes other than new line, carriage
/// return and tab) as `\xNN`, a backslash as `\\`, so every byte survives in JSON.
pub fn escape_bytes(bytes: &[u8]) -> String {
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

/// Milliseconds rounded to three decimals, the precision of every float in the JSON.
fn millis(t: std::time::Duration) -> f64 {
    (t.as_secs_f64() * 1000.0 * 1000.0).round() / 1000.0
}

/// A line of scripted input and when it was queued: at cycle 0 for the first, else the cycle
/// count when the program found the input empty and waited.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct QueuedLine {
    /// Cycles when it was queued.
    pub cycles: u64,
    /// That time at the run's clock, ms.
    pub time_ms_at_clock: f64,
    /// The line (escaped as [`escape_bytes`] does).
    pub input: String,
}

/// A character the program took from the console: the cycle count at the end of the
/// instruction (or host trap) that took it, that time at the run's clock, the character.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StampedRead {
    /// Cycles.
    pub cycles: u64,
    /// That time at the run's clock, ms.
    pub time_ms_at_clock: f64,
    /// The character (escaped).
    pub char: String,
}

/// Scripted console input: the first line queued at the start, each further line when the
/// program waits for input.
pub struct Script {
    lines: std::vec::IntoIter<Vec<u8>>,
    /// The lines queued so far, with their cycles.
    pub queued: Vec<QueuedLine>,
}

impl Script {
    /// The script of `input` (raw bytes, split into lines; none for no input).
    pub fn new(input: Option<&[u8]>) -> Script {
        let lines = input.map(input_lines).unwrap_or_default();
        Script {
            lines: lines.into_iter(),
            queued: Vec::new(),
        }
    }

    /// Queues the first line on `m`'s console. With a script, or `stop_on_empty`, a program
    /// that finds the input empty stops instead of spinning to the budget; `record` keeps
    /// each character read with its cycle count.
    pub fn start(&mut self, m: &mut Machine, scripted: bool, record: bool) {
        if let Some(first) = self.lines.next() {
            self.queued.push(QueuedLine {
                cycles: 0,
                time_ms_at_clock: 0.0,
                input: escape_bytes(&first),
            });
            m.console_mut().push_input(&first);
        }
        if scripted {
            m.console_mut().set_stop_on_empty_input(true);
        }
        if record {
            m.console_mut().set_record_reads(true);
        }
    }

    /// Runs `m` within `max_cycles`, feeding the next line each time the program waits for
    /// input, until it stops otherwise or the script ends.
    pub fn run(
        &mut self,
        m: &mut Machine,
        max_cycles: u64,
        clock: &ClockProfile,
    ) -> Result<RunStats, RunError> {
        let mut result = m.run(max_cycles);
        while let Ok(stats) = &result {
            let StopReason::InputWait { .. } = stats.stop else {
                break;
            };
            let Some(line) = self.lines.next() else {
                break;
            };
            self.queued.push(QueuedLine {
                cycles: stats.cycles,
                time_ms_at_clock: millis(stats.time_at(clock)),
                input: escape_bytes(&line),
            });
            m.console_mut().push_input(&line);
            result = m.run_more(max_cycles);
        }
        result
    }
}

/// Memory as a hex dump, 16 bytes a line (`ADDR b b b ...`, the format an image can be).
pub fn hex_dump(m: &Machine, range: AddrRange) -> String {
    let mut out = String::new();
    let mut a = u32::from(range.start);
    while a <= u32::from(range.end) {
        let n = (u32::from(range.end) - a + 1).min(16);
        let bytes = m.read_bytes(a as u16, n as usize);
        let hex = kempelen_isa::hex_bytes(&bytes);
        out.push_str(&format!("{a:04X} {hex}\n"));
        a += n;
    }
    out
}

/// A range of memory after the run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Dump {
    /// The range (`START-END`).
    pub range: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// How the run ended: its figures, or its fault.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum RunEnd {
    /// The program stopped (a host call, waiting for input, ...).
    Stopped {
        /// Why.
        stop: StopReason,
        /// Cycles.
        cycles: u64,
        /// Instructions.
        instructions: u64,
        /// Reads of unmapped addresses.
        unmapped_reads: u64,
        /// The clock's id.
        machine: &'static str,
        /// Its MHz.
        mhz: f64,
        /// The cycles' time at the clock, ms.
        time_ms_at_clock: f64,
        /// The timing model's id, or `cpu`.
        timing: String,
        /// The time on the machine (under its model, else at the clock), ms.
        time_ms: f64,
        /// The machine's time in detail.
        machine_time: Option<MachineTime>,
        /// RAM use.
        ram: RamProfile,
        /// The cycle profile, when on.
        profile: Option<ProfileReport>,
    },
    /// The run failed.
    Failed {
        /// The fault as text.
        error: String,
        /// The fault.
        fault: Fault,
        /// Cycles up to it.
        cycles: u64,
        /// Instructions up to it.
        instructions: u64,
        /// The last instructions.
        trace: RecentTrace,
    },
}

/// What a run leaves: how it ended, the console's output and reads, the input lines queued,
/// the memory asked for.
#[derive(Debug, Clone, Serialize)]
pub struct RunReport {
    /// Whether it stopped without a fault.
    pub ok: bool,
    /// How it ended.
    #[serde(flatten)]
    pub end: RunEnd,
    /// The console's output (escaped).
    pub console: String,
    /// Each character the program read.
    pub reads: Vec<StampedRead>,
    /// The input lines and when they were queued.
    pub lines: Vec<QueuedLine>,
    /// The memory dumps.
    pub dumps: Vec<Dump>,
}

impl RunReport {
    /// The report of `m`'s run that gave `result`, timed at `clock`, with `lines` queued and
    /// `dumps` read (the console's output is taken from `m`).
    pub fn new(
        m: &mut Machine,
        result: &Result<RunStats, RunError>,
        clock: &ClockProfile,
        lines: &[QueuedLine],
        dumps: &[AddrRange],
    ) -> RunReport {
        let console = escape_bytes(&m.console_mut().take_output());
        let reads = m
            .console_mut()
            .reads()
            .iter()
            .map(|r| StampedRead {
                cycles: r.cycles,
                time_ms_at_clock: millis(clock.duration(r.cycles)),
                char: escape_bytes(&[r.byte]),
            })
            .collect();
        let dumps = dumps
            .iter()
            .map(|r| Dump {
                range: r.to_string(),
                bytes: m.read_bytes(r.start, r.len() as usize),
            })
            .collect();
        RunReport {
            ok: result.is_ok(),
            end: RunEnd::of(m, result, clock),
            console,
            reads,
            lines: lines.to_vec(),
            dumps,
        }
    }
}

impl RunEnd {
    fn of(m: &Machine, result: &Result<RunStats, RunError>, clock: &ClockProfile) -> RunEnd {
        match result {
            Ok(stats) => RunEnd::Stopped {
                stop: stats.stop,
                cycles: stats.cycles,
                instructions: stats.instructions,
                unmapped_reads: stats.unmapped_reads,
                machine: clock.id,
                mhz: clock.mhz,
                time_ms_at_clock: millis(stats.time_at(clock)),
                timing: stats
                    .machine_time
                    .map_or("cpu".to_string(), |t| t.model.full_id()),
                time_ms: millis(stats.time(clock)),
                machine_time: stats.machine_time,
                ram: m.ram_profile(),
                profile: m.profile(),
            },
            Err(e) => RunEnd::Failed {
                error: e.fault.to_string(),
                fault: e.fault.clone(),
                cycles: e.cycles,
                instructions: e.instructions,
                trace: e.trace.clone(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pokes_input_and_escapes() {
        let p = Poke::parse("0200=A9 41").unwrap();
        assert_eq!((p.addr, p.bytes), (0x0200, vec![0xA9, 0x41]));
        for (bad, says) in [
            ("0200", "write ADDR=BYTES"),
            ("FFFF=0102", "run past $FFFF"),
            ("0200=A", "pairs of hex digits"),
        ] {
            let e = Poke::parse(bad).unwrap_err().to_string();
            assert!(
                e.starts_with(&format!("--poke `{bad}`: ")) && e.contains(says),
                "{e}"
            );
        }
        assert_eq!(unescape("a\\x41\\n").unwrap(), b"aA\n");
        assert!(
            unescape("\\q")
                .unwrap_err()
                .to_string()
                .contains("column 1")
        );
        assert_eq!(
            input_lines(b"a\r\nb\rc"),
            [b"a\r\n".to_vec(), b"b\r".to_vec(), b"c".to_vec()]
        );
        assert_eq!(escape_bytes(b"\\\x80x"), "\\\\\\x80x");
    }

    #[test]
    fn the_machine_of_a_run() {
        let mut o = RunOptions {
            machine: Some("c64".into()),
            cpu: Some(Cpu::Z80),
            ..RunOptions::default()
        };
        assert!(matches!(
            RunSetup::new(&o),
            Err(RunSetupError::OtherCpu { .. })
        ));
        o.machine = None;
        o.cpu = None;
        assert!(matches!(RunSetup::new(&o), Err(RunSetupError::NoCpu)));
        // A clock of another CPU's machine is used, with a note.
        o.machine = Some("vcs-2600".into());
        o.cpu = Some(Cpu::Z80);
        let s = RunSetup::new(&o).unwrap();
        assert_eq!((s.cpu, s.clock.id), (Cpu::Z80, "vcs-2600"));
        assert!(s.personality.is_none());
        assert_eq!(
            s.note.as_deref(),
            Some("vcs-2600 has a 6507 CPU; its clock is used for a z80 program")
        );
        o.machine = None;
        let s = RunSetup::new(&o).unwrap();
        assert_eq!(s.clock.id, clock::default_machine(Cpu::Z80).id);
        assert!(matches!(s.builder(&o), Err(RunSetupError::NoProgram)));
    }
}
