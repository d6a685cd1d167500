//! `kempelen bench --cpu z80|6502`: an 8-bit build's figures on a suite (the bundled one by
//! default), every one from exact emulator counts, never from the host's clock:
//!
//! - speed: nodes and cycles of a search of every position to a fixed depth, turned into
//!   nodes per second at each of the port's historical machines (`nodes * clock / cycles`);
//! - ROM: bytes of the engine image and of the console front end;
//! - RAM by depth: peak RAM in use (distinct data bytes written + deepest stack) of searches
//!   to depth 1..8 on the RAM suite, and bytes per ply;
//! - the cycle profile of the speed run by routine and by part of the engine;
//! - with two builds (`--cpu z80,6502`), a side-by-side table of the CPUs on the same
//!   algorithm: cycles per node, code bytes, RAM, cycle share per part of the engine;
//! - on request (`--svg`), a chart of these figures beside the historical programs'
//!   (`kempelen_claims::chart`).
//!
//! The measuring is `kempelen_roms::bench` (a build's figures: `PortBench`), and so are the
//! tables (`bench::text`) and the JSON (`bench::json`); this module reads the options, prints,
//! and hands the figures to the chart.

use std::path::PathBuf;

use anyhow::bail;
use kempelen_emulator::Timing;
use kempelen_roms::bench::json::{hot_lines_json, side_by_side_json, to_json};
use kempelen_roms::bench::text::{hot_lines_text, side_by_side_text, to_text};
use kempelen_roms::bench::{self, BenchPlan};
use kempelen_roms::{Port, suite};
use serde_json::json;

use crate::engine_common::port_machine;

/// Default depth of the speed run: the bundled suite at depth 5 takes about 13 billion
/// T-states on the Z80, some 20 seconds of emulation on one core of the development machine.
pub const DEFAULT_DEPTH: u32 = 5;

/// What the command asks of the 8-bit bench (from `kempelen bench`'s arguments).
pub struct PortBenchOptions {
    /// The builds, in the order given.
    pub ports: Vec<&'static Port>,
    /// Depth of the speed run.
    pub depth: Option<u32>,
    /// The machine to highlight (must belong to every build; default each port's own).
    pub machine: Option<String>,
    /// Suite of the speed run.
    pub suite: Option<PathBuf>,
    /// Deepest depth of the RAM table.
    pub ram_depth: u32,
    /// Suite of the RAM table.
    pub ram_suite: Option<PathBuf>,
    /// Where to write the chart.
    pub svg: Option<PathBuf>,
    /// Threads.
    pub jobs: Option<usize>,
    /// JSON instead of text.
    pub json: bool,
    /// The machines' time (`machine`: each one's timing model) or the CPU clock's (`cpu`).
    pub timing: Timing,
    /// Print this many of the engine's hottest source lines.
    pub hot_lines: Option<usize>,
}

/// Runs the 8-bit bench.
pub fn run(o: &PortBenchOptions) -> anyhow::Result<()> {
    let depth = o.depth.unwrap_or(DEFAULT_DEPTH);
    if !(1..=32).contains(&depth) {
        bail!("--depth {depth}: the 8-bit engines search depths 1 to 32");
    }
    if !(1..=32).contains(&o.ram_depth) {
        bail!(
            "--ram-depth {}: the 8-bit engines search depths 1 to 32",
            o.ram_depth
        );
    }
    if o.hot_lines == Some(0) {
        bail!("--hot-lines must be at least 1");
    }
    let jobs = match o.jobs {
        Some(0) => bail!("--jobs must be at least 1"),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let suite = bench::load_suite(o.suite.as_deref(), suite::BUNDLED_NAME, suite::BUNDLED)?;
    let ram_suite = bench::load_suite(
        o.ram_suite.as_deref(),
        suite::RAM_SUITE_NAME,
        suite::RAM_SUITE,
    )?;
    if let Some(svg) = &o.svg {
        let inputs: Vec<_> = [&o.suite, &o.ram_suite]
            .into_iter()
            .flatten()
            .cloned()
            .collect();
        crate::output::check_outputs(&inputs, &[("--svg", svg.as_path())])?;
        crate::output::check_writable("--svg", svg)?;
    }
    let mut machines = Vec::new();
    for &port in &o.ports {
        machines.push(port_machine(port, o.machine.as_deref())?);
    }
    let benched: Vec<&str> = o
        .ports
        .iter()
        .flat_map(|p| p.clocks())
        .map(|c| c.id)
        .collect();
    o.timing
        .check_known(&benched)
        .map_err(|e| anyhow::anyhow!("--timing {}: {e}", o.timing))?;
    let plan = BenchPlan {
        suite: &suite,
        depth,
        ram_suite: &ram_suite,
        ram_depth: o.ram_depth,
        jobs,
        timing: o.timing.clone(),
    };
    let bar = crate::progress::bar(
        o.ports.iter().map(|&p| plan.searches_of(p)).sum(),
        "searches",
        o.json,
    );
    let ticker = crate::progress::Ticker::start("bench", &bar, o.json);
    let mut reports = Vec::new();
    for (&port, &machine) in o.ports.iter().zip(&machines) {
        reports.push(bench::measure(
            port,
            machine,
            &plan,
            &|m| bar.set_message(m),
            &|| bar.inc(1),
        )?);
    }
    drop(ticker);
    bar.finish_and_clear();
    if o.json {
        let build = |r| {
            let mut v = to_json(r);
            if let Some(n) = o.hot_lines {
                v["hot_lines"] = hot_lines_json(r, n);
            }
            v
        };
        let mut v = if reports.len() == 1 {
            build(&reports[0])
        } else {
            json!({ "builds": reports.iter().map(build).collect::<Vec<_>>() })
        };
        if reports.len() > 1 {
            v["side_by_side"] = side_by_side_json(&reports);
        }
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        for (i, r) in reports.iter().enumerate() {
            if i > 0 {
                println!();
            }
            print!("{}", to_text(r));
            if let Some(n) = o.hot_lines {
                println!();
                print!("{}", hot_lines_text(r, n));
            }
        }
        if reports.len() > 1 {
            println!();
            print!("{}", side_by_side_text(&reports));
        }
    }
    if let Some(path) = &o.svg {
        let svg = kempelen_claims::chart::draw(&reports)?;
        let inputs: Vec<_> = [&o.suite, &o.ram_suite]
            .into_iter()
            .flatten()
            .cloned()
            .collect();
        crate::output::write_output("--svg", path, svg.as_bytes(), &inputs)?;
        if !o.json {
            println!("chart written to {}", path.display());
        }
    }
    Ok(())
}
