//! `kempelen perft`: leaf counts of the legal move tree, optionally split by root move, by the
//! native engine or an 8-bit build (`--cpu z80|6502`, which also reports its exact cycles and
//! the time at a historical machine's clock).

use crate::engine_common::{CpuArg, nps, port_engine, port_machine, present_port};
use anyhow::{Context, bail};
use kempelen_emulator::Timing;
use kempelen_emulator::{ClockProfile, grouped};
use kempelen_engine::{Engine, Position};
use kempelen_roms::PortEngine;
use serde_json::json;
use std::time::{Duration, Instant};

/// Arguments of `kempelen perft`.
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// Depth in plies (the 8-bit engines: 0 to 255, and the count must fit 32 bits).
    #[arg(long)]
    pub depth: u32,
    /// Position (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Print the count below each root move.
    #[arg(long)]
    pub divide: bool,
    /// Which engine counts: the native one or an 8-bit build in the emulator (`--engine` is
    /// an alias).
    #[arg(long, value_enum, alias = "engine", default_value = "native")]
    pub cpu: CpuArg,
    /// 8-bit engine: the machine whose clock turns cycles into time (see `kempelen machines`;
    /// default zx-spectrum for the Z80, kim-1 for the 6502). With it, `time` and `nodes/s`
    /// are at that clock.
    #[arg(long, value_name = "ID")]
    pub machine: Option<String>,
    #[arg(long, value_name = "CYCLES", help = crate::engine_common::MAX_CYCLES_HELP)]
    pub max_cycles: Option<u64>,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
}

/// What counts the leaves: a backend through the `Engine` trait, or a port's engine directly
/// (for its cycles).
enum Counter<'a> {
    Native(&'a mut dyn Engine),
    Port(Box<PortEngine>, &'static ClockProfile),
}

impl Counter<'_> {
    /// Leaves and, for a port, cycles.
    fn count(&mut self, pos: &Position, depth: u32) -> anyhow::Result<(u64, u64)> {
        match self {
            Counter::Native(e) => Ok((e.perft(pos, depth)?, 0)),
            Counter::Port(e, _) => {
                let d = depth as u8;
                let out = PortEngine::perft(e, pos, d).with_context(|| {
                    format!("{} perft {depth} of {}", e.port().name, pos.to_fen())
                })?;
                Ok((out.count, out.cycles))
            }
        }
    }
}

/// What counts: the native engine, or the 8-bit build `--cpu` names at `--machine`'s clock
/// (refused where the build cannot count to `--depth`).
fn counter<'a>(args: &PerftArgs, native: &'a mut dyn Engine) -> anyhow::Result<Counter<'a>> {
    Ok(match present_port(args.cpu)? {
        None => {
            if args.machine.is_some() {
                bail!(
                    "--machine: only an 8-bit engine (--cpu z80 or --cpu 6502) runs at a machine's clock"
                );
            }
            Counter::Native(native)
        }
        Some(port) => {
            if args.depth > 255 {
                bail!(
                    "--depth {}: the {} engine counts perft to depth 255 at most (its depth is one byte; docs/PROTOCOL.md)",
                    args.depth,
                    port.name
                );
            }
            let clock = port_machine(port, args.machine.as_deref())?;
            Counter::Port(
                Box::new(port_engine(
                    port,
                    clock,
                    &Timing::Cpu,
                    false,
                    args.max_cycles,
                )?),
                clock,
            )
        }
    })
}

/// A count done: each root move's leaves (under `--divide`), the total, an 8-bit engine's
/// cycles and machine, the time (at the machine's clock for an 8-bit engine) and the host's.
struct Count {
    split: Vec<(kempelen_engine::Move, u64)>,
    total: u64,
    cycles: u64,
    time: Duration,
    host: Duration,
    clock: Option<&'static ClockProfile>,
}

/// Runs the command; `native` is the backend for `--cpu native`.
pub fn run(args: &PerftArgs, native: &mut dyn Engine) -> anyhow::Result<()> {
    let fen = args.fen.as_deref().unwrap_or(kempelen_engine::START_FEN);
    let pos = Position::from_fen(fen).with_context(|| format!("--fen '{fen}'"))?;
    let mut counter = counter(args, native)?;
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
        Counter::Port(_, c) => Some(*c),
        Counter::Native(_) => None,
    };
    // An 8-bit engine's time is the time at the machine's clock; the host's time is reported beside.
    let time = clock.map_or(host, |c| c.duration(cycles));
    if args.json {
        print_json(
            args,
            &pos,
            &Count {
                split,
                total,
                cycles,
                time,
                host,
                clock,
            },
        )?;
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
                "perft {} = {}  ({}: {} cycles, {:.3} s at {} MHz ({}), {} nodes/s; host {:.3} s)",
                args.depth,
                total,
                args.cpu.port().map_or("native", |p| p.name),
                grouped(cycles),
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

/// The count as JSON (with the moves' counts under `--divide`, and an 8-bit engine's cycles
/// and machine).
fn print_json(args: &PerftArgs, pos: &Position, count: &Count) -> anyhow::Result<()> {
    let (split, total, cycles) = (&count.split, count.total, count.cycles);
    let (time, host, clock) = (count.time, count.host, count.clock);
    let divide: Vec<_> = split
        .iter()
        .map(|(m, n)| json!({"move": m.to_uci(), "nodes": n}))
        .collect();
    let mut v = json!({
        "engine": args.cpu.id(),
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
    Ok(())
}

fn ms(t: Duration) -> f64 {
    crate::output::millis(t)
}
