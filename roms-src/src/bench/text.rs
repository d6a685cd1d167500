//! A bench of one or more 8-bit builds as text tables, the way `kempelen bench --cpu z80|6502`
//! prints it: a section per measurement (speed at each machine, ROM, RAM by depth, the cycle
//! profile, the build's targets, the host's time), and with two builds a table of the CPUs side
//! by side. Plain strings: a terminal or a page shows them alike.

use std::fmt::Write as _;

use kempelen_emulator::{ClockProfile, grouped};

use super::figures::{RamReport, SpeedReport};
use super::report::{PortBench, targets};
use crate::port::Port;

/// Routines listed in the profile table.
const TOP_ROUTINES: usize = 15;

/// Seconds the whole speed run takes on `clock`'s machine: under its timing model when it
/// was measured with one, else at the CPU clock.
pub fn suite_seconds(sp: &SpeedReport, clock: &ClockProfile) -> f64 {
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

/// A share of the cycles, `<0.1 %` where it is too small to show.
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

/// What the port calls its clock cycles.
fn cycle_unit(port: &Port) -> &'static str {
    match port.cpu {
        kempelen_emulator::Cpu::Z80 => "T-states",
        _ => "cycles",
    }
}

/// The report as text tables.
pub fn to_text(r: &PortBench) -> String {
    let mut s = String::new();
    speed_text(&mut s, r);
    let _ = writeln!(s);
    rom_text(&mut s, r);
    let _ = writeln!(s);
    ram_text(&mut s, &r.ram_suite, &r.ram);
    let _ = writeln!(s);
    profile_text(&mut s, r);
    let _ = writeln!(s);
    targets_text(&mut s, r);
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "Host: {:.1} s on {} thread(s) (the emulator's speed on this machine, not a figure of the {} build)",
        r.host.as_secs_f64(),
        r.jobs,
        r.port.name
    );
    s
}

/// The title, the speed run's totals and nodes per second at each of the build's machines.
fn speed_text(s: &mut String, r: &PortBench) {
    let sp = &r.speed;
    let unit = cycle_unit(r.port);
    let with_move = sp.rows.iter().filter(|row| row.nodes > 0).count();
    let _ = writeln!(
        s,
        "{} bench: {}, {} positions ({} searched), depth {}",
        r.label(),
        r.suite,
        sp.rows.len(),
        with_move,
        sp.depth
    );
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "Speed ({unit} counted exactly by the emulator; time = {unit} / clock)"
    );
    let _ = writeln!(s, "  nodes              {:>18}", grouped(sp.nodes()));
    let _ = writeln!(s, "  {unit:<18} {:>18}", grouped(sp.cycles()));
    let _ = writeln!(
        s,
        "  {:<18} {:>18.0}",
        format!("{unit} per node"),
        sp.cycles_per_node()
    );
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "  nodes/s: the machine as it ran, under its timing model (display, wait states, the \
         ROM's interrupt; docs/TIMING.md); cpu: at the CPU clock alone"
    );
    let _ = writeln!(
        s,
        "    {:<15} {:<44} {:>9} {:>9} {:>9} {:<22} {:>11}",
        "machine", "", "MHz", "nodes/s", "cpu", "timing", "suite time"
    );
    for c in r.clocks() {
        let mark = if c.id == r.machine.id { "*" } else { " " };
        let _ = writeln!(
            s,
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
}

/// Bytes of the engine image and of the console program.
fn rom_text(s: &mut String, r: &PortBench) {
    let _ = writeln!(s, "ROM");
    let _ = writeln!(
        s,
        "  engine (engine.asm, tables included)  {:>6} bytes",
        grouped(r.rom_engine as u64)
    );
    match r.rom_console {
        Some((whole, engine_part, front)) => {
            let _ = writeln!(
                s,
                "  console program (console.asm)         {:>6} bytes: engine part {} + front end {}",
                grouped(whole as u64),
                grouped(engine_part as u64),
                grouped(front as u64)
            );
        }
        None => {
            let _ = writeln!(s, "  console program: not in this tree");
        }
    }
}

/// Peak RAM by search depth on the RAM suite, and bytes per ply.
fn ram_text(s: &mut String, ram_suite: &str, ram: &RamReport) {
    let _ = writeln!(
        s,
        "RAM in use by search depth ({}, {} positions with a legal move{}): peak = distinct data bytes written + deepest stack",
        ram_suite,
        ram.rows.len(),
        if ram.skipped > 0 {
            format!(", {} without one left out", ram.skipped)
        } else {
            String::new()
        }
    );
    let _ = writeln!(
        s,
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
            s,
            "  {:>5} {:>8.1} {:>6} {:>10}",
            d,
            ram.mean(d),
            ram.max(d),
            growth
        );
    }
    if let Some(bpp) = ram.bytes_per_ply() {
        let _ = writeln!(
            s,
            "  bytes per ply: {bpp:.1} = (mean at depth {} - mean at depth 1) / {}, the average growth of peak RAM per extra ply",
            ram.max_depth,
            ram.max_depth - 1
        );
    }
}

/// The speed run's cycles by part of the engine, and the routines that take the most.
fn profile_text(s: &mut String, r: &PortBench) {
    let unit = cycle_unit(r.port);
    let p = r.profile();
    let _ = writeln!(
        s,
        "Cycle profile of the speed run ({} {unit}; each instruction charged to the label at or below it)",
        grouped(p.total)
    );
    for (c, cycles) in p.by_category() {
        let _ = writeln!(
            s,
            "  {:<18} {:>17} {:>8}",
            c.name(),
            grouped(cycles),
            share_text(p.share(cycles))
        );
    }
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "  Top labels by their own cycles (inclusive: from a CALL into the label to its return, callees included)"
    );
    let _ = writeln!(
        s,
        "  {:<18} {:<18} {:>17} {:>8} {:>17} {:>13}",
        "label", "part", "cycles", "share", "inclusive", "calls"
    );
    for row in p.routines.iter().take(TOP_ROUTINES) {
        let _ = writeln!(
            s,
            "  {:<18} {:<18} {:>17} {:>8} {:>17} {:>13}",
            row.routine,
            row.category.name(),
            grouped(row.cycles),
            share_text(p.share(row.cycles)),
            grouped(row.inclusive),
            grouped(row.calls)
        );
    }
}

/// The speed run's `n` hottest source lines of the engine (`kempelen bench --hot-lines N`):
/// where in a routine its cycles go.
pub fn hot_lines_text(r: &PortBench, n: usize) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "The {} build's {n} hottest source lines in the speed run ({} {}; each: {} per execution)",
        r.port.name,
        grouped(r.lines.total_cycles),
        cycle_unit(r.port),
        cycle_unit(r.port)
    );
    s.push_str(&r.lines.table(n));
    s
}

/// The build's [`targets`], each with the figure measured and whether it is met.
fn targets_text(s: &mut String, r: &PortBench) {
    let (sp, ram) = (&r.speed, &r.ram);
    let t = targets(r.port);
    let _ = writeln!(
        s,
        "Targets of the {} build (speed, ROM, RAM at depth 8, RAM per ply)",
        r.port.name
    );
    let target_clock = kempelen_emulator::clock::machine(t.nps.0).expect("in the table");
    // The speed target was set at the machine's CPU clock.
    let nps = sp.nodes_per_second_cpu(target_clock);
    let _ = writeln!(
        s,
        "  nodes/s at the CPU clock, {} MHz ({}) >= {:.0}: {nps:.0}, {}",
        target_clock.mhz,
        target_clock.id,
        t.nps.1,
        ok(nps >= t.nps.1)
    );
    let _ = writeln!(
        s,
        "  engine ROM <= {} bytes: {}, {}",
        grouped(t.rom as u64),
        grouped(r.rom_engine as u64),
        ok(r.rom_engine <= t.rom)
    );
    if ram.max_depth >= 8 && !ram.rows.is_empty() {
        let _ = writeln!(
            s,
            "  RAM at depth 8 <= {} bytes: {} (largest of {} positions), {}",
            grouped(u64::from(t.ram_depth8)),
            grouped(u64::from(ram.max(8))),
            ram.rows.len(),
            ok(ram.max(8) <= t.ram_depth8)
        );
    }
    if let Some(bpp) = ram.bytes_per_ply() {
        let _ = writeln!(
            s,
            "  bytes per ply <= {:.0}: {bpp:.1}, {}",
            t.bytes_per_ply,
            ok(bpp <= t.bytes_per_ply)
        );
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::json::side_by_side_json;
    use crate::bench::{Category, ProfileSummary, RamRow, RoutineCycles, SpeedRow};
    use crate::port;

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
                    instructions: Vec::new(),
                }),
                machine: Vec::new(),
            },
            lines: kempelen_emulator::LineProfile {
                lines: Vec::new(),
                total_cycles: cycles,
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
