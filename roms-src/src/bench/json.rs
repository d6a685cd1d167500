//! A bench of one or more 8-bit builds as JSON, the way `kempelen bench --cpu z80|6502 --json`
//! writes it: every figure of [`to_text`](super::text::to_text) and the rows behind them.
//! Floats are rounded to three decimals where they are times.

use serde_json::json;

use super::report::PortBench;
use super::text::suite_seconds;

/// Milliseconds, to three decimals.
fn millis(t: std::time::Duration) -> f64 {
    round3(t.as_secs_f64() * 1000.0)
}

/// A float rounded to three decimals.
fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
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
            "suite_time_ms": round3(suite_seconds(sp, c) * 1000.0),
            "suite_time_ms_cpu": round3(sp.cycles() as f64 / c.hz() * 1000.0),
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
        "host_ms": millis(r.host),
        "jobs": r.jobs,
    })
}

/// The speed run's `n` hottest source lines (`kempelen bench --hot-lines N --json`): place,
/// file, line, text, routine, address, cycles, share and executions of each.
pub fn hot_lines_json(r: &PortBench, n: usize) -> serde_json::Value {
    json!({
        "total_cycles": r.lines.total_cycles,
        "lines": r.lines.top(n).iter().map(|l| json!({
            "place": l.place(), "file": l.file, "line": l.line, "text": l.text,
            "routine": l.routine, "address": l.address, "cycles": l.cycles,
            "share": l.share, "executions": l.executions,
        })).collect::<Vec<_>>(),
    })
}

/// [`side_by_side_text`](super::text::side_by_side_text) as JSON: one object per build.
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
