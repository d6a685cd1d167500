//! `kempelen bench --cpu z80`: the Z80 build's figures on a suite (the bundled one by
//! default), every one from exact emulator counts, never from the host's clock:
//!
//! - speed: nodes and T-states of a search of every position to a fixed depth, turned into
//!   nodes per second at each historical Z80 clock (`nodes * clock / T-states`);
//! - ROM: bytes of the engine image and of the console front end;
//! - RAM by depth: peak RAM in use (distinct data bytes written + deepest stack) of searches
//!   to depth 1..8 on the RAM suite, and bytes per ply;
//! - the cycle profile of the speed run by routine and by part of the engine;
//! - on request (`--svg`), a chart of these figures beside the historical programs'
//!   (`history.rs`).
//!
//! The measuring is `kempelen_roms::bench`; this module reads the options, prints and draws.

use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};
use kempelen_emulator::{ClockProfile, Cpu, MACHINES};
use kempelen_roms::bench::{self, BenchPosition, ProfileSummary, RamReport, SpeedReport};
use kempelen_roms::console::ConsoleRom;
use kempelen_roms::{Z80Engine, suite};
use serde_json::json;

use crate::bench::{BenchArgs, BenchProfile};
use crate::engine_common::z80_machine;
use crate::run::grouped;

/// Default depth of the speed run: the bundled suite at depth 5 takes about 13 billion
/// T-states, some 20 seconds of emulation on one core of the development machine.
pub const DEFAULT_DEPTH: u32 = 5;

/// Routines listed in the profile table.
const TOP_ROUTINES: usize = 15;

/// The targets of issue 5 for the Z80 build.
pub const TARGET_NPS_AT_3_5_MHZ: f64 = 340.0;
/// Engine ROM at most 8 KB.
pub const TARGET_ROM: usize = 8192;
/// RAM of a depth-8 search at most 4 KB.
pub const TARGET_RAM_DEPTH8: u32 = 4096;
/// Bytes per ply at most 128.
pub const TARGET_BYTES_PER_PLY: f64 = 128.0;

/// Everything the bench measured, for the text, the JSON and the chart.
pub struct Z80Bench {
    /// Suite of the speed run.
    pub suite: String,
    /// The speed run (with the profile).
    pub speed: SpeedReport,
    /// Suite of the RAM table.
    pub ram_suite: String,
    /// The RAM table.
    pub ram: RamReport,
    /// Bytes of the engine image (`engine.asm`).
    pub rom_engine: usize,
    /// The console front end's ROM: (whole image, engine part, front end part).
    pub rom_console: (usize, usize, usize),
    /// The highlighted machine.
    pub machine: &'static ClockProfile,
    /// Host time of the measurement (not a figure of the Z80 build).
    pub host: Duration,
    /// Threads used.
    pub jobs: usize,
}

impl Z80Bench {
    /// The Z80 machines of the clock profiles, slowest first.
    pub fn clocks() -> Vec<&'static ClockProfile> {
        let mut v: Vec<&'static ClockProfile> =
            MACHINES.iter().filter(|m| m.cpu == Cpu::Z80).collect();
        v.sort_by(|a, b| a.mhz.total_cmp(&b.mhz));
        v
    }

    /// The profile of the speed run.
    pub fn profile(&self) -> &ProfileSummary {
        self.speed
            .profile
            .as_ref()
            .expect("the speed run is profiled")
    }
}

/// Runs the command.
pub fn run(args: &BenchArgs) -> anyhow::Result<()> {
    let cpu = args.cpu.as_deref().unwrap_or("z80");
    if !cpu.eq_ignore_ascii_case("z80") {
        bail!("--cpu {cpu}: only the Z80 build of the reference engine exists");
    }
    if matches!(args.profile, Some(BenchProfile::Full | BenchProfile::Both)) {
        bail!(
            "--profile: the Z80 build runs the reference profile only (the full profile is the native engine's)"
        );
    }
    let depth = args.depth.unwrap_or(DEFAULT_DEPTH);
    if !(1..=32).contains(&depth) {
        bail!("--depth {depth}: the Z80 engine searches depths 1 to 32");
    }
    if !(1..=32).contains(&args.ram_depth) {
        bail!(
            "--ram-depth {}: the Z80 engine searches depths 1 to 32",
            args.ram_depth
        );
    }
    if let Some(svg) = &args.svg {
        let inputs: Vec<_> = [&args.suite, &args.ram_suite]
            .into_iter()
            .flatten()
            .cloned()
            .collect();
        crate::output::check_outputs(&inputs, &[("--svg", svg.as_path())])?;
    }
    let machine = z80_machine(args.machine.as_deref())?;
    let jobs = match args.jobs {
        Some(0) => bail!("--jobs must be at least 1"),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let (suite_name, positions) =
        read_suite(args.suite.as_deref(), suite::BUNDLED_NAME, suite::BUNDLED)?;
    let (ram_name, ram_positions) = read_suite(
        args.ram_suite.as_deref(),
        suite::RAM_SUITE_NAME,
        suite::RAM_SUITE,
    )?;
    let engine = Z80Engine::assemble().context("assembling the Z80 engine")?;
    let console = ConsoleRom::assemble().context("assembling the console front end")?;

    let ram_searches =
        ram_positions.iter().filter(|p| p.has_move()).count() as u64 * u64::from(args.ram_depth);
    let bar = ProgressBar::new(positions.len() as u64 + ram_searches);
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} searches, {elapsed}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    let started = Instant::now();
    bar.set_message(format!("speed, depth {depth}"));
    let tick = || bar.inc(1);
    let speed = bench::speed(&engine, &suite_name, &positions, depth, true, jobs, &tick)?;
    bar.set_message(format!("RAM, depths 1-{}", args.ram_depth));
    let ram = bench::ram_by_depth(
        &engine,
        &ram_name,
        &ram_positions,
        args.ram_depth,
        jobs,
        &tick,
    )?;
    bar.finish_and_clear();
    let report = Z80Bench {
        suite: suite_name,
        speed,
        ram_suite: ram_name,
        ram,
        rom_engine: engine.rom().len(),
        rom_console: (
            console.image.len(),
            console.engine_bytes(),
            console.front_end_bytes(),
        ),
        machine,
        host: started.elapsed(),
        jobs,
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&to_json(&report))?);
    } else {
        print!("{}", to_text(&report));
    }
    if let Some(path) = &args.svg {
        let svg = crate::bench_chart::draw(&report)?;
        std::fs::write(path, svg).with_context(|| format!("writing {}", path.display()))?;
        if !args.json {
            println!("chart written to {}", path.display());
        }
    }
    Ok(())
}

/// The suite at `path`, or the bundled one.
fn read_suite(
    path: Option<&Path>,
    bundled_name: &str,
    bundled: &str,
) -> anyhow::Result<(String, Vec<BenchPosition>)> {
    let (name, text) = match path {
        Some(p) => (p.display().to_string(), suite::read_file(p)?),
        None => (bundled_name.to_string(), bundled.to_string()),
    };
    let positions = bench::positions(&text, &name)?;
    if positions.is_empty() {
        bail!("{name}: the suite has no positions");
    }
    if !positions.iter().any(BenchPosition::has_move) {
        bail!("{name}: no position of the suite has a legal move; nothing to search");
    }
    Ok((name, positions))
}

/// Seconds as `12.3 s`, `4.5 min` or `1.2 h`.
fn duration_text(secs: f64) -> String {
    if secs < 120.0 {
        format!("{secs:.1} s")
    } else if secs < 7200.0 {
        format!("{:.1} min", secs / 60.0)
    } else {
        format!("{:.1} h", secs / 3600.0)
    }
}

fn share_text(share: f64) -> String {
    if share > 0.0 && share < 0.1 {
        "<0.1 %".into()
    } else {
        format!("{share:.1} %")
    }
}

fn ok(met: bool) -> &'static str {
    if met { "met" } else { "NOT MET" }
}

/// The report as text tables.
pub fn to_text(r: &Z80Bench) -> String {
    let mut s = String::new();
    let s_ = &mut s;
    let sp = &r.speed;
    let with_move = sp.rows.iter().filter(|row| row.nodes > 0).count();
    let _ = writeln!(
        s_,
        "Kempelen-Z80 bench: {}, {} positions ({} searched), depth {}",
        r.suite,
        sp.rows.len(),
        with_move,
        sp.depth
    );
    let _ = writeln!(s_);
    let _ = writeln!(
        s_,
        "Speed (T-states counted exactly by the emulator; time = T-states / clock)"
    );
    let _ = writeln!(s_, "  nodes              {:>18}", grouped(sp.nodes()));
    let _ = writeln!(s_, "  T-states           {:>18}", grouped(sp.cycles()));
    let _ = writeln!(s_, "  T-states per node  {:>18.0}", sp.tstates_per_node());
    let _ = writeln!(s_);
    let _ = writeln!(
        s_,
        "    {:<12} {:<44} {:>9} {:>9} {:>11}",
        "machine", "", "MHz", "nodes/s", "suite time"
    );
    for c in Z80Bench::clocks() {
        let mark = if c.id == r.machine.id { "*" } else { " " };
        let _ = writeln!(
            s_,
            "  {mark} {:<12} {:<44} {:>9} {:>9.0} {:>11}",
            c.id,
            c.machine,
            c.mhz,
            sp.nodes_per_second(c),
            duration_text(sp.cycles() as f64 / c.hz())
        );
    }
    let _ = writeln!(s_);
    let (whole, engine_part, front) = r.rom_console;
    let _ = writeln!(s_, "ROM");
    let _ = writeln!(
        s_,
        "  engine (engine.asm, tables included)  {:>6} bytes",
        grouped(r.rom_engine as u64)
    );
    let _ = writeln!(
        s_,
        "  console program (console.asm)         {:>6} bytes: engine part {} + front end {}",
        grouped(whole as u64),
        grouped(engine_part as u64),
        grouped(front as u64)
    );
    let _ = writeln!(s_);
    let ram = &r.ram;
    let _ = writeln!(
        s_,
        "RAM in use by search depth ({}, {} positions with a legal move{}): peak = distinct data bytes written + deepest stack",
        r.ram_suite,
        ram.rows.len(),
        if ram.skipped > 0 {
            format!(", {} without one left out", ram.skipped)
        } else {
            String::new()
        }
    );
    let _ = writeln!(
        s_,
        "  {:>5} {:>8} {:>6} {:>10}",
        "depth", "mean", "max", "mean +"
    );
    for d in 1..=ram.max_depth {
        let growth = if d > 1 {
            format!("{:.1}", ram.mean(d) - ram.mean(d - 1))
        } else {
            String::new()
        };
        let _ = writeln!(
            s_,
            "  {:>5} {:>8.1} {:>6} {:>10}",
            d,
            ram.mean(d),
            ram.max(d),
            growth
        );
    }
    if let Some(bpp) = ram.bytes_per_ply() {
        let _ = writeln!(
            s_,
            "  bytes per ply: {bpp:.1} = (mean at depth {} - mean at depth 1) / {}, the average growth of peak RAM per extra ply",
            ram.max_depth,
            ram.max_depth - 1
        );
    }
    let _ = writeln!(s_);
    let p = r.profile();
    let _ = writeln!(
        s_,
        "Cycle profile of the speed run ({} T-states; each instruction charged to the label at or below it)",
        grouped(p.total)
    );
    for (c, cycles) in p.by_category() {
        let _ = writeln!(
            s_,
            "  {:<18} {:>17} {:>8}",
            c.name(),
            grouped(cycles),
            share_text(p.share(cycles))
        );
    }
    let _ = writeln!(s_);
    let _ = writeln!(
        s_,
        "  Top labels by their own cycles (inclusive: from a CALL into the label to its return, callees included)"
    );
    let _ = writeln!(
        s_,
        "  {:<18} {:<18} {:>17} {:>8} {:>17} {:>13}",
        "label", "part", "cycles", "share", "inclusive", "calls"
    );
    for row in p.routines.iter().take(TOP_ROUTINES) {
        let _ = writeln!(
            s_,
            "  {:<18} {:<18} {:>17} {:>8} {:>17} {:>13}",
            row.routine,
            row.category.name(),
            grouped(row.cycles),
            share_text(p.share(row.cycles)),
            grouped(row.inclusive),
            grouped(row.calls)
        );
    }
    let _ = writeln!(s_);
    let _ = writeln!(s_, "Targets (issue 5)");
    let spectrum = kempelen_emulator::clock::machine("zx-spectrum").expect("in the table");
    let nps = sp.nodes_per_second(spectrum);
    let _ = writeln!(
        s_,
        "  nodes/s at 3.5 MHz >= {TARGET_NPS_AT_3_5_MHZ:.0}: {nps:.0}, {}",
        ok(nps >= TARGET_NPS_AT_3_5_MHZ)
    );
    let _ = writeln!(
        s_,
        "  engine ROM <= {} bytes: {}, {}",
        grouped(TARGET_ROM as u64),
        grouped(r.rom_engine as u64),
        ok(r.rom_engine <= TARGET_ROM)
    );
    if ram.max_depth >= 8 && !ram.rows.is_empty() {
        let _ = writeln!(
            s_,
            "  RAM at depth 8 <= {} bytes: {} (largest of {} positions), {}",
            grouped(u64::from(TARGET_RAM_DEPTH8)),
            grouped(u64::from(ram.max(8))),
            ram.rows.len(),
            ok(ram.max(8) <= TARGET_RAM_DEPTH8)
        );
    }
    if let Some(bpp) = ram.bytes_per_ply() {
        let _ = writeln!(
            s_,
            "  bytes per ply <= {TARGET_BYTES_PER_PLY:.0}: {bpp:.1}, {}",
            ok(bpp <= TARGET_BYTES_PER_PLY)
        );
    }
    let _ = writeln!(s_);
    let _ = writeln!(
        s_,
        "Host: {:.1} s on {} thread(s) (the emulator's speed on this machine, not a figure of the Z80 build)",
        r.host.as_secs_f64(),
        r.jobs
    );
    s
}

/// The report as JSON.
pub fn to_json(r: &Z80Bench) -> serde_json::Value {
    let sp = &r.speed;
    let p = r.profile();
    let ram = &r.ram;
    let mv = |m: Option<kempelen_engine::Move>| m.map_or("-".to_string(), |m| m.to_uci());
    json!({
        "cpu": "z80",
        "suite": r.suite,
        "depth": sp.depth,
        "positions": sp.rows.iter().map(|row| json!({
            "line": row.line, "id": row.id, "best": mv(row.best), "score": row.score,
            "nodes": row.nodes, "cycles": row.cycles, "peak_ram": row.peak_ram,
        })).collect::<Vec<_>>(),
        "nodes": sp.nodes(),
        "cycles": sp.cycles(),
        "tstates_per_node": sp.tstates_per_node(),
        "machine": r.machine.id,
        "nodes_per_second": sp.nodes_per_second(r.machine),
        "clocks": Z80Bench::clocks().iter().map(|c| json!({
            "machine": c.id, "name": c.machine, "mhz": c.mhz,
            "nodes_per_second": sp.nodes_per_second(c),
            "suite_seconds": sp.cycles() as f64 / c.hz(),
        })).collect::<Vec<_>>(),
        "rom": {
            "engine": r.rom_engine,
            "console": r.rom_console.0,
            "console_engine_part": r.rom_console.1,
            "console_front_end": r.rom_console.2,
        },
        "ram": {
            "suite": r.ram_suite,
            "max_depth": ram.max_depth,
            "skipped": ram.skipped,
            "by_depth": (1..=ram.max_depth).map(|d| json!({
                "depth": d, "mean": ram.mean(d), "max": ram.max(d),
            })).collect::<Vec<_>>(),
            "positions": ram.rows.iter().map(|row| json!({
                "line": row.line, "id": row.id, "peak": row.peak, "stack": row.stack,
            })).collect::<Vec<_>>(),
            "bytes_per_ply": ram.bytes_per_ply(),
            "bytes_per_ply_definition": "(mean peak RAM at max_depth - mean peak RAM at depth 1) / (max_depth - 1)",
        },
        "profile": {
            "total_cycles": p.total,
            "categories": p.by_category().iter().map(|(c, cycles)| json!({
                "category": c.name(), "cycles": cycles, "share": p.share(*cycles),
            })).collect::<Vec<_>>(),
            "labels": p.routines.iter().map(|row| json!({
                "label": row.routine, "address": row.address, "category": row.category.name(),
                "cycles": row.cycles, "share": p.share(row.cycles), "inclusive": row.inclusive,
                "calls": row.calls,
            })).collect::<Vec<_>>(),
        },
        "host_seconds": r.host.as_secs_f64(),
        "jobs": r.jobs,
    })
}
