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
use kempelen_engine::reference::{ReferenceLimits, ReferenceSearch};
use kempelen_engine::{Engine, Limits, Move, NativeEngine, Profile, SearchControl, mate_in};
use kempelen_roms::suite::Expected;
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

/// One 8-bit build in the comparison.
struct Build {
    engine: PortEngine,
    clock: &'static ClockProfile,
    nodes: u64,
    cycles: u64,
    solved: usize,
    errors: usize,
}

/// Runs the command; `Ok(false)` when some position disagrees.
pub fn run(args: &CompareArgs) -> anyhow::Result<bool> {
    if !(1..=32).contains(&args.depth) {
        bail!("--depth {}: the depth must be 1 to 32", args.depth);
    }
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
    // The machine belongs to one CPU; the other builds keep their default machine.
    let machine = match &args.machine {
        None => None,
        Some(id) => {
            let m = kempelen_emulator::clock::machine(id);
            match m.and_then(|m| ports.iter().find(|p| p.cpu == m.cpu)) {
                Some(p) => Some((p.id, port_machine(p, Some(id))?)),
                None => {
                    port_machine(ports[0], Some(id))?;
                    unreachable!("port_machine refuses a machine of another CPU");
                }
            }
        }
    };
    let (name, text) = match &args.suite {
        Some(p) => (p.display().to_string(), suite::read_file(p)?),
        None => (suite::BUNDLED_NAME.to_string(), suite::BUNDLED.to_string()),
    };
    let entries = suite::parse(&text, &name)?;
    if entries.is_empty() {
        bail!("{name}: the suite has no positions");
    }
    let games = entries
        .iter()
        .map(|e| e.game(&name))
        .collect::<Result<Vec<_>, _>>()?;
    let expected = entries
        .iter()
        .zip(&games)
        .map(|(e, g)| Expected::of(e, g.position(), &name))
        .collect::<Result<Vec<_>, _>>()?;
    let mut builds = Vec::new();
    for &port in &ports {
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
        engine.clock = Some(clock);
        set_max_cycles(&mut engine, args.max_cycles)?;
        builds.push(Build {
            engine,
            clock,
            nodes: 0,
            cycles: 0,
            solved: 0,
            errors: 0,
        });
    }
    let mut full = args.full.then(|| NativeEngine::new(Profile::Full));
    let bar = ProgressBar::new(entries.len() as u64);
    if args.json {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar.set_style(
        ProgressStyle::with_template("compare [{bar:30}] {pos}/{len} positions, {elapsed}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    let mut out = std::io::stdout().lock();
    let mut rows = Vec::new();
    let (mut agree, mut native_solved, mut full_solved) = (0usize, 0usize, 0usize);
    let scored = expected.iter().filter(|e| e.given()).count();
    if !args.json {
        let mut h1 = format!("{:<5} {:<25}", "", "native reference");
        let mut h2 = format!("{:<5} {:<7} {:>8} {:>8}", "", "best", "score", "nodes");
        for b in &builds {
            let title = format!(
                "{} at {} MHz ({})",
                b.engine.port().name,
                b.clock.mhz,
                b.clock.id
            );
            h1.push_str(&format!(" | {title:<48}"));
            h2.push_str(&format!(
                " | {:<7} {:>8} {:>8} {:>13} {:>8}",
                "best", "score", "nodes", "cycles", "seconds"
            ));
        }
        if full.is_some() {
            h1.push_str(&format!(" | {:<25}", "native full"));
            h2.push_str(&format!(" | {:<7} {:>8} {:>8}", "best", "score", "nodes"));
        }
        writeln!(out, "{h1} |")?;
        writeln!(out, "{h2} | position")?;
    }
    for ((entry, game), exp) in entries.iter().zip(&games).zip(&expected) {
        bar.inc(1);
        let pos = game.position();
        let history = game.reference_history();
        let limits = ReferenceLimits::depth(args.depth);
        let native = ReferenceSearch::new(pos, &history, limits).run();
        let mark = |best: Option<Move>| -> &'static str {
            match (exp.given(), exp.solved(best)) {
                (false, _) => "",
                (true, true) => "+",
                (true, false) => "-",
            }
        };
        native_solved += usize::from(exp.given() && exp.solved(native.best));
        let mut same_all = true;
        let mut row_text = format!(
            "{:<7} {:>8} {:>8}",
            format!("{}{}", mv(native.best), mark(native.best)),
            score_text(native.score),
            native.nodes
        );
        let mut row_json = json!({
            "line": entry.line, "id": entry.id, "fen": pos.to_fen(),
            "native": result_json(native.best, native.score, native.nodes, &native.pv, exp),
        });
        let mut notes = Vec::new();
        let mut errors = Vec::new();
        for b in builds.iter_mut() {
            let port = b.engine.port();
            // A failed run is a disagreement: reported in its row, and the suite goes on.
            match b.engine.search(pos, &history, args.depth, None) {
                Err(e) => {
                    same_all = false;
                    b.errors += 1;
                    let message =
                        format!("{name}:{}: {}: {}: {e}", entry.line, entry.id, port.name);
                    row_text.push_str(&format!(" | {:<48}", "error"));
                    row_json[port.id] = json!({ "error": message });
                    errors.push(message);
                }
                Ok(z) => {
                    let r = &z.result;
                    let same = r.best == native.best
                        && r.score == native.score
                        && r.pv == native.pv
                        && r.nodes == native.nodes;
                    same_all &= same;
                    b.nodes += r.nodes;
                    b.cycles += z.cycles;
                    b.solved += usize::from(exp.given() && exp.solved(r.best));
                    let seconds = b.clock.duration(z.cycles).as_secs_f64();
                    row_text.push_str(&format!(
                        " | {:<7} {:>8} {:>8} {:>13} {:>8.2}",
                        format!("{}{}", mv(r.best), mark(r.best)),
                        score_text(r.score),
                        r.nodes,
                        z.cycles,
                        seconds
                    ));
                    let mut v = result_json(r.best, r.score, r.nodes, &r.pv, exp);
                    v["agree"] = json!(same);
                    v["cycles"] = json!(z.cycles);
                    v["seconds"] = json!(round3(seconds));
                    v["peak_ram"] = json!(z.ram.peak_bytes);
                    row_json[port.id] = v;
                    if !same {
                        notes.push(format!("      native pv {}", line_of(&native.pv)));
                        notes.push(format!("      {:<6} pv {}", port.id, line_of(&r.pv)));
                    }
                }
            }
        }
        if let Some(engine) = full.as_mut() {
            let limits = Limits {
                depth: Some(args.depth),
                ..Limits::default()
            };
            let r = engine.search(game, &limits, &SearchControl::default())?;
            full_solved += usize::from(exp.given() && exp.solved(r.best));
            row_text.push_str(&format!(
                " | {:<7} {:>8} {:>8}",
                format!("{}{}", mv(r.best), mark(r.best)),
                score_text(r.score),
                r.nodes
            ));
            row_json["full"] = result_json(r.best, r.score, r.nodes, &r.pv, exp);
        }
        agree += usize::from(same_all);
        row_json["agree"] = json!(same_all);
        if args.json {
            rows.push(row_json);
        } else {
            let status = if !errors.is_empty() {
                "ERROR"
            } else if same_all {
                "ok"
            } else {
                "DIFF"
            };
            bar.suspend(|| -> std::io::Result<()> {
                writeln!(out, "{status:<5} {row_text} | {}", entry.id)?;
                for e in &errors {
                    writeln!(out, "ERROR {e}")?;
                }
                for n in &notes {
                    writeln!(out, "{n}")?;
                }
                Ok(())
            })?;
        }
    }
    bar.finish_and_clear();
    let total = entries.len();
    if args.json {
        let mut v = json!({
            "suite": name, "depth": args.depth, "positions": total, "agree": agree,
            "scored": scored, "native_solved": native_solved, "results": rows,
            "builds": builds.iter().map(|b| json!({
                "cpu": b.engine.port().id, "machine": b.clock.id, "mhz": b.clock.mhz,
                "nodes": b.nodes, "cycles": b.cycles,
                "nodes_per_second": b.clock.per_second(b.nodes, b.cycles).round(),
                "solved": b.solved, "errors": b.errors,
            })).collect::<Vec<_>>(),
        });
        if let [b] = builds.as_slice() {
            v["machine"] = json!(b.clock.id);
            v["mhz"] = json!(b.clock.mhz);
            v["nodes"] = json!(b.nodes);
            v["cycles"] = json!(b.cycles);
            v["nodes_per_second"] = json!(b.clock.per_second(b.nodes, b.cycles).round());
        }
        if full.is_some() {
            v["full_solved"] = json!(full_solved);
        }
        writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
    } else {
        let mut summary = format!(
            "{agree}/{total} positions agree at depth {} ({name})",
            args.depth
        );
        for b in &builds {
            summary.push_str(&format!(
                "; {}: {} nodes in {} cycles, {:.0} nodes/s at {} MHz ({})",
                b.engine.port().name,
                b.nodes,
                b.cycles,
                b.clock.per_second(b.nodes, b.cycles),
                b.clock.mhz,
                b.clock.id
            ));
        }
        writeln!(out, "{summary}")?;
        if scored > 0 {
            let mut s = format!(
                "bm/am solved (+ in the table) of {scored} positions: native reference {native_solved}"
            );
            for b in &builds {
                s.push_str(&format!(", {} {}", b.engine.port().name, b.solved));
            }
            if full.is_some() {
                s.push_str(&format!(", native full {full_solved}"));
            }
            writeln!(out, "{s}")?;
        }
    }
    Ok(agree == total)
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
fn result_json(
    best: Option<Move>,
    score: i32,
    nodes: u64,
    pv: &[Move],
    exp: &Expected,
) -> serde_json::Value {
    let mut v = json!({
        "best": mv(best), "score": score, "mate": mate_in(score), "nodes": nodes,
        "pv": pv.iter().map(|m| m.to_uci()).collect::<Vec<_>>(),
    });
    if exp.given() {
        v["solved"] = json!(exp.solved(best));
    }
    v
}
