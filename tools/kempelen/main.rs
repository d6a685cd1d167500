//! `kempelen`: the command line of the Kempelen toolkit.
//!
//! Every subcommand lives in its own module; this file only declares the command tree and
//! dispatches. Library crates return typed errors; this binary wraps them with `anyhow`.

use clap::{Parser, Subcommand};

// --- native engine (issue 2) ---
mod bench;
mod engine_common;
mod perft;
mod search;
mod uci;
// --- emulator (issue 3) ---
mod machines;
mod run;
// --- assembler (issue 4) ---
mod asm;
// --- defects (issue 13) ---
mod output;
// --- 8-bit engines (issue 5) ---
mod bench_port;
mod compare;
mod gen_tables;
mod play;
// --- tournament (issue 10) ---
mod tournament;
// --- claims and search trees (issue 11) ---
mod claims;
mod tree;

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
    /// Count the leaves of the legal move tree (perft), optionally per root move.
    Perft(perft::PerftArgs),
    /// Search a position and print best move, score, nodes and principal variation.
    Search(search::SearchArgs),
    /// Run as a UCI engine on standard input and output.
    Uci(uci::UciArgs),
    /// Search the fixed bench positions: deterministic node totals and speed per profile; with
    /// `--cpu z80|6502`, an 8-bit build's nodes/s at historical clocks, ROM, RAM by depth and
    /// profile (both CPUs side by side with `--cpu z80,6502`).
    Bench(bench::BenchArgs),
    // --- emulator (issue 3) ---
    /// Run an 8-bit program in Kempelen's machine: exact cycles, time at a historical clock.
    Run(run::RunArgs),
    /// List the clock profiles of the historical machines.
    Machines(machines::MachinesArgs),
    // --- assembler (issue 4) ---
    /// Assemble a Z80 or 6502 source into a binary (with listing and symbol file on request).
    Asm(asm::AsmArgs),
    /// Disassemble a binary as Z80 or 6502 source.
    Disasm(asm::DisasmArgs),
    // --- 8-bit engines (issue 5) ---
    /// Play chess against an 8-bit engine on the terminal (the console front end, run in the
    /// emulator).
    Play(play::PlayArgs),
    /// Compare the 8-bit builds with the native reference on an EPD suite (the bundled one by
    /// default): best move, score, PV and nodes; non-zero exit on any disagreement.
    Compare(compare::CompareArgs),
    /// Write the generated tables.inc of every 8-bit port present (tables shared with the
    /// native engine).
    GenTables(gen_tables::GenTablesArgs),
    // --- tournament (issue 10) ---
    /// Play a round robin or gauntlet among profiles and UCI/xboard engines: crosstable,
    /// ratings with 95 % margins, PGN.
    Tournament(tournament::TournamentArgs),
    // --- claims and search trees (issue 11) ---
    /// Re-measure the documents' claims (search trees, branching factors, null move, NegaScout
    /// and MTD(f), bytes per ply, Elo per ply) and set Kempelen's figures beside them.
    Claims(claims::ClaimsArgs),
    /// Draw the tree a search visits (text, or SVG with --svg); by default the lost figure of
    /// the Tartan article (TOS 1/1991).
    Tree(tree::TreeArgs),
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

fn main() -> anyhow::Result<()> {
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
        // --- native engine (issue 2) ---
        Command::Perft(args) => perft::run(
            &args,
            engine_common::backend(kempelen_engine::Profile::Reference).as_mut(),
        ),
        Command::Search(args) => search::run(&args, engine_common::backend(args.profile).as_mut()),
        Command::Uci(args) => uci::run(&args, engine_common::backend),
        Command::Bench(args) => bench::run(&args),
        // --- emulator (issue 3) ---
        Command::Run(args) => run::run(&args),
        Command::Machines(args) => machines::run(&args),
        // --- assembler (issue 4) ---
        Command::Asm(args) => asm::run_asm(args),
        Command::Disasm(args) => asm::run_disasm(args),
        // --- 8-bit engines (issue 5) ---
        Command::Play(args) => play::run(&args),
        Command::Compare(args) => {
            if !compare::run(&args)? {
                std::process::exit(1);
            }
            Ok(())
        }
        Command::GenTables(args) => gen_tables::run(&args),
        // --- tournament (issue 10) ---
        Command::Tournament(args) => tournament::run(&args),
        Command::Claims(args) => claims::run(&args),
        Command::Tree(args) => tree::run(&args),
        Command::Version => {
            println!("kempelen {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
    }
}
