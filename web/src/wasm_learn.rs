//! The learning views' exports (see [`crate::learn`]): thin wrappers that hand JSON text
//! across, as [`crate::wasm`] does. The tree and the 8-bit walk run in the worker; the
//! sandbox (small programs, run with a cycle budget) and the lessons on the page.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::WebError;
use crate::learn::{lessons, programs, sandbox, tree};

fn js(e: WebError) -> JsError {
    JsError::new(&e.to_string())
}

fn json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("the learning views serialise")
}

fn parse<T: serde::de::DeserializeOwned>(what: &str, text: &str) -> Result<T, JsError> {
    serde_json::from_str(text).map_err(|e| js(WebError::Request(format!("{what}: {e}"))))
}

/// A search tree ([`tree::tree`]) for a [`tree::TreeSpec`] in JSON.
#[wasm_bindgen]
pub fn search_tree(spec_json: &str) -> Result<String, JsError> {
    let spec: tree::TreeSpec = parse("tree", spec_json)?;
    tree::tree(&spec).map(|t| json(&t)).map_err(js)
}

/// An 8-bit build's search followed node by node ([`tree::WalkJob`]).
#[wasm_bindgen]
pub struct Walk {
    job: tree::WalkJob,
}

#[wasm_bindgen]
impl Walk {
    /// Sets up the walk of a [`tree::WalkSpec`] in JSON.
    pub fn start(spec_json: &str) -> Result<Walk, JsError> {
        let spec: tree::WalkSpec = parse("walk", spec_json)?;
        tree::WalkJob::start(&spec)
            .map(|job| Walk { job })
            .map_err(js)
    }

    /// The native tree of the same search, in JSON.
    pub fn native(&self) -> String {
        json(self.job.native())
    }

    /// Runs on for at most `cycles` cycles: a [`tree::WalkUpdate`] in JSON.
    pub fn advance(&mut self, cycles: f64) -> Result<String, JsError> {
        self.job
            .advance(cycles.max(1.0) as u64)
            .map(|u| json(&u))
            .map_err(js)
    }
}

/// A program in the assembler to try ([`sandbox::Sandbox`]).
#[wasm_bindgen]
pub struct Sandbox {
    inner: sandbox::Sandbox,
}

#[wasm_bindgen]
impl Sandbox {
    /// Assembles `source` for `cpu` and loads it.
    #[wasm_bindgen(constructor)]
    pub fn new(cpu: &str, source: &str) -> Result<Sandbox, JsError> {
        sandbox::Sandbox::new(cpu, source)
            .map(|inner| Sandbox { inner })
            .map_err(js)
    }

    /// What the page shows, in JSON.
    pub fn view(&self) -> String {
        json(&self.inner.view())
    }

    /// One instruction.
    pub fn step(&mut self) -> Result<(), JsError> {
        self.inner.step().map_err(js)
    }

    /// Over a call (at most `budget` cycles).
    pub fn step_over(&mut self, budget: f64) -> Result<(), JsError> {
        self.inner.step_over(budget as u64).map_err(js)
    }

    /// Out of the routine (at most `budget` cycles).
    pub fn step_out(&mut self, budget: f64) -> Result<(), JsError> {
        self.inner.step_out(budget as u64).map_err(js)
    }

    /// On to a breakpoint or the end (at most `budget` cycles).
    pub fn run(&mut self, budget: f64) -> Result<(), JsError> {
        self.inner.run(budget as u64).map_err(js)
    }

    /// Toggles the breakpoint of source line `line`; whether one is set now.
    pub fn toggle_breakpoint(&mut self, line: u32) -> Result<bool, JsError> {
        self.inner.toggle_breakpoint(line).map_err(js)
    }

    /// `len` bytes from `addr`.
    pub fn memory(&self, addr: u16, len: usize) -> Vec<u8> {
        self.inner.memory(addr, len)
    }
}

/// The lessons, in JSON.
#[wasm_bindgen]
pub fn lesson_list() -> String {
    json(&lessons::lessons())
}

/// The lesson `id` rendered, in JSON.
#[wasm_bindgen]
pub fn lesson_page(id: &str) -> Result<String, JsError> {
    lessons::lesson_page(id).map(|p| json(&p)).map_err(js)
}

/// The guided examples of the assembler to try, in JSON.
#[wasm_bindgen]
pub fn snippet_list() -> String {
    json(&lessons::snippets())
}

/// Files the user picked for a real program (name and bytes; the page never stores them).
#[wasm_bindgen]
#[derive(Default)]
pub struct Picked {
    files: Vec<(String, Vec<u8>)>,
}

#[wasm_bindgen]
impl Picked {
    /// No files yet.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Picked {
        Picked::default()
    }

    /// A picked file.
    pub fn add(&mut self, name: &str, bytes: Vec<u8>) {
        self.files.push((name.to_string(), bytes));
    }
}

/// The program `id` and its files checked against `picked` ([`programs::info`]), in JSON.
#[wasm_bindgen]
pub fn program_info(id: &str, picked: &Picked) -> Result<String, JsError> {
    programs::info(id, &picked.files)
        .map(|i| json(&i))
        .map_err(js)
}

/// A real program's move, its turns run a slice at a time ([`programs::ProgramJob`]).
#[wasm_bindgen]
pub struct ProgramRun {
    job: programs::ProgramJob,
}

#[wasm_bindgen]
impl ProgramRun {
    /// Sets up the program of a [`programs::ProgramSpec`] in JSON from the picked files.
    pub fn start(spec_json: &str, picked: &Picked) -> Result<ProgramRun, JsError> {
        let spec: programs::ProgramSpec = parse("program", spec_json)?;
        programs::ProgramJob::start(&spec, &picked.files)
            .map(|job| ProgramRun { job })
            .map_err(js)
    }

    /// Runs on for at most `max_host_ms`: a [`programs::ProgramAdvance`] in JSON.
    pub fn advance(&mut self, max_host_ms: f64) -> Result<String, JsError> {
        self.job.advance(max_host_ms).map(|a| json(&a)).map_err(js)
    }

    /// After a pause: real speed counts from now.
    pub fn resume(&mut self) {
        self.job.resume();
    }

    /// Ends the turn at the next slice with the move the program holds.
    pub fn stop(&mut self) {
        self.job.stop();
    }
}
