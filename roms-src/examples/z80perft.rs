//! Development aid: `cargo run -p kempelen-roms --example z80perft -- DEPTH FEN...` prints
//! the Z80 engine's perft count of each FEN (one per line on stdin when no FEN is given).

use kempelen_roms::{Setup, Z80Engine};
use std::io::BufRead;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth: u8 = args[0].parse().expect("depth");
    let e = Z80Engine::assemble_with_pasmo().expect("assemble");
    let fens: Vec<String> = if args.len() > 1 {
        vec![args[1..].join(" ")]
    } else {
        std::io::stdin()
            .lock()
            .lines()
            .map(|l| l.unwrap())
            .collect()
    };
    for fen in fens {
        let s = Setup::from_fen(&fen).expect("fen");
        let r = e.perft(&s, depth).expect("perft");
        println!("{} {}", r.count, r.cycles);
    }
}
