//! `kempelen compare --cpu z80`: the Z80 build against the native reference search on every
//! position of an EPD suite (the bundled one by default): best move, score, principal
//! variation and node count must be identical. Prints one line per position with the Z80's
//! cycles and its time at the chosen machine's clock, then a summary; the exit status is
//! non-zero on any disagreement. `--z80-source` compares a changed copy of the engine's
//! sources instead of the bundled ones.

use anyhow::{Context, bail};
use kempelen_asm::source::FsSource;
use kempelen_engine::reference::{ReferenceLimits, ReferenceSearch};
use kempelen_roms::{Z80Engine, suite};
use serde_json::json;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `kempelen compare`.
#[derive(clap::Args, Debug)]
pub struct CompareArgs {
    /// The 8-bit build to compare with the native engine (only `z80` exists).
    #[arg(long, default_value = "z80")]
    pub cpu: String,
    /// EPD suite (`FEN; id "..."; moves "...";`); default: the bundled suite.
    #[arg(long)]
    pub suite: Option<PathBuf>,
    /// Search depth (1-32).
    #[arg(long, default_value_t = 4)]
    pub depth: u32,
    /// Machine whose clock turns cycles into time (see `kempelen machines`).
    #[arg(long, default_value = "zx-spectrum")]
    pub machine: String,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
    /// Assemble the Z80 engine from this main file (a changed copy of
    /// `roms-src/z80/engine.asm`; includes are read beside it) instead of the bundled
    /// sources, to check a change against the reference before it goes in.
    #[arg(long, value_name = "ENGINE_ASM")]
    pub z80_source: Option<PathBuf>,
    #[arg(long, value_name = "CYCLES", help = crate::engine_common::MAX_CYCLES_HELP)]
    pub max_cycles: Option<u64>,
}

/// Runs the command; `Ok(false)` when some position disagrees.
pub fn run(args: &CompareArgs) -> anyhow::Result<bool> {
    if !args.cpu.eq_ignore_ascii_case("z80") {
        bail!(
            "--cpu {}: only the Z80 build of the reference engine exists",
            args.cpu
        );
    }
    if !(1..=32).contains(&args.depth) {
        bail!("--depth {}: the depth must be 1 to 32", args.depth);
    }
    let clock = crate::engine_common::z80_machine(Some(&args.machine))?;
    let (name, text) = match &args.suite {
        Some(p) => (p.display().to_string(), suite::read_file(p)?),
        None => (suite::BUNDLED_NAME.to_string(), suite::BUNDLED.to_string()),
    };
    let entries = suite::parse(&text, &name)?;
    let games = entries
        .iter()
        .map(|e| e.game(&name))
        .collect::<Result<Vec<_>, _>>()?;
    let mut z80 = match &args.z80_source {
        Some(p) => Z80Engine::assemble_from(&FsSource, &p.to_string_lossy())
            .with_context(|| format!("--z80-source {}", p.display()))?,
        None => Z80Engine::assemble()?,
    };
    z80.clock = Some(clock);
    crate::engine_common::set_max_cycles(&mut z80, args.max_cycles)?;
    let mut out = std::io::stdout().lock();
    let mut rows = Vec::new();
    let (mut agree, mut nodes, mut cycles) = (0usize, 0u64, 0u64);
    if !args.json {
        writeln!(
            out,
            "{:<5} {:<7} {:>6} {:>9}  {:<7} {:>6} {:>9} {:>13} {:>9}  position",
            "", "native", "score", "nodes", "z80", "score", "nodes", "cycles", "seconds"
        )?;
    }
    for (entry, game) in entries.iter().zip(&games) {
        let pos = game.position();
        let history = game.reference_history();
        let limits = ReferenceLimits {
            depth: Some(args.depth),
            ..ReferenceLimits::default()
        };
        let native = ReferenceSearch::new(pos, &history, limits).run();
        let mv = |m: Option<kempelen_engine::Move>| m.map_or("-".to_string(), |m| m.to_uci());
        let line_of = |pv: &[kempelen_engine::Move]| {
            pv.iter().map(|m| m.to_uci()).collect::<Vec<_>>().join(" ")
        };
        // A failed Z80 run is a disagreement: reported in its row, and the suite goes on.
        let z = match z80.search(pos, &history, args.depth, None) {
            Ok(z) => z,
            Err(e) => {
                let message = format!("{name}:{}: {}: {e}", entry.line, entry.id);
                if args.json {
                    rows.push(json!({
                        "line": entry.line, "id": entry.id, "fen": pos.to_fen(), "agree": false,
                        "native": {"best": mv(native.best), "score": native.score,
                                   "nodes": native.nodes,
                                   "pv": native.pv.iter().map(|m| m.to_uci()).collect::<Vec<_>>()},
                        "error": message,
                    }));
                } else {
                    writeln!(
                        out,
                        "{:<5} {:<7} {:>6} {:>9}  {}",
                        "ERROR",
                        mv(native.best),
                        native.score,
                        native.nodes,
                        message
                    )?;
                }
                continue;
            }
        };
        let r = &z.result;
        let same = r.best == native.best
            && r.score == native.score
            && r.pv == native.pv
            && r.nodes == native.nodes;
        agree += usize::from(same);
        nodes += r.nodes;
        cycles += z.cycles;
        let seconds = clock.duration(z.cycles).as_secs_f64();
        if args.json {
            rows.push(json!({
                "line": entry.line, "id": entry.id, "fen": pos.to_fen(), "agree": same,
                "native": {"best": mv(native.best), "score": native.score, "nodes": native.nodes,
                           "pv": native.pv.iter().map(|m| m.to_uci()).collect::<Vec<_>>()},
                "z80": {"best": mv(r.best), "score": r.score, "nodes": r.nodes,
                        "pv": r.pv.iter().map(|m| m.to_uci()).collect::<Vec<_>>(),
                        "cycles": z.cycles, "seconds": seconds, "peak_ram": z.ram.peak_bytes},
            }));
        } else {
            writeln!(
                out,
                "{:<5} {:<7} {:>6} {:>9}  {:<7} {:>6} {:>9} {:>13} {:>9.2}  {}",
                if same { "ok" } else { "DIFF" },
                mv(native.best),
                native.score,
                native.nodes,
                mv(r.best),
                r.score,
                r.nodes,
                z.cycles,
                seconds,
                entry.id
            )?;
            if !same {
                writeln!(out, "      native pv {}", line_of(&native.pv))?;
                writeln!(out, "      z80    pv {}", line_of(&r.pv))?;
            }
        }
    }
    let total = entries.len();
    let nps = clock.per_second(nodes, cycles);
    if args.json {
        let v = json!({
            "suite": name, "depth": args.depth, "machine": clock.id, "mhz": clock.mhz,
            "positions": total, "agree": agree, "nodes": nodes, "cycles": cycles,
            "nodes_per_second": nps, "results": rows,
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
    } else {
        writeln!(
            out,
            "{agree}/{total} positions agree at depth {} ({name}); Z80: {nodes} nodes in {cycles} cycles, {:.0} nodes/s at {} MHz ({})",
            args.depth, nps, clock.mhz, clock.id
        )?;
    }
    Ok(agree == total)
}
