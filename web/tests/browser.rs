//! The page's crate in a real browser: headless Chromium through wasm-bindgen-test, in a
//! dedicated worker as the page runs it. What only the browser can show: the clock works
//! (std's has none on wasm32; the libraries read web-time's), an 8-bit build's search runs
//! slice by slice to the same answer as in one piece, a native search reports its iterations,
//! and the exports hand valid JSON across.
//!
//! Run by `cargo test --test web wasm_tests_in_chromium` (tests/web.rs), or directly:
//! `CHROMEDRIVER=/usr/bin/chromedriver CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
//! cargo test -p kempelen-web --target wasm32-unknown-unknown --release` (from `web/`, whose
//! webdriver.json gives Chromium its flags).
#![cfg(target_arch = "wasm32")]

use std::sync::Mutex;

use kempelen_engine::{Game, ReferenceLimits, reference};
use kempelen_roms::{PortEngine, port};
use kempelen_web::link;
use kempelen_web::search::{Event, PortJob, SearchSpec, run_native};
use kempelen_web::session::Session;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_dedicated_worker);

fn spec(engine: &str, depth: u32) -> SearchSpec {
    SearchSpec {
        moves: vec!["e2e4".into()],
        engine: engine.into(),
        depth: Some(depth),
        ..SearchSpec::default()
    }
}

/// Advances a job to its end; the events in order.
fn run_to_end(job: &mut PortJob) -> Vec<Event> {
    let mut events = Vec::new();
    for _ in 0..100_000 {
        let a = job.advance(5.0).unwrap();
        events.extend(a.events);
        if a.done {
            return events;
        }
    }
    panic!("the search did not end");
}

#[wasm_bindgen_test]
fn the_clock_runs_in_the_browser() {
    let t = web_time::Instant::now();
    let mut x = 0u64;
    for i in 0..2_000_000u64 {
        x = x.wrapping_mul(31).wrapping_add(i);
    }
    assert!(x != 1);
    assert!(t.elapsed() >= std::time::Duration::ZERO);
}

#[wasm_bindgen_test]
fn sliced_6502_search_equals_the_search_in_one_piece() {
    let prepared = spec("6502", 3).prepare().unwrap();
    let mut job = PortJob::start(&prepared).unwrap();
    let events = run_to_end(&mut job);
    let Some(Event::Done(result)) = events.last() else {
        panic!("no result: {events:?}");
    };
    let whole = PortEngine::shared(&port::M6502)
        .unwrap()
        .search(
            prepared.game.position(),
            &prepared.game.reference_history(),
            3,
            None,
        )
        .unwrap();
    assert_eq!(result.best, whole.result.best.map(|m| m.to_uci()));
    assert_eq!(result.nodes, whole.result.nodes);
    assert_eq!(result.machine.as_ref().unwrap().cycles, whole.cycles);
    let iterations = events
        .iter()
        .filter(|e| matches!(e, Event::Info(_)))
        .count();
    assert_eq!(iterations, 3);
}

#[wasm_bindgen_test]
fn a_stop_before_the_first_iteration_claims_no_move() {
    let prepared = spec("z80", 5).prepare().unwrap();
    let mut job = PortJob::start(&prepared).unwrap();
    job.stop().unwrap();
    let events = run_to_end(&mut job);
    let Some(Event::Done(result)) = events.last() else {
        panic!("no result");
    };
    assert!(result.best.is_none() && result.stopped, "{result:?}");
}

#[wasm_bindgen_test]
fn native_reference_search_reports_each_iteration() {
    let prepared = spec("reference", 4).prepare().unwrap();
    let seen = Mutex::new(Vec::new());
    let result = run_native(&prepared, &|e| seen.lock().unwrap().push(e.clone())).unwrap();
    let mut game = Game::default();
    game.push_uci("e2e4").unwrap();
    let want = reference::search(
        game.position(),
        &game.reference_history(),
        ReferenceLimits::depth(4),
    );
    assert_eq!(result.best, want.best.map(|m| m.to_uci()));
    assert_eq!(result.nodes, want.nodes);
    assert_eq!(seen.lock().unwrap().len(), 4);
}

#[wasm_bindgen_test]
fn the_board_and_the_link_in_the_browser() {
    let mut s = Session::new();
    s.play("e4").unwrap();
    s.play("c7c5").unwrap();
    assert_eq!(s.view().moves.len(), 2);
    let p = link::parse("#fen=bad&depth=0&view=compare");
    assert_eq!(p.problems.len(), 2);
    assert_eq!(p.link.view.as_deref(), Some("compare"));
}

#[wasm_bindgen_test]
fn the_comparison_runs_in_the_browser_to_the_reference_answer() {
    use kempelen_web::compare::{CompareJob, CompareSpec};
    let mut job = CompareJob::start(&CompareSpec {
        moves: vec!["e2e4".into()],
        depth: 2,
        ..CompareSpec::default()
    })
    .unwrap();
    let row = loop {
        let a = job.advance(5.0).unwrap();
        if a.done {
            break a.row;
        }
    };
    assert!(row.agree, "{row:?}");
    assert_eq!(row.ports.len(), 2);
}

#[wasm_bindgen_test]
fn the_debugger_steps_an_8bit_search_in_the_browser() {
    use kempelen_web::machine::{Action, MachineSession};
    let mut s = MachineSession::start(&spec("z80", 2)).unwrap();
    let pc = s.state(None).pc;
    for _ in 0..3 {
        s.act(&Action::Step, 1).unwrap();
    }
    let st = s.state(None);
    assert_eq!(st.instructions, 3);
    assert!(st.cycles > 0 && st.pc != pc);
    let mut r = s.act(&Action::Continue, 1 << 16).unwrap();
    while r.pending {
        r = s.resume(1 << 16).unwrap();
    }
    assert!(s.is_done());
}
