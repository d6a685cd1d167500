//! Search behaviour of both profiles: mates in 1, 2 and 3, preferring the shorter mate, not
//! stalemating a won position, repetition and fifty-move draws, bare kings, node limits.

use kempelen_engine::{
    Engine, Game, GameStatus, Limits, MATE, NativeEngine, Profile, SearchControl, SearchResult,
    mate_in,
};

/// `engine`'s search of `game` within `limits`, with no stop flag and no info callback.
fn run(engine: &mut NativeEngine, game: &Game, limits: Limits) -> SearchResult {
    engine
        .search(game, &limits, &SearchControl::default())
        .unwrap()
}

fn search(profile: Profile, game: &Game, depth: u32) -> SearchResult {
    let mut engine = NativeEngine::new(profile);
    engine.set_hash_mb(8);
    run(&mut engine, game, Limits::depth(depth))
}

fn search_fen(profile: Profile, fen: &str, depth: u32) -> SearchResult {
    search(profile, &Game::from_fen(fen).unwrap(), depth)
}

/// Depth the reference needs for a mate in `n`: its quiescence search does not detect mate,
/// so the mated side's node must be a full-width node (ALGORITHM.md §7).
fn mate_depth(profile: Profile, n: u32) -> u32 {
    match profile {
        Profile::Reference => 2 * n,
        // The full profile (the only other one these tests run).
        _ => 2 * n + 2,
    }
}

fn assert_mate(profile: Profile, fen: &str, n: i32, first: &str) {
    let r = search_fen(profile, fen, mate_depth(profile, n as u32));
    assert_eq!(mate_in(r.score), Some(n), "{profile}: {fen}: {r:?}");
    assert_eq!(r.score, MATE - (2 * n - 1));
    assert_eq!(r.best.unwrap().to_uci(), first, "{profile}: {fen}");
    // The PV really mates.
    let mut game = Game::from_fen(fen).unwrap();
    for m in &r.pv {
        game.push(*m).unwrap();
    }
    assert!(
        matches!(game.status(), GameStatus::Checkmate { .. }),
        "{profile}: pv {:?} does not mate",
        r.pv
    );
}

macro_rules! both_profiles {
    ($($name:ident => $body:expr;)*) => {
        mod reference {
            use super::*;
            $(#[test] fn $name() { let f: fn(Profile) = $body; f(Profile::Reference); })*
        }
        mod full {
            use super::*;
            $(#[test] fn $name() { let f: fn(Profile) = $body; f(Profile::Full); })*
        }
    };
}

both_profiles! {
    mate_in_one => |p| assert_mate(p, "7k/8/6K1/8/8/8/8/R7 w - - 0 1", 1, "a1a8");
    mate_in_two_legal => |p| assert_mate(p, "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", 2, "d5f6");
    mate_in_two_black => |p| assert_mate(p, "6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1", 2, "g2g1");
    mate_in_three_rook => |p| assert_mate(p, "r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 3, "f6a6");
    mate_in_three_queen_sacrifice => |p| assert_mate(p, "2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1", 3, "b1g6");
    prefers_the_shorter_mate => |p| {
        // Qg7 mates at once; many longer mates exist.
        let r = search_fen(p, "7k/8/5KQ1/8/8/8/8/8 w - - 0 1", 6);
        assert_eq!(mate_in(r.score), Some(1), "{r:?}");
        assert_eq!(r.pv.len(), 1);
    };
    does_not_stalemate_for_material => |p| {
        for fen in [
            "k7/2K5/8/8/8/8/8/5Qb1 w - - 0 1",
            "k7/2KQ4/8/8/3r4/8/8/8 w - - 0 1",
            "7k/8/7K/8/2n1Q3/8/8/8 w - - 0 1",
            "k7/8/1QK5/8/8/8/8/8 w - - 0 1",
        ] {
            let r = search_fen(p, fen, 4);
            let mut g = Game::from_fen(fen).unwrap();
            g.push(r.best.unwrap()).unwrap();
            assert_ne!(g.status(), GameStatus::Stalemate, "{p}: {fen}: {r:?}");
            assert!(mate_in(r.score).is_some_and(|n| n > 0), "{p}: {fen}: {r:?}");
        }
    };
    plays_a_won_ending_to_mate => |p| {
        let mut game = Game::from_fen("k7/2Q5/8/1K6/8/8/8/8 w - - 0 1").unwrap();
        for _ in 0..12 {
            if game.status().is_over() {
                break;
            }
            let r = search(p, &game, 6);
            game.push(r.best.unwrap()).unwrap();
        }
        assert_eq!(game.status(), GameStatus::Checkmate { winner: 0 }, "{:?}", game.moves());
    };
    repetition_is_a_draw_for_the_side_that_is_behind => |p| {
        // White is a queen down; after Nf3 Nf6 Ng1 Ng8 Nf3 Nf6, Ng1 repeats a position.
        let mut game = Game::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1").unwrap();
        for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6"] {
            game.push_uci(m).unwrap();
        }
        let r = search(p, &game, 4);
        assert_eq!(r.best.unwrap().to_uci(), "f3g1", "{r:?}");
        assert_eq!(r.score, 0);
    };
    repetition_is_avoided_by_the_side_that_is_ahead => |p| {
        let mut game = Game::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1").unwrap();
        for m in ["g1f3", "g8f6", "f3g1"] {
            game.push_uci(m).unwrap();
        }
        let r = search(p, &game, 4);
        assert_ne!(r.best.unwrap().to_uci(), "f6g8", "{r:?}");
        assert!(r.score > 500, "{r:?}");
    };
    fifty_move_rule_draws => |p| {
        let lost = "k7/8/8/4q3/3q4/8/8/7K w - - 0 80";
        let r = search_fen(p, lost, 4);
        assert!(r.score < -1000, "{r:?}");
        let drawn = "k7/8/8/4q3/3q4/8/8/7K w - - 99 80";
        let r = search_fen(p, drawn, 4);
        assert_eq!(r.score, 0, "{r:?}");
    };
    bare_kings => |p| {
        let r = search_fen(p, "8/8/8/4k3/8/8/8/4K3 w - - 0 1", 8);
        assert_eq!(r.score, 0);
        assert!(r.best.is_some());
        assert_eq!(r.depth, 8);
    };
    no_legal_move => |p| {
        let mated = search_fen(p, "R6k/6pp/8/8/8/8/8/6K1 b - - 0 1", 3);
        assert_eq!((mated.best, mated.score, mated.nodes), (None, -MATE, 0));
        let stalemate = search_fen(p, "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1", 3);
        assert_eq!((stalemate.best, stalemate.score), (None, 0));
    };
}

#[test]
fn reference_node_limit_stops_after_n_plus_one_nodes() {
    let game = Game::default();
    let mut engine = NativeEngine::new(Profile::Reference);
    let full = run(&mut engine, &game, Limits::depth(5));
    let r = run(&mut engine, &game, Limits::nodes(3000));
    assert_eq!(r.nodes, 3001);
    assert!(r.depth >= 1 && r.depth < 5);
    // The result is that of the last completed iteration.
    let same = run(&mut engine, &game, Limits::depth(r.depth));
    assert_eq!((r.best, r.score, &r.pv), (same.best, same.score, &same.pv));
    assert!(full.nodes > 3001);
}

#[test]
fn reference_is_deterministic_and_reports_every_iteration() {
    use std::sync::Mutex;
    let seen = Mutex::new(Vec::new());
    let control = SearchControl::with_info(|i| {
        seen.lock()
            .unwrap()
            .push((i.depth.unwrap(), i.nodes.unwrap()))
    });
    let game =
        Game::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
    let mut engine = NativeEngine::new(Profile::Reference);
    let a = engine.search(&game, &Limits::depth(4), &control).unwrap();
    let b = run(&mut engine, &game, Limits::depth(4));
    assert_eq!(
        (a.best, a.score, a.nodes, &a.pv),
        (b.best, b.score, b.nodes, &b.pv)
    );
    drop(control);
    let seen = seen.into_inner().unwrap();
    assert_eq!(
        seen.iter().map(|s| s.0).collect::<Vec<_>>(),
        vec![1, 2, 3, 4]
    );
    assert_eq!(seen.last().unwrap().1, a.nodes);
}

/// A stop set by another thread ends an infinite search with the last completed iteration.
/// The other thread stops it once the search has reported its third iteration (a condition
/// the search defines, not a host delay), so the result holds at least that iteration on any
/// host, however fast or busy.
#[test]
fn stop_flag_ends_an_infinite_search() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, mpsc};
    let (tx, rx) = mpsc::channel::<u32>();
    let tx = std::sync::Mutex::new(tx);
    let mut control = SearchControl::with_info(move |i| {
        let _ = tx.lock().unwrap().send(i.depth.unwrap_or(0));
    });
    let stop = Arc::new(AtomicBool::new(false));
    control.stop = stop.clone();
    let handle = std::thread::spawn(move || {
        for depth in rx.iter() {
            if depth >= 3 {
                stop.store(true, Ordering::Relaxed);
                return depth;
            }
        }
        0
    });
    let mut engine = NativeEngine::new(Profile::Full);
    engine.set_hash_mb(8);
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let r = engine.search(&Game::default(), &limits, &control).unwrap();
    drop(control);
    let stopped_after = handle.join().unwrap();
    assert_eq!(stopped_after, 3, "the stop came after the third iteration");
    assert!(r.best.is_some() && r.depth >= 3, "depth {}", r.depth);
}

#[test]
fn reference_node_limit_below_iteration_one_stops_at_iteration_two() {
    // Iteration 1 of the start position takes 21 nodes; with N = 5 the first node of
    // iteration 2 stops the search (ALGORITHM.md §9).
    let mut engine = NativeEngine::new(Profile::Reference);
    let one = run(&mut engine, &Game::default(), Limits::depth(1));
    let r = run(&mut engine, &Game::default(), Limits::nodes(5));
    assert_eq!(r.depth, 1);
    assert_eq!(r.nodes, one.nodes + 1);
    assert_eq!(r.best, one.best);
}
