//! The Z80 engine against the native reference search on every position of the bundled
//! suite (`tests/data/suite.epd`, repetition histories included): best move, score,
//! principal variation, completed depth and node count must be identical at depths 1 to 4.
//! Deeper comparisons are `#[ignore]`d.

use std::sync::OnceLock;

use kempelen_engine::reference::{ReferenceLimits, ReferenceSearch};
use kempelen_roms::{Z80Engine, suite};

fn engine() -> &'static Z80Engine {
    static E: OnceLock<Z80Engine> = OnceLock::new();
    E.get_or_init(|| Z80Engine::assemble().expect("engine assembles"))
}

const SUITE: &str = include_str!("../../tests/data/suite.epd");

fn compare(line: usize, depths: std::ops::RangeInclusive<u32>) {
    let entries = suite::parse(SUITE, "tests/data/suite.epd").unwrap();
    let entry = entries.iter().find(|e| e.line == line).unwrap();
    let game = entry.game("tests/data/suite.epd").unwrap();
    let pos = game.position();
    let history = game.reference_history();
    for d in depths {
        let limits = ReferenceLimits {
            depth: Some(d),
            ..ReferenceLimits::default()
        };
        let native = ReferenceSearch::new(pos, &history, limits).run();
        let z = engine().search(pos, &history, d, None).unwrap().result;
        let what = format!("{} ({}) depth {d}", entry.id, entry.fen);
        assert_eq!(z.best, native.best, "best move, {what}");
        assert_eq!(z.score, native.score, "score, {what}");
        assert_eq!(z.pv, native.pv, "principal variation, {what}");
        assert_eq!(z.nodes, native.nodes, "nodes, {what}");
        assert_eq!(z.depth, native.depth, "completed depth, {what}");
    }
}

fn compare_suite_line(line: usize) {
    compare(line, 1..=4);
}

include!(concat!(env!("OUT_DIR"), "/suite_tests.rs"));

#[test]
#[ignore = "depths 5 and 6 on the whole suite: several minutes"]
fn suite_depths_5_and_6() {
    let entries = suite::parse(SUITE, "tests/data/suite.epd").unwrap();
    for e in &entries {
        compare(e.line, 5..=6);
    }
}
