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
//! The measuring is `kempelen_roms::bench` (a build's figures: `PortBench`); this module reads
//! the options, prints, and hands the figures to the chart.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::bail;
use kempelen_emulator::{ClockProfile, Timing, grouped};
use kempelen_roms::bench::{self, BenchPlan, PortBench, targets};
use kempelen_roms::{Port, suite};
use serde_json::json;

use crate::engine_common::port_machine;

/// Default depth of the speed run: the bundled suite at depth 5 takes about 13 billion
/// T-states on the Z80, some 20 seconds of emulation on one core of the development machine.
pub const DEFAULT_DEPTH: u32 = 5;

/// Routines listed in the profile table.
const TOP_ROUTINES: usize = 15;

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
        let mut v = if reports.len() == 1 {
            to_json(&reports[0])
        } else {
            json!({ "builds": reports.iter().map(to_json).collect::<Vec<_>>() })
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

/// Seconds the whole speed run takes on `clock`'s machine: under its timing model when it
/// was measured with one, else at the CPU clock.
fn suite_seconds(sp: &kempelen_roms::bench::SpeedReport, clock: &ClockProfile) -> f64 {
    match sp.machine_speed(clock) {
        Some(m) => m.ticks as f64 / m.model.hz,
        None => sp.cycles() as f64 / clock.hz(),
    }
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
pub fn to_text(r: &PortBench) -> String {
    let mut s = String::new();
    let s_ = &mut s;
    let sp = &r.speed;
    let unit = cycle_unit(r.port);
    let with_move = sp.rows.iter().filter(|row| row.nodes > 0).count();
    let _ = writeln!(
        s_,
        "{} bench: {}, {} positions ({} searched), depth {}",
        r.label(),
        r.suite,
        sp.rows.len(),
        with_move,
        sp.depth
    );
    let _ = writeln!(s_);
    let _ = writeln!(
        s_,
        "Speed ({unit} counted exactly by the emulator; time = {unit} / clock)"
    );
    let _ = writeln!(s_, "  nodes              {:>18}", grouped(sp.nodes()));
    let _ = writeln!(s_, "  {unit:<18} {:>18}", grouped(sp.cycles()));
    let _ = writeln!(
        s_,
        "  {:<18} {:>18.0}",
        format!("{unit} per node"),
        sp.cycles_per_node()
    );
    let _ = writeln!(s_);
    let _ = writeln!(
        s_,
        "  nodes/s: the machine as it ran, under its timing model (display, wait states, the \
         ROM's interrupt; docs/TIMING.md); cpu: at the CPU clock alone"
    );
    let _ = writeln!(
        s_,
        "    {:<15} {:<44} {:>9} {:>9} {:>9} {:<22} {:>11}",
        "machine", "", "MHz", "nodes/s", "cpu", "timing", "suite time"
    );
    for c in r.clocks() {
        let mark = if c.id == r.machine.id { "*" } else { " " };
        let _ = writeln!(
            s_,
            "  {mark} {:<15} {:<44} {:>9} {:>9.0} {:>9.0} {:<22} {:>11}",
            c.id,
            c.machine,
            c.mhz,
            sp.nodes_per_second(c),
            sp.nodes_per_second_cpu(c),
            sp.timing(c),
            duration_text(suite_seconds(sp, c))
        );
    }
    let _ = writeln!(s_);
    let _ = writeln!(s_, "ROM");
    let _ = writeln!(
        s_,
        "  engine (engine.asm, tables included)  {:>6} bytes",
        grouped(r.rom_engine as u64)
    );
    match r.rom_console {
        Some((whole, engine_part, front)) => {
            let _ = writeln!(
                s_,
                "  console program (console.asm)         {:>6} bytes: engine part {} + front end {}",
                grouped(whole as u64),
                grouped(engine_part as u64),
                grouped(front as u64)
            );
        }
        None => {
            let _ = writeln!(s_, "  console program: not in this tree");
        }
    }
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
        "Cycle profile of the speed run ({} {unit}; each instruction charged to the label at or below it)",
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
    let t = targets(r.port);
    let _ = writeln!(
        s_,
        "Targets of the {} build (speed, ROM, RAM at depth 8, RAM per ply)",
        r.port.name
    );
    let target_clock = kempelen_emulator::clock::machine(t.nps.0).expect("in the table");
    // The speed target was set at the machine's CPU clock.
    let nps = sp.nodes_per_second_cpu(target_clock);
    let _ = writeln!(
        s_,
        "  nodes/s at the CPU clock, {} MHz ({}) >= {:.0}: {nps:.0}, {}",
        target_clock.mhz,
        target_clock.id,
        t.nps.1,
        ok(nps >= t.nps.1)
    );
    let _ = writeln!(
        s_,
        "  engine ROM <= {} bytes: {}, {}",
        grouped(t.rom as u64),
        grouped(r.rom_engine as u64),
        ok(r.rom_engine <= t.rom)
    );
    if ram.max_depth >= 8 && !ram.rows.is_empty() {
        let _ = writeln!(
            s_,
            "  RAM at depth 8 <= {} bytes: {} (largest of {} positions), {}",
            grouped(u64::from(t.ram_depth8)),
            grouped(u64::from(ram.max(8))),
            ram.rows.len(),
            ok(ram.max(8) <= t.ram_depth8)
        );
    }
    if let Some(bpp) = ram.bytes_per_ply() {
        let _ = writeln!(
            s_,
            "  bytes per ply <= {:.0}: {bpp:.1}, {}",
            t.bytes_per_ply,
            ok(bpp <= t.bytes_per_ply)
        );
    }
    let _ = writeln!(s_);
    let _ = writeln!(
        s_,
        "Host: {:.1} s on {} thread(s) (the emulator's speed on this machine, not a figure of the {} build)",
        r.host.as_secs_f64(),
        r.jobs,
        r.port.name
    );
    s
}

/// The report as JSON.
pub fn to_json(r: &PortBench) -> serde_json::Value {
    let sp = &r.speed;
    let p = r.profile();
    let ram = &r.ram;
    let mv = |m: Option<kempelen_engine::Move>| m.map_or("-".to_string(), |m| m.to_uci());
    json!({
        "cpu": r.port.id,
        "suite": r.suite,
        "depth": sp.depth,
        "positions": sp.rows.iter().map(|row| json!({
            "line": row.line, "id": row.id, "best": mv(row.best), "score": row.score,
            "nodes": row.nodes, "cycles": row.cycles, "peak_ram": row.peak_ram,
        })).collect::<Vec<_>>(),
        "nodes": sp.nodes(),
        "cycles": sp.cycles(),
        "cycles_per_node": sp.cycles_per_node(),
        "tstates_per_node": sp.cycles_per_node(),
        "machine": r.machine.id,
        "nodes_per_second": sp.nodes_per_second(r.machine),
        "nodes_per_second_cpu": sp.nodes_per_second_cpu(r.machine),
        "timing": sp.timing(r.machine),
        "clocks": r.clocks().iter().map(|c| json!({
            "machine": c.id, "name": c.machine, "mhz": c.mhz,
            "nodes_per_second": sp.nodes_per_second(c),
            "nodes_per_second_cpu": sp.nodes_per_second_cpu(c),
            "timing": sp.timing(c),
            "suite_time_ms": crate::output::round3(suite_seconds(sp, c) * 1000.0),
            "suite_time_ms_cpu": crate::output::round3(sp.cycles() as f64 / c.hz() * 1000.0),
        })).collect::<Vec<_>>(),
        "rom": {
            "engine": r.rom_engine,
            "console": r.rom_console.map(|c| c.0),
            "console_engine_part": r.rom_console.map(|c| c.1),
            "console_front_end": r.rom_console.map(|c| c.2),
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
        "host_ms": crate::output::millis(r.host),
        "jobs": r.jobs,
    })
}

/// What the port calls its clock cycles.
fn cycle_unit(port: &Port) -> &'static str {
    match port.cpu {
        kempelen_emulator::Cpu::Z80 => "T-states",
        _ => "cycles",
    }
}

/// The builds side by side on the same algorithm and suite: one column per build.
pub fn side_by_side_text(reports: &[PortBench]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "The CPUs side by side (same algorithm, {}, depth {})",
        reports[0].suite, reports[0].speed.depth
    );
    let _ = write!(s, "  {:<34}", "");
    for r in reports {
        let _ = write!(s, " {:>16}", r.label());
    }
    let _ = writeln!(s);
    let row = |s: &mut String, name: &str, cell: &dyn Fn(&PortBench) -> String| {
        let _ = write!(s, "  {name:<34}");
        for r in reports {
            let _ = write!(s, " {:>16}", cell(r));
        }
        let _ = writeln!(s);
    };
    row(&mut s, "nodes", &|r| grouped(r.speed.nodes()));
    row(&mut s, "cycles per node", &|r| {
        format!("{:.0}", r.speed.cycles_per_node())
    });
    // Slowest and fastest by nodes per second as the machines ran (a machine's wait states
    // and display make it slower than another at the same clock).
    let by_speed = |r: &PortBench| {
        let mut speeds: Vec<(f64, &str)> = r
            .clocks()
            .iter()
            .map(|c| (r.speed.nodes_per_second(c), c.id))
            .collect();
        speeds.sort_by(|a, b| a.0.total_cmp(&b.0));
        speeds
    };
    row(&mut s, "nodes/s at the slowest machine", &|r| {
        let (n, id) = by_speed(r)[0];
        format!("{n:.0} ({id})")
    });
    row(&mut s, "nodes/s at the fastest machine", &|r| {
        let (n, id) = *by_speed(r).last().expect("a port has machines");
        format!("{n:.0} ({id})")
    });
    row(&mut s, "engine ROM, bytes", &|r| {
        grouped(r.rom_engine as u64)
    });
    row(&mut s, "console front end, bytes", &|r| {
        r.rom_console
            .map_or("-".to_string(), |c| grouped(c.2 as u64))
    });
    let d = reports[0].ram.max_depth;
    row(&mut s, &format!("peak RAM at depth {d}, bytes"), &|r| {
        grouped(u64::from(r.ram.max(d)))
    });
    row(&mut s, "bytes per ply", &|r| {
        r.ram
            .bytes_per_ply()
            .map_or("-".to_string(), |b| format!("{b:.1}"))
    });
    let _ = writeln!(s, "  cycle share per part of the engine:");
    for (i, (c, _)) in reports[0].profile().by_category().iter().enumerate() {
        row(&mut s, &format!("    {}", c.name()), &|r| {
            let p = r.profile();
            share_text(p.share(p.by_category()[i].1))
        });
    }
    s
}

/// [`side_by_side_text`] as JSON: one object per build.
pub fn side_by_side_json(reports: &[PortBench]) -> serde_json::Value {
    json!(
        reports
            .iter()
            .map(|r| {
                let p = r.profile();
                json!({
                    "cpu": r.port.id,
                    "cycles_per_node": r.speed.cycles_per_node(),
                    "rom_engine": r.rom_engine,
                    "peak_ram": r.ram.max(r.ram.max_depth),
                    "bytes_per_ply": r.ram.bytes_per_ply(),
                    "category_share": p.by_category().iter().map(|(c, cycles)| json!({
                        "category": c.name(), "share": p.share(*cycles),
                    })).collect::<Vec<_>>(),
                })
            })
            .collect::<Vec<_>>()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use kempelen_roms::bench::{
        Category, ProfileSummary, RamReport, RamRow, RoutineCycles, SpeedReport, SpeedRow,
    };
    use kempelen_roms::port;

    /// A report with `nodes` nodes in `cycles` cycles, all of them in `gen_quiet`.
    fn report(port: &'static Port, nodes: u64, cycles: u64, rom: usize) -> PortBench {
        PortBench {
            port,
            suite: "s.epd".into(),
            speed: SpeedReport {
                depth: 5,
                rows: vec![SpeedRow {
                    line: 1,
                    id: "a".into(),
                    best: None,
                    score: 0,
                    nodes,
                    cycles,
                    peak_ram: 900,
                }],
                profile: Some(ProfileSummary {
                    routines: vec![RoutineCycles {
                        routine: "gen_quiet".into(),
                        address: Some(0x100),
                        category: Category::MoveGeneration,
                        cycles,
                        inclusive: cycles,
                        calls: 1,
                    }],
                    total: cycles,
                }),
                machine: Vec::new(),
            },
            ram_suite: "r.epd".into(),
            ram: RamReport {
                max_depth: 2,
                rows: vec![RamRow {
                    line: 1,
                    id: "a".into(),
                    peak: vec![800, 900],
                    stack: vec![10, 20],
                }],
                skipped: 0,
            },
            rom_engine: rom,
            rom_console: None,
            machine: port.default_machine(),
            host: std::time::Duration::ZERO,
            jobs: 1,
        }
    }

    #[test]
    fn the_cpus_side_by_side() {
        let both = [
            report(&port::Z80, 1000, 9_000_000, 8066),
            report(&port::M6502, 1000, 3_500_000, 7000),
        ];
        let text = side_by_side_text(&both);
        assert!(
            text.contains("Kempelen-Z80") && text.contains("Kempelen-6502"),
            "{text}"
        );
        let row = |name: &str| {
            text.lines()
                .find(|l| l.trim_start().starts_with(name))
                .unwrap_or_else(|| panic!("{name}: {text}"))
                .split_whitespace()
                .rev()
                .take(2)
                .collect::<Vec<_>>()
        };
        assert_eq!(row("cycles per node"), ["3500", "9000"]);
        assert_eq!(row("engine ROM, bytes"), ["7,000", "8,066"]);
        assert_eq!(row("bytes per ply"), ["100.0", "100.0"]);
        let share = text
            .lines()
            .find(|l| l.trim_start().starts_with("move generation"))
            .unwrap();
        assert_eq!(share.matches("100.0 %").count(), 2, "{share}");
        // The slowest machine of each CPU, at its clock.
        for r in &both {
            let slowest = r.clocks()[0];
            let nps = slowest.per_second(1000, r.speed.cycles());
            assert!(
                text.contains(&format!("{nps:.0} ({})", slowest.id)),
                "{text}"
            );
        }
        let json = side_by_side_json(&both);
        assert_eq!(json[1]["cpu"], "6502");
        assert_eq!(json[1]["cycles_per_node"], 3500.0);
    }
}
