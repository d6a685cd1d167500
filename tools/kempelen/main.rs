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
// --- 8-bit engines (issue 5) ---
mod bench_chart;
mod bench_z80;
mod compare;
mod gen_tables;
mod history;
mod play;
// --- claims and search trees (issue 11) ---
mod claims;
mod tree;
// --- tournament (issue 10) ---
mod tournament;

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
    /// `--cpu z80`, the Z80 build's nodes/s at historical clocks, ROM, RAM by depth and profile.
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
    /// Play chess against the Z80 engine on the terminal (the console front end, run in the
    /// emulator).
    Play(play::PlayArgs),
    /// Compare the Z80 build with the native reference on an EPD suite (the bundled one by
    /// default): best move, score, PV and nodes; non-zero exit on any disagreement.
    Compare(compare::CompareArgs),
    /// Write roms-src/z80/tables.inc (tables shared by the native and Z80 engines).
    GenTables(gen_tables::GenTablesArgs),
    // --- claims and search trees (issue 11) ---
    /// Re-measure the documents' claims (search trees, branching factors, null move, NegaScout
    /// and MTD(f), bytes per ply, Elo per ply) and set Kempelen's figures beside them.
    Claims(claims::ClaimsArgs),
    /// Draw the tree a search visits (text, or SVG with --svg); by default the lost figure of
    /// the Tartan article (TOS 1/1991).
    Tree(tree::TreeArgs),
    // --- tournament (issue 10) ---
    /// Play a round robin or gauntlet among profiles and UCI/xboard engines: crosstable,
    /// ratings with 95 % margins, PGN.
    Tournament(tournament::TournamentArgs),
    /// Print the version and exit.
    Version,
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        // --- native engine (issue 2) ---
        Command::Perft(args) => perft::run(
            &args,
            engine_common::backend(kempelen_engine::Profile::Reference).as_mut(),
        ),
        Command::Search(args) => {
            search::run(&args, engine_common::backend(args.profile.into()).as_mut())
        }
        Command::Uci(args) => uci::run(&args, |p| engine_common::backend(p.into())),
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
        Command::Claims(args) => claims::run(&args),
        Command::Tree(args) => tree::run(&args),
        // --- tournament (issue 10) ---
        Command::Tournament(args) => tournament::run(&args),
        Command::Version => {
            println!("kempelen {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
    }
}
