//! Every port's engine (Z80, 6502; a port whose sources are absent is skipped) against the native reference search on every position of the bundled
//! suite (`tests/data/suite.epd`, repetition histories included): best move, score,
//! principal variation, completed depth and node count must be identical at depths 1 to 4.
//! Deeper comparisons are `#[ignore]`d.

use kempelen_engine::reference::{ReferenceLimits, ReferenceSearch};
use kempelen_roms::{Port, PortEngine, suite};

const SUITE: &str = include_str!("../../tests/data/suite.epd");

fn compare(port: &'static Port, line: usize, depths: std::ops::RangeInclusive<u32>) {
    let entries = suite::parse(SUITE, "tests/data/suite.epd").unwrap();
    let entry = entries.iter().find(|e| e.line == line).unwrap();
    let game = entry.game("tests/data/suite.epd").unwrap();
    let pos = game.position();
    let history = game.reference_history();
    for d in depths {
        let limits = ReferenceLimits::depth(d);
        let native = ReferenceSearch::new(pos, &history, limits).run();
        let z = PortEngine::shared(port)
            .unwrap()
            .search(pos, &history, d, None)
            .unwrap()
            .result;
        let what = format!("{}: {} ({}) depth {d}", port.name, entry.id, entry.fen);
        assert_eq!(z.best, native.best, "best move, {what}");
        assert_eq!(z.score, native.score, "score, {what}");
        assert_eq!(z.pv, native.pv, "principal variation, {what}");
        assert_eq!(z.nodes, native.nodes, "nodes, {what}");
        assert_eq!(z.depth, native.depth, "completed depth, {what}");
    }
}

fn compare_suite_line(port: &'static Port, line: usize) {
    compare(port, line, 1..=4);
}

include!(concat!(env!("OUT_DIR"), "/suite_tests.rs"));

kempelen_roms::port_tests!(
    #[ignore = "depths 5 and 6 on the whole suite: several minutes"]
    suite_depths_5_and_6,
    |port| {
        let entries = suite::parse(SUITE, "tests/data/suite.epd").unwrap();
        for e in &entries {
            compare(port, e.line, 5..=6);
        }
    }
);
