//! `kempelen compare`: the 8-bit builds (Z80, 6502; by default every one whose sources are
//! present) against the native reference search on every position of an EPD suite (the
//! bundled one by default): best move, score, principal variation and node count must be
//! identical. One row per position with a column group per engine (the 8-bit builds with
//! their cycles and the time at the chosen machine's clock), then a summary; the exit status
//! is non-zero on any disagreement. Where the suite gives `bm` (best moves) or `am` (moves to
//! avoid), each engine's move is scored against them (solved or not, and a total). `--full`
//! puts the native engine's `full` profile beside them (scored on `bm`/`am`, not part of the
//! agreement, which is about the reference algorithm). `--source` compares a changed copy of
//! one port's sources instead of the bundled ones.

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use kempelen_asm::source::FsSource;
use kempelen_emulator::ClockProfile;
use kempelen_engine::{Move, mate_in};
use kempelen_roms::compare::{
    Answer, CompareSuite, Comparison, Contender, PortResult, Row, Status, Summary,
};
use kempelen_roms::{Port, PortEngine, suite};
use serde_json::json;
use std::io::Write;
use std::path::PathBuf;

use crate::engine_common::{CpuArg, port_machine, present_port, set_max_cycles};

/// Arguments of `kempelen compare`.
#[derive(clap::Args, Debug)]
pub struct CompareArgs {
    /// The 8-bit builds to compare with the native engine, one or more (`--cpu z80,6502`);
    /// default: every build whose sources are in this tree. `native` is always compared
    /// against (the reference).
    #[arg(long, value_enum, value_delimiter = ',', value_name = "CPU")]
    pub cpu: Vec<CpuArg>,
    /// EPD suite (`FEN; id "..."; moves "..."; bm ...; am ...;`); default: the bundled suite.
    #[arg(long)]
    pub suite: Option<PathBuf>,
    /// Search depth (1-32).
    #[arg(long, default_value_t = 4)]
    pub depth: u32,
    /// Machine whose clock turns cycles into time (see `kempelen machines`); it applies to
    /// the build of its CPU. Default: zx-spectrum for the Z80, kim-1 for the 6502.
    #[arg(long)]
    pub machine: Option<String>,
    /// Also search with the native engine's `full` profile and show it beside the others
    /// (scored on `bm`/`am`; not part of the agreement).
    #[arg(long)]
    pub full: bool,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
    /// Assemble the compared build from this main file (a changed copy of
    /// `roms-src/<port>/engine.asm`; includes are read beside it) instead of the bundled
    /// sources, to check a change against the reference before it goes in. Needs exactly one
    /// build (`--cpu`; default z80).
    #[arg(long, alias = "z80-source", value_name = "ENGINE_ASM")]
    pub source: Option<PathBuf>,
    #[arg(long, value_name = "CYCLES", help = crate::engine_common::MAX_CYCLES_HELP)]
    pub max_cycles: Option<u64>,
}

/// A score as `search` prints it: centipawns, or `mate N` (negative: the side to move is
/// mated).
pub fn score_text(score: i32) -> String {
    match mate_in(score) {
        Some(n) => format!("mate {n}"),
        None => score.to_string(),
    }
}

/// Runs the command; `Ok(false)` when some position disagrees.
pub fn run(args: &CompareArgs) -> anyhow::Result<bool> {
    if !(1..=32).contains(&args.depth) {
        bail!("--depth {}: the depth must be 1 to 32", args.depth);
    }
    let ports = ports(args)?;
    let machine = machine(args, &ports)?;
    let suite = match &args.suite {
        Some(p) => CompareSuite::parse(&suite::read_file(p)?, &p.display().to_string())?,
        None => CompareSuite::bundled()?,
    };
    let mut contenders = Vec::new();
    for &port in &ports {
        contenders.push(contender(args, port, machine)?);
    }
    let mut comparison = Comparison::new(&suite.name, args.depth, contenders, args.full)?;
    let bar = ProgressBar::new(suite.positions.len() as u64);
    if args.json {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar.set_style(
        ProgressStyle::with_template("compare [{bar:30}] {pos}/{len} positions, {elapsed}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    let mut out = std::io::stdout().lock();
    if !args.json {
        write!(out, "{}", header_text(&comparison))?;
    }
    let mut rows = Vec::new();
    let summary = comparison.run(&suite, |row| -> anyhow::Result<()> {
        bar.inc(1);
        if args.json {
            rows.push(row_json(row));
        } else {
            bar.suspend(|| write!(out, "{}", row_text(row)))?;
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    if args.json {
        let v = summary_json(&summary, rows);
        writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
    } else {
        write!(out, "{}", summary_text(&summary))?;
    }
    Ok(summary.agree == summary.positions)
}

/// The builds `--cpu` names (default: every one whose sources are present; the Z80 with
/// `--source`).
fn ports(args: &CompareArgs) -> anyhow::Result<Vec<&'static Port>> {
    let mut ports: Vec<&'static Port> = Vec::new();
    for &cpu in &args.cpu {
        if let Some(p) = present_port(cpu)? {
            if !ports.iter().any(|q| q.id == p.id) {
                ports.push(p);
            }
        }
    }
    if ports.is_empty() {
        ports = match &args.source {
            Some(_) => vec![&kempelen_roms::port::Z80],
            None => Port::present(),
        };
    }
    if ports.is_empty() {
        bail!("no 8-bit build's sources are in this tree");
    }
    if args.source.is_some() && ports.len() != 1 {
        bail!("--source replaces one build's sources: choose it with --cpu z80 or --cpu 6502");
    }
    Ok(ports)
}

/// `--machine`: the build of its CPU and the machine (the other builds keep their default
/// machine).
fn machine(
    args: &CompareArgs,
    ports: &[&'static Port],
) -> anyhow::Result<Option<(&'static str, &'static ClockProfile)>> {
    let Some(id) = &args.machine else {
        return Ok(None);
    };
    let m = kempelen_emulator::clock::machine(id);
    match m.and_then(|m| ports.iter().find(|p| p.cpu == m.cpu)) {
        Some(p) => Ok(Some((p.id, port_machine(p, Some(id))?))),
        None => {
            port_machine(ports[0], Some(id))?;
            unreachable!("port_machine refuses a machine of another CPU");
        }
    }
}

/// A build's engine (from `--source` or the bundled sources) at its machine.
fn contender(
    args: &CompareArgs,
    port: &'static Port,
    machine: Option<(&'static str, &'static ClockProfile)>,
) -> anyhow::Result<Contender> {
    let mut engine = match &args.source {
        Some(p) => {
            let e = PortEngine::assemble_from(port, &FsSource, &p.to_string_lossy());
            e.with_context(|| format!("--source {}", p.display()))?
        }
        None => PortEngine::assemble(port)?,
    };
    let clock = match machine {
        Some((id, m)) if id == port.id => m,
        _ => port.default_machine(),
    };
    set_max_cycles(&mut engine, args.max_cycles)?;
    Ok(Contender::new(engine, clock))
}

/// The table's two header lines.
fn header_text(c: &Comparison) -> String {
    let mut h1 = format!("{:<5} {:<25}", "", "native reference");
    let mut h2 = format!("{:<5} {:<7} {:>8} {:>8}", "", "best", "score", "nodes");
    for b in c.builds() {
        let title = format!(
            "{} at {} MHz ({})",
            b.engine.port().name,
            b.machine.mhz,
            b.machine.id
        );
        h1.push_str(&format!(" | {title:<48}"));
        h2.push_str(&format!(
            " | {:<7} {:>8} {:>8} {:>13} {:>8}",
            "best", "score", "nodes", "cycles", "seconds"
        ));
    }
    if c.has_full() {
        h1.push_str(&format!(" | {:<25}", "native full"));
        h2.push_str(&format!(" | {:<7} {:>8} {:>8}", "best", "score", "nodes"));
    }
    format!("{h1} |\n{h2} | position\n")
}

/// The best move with `*` (solves the position's `bm`/`am`), `-` (does not) or nothing (`+`
/// would read as check).
fn marked(a: &Answer) -> String {
    let mark = match a.solved {
        None => "",
        Some(true) => "*",
        Some(false) => "-",
    };
    format!("{}{mark}", mv(a.best))
}

/// A row of the table, then its errors and, where a build differs, both PVs.
fn row_text(row: &Row) -> String {
    let n = &row.native;
    let mut text = format!("{:<7} {:>8} {:>8}", marked(n), score_text(n.score), n.nodes);
    let mut notes = String::new();
    for a in &row.ports {
        match &a.result {
            PortResult::Error(_) => text.push_str(&format!(" | {:<48}", "error")),
            PortResult::Ran(r) => {
                text.push_str(&format!(
                    " | {:<7} {:>8} {:>8} {:>13} {:>8.2}",
                    marked(&r.answer),
                    score_text(r.answer.score),
                    r.answer.nodes,
                    r.cycles,
                    r.seconds
                ));
                if !r.agree {
                    notes.push_str(&format!("      native pv {}\n", line_of(&n.pv)));
                    let pv = line_of(&r.answer.pv);
                    notes.push_str(&format!("      {:<6} pv {pv}\n", a.cpu));
                }
            }
        }
    }
    if let Some(f) = &row.full {
        text.push_str(&format!(
            " | {:<7} {:>8} {:>8}",
            marked(f),
            score_text(f.score),
            f.nodes
        ));
    }
    let status = match row.status() {
        Status::Error => "ERROR",
        Status::Ok => "ok",
        Status::Diff => "DIFF",
    };
    let mut s = format!("{status:<5} {text} | {}\n", row.id);
    for e in row.errors() {
        s.push_str(&format!("ERROR {e}\n"));
    }
    s + &notes
}

/// A row as JSON: each engine's answer under its name.
fn row_json(row: &Row) -> serde_json::Value {
    let mut v = json!({
        "line": row.line, "id": row.id, "fen": row.fen,
        "native": answer_json(&row.native),
    });
    for a in &row.ports {
        v[a.cpu] = match &a.result {
            PortResult::Error(message) => json!({ "error": message }),
            PortResult::Ran(r) => {
                let mut p = answer_json(&r.answer);
                p["agree"] = json!(r.agree);
                p["cycles"] = json!(r.cycles);
                p["seconds"] = json!(round3(r.seconds));
                p["peak_ram"] = json!(r.peak_ram);
                p
            }
        };
    }
    if let Some(f) = &row.full {
        v["full"] = answer_json(f);
    }
    v["agree"] = json!(row.agree);
    v
}

/// The totals as text: agreement and each build's speed, then the `bm`/`am` score.
fn summary_text(s: &Summary) -> String {
    let mut out = format!(
        "{}/{} positions agree at depth {} ({})",
        s.agree, s.positions, s.depth, s.suite
    );
    for b in &s.builds {
        out.push_str(&format!(
            "; {}: {} nodes in {} cycles, {:.0} nodes/s at {} MHz ({})",
            b.name, b.nodes, b.cycles, b.nodes_per_second, b.machine.mhz, b.machine.id
        ));
    }
    out.push('\n');
    if s.scored > 0 {
        out.push_str(&format!(
            "bm/am solved (* in the table) of {} positions: native reference {}",
            s.scored, s.native_solved
        ));
        for b in &s.builds {
            out.push_str(&format!(", {} {}", b.name, b.solved));
        }
        if let Some(n) = s.full_solved {
            out.push_str(&format!(", native full {n}"));
        }
        out.push('\n');
    }
    out
}

/// The totals and the rows as JSON.
fn summary_json(s: &Summary, rows: Vec<serde_json::Value>) -> serde_json::Value {
    let mut v = json!({
        "suite": s.suite, "depth": s.depth, "positions": s.positions, "agree": s.agree,
        "scored": s.scored, "native_solved": s.native_solved, "results": rows,
        "builds": s.builds.iter().map(|b| json!({
            "cpu": b.cpu, "machine": b.machine.id, "mhz": b.machine.mhz,
            "nodes": b.nodes, "cycles": b.cycles,
            "nodes_per_second": b.nodes_per_second.round(),
            "solved": b.solved, "errors": b.errors,
        })).collect::<Vec<_>>(),
    });
    if let [b] = s.builds.as_slice() {
        v["machine"] = json!(b.machine.id);
        v["mhz"] = json!(b.machine.mhz);
        v["nodes"] = json!(b.nodes);
        v["cycles"] = json!(b.cycles);
        v["nodes_per_second"] = json!(b.nodes_per_second.round());
    }
    if let Some(n) = s.full_solved {
        v["full_solved"] = json!(n);
    }
    v
}

fn mv(m: Option<Move>) -> String {
    m.map_or("-".to_string(), |m| m.to_uci())
}

fn line_of(pv: &[Move]) -> String {
    pv.iter().map(|m| m.to_uci()).collect::<Vec<_>>().join(" ")
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// One engine's answer as JSON, with `solved` where the suite gives `bm`/`am`.
fn answer_json(a: &Answer) -> serde_json::Value {
    let mut v = json!({
        "best": mv(a.best), "score": a.score, "mate": a.mate, "nodes": a.nodes,
        "pv": a.pv.iter().map(|m| m.to_uci()).collect::<Vec<_>>(),
    });
    if let Some(solved) = a.solved {
        v["solved"] = json!(solved);
    }
    v
}
