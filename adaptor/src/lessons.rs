//! The lessons' steps in the running code: for each numbered step of a lesson of
//! `docs/history/` ("How Sargon chooses a move" in `sargon.md`, "How Microchess chooses a
//! move" in `microchess.md`) an adaptor file names the routine the step is about and a
//! position where the step decides something (`[[lesson]]`). The command line
//! (`kempelen debug --lesson N`) and the page (a link `#view=machine&program=...&lesson=N`)
//! both open the program there: set up in the position, run to the `hit`th entry of the
//! routine (where `when` holds) in its turn, and paused.
//!
//! ```toml
//! [[lesson]]
//! step = 2                    # the step's number in the lesson
//! lesson = "sargon"           # the lesson's file in docs/history/ (sargon.md)
//! title = "Sorting"
//! name = "SORTM"              # the routine as the listing names it
//! at = "SORTM"                # where it is (a symbol or an address)
//! fen = "..."                 # the position (the program to move)
//! level = 2                   # the program's level, if it has levels
//! hit = 1                     # the how-manyth entry (default 1)
//! when = "NPLY == 1"          # optional: only entries where this holds count
//! why = "SORTM orders the root's moves ..."   # what decides there, in a sentence
//! ```

use kempelen_engine::{Game, Position};
use serde::{Deserialize, Serialize};

use crate::expr::{Expr, Names};

/// `[[lesson]]` as the file gives it.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub(crate) struct LessonFile {
    step: u32,
    lesson: String,
    title: String,
    name: String,
    at: String,
    fen: String,
    #[serde(default)]
    moves: Vec<String>,
    level: Option<u32>,
    hit: Option<u32>,
    when: Option<String>,
    why: String,
}

/// A lesson's step in the running code.
#[derive(Clone, Debug, Serialize)]
pub struct LessonStep {
    /// The step's number in the lesson.
    pub step: u32,
    /// The lesson (`sargon`: `docs/history/sargon.md`).
    pub lesson: String,
    /// The step's title.
    pub title: String,
    /// The routine, as the listing names it.
    pub name: String,
    /// Its address.
    pub at: u16,
    /// The position (FEN).
    pub fen: String,
    /// Moves played from it (UCI), the program to move after them.
    pub moves: Vec<String>,
    /// The program's level.
    pub level: Option<u32>,
    /// Which entry of the routine (from 1).
    pub hit: u32,
    /// The condition an entry must meet, as written.
    pub when_text: Option<String>,
    #[serde(skip)]
    pub(crate) when: Option<Expr>,
    /// What decides there.
    pub why: String,
}

impl LessonStep {
    /// The game the step opens: its position and moves.
    pub fn game(&self) -> Result<Game, String> {
        let mut g = Game::new(Position::from_fen(&self.fen).map_err(|e| e.to_string())?);
        for m in &self.moves {
            g.push_uci(m).map_err(|e| format!("move `{m}`: {e}"))?;
        }
        Ok(g)
    }
}

/// Reads the steps, checking each position and name.
pub(crate) fn resolve(
    files: &[LessonFile],
    names: &Names,
    symbol: &dyn Fn(&str) -> Result<u16, String>,
) -> Result<Vec<LessonStep>, String> {
    let mut out: Vec<LessonStep> = Vec::new();
    for f in files {
        let here = |e: String| format!("[[lesson]] {} step {}: {e}", f.lesson, f.step);
        if out.iter().any(|s| s.lesson == f.lesson && s.step == f.step) {
            return Err(here("given twice".into()));
        }
        let step = LessonStep {
            step: f.step,
            lesson: f.lesson.clone(),
            title: f.title.clone(),
            name: f.name.clone(),
            at: symbol(&f.at).map_err(here)?,
            fen: f.fen.clone(),
            moves: f.moves.clone(),
            level: f.level,
            hit: f.hit.unwrap_or(1).max(1),
            when_text: f.when.clone(),
            when: f
                .when
                .as_deref()
                .map(|w| Expr::parse(w, names).map_err(|e| here(e.to_string())))
                .transpose()?,
            why: f.why.clone(),
        };
        step.game().map_err(here)?;
        out.push(step);
    }
    Ok(out)
}
