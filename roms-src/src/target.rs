//! The target machines: Kempelen's console game (front end and engine) as a program file for
//! a real computer, the file its owner loads (`kempelen build --target T -o FILE`).
//!
//! A target is one folder `roms-src/targets/<id>/`, like a CPU port: `target.toml` describes
//! it (CPU, the machine personality that runs the file in Kempelen, the file format, where the
//! program and its RAM lie, the screen) and `io.inc` is its machine layer, the few routines the
//! front end asks of a machine (`sys_start`, `sys_putc`, `sys_getc`, `sys_exit`, see the port's
//! `console_machine.inc`), with an optional `head.inc` for what the machine needs in front of
//! the program (a BASIC line, a cartridge header). The build assembles the port's own sources
//! (front end and engine, never copied) with these three files in place of the port's
//! `console_machine.inc`, `console_head.inc` and `layout.inc` (the last written from the
//! description, crate::layout), then writes the image in the target's format
//! (crate::formats). `build.rs` bundles every folder, so a new target adds no Rust code.

use std::sync::OnceLock;

use kempelen_asm::source::MemorySource;
use kempelen_asm::{Options, SymbolTable, assemble};
use kempelen_emulator::loaders::{self, ImageFormat};
use kempelen_emulator::memory::parse_addr;
use kempelen_emulator::{AddrRange, Cpu, Machine, Personality, RegionKind, Timing};
use serde::Deserialize;

use crate::engine::{PortEngine, PortEngineError};
use crate::formats::{self, Format, FormatError};
use crate::layout::{Layout, LayoutError};
use crate::port::Port;

mod bundled {
    include!(concat!(env!("OUT_DIR"), "/target_files.rs"));
}

/// The ids of the bundled targets, sorted.
pub fn ids() -> &'static [&'static str] {
    bundled::TARGET_IDS
}

/// What building a target can fail with.
#[derive(Debug, thiserror::Error)]
pub enum TargetError {
    /// No such target.
    #[error("unknown target `{0}` (targets: {1})")]
    Unknown(String, String),
    /// Its description does not parse or does not hold together.
    #[error("roms-src/targets/{0}/target.toml: {1}")]
    Description(String, String),
    /// The layout cannot work.
    #[error("target {0}: {1}")]
    Layout(String, LayoutError),
    /// The sources did not assemble (the assembler's report).
    #[error("target {0}: assembling {1}:\n{2}")]
    Assemble(String, &'static str, String),
    /// A symbol the build needs is missing.
    #[error("target {0}: the assembly has no symbol `{1}`")]
    MissingSymbol(String, &'static str),
    /// The program and its RAM do not fit the machine.
    #[error("target {0}: {1}")]
    Memory(String, String),
    /// The format cannot hold the image.
    #[error("target {0}: {1}")]
    Format(String, FormatError),
    /// The engine at the target's layout.
    #[error("target {0}: {1}")]
    Engine(String, PortEngineError),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Description {
    id: String,
    name: String,
    cpu: String,
    machine: String,
    format: Format,
    file: String,
    how_to_load: String,
    ram_needed: String,
    layout: LayoutSpec,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LayoutSpec {
    load: String,
    code: String,
    engine_ram: String,
    frame_limit: String,
    stack: String,
    console_ram: String,
    zp_engine: Option<String>,
    proto: Option<String>,
    pv: Option<String>,
    zp_console: Option<String>,
    io_page: Option<String>,
    vectors: Option<bool>,
    screen_width: u8,
    echo: bool,
    upper_case: bool,
}

/// A target machine (see the module documentation).
#[derive(Debug, Clone)]
pub struct Target {
    /// Its id (`cpm`), the folder's name.
    pub id: &'static str,
    /// What machine it is.
    pub name: String,
    /// The CPU port whose sources it assembles.
    pub port: &'static Port,
    /// The machine personality that runs the file in Kempelen (`kempelen run FILE --machine`).
    pub machine: String,
    /// The file format.
    pub format: Format,
    /// The file's usual name.
    pub file: String,
    /// How an owner loads it.
    pub how_to_load: String,
    /// The RAM it needs, in words.
    pub ram_needed: String,
    /// Where the program and its RAM lie.
    pub layout: Layout,
    /// The folder's files (`target.toml`, `io.inc`, maybe `head.inc`).
    pub files: &'static [(&'static str, &'static str)],
}

/// The assembled program of a target, and its file.
#[derive(Debug, Clone)]
pub struct Program {
    /// The image.
    pub image: Vec<u8>,
    /// Its load address.
    pub origin: u16,
    /// Where execution starts (`sys_start`).
    pub entry: u16,
    /// The assembler's symbols.
    pub symbols: SymbolTable,
    /// The program file in the target's format.
    pub file: Vec<u8>,
}

impl Program {
    /// One past the image's last address.
    pub fn end(&self) -> u32 {
        u32::from(self.origin) + self.image.len() as u32
    }

    /// The image's first and last addresses: `$0800-$1FFF`.
    pub fn addresses(&self) -> String {
        format!("${:04X}-${:04X}", self.origin, self.end() - 1)
    }
}

fn addr(id: &str, field: &str, s: &str) -> Result<u16, TargetError> {
    parse_addr(s).ok_or_else(|| {
        TargetError::Description(
            id.to_string(),
            format!("layout.{field}: `{s}` is not a 16-bit address (hex)"),
        )
    })
}

impl Target {
    /// Every bundled target, in id order (parsed once; a description that does not parse is
    /// a build error caught by the tests).
    pub fn all() -> &'static [Target] {
        static ALL: OnceLock<Vec<Target>> = OnceLock::new();
        ALL.get_or_init(|| {
            ids()
                .iter()
                .map(|id| Target::load(id).unwrap_or_else(|e| panic!("{e}")))
                .collect()
        })
    }

    /// The target `id`.
    pub fn by_id(id: &str) -> Result<&'static Target, TargetError> {
        Target::all()
            .iter()
            .find(|t| t.id.eq_ignore_ascii_case(id))
            .ok_or_else(|| TargetError::Unknown(id.to_string(), ids().join(", ")))
    }

    /// The targets of a CPU port.
    pub fn of_port(port: &Port) -> Vec<&'static Target> {
        Target::all()
            .iter()
            .filter(|t| t.port.id == port.id)
            .collect()
    }

    /// Reads the bundled description of `id`.
    fn load(id: &'static str) -> Result<Target, TargetError> {
        let files = bundled::target_files(id);
        let text = files
            .iter()
            .find(|(n, _)| *n == "target.toml")
            .map(|(_, t)| *t)
            .ok_or_else(|| TargetError::Unknown(id.to_string(), ids().join(", ")))?;
        Target::parse(id, text, files)
    }

    /// Parses a description; `files` are the folder's files.
    pub fn parse(
        id: &'static str,
        text: &str,
        files: &'static [(&'static str, &'static str)],
    ) -> Result<Target, TargetError> {
        let bad = |m: String| TargetError::Description(id.to_string(), m);
        let d: Description = toml::from_str(text).map_err(|e| bad(e.to_string()))?;
        if d.id != id {
            return Err(bad(format!("id `{}` is not the folder's name", d.id)));
        }
        let cpu: Cpu = d
            .cpu
            .parse()
            .map_err(|_| bad(format!("unknown cpu `{}`", d.cpu)))?;
        let port = Port::for_cpu(cpu);
        let l = &d.layout;
        let stack = l
            .stack
            .parse::<AddrRange>()
            .map_err(|e| bad(format!("layout.stack: {e}")))?;
        let frame_limit = addr(id, "frame_limit", &l.frame_limit)?;
        if frame_limit & 0xFF != 0 {
            return Err(bad(format!(
                "layout.frame_limit ${frame_limit:04X} is not a multiple of $100"
            )));
        }
        let mut layout = Layout::kempelen(cpu);
        layout.load = addr(id, "load", &l.load)?;
        layout.code = addr(id, "code", &l.code)?;
        layout.engine_ram = addr(id, "engine_ram", &l.engine_ram)?;
        layout.frame_limit_hi = (frame_limit >> 8) as u8;
        layout.stack = stack;
        layout.console_ram = addr(id, "console_ram", &l.console_ram)?;
        layout.screen_width = l.screen_width;
        layout.echo = l.echo;
        layout.upper_case = l.upper_case;
        let six = [&l.zp_engine, &l.proto, &l.pv, &l.zp_console, &l.io_page];
        if cpu == Cpu::Z80 {
            if six.iter().any(|f| f.is_some()) || l.vectors.is_some() {
                return Err(bad(
                    "zp_engine, proto, pv, zp_console, io_page and vectors are the 6502's".into(),
                ));
            }
        } else {
            let get = |f: &Option<String>, name: &str| -> Result<u16, TargetError> {
                let s = f
                    .as_deref()
                    .ok_or_else(|| bad(format!("layout.{name} is missing")))?;
                addr(id, name, s)
            };
            let zp = |f: &Option<String>, name: &str| -> Result<u8, TargetError> {
                u8::try_from(get(f, name)?)
                    .map_err(|_| bad(format!("layout.{name} must be in the zero page")))
            };
            layout.zp_engine = zp(&l.zp_engine, "zp_engine")?;
            layout.proto = zp(&l.proto, "proto")?;
            layout.pv = get(&l.pv, "pv")?;
            layout.zp_console = zp(&l.zp_console, "zp_console")?;
            layout.io_page = get(&l.io_page, "io_page")?;
            layout.vectors = l.vectors.unwrap_or(false);
            if stack.start != 0x0100 || stack.end != 0x01FF {
                return Err(bad(
                    "the 6502's stack is page 1: layout.stack = \"0100-01FF\"".into(),
                ));
            }
        }
        layout
            .check()
            .map_err(|e| TargetError::Layout(id.to_string(), e))?;
        if !files.iter().any(|(n, _)| *n == "io.inc") {
            return Err(bad("the folder has no io.inc (the machine layer)".into()));
        }
        Ok(Target {
            id,
            name: d.name,
            port,
            machine: d.machine,
            format: d.format,
            file: d.file,
            how_to_load: d.how_to_load,
            ram_needed: d.ram_needed,
            layout,
            files,
        })
    }

    /// The CPU.
    pub fn cpu(&self) -> Cpu {
        self.port.cpu
    }

    /// The sources of a build: the port's, with the target's layout, machine layer and head.
    fn sources(&self) -> MemorySource {
        let mut source = MemorySource::new();
        let about = format!("the layout of the target {} ({})", self.id, self.name);
        let layout = self.layout.to_inc(&about);
        let own = |name: &str| self.files.iter().find(|(n, _)| *n == name).map(|(_, t)| *t);
        for (name, text) in self.port.sources() {
            let text = match *name {
                "layout.inc" => layout.as_str(),
                "console_machine.inc" => own("io.inc").unwrap_or(text),
                "console_head.inc" => own("head.inc").unwrap_or(""),
                _ => text,
            };
            source.add(name, text.as_bytes());
        }
        source
    }

    /// Assembles the console game for this target and writes its file.
    pub fn build(&self) -> Result<Program, TargetError> {
        let main = self.port.console_main;
        let out = assemble(main, &self.sources(), &Options::new(self.cpu()));
        if !out.is_ok() {
            return Err(TargetError::Assemble(
                self.id.to_string(),
                main,
                out.report(),
            ));
        }
        let entry = out
            .symbols
            .get("sys_start")
            .ok_or(TargetError::MissingSymbol(self.id.to_string(), "sys_start"))?;
        let origin = out.image.origin;
        let image = out.image.bytes.clone();
        if origin != self.layout.load {
            return Err(TargetError::Memory(
                self.id.to_string(),
                format!(
                    "the image starts at ${origin:04X}, not at the layout's load address ${:04X}",
                    self.layout.load
                ),
            ));
        }
        let file = formats::write(
            self.format,
            &formats::Program {
                image: &image,
                origin,
                entry,
                name: "kempelen",
            },
        )
        .map_err(|e| TargetError::Format(self.id.to_string(), e))?;
        let program = Program {
            image,
            origin,
            entry,
            symbols: out.symbols.clone(),
            file,
        };
        self.check_memory(&program)?;
        Ok(program)
    }

    /// The parts of memory the program uses: the image, the front end's RAM, the engine's RAM
    /// and frames, the stack, and (6502) the zero page and the protocol block.
    pub fn memory_plan(&self, program: &Program) -> Vec<(&'static str, AddrRange)> {
        let l = &self.layout;
        let mut v = vec![
            (
                "the program",
                AddrRange {
                    start: program.origin,
                    end: (program.end() - 1) as u16,
                },
            ),
            ("the front end's RAM", l.console_ram_range()),
            ("the engine's RAM and search frames", l.engine_ram_range()),
            ("the stack", l.stack),
        ];
        if self.cpu() != Cpu::Z80 {
            let zp = |start: u8, len: u16| AddrRange {
                start: u16::from(start),
                end: u16::from(start) + len - 1,
            };
            v.push((
                "the engine's zero page",
                zp(l.zp_engine, crate::layout::ZP_ENGINE_BYTES),
            ));
            v.push((
                "the front end's zero page",
                zp(l.zp_console, crate::layout::ZP_CONSOLE_BYTES),
            ));
            v.push((
                "the protocol block",
                zp(l.proto, crate::layout::PROTO_BYTES),
            ));
            v.push((
                "the principal variation",
                AddrRange {
                    start: l.pv,
                    end: l.pv + crate::layout::PV_BYTES - 1,
                },
            ));
        }
        v
    }

    /// The plan's parts must not overlap (the 6502's principal variation may sit at the start
    /// of the engine's RAM, which leaves its first 96 bytes free), and each must be memory of the
    /// machine's personality: the program in RAM or ROM, the rest in RAM.
    fn check_memory(&self, program: &Program) -> Result<(), TargetError> {
        let plan = self.memory_plan(program);
        let fail = |m: String| Err(TargetError::Memory(self.id.to_string(), m));
        for (i, (a, ra)) in plan.iter().enumerate() {
            for (b, rb) in &plan[i + 1..] {
                let proto_in_engine = *a == "the engine's RAM and search frames"
                    && *b == "the principal variation"
                    && rb.start == ra.start;
                if ra.overlaps(rb) && !proto_in_engine {
                    return fail(format!(
                        "{a} (${:04X}-${:04X}) overlaps {b} (${:04X}-${:04X})",
                        ra.start, ra.end, rb.start, rb.end
                    ));
                }
            }
        }
        let Some(p) = Personality::built_in(&self.machine) else {
            return fail(format!(
                "there is no machine personality `{}`",
                self.machine
            ));
        };
        for (what, r) in &plan {
            for a in [r.start, r.end] {
                let kind = p.map.region_at(a).map(|reg| reg.kind);
                let ok = match kind {
                    Some(RegionKind::Ram) => true,
                    Some(RegionKind::Rom) => *what == "the program",
                    None => false,
                };
                if !ok {
                    return fail(format!(
                        "{what} (${:04X}-${:04X}) is not in the {} machine's {} at ${a:04X}",
                        r.start,
                        r.end,
                        p.id,
                        if *what == "the program" {
                            "memory"
                        } else {
                            "RAM"
                        }
                    ));
                }
            }
        }
        Ok(())
    }

    /// A Kempelen machine of the target's personality with the program file `file` loaded as
    /// `kempelen run FILE --machine ID` loads it (the file's own entry, else its first byte),
    /// under the machine's timing model (`kempelen run`'s default; docs/TIMING.md), with the
    /// program's symbols for traces and errors; ready to run.
    pub fn machine(
        &self,
        file: &[u8],
        symbols: Option<&SymbolTable>,
    ) -> Result<Machine, TargetError> {
        let fail = |m: String| TargetError::Memory(self.id.to_string(), m);
        let p = Personality::built_in(&self.machine).ok_or_else(|| {
            fail(format!(
                "there is no machine personality `{}`",
                self.machine
            ))
        })?;
        let format = ImageFormat::detect_file(&self.file, file);
        let loaded = loaders::parse_program(&self.file, file, format, p.load.unwrap_or(0))
            .map_err(|e| fail(e.to_string()))?;
        let mut b = p.builder();
        for c in &loaded.chunks {
            b = b.load(c.addr, &c.bytes);
        }
        if let Some(e) = loaded.entry {
            b = b.entry(e);
        }
        if let Some(s) = symbols {
            b = b.symbols(s.clone());
        }
        let model = Timing::Machine
            .model_for(p.clock.id)
            .map_err(|e| fail(e.to_string()))?;
        b.timing(model).build().map_err(|e| fail(e.to_string()))
    }

    /// The front end's text as the screen showed it, as it would have printed on a terminal:
    /// carriage returns dropped, the lines the screen's width broke (exactly
    /// `SCREEN_WIDTH` characters, the layout's) joined with the next. (A line of the front
    /// end that is exactly as wide as the screen is joined too; the board, the prompts and the
    /// replies are not.)
    pub fn unwrap_output(&self, text: &str) -> String {
        let text = text.replace('\r', "");
        let width = usize::from(self.layout.screen_width);
        if width == 0 {
            return text;
        }
        let mut out = String::new();
        for piece in text.split_inclusive('\n') {
            let line = piece.strip_suffix('\n').unwrap_or(piece);
            out.push_str(line);
            if line.chars().count() != width && piece.ends_with('\n') {
                out.push('\n');
            }
        }
        out
    }

    /// The engine (`engine.asm`, the host-protocol build) assembled at this target's layout,
    /// for the differential tests at every base a target uses.
    pub fn engine(&self) -> Result<PortEngine, TargetError> {
        PortEngine::assemble_at(self.port, &self.layout)
            .map_err(|e| TargetError::Engine(self.id.to_string(), e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_target_parses() {
        for id in ids() {
            let t = Target::by_id(id).unwrap();
            assert_eq!(t.id, *id);
            assert!(
                Personality::built_in(&t.machine).is_some(),
                "{id}: {}",
                t.machine
            );
        }
        assert!(Target::by_id("pdp-11").is_err());
    }

    #[test]
    fn a_bad_description_says_what() {
        let files: &'static [(&'static str, &'static str)] = &[("io.inc", "")];
        let text = "id = \"x\"\nname = \"x\"\ncpu = \"z80\"\nmachine = \"cpm\"\nformat = \"com\"\n\
            file = \"X\"\nhow_to_load = \"\"\nram_needed = \"\"\n[layout]\nload = \"0100\"\n\
            code = \"0180\"\nengine_ram = \"4000\"\nframe_limit = \"6000\"\nstack = \"7000-70FF\"\n\
            console_ram = \"3000\"\nscreen_width = 80\necho = true\nupper_case = false\n";
        let e = Target::parse("x", text, files).unwrap_err().to_string();
        assert!(e.contains("not a multiple of $100"), "{e}");
        let e = Target::parse("y", text, files).unwrap_err().to_string();
        assert!(e.contains("not the folder's name"), "{e}");
    }
}
