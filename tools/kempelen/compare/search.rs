//! `kempelen search`: one search of a position, printing best move, score, nodes and PV, by
//! the native engine or an 8-bit build (`--cpu z80|6502`, which also reports its exact cycles
//! and the time at a historical machine's clock).

use crate::engine_common::{CpuArg, ProfileArg, nps, port_engine, port_machine, present_port};
use anyhow::{Context, bail};
use kempelen_emulator::{ClockProfile, Timing, TimingModel, grouped};
use kempelen_engine::uci::{format_info, format_score};
use kempelen_engine::{
    Engine, Game, Limits, SearchControl, SearchInfo, SearchResult, mate_in, time,
};
use kempelen_roms::Port;
use serde_json::json;
use std::time::{Duration, Instant};

/// Arguments of `kempelen search`.
#[derive(clap::Args, Debug)]
pub struct SearchArgs {
    /// Depth in plies (iterations of the iterative deepening; the 8-bit engines: 1 to 32).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Node limit (reference profile: the exact semantics of ALGORITHM.md section 9; the 8-bit
    /// engines: at most 2^32 - 1).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Time limit in milliseconds (the 8-bit engines: emulated time at the machine's clock).
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Position (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves (UCI text) played from the position first; they also form the repetition history.
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    pub moves: Vec<String>,
    /// Search profile: reference, full, or a historical one (turing, shannon, tartan,
    /// microchess, micromax, sargon, salomon, nimzo; see docs/history/). The 8-bit engines
    /// have only `reference`.
    #[arg(long, default_value = "reference")]
    pub profile: ProfileArg,
    /// Which engine searches: the native one or an 8-bit build in the emulator (`--engine` is
    /// an alias).
    #[arg(long, value_enum, alias = "engine", default_value = "native")]
    pub cpu: CpuArg,
    /// 8-bit engine: the machine whose clock turns cycles into time and measures `--movetime`
    /// (see `kempelen machines`; default zx-spectrum for the Z80, kim-1 for the 6502).
    #[arg(long, value_name = "ID")]
    pub machine: Option<String>,
    /// 8-bit engine: the machine's time (its timing model) or the CPU clock's.
    #[arg(long, value_name = "MODEL", default_value = "machine", value_parser = crate::engine_common::parse_timing, help = crate::engine_common::TIMING_HELP)]
    pub timing: Timing,
    #[arg(long, value_name = "CYCLES", help = crate::engine_common::MAX_CYCLES_HELP)]
    pub max_cycles: Option<u64>,
    /// Machine-readable output (no progress lines).
    #[arg(long)]
    pub json: bool,
}

/// What an 8-bit engine adds to a search result.
struct PortCost {
    port: &'static Port,
    cycles: u64,
    clock: &'static ClockProfile,
    /// The timing model the search's time is measured under, if any.
    timing: Option<&'static TimingModel>,
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
    let (r, ported) = match present_port(args.cpu)? {
        None => {
            if args.machine.is_some() {
                bail!(
                    "--machine: only an 8-bit engine (--cpu z80 or --cpu 6502) runs at a machine's clock"
                );
            }
            crate::engine_common::native_timing(&args.timing)?;
            (native.search(&game, &limits, &control)?, None)
        }
        Some(port) => {
            let (r, cost) = search_port(port, args, &game, &limits)?;
            (r, Some(cost))
        }
    };
    let pv: Vec<String> = r.pv.iter().map(|m| m.to_uci()).collect();
    let best = r.best.map_or("0000".to_string(), |m| m.to_uci());
    // A search counts at least the root: a move chosen with no node searched came from the
    // profile's opening book (Sargon's one move, Microchess's one line).
    let book = r.best.is_some() && r.nodes == 0;
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
            "engine": args.cpu.id(),
            "book": book,
        });
        if let Some(z) = &ported {
            v["cycles"] = json!(z.cycles);
            v["machine"] = json!(z.clock.id);
            v["mhz"] = json!(z.clock.mhz);
            v["timing"] = json!(z.timing.map_or("cpu".to_string(), |m| m.full_id()));
            v["time_ms_cpu"] = json!(crate::output::millis(z.clock.duration(z.cycles)));
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
        if book {
            println!(
                "{san} is the {} profile's book move: played without a search (so depth {} and no nodes)",
                format!("{:?}", args.profile).to_lowercase(),
                r.depth
            );
        }
        if let Some(z) = &ported {
            let machine = match z.timing {
                Some(m) => format!(
                    "; {:.3} s on the machine (timing {})",
                    r.time.as_secs_f64(),
                    m.full_id()
                ),
                None => String::new(),
            };
            println!(
                "{} {} cycles: {:.3} s at {} MHz ({}){machine}; host {:.3} s",
                z.port.id,
                grouped(z.cycles),
                z.clock.duration(z.cycles).as_secs_f64(),
                z.clock.mhz,
                z.clock.id,
                z.host.as_secs_f64()
            );
        }
    }
    Ok(())
}

/// The search by an 8-bit build: the same limits (time in emulated time at the machine's
/// clock), refused with a clear message where the build cannot follow them.
fn search_port(
    port: &'static Port,
    args: &SearchArgs,
    game: &Game,
    limits: &Limits,
) -> anyhow::Result<(SearchResult, PortCost)> {
    if args.profile != ProfileArg::Reference {
        bail!(
            "--profile {}: the {} build runs the reference profile only (the {} profile is the native engine's)",
            args.profile,
            port.name,
            args.profile
        );
    }
    if let Some(d) = args.depth {
        if d > 32 {
            bail!(
                "--depth {d}: the {} engine searches depths 1 to 32 (docs/PROTOCOL.md)",
                port.name
            );
        }
    }
    let nodes = match args.nodes {
        None => None,
        Some(n) => Some(u32::try_from(n).map_err(|_| {
            anyhow::anyhow!(
                "--nodes {n}: the {} engine's node limit is at most 4294967295",
                port.name
            )
        })?),
    };
    let clock = port_machine(port, args.machine.as_deref())?;
    let engine = port_engine(port, clock, &args.timing, false, args.max_cycles)?;
    let pos = game.position();
    let budget = time::budget(limits, pos.side());
    let start = Instant::now();
    // Each completed iteration is reported as it completes (the engine's host call
    // "iteration complete"): the native engine's info line plus the cycles so far.
    let json_mode = args.json;
    let report = |info: &SearchInfo, cycles: u64| {
        if !json_mode {
            println!("{} cycles {cycles}", format_info(info));
        }
    };
    let out = engine
        .search_with(
            pos,
            &game.reference_history(),
            args.depth.unwrap_or(32),
            nodes,
            &SearchControl::default(),
            budget,
            &report,
        )
        .with_context(|| format!("the {} engine", port.name))?;
    let cost = PortCost {
        port,
        cycles: out.cycles,
        clock,
        timing: engine.timing,
        host: start.elapsed(),
    };
    Ok((out.result, cost))
}
