//! Development aid: engine variables and board after perft(0) and perft(DEPTH).
use kempelen_roms::{Setup, Z80Engine};
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth: u8 = args[0].parse().unwrap();
    let e = Z80Engine::assemble_with_pasmo().unwrap();
    let s = Setup::from_fen(&args[1..].join(" ")).unwrap();
    let a = e.perft_memory(&s, 0).unwrap();
    let b = e.perft_memory(&s, depth).unwrap();
    for addr in (0x8060..0x8080).chain(0x8100..0x8180) {
        if a[addr] != b[addr] {
            println!("{addr:04x}: {:02x} -> {:02x}", a[addr], b[addr]);
        }
    }
}
