//! `kempelen bench --program FILE.toml`: a historical program's speed on its own machine,
//! measured. The program (through its adaptor file, as `kempelen uci --program` runs it)
//! searches the bench positions (engine/data/bench.epd), each from a freshly started program,
//! at each level; its nodes are the entries to the routine(s) the adaptor file names as its
//! node (Sargon: POINTS, a position evaluated; Microchess: JANUS, a position generated), its
//! time the cycles of the turn in which it computes its move at the machine's clock. Positions
//! per second = those nodes / that emulated time, over the positions it searched (a position
//! it cannot take, or answers from its opening book without a node, is listed and left out).
//!
//! `--save FILE` writes the figures as the data file of the bench chart
//! (`kempelen_claims::programs`, docs/history/program-speed.json).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use kempelen_adaptor::AdaptorEngine;
use kempelen_claims::programs::{LevelSpeed, PositionSpeed, ProgramSpeed, ProgramSpeeds};
use kempelen_emulator::grouped;
use kempelen_engine::{Engine, Game, Limits, SearchControl};

/// Where the positions come from (as the data file names it).
pub const POSITIONS_FILE: &str = "engine/data/bench.epd";

/// What the command asks of the program bench.
pub struct ProgramBenchOptions {
    /// The adaptor files, in the order given.
    pub programs: Vec<PathBuf>,
    /// The levels (default: those of each file's time model, else its default level).
    pub levels: Vec<u32>,
    /// The positions (an EPD suite; default the bench positions).
    pub suite: Option<PathBuf>,
    /// Only the first N positions.
    pub positions: Option<usize>,
    /// JSON instead of text.
    pub json: bool,
    /// Where to write the figures as JSON.
    pub save: Option<PathBuf>,
}

/// Runs the program bench.
pub fn run(o: &ProgramBenchOptions) -> anyhow::Result<()> {
    let suite = kempelen_roms::bench::load_suite(
        o.suite.as_deref(),
        POSITIONS_FILE,
        kempelen_engine::bench::BENCH_EPD,
    )?;
    let positions_file = suite.name.clone();
    let mut positions = suite.positions;
    match o.positions {
        Some(0) => bail!("--positions must be at least 1"),
        Some(n) if n > positions.len() => bail!(
            "--positions {n}: {positions_file} holds {} positions",
            positions.len()
        ),
        Some(n) => positions.truncate(n),
        None => {}
    }
    let inputs: Vec<PathBuf> = o.programs.iter().chain(&o.suite).cloned().collect();
    if let Some(save) = &o.save {
        crate::output::check_outputs(&inputs, &[("--save", save.as_path())])?;
        crate::output::check_writable("--save", save)?;
    }
    let plans = plan(o)?;
    if !o.levels.is_empty() && plans.iter().all(|(_, l)| l == &[None]) {
        bail!(
            "--level: no program given has levels (their adaptor files have no [depth]); leave --level out"
        );
    }
    let bar = crate::progress::bar(
        plans
            .iter()
            .map(|(_, l)| (l.len() * positions.len()) as u64)
            .sum(),
        "searches",
        o.json,
    );
    let ticker = crate::progress::Ticker::start("bench", &bar, o.json);
    let mut programs = Vec::new();
    for (file, levels) in &plans {
        programs.push(measure(
            file,
            levels,
            &positions,
            &bar,
            !o.levels.is_empty(),
        )?);
    }
    drop(ticker);
    bar.finish_and_clear();
    let speeds = ProgramSpeeds {
        command: command_line(),
        positions_file,
        programs,
    };
    kempelen_claims::programs::check(&speeds)
        .map_err(|e| anyhow::anyhow!("bench --program: {e}"))?;
    let json = serde_json::to_string_pretty(&speeds)? + "\n";
    if o.json {
        print!("{json}");
    } else {
        print!("{}", to_text(&speeds));
    }
    if let Some(save) = &o.save {
        // The same figures leave the file untouched: docs/history/program-speed.json is
        // compiled into the binary, and a rewrite with the same bytes would rebuild it.
        // (Read only when its size is the figures' own.)
        let unchanged = std::fs::metadata(save)
            .is_ok_and(|m| m.is_file() && m.len() == json.len() as u64)
            && std::fs::read(save).is_ok_and(|old| old == json.as_bytes());
        if !unchanged {
            crate::output::write_output("--save", save, json.as_bytes(), &inputs)?;
        }
        if !o.json {
            let done = if unchanged {
                "unchanged (the same figures) in"
            } else {
                "written to"
            };
            println!("figures {done} {}", save.display());
        }
    }
    Ok(())
}

/// An adaptor file and the levels it is searched at (`None`: a program without levels).
type Plan<'a> = (&'a PathBuf, Vec<Option<u32>>);

/// Each adaptor file read and its levels checked before the first search: the levels asked
/// (`--level`), else those of its time model, else its default level; none for a program
/// without levels.
fn plan(o: &ProgramBenchOptions) -> anyhow::Result<Vec<Plan<'_>>> {
    let mut plans = Vec::new();
    for file in &o.programs {
        let engine =
            AdaptorEngine::new(file).with_context(|| format!("--program {}", file.display()))?;
        let a = engine.adaptor();
        if a.node_routines().is_none() {
            bail!(
                "--program {}: {} counts no nodes (its adaptor file has no [nodes]), so it has no positions per second",
                file.display(),
                a.name()
            );
        }
        let levels: Vec<Option<u32>> = match a.max_level() {
            None => vec![None],
            Some(max) => {
                let wanted = if !o.levels.is_empty() {
                    o.levels.clone()
                } else if !a.modelled_levels().is_empty() {
                    a.modelled_levels()
                } else {
                    a.default_level().into_iter().collect()
                };
                if let Some(bad) = wanted.iter().find(|&&l| l == 0 || l > max) {
                    bail!("--level {bad}: {} takes levels 1 to {max}", a.name());
                }
                wanted.into_iter().map(Some).collect()
            }
        };
        plans.push((file, levels));
    }
    Ok(plans)
}

/// One program's figures: every position at every level, each searched by a freshly started
/// program; `given`: the levels were asked for (`--level`).
fn measure(
    file: &Path,
    levels: &[Option<u32>],
    positions: &[kempelen_roms::bench::BenchPosition],
    bar: &indicatif::ProgressBar,
    given: bool,
) -> anyhow::Result<ProgramSpeed> {
    let probe = AdaptorEngine::new(file)?;
    let a = probe.adaptor();
    let (routines, what) = a.node_routines().expect("checked above");
    let clock = a.clock();
    let mut measured = Vec::new();
    for &level in levels {
        let mut rows = Vec::new();
        for p in positions {
            bar.set_message(format!(
                "{}, {}: {}",
                a.name(),
                ProgramSpeed::level_label(level),
                p.entry.id
            ));
            rows.push(search(file, level, &p.entry.id, &p.game)?);
            bar.inc(1);
        }
        measured.push(LevelSpeed::from_rows(level, rows, clock.mhz));
    }
    Ok(ProgramSpeed {
        program: a.name().to_string(),
        adaptor: file.display().to_string(),
        machine: a.machine().to_string(),
        clock: clock.id.to_string(),
        mhz: clock.mhz,
        node: what.to_string(),
        node_routines: routines.to_vec(),
        levels_note: levels_note(a, levels, given),
        levels: measured,
    })
}

/// One position at one level, searched by a freshly started program.
fn search(
    file: &Path,
    level: Option<u32>,
    name: &str,
    game: &Game,
) -> anyhow::Result<PositionSpeed> {
    let mut engine = AdaptorEngine::new(file)?;
    let limits = match level {
        Some(l) => Limits::depth(l),
        None => Limits::default(),
    };
    let result = engine.search(game, &limits, &SearchControl::default());
    let figures = engine.last_search();
    let mut row = PositionSpeed {
        name: name.to_string(),
        fen: game.position().to_fen(),
        best: None,
        nodes: figures.and_then(|f| f.nodes),
        cycles: figures.map(|f| f.cycles),
        note: None,
    };
    match result {
        Ok(r) => {
            row.best = r.best.map(|m| m.to_uci());
            if row.nodes == Some(0) {
                row.note = Some("answered without a node counted (a book move)".into());
            }
        }
        Err(e) => row.note = Some(format!("not searched: {e}")),
    }
    Ok(row)
}

/// What the levels are: chosen how, or that the program has none and what it searches then.
fn levels_note(a: &kempelen_adaptor::Adaptor, levels: &[Option<u32>], given: bool) -> String {
    match a.max_level() {
        None => format!(
            "{} has no levels (no key sets a depth; its adaptor file has no [depth]): one run a \
             position, searching {}",
            a.name(),
            a.search().unwrap_or("as it always does")
        ),
        Some(max) => {
            let list: Vec<String> = levels.iter().flatten().map(u32::to_string).collect();
            let how = if given {
                "as asked (--level)".to_string()
            } else if !a.modelled_levels().is_empty() {
                "those of its adaptor file's time model ([[level]])".to_string()
            } else {
                "its default level".to_string()
            };
            format!(
                "levels {}: {how}; it takes 1 to {max} (the level typed to it)",
                list.join(", ")
            )
        }
    }
}

/// The command line as typed, with the program's name for the binary's path.
fn command_line() -> String {
    let mut args = std::env::args();
    args.next();
    std::iter::once("kempelen".to_string())
        .chain(args)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The figures as text: per program, a line per level, then the positions.
pub fn to_text(s: &ProgramSpeeds) -> String {
    let mut out = String::new();
    let o = &mut out;
    for (i, p) in s.programs.iter().enumerate() {
        if i > 0 {
            let _ = writeln!(o);
        }
        let _ = writeln!(
            o,
            "{} on {} at {} MHz ({}), {} positions of {}",
            p.program,
            p.machine,
            p.mhz,
            p.clock,
            p.levels.first().map_or(0, |l| l.positions),
            s.positions_file
        );
        let _ = writeln!(
            o,
            "  node: {} ({}); time: the cycles of the turn in which it computes its move, at the clock",
            p.node,
            p.node_routines.join(", ")
        );
        let _ = writeln!(o, "  {}", p.levels_note);
        let _ = writeln!(
            o,
            "  {:<30} {:>9} {:>14} {:>16} {:>12} {:>12}",
            "level", "searched", "nodes", "cycles", "emulated s", "positions/s"
        );
        for l in &p.levels {
            let _ = writeln!(
                o,
                "  {:<30} {:>9} {:>14} {:>16} {:>12.1} {:>12.1}",
                ProgramSpeed::level_label(l.level),
                format!("{}/{}", l.positions_searched, l.positions),
                grouped(l.nodes),
                grouped(l.cycles),
                l.emulated_seconds,
                l.positions_per_second
            );
        }
        for l in &p.levels {
            let _ = writeln!(o, "  {}:", ProgramSpeed::level_label(l.level));
            for r in &l.rows {
                let figures = match (r.nodes, r.cycles) {
                    (Some(n), Some(c)) => format!(
                        "{:>10} nodes {:>9.1} s",
                        grouped(n),
                        c as f64 / (p.mhz * 1e6)
                    ),
                    _ => String::new(),
                };
                let _ = writeln!(
                    o,
                    "    {:<28} {:>6} {figures}{}",
                    r.name,
                    r.best.as_deref().unwrap_or("-"),
                    r.note
                        .as_deref()
                        .map(|n| format!("  ({n})"))
                        .unwrap_or_default()
                );
            }
        }
    }
    out
}
