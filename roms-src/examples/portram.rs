//! Development aid: for each position of the bundled suite, the peak RAM of a port's engine
//! at depth 1 and at depth DEPTH, their difference per ply, and nodes and cycles at DEPTH.
//! `cargo run -p kempelen-roms --example portram -- DEPTH [--cpu z80|6502]`
use kempelen_roms::{Port, PortEngine, suite};

fn main() {
    let depth: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(8);
    let args: Vec<String> = std::env::args().collect();
    let id = args
        .iter()
        .position(|a| a == "--cpu")
        .and_then(|i| args.get(i + 1).cloned())
        .unwrap_or_else(|| "z80".into());
    let port = Port::by_id(&id).unwrap_or_else(|| panic!("{id}: the ports are z80 and 6502"));
    let clock = port.default_machine();
    let e = PortEngine::assemble(port).unwrap_or_else(|e| panic!("{e}"));
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/suite.epd"
    ))
    .unwrap();
    let entries = suite::parse(&text, "suite.epd").unwrap();
    let (mut per_ply, mut n, mut nodes, mut cycles, mut peak_max) = (0.0, 0, 0u64, 0u64, 0u32);
    for entry in &entries {
        let game = entry.game("suite.epd").unwrap();
        let h = game.reference_history();
        let a = e.search(game.position(), &h, 1, None).unwrap();
        let b = e.search(game.position(), &h, depth, None).unwrap();
        if a.result.nodes == 0 {
            continue;
        }
        let p = (b.ram.peak_bytes as f64 - a.ram.peak_bytes as f64) / (depth - 1) as f64;
        per_ply += p;
        n += 1;
        nodes += b.result.nodes;
        cycles += b.cycles;
        peak_max = peak_max.max(b.ram.peak_bytes);
        println!(
            "{:5} {:5} {:6.1} {:9} {:6.0} n/s  {}",
            a.ram.peak_bytes,
            b.ram.peak_bytes,
            p,
            b.result.nodes,
            clock.per_second(b.result.nodes, b.cycles),
            entry.id
        );
    }
    println!(
        "positions {n}; bytes per ply (depth 1 to {depth}) {:.1}; peak RAM at depth {depth}: max {peak_max}; depth {depth}: {nodes} nodes, {cycles} cycles, {:.0} cycles/node, {:.0} nodes/s at {} MHz",
        per_ply / n as f64,
        cycles as f64 / nodes as f64,
        clock.per_second(nodes, cycles),
        clock.mhz
    );
}
