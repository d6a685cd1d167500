//! Development aid: compare a port's search (`--cpu z80`, the default, or `--cpu 6502`) with
//! the native reference search on FENs read from stdin, at depths 1..=DEPTH, and print cycles
//! per node; with `--profile`, the cycles per routine of the last position's deepest search.
//!
//! `cargo run -p kempelen-roms --example portcmp -- DEPTH [--cpu 6502] [--profile] < positions.txt`
use kempelen_engine::{Position, reference};
use kempelen_roms::{Port, PortEngine};
use std::io::BufRead;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth: u32 = args[0].parse().expect("depth");
    let profile = args.iter().any(|a| a == "--profile");
    let port = args
        .iter()
        .position(|a| a == "--cpu")
        .map(|i| {
            let id = args.get(i + 1).map_or("", String::as_str);
            Port::by_id(id).unwrap_or_else(|| panic!("--cpu {id}: the ports are z80 and 6502"))
        })
        .unwrap_or(&kempelen_roms::port::Z80);
    let clock = port.default_machine();
    let e = PortEngine::assemble(port).unwrap_or_else(|e| panic!("{e}"));
    if args.iter().any(|a| a == "--ram") {
        for line in std::io::stdin().lock().lines() {
            let fen = line.unwrap();
            let pos = Position::from_fen(fen.trim()).expect("fen");
            let mut row = Vec::new();
            for d in 1..=depth {
                let z = e.search(&pos, &[], d, None).expect("search");
                row.push(format!(
                    "{}/{}",
                    z.ram.peak_bytes,
                    z.ram.stack.map(|s| s.max_depth).unwrap_or(0)
                ));
            }
            println!("{} | {}", row.join(" "), fen.trim());
        }
        return;
    }
    if args.iter().any(|a| a == "--perft") {
        for line in std::io::stdin().lock().lines() {
            let fen = line.unwrap();
            let pos = Position::from_fen(fen.trim()).expect("fen");
            let z = e.perft(&pos, depth as u8).expect("perft").count;
            let n = kempelen_engine::perft(&pos, depth);
            println!("{} {z} {n} {fen}", if z == n { "ok" } else { "DIFF" });
        }
        return;
    }
    let (mut agree, mut total, mut nodes, mut cycles) = (0, 0, 0u64, 0u64);
    let mut last = None;
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap();
        let fen: String = line
            .split_whitespace()
            .take(6)
            .collect::<Vec<_>>()
            .join(" ");
        if fen.is_empty() {
            continue;
        }
        let fen = if fen.split_whitespace().count() == 4 {
            format!("{fen} 0 1")
        } else {
            fen
        };
        let pos = Position::from_fen(&fen).expect("fen");
        for d in 1..=depth {
            let limits = reference::ReferenceLimits::depth(d);
            let n = reference::search(&pos, &[], limits);
            total += 1;
            match e.search(&pos, &[], d, None) {
                Ok(z) => {
                    let z = z.result.clone();
                    let ok = n.best == z.best
                        && n.score == z.score
                        && n.nodes == z.nodes
                        && n.pv == z.pv;
                    if ok {
                        agree += 1;
                        nodes += z.nodes;
                        cycles += e.search(&pos, &[], d, None).unwrap().cycles;
                    } else {
                        let s = |pv: &[kempelen_engine::Move]| {
                            pv.iter().map(|m| m.to_uci()).collect::<Vec<_>>().join(" ")
                        };
                        println!(
                            "DIFF d{d} {fen}\n  native {} {} [{}]\n  {:<6} {} {} [{}]",
                            n.score,
                            n.nodes,
                            s(&n.pv),
                            port.id,
                            z.score,
                            z.nodes,
                            s(&z.pv)
                        );
                    }
                }
                Err(err) => println!("ERR d{d} {fen}: {err}"),
            }
        }
        last = Some(pos);
    }
    println!(
        "{agree}/{total} agree; {nodes} nodes, {cycles} cycles, {:.0} cycles/node, {:.0} nodes/s at {} MHz ({})",
        cycles as f64 / nodes.max(1) as f64,
        clock.per_second(nodes, cycles),
        clock.mhz,
        clock.id
    );
    if let (true, Some(pos)) = (profile, last) {
        let report = e.profile_search(&pos, depth).expect("profile");
        for r in report.rows.iter().take(40) {
            println!(
                "{:20} {:12} {:5.1}% {:8} calls",
                r.routine, r.cycles, r.share, r.calls
            );
        }
        let mut inc: Vec<_> = report.rows.iter().filter(|r| r.calls > 0).collect();
        inc.sort_by_key(|r| std::cmp::Reverse(r.inclusive));
        println!("inclusive:");
        for r in inc.iter().take(30) {
            let share = r.inclusive as f64 * 100.0 / report.total_cycles as f64;
            let per = r.inclusive as f64 / r.calls as f64;
            println!(
                "{:20} {:12} {share:5.1}% {:8} calls {per:8.0} per call",
                r.routine, r.inclusive, r.calls
            );
        }
    }
}
