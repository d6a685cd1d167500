//! `kempelen search`: one search of a position, printing best move, score, nodes and PV.

use crate::engine_common::{ProfileArg, nps};
use anyhow::{Context, bail};
use kempelen_engine::uci::{format_info, format_score};
use kempelen_engine::{Engine, Game, Limits, SearchControl, mate_in};
use serde_json::json;
use std::time::Duration;

/// Arguments of `kempelen search`.
#[derive(clap::Args, Debug)]
pub struct SearchArgs {
    /// Depth in plies (iterations of the iterative deepening).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Node limit (reference profile: the exact semantics of ALGORITHM.md section 9).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Time limit in milliseconds.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Position (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves (UCI text) played from the position first; they also form the repetition history.
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    pub moves: Vec<String>,
    /// Search profile.
    #[arg(long, value_enum, default_value = "reference")]
    pub profile: ProfileArg,
    /// Machine-readable output (no progress lines).
    #[arg(long)]
    pub json: bool,
}

/// Runs the command.
pub fn run(args: &SearchArgs, engine: &mut dyn Engine) -> anyhow::Result<()> {
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
    let r = engine.search(&game, &limits, &control)?;
    let pv: Vec<String> = r.pv.iter().map(|m| m.to_uci()).collect();
    let best = r.best.map_or("0000".to_string(), |m| m.to_uci());
    if args.json {
        let v = json!({
            "fen": game.position().to_fen(),
            "profile": format!("{:?}", args.profile).to_lowercase(),
            "best": best,
            "score": r.score,
            "mate": mate_in(r.score),
            "depth": r.depth,
            "nodes": r.nodes,
            "time_ms": r.time.as_secs_f64() * 1000.0,
            "nps": nps(r.nodes, r.time),
            "pv": pv,
        });
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
    }
    Ok(())
}
