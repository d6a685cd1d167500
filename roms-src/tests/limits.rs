//! The Z80 engine's node limit, repetition history, fifty-move rule, error handling and
//! exact cycle counts, against the native reference where there is one.

use std::sync::OnceLock;

use kempelen_engine::reference::{ReferenceLimits, ReferenceSearch};
use kempelen_engine::{Game, Position};
use kempelen_roms::{Z80Engine, Z80Error};

fn engine() -> &'static Z80Engine {
    static E: OnceLock<Z80Engine> = OnceLock::new();
    E.get_or_init(|| Z80Engine::assemble().expect("engine assembles"))
}

fn same_as_native(game: &Game, depth: u32, nodes: Option<u32>) {
    let pos = game.position();
    let history = game.reference_history();
    let limits = ReferenceLimits {
        depth: Some(depth),
        nodes: nodes.map(u64::from),
        ..ReferenceLimits::default()
    };
    let native = ReferenceSearch::new(pos, &history, limits).run();
    let z = engine().search(pos, &history, depth, nodes).unwrap().result;
    let what = format!("{} depth {depth} nodes {nodes:?}", pos.to_fen());
    assert_eq!(z.best, native.best, "best move, {what}");
    assert_eq!(z.score, native.score, "score, {what}");
    assert_eq!(z.pv, native.pv, "principal variation, {what}");
    assert_eq!(z.nodes, native.nodes, "nodes, {what}");
    assert_eq!(z.depth, native.depth, "completed depth, {what}");
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

#[test]
fn node_limits_stop_like_the_native_search() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        KIWIPETE,
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ] {
        let game = Game::from_fen(fen).unwrap();
        // 1: iteration 1 always completes; the others stop inside later iterations.
        for n in [1, 37, 500, 2_000, 6_000] {
            same_as_native(&game, 32, Some(n));
        }
    }
}

#[test]
fn node_limit_reports_limit_plus_one() {
    let game = Game::from_fen(KIWIPETE).unwrap();
    let z = engine()
        .search(game.position(), &[], 32, Some(20_000))
        .unwrap()
        .result;
    assert_eq!(z.nodes, 20_001);
    assert!(z.depth >= 1 && z.depth < 32);
}

#[test]
fn repetition_history_changes_the_result() {
    // White is a queen up; after Qb1-b2, Kh8-g8, Qb2-b1, Kg8-h8 the position repeats, and
    // a draw by repetition is within reach of the search.
    let mut game = Game::from_fen("7k/8/8/8/8/8/1Q6/K7 b - - 0 1").unwrap();
    for m in ["h8g8", "b2b1", "g8h8", "b1b2", "h8g8", "b2b1", "g8h8"] {
        game.push_uci(m).unwrap();
    }
    for d in 1..=5 {
        same_as_native(&game, d, None);
    }
    let with = engine()
        .search(game.position(), &game.reference_history(), 5, None)
        .unwrap()
        .result;
    let without = engine()
        .search(game.position(), &[], 5, None)
        .unwrap()
        .result;
    assert_ne!(
        (with.nodes, with.score, with.pv.clone()),
        (without.nodes, without.score, without.pv.clone()),
        "the history must matter"
    );
}

#[test]
fn fifty_move_rule_and_mate_on_the_last_ply() {
    for fen in [
        "8/8/8/4k3/8/8/3QK3/8 w - - 99 120",
        "7k/8/5KQ1/8/8/8/8/8 w - - 99 1",
        "8/8/4k3/8/8/8/4P3/4K3 w - - 130 100",
    ] {
        let game = Game::from_fen(fen).unwrap();
        for d in 1..=4 {
            same_as_native(&game, d, None);
        }
    }
}

#[test]
fn no_legal_move_gives_no_move_and_no_nodes() {
    let mated = Position::from_fen("8/8/8/8/8/2k5/1q6/K7 w - - 0 1").unwrap();
    let z = engine().search(&mated, &[], 3, None).unwrap().result;
    assert_eq!((z.best, z.score, z.nodes, z.depth), (None, -32000, 0, 0));
    let stalemate = Position::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    let z = engine().search(&stalemate, &[], 3, None).unwrap().result;
    assert_eq!((z.best, z.score, z.nodes, z.depth), (None, 0, 0, 0));
}

#[test]
fn bad_requests_are_refused() {
    let pos = Position::startpos();
    assert!(matches!(
        engine().search(&pos, &[], 0, None),
        Err(Z80Error::Depth(0))
    ));
    assert!(matches!(
        engine().search(&pos, &[], 33, None),
        Err(Z80Error::Depth(33))
    ));
    let long = vec![pos.key(); 102];
    assert!(matches!(
        engine().search(&pos, &long, 1, None),
        Err(Z80Error::HistoryTooLong(102, 101))
    ));
}

/// Cycle counts are exact: these pin the engine's speed on fixed work. When the assembly
/// changes on purpose, update them (and the README's figures) deliberately.
#[test]
fn cycle_counts_are_pinned() {
    let start = Position::startpos();
    let p = engine().perft(&start, 3).unwrap();
    assert_eq!((p.count, p.cycles), (8902, PERFT3_START_CYCLES));
    let kiwi = Position::from_fen(KIWIPETE).unwrap();
    let s = engine().search(&kiwi, &[], 4, None).unwrap();
    assert_eq!((s.result.nodes, s.cycles), (KIWI_D4_NODES, KIWI_D4_CYCLES));
}

const PERFT3_START_CYCLES: u64 = 28_299_051;
const KIWI_D4_NODES: u64 = 159_628;
const KIWI_D4_CYCLES: u64 = 1_436_499_252;
