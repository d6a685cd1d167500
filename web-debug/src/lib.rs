//! The page's debugger over an adapted program's turn: Sargon (the book's text), Microchess
//! (the 1976 KIM-1 binary with Rictor's listing laid over it) and minisearch (Kempelen's own
//! test program, bundled), each paused where its turn begins on the game's position, then
//! stepped, stepped over and out of, run to a label or a line of its listing, to breakpoints,
//! to a cycle count or on ([`kempelen_adaptor::session`]). At every pause the page gets the
//! source line with its author's comment, the instruction and its cycles, registers, flags,
//! memory and the variables the adaptor file declares, decoded, and the cycles every
//! instruction has spent in the turn so far (the profiler's, the heat map over the text;
//! [`Stepper::state`]); once, the whole text of the program's listing with each line's
//! address and cycles ([`Stepper::source`]).
//!
//! It is a wasm module of its own ([`wasm`]), loaded by the page's worker only when a program
//! is stepped through: the page's main module stays without the debugger and the adaptor
//! files' declarations. The programs' files are the user's (picked in the page, matched by
//! their SHA-256 to the ones the adaptor file names); they live in this module's memory while
//! the session does and go nowhere else. Nothing here reads the host's clock: a pause is
//! reproduced from the program, the position and the turn's cycles ([`Action::Until`]).

pub mod tree;
pub mod wasm;

use std::path::Path;
use std::sync::Arc;

use kempelen_adaptor::Adaptor;
use kempelen_adaptor::files::PickedFiles;
use kempelen_adaptor::lessons::LessonStep;
use kempelen_adaptor::session::{Session, StopView};
use kempelen_emulator::debug::{DisasmLine, Goal};
use kempelen_engine::{Game, Position};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Why the debugger cannot do what the page asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DebugError {
    /// A program the page does not know.
    #[error(
        "no program '{0}' to step through (sargon-book, microchess, minisearch-z80, minisearch-6502)"
    )]
    Program(String),
    /// A file the program needs that was not picked (or differs).
    #[error("{0}")]
    Files(String),
    /// The position or its moves.
    #[error("position: {0}")]
    Position(String),
    /// The adaptor file or the program could not be set up.
    #[error("{0}")]
    Setup(String),
    /// A step, a target, the machine.
    #[error("{0}")]
    Session(String),
    /// A request the page built wrongly.
    #[error("request: {0}")]
    Request(String),
}

/// A program the debugger opens: its adaptor file, compiled in, and the files bundled with it
/// (only Kempelen's own; the historical programs' files are the user's).
pub struct DebugProgram {
    /// Its id in links.
    pub id: &'static str,
    /// Its adaptor file's name (in `adaptors/`).
    pub file: &'static str,
    /// The adaptor file.
    pub text: &'static str,
    /// Files that come with it: (name, text).
    pub bundled: &'static [(&'static str, &'static str)],
}

/// The programs.
pub const PROGRAMS: [DebugProgram; 4] = [
    DebugProgram {
        id: "sargon-book",
        file: "sargon-book-jupiter3.toml",
        text: include_str!("../../adaptors/sargon-book-jupiter3.toml"),
        bundled: &[],
    },
    DebugProgram {
        id: "microchess",
        file: "microchess-kim1.toml",
        text: include_str!("../../adaptors/microchess-kim1.toml"),
        bundled: &[],
    },
    DebugProgram {
        id: "minisearch-z80",
        file: "minisearch-z80.toml",
        text: include_str!("../../adaptors/minisearch-z80.toml"),
        bundled: &[(
            "minisearch-z80.asm",
            include_str!("../../adaptors/minisearch/minisearch-z80.asm"),
        )],
    },
    DebugProgram {
        id: "minisearch-6502",
        file: "minisearch-6502.toml",
        text: include_str!("../../adaptors/minisearch-6502.toml"),
        bundled: &[(
            "minisearch-6502.asm",
            include_str!("../../adaptors/minisearch/minisearch-6502.asm"),
        )],
    },
];

/// The program `id`.
pub fn program(id: &str) -> Result<&'static DebugProgram, DebugError> {
    PROGRAMS
        .iter()
        .find(|p| p.id == id)
        .ok_or_else(|| DebugError::Program(id.to_string()))
}

/// A file of the user's that a program names, and whether one picked is it.
#[derive(Debug, Clone, Serialize)]
pub struct NeededFile {
    /// Its name as the adaptor file gives it.
    pub name: String,
    /// The SHA-256 the adaptor file gives.
    pub sha256: String,
    /// What it is for: `program` (the program runs from it) or `listing` (its text laid over
    /// the binary; without it the program runs, its code shown disassembled).
    pub role: &'static str,
    /// The name of the picked file that is it (by its contents), if one is.
    pub picked_as: Option<String>,
}

/// The user's files a program names (`$KEMPELEN_HISTORICAL/NAME` in its `[[image]]`s and
/// `[listing]`), each matched by contents to the picked ones.
pub fn needed(p: &DebugProgram, picked: &[(String, Vec<u8>)]) -> Vec<NeededFile> {
    let value: toml::Value = toml::from_str(p.text).expect("a compiled-in adaptor file reads");
    let images = value.get("image").and_then(|i| i.as_array()).cloned();
    let listing = value.get("listing").cloned();
    let entries = images
        .into_iter()
        .flatten()
        .map(|v| (v, "program"))
        .chain(listing.map(|v| (v, "listing")));
    let hashes: Vec<String> = picked.iter().map(|(_, b)| sha256_hex(b)).collect();
    entries
        .filter_map(|(v, role)| {
            let name = v
                .get("file")?
                .as_str()?
                .strip_prefix("$KEMPELEN_HISTORICAL/")?;
            let sha = v.get("sha256")?.as_str()?.to_string();
            let picked_as = hashes
                .iter()
                .position(|h| *h == sha)
                .map(|i| picked[i].0.clone());
            Some(NeededFile {
                name: name.to_string(),
                sha256: sha,
                role,
                picked_as,
            })
        })
        .collect()
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// What the page asks the debugger to open.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenSpec {
    /// The program's id.
    pub program: String,
    /// The position (default: the start position).
    #[serde(default)]
    pub fen: Option<String>,
    /// Moves played from it (coordinates); the program moves after them.
    #[serde(default)]
    pub moves: Vec<String>,
    /// Its depth (the adaptor maps it to the program's level; `None`: its default).
    #[serde(default)]
    pub depth: Option<u32>,
}

/// What the page asks the debugger to do.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum Action {
    /// One instruction.
    Step,
    /// Over a call (else one instruction).
    Over,
    /// Until the current routine returns.
    Out,
    /// Until the PC reaches a label, `LABEL+n`, an address (`$1234`) or a line (`:123`,
    /// `FILE:123`), or a breakpoint.
    To {
        /// Where.
        target: String,
    },
    /// Until a breakpoint or the end of the turn.
    Continue,
    /// To the turn's cycle count (no breakpoints): the pause a link holds.
    Until {
        /// Cycles since the turn began.
        cycles: u64,
    },
    /// Sets a breakpoint at a label, address or line, or clears the one there.
    Break {
        /// Where.
        target: String,
    },
}

/// A file of the program's text, whole, for the code column.
#[derive(Debug, Clone, Serialize)]
pub struct SourceFile {
    /// Its name.
    pub name: String,
    /// Its lines.
    pub lines: Vec<String>,
}

/// A line of the text that put an instruction in memory.
#[derive(Debug, Clone, Serialize)]
pub struct CodeLine {
    /// The file (an index into [`SourceText::files`]).
    pub file: usize,
    /// Its line (from 1).
    pub line: u32,
    /// The instruction's address.
    pub addr: u16,
    /// Its cycles from the CPU's table (`7/12`: not taken / taken).
    pub cycles: String,
}

/// The program's text as the code column shows it.
#[derive(Debug, Clone, Serialize)]
pub struct SourceText {
    /// Its files.
    pub files: Vec<SourceFile>,
    /// The lines of code, by address.
    pub code: Vec<CodeLine>,
    /// The labels a Run-to may name (the listing's), in address order.
    pub labels: Vec<(String, u16)>,
    /// Where no text explains the binary (a listing that could not be laid over it, or that
    /// differs here and there), in sentences.
    pub notes: Vec<String>,
}

/// Memory from an address.
#[derive(Debug, Clone, Serialize)]
pub struct Memory {
    /// First address.
    pub addr: u16,
    /// The bytes.
    pub bytes: Vec<u8>,
}

/// Everything the page shows at a pause.
#[derive(Debug, Clone, Serialize)]
pub struct State {
    /// The stop: source line, comment, instruction, registers, flags, variables.
    pub stop: StopView,
    /// The program's id.
    pub id: &'static str,
    /// The position it plays (FEN) and its level.
    pub fen: String,
    /// The level.
    pub level: Option<u32>,
    /// The disassembly around the PC.
    pub disassembly: Vec<DisasmLine>,
    /// The breakpoints.
    pub breakpoints: Vec<u16>,
    /// Memory.
    pub memory: Memory,
    /// What the program printed in its turn.
    pub printed: String,
    /// The instructions run in the turn so far, each with the cycles it has spent and how
    /// often it ran (the profiler's counts since the turn began), by address. With
    /// `spent_outside` they add up to the turn's cycles.
    pub spent: Vec<Spent>,
    /// Cycles of the turn that no instruction of the program ran: the machine's routines the
    /// host serves (a monitor's console calls, charged at their cost), 0 on a machine without.
    pub spent_outside: u64,
}

/// The cycles one instruction has spent in the turn so far.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Spent {
    /// The instruction's address.
    pub addr: u16,
    /// Its cycles, all executions together.
    pub cycles: u64,
    /// Times it ran.
    pub executions: u64,
}

/// What a call did.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The goal is not reached yet: call [`Stepper::resume`] again.
    pub pending: bool,
    /// The turn's cycles now.
    pub cycles: u64,
}

/// The rows of the disassembly shown before the PC and from it.
const DISASM_BEFORE: usize = 4;
const DISASM_AFTER: usize = 10;
/// Bytes of memory shown.
const MEMORY_BYTES: usize = 128;

/// A program paused in its turn, as the page steers it.
pub struct Stepper {
    id: &'static str,
    session: Session,
    /// The texts of its files (picked or bundled), for the code column.
    texts: Vec<(String, String)>,
    /// The cycle count [`Action::Until`] runs to.
    until: Option<u64>,
}

fn game_of(fen: Option<&str>, moves: &[String]) -> Result<Game, DebugError> {
    let start = match fen {
        Some(f) if !f.trim().is_empty() => {
            Position::from_fen(f.trim()).map_err(|e| DebugError::Position(e.to_string()))?
        }
        _ => Position::startpos(),
    };
    let mut g = Game::new(start);
    for m in moves {
        g.push_uci(m)
            .map_err(|e| DebugError::Position(format!("move {m}: {e}")))?;
    }
    Ok(g)
}

impl Stepper {
    /// The program of `spec` from the picked files, paused where its turn begins.
    pub fn open(spec: &OpenSpec, picked: &[(String, Vec<u8>)]) -> Result<Stepper, DebugError> {
        let p = program(&spec.program)?;
        let game = game_of(spec.fen.as_deref(), &spec.moves)?;
        let (adaptor, texts) = adaptor_of(p, picked)?;
        let mut session = Session::open(Arc::new(adaptor), &game, spec.depth)
            .map_err(|e| DebugError::Setup(e.to_string()))?;
        session.machine_mut().enable_profiler();
        Ok(Stepper {
            id: p.id,
            session,
            texts,
            until: None,
        })
    }

    /// The program at lesson step `step` of its adaptor file: opened on the step's position
    /// and run to the entry of its routine where the step decides something (within
    /// `budget` cycles).
    pub fn open_lesson(
        id: &str,
        step: u32,
        picked: &[(String, Vec<u8>)],
        budget: u64,
    ) -> Result<Stepper, DebugError> {
        let p = program(id)?;
        let (adaptor, texts) = adaptor_of(p, picked)?;
        let s: LessonStep = adaptor
            .lessons()
            .iter()
            .find(|l| l.step == step)
            .cloned()
            .ok_or_else(|| DebugError::Request(format!("{id} has no lesson step {step}")))?;
        let game = s.game().map_err(DebugError::Position)?;
        let mut session = Session::open(Arc::new(adaptor), &game, s.level)
            .map_err(|e| DebugError::Setup(e.to_string()))?;
        session.machine_mut().enable_profiler();
        let reached = session
            .run_to_lesson(&s, budget)
            .map_err(|e| DebugError::Session(e.to_string()))?;
        if !reached {
            return Err(DebugError::Session(format!(
                "lesson step {step}: {} was not reached as the step says within {budget} cycles",
                s.name
            )));
        }
        Ok(Stepper {
            id: p.id,
            session,
            texts,
            until: None,
        })
    }

    /// The lesson steps the program's adaptor file declares.
    pub fn lessons(&self) -> &[LessonStep] {
        self.session.adaptor().lessons()
    }

    /// The program's text for the code column.
    pub fn source(&self) -> SourceText {
        source_text(&self.session, &self.texts)
    }

    /// Does `action`: a breakpoint change at once; a goal for at most `budget` cycles (call
    /// [`Stepper::resume`] while [`Report::pending`]).
    pub fn act(&mut self, action: &Action, budget: u64) -> Result<Report, DebugError> {
        self.until = None;
        let err = |e: kempelen_adaptor::session::SessionError| DebugError::Session(e.to_string());
        if self.session.over() && !matches!(action, Action::Break { .. }) {
            return Err(DebugError::Session(
                "the program's turn is over (it answered): open it again to step through it".into(),
            ));
        }
        match action {
            Action::Break { target } => {
                let a = self.session.resolve(target).map_err(err)?;
                let d = self.session.debugger();
                if !d.clear_breakpoint(a) {
                    d.set_breakpoint(a);
                }
                return Ok(self.report());
            }
            Action::Step => {
                self.session.step().map_err(err)?;
            }
            Action::Over => {
                self.session.step_over(budget.max(1)).map_err(err)?;
            }
            Action::Out => {
                self.session.step_out(budget.max(1)).map_err(err)?;
            }
            Action::To { target } => {
                let a = self.session.resolve(target).map_err(err)?;
                self.session.run_to(a, budget.max(1)).map_err(err)?;
            }
            Action::Continue => {
                self.session.run(budget.max(1)).map_err(err)?;
            }
            Action::Until { cycles } => {
                self.session.debugger().cancel();
                self.until = Some(*cycles);
                return self.resume(budget);
            }
        }
        Ok(self.report())
    }

    /// Pursues the goal for at most `budget` cycles more.
    pub fn resume(&mut self, budget: u64) -> Result<Report, DebugError> {
        let err = |e: kempelen_adaptor::session::SessionError| DebugError::Session(e.to_string());
        if let Some(target) = self.until {
            if self.session.seek(target, budget.max(1)).map_err(err)? {
                self.until = None;
            }
        } else if self.session.debugger().goal().is_some() && !self.session.over() {
            self.session.resume(budget.max(1)).map_err(err)?;
        }
        Ok(self.report())
    }

    fn report(&mut self) -> Report {
        let over = self.session.over();
        if over {
            self.until = None;
            self.session.debugger().cancel();
        }
        let goal: Option<Goal> = self.session.debugger().goal();
        Report {
            pending: !over && (self.until.is_some() || goal.is_some()),
            cycles: self.session.cycles(),
        }
    }

    /// Drops the goal being pursued (the page's Pause).
    pub fn cancel(&mut self) {
        self.until = None;
        self.session.debugger().cancel();
    }

    /// Everything at the pause, with memory from `mem` (default: the PC).
    pub fn state(&mut self, mem: Option<u16>) -> State {
        let printed = self.session.printed().to_string();
        let breakpoints = self.session.debugger().breakpoints();
        let m = self.session.machine();
        let addr = mem.unwrap_or(m.pc());
        let spent: Vec<Spent> = m
            .profile()
            .map(|p| {
                p.instructions
                    .iter()
                    .filter(|i| i.executions > 0)
                    .map(|i| Spent {
                        addr: i.address,
                        cycles: i.cycles,
                        executions: i.executions,
                    })
                    .collect()
            })
            .unwrap_or_default();
        let run: u64 = spent.iter().map(|x| x.cycles).sum();
        let spent_outside = self.session.cycles().saturating_sub(run);
        State {
            stop: self.session.view(),
            id: self.id,
            fen: self.session.game().position().to_fen(),
            level: self.session.level(),
            disassembly: self.session.disassembly(DISASM_BEFORE, DISASM_AFTER),
            breakpoints,
            memory: Memory {
                addr,
                bytes: m.read_bytes(addr, MEMORY_BYTES),
            },
            printed,
            spent,
            spent_outside,
        }
    }

    /// The turn's cycles so far.
    pub fn cycles(&self) -> u64 {
        self.session.cycles()
    }
}

/// The program's adaptor read with the picked files (each under the name the adaptor file
/// gives it, found by its contents) and its bundled ones; and the texts of those files.
fn adaptor_of(
    p: &DebugProgram,
    picked: &[(String, Vec<u8>)],
) -> Result<(Adaptor, Vec<(String, String)>), DebugError> {
    let need = needed(p, picked);
    let missing: Vec<String> = need
        .iter()
        .filter(|n| n.role == "program" && n.picked_as.is_none())
        .map(|n| format!("{} (SHA-256 {}…)", n.name, &n.sha256[..16]))
        .collect();
    if !missing.is_empty() {
        return Err(DebugError::Files(format!(
            "{}: pick {}: no file picked has its contents",
            p.id,
            missing.join(", ")
        )));
    }
    let mut files = PickedFiles::new();
    let mut texts = Vec::new();
    for n in &need {
        if let Some(at) = &n.picked_as {
            let bytes = &picked
                .iter()
                .find(|(name, _)| name == at)
                .expect("matched")
                .1;
            files.add(&n.name, bytes.clone());
            texts.push((n.name.clone(), String::from_utf8_lossy(bytes).into_owned()));
        }
    }
    for (name, text) in p.bundled {
        files.add(name, text.as_bytes().to_vec());
        texts.push((name.to_string(), text.to_string()));
    }
    let path = Path::new("adaptors").join(p.file);
    let adaptor = Adaptor::from_text(&path, p.text, &files)
        .map_err(|e| DebugError::Setup(format!("{}: {e}", p.file)))?;
    Ok((adaptor, texts))
}

/// The code column's text: the files that put code in memory (a hex dump is not text: the
/// binary's own file is left out), their lines of code with addresses and cycles.
fn source_text(session: &Session, texts: &[(String, String)]) -> SourceText {
    let lines = &session.adaptor().program_source().lines;
    let base = |f: &str| f.rsplit(['/', '\\']).next().unwrap_or(f).to_string();
    let mut files: Vec<SourceFile> = Vec::new();
    let mut code = Vec::new();
    // The cycles of an instruction from the CPU's table (a debugger without the listing).
    let plain = kempelen_emulator::debug::Debugger::new();
    for l in lines.iter().filter(|l| l.code) {
        let name = base(&l.file);
        let file = match files.iter().position(|f| f.name == name) {
            Some(i) => i,
            None => {
                let Some((_, text)) = texts.iter().find(|(n, _)| *n == name) else {
                    continue;
                };
                files.push(SourceFile {
                    name,
                    lines: text.lines().map(str::to_string).collect(),
                });
                files.len() - 1
            }
        };
        let cycles = plain
            .disassembly(session.machine(), l.addr, 0, 1)
            .into_iter()
            .next()
            .map(|d| d.cycles)
            .unwrap_or_default();
        code.push(CodeLine {
            file,
            line: l.line,
            addr: l.addr,
            cycles,
        });
    }
    let mut labels: Vec<(String, u16)> = session
        .adaptor()
        .program_source()
        .symbols
        .iter()
        .filter(|s| lines.at(s.value).is_some_and(|l| l.code))
        .map(|s| (s.name.clone(), s.value))
        .collect();
    labels.sort_by_key(|(n, a)| (*a, n.clone()));
    labels.dedup_by_key(|(_, a)| *a);
    let notes = match session.adaptor().listing() {
        Some(Err(why)) => vec![format!(
            "No listing laid over the binary ({why}): its code is shown disassembled"
        )],
        Some(Ok(map)) => std::iter::once(format!(
            "{}, laid over the binary: {} of its {} instructions are the binary's",
            map.file, map.matched, map.listing_instructions
        ))
        .chain(map.differs.iter().map(|d| {
            format!(
                "${:04X}-${:04X}{}: the binary differs from the listing (shown disassembled)",
                d.first,
                d.last,
                d.after
                    .as_deref()
                    .map(|a| format!(" (after {a})"))
                    .unwrap_or_default()
            )
        }))
        .collect(),
        None => Vec::new(),
    };
    SourceText {
        files,
        code,
        labels,
        notes,
    }
}

#[cfg(test)]
mod tests;
