//! The exports the page's JavaScript calls, each a thin wrapper that hands JSON text across
//! (the page parses it with `JSON.parse`): on the page, [`Board`] (the game) and the link and
//! engine-list functions; in the worker, [`Job`] (an 8-bit build's search, advanced a slice at
//! a time) and [`native_search`].

use std::cell::RefCell;

use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::compare::{CompareJob, CompareSpec};
use crate::machine::{Action, MachineSession};
use crate::search::{Event, PortJob, SearchSpec, run_native};
use crate::session::Session;
use crate::{WebError, choice, link};

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console)]
    fn error(text: &str);
}

/// Runs when the module is instantiated: a Rust panic is written to the console with its
/// message and place (without this hook the browser shows only "unreachable").
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        error(&format!("kempelen-web panicked: {info}"))
    }));
}

fn js(e: WebError) -> JsError {
    JsError::new(&e.to_string())
}

fn json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("the page's views serialise")
}

/// The crate's version.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// The engines the page offers, with their machines ([`choice::engines`]), as JSON.
#[wasm_bindgen]
pub fn engines() -> String {
    json(&choice::engines())
}

/// Reads a URL fragment ([`link::parse`]): `{link, problems}` as JSON.
#[wasm_bindgen]
pub fn parse_link(fragment: &str) -> String {
    json(&link::parse(fragment))
}

/// Writes a URL fragment from a link's JSON ([`link::format`]).
#[wasm_bindgen]
pub fn format_link(link_json: &str) -> Result<String, JsError> {
    let l: link::Link =
        serde_json::from_str(link_json).map_err(|e| js(WebError::Request(format!("link: {e}"))))?;
    link::format(&l).map_err(|e| JsError::new(&e.to_string()))
}

/// Moves in coordinates (comma-separated) from `fen` in SAN, as far as they are legal
/// ([`crate::session::san_line`]): a JSON list.
#[wasm_bindgen]
pub fn san_line(fen: &str, moves: &str) -> Result<String, JsError> {
    let moves: Vec<String> = moves
        .split(',')
        .filter(|m| !m.is_empty())
        .map(str::to_string)
        .collect();
    crate::session::san_line(fen, &moves)
        .map(|l| json(&l))
        .map_err(js)
}

/// The game on the page's board.
#[wasm_bindgen]
pub struct Board {
    session: Session,
}

impl Default for Board {
    fn default() -> Self {
        Board::new()
    }
}

#[wasm_bindgen]
impl Board {
    /// A new game from the standard position.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Board {
        Board {
            session: Session::new(),
        }
    }

    /// A new game from a FEN.
    pub fn from_fen(fen: &str) -> Result<Board, JsError> {
        Session::from_fen(fen)
            .map(|session| Board { session })
            .map_err(js)
    }

    /// The first game of a PGN text.
    pub fn from_pgn(text: &str) -> Result<Board, JsError> {
        Session::from_pgn(text)
            .map(|session| Board { session })
            .map_err(js)
    }

    /// A game from a start position and moves in coordinates, separated by commas.
    pub fn from_moves(fen: &str, moves: &str) -> Result<Board, JsError> {
        let moves: Vec<String> = moves
            .split(',')
            .filter(|m| !m.is_empty())
            .map(str::to_string)
            .collect();
        Session::from_moves(fen, &moves)
            .map(|session| Board { session })
            .map_err(js)
    }

    /// What the board shows ([`crate::session::BoardView`]) as JSON.
    pub fn view(&self) -> String {
        json(&self.session.view())
    }

    /// Plays a move in coordinates or SAN; returns it in coordinates.
    pub fn play(&mut self, text: &str) -> Result<String, JsError> {
        self.session.play(text).map(|m| m.to_uci()).map_err(js)
    }

    /// Takes the last move back; `false` when there is none.
    pub fn undo(&mut self) -> bool {
        self.session.undo()
    }

    /// The game as PGN.
    pub fn pgn(&self, white: &str, black: &str) -> String {
        self.session.pgn(white, black)
    }

    /// The current position's FEN.
    pub fn fen(&self) -> String {
        self.session.game().position().to_fen()
    }

    /// The start position's FEN.
    pub fn start_fen(&self) -> String {
        self.session.game().start().to_fen()
    }

    /// The moves played, in coordinates, separated by commas.
    pub fn moves(&self) -> String {
        self.session.moves_uci().join(",")
    }
}

/// Checks a search request ([`SearchSpec`] as JSON) and says how it runs: `port` (a [`Job`])
/// or `native` ([`native_search`]).
#[wasm_bindgen]
pub fn search_kind(spec_json: &str) -> Result<String, JsError> {
    let prepared = spec(spec_json)?.prepare().map_err(js)?;
    Ok(match prepared.engine {
        choice::EngineChoice::Port(_) => "port".into(),
        choice::EngineChoice::Native(_) => "native".into(),
    })
}

fn spec(spec_json: &str) -> Result<SearchSpec, JsError> {
    serde_json::from_str(spec_json).map_err(|e| js(WebError::Request(format!("search: {e}"))))
}

/// An 8-bit build's search in the worker, advanced a slice at a time.
#[wasm_bindgen]
pub struct Job {
    job: PortJob,
}

#[wasm_bindgen]
impl Job {
    /// Starts the search a request ([`SearchSpec`] as JSON) names.
    pub fn start(spec_json: &str) -> Result<Job, JsError> {
        let prepared = spec(spec_json)?.prepare().map_err(js)?;
        PortJob::start(&prepared).map(|job| Job { job }).map_err(js)
    }

    /// Runs slices for at most `max_ms` of host time ([`PortJob::advance`]); the events as
    /// JSON (`{events, done, wait_ms}`).
    pub fn advance(&mut self, max_ms: f64) -> Result<String, JsError> {
        self.job.advance(max_ms).map(|a| json(&a)).map_err(js)
    }

    /// Asks the engine to stop ([`PortJob::stop`]).
    pub fn stop(&mut self) -> Result<(), JsError> {
        self.job.stop().map_err(js)
    }

    /// Counts the machine's speed again from now (after a pause).
    pub fn resume(&mut self) {
        self.job.resume();
    }

    /// How far the search has come, as JSON.
    pub fn progress(&self) -> String {
        json(&self.job.progress())
    }
}

thread_local! {
    /// The worker's function that posts a native search's events while it runs.
    static EVENT_SINK: RefCell<Option<js_sys::Function>> = const { RefCell::new(None) };
}

fn post(event: &Event) {
    let text = json(event);
    EVENT_SINK.with(|sink| {
        if let Some(f) = &*sink.borrow() {
            // A failing post loses one progress line, never the search.
            let _ = f.call1(&JsValue::NULL, &JsValue::from_str(&text));
        }
    });
}

/// Runs a native profile's search ([`SearchSpec`] as JSON) in one piece; `on_event` gets each
/// event as JSON while it runs; returns the result as JSON.
#[wasm_bindgen]
pub fn native_search(spec_json: &str, on_event: js_sys::Function) -> Result<String, JsError> {
    let prepared = spec(spec_json)?.prepare().map_err(js)?;
    EVENT_SINK.with(|sink| *sink.borrow_mut() = Some(on_event));
    let result = run_native(&prepared, &post);
    EVENT_SINK.with(|sink| *sink.borrow_mut() = None);
    result.map(|r| json(&r)).map_err(js)
}

/// The bundled suite's positions for the compare view, as JSON.
#[wasm_bindgen]
pub fn compare_suite() -> Result<String, JsError> {
    crate::compare::suite_positions()
        .map(|p| json(&p))
        .map_err(js)
}

/// A comparison in the worker ([`CompareJob`]), advanced a slice at a time.
#[wasm_bindgen]
pub struct Compare {
    job: CompareJob,
}

#[wasm_bindgen]
impl Compare {
    /// Starts the comparison a request ([`CompareSpec`] as JSON) names (the native reference
    /// searches here, in one piece).
    pub fn start(spec_json: &str) -> Result<Compare, JsError> {
        let spec: CompareSpec = serde_json::from_str(spec_json)
            .map_err(|e| js(WebError::Request(format!("compare: {e}"))))?;
        CompareJob::start(&spec)
            .map(|job| Compare { job })
            .map_err(js)
    }

    /// Runs slices for at most `max_ms` of host time; the row so far as JSON.
    pub fn advance(&mut self, max_ms: f64) -> Result<String, JsError> {
        self.job.advance(max_ms).map(|a| json(&a)).map_err(js)
    }

    /// Stops it; the row as it stands, as JSON.
    pub fn stop(&mut self) -> String {
        self.job.stop();
        json(&self.job.report())
    }
}

/// The machine view's session in the worker ([`MachineSession`]).
#[wasm_bindgen]
pub struct Debug {
    session: MachineSession,
}

#[wasm_bindgen]
impl Debug {
    /// Starts a search ([`SearchSpec`] as JSON, an 8-bit build) paused before its first
    /// instruction.
    pub fn start(spec_json: &str) -> Result<Debug, JsError> {
        let spec = spec(spec_json)?;
        MachineSession::start(&spec)
            .map(|session| Debug { session })
            .map_err(js)
    }

    /// Does an action ([`Action`] as JSON) for at most `budget` cycles; the report as JSON.
    pub fn act(&mut self, action_json: &str, budget: f64) -> Result<String, JsError> {
        let action: Action = serde_json::from_str(action_json)
            .map_err(|e| js(WebError::Request(format!("machine action: {e}"))))?;
        self.session
            .act(&action, budget as u64)
            .map(|r| json(&r))
            .map_err(js)
    }

    /// Goes on with the goal for at most `budget` cycles; the report as JSON.
    pub fn resume(&mut self, budget: f64) -> Result<String, JsError> {
        self.session
            .resume(budget as u64)
            .map(|r| json(&r))
            .map_err(js)
    }

    /// Drops the goal (pause).
    pub fn cancel(&mut self) {
        self.session.cancel();
    }

    /// The machine's state as JSON, memory from `mem` (negative: the frames).
    pub fn state(&self, mem: i32) -> String {
        let mem = u16::try_from(mem).ok();
        json(&self.session.state(mem))
    }

    /// How far the search has come, as JSON.
    pub fn progress(&self) -> String {
        json(&self.session.job().progress())
    }
}
