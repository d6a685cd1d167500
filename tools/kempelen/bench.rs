//! `kempelen bench`: the fixed bench positions at a fixed depth per profile, printing each
//! position's nodes, the deterministic node total and the speed.

use crate::engine_common::{backend, nps};
use kempelen_engine::{Profile, bench};
use serde_json::json;
use std::time::Duration;

/// `--profile` values of the bench.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum BenchProfile {
    /// The reference profile only.
    Reference,
    /// The full profile only.
    Full,
    /// Both, one after the other.
    Both,
}

/// Arguments of `kempelen bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Which profile(s) to run.
    #[arg(long, value_enum, default_value = "both")]
    pub profile: BenchProfile,
    /// Depth instead of the profile's default (reference 6, full 12); changes the node total.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
}

/// Runs the command.
pub fn run(args: &BenchArgs) -> anyhow::Result<()> {
    let profiles: &[Profile] = match args.profile {
        BenchProfile::Reference => &[Profile::Reference],
        BenchProfile::Full => &[Profile::Full],
        BenchProfile::Both => &[Profile::Reference, Profile::Full],
    };
    if args.depth == Some(0) {
        anyhow::bail!("--depth must be at least 1");
    }
    let mut reports = Vec::new();
    for &profile in profiles {
        let depth = args.depth.unwrap_or_else(|| bench::default_depth(profile));
        let mut engine = backend(profile);
        if !args.json {
            println!("profile {profile}, depth {depth}");
        }
        let json_mode = args.json;
        let entries = bench::run(engine.as_mut(), depth, |e| {
            if !json_mode {
                println!(
                    "  {:<28} {:>6} {:>7} {:>12} nodes {:>9.3} s",
                    e.position.name,
                    e.best,
                    kempelen_engine::uci::format_score(e.score),
                    e.nodes,
                    e.time.as_secs_f64()
                );
            }
        })?;
        let nodes: u64 = entries.iter().map(|e| e.nodes).sum();
        let time: Duration = entries.iter().map(|e| e.time).sum();
        if !args.json {
            println!(
                "  total {nodes} nodes in {:.3} s, {} nodes/s",
                time.as_secs_f64(),
                nps(nodes, time)
            );
        }
        reports.push(json!({
            "profile": profile.to_string(),
            "depth": depth,
            "positions": entries.iter().map(|e| json!({
                "name": e.position.name,
                "fen": e.position.fen,
                "best": e.best,
                "score": e.score,
                "nodes": e.nodes,
                "time_ms": e.time.as_secs_f64() * 1000.0,
            })).collect::<Vec<_>>(),
            "nodes": nodes,
            "time_ms": time.as_secs_f64() * 1000.0,
            "nps": nps(nodes, time),
        }));
    }
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&json!({ "profiles": reports }))?
        );
    }
    Ok(())
}
