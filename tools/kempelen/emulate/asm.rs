//! `kempelen asm` and `kempelen disasm`: the cross-assembler and disassembler on the command
//! line (the work is done by the `kempelen-asm` library).

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::output::{Outputs, check_outputs};
use anyhow::{Context, bail};
use kempelen_asm::assemble::Overlap;
use kempelen_asm::source::{FsSource, SourceError, SourceProvider};
use kempelen_asm::{Cpu, Dialect, Options, SymbolTable, assemble, disassemble};
use std::cell::RefCell;

pub(crate) fn parse_overlap(text: &str) -> Result<Overlap, String> {
    text.parse()
}

pub(crate) fn parse_dialect(text: &str) -> Result<Dialect, String> {
    text.parse()
}

/// Arguments of `kempelen asm`.
#[derive(clap::Args, Debug)]
pub struct AsmArgs {
    /// The main source file.
    pub file: PathBuf,
    /// Instruction set: z80, 6502 or 65c02.
    #[arg(long)]
    pub cpu: Cpu,
    /// Symbols are case-insensitive (`POUT` and `pout` are one symbol), as in the
    /// assemblers of the 1970s.
    #[arg(long)]
    pub ignore_case: bool,
    /// Overlapping ORG areas: `error` (default, naming both lines) or `later-wins` (the later
    /// bytes win, with a warning naming both lines, as zmac does).
    #[arg(long, default_value = "error", value_parser = parse_overlap)]
    pub overlap: Overlap,
    /// Whose syntax the source is in: `kempelen` (default: Zilog's for the Z80, MOS's for
    /// the 6502) or `tdl` (Technical Design Labs' Z80 assembler of 1977: 8080-style mnemonics,
    /// `.LOC`, `.BLKB`, `.DEFINE` macros; the syntax of the 1978 Sargon book).
    #[arg(long, default_value = "kempelen", value_parser = parse_dialect)]
    pub dialect: Dialect,
    /// TDL: a `)` that closes nothing in a `.DEFINE` closes its `[` (the typo the text of the
    /// Sargon book, as typed, has twice).
    #[arg(long)]
    pub paren_closes_bracket: bool,
    /// Where to write the binary (default: the source name with `.bin`).
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// Also write a listing (address, bytes, cycles, source line) to this file.
    #[arg(long)]
    pub listing: Option<PathBuf>,
    /// Also write the symbol file (`NAME EQU $XXXX` lines) to this file.
    #[arg(long)]
    pub symbols: Option<PathBuf>,
    /// Print a JSON summary (outputs, size, diagnostics) on stdout instead of the text report.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `kempelen disasm`.
#[derive(clap::Args, Debug)]
pub struct DisasmArgs {
    /// The binary to disassemble.
    pub file: PathBuf,
    /// Instruction set: z80, 6502 or 65c02.
    #[arg(long)]
    pub cpu: Cpu,
    /// Load address of the first byte, hex like every address flag (8000, $8000, 0x8000,
    /// 8000h; decimal with #: #32768).
    #[arg(long, value_parser = parse_address, default_value = "0")]
    pub org: u16,
    /// A symbol file (as written by `kempelen asm --symbols`) to name addresses with.
    #[arg(long)]
    pub symbols: Option<PathBuf>,
    /// Print the instructions as JSON (address, bytes, text, cycles, label) instead of source.
    #[arg(long)]
    pub json: bool,
    /// Spell the instructions as `kempelen` (default: Zilog's Z80 syntax, MOS's 6502 syntax)
    /// or `tdl` (TDL's Z80 syntax, which `kempelen asm --dialect tdl` assembles back).
    #[arg(long, default_value = "kempelen", value_parser = parse_dialect)]
    pub dialect: Dialect,
}

/// An address flag (`--org` here, `--load`, `--entry`, `--sp`, `--io-page` and the ranges of
/// `run`): one rule for all, the emulator's. Hex by default, as 8-bit listings write
/// addresses (`8000`, `$8000`, `0x8000`, `8000h`); decimal with `#` (`#32768`).
pub fn parse_address(text: &str) -> Result<u16, String> {
    kempelen_emulator::memory::parse_addr(text).ok_or_else(|| {
        format!("'{text}' is not an address from 0 to FFFF (hex: 8000, $8000, 0x8000, 8000h; decimal: #32768)")
    })
}

/// The file system, remembering every file the assembler reads (the main source, included
/// sources, `INCBIN` files), so that no output can replace one of them.
#[derive(Default)]
struct RecordingSource {
    read: RefCell<Vec<PathBuf>>,
}

impl SourceProvider for RecordingSource {
    fn resolve(&self, from: Option<&str>, name: &str) -> String {
        FsSource.resolve(from, name)
    }

    fn read(&self, path: &str) -> Result<Vec<u8>, SourceError> {
        self.read.borrow_mut().push(PathBuf::from(path));
        FsSource.read(path)
    }
}

/// Assembles; prints every diagnostic to stderr; writes the outputs only if there were no
/// errors, none of them names an input or another output, and every one can be written.
pub fn run_asm(args: AsmArgs) -> anyhow::Result<()> {
    let main = args.file.to_string_lossy().into_owned();
    let source = RecordingSource::default();
    let options = Options {
        ignore_case: args.ignore_case,
        overlap: args.overlap,
        dialect: args.dialect,
        paren_closes_bracket: args.paren_closes_bracket,
        ..Options::new(args.cpu)
    };
    let out = assemble(&main, &source, &options);
    let (output, output_flag) = match &args.output {
        Some(path) => (path.clone(), "-o"),
        None => (args.file.with_extension("bin"), "the default output (-o)"),
    };
    if args.json {
        let diagnostics: Vec<serde_json::Value> = out
            .diagnostics
            .iter()
            .map(|d| {
                serde_json::json!({
                    "severity": if d.is_error() { "error" } else { "warning" },
                    "file": d.file,
                    "line": d.line,
                    "col": d.col,
                    "message": d.message,
                    "notes": d.notes,
                })
            })
            .collect();
        let json = serde_json::json!({
            "file": main,
            "cpu": args.cpu.to_string(),
            "ok": out.is_ok(),
            "output": out.is_ok().then(|| output.display().to_string()),
            "origin": out.image.origin,
            "bytes": out.image.bytes.len(),
            "symbols": out.symbols.len(),
            "passes": out.passes,
            "diagnostics": diagnostics,
        });
        // Written after the outputs below, so the summary is only printed for a finished run.
        let result = write_asm_outputs(&args, &out, &source, &output, output_flag);
        if result.is_ok() || !out.is_ok() {
            println!("{}", serde_json::to_string_pretty(&json)?);
        }
        if !out.is_ok() {
            std::process::exit(1);
        }
        return result;
    }
    eprint!("{}", out.report());
    if !out.is_ok() {
        // The diagnostics above say everything; exit without a second error report.
        eprintln!(
            "kempelen asm: no output written for {}",
            args.file.display()
        );
        std::process::exit(1);
    }
    write_asm_outputs(&args, &out, &source, &output, output_flag)?;
    eprintln!(
        "{}: {} bytes at ${:04X}..${:04X}, {} symbols, {} passes",
        output.display(),
        out.image.bytes.len(),
        out.image.origin,
        out.image.origin as usize + out.image.bytes.len().saturating_sub(1),
        out.symbols.len(),
        out.passes
    );
    Ok(())
}

/// Checks the outputs against the inputs and each other, then writes all of them or none.
fn write_asm_outputs(
    args: &AsmArgs,
    out: &kempelen_asm::Assembly,
    source: &RecordingSource,
    output: &Path,
    output_flag: &str,
) -> anyhow::Result<()> {
    if !out.is_ok() {
        return Ok(());
    }
    let mut inputs = source.read.borrow().clone();
    inputs.push(args.file.clone());
    let mut outputs: Vec<(&str, &Path)> = vec![(output_flag, output)];
    if let Some(path) = &args.listing {
        outputs.push(("--listing", path));
    }
    if let Some(path) = &args.symbols {
        outputs.push(("--symbols", path));
    }
    check_outputs(&inputs, &outputs)?;
    let mut staged = Outputs::new();
    staged.stage(output, &out.image.bytes)?;
    if let Some(path) = &args.listing {
        staged.stage(path, out.listing.to_string().as_bytes())?;
    }
    if let Some(path) = &args.symbols {
        staged.stage(path, out.symbols.to_string().as_bytes())?;
    }
    staged.commit()
}

/// Prints the disassembly as source that assembles back to the same bytes.
pub fn run_disasm(args: DisasmArgs) -> anyhow::Result<()> {
    let bytes = read_image(&args.file)?;
    if bytes.len() > 0x10000 {
        bail!(
            "{}: more than 65536 bytes; an 8-bit CPU addresses 64 KB, cut the image first",
            args.file.display()
        );
    }
    if bytes.len() + usize::from(args.org) > 0x10000 {
        bail!(
            "{}: {} bytes loaded at --org ${:04X} run past $FFFF; choose an --org of at most ${:04X}",
            args.file.display(),
            bytes.len(),
            args.org,
            0x10000 - bytes.len()
        );
    }
    if args.dialect == Dialect::Tdl && args.cpu != Cpu::Z80 {
        bail!(
            "--dialect tdl spells the Z80 (TDL's Z80 assembler), not the {}",
            args.cpu.title()
        );
    }
    let symbols = match &args.symbols {
        Some(path) => {
            let text = read_symbols(path)?;
            Some(SymbolTable::parse(&text).with_context(|| format!("in {}", path.display()))?)
        }
        None => None,
    };
    let spell = |d: &kempelen_asm::Decoded| match args.dialect {
        Dialect::Tdl => kempelen_asm::isa::tdl::text(d, symbols.as_ref()),
        Dialect::Kempelen => d.text(),
    };
    if args.json {
        let decoded = disassemble(args.cpu, &bytes, args.org, symbols.as_ref());
        let instructions: Vec<serde_json::Value> = decoded
            .iter()
            .map(|d| {
                serde_json::json!({
                    "addr": d.addr,
                    "bytes": d.bytes(),
                    "text": spell(d),
                    "cycles": d.cycles.to_string(),
                    "documented": d.is_documented(),
                    "label": symbols.as_ref().and_then(|t| t.name_at(d.addr)),
                })
            })
            .collect();
        let json = serde_json::json!({
            "file": args.file.display().to_string(),
            "cpu": args.cpu.to_string(),
            "org": args.org,
            "bytes": bytes.len(),
            "instructions": instructions,
        });
        println!("{}", serde_json::to_string_pretty(&json)?);
        return Ok(());
    }
    print!(
        "{}",
        disassembly(
            args.cpu,
            args.dialect,
            &bytes,
            args.org,
            symbols.as_ref(),
            &args.file.to_string_lossy()
        )
    );
    Ok(())
}

/// The bytes of the image at `path`, refusing more than 64 KB (an 8-bit address space) without
/// reading an endless file to its end.
fn read_image(path: &Path) -> anyhow::Result<Vec<u8>> {
    use std::io::Read;
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(0x10001)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {}", path.display()))?;
    Ok(bytes)
}

/// A symbol file, at most 16 MiB (so `--symbols /dev/zero` ends), as UTF-8 text.
pub(crate) fn read_symbols(path: &Path) -> anyhow::Result<String> {
    use std::io::Read;
    let limit = kempelen_asm::source::MAX_FILE_BYTES;
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {}", path.display()))?;
    if bytes.len() as u64 > limit {
        bail!("{}: larger than 16 MiB, not a symbol file", path.display());
    }
    String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
        anyhow::anyhow!("{}:{line}: the line is not valid UTF-8", path.display())
    })
}

/// The text `kempelen disasm` prints, in the spelling of `dialect`.
pub fn disassembly(
    cpu: Cpu,
    dialect: Dialect,
    bytes: &[u8],
    org: u16,
    symbols: Option<&SymbolTable>,
    name: &str,
) -> String {
    let decoded = disassemble(cpu, bytes, org, symbols);
    let starts: BTreeSet<u16> = decoded.iter().map(|d| d.addr).collect();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "; {name}: {} bytes, {cpu}, disassembled by kempelen",
        bytes.len()
    );
    // Symbols the operands use that will not be labels of this listing.
    if let Some(table) = symbols {
        let mut outside = BTreeSet::new();
        for d in &decoded {
            if let Some(t) = d.target
                && let Some(n) = table.name_at(t)
                && !starts.contains(&t)
            {
                outside.insert((t, n.to_string()));
            }
        }
        for (value, name) in outside {
            match dialect {
                Dialect::Tdl => {
                    let _ = writeln!(out, "{name} = {}", kempelen_asm::isa::tdl::hex(value, 4));
                }
                Dialect::Kempelen => {
                    let _ = writeln!(out, "{name} EQU ${value:04X}");
                }
            }
        }
    }
    match dialect {
        Dialect::Tdl => {
            let _ = writeln!(out, "        .LOC {}", kempelen_asm::isa::tdl::hex(org, 4));
        }
        Dialect::Kempelen => {
            let _ = writeln!(out, "        ORG ${org:04X}");
        }
    }
    for d in &decoded {
        if let Some(name) = symbols.and_then(|t| t.name_at(d.addr)) {
            let _ = writeln!(out, "{name}:");
        }
        let cycles = if d.is_documented() || d.cycles.base > 0 {
            d.cycles.to_string()
        } else {
            String::new()
        };
        let text = match dialect {
            Dialect::Tdl => kempelen_asm::isa::tdl::text(d, symbols),
            Dialect::Kempelen => d.text(),
        };
        let _ = writeln!(
            out,
            "        {:<24}; {:04X}  {:<12} {cycles}",
            text,
            d.addr,
            kempelen_asm::isa::hex_bytes(d.bytes())
        );
    }
    out
}
