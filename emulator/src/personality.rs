//! Machine personalities: a historical machine described as data.
//!
//! A personality is a small TOML file: the CPU, the clock profile, the memory map, bytes the
//! machine's ROM holds at known places (vectors), mirrored address ranges, and the host traps
//! that stand in for the machine's monitor or operating system (see [`crate::traps`]). Ten
//! are built in ([`BUILT_IN`]: `kim-1`, `cpm`, `jupiter-3`, and the machines Kempelen's program
//! files are built for, `zx-spectrum`, `msx`, `trs-80`, `c64`, `apple-2`, `atari-800`, and
//! the simulator `py65`); a user
//! writes another in the same form (`kempelen run --machine FILE.toml`). `docs/MACHINE.md`
//! describes the format.
//!
//! Errors name the file, line and column.

use crate::memory::{AddrRange, MemoryMap, parse_addr};
use crate::traps::{Charset, Function, Reg, Select, Service, Trap};
use crate::{ClockProfile, Cpu, MachineBuilder, clock};
use kempelen_descriptions::personality::{Entry, File, FillSpec, MirrorSpec, OptText};
use std::ops::Range;
use toml::Spanned;

/// The built-in personalities, by id (their texts: `kempelen_descriptions::personality::built_in`).
pub use kempelen_descriptions::personality::BUILT_IN;

/// The lowest clock a personality may give (`mhz`): 10 kHz.
pub const MIN_MHZ: f64 = 0.01;
/// The highest clock a personality may give (`mhz`).
pub const MAX_MHZ: f64 = 1000.0;
/// The largest personality file read: 1 MiB (the built-in ones are about 4 KB).
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// A personality file that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}{}: {message}", place(*line, *col))]
pub struct PersonalityError {
    /// The file (or `built-in ID`).
    pub file: String,
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1.
    pub col: usize,
    /// What is wrong.
    pub message: String,
}

/// `:line:col`, or nothing for an error of the whole file (line 0: it could not be read).
fn place(line: usize, col: usize) -> String {
    if line == 0 {
        String::new()
    } else {
        format!(":{line}:{col}")
    }
}

/// A machine personality (see the module documentation).
#[derive(Debug, Clone, serde::Serialize)]
pub struct Personality {
    /// Short id (`kim-1`).
    pub id: String,
    /// What machine it is.
    pub name: String,
    /// The CPU.
    #[serde(serialize_with = "crate::serialize_cpu")]
    pub cpu: Cpu,
    /// The clock profile.
    pub clock: &'static ClockProfile,
    /// The memory map.
    #[serde(skip)]
    pub map: MemoryMap,
    /// Where a program without an address is loaded.
    pub load: Option<u16>,
    /// The initial stack pointer, if the machine sets one.
    pub sp: Option<u16>,
    /// ROM or RAM contents the machine has at start (address, bytes).
    pub fills: Vec<(u16, Vec<u8>)>,
    /// Mirrored ranges: (range, address it copies).
    pub mirrors: Vec<(AddrRange, u16)>,
    /// The host traps.
    pub traps: Vec<Trap>,
}

/// Turns byte offsets into file:line:col errors.
struct Source<'a> {
    file: &'a str,
    text: &'a str,
}

impl Source<'_> {
    fn error(&self, span: Option<Range<usize>>, message: impl Into<String>) -> PersonalityError {
        let at = span.map_or(0, |s| s.start).min(self.text.len());
        let before = &self.text[..at];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        PersonalityError {
            file: self.file.to_string(),
            line,
            col,
            message: message.into(),
        }
    }

    fn addr(&self, s: &Spanned<String>) -> Result<u16, PersonalityError> {
        parse_addr(s.get_ref()).ok_or_else(|| {
            self.error(
                Some(s.span()),
                format!("`{}` is not a 16-bit address (hex: C000)", s.get_ref()),
            )
        })
    }

    fn range(&self, s: &Spanned<String>) -> Result<AddrRange, PersonalityError> {
        s.get_ref()
            .parse::<AddrRange>()
            .map_err(|e| self.error(Some(s.span()), e.to_string()))
    }

    /// `len` bytes from `start` end by $FFFF; if not, the error `past_end()` at `s`.
    fn within_64k(
        &self,
        s: &Spanned<String>,
        start: u16,
        len: usize,
        past_end: impl FnOnce() -> String,
    ) -> Result<(), PersonalityError> {
        if usize::from(start) + len > 0x10000 {
            return Err(self.error(Some(s.span()), past_end()));
        }
        Ok(())
    }

    fn bytes(&self, s: &Spanned<String>) -> Result<Vec<u8>, PersonalityError> {
        s.get_ref()
            .split_whitespace()
            .map(|b| {
                let digits = b.strip_prefix('$').unwrap_or(b);
                (digits.bytes().all(|d| d.is_ascii_hexdigit()))
                    .then(|| u8::from_str_radix(digits, 16).ok())
                    .flatten()
                    .ok_or_else(|| {
                        self.error(Some(s.span()), format!("`{b}` is not a hex byte (00-FF)"))
                    })
            })
            .collect()
    }

    /// The register `s` names, or `default` when the file names none; `service` (the span of
    /// the `service` key) is where the error points when `default` is not a register of the
    /// CPU (the 6502 has no `E` and no `DE`).
    fn reg(
        &self,
        cpu: Cpu,
        s: &OptText,
        default: &str,
        service: &Spanned<String>,
    ) -> Result<Reg, PersonalityError> {
        match s {
            None => Reg::parse(cpu, default).ok_or_else(|| {
                let needs_pair = Reg::parse(Cpu::Z80, default).is_some_and(Reg::is_pair);
                let message = if needs_pair {
                    format!(
                        "`{}` needs an address in a register pair (BC, DE, HL); the {cpu} has none, so it cannot serve this",
                        service.get_ref()
                    )
                } else {
                    format!(
                        "`{}` needs `register` on the {cpu}: its default, {default}, is not a {cpu} register",
                        service.get_ref()
                    )
                };
                self.error(Some(service.span()), message)
            }),
            Some(s) => Reg::parse(cpu, s.get_ref()).ok_or_else(|| {
                self.error(
                    Some(s.span()),
                    format!("`{}` is not a {} register a trap can use", s.get_ref(), cpu),
                )
            }),
        }
    }
}

/// The sections of a personality file, each read and checked.
impl Source<'_> {
    /// `clock` (a profile) or `mhz` (a clock of the file's own), else the CPU's default.
    fn clock(&self, f: &File, cpu: Cpu) -> Result<&'static ClockProfile, PersonalityError> {
        Ok(match (&f.clock, &f.mhz) {
            (Some(c), _) => clock::machine(c.get_ref()).ok_or_else(|| {
                let ids: Vec<&str> = clock::MACHINES.iter().map(|m| m.id).collect();
                self.error(
                    Some(c.span()),
                    format!(
                        "unknown clock profile `{}` (known: {})",
                        c.get_ref(),
                        ids.join(", ")
                    ),
                )
            })?,
            (None, Some(mhz)) => {
                let v = *mhz.get_ref();
                if !(MIN_MHZ..=MAX_MHZ).contains(&v) {
                    return Err(self.error(
                        Some(mhz.span()),
                        format!("mhz must be between {MIN_MHZ} and {MAX_MHZ} (found {v:?})"),
                    ));
                }
                own_clock(f, cpu, v, "", "personality file")
            }
            // No clock named: the CPU's usual speed, but no machine's timing model (a CP/M
            // machine has no ZX Spectrum's contended memory or 50 Hz interrupt).
            (None, None) => {
                let usual = clock::default_machine(cpu);
                own_clock(
                    f,
                    cpu,
                    usual.mhz,
                    "no clock given: the CPU's usual speed, no timing model",
                    usual.source,
                )
            }
        })
    }

    /// `[[memory]]`, `io_page` and `stack`: the memory map, checked for the CPU.
    fn memory_map(&self, f: &File, cpu: Cpu) -> Result<MemoryMap, PersonalityError> {
        let mut map = MemoryMap::empty();
        for m in &f.memory {
            let range = self.range(&m.range)?;
            map = match m.kind.get_ref().as_str() {
                "ram" => map.ram(&m.name, range),
                "rom" => map.rom(&m.name, range),
                other => {
                    return Err(self.error(
                        Some(m.kind.span()),
                        format!("unknown memory kind `{other}` (ram, rom)"),
                    ));
                }
            };
        }
        if let Some(io) = &f.io_page {
            map = map.with_io_page(self.addr(io)?);
        }
        if let Some(stack) = &f.stack {
            map = map.with_stack(self.range(stack)?);
        }
        if let Err(e) = map.validate(cpu) {
            return Err(self.error(f.memory.first().map(|m| m.range.span()), e.to_string()));
        }
        Ok(map)
    }

    /// `[[fill]]`: bytes the machine holds at start, each run inside the 64K.
    fn fills(&self, fill: &[FillSpec]) -> Result<Vec<(u16, Vec<u8>)>, PersonalityError> {
        let mut fills = Vec::new();
        for fl in fill {
            let at = self.addr(&fl.at)?;
            let bytes = self.bytes(&fl.bytes)?;
            self.within_64k(&fl.bytes, at, bytes.len(), || {
                format!(
                    "{} bytes at ${at:04X} run past $FFFF (a fill does not wrap to $0000)",
                    bytes.len()
                )
            })?;
            fills.push((at, bytes));
        }
        Ok(fills)
    }

    /// `[[mirror]]`: ranges that copy others, each copied range inside the 64K.
    fn mirrors(&self, mirror: &[MirrorSpec]) -> Result<Vec<(AddrRange, u16)>, PersonalityError> {
        let mut mirrors = Vec::new();
        for m in mirror {
            let range = self.range(&m.range)?;
            let of = self.addr(&m.of)?;
            self.within_64k(&m.of, of, range.len() as usize, || {
                format!(
                    "the {} bytes copied from ${of:04X} run past $FFFF (a mirror does not wrap to $0000)",
                    range.len()
                )
            })?;
            mirrors.push((range, of));
        }
        Ok(mirrors)
    }

    /// One `[[trap]]`: its address (not one of the traps before it), its functions and its
    /// cycles.
    fn trap(&self, cpu: Cpu, t: &Entry, before: &[Trap]) -> Result<Trap, PersonalityError> {
        let Some(at) = &t.at else {
            return Err(self.error(None, format!("trap `{}` has no `at` address", t.name)));
        };
        let addr = self.addr(at)?;
        if let Some(other) = before.iter().find(|o| o.at == addr) {
            return Err(self.error(
                Some(at.span()),
                format!(
                    "trap `{}` at ${addr:04X} is also trap `{}`",
                    t.name, other.name
                ),
            ));
        }
        let (select, functions) = match (&t.select, &t.service) {
            (Some(_), Some(s)) => {
                return Err(self.error(
                    Some(s.span()),
                    "a trap has either `select` with `[[trap.function]]`s or one `service`",
                ));
            }
            (None, Some(_)) => (Select::Single, vec![function(self, cpu, t, Vec::new())?]),
            (None, None) => {
                return Err(self.error(
                    Some(at.span()),
                    format!("trap `{}` has neither `service` nor `select`", t.name),
                ));
            }
            (Some(sel), None) => self.functions(cpu, t, sel)?,
        };
        Ok(Trap {
            name: t.name.clone(),
            at: addr,
            select,
            functions,
            cycles: self.trap_cycles(cpu, t)?,
        })
    }

    /// A trap's `select` and its `[[trap.function]]`s, longest codes first.
    fn functions(
        &self,
        cpu: Cpu,
        t: &Entry,
        sel: &Spanned<String>,
    ) -> Result<(Select, Vec<Function>), PersonalityError> {
        let memory = sel.get_ref().trim_start_matches('$');
        let select = match sel.get_ref().as_str() {
            "inline" => Select::Inline,
            _ if memory.len() == 4 && memory.chars().all(|c| c.is_ascii_hexdigit()) => {
                Select::Memory(self.addr(sel)?)
            }
            r => Select::Register(Reg::parse(cpu, r).filter(|r| !r.is_pair()).ok_or_else(
                || {
                    self.error(
                        Some(sel.span()),
                        format!("`select` is `inline`, an 8-bit register or a four-digit address, not `{r}`"),
                    )
                },
            )?),
        };
        let mut fs = Vec::new();
        for e in &t.function {
            let Some(code) = &e.code else {
                return Err(self.error(
                    Some(sel.span()),
                    format!("function `{}` of trap `{}` has no `code`", e.name, t.name),
                ));
            };
            let bytes = self.bytes(code)?;
            if bytes.is_empty() || (select != Select::Inline && bytes.len() != 1) {
                return Err(self.error(Some(code.span()), "a function code is one byte (or, with `select = \"inline\"`, the bytes after the call)"));
            }
            fs.push(function(self, cpu, e, bytes)?);
        }
        if fs.is_empty() {
            return Err(self.error(
                Some(sel.span()),
                format!("trap `{}` has no `[[trap.function]]`", t.name),
            ));
        }
        // Longest codes first, so `81 1A` is tried before a shorter `81`.
        fs.sort_by_key(|f| std::cmp::Reverse(f.code.len()));
        Ok((select, fs))
    }

    /// A trap's `cycles`: 1 to [`crate::traps::MAX_CYCLES`], by default the return
    /// instruction's.
    fn trap_cycles(&self, cpu: Cpu, t: &Entry) -> Result<u64, PersonalityError> {
        let Some(c) = &t.cycles else {
            return Ok(crate::traps::default_cycles(cpu));
        };
        let v = *c.get_ref();
        if !(1..=crate::traps::MAX_CYCLES).contains(&v) {
            return Err(self.error(
                Some(c.span()),
                format!(
                    "cycles must be between 1 and {} (found {v}): every call of a routine costs time",
                    crate::traps::MAX_CYCLES
                ),
            ));
        }
        Ok(v)
    }
}

impl Personality {
    /// The built-in personality `id`.
    pub fn built_in(id: &str) -> Option<Personality> {
        kempelen_descriptions::personality::built_in(id).map(|text| {
            Personality::parse(&format!("built-in {id}"), text)
                .expect("built-in personalities parse (tested)")
        })
    }

    /// Every built-in personality.
    pub fn all_built_in() -> Vec<Personality> {
        BUILT_IN
            .iter()
            .filter_map(|id| Personality::built_in(id))
            .collect()
    }

    /// Parses a personality file; `file` names it in errors. The file is read section by
    /// section in this order (the first error found is the one reported).
    pub fn parse(file: &str, text: &str) -> Result<Personality, PersonalityError> {
        let src = Source { file, text };
        let f = kempelen_descriptions::personality::read(text)
            .map_err(|e| src.error(e.span(), e.message()))?;
        let cpu: Cpu = f.cpu.get_ref().parse().map_err(|_| {
            src.error(
                Some(f.cpu.span()),
                format!("unknown CPU `{}` (z80, 6502)", f.cpu.get_ref()),
            )
        })?;
        let clock = src.clock(&f, cpu)?;
        let map = src.memory_map(&f, cpu)?;
        let fills = src.fills(&f.fill)?;
        let mirrors = src.mirrors(&f.mirror)?;
        let mut traps: Vec<Trap> = Vec::new();
        for t in &f.trap {
            let trap = src.trap(cpu, t, &traps)?;
            traps.push(trap);
        }
        Ok(Personality {
            id: f.id,
            name: f.name,
            cpu,
            clock,
            map,
            load: f.load.as_ref().map(|l| src.addr(l)).transpose()?,
            sp: f.sp.as_ref().map(|l| src.addr(l)).transpose()?,
            fills,
            mirrors,
            traps,
        })
    }

    /// Reads a personality file (at most [`MAX_FILE_BYTES`]; UTF-8).
    pub fn from_file(path: &std::path::Path) -> Result<Personality, PersonalityError> {
        let file = path.display().to_string();
        let error = |line, col, message| PersonalityError {
            file: file.clone(),
            line,
            col,
            message,
        };
        let bytes = crate::files::read_bounded(path, MAX_FILE_BYTES)
            .map_err(|e| error(0, 0, format!("cannot read: {e}")))?;
        let text = crate::files::utf8(&bytes)
            .map_err(|(line, col)| error(line, col, "not UTF-8 text".into()))?;
        Personality::parse(&file, text)
    }

    /// A machine builder for this personality: its map, clock, ROM contents, mirrors, stack
    /// pointer and traps. Load the program with [`MachineBuilder::load`].
    pub fn builder(&self) -> MachineBuilder {
        let mut b = crate::MachineBuilder::new(self.cpu)
            .memory_map(self.map.clone())
            .clock(self.clock)
            .traps(self.traps.clone());
        for (at, bytes) in &self.fills {
            b = b.fill(*at, bytes);
        }
        for (range, of) in &self.mirrors {
            b = b.mirror(*range, *of);
        }
        if let Some(sp) = self.sp {
            b = b.stack_pointer(sp);
        }
        b
    }
}

/// One function of a trap (or a trap's only service): its `service` and what that service
/// needs (registers, a charset, addresses).
fn function(
    src: &Source,
    cpu: Cpu,
    e: &Entry,
    code: Vec<u8>,
) -> Result<Function, PersonalityError> {
    let Some(service) = &e.service else {
        return Err(src.error(
            e.code.as_ref().map(|c| c.span()),
            format!("function `{}` has no `service`", e.name),
        ));
    };
    let span = service.span();
    let reg = |default: &str| src.reg(cpu, &e.register, default, service);
    let a = "A";
    let charset = charset(src, e)?;
    let service = match service.get_ref().as_str() {
        "put-char" => Service::PutChar {
            register: reg(a)?,
            charset,
        },
        "put-hex" => Service::PutHex { register: reg(a)? },
        "get-char" => Service::GetChar {
            register: reg(a)?,
            echo: e.echo.unwrap_or(false),
            charset,
        },
        "poll-char" => Service::PollChar {
            register: reg(a)?,
            none: e.none.unwrap_or(0),
            charset,
        },
        "keyboard" => keyboard(src, e, span, charset)?,
        "return" => Service::Return,
        "status" => Service::Status {
            register: reg(a)?,
            ready: e.ready.unwrap_or(0xFF),
            none: e.none.unwrap_or(0),
        },
        "print-string" => Service::PrintString {
            register: pair(src, cpu, e, reg("DE")?)?,
            terminator: terminator(src, e, span)?,
        },
        "read-line" => Service::ReadLine {
            register: pair(src, cpu, e, reg("DE")?)?,
        },
        "direct-io" => Service::DirectIo {
            register: reg("E")?,
        },
        "print-inline" => Service::PrintInline {
            newline: e.newline.unwrap_or(false),
        },
        "newline" => Service::Newline {
            args: e.args.unwrap_or(0),
        },
        "display" => display(src, e, span)?,
        "key" => {
            let keys = keys(src, e, span)?;
            Service::Key {
                register: reg(a)?,
                none: e.none.unwrap_or(0xFF),
                keys,
            }
        }
        "jump-indirect" => {
            let Some(v) = &e.vector else {
                return Err(src.error(Some(span), "`jump-indirect` needs `vector`"));
            };
            Service::JumpIndirect {
                vector: src.addr(v)?,
            }
        }
        "done" => Service::Done,
        other => {
            return Err(src.error(
                Some(span),
                format!(
                    "unknown service `{other}` (put-char, put-hex, get-char, poll-char, keyboard, status, print-string, read-line, direct-io, print-inline, newline, display, key, jump-indirect, return, done)"
                ),
            ));
        }
    };
    Ok(Function {
        code,
        name: e.name.clone(),
        service,
    })
}

/// A function's `charset` (default ASCII).
fn charset(src: &Source, e: &Entry) -> Result<Charset, PersonalityError> {
    match &e.charset {
        None => Ok(Charset::Ascii),
        Some(c) => Charset::parse(c.get_ref()).ok_or_else(|| {
            src.error(
                Some(c.span()),
                format!(
                    "unknown charset `{}` (ascii, cr, zx, petscii, apple, atascii)",
                    c.get_ref()
                ),
            )
        }),
    }
}

/// `keyboard`: the addresses `store` and `flag`, and the flag's `bit`.
fn keyboard(
    src: &Source,
    e: &Entry,
    span: Range<usize>,
    charset: Charset,
) -> Result<Service, PersonalityError> {
    let need = |f: &OptText, name: &str| match f {
        Some(s) => src.addr(s),
        None => Err(src.error(
            Some(span.clone()),
            format!("`keyboard` needs `{name}`, an address"),
        )),
    };
    let bit = e.bit.unwrap_or(0);
    if bit > 7 {
        return Err(src.error(Some(span), format!("bit {bit} is not 0-7")));
    }
    Ok(Service::Keyboard {
        store: need(&e.store, "store")?,
        flag: need(&e.flag, "flag")?,
        bit,
        charset,
    })
}

/// `print-string`'s `terminator`: one character (default `$`).
fn terminator(src: &Source, e: &Entry, span: Range<usize>) -> Result<u8, PersonalityError> {
    match e.terminator.as_deref() {
        None => Ok(b'$'),
        Some(t) if t.len() == 1 => Ok(t.as_bytes()[0]),
        Some(t) => Err(src.error(Some(span), format!("terminator `{t}` is not one character"))),
    }
}

/// `display`: the addresses of its `digits`.
fn display(src: &Source, e: &Entry, span: Range<usize>) -> Result<Service, PersonalityError> {
    let Some(digits) = &e.digits else {
        return Err(src.error(
            Some(span),
            "`display` needs `digits`, the addresses of the bytes shown",
        ));
    };
    Ok(Service::Display {
        digits: digits
            .iter()
            .map(|d| src.addr(d))
            .collect::<Result<_, _>>()?,
    })
}

/// `key`'s `keys`: each one ASCII character and its key code.
fn keys(src: &Source, e: &Entry, span: Range<usize>) -> Result<Vec<(u8, u8)>, PersonalityError> {
    let mut keys = Vec::new();
    for (k, v) in e.keys.iter().flatten() {
        if k.len() != 1 || !k.is_ascii() {
            return Err(src.error(
                Some(span.clone()),
                format!("key `{k}` is not one ASCII character"),
            ));
        }
        keys.push((k.as_bytes()[0], *v));
    }
    Ok(keys)
}

/// A register that must hold an address: a Z80 pair.
fn pair(src: &Source, cpu: Cpu, e: &Entry, r: Reg) -> Result<Reg, PersonalityError> {
    if r.is_pair() {
        Ok(r)
    } else {
        Err(src.error(
            e.register.as_ref().map(|r| r.span()),
            format!("this service needs an address in a register pair (BC, DE, HL); the {cpu} has none named so"),
        ))
    }
}

/// A clock of a personality's own (`mhz`, or none named), with the personality's id: no
/// machine's timing model is found for it. Lives as long as the program.
fn own_clock(
    f: &File,
    cpu: Cpu,
    mhz: f64,
    note: &'static str,
    source: &'static str,
) -> &'static ClockProfile {
    Box::leak(Box::new(ClockProfile {
        id: Box::leak(f.id.clone().into_boxed_str()),
        machine: Box::leak(f.name.clone().into_boxed_str()),
        cpu,
        chip: cpu.name(),
        mhz,
        ram: "",
        note,
        source,
    }))
}
