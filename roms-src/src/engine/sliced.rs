//! A port engine's search driven by the host one slice of cycles at a time: the host runs a
//! slice, looks at its own world (a stop button, a clock, a message queue) and runs the next.
//! [`PortEngine::search_with`] is this loop for a thread that owns the search; a page's Web
//! Worker, which must return to its event loop between slices to read its messages, holds a
//! [`SlicedSearch`] and calls [`SlicedSearch::step`] itself.
//!
//! The machine is the search's own: between slices the host may read it (registers, RAM, the
//! engine's board) or single-step it, and the search goes on from where it stands. The slices
//! are one run of the machine (each continues it, as [`Machine::run_more`] does), so cycles,
//! time and the RAM profile cover the whole search, and instructions stepped by hand count
//! like any other.

use std::time::Duration;

use kempelen_emulator::{Fault, Machine, StopReason};
use kempelen_engine::time::TimeBudget;
use kempelen_engine::{Position, SearchInfo};
use web_time::Instant;

use super::{PortEngine, PortEngineError, SearchOutcome};

/// What one slice of a [`SlicedSearch`] ended with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Slice {
    /// The slice's cycles ran out; the search goes on.
    Running,
    /// An iteration completed (the engine's host call "iteration complete"): its depth,
    /// score, nodes and principal variation, and the cycles from the start of the search.
    Iteration {
        /// The iteration as the native reference search reports it.
        info: SearchInfo,
        /// Cycles from the start of the search to the end of the iteration.
        cycles: u64,
    },
    /// The engine made its "done" host call: the result.
    Done(Box<SearchOutcome>),
}

/// A search by a port engine, run slice by slice (see the module's text). Built by
/// [`PortEngine::start_search`].
#[derive(Debug)]
pub struct SlicedSearch {
    engine: PortEngine,
    machine: Machine,
    pos: Position,
    budget: TimeBudget,
    start: Instant,
    /// The deepest iteration reported so far (0: none yet).
    reported: u8,
    stopping: bool,
    finished: bool,
}

impl PortEngine {
    /// A search of `pos` as [`PortEngine::search_with`] runs it, not yet started: the host
    /// drives it with [`SlicedSearch::step`]. `budget` is measured in emulated time when the
    /// engine has a clock, else in the host's time from `start`.
    pub fn start_search(
        &self,
        pos: &Position,
        history: &[u32],
        depth: u32,
        nodes: Option<u32>,
        budget: TimeBudget,
        start: Instant,
    ) -> Result<SlicedSearch, PortEngineError> {
        let mut machine = self.search_machine(pos, history, depth, nodes)?;
        machine.set_stop_on_iteration(true);
        Ok(SlicedSearch {
            engine: self.clone(),
            machine,
            pos: pos.clone(),
            budget,
            start,
            reported: 0,
            stopping: false,
            finished: false,
        })
    }
}

impl SlicedSearch {
    /// Runs the machine for at most `cycles` cycles (fewer when the hard time limit comes
    /// first; an instruction may end a few cycles past). After [`Slice::Done`] the search is
    /// over and a further step is refused.
    pub fn step(&mut self, cycles: u64) -> Result<Slice, PortEngineError> {
        if self.finished {
            return Err(PortEngineError::NotDone(StopReason::HostDone));
        }
        let slice = self.slice_cycles(cycles.max(1));
        // The machine was fresh, so its run's cycles so far are its total (a debugger's steps
        // continue the same run), and the run has begun once any cycle ran; a run's budget
        // counts the whole run.
        let so_far = self.machine.total_cycles();
        let budget = so_far + slice;
        let ran = if so_far > 0 {
            self.machine.run_more(budget)
        } else {
            self.machine.run(budget)
        };
        let slice_result = match ran {
            Ok(stats) => match stats.stop {
                StopReason::HostDone => return self.finish(),
                StopReason::HostIteration { .. } => self.iteration(),
                stop => return Err(PortEngineError::NotDone(stop)),
            },
            Err(e) if matches!(e.fault, Fault::BudgetExceeded { .. }) => {
                let t = self.elapsed();
                if self.budget.hard.is_some_and(|h| t >= h) {
                    self.stopping = true;
                }
                Slice::Running
            }
            Err(e) => return Err(PortEngineError::Run(Box::new(e))),
        };
        if self.cycles() > self.engine.max_cycles {
            return Err(PortEngineError::CycleBudget(self.engine.max_cycles));
        }
        self.end_if_stopping()?;
        Ok(slice_result)
    }

    /// Tells the search of a stop the host met while it ran the machine itself (a debugger's
    /// step that ran the engine's host call "iteration complete" or "done"): the iteration is
    /// reported, or the search ends, as if a slice had met it. Other stops are the engine's
    /// errors, as in [`SlicedSearch::step`].
    pub fn observe(&mut self, stop: StopReason) -> Result<Slice, PortEngineError> {
        if self.finished {
            return Err(PortEngineError::NotDone(StopReason::HostDone));
        }
        let slice = match stop {
            StopReason::HostDone => return self.finish(),
            StopReason::HostIteration { .. } => self.iteration(),
            stop => return Err(PortEngineError::NotDone(stop)),
        };
        self.end_if_stopping()?;
        Ok(slice)
    }

    /// Asks the engine to stop: once its first iteration has completed, it ends at its next
    /// node with the last completed iteration (the node limit's rule, ALGORITHM.md section 9);
    /// before that it goes on until iteration 1 completes, so that it always has a move.
    pub fn stop(&mut self) -> Result<(), PortEngineError> {
        self.stopping = true;
        self.end_if_stopping()
    }

    /// Whether a stop was asked for (by [`SlicedSearch::stop`] or a time limit).
    pub fn is_stopping(&self) -> bool {
        self.stopping
    }

    /// Whether the engine made its "done" host call.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// Cycles the search has run so far (stepped instructions included).
    pub fn cycles(&self) -> u64 {
        self.machine.total_cycles()
    }

    /// The search's time so far: emulated time when the engine has a clock (under its
    /// timing model when it has one), else the host's since `start`.
    pub fn elapsed(&self) -> Duration {
        match self.engine.clock {
            Some(_) => self.machine.elapsed(),
            None => self.start.elapsed(),
        }
    }

    /// The deepest iteration completed so far (0 before the first).
    pub fn completed_depth(&self) -> u32 {
        u32::from(self.reported)
    }

    /// The engine's live counters in RAM: the nodes searched so far (`R_NODES`, which it
    /// counts up as it goes) and the iteration being searched (`V_ITER`; 0 if the build has
    /// no such symbol).
    pub fn live_counters(&self) -> (u64, u32) {
        self.engine.live_counters(&self.machine)
    }

    /// The position searched.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The engine that searches.
    pub fn engine(&self) -> &PortEngine {
        &self.engine
    }

    /// The machine the engine runs in, to look at between slices.
    pub fn machine(&self) -> &Machine {
        &self.machine
    }

    /// The machine, to step or change between slices (a debugger's step): the search goes
    /// on from the state it is left in.
    pub fn machine_mut(&mut self) -> &mut Machine {
        &mut self.machine
    }

    /// `want` cycles, or fewer so that the slice ends at the hard time limit: a stop is then
    /// not late by up to a whole slice of emulated time.
    fn slice_cycles(&self, want: u64) -> u64 {
        let (Some(clock), Some(hard)) = (self.engine.clock, self.budget.hard) else {
            return want;
        };
        if self.stopping {
            return want;
        }
        // Cycles per second of emulated time so far (under a timing model the machine runs
        // fewer of them than its clock).
        let t = self.elapsed().as_secs_f64();
        let cycles = self.cycles();
        let rate = if cycles > 0 && t > 0.0 {
            cycles as f64 / t
        } else {
            clock.hz()
        };
        let left = (hard.as_secs_f64() - t).max(0.0);
        want.min(((left * rate).ceil() as u64).max(1))
    }

    fn iteration(&mut self) -> Slice {
        let t = self.elapsed();
        let info = self.engine.iteration_info(&self.machine, &self.pos, t);
        if self.budget.soft.is_some_and(|s| t >= s) {
            self.stopping = true;
        }
        match info {
            Some(info) => {
                self.reported = info.depth.unwrap_or(0) as u8;
                Slice::Iteration {
                    info,
                    cycles: self.cycles(),
                }
            }
            None => Slice::Running,
        }
    }

    /// A stop works like the node limit: once iteration 1 is complete, the engine ends at its
    /// next node with the last completed iteration.
    fn end_if_stopping(&mut self) -> Result<(), PortEngineError> {
        if self.stopping && self.reported > 0 && !self.finished {
            self.engine.limit_nodes_now(&mut self.machine)?;
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<Slice, PortEngineError> {
        self.finished = true;
        let t = self.elapsed();
        let out = self
            .engine
            .search_outcome_at(&self.machine, &self.pos, self.cycles(), t)?;
        Ok(Slice::Done(Box::new(out)))
    }

    /// The engine's last completed iteration when it is deeper than the last one reported:
    /// an engine without the host call "iteration complete" (a changed copy of the sources)
    /// still reports it at its end.
    pub fn unreported_iteration(&self) -> Option<SearchInfo> {
        let info = self
            .engine
            .iteration_info(&self.machine, &self.pos, self.elapsed())?;
        (info.depth.unwrap_or(0) > u32::from(self.reported)).then_some(info)
    }
}
