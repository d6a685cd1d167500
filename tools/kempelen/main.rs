//! `kempelen`: the command line of the Kempelen toolkit.
//!
//! Every subcommand lives in its own module, grouped by what a user does, as the README groups
//! the commands: [`play`], [`compare`], [`measure`], [`learn`] (the historical programs) and
//! [`emulate`] (assemble and emulate); [`engine_common`] and [`output`] hold the flags and
//! checks they share. This file only declares the command tree (in the order `kempelen --help`
//! lists it) and dispatches. Library crates return typed errors; this binary wraps them with
//! `anyhow`.

use clap::{Parser, Subcommand};

mod compare;
mod emulate;
mod engine_common;
mod learn;
mod measure;
mod output;
mod play;
mod progress;

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
    /// Count the leaves of the legal move tree (perft), optionally per root move.
    Perft(compare::perft::PerftArgs),
    /// Search a position and print best move, score, nodes and principal variation.
    Search(compare::search::SearchArgs),
    /// Run as a UCI engine on standard input and output.
    Uci(play::uci::UciArgs),
    /// Search the fixed bench positions: deterministic node totals and speed per profile; with
    /// `--cpu z80|6502`, an 8-bit build's nodes/s at historical clocks, ROM, RAM by depth and
    /// profile (both CPUs side by side with `--cpu z80,6502`).
    Bench(measure::bench::BenchArgs),
    /// Run an 8-bit program in Kempelen's machine: exact cycles, time at a historical clock.
    Run(emulate::run::RunArgs),
    /// List the clock profiles of the historical machines.
    Machines(learn::machines::MachinesArgs),
    /// Assemble a Z80 or 6502 source into a binary (with listing and symbol file on request).
    Asm(emulate::asm::AsmArgs),
    /// Disassemble a binary as Z80 or 6502 source.
    Disasm(emulate::asm::DisasmArgs),
    /// Play chess against an 8-bit engine on the terminal (the console front end, run in the
    /// emulator).
    Play(play::game::PlayArgs),
    /// Write the console game (front end and engine) as a program file for a real computer:
    /// CP/M .COM, ZX Spectrum .tap, MSX cartridge, TRS-80 /CMD, C64 .prg, Apple II binary,
    /// Atari .xex, KIM-1 paper tape, a py65 image.
    Build(play::build::BuildArgs),
    /// Compare the 8-bit builds with the native reference on an EPD suite (the bundled one by
    /// default): best move, score, PV and nodes; non-zero exit on any disagreement.
    Compare(compare::builds::CompareArgs),
    /// Write the generated tables.inc of every 8-bit port present (tables shared with the
    /// native engine).
    GenTables(emulate::gen_tables::GenTablesArgs),
    /// Play a round robin or gauntlet among profiles and UCI/xboard engines: crosstable,
    /// ratings with 95 % margins, PGN.
    Tournament(learn::tournament::TournamentArgs),
    /// Crosstable and ratings with 95 % margins from PGN files (the slices of a tournament
    /// played with `--shard`, or any games).
    Ratings(learn::tournament::RatingsArgs),
    /// Re-measure the documents' claims (search trees, branching factors, null move, NegaScout
    /// and MTD(f), bytes per ply, Elo per ply) and set Kempelen's figures beside them.
    Claims(learn::claims::ClaimsArgs),
    /// Draw the tree a search visits (text, or SVG with --svg); by default the lost figure of
    /// the Tartan article (TOS 1/1991).
    Tree(learn::tree::TreeArgs),
    /// Step through an adapted historical program's own listing as it chooses a move: set up
    /// in a position, run to breakpoints by label or line, print each stop's source line with
    /// its comment, the registers and the variables its adaptor file declares.
    Debug(learn::debug::DebugArgs),
    /// Print the version and exit.
    Version,
}

/// Dies quietly from SIGPIPE when the reader of standard output goes away (`kempelen disasm
/// big.bin | head -1`), as Unix tools do, instead of panicking on the failed write. Rust
/// ignores SIGPIPE by default; this restores the system's default action. The tournament calls
/// it once its games are over (engine pipes may close while they are played).
pub(crate) fn exit_quietly_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: called at the start of main, before any other thread exists, or by the tournament
    // after its game threads have ended; SIG_DFL is a valid disposition for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// A write past the file-size limit (`ulimit -f`) fails with an error that the command reports
/// (its outputs are written to temporary files first, so nothing is destroyed) instead of
/// killing the process with SIGXFSZ.
fn report_oversized_writes() {
    #[cfg(unix)]
    // SAFETY: called at the start of main, before any other thread exists; SIG_IGN is a valid
    // disposition for SIGXFSZ.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

fn main() -> anyhow::Result<()> {
    report_oversized_writes();
    let cli = Cli::parse();
    // The tournament writes to engine processes, which may die: there a closed pipe must be an
    // error to handle (a forfeit), not the end of Kempelen.
    if !matches!(cli.command, Command::Tournament(_)) {
        exit_quietly_on_closed_pipe();
    }
    // `KEMPELEN_PARSE_ONLY=1`: check the command line and stop (the README test runs every
    // documented command this way).
    if std::env::var_os("KEMPELEN_PARSE_ONLY").is_some() {
        println!("command line ok");
        return Ok(());
    }
    match cli.command {
        // --- play ---
        Command::Play(args) => play::game::run(&args),
        Command::Build(args) => play::build::run(&args),
        Command::Uci(args) => play::uci::run(&args, engine_common::backend),
        // --- compare ---
        Command::Compare(args) => {
            if !compare::builds::run(&args)? {
                std::process::exit(1);
            }
            Ok(())
        }
        Command::Search(args) => {
            compare::search::run(&args, engine_common::backend(args.profile).as_mut())
        }
        Command::Perft(args) => compare::perft::run(
            &args,
            engine_common::backend(kempelen_engine::Profile::Reference).as_mut(),
        ),
        // --- measure ---
        Command::Bench(args) => measure::bench::run(&args),
        // --- learn the historical programs ---
        Command::Tournament(args) => learn::tournament::run(&args),
        Command::Ratings(args) => learn::tournament::ratings(&args),
        Command::Claims(args) => learn::claims::run(&args),
        Command::Tree(args) => learn::tree::run(&args),
        Command::Debug(args) => learn::debug::run(&args),
        Command::Machines(args) => learn::machines::run(&args),
        // --- assemble and emulate ---
        Command::Asm(args) => emulate::asm::run_asm(args),
        Command::Disasm(args) => emulate::asm::run_disasm(args),
        Command::Run(args) => emulate::run::run(&args),
        Command::GenTables(args) => emulate::gen_tables::run(&args),
        Command::Version => {
            println!("kempelen {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
    }
}
