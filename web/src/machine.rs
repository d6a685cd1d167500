//! The machine view's session: an 8-bit build's search, paused or running, under the
//! emulator's debugger ([`kempelen_emulator::debug`]). The page sees the registers and flags,
//! the disassembly around the PC with symbols and the source line (file:line) of each
//! instruction, memory, the engine's board in RAM, the search path in the ply frames with
//! alpha and beta and the RAM each ply takes ([`kempelen_roms::inspect`]), the cycle counter,
//! the emulated time and the cycle profile by routine; and steps, steps over, steps out, runs
//! to a routine or an address, or continues.
//!
//! The search is a [`PortJob`] like any other (the same slices, the same result); the
//! debugger runs its machine between slices, and when a debugger's run meets the engine's host
//! call "iteration complete" or "done" the job is told ([`PortJob::observe`]), so iterations
//! and the result are reported as in a search run without a pause. A long goal (step over a
//! search, continue) runs a budget of cycles per call: the worker calls [`MachineSession::resume`]
//! until the goal is reached, reading its messages in between (pause = [`MachineSession::cancel`]).

use kempelen_asm::source::MemorySource;
use kempelen_asm::{Options, assemble};
use kempelen_emulator::debug::{DebugStop, Debugger, DisasmLine, Goal, Why};
use kempelen_emulator::lines::{LineCost, LineProfile};
use kempelen_emulator::profiler::{ProfileReport, ProfileRow};
use kempelen_emulator::{Flag, RegisterValue, StopReason};
use kempelen_roms::engine::protocol_move;
use kempelen_roms::inspect::{EngineMap, PlyFrame, RamBoard};
use serde::{Deserialize, Serialize};
use web_time::Instant;

use crate::WebError;
use crate::choice::EngineChoice;
use crate::search::{Event, PortJob, SearchSpec, millis};

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
    /// Until the PC reaches a routine (its label) or an address (`$1234`, `0x1234`).
    To {
        /// The label or address.
        target: String,
    },
    /// Until a breakpoint, or the end of the search.
    Continue,
    /// Until the search has run this many cycles in all (to the first instruction that ends
    /// there or later), or a breakpoint: the same state on every host, so a link holds it.
    Until {
        /// Cycles since the search began.
        cycles: u64,
    },
    /// Sets a breakpoint at a label or address, or clears the one there.
    Break {
        /// The label or address.
        target: String,
    },
    /// Shows the cycles by source line of a routine (its label; empty: the routine the PC
    /// is in, as at the start). Allowed after the search is over too.
    Lines {
        /// The routine's label, or empty.
        routine: String,
    },
}

/// The rows of the disassembly shown before the PC and from it.
const DISASM_BEFORE: usize = 6;
const DISASM_AFTER: usize = 14;
/// Routines of the profile shown.
const PROFILE_ROWS: usize = 14;
/// Bytes of memory shown.
const MEMORY_BYTES: usize = 128;
/// The hottest lines of the whole run shown.
const HOT_LINES: usize = 12;

/// Cycles by source line of one routine: its lines in the order of their addresses, each with
/// its cycles and executions, so the page draws a column and a heat map over the listing.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RoutineLines {
    /// The routine (a label of the build).
    pub routine: String,
    /// Its cycles in the routine profile: its lines' cycles add up to exactly this.
    pub cycles: u64,
    /// Times it was entered.
    pub calls: u64,
    /// Whether the page chose it ([`Action::Lines`]); else it is the routine the PC is in.
    pub chosen: bool,
    /// Its lines that have run, by address.
    pub lines: Vec<LineCost>,
}

/// A ply of the search path, with the move its frame holds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PathPly {
    /// The frame as the engine holds it (alpha, beta, RAM of the ply).
    #[serde(flatten)]
    pub frame: PlyFrame,
    /// The move being searched at this ply, in coordinates, where the frame's bytes are a
    /// legal move on the path so far (not for the deepest ply, whose bytes may be left from
    /// an earlier node).
    pub mv: Option<String>,
}

/// Memory from an address.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Memory {
    /// First address.
    pub addr: u16,
    /// The bytes.
    pub bytes: Vec<u8>,
}

/// What the machine view shows at a pause.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MachineState {
    /// The CPU (`z80`, `6502`).
    pub cpu: &'static str,
    /// The machine's id.
    pub machine: &'static str,
    /// PC and SP.
    pub pc: u16,
    /// Stack pointer.
    pub sp: u16,
    /// The registers the core shows.
    pub registers: Vec<RegisterValue>,
    /// The flags, bit 7 first.
    pub flags: Option<Vec<Flag>>,
    /// The disassembly around the PC.
    pub disassembly: Vec<DisasmLine>,
    /// The profiled cycles of each disassembly row's instruction so far, in the rows' order
    /// (0: it has not run): the listing's cycles column.
    pub disassembly_cycles: Vec<u64>,
    /// `routine+offset` of the PC.
    pub routine: Option<String>,
    /// Cycles since the search began (stepped ones included).
    pub cycles: u64,
    /// Instructions since it began.
    pub instructions: u64,
    /// Emulated time in ms.
    pub emulated_ms: f64,
    /// The engine's node counter.
    pub nodes: u32,
    /// The iteration running.
    pub iteration: u8,
    /// The ply, `None` outside the search.
    pub ply: Option<usize>,
    /// The board in RAM, and its FEN when it is a position (mid-move it may not be).
    pub board: RamBoard,
    /// The board's FEN, or why it is not a position now (before the engine has set up its
    /// board, that it has not: nothing is claimed about RAM it did not write).
    pub board_fen: Result<String, String>,
    /// Whether the engine has set up its board (a position is there, or its first iteration
    /// has begun); before, the page draws no board.
    pub board_set: bool,
    /// The board's squares as the board draws them (session::BoardView's order, a8 to h1):
    /// a FEN piece letter, `?` for a code no piece has, or empty.
    pub squares: Vec<String>,
    /// The search path from the root.
    pub path: Vec<PathPly>,
    /// The cycle profile, most cycles first.
    pub profile: Vec<ProfileRow>,
    /// Cycles profiled.
    pub profiled_cycles: u64,
    /// Cycles by source line of the routine the page chose, else of the one the PC is in
    /// (none before an instruction of it has a routine).
    pub lines: Option<RoutineLines>,
    /// The hottest source lines of the whole run, most cycles first.
    pub hot_lines: Vec<LineCost>,
    /// Memory at the address the page asked for.
    pub memory: Memory,
    /// The breakpoints.
    pub breakpoints: Vec<u16>,
    /// Routines of this build a Run-to may name ([`ROUTINE_HINTS`] it has).
    pub routines: Vec<&'static str>,
    /// The search is over.
    pub done: bool,
}

/// What a call of the debugger did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// Where it paused and what it cost (none for a breakpoint change).
    pub stop: Option<DebugStop>,
    /// The goal is not reached yet: call [`MachineSession::resume`] again.
    pub pending: bool,
    /// The search's events meanwhile (iterations, the result).
    pub events: Vec<Event>,
}

/// An 8-bit build's search under the debugger.
pub struct MachineSession {
    job: PortJob,
    debugger: Debugger,
    map: EngineMap,
    cpu: &'static str,
    /// The cycle count [`Action::Until`] runs to.
    until: Option<u64>,
    /// The routine whose lines the page chose ([`Action::Lines`]).
    lines_of: Option<String>,
}

/// The RAM board's squares from a8 to h1 as FEN letters.
fn squares(board: &RamBoard) -> Vec<String> {
    use kempelen_engine::piece;
    (0..8)
        .rev()
        .flat_map(|rank| (0..8).map(move |file| board.squares[8 * rank + file]))
        .map(|c| match c {
            0 => String::new(),
            1..=6 | 9..=14 => piece::to_char(c).to_string(),
            _ => "?".to_string(),
        })
        .collect()
}

/// Routines a Run-to box may name, the ones this build has (for its hint and its errors).
pub const ROUTINE_HINTS: [&str; 8] = [
    "search",
    "quiesce",
    "node_exit",
    "gen_tac",
    "gen_quiet",
    "gen_moves",
    "make",
    "evaluate",
];

/// The routines of [`ROUTINE_HINTS`] the program at `m` has.
fn routines(m: &kempelen_emulator::Machine) -> Vec<&'static str> {
    ROUTINE_HINTS
        .into_iter()
        .filter(|r| m.symbols().is_some_and(|s| s.get(r).is_some()))
        .collect()
}

/// The profiled cycles of the instruction at `addr` (0 if it has not run).
fn spent(profile: Option<&ProfileReport>, addr: u16) -> u64 {
    profile.map_or(0, |p| {
        p.instructions
            .binary_search_by_key(&addr, |i| i.address)
            .map_or(0, |k| p.instructions[k].cycles)
    })
}

/// The routine [`Action::Lines`] names: `None` for the PC's (an empty name), else a label of
/// the program.
fn lines_routine(
    m: &kempelen_emulator::Machine,
    routine: &str,
) -> Result<Option<String>, WebError> {
    let t = routine.trim();
    if t.is_empty() {
        return Ok(None);
    }
    if m.symbols().is_some_and(|s| s.get(t).is_some()) {
        return Ok(Some(t.to_string()));
    }
    Err(WebError::Request(format!(
        "Cycles by line: '{}' is no routine of this build (the cycle profile names them)",
        crate::link::keys::shown(t)
    )))
}

/// An address: `$1234`, `0x1234` or `1234` (hex), or a label of the program.
fn address(m: &kempelen_emulator::Machine, target: &str) -> Result<u16, WebError> {
    let t = target.trim();
    let hex = t
        .strip_prefix('$')
        .or_else(|| t.strip_prefix("0x"))
        .or_else(|| t.strip_prefix("0X"));
    if let Some(h) = hex {
        return u16::from_str_radix(h, 16)
            .map_err(|_| WebError::Request(format!("'{t}': not an address ($0000 to $FFFF)")));
    }
    if t.is_empty() {
        return Err(WebError::Request(format!(
            "Run to: give a routine ({} ...) or an address ($1234)",
            routines(m).join(", ")
        )));
    }
    kempelen_emulator::debug::symbol(m.symbols(), t).map_err(|_| {
        WebError::Request(format!(
            "Run to '{}': no such label in this build; its routines include {} (the Code and \
             the cycle profile name more), or give an address ($1234)",
            crate::link::keys::shown(t),
            routines(m).join(", ")
        ))
    })
}

impl MachineSession {
    /// Starts the search `spec` names (an 8-bit build) paused before its first instruction,
    /// with every register visible and the profiler on.
    pub fn start(spec: &SearchSpec) -> Result<MachineSession, WebError> {
        let spec = SearchSpec {
            debug: true,
            speed: None,
            ..spec.clone()
        };
        let prepared = spec.prepare()?;
        let EngineChoice::Port(port) = prepared.engine else {
            return Err(WebError::Engine(format!(
                "{}: the machine view runs the 8-bit builds (z80, 6502)",
                prepared.engine.id()
            )));
        };
        let job = PortJob::start(&prepared)?;
        let map =
            EngineMap::of(job.search().engine()).map_err(|e| WebError::Search(e.to_string()))?;
        let mut source = MemorySource::new();
        for (name, text) in port.engine_sources() {
            source.add(name, text.as_bytes());
        }
        let out = assemble(port.engine_main, &source, &Options::new(port.cpu));
        let debugger = Debugger::new().with_sources(out.listing.source_map());
        Ok(MachineSession {
            job,
            debugger,
            map,
            cpu: port.id,
            until: None,
            lines_of: None,
        })
    }

    /// Does `action`: a breakpoint change at once; a goal for at most `budget` cycles (see
    /// [`MachineSession::resume`]).
    pub fn act(&mut self, action: &Action, budget: u64) -> Result<Report, WebError> {
        if let Action::Lines { routine } = action {
            self.lines_of = lines_routine(self.job.search().machine(), routine)?;
            return Ok(Report {
                stop: None,
                pending: false,
                events: Vec::new(),
            });
        }
        if self.job.is_done() {
            return Err(WebError::Request(
                "the search is over: start another to step through it".into(),
            ));
        }
        self.until = None;
        let m = self.job.search().machine();
        let goal = match action {
            Action::Break { target } => {
                let a = address(m, target)?;
                if !self.debugger.clear_breakpoint(a) {
                    self.debugger.set_breakpoint(a);
                }
                return Ok(Report {
                    stop: None,
                    pending: false,
                    events: Vec::new(),
                });
            }
            Action::Step => Goal::Step,
            Action::Over => {
                // The debugger's own rule for what a call is: step_over with no budget sets
                // the goal; the budget runs below.
                return self.over(budget);
            }
            Action::Out => Goal::Out { sp: m.sp() },
            Action::To { target } => Goal::To(address(m, target)?),
            Action::Continue => Goal::Continue,
            Action::Until { cycles } => {
                self.until = Some(*cycles);
                Goal::Continue
            }
            Action::Lines { .. } => unreachable!("answered above"),
        };
        self.debugger.set_goal(goal);
        self.resume(budget)
    }

    fn over(&mut self, budget: u64) -> Result<Report, WebError> {
        let t = Instant::now();
        let stop = self
            .debugger
            .step_over(self.job.search_mut().machine_mut(), budget.max(1))
            .map_err(|e| WebError::Search(e.to_string()));
        self.job.add_busy(t.elapsed());
        let goal = self.debugger.goal();
        self.after(stop?, goal)
    }

    /// Pursues the goal for at most `budget` cycles.
    pub fn resume(&mut self, budget: u64) -> Result<Report, WebError> {
        let mut budget = budget;
        if let Some(target) = self.until {
            let total = self.job.search().machine().total_cycles();
            if total >= target {
                self.debugger.cancel();
                self.until = None;
            }
            budget = budget.min(target.saturating_sub(total));
        }
        if self.debugger.goal().is_none() {
            return Ok(Report {
                stop: None,
                pending: false,
                events: Vec::new(),
            });
        }
        let goal = self.debugger.goal();
        let t = Instant::now();
        let stop = self
            .debugger
            .resume(self.job.search_mut().machine_mut(), budget.max(1))
            .map_err(|e| WebError::Search(e.to_string()));
        self.job.add_busy(t.elapsed());
        self.after(stop?, goal)
    }

    /// A stop at the engine's host calls goes to the search; a goal that is not a single step
    /// goes on past "iteration complete".
    fn after(&mut self, stop: DebugStop, goal: Option<Goal>) -> Result<Report, WebError> {
        let mut events = Vec::new();
        if let Why::Stopped(reason) = stop.why {
            events = self.job.observe(reason)?;
            let iteration = matches!(reason, StopReason::HostIteration { .. });
            if let (true, Some(g)) = (iteration && !self.job.is_done(), goal) {
                if g != Goal::Step {
                    self.debugger.set_goal(g);
                }
            }
        }
        let total = self.job.search().machine().total_cycles();
        if self.until.is_some_and(|t| total >= t) || self.debugger.goal().is_none() {
            self.debugger.cancel();
            self.until = None;
        }
        Ok(Report {
            stop: Some(stop),
            pending: self.debugger.goal().is_some() && !self.job.is_done(),
            events,
        })
    }

    /// Drops the goal (the page's pause).
    pub fn cancel(&mut self) {
        self.until = None;
        self.debugger.cancel();
    }

    /// Whether the search is over.
    pub fn is_done(&self) -> bool {
        self.job.is_done()
    }

    /// The machine as the view shows it, with memory from `mem` (default: the frames).
    pub fn state(&self, mem: Option<u16>) -> MachineState {
        let s = self.job.search();
        let m = s.machine();
        let regs = m.registers();
        let view = self.map.view(m);
        let profile = m.profile();
        let disassembly = self
            .debugger
            .disassembly(m, m.pc(), DISASM_BEFORE, DISASM_AFTER);
        let (lines, hot_lines) = self.line_costs(m, profile.as_ref());
        let frames = view.path.first().map_or(0, |f| f.addr);
        let addr = mem.unwrap_or(frames);
        // Before its first iteration the engine has no ply and no frame; its board is there
        // once its set-up wrote a position.
        let started = view.iteration > 0;
        let position = view.board.position();
        let board_set = started || position.is_ok();
        let board_fen = match position {
            Ok(p) => Ok(p.to_fen()),
            Err(_) if !board_set => Err(
                "the engine has not set up its board yet (it does before its first iteration)"
                    .to_string(),
            ),
            Err(e) => Err(e),
        };
        MachineState {
            cpu: self.cpu,
            machine: self.job.machine_id(),
            pc: m.pc(),
            sp: m.sp(),
            registers: regs.values(),
            flags: regs.flags(),
            disassembly_cycles: disassembly
                .iter()
                .map(|l| spent(profile.as_ref(), l.addr))
                .collect(),
            disassembly,
            routine: view.routine.clone(),
            cycles: m.total_cycles(),
            instructions: m.total_instructions(),
            emulated_ms: millis(s.elapsed()),
            nodes: view.nodes,
            iteration: view.iteration,
            ply: view.ply.filter(|_| started),
            board_fen,
            board_set,
            squares: if board_set {
                squares(&view.board)
            } else {
                vec![String::new(); 64]
            },
            board: view.board,
            path: if started {
                self.path(view.path)
            } else {
                Vec::new()
            },
            profiled_cycles: profile.as_ref().map_or(0, |p| p.total_cycles),
            lines,
            hot_lines,
            profile: profile
                .map(|p| p.rows.into_iter().take(PROFILE_ROWS).collect())
                .unwrap_or_default(),
            memory: Memory {
                addr,
                bytes: m.read_bytes(addr, MEMORY_BYTES),
            },
            breakpoints: self.debugger.breakpoints(),
            routines: routines(m),
            done: self.job.is_done(),
        }
    }

    /// Cycles by line: of the routine chosen (else the PC's), and the hottest of the run.
    fn line_costs(
        &self,
        m: &kempelen_emulator::Machine,
        profile: Option<&ProfileReport>,
    ) -> (Option<RoutineLines>, Vec<LineCost>) {
        let Some(report) = profile else {
            return (None, Vec::new());
        };
        let all = LineProfile::new(report, self.debugger.sources(), |a| {
            let window = m.read_bytes(a, 4);
            kempelen_asm::isa::decode_with(m.cpu(), &window, a, m.symbols())
                .map_or_else(|_| format!("${a:04X}"), |d| d.text())
        });
        let chosen = self.lines_of.is_some();
        let routine = self.lines_of.clone().or_else(|| {
            report
                .rows
                .iter()
                .filter(|r| r.address.is_some_and(|a| a <= m.pc()))
                .max_by_key(|r| r.address)
                .map(|r| r.routine.clone())
        });
        let lines = routine.map(|routine| {
            let row = report.row(&routine);
            let mut lines: Vec<LineCost> = all.of_routine(&routine).cloned().collect();
            lines.sort_by_key(|l| l.address);
            RoutineLines {
                cycles: row.map_or(0, |r| r.cycles),
                calls: row.map_or(0, |r| r.calls),
                routine,
                chosen,
                lines,
            }
        });
        (lines, all.top(HOT_LINES).to_vec())
    }

    /// The frames with their moves, played from the searched position as far as they are
    /// legal.
    fn path(&self, frames: Vec<PlyFrame>) -> Vec<PathPly> {
        let mut pos = Some(self.job.search().position().clone());
        let last = frames.len().saturating_sub(1);
        frames
            .into_iter()
            .enumerate()
            .map(|(k, frame)| {
                let mv = match (&mut pos, k < last) {
                    (Some(p), true) => {
                        let [from, to] = frame.move_bytes;
                        match protocol_move(p, from, to) {
                            Some(mv) => {
                                let text = mv.to_uci();
                                p.play(mv);
                                Some(text)
                            }
                            None => {
                                pos = None;
                                None
                            }
                        }
                    }
                    _ => None,
                };
                PathPly { frame, mv }
            })
            .collect()
    }

    /// The search's job (its progress, its result).
    pub fn job(&self) -> &PortJob {
        &self.job
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(engine: &str) -> MachineSession {
        MachineSession::start(&SearchSpec {
            engine: engine.into(),
            depth: Some(2),
            moves: vec!["e2e4".into()],
            ..SearchSpec::default()
        })
        .unwrap()
    }

    #[test]
    fn steps_move_the_pc_and_count_cycles_on_both_cpus() {
        for engine in ["z80", "6502"] {
            let mut s = session(engine);
            let before = s.state(None);
            assert_eq!(before.cycles, 0);
            for _ in 0..5 {
                let r = s.act(&Action::Step, 1).unwrap();
                assert!(!r.pending);
            }
            let after = s.state(None);
            assert_eq!(after.instructions, 5, "{engine}");
            assert!(after.cycles > 0 && after.pc != before.pc, "{engine}");
            assert!(after.disassembly.iter().any(|l| l.current), "{engine}");
            assert!(
                after.disassembly.iter().any(|l| l.source.is_some()),
                "{engine}: no source lines"
            );
            assert!(after.registers.len() > 4, "{engine}: {:?}", after.registers);
            assert!(after.flags.is_some(), "{engine}");
        }
    }

    #[test]
    fn run_to_a_routine_shows_the_search_path_and_continue_ends_with_the_result() {
        let mut s = session("z80");
        s.act(
            &Action::Break {
                target: "search".into(),
            },
            0,
        )
        .unwrap();
        assert_eq!(s.state(None).breakpoints.len(), 1);
        // Run to `search` a few times: the path grows from the root.
        let mut deepest = 0;
        for _ in 0..4 {
            let mut r = s.act(&Action::Continue, 1 << 20).unwrap();
            while r.pending {
                r = s.resume(1 << 20).unwrap();
            }
            let st = s.state(None);
            assert_eq!(st.routine.as_deref(), Some("search"));
            deepest = deepest.max(st.path.len());
            assert!(st.board_fen.is_ok(), "{:?}", st.board_fen);
        }
        assert!(deepest >= 2, "path {deepest}");
        let st = s.state(None);
        assert!(
            st.path[..st.path.len() - 1].iter().all(|p| p.mv.is_some()),
            "{:?}",
            st.path
        );
        assert!(!st.profile.is_empty());
        s.act(
            &Action::Break {
                target: "search".into(),
            },
            0,
        )
        .unwrap();
        let mut events = Vec::new();
        let mut r = s.act(&Action::Continue, 1 << 20).unwrap();
        events.extend(r.events.clone());
        while r.pending {
            r = s.resume(1 << 20).unwrap();
            events.extend(r.events.clone());
        }
        assert!(s.is_done());
        let done = events.iter().find_map(|e| match e {
            Event::Done(r) => Some(r.clone()),
            _ => None,
        });
        let infos = events
            .iter()
            .filter(|e| matches!(e, Event::Info(_)))
            .count();
        assert_eq!(infos, 2);
        // The same answer as the search without the debugger.
        let native = kempelen_engine::reference::ReferenceSearch::new(
            s.job().search().position(),
            &[],
            kempelen_engine::reference::ReferenceLimits::depth(2),
        )
        .run();
        let done = done.unwrap();
        assert_eq!(done.best, native.best.map(|m| m.to_uci()));
        assert_eq!(done.nodes, native.nodes);
    }

    #[test]
    fn running_to_a_cycle_count_gives_the_same_state_in_any_slices() {
        let run = |chunk: u64| {
            let mut s = session("6502");
            let mut r = s.act(&Action::Until { cycles: 123_457 }, chunk).unwrap();
            while r.pending {
                r = s.resume(chunk).unwrap();
            }
            let st = s.state(None);
            (st.pc, st.cycles, st.instructions, st.registers)
        };
        let (pc, cycles, instructions, regs) = run(1 << 30);
        assert!((123_457..123_457 + 8).contains(&cycles), "{cycles}");
        assert_eq!(run(1000), (pc, cycles, instructions, regs));
    }

    /// Before the engine's first iteration nothing it has not produced is shown: no board, no
    /// ply, no frame and no RAM per ply (the stack pointer still 0 would claim 31,072 bytes).
    #[test]
    fn before_the_search_starts_no_board_ply_or_frame_is_claimed() {
        for engine in ["z80", "6502"] {
            let s = session(engine);
            let st = s.state(None);
            assert!(!st.board_set, "{engine}");
            assert!(st.squares.iter().all(String::is_empty), "{engine}");
            let why = st.board_fen.clone().unwrap_err();
            assert!(why.contains("not set up"), "{engine}: {why}");
            assert!(
                st.path.is_empty() && st.ply.is_none(),
                "{engine}: {:?}",
                st.path
            );
        }
        // Once the search is under way the board and the frames are the engine's.
        let mut s = session("z80");
        s.act(
            &Action::Break {
                target: "search".into(),
            },
            0,
        )
        .unwrap();
        let mut r = s.act(&Action::Continue, 1 << 20).unwrap();
        while r.pending {
            r = s.resume(1 << 20).unwrap();
        }
        let st = s.state(None);
        assert!(st.board_set && st.board_fen.is_ok(), "{:?}", st.board_fen);
        assert!(
            st.path
                .iter()
                .all(|p| p.frame.bytes.is_none_or(|b| b < 1024))
        );
    }

    /// The Run-to errors name the routines this build has: the Z80 build has no `gen_moves`.
    #[test]
    fn run_to_names_the_routines_of_this_build() {
        let mut s = session("z80");
        let e = s
            .act(
                &Action::To {
                    target: "gen_moves".into(),
                },
                10,
            )
            .unwrap_err()
            .to_string();
        assert!(e.contains("'gen_moves'") && e.contains("search"), "{e}");
        let hints = e.split("include ").nth(1).unwrap();
        assert!(!hints.contains("gen_moves"), "{e}");
        let e = s.act(&Action::To { target: " ".into() }, 10).unwrap_err();
        assert!(e.to_string().contains("give a routine"), "{e}");
    }

    #[test]
    fn cycles_by_line_add_up_to_the_routine_profile_on_both_cpus() {
        for engine in ["z80", "6502"] {
            let mut s = session(engine);
            let mut r = s.act(&Action::Continue, 1 << 20).unwrap();
            while r.pending {
                r = s.resume(1 << 20).unwrap();
            }
            assert!(s.is_done());
            // After the search: the lines of each of the profile's routines, chosen by name.
            let st = s.state(None);
            assert!(st.profile.len() >= 5);
            for row in &st.profile[..5] {
                s.act(
                    &Action::Lines {
                        routine: row.routine.clone(),
                    },
                    0,
                )
                .unwrap();
                let lines = s.state(None).lines.unwrap();
                assert!(lines.chosen);
                assert_eq!(lines.routine, row.routine);
                assert_eq!(lines.cycles, row.cycles);
                let sum: u64 = lines.lines.iter().map(|l| l.cycles).sum();
                assert_eq!(sum, row.cycles, "{engine} {}", row.routine);
                assert!(lines.lines.windows(2).all(|w| w[0].address < w[1].address));
                assert!(
                    lines
                        .lines
                        .iter()
                        .all(|l| l.file.is_some() && l.executions > 0)
                );
            }
            // The hottest lines, and the listing's column: the cycles of the instructions shown.
            let hot = &st.hot_lines;
            assert_eq!(hot.len(), HOT_LINES);
            assert!(hot.windows(2).all(|w| w[0].cycles >= w[1].cycles));
            assert_eq!(st.disassembly_cycles.len(), st.disassembly.len());
            // An unknown routine is refused; an empty name goes back to the PC's routine.
            assert!(matches!(
                s.act(&Action::Lines { routine: "no_such".into() }, 0),
                Err(WebError::Request(m)) if m.contains("no_such")
            ));
            s.act(
                &Action::Lines {
                    routine: " ".into(),
                },
                0,
            )
            .unwrap();
            assert!(!s.state(None).lines.is_none_or(|l| l.chosen));
        }
    }

    #[test]
    fn bad_targets_and_native_engines_are_refused_with_a_reason() {
        let mut s = session("6502");
        let e = s
            .act(
                &Action::To {
                    target: "nowhere".into(),
                },
                10,
            )
            .unwrap_err();
        assert!(e.to_string().contains("nowhere"), "{e}");
        let e = s
            .act(
                &Action::To {
                    target: "$12345".into(),
                },
                10,
            )
            .unwrap_err();
        assert!(e.to_string().contains("$12345"), "{e}");
        let e = MachineSession::start(&SearchSpec {
            engine: "reference".into(),
            depth: Some(2),
            ..SearchSpec::default()
        })
        .err()
        .expect("refused");
        assert!(e.to_string().contains("8-bit"), "{e}");
    }
}
