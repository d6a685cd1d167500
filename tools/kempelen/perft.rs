//! `kempelen perft`: leaf counts of the legal move tree, optionally split by root move.

use crate::engine_common::nps;
use anyhow::Context;
use kempelen_engine::{Engine, Position};
use serde_json::json;
use std::time::Instant;

/// Arguments of `kempelen perft`.
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// Depth in plies.
    #[arg(long)]
    pub depth: u32,
    /// Position (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Print the count below each root move.
    #[arg(long)]
    pub divide: bool,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
}

/// Runs the command.
pub fn run(args: &PerftArgs, engine: &mut dyn Engine) -> anyhow::Result<()> {
    let fen = args.fen.as_deref().unwrap_or(kempelen_engine::START_FEN);
    let pos = Position::from_fen(fen).with_context(|| format!("--fen '{fen}'"))?;
    let start = Instant::now();
    let mut split = Vec::new();
    let total = if args.divide && args.depth > 0 {
        let mut total = 0;
        for &m in pos.legal_moves().iter() {
            let mut child = pos.clone();
            child.play(m);
            let n = engine.perft(&child, args.depth - 1)?;
            total += n;
            split.push((m, n));
        }
        total
    } else {
        engine.perft(&pos, args.depth)?
    };
    let time = start.elapsed();
    if args.json {
        let divide: Vec<_> = split
            .iter()
            .map(|(m, n)| json!({"move": m.to_uci(), "nodes": n}))
            .collect();
        let mut v = json!({
            "fen": pos.to_fen(),
            "depth": args.depth,
            "nodes": total,
            "time_ms": time.as_secs_f64() * 1000.0,
            "nps": nps(total, time),
        });
        if args.divide {
            v["divide"] = json!(divide);
        }
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        for (m, n) in &split {
            println!("{m}: {n}");
        }
        if args.divide {
            println!();
        }
        println!(
            "perft {} = {}  ({:.3} s, {} nodes/s)",
            args.depth,
            total,
            time.as_secs_f64(),
            nps(total, time)
        );
    }
    Ok(())
}
