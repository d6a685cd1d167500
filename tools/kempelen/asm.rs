//! `kempelen asm` and `kempelen disasm`: the cross-assembler and disassembler on the command
//! line (the work is done by the `kempelen-asm` library).

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context;
use kempelen_asm::assemble::Overlap;
use kempelen_asm::source::FsSource;
use kempelen_asm::{Cpu, Options, SymbolTable, assemble, disassemble};

fn parse_overlap(text: &str) -> Result<Overlap, String> {
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
    /// Where to write the binary (default: the source name with `.bin`).
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// Also write a listing (address, bytes, cycles, source line) to this file.
    #[arg(long)]
    pub listing: Option<PathBuf>,
    /// Also write the symbol file (`NAME EQU $XXXX` lines) to this file.
    #[arg(long)]
    pub symbols: Option<PathBuf>,
}

/// Arguments of `kempelen disasm`.
#[derive(clap::Args, Debug)]
pub struct DisasmArgs {
    /// The binary to disassemble.
    pub file: PathBuf,
    /// Instruction set: z80, 6502 or 65c02.
    #[arg(long)]
    pub cpu: Cpu,
    /// Load address of the first byte ($8000, 0x8000, 8000h or decimal).
    #[arg(long, value_parser = parse_address, default_value = "0")]
    pub org: u16,
    /// A symbol file (as written by `kempelen asm --symbols`) to name addresses with.
    #[arg(long)]
    pub symbols: Option<PathBuf>,
}

/// `$8000`, `0x8000`, `8000h` or decimal.
pub fn parse_address(text: &str) -> Result<u16, String> {
    let lower = text.trim().to_ascii_lowercase();
    let parsed = if let Some(hex) = lower.strip_prefix('$').or_else(|| lower.strip_prefix("0x")) {
        u16::from_str_radix(hex, 16)
    } else if let Some(hex) = lower.strip_suffix('h') {
        u16::from_str_radix(hex, 16)
    } else {
        lower.parse()
    };
    parsed.map_err(|_| format!("'{text}' is not an address from 0 to $FFFF"))
}

/// Assembles; prints every diagnostic to stderr; writes the outputs only if there were no
/// errors.
pub fn run_asm(args: AsmArgs) -> anyhow::Result<()> {
    let main = args.file.to_string_lossy().into_owned();
    let options = Options {
        ignore_case: args.ignore_case,
        overlap: args.overlap,
        ..Options::new(args.cpu)
    };
    let out = assemble(&main, &FsSource, &options);
    eprint!("{}", out.report());
    if !out.is_ok() {
        // The diagnostics above say everything; exit without a second error report.
        eprintln!(
            "kempelen asm: no output written for {}",
            args.file.display()
        );
        std::process::exit(1);
    }
    let output = args
        .output
        .unwrap_or_else(|| args.file.with_extension("bin"));
    write(&output, &out.image.bytes)?;
    if let Some(path) = &args.listing {
        write(path, out.listing.to_string().as_bytes())?;
    }
    if let Some(path) = &args.symbols {
        write(path, out.symbols.to_string().as_bytes())?;
    }
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

fn write(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}

/// Prints the disassembly as source that assembles back to the same bytes.
pub fn run_disasm(args: DisasmArgs) -> anyhow::Result<()> {
    let bytes = std::fs::read(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let symbols = match &args.symbols {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            Some(SymbolTable::parse(&text).with_context(|| format!("in {}", path.display()))?)
        }
        None => None,
    };
    print!(
        "{}",
        disassembly(
            args.cpu,
            &bytes,
            args.org,
            symbols.as_ref(),
            &args.file.to_string_lossy()
        )
    );
    Ok(())
}

/// The text `kempelen disasm` prints.
pub fn disassembly(
    cpu: Cpu,
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
            let _ = writeln!(out, "{name} EQU ${value:04X}");
        }
    }
    let _ = writeln!(out, "        ORG ${org:04X}");
    for d in &decoded {
        if let Some(name) = symbols.and_then(|t| t.name_at(d.addr)) {
            let _ = writeln!(out, "{name}:");
        }
        let hex: Vec<String> = d.bytes().iter().map(|b| format!("{b:02X}")).collect();
        let cycles = if d.is_documented() || d.cycles.base > 0 {
            d.cycles.to_string()
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "        {:<24}; {:04X}  {:<12} {cycles}",
            d.text(),
            d.addr,
            hex.join(" ")
        );
    }
    out
}
