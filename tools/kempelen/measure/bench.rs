//! `kempelen bench`: the fixed bench positions at a fixed depth per profile, printing each
//! position's nodes, the deterministic node total and the speed. `--cpu z80`, `--cpu 6502` or
//! both (`--cpu z80,6502`) run the 8-bit builds' bench instead (`port_bench`); `--program
//! FILE.toml` measures a historical program on its machine (`program_bench`).

use crate::engine_common::{CpuArg, backend, nps};
use kempelen_engine::{Profile, bench};
use serde_json::json;
use std::time::Duration;

/// `--profile` values of the bench.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum BenchProfile {
    /// The reference profile only.
    Reference,
    /// The full profile only.
    Full,
    /// Both, one after the other.
    Both,
}

/// Arguments of `kempelen bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Which profile(s) to run (native engine; default both).
    #[arg(long, value_enum)]
    pub profile: Option<BenchProfile>,
    /// Depth instead of the default (native: reference 6, full 12; 8-bit builds: 5); changes
    /// the node total.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Which engine: `native` (the default) or 8-bit builds, one or both (`--cpu z80,6502`,
    /// which adds a side-by-side table of the CPUs): nodes/s at the historical clocks, ROM
    /// bytes, RAM by depth, cycle profile.
    #[arg(long, value_enum, value_delimiter = ',', value_name = "CPU")]
    pub cpu: Vec<CpuArg>,
    /// 8-bit: the machine to highlight (see `kempelen machines`; default zx-spectrum for the
    /// Z80, kim-1 for the 6502).
    #[arg(long, value_name = "ID")]
    pub machine: Option<String>,
    /// 8-bit: EPD suite of the speed run and profile (default: the bundled tests/data/suite.epd);
    /// --program: the positions (default: the bench positions, engine/data/bench.epd).
    #[arg(long, value_name = "FILE")]
    pub suite: Option<std::path::PathBuf>,
    /// 8-bit: the RAM table measures depths 1 to N (default 8).
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub ram_depth: u32,
    /// 8-bit: EPD suite of the RAM table (default: the bundled tests/data/ram.epd).
    #[arg(long, value_name = "FILE")]
    pub ram_suite: Option<std::path::PathBuf>,
    /// 8-bit: write the chart (every build benched beside the historical programs) as SVG to
    /// FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<std::path::PathBuf>,
    /// 8-bit: threads searching positions side by side (default: the host's cores); the
    /// figures do not depend on it.
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// 8-bit: `machine` (default) repeats the speed run under every machine's timing model
    /// and reports each machine as it ran beside its CPU clock's figure; `cpu` reports the CPU
    /// clock's alone (one run); a model's id picks it where a machine has it.
    #[arg(long, value_name = "MODEL", value_parser = crate::engine_common::parse_timing)]
    pub timing: Option<kempelen_emulator::Timing>,
    /// A historical program's speed on its own machine (repeatable): its adaptor file
    /// (adaptors/); it searches the bench positions at each level, and its positions per second
    /// at the machine's clock are its counted node routine's entries per emulated second.
    #[arg(long, value_name = "FILE.toml")]
    pub program: Vec<std::path::PathBuf>,
    /// --program: the levels to search (default: those of the adaptor file's time model).
    #[arg(long, value_delimiter = ',', value_name = "N")]
    pub level: Vec<u32>,
    /// --program: only the first N positions.
    #[arg(long, value_name = "N")]
    pub positions: Option<usize>,
    /// --program: also write the figures as JSON to FILE (the bench chart's data file is
    /// docs/history/program-speed.json).
    #[arg(long, value_name = "FILE")]
    pub save: Option<std::path::PathBuf>,
    /// 8-bit: also print the N source lines of the engine with the most cycles in the speed
    /// run (file:line, cycles, share, executions, routine, the line), under each build's
    /// tables (`--json`: `hot_lines` in each build).
    #[arg(long, value_name = "N")]
    pub hot_lines: Option<usize>,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
}

/// Runs the command.
pub fn run(args: &BenchArgs) -> anyhow::Result<()> {
    if !args.program.is_empty() {
        return run_programs(args);
    }
    for (given, name) in [
        (!args.level.is_empty(), "--level"),
        (args.positions.is_some(), "--positions"),
        (args.save.is_some(), "--save"),
    ] {
        if given {
            anyhow::bail!("{name} belongs to the program bench: add --program FILE.toml");
        }
    }
    let mut ports = Vec::new();
    for &cpu in &args.cpu {
        if let Some(port) = crate::engine_common::present_port(cpu)? {
            if !ports.iter().any(|p: &&kempelen_roms::Port| p.id == port.id) {
                ports.push(port);
            }
        }
    }
    if !ports.is_empty() {
        if args.cpu.contains(&CpuArg::Native) {
            anyhow::bail!("--cpu native: bench the native engine and the 8-bit builds separately");
        }
        if matches!(args.profile, Some(BenchProfile::Full | BenchProfile::Both)) {
            anyhow::bail!(
                "--profile: the 8-bit builds run the reference profile only (the full profile is the native engine's)"
            );
        }
        return run_ports(args, ports);
    }
    for (given, name) in [
        (args.machine.is_some(), "--machine"),
        (args.suite.is_some(), "--suite"),
        (args.ram_suite.is_some(), "--ram-suite"),
        (args.svg.is_some(), "--svg"),
        (args.jobs.is_some(), "--jobs"),
        (args.timing.is_some(), "--timing"),
        (args.hot_lines.is_some(), "--hot-lines"),
    ] {
        if given {
            anyhow::bail!("{name} belongs to the 8-bit bench: add --cpu z80 or --cpu 6502");
        }
    }
    run_native(args)
}

/// `--program`: the historical programs' bench, with the flags that belong to the others
/// refused.
fn run_programs(args: &BenchArgs) -> anyhow::Result<()> {
    for (given, name) in [
        (!args.cpu.is_empty(), "--cpu"),
        (args.profile.is_some(), "--profile"),
        (
            args.depth.is_some(),
            "--depth (a program's depth is its --level)",
        ),
        (
            args.machine.is_some(),
            "--machine (a program runs on its adaptor file's machine)",
        ),
        (args.ram_suite.is_some(), "--ram-suite"),
        (
            args.svg.is_some(),
            "--svg (the chart draws the programs' figures from docs/history/program-speed.json)",
        ),
        (args.jobs.is_some(), "--jobs"),
        (args.timing.is_some(), "--timing"),
        (args.hot_lines.is_some(), "--hot-lines"),
    ] {
        if given {
            anyhow::bail!("{name} does not go with --program: bench the programs on their own");
        }
    }
    super::program_bench::run(&super::program_bench::ProgramBenchOptions {
        programs: args.program.clone(),
        levels: args.level.clone(),
        suite: args.suite.clone(),
        positions: args.positions,
        json: args.json,
        save: args.save.clone(),
    })
}

/// `--cpu z80|6502`: the 8-bit builds' bench.
fn run_ports(args: &BenchArgs, ports: Vec<&'static kempelen_roms::Port>) -> anyhow::Result<()> {
    super::port_bench::run(&super::port_bench::PortBenchOptions {
        ports,
        depth: args.depth,
        machine: args.machine.clone(),
        suite: args.suite.clone(),
        ram_depth: args.ram_depth,
        ram_suite: args.ram_suite.clone(),
        svg: args.svg.clone(),
        jobs: args.jobs,
        json: args.json,
        timing: args.timing.clone().unwrap_or_default(),
        hot_lines: args.hot_lines,
    })
}

/// The native engine's bench: each profile's positions at its depth, nodes and speed.
fn run_native(args: &BenchArgs) -> anyhow::Result<()> {
    let profiles: &[Profile] = match args.profile.unwrap_or(BenchProfile::Both) {
        BenchProfile::Reference => &[Profile::Reference],
        BenchProfile::Full => &[Profile::Full],
        BenchProfile::Both => &[Profile::Reference, Profile::Full],
    };
    if args.depth == Some(0) {
        anyhow::bail!("--depth must be at least 1");
    }
    let mut reports = Vec::new();
    for &profile in profiles {
        let depth = args.depth.unwrap_or_else(|| bench::default_depth(profile));
        let mut engine = backend(profile);
        if !args.json {
            println!("profile {profile}, depth {depth}");
        }
        let json_mode = args.json;
        let entries = bench::run(engine.as_mut(), depth, |e| {
            if !json_mode {
                println!(
                    "  {:<28} {:>6} {:>7} {:>12} nodes {:>9.3} s",
                    e.position.name,
                    e.best,
                    kempelen_engine::uci::format_score(e.score),
                    e.nodes,
                    e.time.as_secs_f64()
                );
            }
        })?;
        let nodes: u64 = entries.iter().map(|e| e.nodes).sum();
        let time: Duration = entries.iter().map(|e| e.time).sum();
        if !args.json {
            println!(
                "  total {nodes} nodes in {:.3} s, {} nodes/s",
                time.as_secs_f64(),
                nps(nodes, time)
            );
        }
        reports.push(json!({
            "profile": profile.to_string(),
            "depth": depth,
            "positions": entries.iter().map(|e| json!({
                "name": e.position.name,
                "fen": e.position.fen,
                "best": e.best,
                "score": e.score,
                "nodes": e.nodes,
                "time_ms": crate::output::millis(e.time),
            })).collect::<Vec<_>>(),
            "nodes": nodes,
            "time_ms": crate::output::millis(time),
            "nodes_per_second": nps(nodes, time),
        }));
    }
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&json!({ "profiles": reports }))?
        );
    }
    Ok(())
}
