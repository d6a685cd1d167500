//! The Z80 engine's node limit, repetition history, fifty-move rule, error handling and
//! exact cycle counts, against the native reference where there is one.

use kempelen_engine::reference::{ReferenceLimits, ReferenceSearch};
use kempelen_engine::{Game, Position};
use kempelen_roms::{PortEngine, PortEngineError as Z80Error};

fn engine() -> &'static PortEngine {
    PortEngine::shared(&kempelen_roms::port::Z80).unwrap()
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

/// Runs `m` for `slice` T-states (the run must still be going), lets `poke` change RAM, runs
/// it to the end and returns the engine's status byte.
fn status_after_poke(
    mut m: kempelen_emulator::Machine,
    slice: u64,
    poke: impl FnOnce(&mut kempelen_emulator::Machine),
) -> u8 {
    let stopped = m.run(slice).expect_err("the command is still running");
    assert!(
        matches!(
            stopped.fault,
            kempelen_emulator::Fault::BudgetExceeded { .. }
        ),
        "{stopped}"
    );
    poke(&mut m);
    assert!(m.run(1 << 40).unwrap().is_done());
    m.read_byte(sym("R_STATUS"))
}

fn sym(name: &str) -> u16 {
    engine().symbols().get(name).unwrap()
}

fn read_u32(m: &kempelen_emulator::Machine, name: &str) -> u32 {
    let b = m.read_bytes(sym(name), 4);
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

/// ALGORITHM.md section 10: the 32-bit node and perft counters stop the engine with
/// ST_COUNT_OVERFLOW (6) rather than wrap. Passing 2^32 for real takes hours of emulation,
/// so the counter is set just below it in the middle of a run.
#[test]
fn counter_overflow_stops_with_its_status() {
    let kiwi = Position::from_fen(KIWIPETE).unwrap();
    let m = engine().perft_machine(&kiwi, 4).unwrap();
    let status = status_after_poke(m, 3_000_000, |m| {
        assert!(read_u32(m, "R_PERFT") > 0, "perft has counted leaves");
        m.write_bytes(sym("R_PERFT"), &(u32::MAX - 2).to_le_bytes())
            .unwrap();
    });
    assert_eq!(status, 6);
    let m = engine().search_machine(&kiwi, &[], 4, None).unwrap();
    let status = status_after_poke(m, 3_000_000, |m| {
        assert!(read_u32(m, "R_NODES") > 0, "the search has counted nodes");
        m.write_bytes(sym("R_NODES"), &(u32::MAX - 2).to_le_bytes())
            .unwrap();
    });
    assert_eq!(status, 6);
    assert_eq!(
        Z80Error::Status { code: 6 }.to_string(),
        "the engine stopped with status 6 (counter overflow)"
    );
}

/// The engine's own checks behind the glue's: more than 101 history keys (the glue refuses
/// them with `HistoryTooLong` before the run) stop it with ST_HIST_OVERFLOW (3), a board
/// without a white king or with an unknown piece code with ST_BAD_POSITION (2).
#[test]
fn the_engine_refuses_what_the_glue_never_sends() {
    let pos = Position::startpos();
    let keys = vec![pos.key(); 101];
    let run = |poke: &dyn Fn(&mut kempelen_emulator::Machine)| {
        let mut m = engine().search_machine(&pos, &keys, 1, None).unwrap();
        poke(&mut m);
        assert!(m.run(1 << 30).unwrap().is_done());
        m.read_byte(sym("R_STATUS"))
    };
    assert_eq!(run(&|_| {}), 0, "101 keys are allowed");
    assert_eq!(run(&|m| m.write_bytes(sym("P_HCOUNT"), &[102]).unwrap()), 3);
    assert_eq!(
        run(&|m| m.write_bytes(sym("BOARD") + 0x04, &[0]).unwrap()),
        2
    );
    assert_eq!(
        run(&|m| m.write_bytes(sym("BOARD") + 0x44, &[0x07]).unwrap()),
        2
    );
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

const PERFT3_START_CYCLES: u64 = 25_489_125;
const KIWI_D4_NODES: u64 = 159_628;
const KIWI_D4_CYCLES: u64 = 844_924_495;

/// The host call "iteration complete": `search_with` reports every iteration as it completes,
/// with the native reference search's depth, score, nodes and principal variation, and the
/// cycles up to that iteration; the whole search costs exactly the cycles of the search run
/// in one piece (the stops at the host calls add nothing).
#[test]
fn every_iteration_is_reported_as_it_completes() {
    use kempelen_engine::{SearchControl, SearchInfo, time::TimeBudget};
    use std::sync::Mutex;
    let kiwi = Position::from_fen(KIWIPETE).unwrap();
    let native: Mutex<Vec<SearchInfo>> = Mutex::new(Vec::new());
    let control = SearchControl::with_info(|i: &SearchInfo| native.lock().unwrap().push(i.clone()));
    let limits = ReferenceLimits::depth(4);
    ReferenceSearch::new(&kiwi, &[], limits)
        .with_control(&control)
        .run();
    drop(control);
    let reported: Mutex<Vec<(SearchInfo, u64)>> = Mutex::new(Vec::new());
    let out = engine()
        .search_with(
            &kiwi,
            &[],
            4,
            None,
            &SearchControl::default(),
            TimeBudget::default(),
            &|i, c| reported.lock().unwrap().push((i.clone(), c)),
        )
        .unwrap();
    let native = native.into_inner().unwrap();
    let reported = reported.into_inner().unwrap();
    assert_eq!(reported.len(), native.len());
    for ((z, _), n) in reported.iter().zip(&native) {
        assert_eq!(
            (z.depth, z.score, z.nodes, &z.pv),
            (n.depth, n.score, n.nodes, &n.pv)
        );
    }
    let cycles: Vec<u64> = reported.iter().map(|r| r.1).collect();
    assert!(cycles.windows(2).all(|w| w[0] < w[1]), "{cycles:?}");
    assert!(*cycles.last().unwrap() < out.cycles);
    assert_eq!(out.cycles, KIWI_D4_CYCLES);
    // The slices are one run: the RAM profile is the search's in one piece.
    let whole = engine().search(&kiwi, &[], 4, None).unwrap();
    assert_eq!(out.ram, whole.ram);
}

/// A debugger's steps between the slices (and before the first) continue the same run: the
/// search ends with the result, cycles and RAM of the search run in one piece.
#[test]
fn instructions_stepped_between_slices_count_in_the_same_run() {
    use kempelen_engine::time::TimeBudget;
    use kempelen_roms::Slice;
    let kiwi = Position::from_fen(KIWIPETE).unwrap();
    let whole = engine().search(&kiwi, &[], 3, None).unwrap();
    let mut s = engine()
        .start_search(
            &kiwi,
            &[],
            3,
            None,
            TimeBudget::default(),
            web_time::Instant::now(),
        )
        .unwrap();
    assert_eq!(s.cycles(), 0);
    let mut stepped = 0;
    let out = loop {
        let mut slice = Slice::Running;
        for _ in 0..3 {
            let paused = s.machine_mut().run_to_break(1, &[], false).unwrap();
            stepped += 1;
            if let kempelen_emulator::Paused::Stop(stop) = paused {
                slice = s.observe(stop).unwrap();
                break;
            }
        }
        if matches!(slice, Slice::Running) {
            slice = s.step(50_000).unwrap();
        }
        if let Slice::Done(out) = slice {
            break out;
        }
    };
    assert!(stepped > 30, "{stepped} steps");
    assert_eq!(out.result.best, whole.result.best);
    assert_eq!(out.result.nodes, whole.result.nodes);
    assert_eq!(out.cycles, whole.cycles);
    assert_eq!(out.ram, whole.ram);
}
