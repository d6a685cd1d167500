//! `kempelen search`: one search of a position, printing best move, score, nodes and PV, by
//! the native engine or the Z80 build (which also reports its exact cycles and the time at a
//! historical machine's clock).

use crate::engine_common::{EngineArg, ProfileArg, nps, z80_engine, z80_machine};
use crate::perft::engine_name;
use anyhow::{Context, bail};
use kempelen_emulator::ClockProfile;
use kempelen_engine::uci::{format_info, format_score};
use kempelen_engine::{Engine, Game, Limits, SearchControl, SearchResult, mate_in, time};
use serde_json::json;
use std::time::{Duration, Instant};

/// Arguments of `kempelen search`.
#[derive(clap::Args, Debug)]
pub struct SearchArgs {
    /// Depth in plies (iterations of the iterative deepening; the Z80 engine: 1 to 32).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Node limit (reference profile: the exact semantics of ALGORITHM.md section 9; the Z80
    /// engine: at most 2^32 - 1).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Time limit in milliseconds (the Z80 engine: emulated time at the machine's clock).
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Position (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves (UCI text) played from the position first; they also form the repetition history.
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    pub moves: Vec<String>,
    /// Search profile: reference, full, or a historical one (turing, shannon, tartan,
    /// microchess, micromax, ...; see docs/history/). The Z80 engine has only `reference`.
    #[arg(long, default_value = "reference")]
    pub profile: ProfileArg,
    /// Which engine searches: the native one or the Z80 build in the emulator.
    #[arg(long, value_enum, default_value = "native")]
    pub engine: EngineArg,
    /// Z80 engine: the machine whose clock turns cycles into time and measures `--movetime`
    /// (see `kempelen machines`; default zx-spectrum).
    #[arg(long, value_name = "ID")]
    pub machine: Option<String>,
    #[arg(long, value_name = "CYCLES", help = crate::engine_common::MAX_CYCLES_HELP)]
    pub max_cycles: Option<u64>,
    /// Machine-readable output (no progress lines).
    #[arg(long)]
    pub json: bool,
}

/// What the Z80 engine adds to a search result.
struct Z80Cost {
    cycles: u64,
    clock: &'static ClockProfile,
    host: Duration,
}

/// Runs the command; `native` is the backend for `--engine native`.
pub fn run(args: &SearchArgs, native: &mut dyn Engine) -> anyhow::Result<()> {
    if args.depth.is_none() && args.nodes.is_none() && args.movetime.is_none() {
        bail!("give a limit: --depth N, --nodes N or --movetime MS");
    }
    if args.depth == Some(0) {
        bail!("--depth must be at least 1");
    }
    let fen = args.fen.as_deref().unwrap_or(kempelen_engine::START_FEN);
    let mut game = Game::from_fen(fen).with_context(|| format!("--fen '{fen}'"))?;
    for (i, m) in args.moves.iter().enumerate() {
        game.push_uci(m)
            .with_context(|| format!("--moves, move {}", i + 1))?;
    }
    let limits = Limits {
        depth: args.depth,
        nodes: args.nodes,
        movetime: args.movetime.map(Duration::from_millis),
        ..Limits::default()
    };
    let control = if args.json {
        SearchControl::default()
    } else {
        SearchControl::with_info(|info| println!("{}", format_info(info)))
    };
    let (r, z80) = match args.engine {
        EngineArg::Native => {
            if args.machine.is_some() {
                bail!("--machine: only the Z80 engine (--engine z80) runs at a machine's clock");
            }
            (native.search(&game, &limits, &control)?, None)
        }
        EngineArg::Z80 => {
            let (r, cost) = search_z80(args, &game, &limits, &control)?;
            (r, Some(cost))
        }
    };
    let pv: Vec<String> = r.pv.iter().map(|m| m.to_uci()).collect();
    let best = r.best.map_or("0000".to_string(), |m| m.to_uci());
    if args.json {
        let mut v = json!({
            "fen": game.position().to_fen(),
            "profile": format!("{:?}", args.profile).to_lowercase(),
            "best": best,
            "score": r.score,
            "mate": mate_in(r.score),
            "depth": r.depth,
            "nodes": r.nodes,
            "time_ms": crate::output::millis(r.time),
            "nodes_per_second": nps(r.nodes, r.time),
            "pv": pv,
            "engine": engine_name(args.engine),
        });
        if let Some(z) = &z80 {
            v["cycles"] = json!(z.cycles);
            v["machine"] = json!(z.clock.id);
            v["mhz"] = json!(z.clock.mhz);
            v["host_ms"] = json!(crate::output::millis(z.host));
        }
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        let san = r
            .best
            .map(|m| game.position().san(m))
            .unwrap_or_else(|| "(none)".into());
        println!(
            "bestmove {best} ({san})  score {}  depth {}  nodes {}  time {:.3} s  nps {}",
            format_score(r.score),
            r.depth,
            r.nodes,
            r.time.as_secs_f64(),
            nps(r.nodes, r.time)
        );
        println!("pv {}", pv.join(" "));
        if let Some(z) = &z80 {
            println!(
                "z80 {} cycles: {:.3} s at {} MHz ({}); host {:.3} s",
                crate::run::grouped(z.cycles),
                z.clock.duration(z.cycles).as_secs_f64(),
                z.clock.mhz,
                z.clock.id,
                z.host.as_secs_f64()
            );
        }
    }
    Ok(())
}

/// The search by the Z80 build: the same limits (time in emulated time at the machine's
/// clock), refused with a clear message where the build cannot follow them.
fn search_z80(
    args: &SearchArgs,
    game: &Game,
    limits: &Limits,
    control: &SearchControl,
) -> anyhow::Result<(SearchResult, Z80Cost)> {
    if args.profile != ProfileArg::Reference {
        bail!(
            "--profile {}: the Z80 build runs the reference profile only (the {} profile is the native engine's)",
            args.profile,
            args.profile
        );
    }
    if let Some(d) = args.depth {
        if d > 32 {
            bail!("--depth {d}: the Z80 engine searches depths 1 to 32 (docs/PROTOCOL.md)");
        }
    }
    let nodes = match args.nodes {
        None => None,
        Some(n) => Some(u32::try_from(n).map_err(|_| {
            anyhow::anyhow!("--nodes {n}: the Z80 engine's node limit is at most 4294967295")
        })?),
    };
    let clock = z80_machine(args.machine.as_deref())?;
    let engine = z80_engine(clock, false, args.max_cycles)?;
    let pos = game.position();
    let budget = time::budget(limits, pos.side());
    let start = Instant::now();
    let out = engine
        .search_with(
            pos,
            &game.reference_history(),
            args.depth.unwrap_or(32),
            nodes,
            control,
            budget,
        )
        .context("the Z80 engine")?;
    let cost = Z80Cost {
        cycles: out.cycles,
        clock,
        host: start.elapsed(),
    };
    Ok((out.result, cost))
}
