//! Perft of every port's engine (a port whose sources are absent is skipped) against the public reference counts (the perft results every engine checks against): the same
//! generator, make and unmake that the search uses.

use kempelen_engine::Position;
use kempelen_roms::{Port, PortEngine};

const POSITIONS: [(&str, &str, [u64; 4]); 6] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        [20, 400, 8902, 197281],
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        [48, 2039, 97862, 4085603],
    ),
    (
        "pos3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        [14, 191, 2812, 43238],
    ),
    (
        "pos4",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        [6, 264, 9467, 422333],
    ),
    (
        "pos5",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        [44, 1486, 62379, 2103487],
    ),
    (
        "pos6",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        [46, 2079, 89890, 3894594],
    ),
];

fn check(port: &'static Port, depth: usize) {
    let e = PortEngine::shared(port).unwrap();
    for (name, fen, counts) in POSITIONS {
        let s = Position::from_fen(fen).unwrap();
        for d in 1..=depth {
            let got = e.perft(&s, d as u8).unwrap();
            assert_eq!(got.count, counts[d - 1], "{}: {name} perft({d})", port.name);
        }
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
    let mut parts = text.split(';');
    let fen = parts.next().unwrap().trim();
    let pos = Position::from_fen(fen).unwrap();
    let e = PortEngine::shared(port).unwrap();
    for p in parts {
        let (d, count) = p.trim().split_once(' ').unwrap();
        let d: u8 = d.trim_start_matches('D').parse().unwrap();
        let count: u64 = count.trim().parse().unwrap();
        if count > 30_000 {
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

include!(concat!(env!("OUT_DIR"), "/perft_suite_tests.rs"));
