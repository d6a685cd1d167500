//! `kempelen perft`: leaf counts of the legal move tree, optionally split by root move, by the
//! native engine or the Z80 build (which also reports its exact cycles and the time at a
//! historical machine's clock).

use crate::engine_common::{EngineArg, nps, z80_engine, z80_machine};
use anyhow::{Context, bail};
use kempelen_emulator::ClockProfile;
use kempelen_engine::{Engine, Position};
use kempelen_roms::Z80Engine;
use serde_json::json;
use std::time::{Duration, Instant};

/// Arguments of `kempelen perft`.
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// Depth in plies (the Z80 engine: 0 to 255, and the count must fit 32 bits).
    #[arg(long)]
    pub depth: u32,
    /// Position (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Print the count below each root move.
    #[arg(long)]
    pub divide: bool,
    /// Which engine counts: the native one or the Z80 build in the emulator.
    #[arg(long, value_enum, default_value = "native")]
    pub engine: EngineArg,
    /// Z80 engine: the machine whose clock turns cycles into time (see `kempelen machines`;
    /// default zx-spectrum). With it, `time` and `nodes/s` are at that clock.
    #[arg(long, value_name = "ID")]
    pub machine: Option<String>,
    #[arg(long, value_name = "CYCLES", help = crate::engine_common::MAX_CYCLES_HELP)]
    pub max_cycles: Option<u64>,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
}

/// What counts the leaves: a backend through the `Engine` trait, or the Z80 engine directly
/// (for its cycles).
enum Counter<'a> {
    Native(&'a mut dyn Engine),
    Z80(Z80Engine, &'static ClockProfile),
}

impl Counter<'_> {
    /// Leaves and, for the Z80, cycles.
    fn count(&mut self, pos: &Position, depth: u32) -> anyhow::Result<(u64, u64)> {
        match self {
            Counter::Native(e) => Ok((e.perft(pos, depth)?, 0)),
            Counter::Z80(e, _) => {
                let d = depth as u8;
                let out = Z80Engine::perft(e, pos, d)
                    .with_context(|| format!("Z80 perft {depth} of {}", pos.to_fen()))?;
                Ok((out.count, out.cycles))
            }
        }
    }
}

/// Runs the command; `native` is the backend for `--engine native`.
pub fn run(args: &PerftArgs, native: &mut dyn Engine) -> anyhow::Result<()> {
    let fen = args.fen.as_deref().unwrap_or(kempelen_engine::START_FEN);
    let pos = Position::from_fen(fen).with_context(|| format!("--fen '{fen}'"))?;
    let mut counter = match args.engine {
        EngineArg::Native => {
            if args.machine.is_some() {
                bail!("--machine: only the Z80 engine (--engine z80) runs at a machine's clock");
            }
            Counter::Native(native)
        }
        EngineArg::Z80 => {
            if args.depth > 255 {
                bail!(
                    "--depth {}: the Z80 engine counts perft to depth 255 at most (its depth is one byte; docs/PROTOCOL.md)",
                    args.depth
                );
            }
            let clock = z80_machine(args.machine.as_deref())?;
            Counter::Z80(z80_engine(clock, false, args.max_cycles)?, clock)
        }
    };
    let start = Instant::now();
    let mut split = Vec::new();
    let (total, cycles) = if args.divide && args.depth > 0 {
        let (mut total, mut cycles) = (0, 0);
        for &m in pos.legal_moves().iter() {
            let mut child = pos.clone();
            child.play(m);
            let (n, c) = counter.count(&child, args.depth - 1)?;
            total += n;
            cycles += c;
            split.push((m, n));
        }
        (total, cycles)
    } else {
        counter.count(&pos, args.depth)?
    };
    let host = start.elapsed();
    let clock = match &counter {
        Counter::Z80(_, c) => Some(*c),
        Counter::Native(_) => None,
    };
    // The Z80's time is the time at the machine's clock; the host's time is reported beside.
    let time = clock.map_or(host, |c| c.duration(cycles));
    if args.json {
        let divide: Vec<_> = split
            .iter()
            .map(|(m, n)| json!({"move": m.to_uci(), "nodes": n}))
            .collect();
        let mut v = json!({
            "engine": engine_name(args.engine),
            "fen": pos.to_fen(),
            "depth": args.depth,
            "nodes": total,
            "time_ms": ms(time),
            "nodes_per_second": nps(total, time),
        });
        if args.divide {
            v["divide"] = json!(divide);
        }
        if let Some(c) = clock {
            v["cycles"] = json!(cycles);
            v["machine"] = json!(c.id);
            v["mhz"] = json!(c.mhz);
            v["host_ms"] = json!(ms(host));
        }
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        for (m, n) in &split {
            println!("{m}: {n}");
        }
        if args.divide {
            println!();
        }
        match clock {
            None => println!(
                "perft {} = {}  ({:.3} s, {} nodes/s)",
                args.depth,
                total,
                time.as_secs_f64(),
                nps(total, time)
            ),
            Some(c) => println!(
                "perft {} = {}  (Z80: {} cycles, {:.3} s at {} MHz ({}), {} nodes/s; host {:.3} s)",
                args.depth,
                total,
                crate::run::grouped(cycles),
                time.as_secs_f64(),
                c.mhz,
                c.id,
                nps(total, time),
                host.as_secs_f64()
            ),
        }
    }
    Ok(())
}

/// `native` or `z80`, as in JSON output.
pub fn engine_name(e: EngineArg) -> &'static str {
    match e {
        EngineArg::Native => "native",
        EngineArg::Z80 => "z80",
    }
}

fn ms(t: Duration) -> f64 {
    crate::output::millis(t)
}
