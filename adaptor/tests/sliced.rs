//! A search whose turns the caller runs a slice at a time (as a page's worker does): it ends
//! with what one `search` call gives, shows its cycles and nodes as the program thinks, and a
//! stop between two slices ends it with the move the program holds as best.

use kempelen_adaptor::engine::SearchSlice;
use kempelen_adaptor::{Adaptor, AdaptorEngine};
use kempelen_engine::{Engine, Game, Limits, SearchControl};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/adaptor")
        .join(name)
}

fn inline(name: &str) -> AdaptorEngine {
    AdaptorEngine::with_thread(Adaptor::from_file(&data(name)).unwrap(), false)
}

fn depth1() -> Limits {
    Limits {
        depth: Some(1),
        ..Limits::default()
    }
}

#[test]
fn a_search_in_slices_ends_as_one_search_call_does() {
    for fen in [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "r3k2r/pp3ppp/2n5/3q4/8/2N1B3/PPP2PPP/R2QK2R b KQkq - 0 12",
    ] {
        let game = Game::from_fen(fen).unwrap();
        let mut whole = inline("pieces-toy.toml");
        let want = whole
            .search(&game, &depth1(), &SearchControl::default())
            .unwrap();
        let mut sliced = inline("pieces-toy.toml");
        let control = SearchControl::default();
        let open = sliced.open_search(&game, &depth1(), &control).unwrap();
        let mut slices = 0;
        let got = loop {
            slices += 1;
            match sliced.advance(&open, 1_000, &control).unwrap() {
                SearchSlice::Done(r) => break r,
                SearchSlice::Running { .. } => assert!(slices < 100_000, "{fen}: no end"),
            }
        };
        assert!(
            slices > 1,
            "{fen}: a budget of 1,000 cycles takes more than one slice"
        );
        assert_eq!(got.best, want.best, "{fen}");
        assert_eq!(sliced.last_search(), whole.last_search(), "{fen}");
        assert_eq!(sliced.last_boards(), whole.last_boards(), "{fen}");
    }
}

/// The behaviour toy's T thinks for ever: no move held for its first 1,024 nodes, then e1-e2.
#[test]
fn a_stop_between_slices_ends_the_turn_with_the_move_the_program_holds() {
    let game = Game::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    let mut engine = inline("behave-toy.toml");
    let control = SearchControl::default();
    let open = engine.open_search(&game, &depth1(), &control).unwrap();
    let (mut cycles, mut nodes) = (0, 0);
    while nodes < 2_000 {
        match engine.advance(&open, 100_000, &control).unwrap() {
            SearchSlice::Running {
                searching: true,
                cycles: c,
                nodes: Some(n),
                ..
            } => {
                assert!(
                    c > cycles && n >= nodes,
                    "the turn goes on: {c} cycles, {n} nodes"
                );
                (cycles, nodes) = (c, n);
            }
            SearchSlice::Running { .. } => {}
            SearchSlice::Done(r) => panic!("the toy thinks for ever, and answered {r:?}"),
        }
    }
    control.stop.store(true, Ordering::Relaxed);
    let SearchSlice::Done(r) = engine.advance(&open, 100_000, &control).unwrap() else {
        panic!("a stop ends the turn at the next slice");
    };
    assert_eq!(r.best.unwrap().to_uci(), "e1e2");
    let figures = engine.last_search().unwrap();
    assert!(figures.stopped && figures.cycles > cycles);
    assert_eq!(engine.last_boards().and_then(|b| b.after.clone()), None);
    // A search in slices runs on the caller's thread only.
    let mut threaded =
        AdaptorEngine::with_thread(Adaptor::from_file(&data("behave-toy.toml")).unwrap(), true);
    let e = threaded
        .open_search(&game, &depth1(), &SearchControl::default())
        .unwrap_err();
    assert!(e.to_string().contains("thread"), "{e}");
}
