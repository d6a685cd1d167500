//! `kempelen`: the command line of the Kempelen toolkit.
//!
//! Every subcommand lives in its own module; this file only declares the command tree and
//! dispatches. Library crates return typed errors; this binary wraps them with `anyhow`.

use clap::{Parser, Subcommand};

// --- assembler (issue 4) ---
mod asm;

#[derive(Parser)]
#[command(
    name = "kempelen",
    version,
    about = "A chess engine hidden inside an 8-bit computer"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    // --- native engine (issue 2) ---
    // --- emulator (issue 3) ---
    // --- assembler (issue 4) ---
    /// Assemble a Z80 or 6502 source into a binary (with listing and symbol file on request).
    Asm(asm::AsmArgs),
    /// Disassemble a binary as Z80 or 6502 source.
    Disasm(asm::DisasmArgs),
    // --- 8-bit engines (issue 5) ---
    /// Print the version and exit.
    Version,
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        // --- native engine (issue 2) ---
        // --- emulator (issue 3) ---
        // --- assembler (issue 4) ---
        Command::Asm(args) => asm::run_asm(args),
        Command::Disasm(args) => asm::run_disasm(args),
        // --- 8-bit engines (issue 5) ---
        Command::Version => {
            println!("kempelen {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
    }
}
