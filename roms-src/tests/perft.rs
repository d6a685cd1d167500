//! Perft of every port's engine (a port whose sources are absent is skipped) against the public reference counts (the perft results every engine checks against): the same
//! generator, make and unmake that the search uses.

use kempelen_engine::Position;
use kempelen_roms::{Port, PortEngine};

/// The six standard positions (the start position, Kiwipete, positions 3 to 6) with their
/// public reference counts to depth 4, in the perft suite's format: `FEN ;D<depth> <leaves>`.
const STANDARD: &str = "\
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902 ;D4 197281
r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 ;D1 48 ;D2 2039 ;D3 97862 ;D4 4085603
8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1 ;D1 14 ;D2 191 ;D3 2812 ;D4 43238
r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1 ;D1 6 ;D2 264 ;D3 9467 ;D4 422333
rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8 ;D1 44 ;D2 1486 ;D3 62379 ;D4 2103487
r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10 ;D1 46 ;D2 2079 ;D3 89890 ;D4 3894594
";

/// The port's perft of the position on the suite line `text` at each depth the line gives,
/// in order, while `wanted(depth, leaves)`.
fn check_line(port: &'static Port, text: &str, wanted: impl Fn(u8, u64) -> bool) {
    let mut parts = text.split(';');
    let fen = parts.next().unwrap().trim();
    let pos = Position::from_fen(fen).unwrap();
    let e = PortEngine::shared(port).unwrap();
    for p in parts {
        let (d, count) = p.trim().split_once(' ').unwrap();
        let d: u8 = d.trim_start_matches('D').parse().unwrap();
        let count: u64 = count.trim().parse().unwrap();
        if !wanted(d, count) {
            break;
        }
        assert_eq!(
            e.perft(&pos, d).unwrap().count,
            count,
            "{}: {fen} perft({d})",
            port.name
        );
    }
}

/// The standard positions to `depth`.
fn check(port: &'static Port, depth: u8) {
    for line in STANDARD.lines() {
        check_line(port, line, |d, _| d <= depth);
    }
}

kempelen_roms::port_tests!(perft_six_positions_depth_3, |port| check(port, 3));

kempelen_roms::port_tests!(
    #[ignore = "depth 4: about a minute"]
    perft_six_positions_depth_4,
    |port| check(port, 4)
);

/// The engine's perft suite (rule corner cases and random games, counts by Stockfish): every
/// depth whose count is at most 30,000 leaves, so the normal run stays fast.
const PERFT_SUITE: &str = include_str!("../../engine/tests/data/perft_suite.epd");

fn perft_suite_line(port: &'static Port, line: usize) {
    let text = PERFT_SUITE.lines().nth(line - 1).unwrap();
    check_line(port, text, |_, count| count <= 30_000);
}

include!(concat!(env!("OUT_DIR"), "/perft_suite_tests.rs"));
