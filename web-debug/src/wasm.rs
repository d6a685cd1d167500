//! The exports the worker calls: [`Files`] (the user's picked files, kept in this module's
//! memory only), [`files_needed`] and [`Program`] (a [`crate::Stepper`]), each handing JSON
//! text across.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::{Action, DebugError, OpenSpec, Stepper, needed, program};

fn js(e: DebugError) -> JsError {
    JsError::new(&e.to_string())
}

fn json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("the debugger's views serialise")
}

fn parse<T: serde::de::DeserializeOwned>(what: &str, text: &str) -> Result<T, JsError> {
    serde_json::from_str(text).map_err(|e| js(DebugError::Request(format!("{what}: {e}"))))
}

/// Files the user picked.
#[wasm_bindgen]
#[derive(Default)]
pub struct Files {
    files: Vec<(String, Vec<u8>)>,
}

#[wasm_bindgen]
impl Files {
    /// No files yet.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Files {
        Files::default()
    }

    /// A picked file.
    pub fn add(&mut self, name: &str, bytes: Vec<u8>) {
        self.files.push((name.to_string(), bytes));
    }
}

/// The user's files program `id` names, matched to the picked ones ([`crate::needed`]), JSON.
#[wasm_bindgen]
pub fn files_needed(id: &str, files: &Files) -> Result<String, JsError> {
    Ok(json(&needed(program(id).map_err(js)?, &files.files)))
}

/// A program paused in its turn.
#[wasm_bindgen]
pub struct Program {
    stepper: Stepper,
}

#[wasm_bindgen]
impl Program {
    /// Opens an [`OpenSpec`] in JSON from the picked files.
    pub fn open(spec_json: &str, files: &Files) -> Result<Program, JsError> {
        let spec: OpenSpec = parse("open", spec_json)?;
        Stepper::open(&spec, &files.files)
            .map(|stepper| Program { stepper })
            .map_err(js)
    }

    /// Opens program `id` at its lesson step `step`, run there within `budget` cycles.
    pub fn open_lesson(
        id: &str,
        step: u32,
        files: &Files,
        budget: f64,
    ) -> Result<Program, JsError> {
        Stepper::open_lesson(id, step, &files.files, budget as u64)
            .map(|stepper| Program { stepper })
            .map_err(js)
    }

    /// The program's text ([`crate::SourceText`]), JSON.
    pub fn source(&self) -> String {
        json(&self.stepper.source())
    }

    /// Its lesson steps, JSON.
    pub fn lessons(&self) -> String {
        json(&self.stepper.lessons())
    }

    /// Does an [`Action`] in JSON for at most `budget` cycles: a [`crate::Report`] in JSON.
    pub fn act(&mut self, action_json: &str, budget: f64) -> Result<String, JsError> {
        let action: Action = parse("action", action_json)?;
        self.stepper
            .act(&action, budget as u64)
            .map(|r| json(&r))
            .map_err(js)
    }

    /// Pursues the goal for at most `budget` cycles more.
    pub fn resume(&mut self, budget: f64) -> Result<String, JsError> {
        self.stepper
            .resume(budget as u64)
            .map(|r| json(&r))
            .map_err(js)
    }

    /// Drops the goal (Pause).
    pub fn cancel(&mut self) {
        self.stepper.cancel();
    }

    /// The turn's cycles.
    pub fn cycles(&self) -> f64 {
        self.stepper.cycles() as f64
    }

    /// The state at the pause ([`crate::State`]), memory from `mem` (negative: the PC).
    pub fn state(&mut self, mem: i32) -> String {
        let mem = u16::try_from(mem).ok();
        json(&self.stepper.state(mem))
    }
}

/// A program's turn with its tree collected ([`crate::tree::TreeJob`]).
#[wasm_bindgen]
pub struct ProgramTree {
    job: crate::tree::TreeJob,
}

#[wasm_bindgen]
impl ProgramTree {
    /// Opens an [`OpenSpec`] in JSON from the picked files, its turn not begun.
    pub fn open(spec_json: &str, files: &Files) -> Result<ProgramTree, JsError> {
        let spec: OpenSpec = parse("tree", spec_json)?;
        crate::tree::TreeJob::open(&spec, &files.files)
            .map(|job| ProgramTree { job })
            .map_err(js)
    }

    /// Runs the turn on for at most `budget` cycles: whether it is over.
    pub fn advance(&mut self, budget: f64) -> Result<bool, JsError> {
        self.job.advance(budget as u64).map_err(js)
    }

    /// `[nodes, cycles]` so far.
    pub fn progress(&self) -> Vec<f64> {
        let (n, c) = self.job.progress();
        vec![n as f64, c as f64]
    }

    /// The nodes entered from the `from`th on, JSON (the tree while it grows).
    pub fn nodes_from(&self, from: usize) -> String {
        json(&self.job.nodes_from(from))
    }

    /// The two trees ([`crate::tree::Trees`]) in JSON, once the turn is over.
    pub fn finish(&mut self) -> Result<String, JsError> {
        self.job.finish().map(|t| json(&t)).map_err(js)
    }
}
