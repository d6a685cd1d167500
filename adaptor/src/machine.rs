//! The emulated machine that runs the program, on a thread of its own or on its host's
//! ([`Host`]): booted with the images and pokes, driven turn by turn (keys typed, run until
//! the program waits for input), restarted or poked for a set-up. A host without threads (a
//! page's Web Worker) runs the machine itself, turn by turn ([`Host::inline`]); the command
//! line runs it on a thread, so that a `stop` read on the main thread reaches a running turn.
//!
//! Every turn runs in slices of emulated time, and between two slices the machine's driver
//! looks at the search's stop flag, its time limit (a number of cycles: emulated time at the
//! machine's clock), its node limit and the turn's cycle budget, so a `stop` ends any turn
//! within one slice (a few milliseconds of host time). In the turn that computes the
//! program's move it also reads what the program holds in RAM (its best move so far, see
//! [`crate::held`]) and reports each change.

use kempelen_emulator::{Fault, Machine, MachineBuilder, MemoryMap, StopReason};
use kempelen_engine::EngineError;
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};

use crate::description::Adaptor;
use crate::held::{Held, RootBoard};

/// Cycles per slice (about 65 ms of emulated time at 2 MHz, a few ms of host time).
const SLICE: u64 = 1 << 17;

/// The program an [`Adaptor`] describes, driven on its machine: booted, restarted, and run
/// turn by turn within the turn's limits.
struct Driver<'a> {
    adaptor: &'a Adaptor,
    /// Run a Z80 on the core that shows every register (a debugger's view), not the fast one.
    all_registers: bool,
}

impl Driver<'_> {
    /// A fresh machine with the program loaded, poked and run to its first wait for input.
    fn boot(&self, stop: &AtomicBool) -> Result<(Machine, String), EngineError> {
        let be = |e: String| EngineError::Backend(e);
        let mut b = match &self.adaptor.personality {
            Some(p) => p.builder(),
            None => MachineBuilder::new(self.adaptor.cpu)
                .memory_map(MemoryMap::default_for(self.adaptor.cpu)),
        };
        if self.all_registers && self.adaptor.cpu == kempelen_emulator::Cpu::Z80 {
            b = b.core(kempelen_emulator::CoreKind::RustzxZ80);
        }
        for (a, bytes) in &self.adaptor.chunks {
            b = b.load(*a, bytes);
        }
        if let Some(e) = self.adaptor.entry {
            b = b.entry(e);
        }
        // The source's names in the trace of a fault.
        let symbols = &self.adaptor.program.symbols;
        if !symbols.is_empty() {
            b = b.symbols(symbols.clone());
        }
        let mut m = b
            .clock(self.adaptor.clock)
            .build()
            .map_err(|e| be(e.to_string()))?;
        for (a, bytes) in &self.adaptor.pokes {
            m.write_bytes(*a, bytes).map_err(|e| be(e.to_string()))?;
        }
        m.console_mut().set_stop_on_empty_input(true);
        m.count_executions(&self.counted());
        let first = self.turn(&mut m, "", stop)?;
        if first.end != TurnEnd::Waiting {
            return Err(EngineError::Backend(format!(
                "{}: stopped while the program started, before it first waited for input \
                 ({} cycles){}",
                self.adaptor.name,
                first.cycles,
                printed(&first.out)
            )));
        }
        Ok((m, first.out))
    }

    /// Restarts the program at its entry, RAM kept, and runs it to its next wait for input.
    fn restart(&self, m: &mut Machine, stop: &AtomicBool) -> Result<Turn, EngineError> {
        let entry = self.adaptor.entry.ok_or_else(|| {
            EngineError::Backend(format!("{}: no entry to restart at", self.adaptor.name))
        })?;
        m.set_pc(entry);
        self.turn(m, "", stop)
    }

    /// Types `keys` and runs until the program waits for input (a turn that does not compute
    /// the program's move: no time limit, not paced).
    fn turn(&self, m: &mut Machine, keys: &str, stop: &AtomicBool) -> Result<Turn, EngineError> {
        let limits = TurnLimits {
            stop,
            deadline: None,
            nodes: None,
            realtime: false,
        };
        self.run_turn(m, keys, &limits, None)
    }

    /// Types `keys` and runs the machine slice by slice until the program waits for input,
    /// or a limit ends the turn. `watch`: the turn computes the program's move; what it holds
    /// in RAM is read after every slice and each change is sent.
    fn run_turn(
        &self,
        m: &mut Machine,
        keys: &str,
        limits: &TurnLimits,
        mut watch: Option<(&RootBoard, &mut dyn FnMut(Progress))>,
    ) -> Result<Turn, EngineError> {
        self.start_turn(m, keys, limits.realtime);
        let mut run = Running::default();
        loop {
            if let Some(end) = self.run_until(m, &mut run, limits, u64::MAX, &mut watch)? {
                return Ok(self.finish_turn(m, run, end, watch.map(|(root, _)| root)));
            }
        }
    }

    /// Types `keys` and begins a turn: the node count starts from 0, the machine paced to its
    /// clock or not.
    fn start_turn(&self, m: &mut Machine, keys: &str, realtime: bool) {
        m.console_mut().push_input(keys.as_bytes());
        m.count_executions(&self.counted());
        m.set_realtime(realtime);
    }

    /// The points whose executions a turn counts: the node routines and the `[[count]]`
    /// points.
    fn counted(&self) -> Vec<u16> {
        let mut addrs: Vec<u16> = self
            .adaptor
            .nodes
            .as_ref()
            .map(|(a, _)| a.clone())
            .unwrap_or_default();
        #[cfg(feature = "opened")]
        addrs.extend(self.adaptor.counters().iter().map(|c| c.at));
        addrs.sort_unstable();
        addrs.dedup();
        addrs
    }

    /// Runs the turn on slice by slice, at most `budget` cycles more: how it ended, or `None`
    /// when the budget was spent first (the host runs it on later).
    fn run_until(
        &self,
        m: &mut Machine,
        run: &mut Running,
        limits: &TurnLimits,
        budget: u64,
        watch: &mut Option<(&RootBoard, &mut dyn FnMut(Progress))>,
    ) -> Result<Option<TurnEnd>, EngineError> {
        // Paced, a slice is 10 ms of emulated time, so a stop is seen within that much real
        // time too.
        let slice = if limits.realtime {
            ((self.adaptor.clock.hz() / 100.0) as u64).clamp(1, SLICE)
        } else {
            SLICE
        };
        let stop_at = run.cycles.saturating_add(budget.max(1));
        loop {
            let mut this = slice
                .min(self.adaptor.turn_budget - run.cycles)
                .min(stop_at - run.cycles);
            if let Some(d) = limits.deadline {
                this = this.min(d.saturating_sub(run.cycles).max(1));
            }
            if self.run_slice(m, this, &mut run.cycles)? {
                return Ok(Some(TurnEnd::Waiting));
            }
            if let Some((root, progress)) = watch.as_mut() {
                self.send_held(m, root, &mut **progress, &mut run.held, run.cycles);
            }
            if let Some(end) = self.limit_reached(m, limits, run.cycles)? {
                return Ok(Some(end));
            }
            if run.cycles >= stop_at {
                return Ok(None);
            }
        }
    }

    /// The turn's outcome once it ended; `root`: it computed the program's move (what the
    /// program holds as best is read once more).
    fn finish_turn(
        &self,
        m: &mut Machine,
        run: Running,
        end: TurnEnd,
        root: Option<&RootBoard>,
    ) -> Turn {
        m.set_realtime(false);
        let mut held = run.held;
        if let (Some(root), true) = (root, self.searching(m)) {
            held = Held::read(self.adaptor, m, root);
        }
        Turn {
            out: take_output(m),
            cycles: run.cycles,
            nodes: self.node_count(m),
            end,
            held,
            boards: None,
        }
    }

    /// Runs an opened search on for at most `budget` cycles: the steps of its set-up in turn,
    /// then the turn that computes the move.
    fn advance_opened(
        &self,
        m: &mut Machine,
        o: &mut Opened,
        budget: u64,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Advanced, EngineError> {
        let mut left = budget.max(1);
        loop {
            if o.current.is_none() {
                o.current = Some(self.next_step(m, o)?);
                continue;
            }
            let cur = o.current.as_mut().expect("a turn under way");
            let limits = TurnLimits {
                stop: &o.search.stop,
                deadline: cur.search.as_ref().and(o.search.deadline),
                nodes: cur.search.as_ref().and(o.search.nodes),
                realtime: cur.search.is_some() && o.search.realtime,
            };
            let ran = cur.run.cycles;
            let mut watch = cur
                .search
                .as_ref()
                .map(|(root, _)| (root, &mut *progress as &mut dyn FnMut(Progress)));
            let end = self.run_until(m, &mut cur.run, &limits, left, &mut watch)?;
            left = left.saturating_sub(cur.run.cycles - ran);
            let Some(end) = end else {
                return Ok(Advanced::Running {
                    cycles: cur.run.cycles,
                    nodes: self.node_count(m),
                    searching: cur.search.is_some(),
                    board_before: cur.search.as_ref().and_then(|(_, b)| b.clone()),
                });
            };
            let cur = o.current.take().expect("a turn under way");
            let mut turn = self.finish_turn(m, cur.run, end, cur.search.as_ref().map(|(r, _)| r));
            if let Some((_, before)) = cur.search {
                let board = self.adaptor.board_memory();
                turn.boards = before.zip(board.map(|(at, len)| m.read_bytes(at, len)));
                return Ok(Advanced::Done(turn));
            }
            if end != TurnEnd::Waiting {
                return Ok(Advanced::Done(turn));
            }
            if left == 0 {
                return Ok(Advanced::Running {
                    cycles: 0,
                    nodes: None,
                    searching: false,
                    board_before: None,
                });
            }
        }
    }

    /// Begins the next step of an opened search: pokes are done at once, a restart or typed
    /// keys begin a turn (the last one the search's, its board read as it begins).
    fn next_step(&self, m: &mut Machine, o: &mut Opened) -> Result<Current, EngineError> {
        loop {
            let (step, last) = o
                .steps
                .pop_front()
                .ok_or_else(|| EngineError::Backend("no turn computed a move".into()))?;
            match step {
                Step::Poke(bytes) => bytes
                    .iter()
                    .try_for_each(|(a, b)| m.write_bytes(*a, &[*b]))
                    .map_err(|e| EngineError::Backend(e.to_string()))?,
                Step::Restart => {
                    let entry = self.adaptor.entry.ok_or_else(|| {
                        EngineError::Backend(format!(
                            "{}: no entry to restart at",
                            self.adaptor.name
                        ))
                    })?;
                    m.set_pc(entry);
                    self.start_turn(m, "", false);
                    return Ok(Current {
                        run: Running::default(),
                        search: None,
                    });
                }
                Step::Turn(keys) if last => {
                    let root = RootBoard::read(self.adaptor, m, o.search.program_black);
                    let before = self
                        .adaptor
                        .board_memory()
                        .map(|(at, len)| m.read_bytes(at, len));
                    self.start_turn(m, &keys, o.search.realtime);
                    return Ok(Current {
                        run: Running::default(),
                        search: Some((root, before)),
                    });
                }
                Step::Turn(keys) => {
                    self.start_turn(m, &keys, false);
                    return Ok(Current {
                        run: Running::default(),
                        search: None,
                    });
                }
            }
        }
    }

    /// Runs one slice of at most `this` cycles and adds the cycles it ran to `cycles`: whether
    /// the program now waits for input. A stop for another reason, or a fault, ends the turn
    /// with an error (a fault's trace goes to standard error).
    fn run_slice(&self, m: &mut Machine, this: u64, cycles: &mut u64) -> Result<bool, EngineError> {
        match m.run(this) {
            Ok(stats) => {
                *cycles += stats.cycles;
                match stats.stop {
                    StopReason::InputWait { .. } => Ok(true),
                    stop => {
                        let out = take_output(m);
                        Err(EngineError::Backend(format!(
                            "{}: the program stopped ({stop}) instead of waiting for input{}",
                            self.adaptor.name,
                            printed(&out)
                        )))
                    }
                }
            }
            Err(e) if matches!(e.fault, Fault::BudgetExceeded { .. }) => {
                *cycles += e.cycles;
                Ok(false)
            }
            Err(e) => {
                *cycles += e.cycles;
                let out = take_output(m);
                // The trace (last instructions, registers) goes to standard error; the
                // error is one line.
                eprintln!("{}: {e}", self.adaptor.name);
                Err(EngineError::Backend(format!(
                    "{}: the program faulted after {} cycles of the turn: {} (its last instructions are on standard error){}",
                    self.adaptor.name,
                    *cycles,
                    e.fault,
                    printed(&out)
                )))
            }
        }
    }

    /// Whether what the program holds counts: once its search has begun in this turn (a node
    /// counted; before, the bytes are left from its last search), or always when the adaptor
    /// counts no nodes.
    fn searching(&self, m: &Machine) -> bool {
        self.node_count(m).is_none_or(|n| n > 0)
    }

    /// Reads the move the program holds as best and sends it when it changed.
    fn send_held(
        &self,
        m: &Machine,
        root: &RootBoard,
        progress: &mut dyn FnMut(Progress),
        held: &mut Option<Held>,
        cycles: u64,
    ) {
        if !self.searching(m) {
            return;
        }
        let now = Held::read(self.adaptor, m, root);
        if now.is_some() && now != *held {
            *held = now;
            progress(Progress {
                held: held.clone(),
                cycles,
                nodes: self.node_count(m),
            });
        }
    }

    /// After a slice: the limit that ends the turn (stop, time, nodes), if one does; the
    /// turn's budget spent without a wait for input is an error.
    fn limit_reached(
        &self,
        m: &mut Machine,
        limits: &TurnLimits,
        cycles: u64,
    ) -> Result<Option<TurnEnd>, EngineError> {
        if limits.stop.load(Ordering::Relaxed) {
            return Ok(Some(TurnEnd::Stopped(Cause::Stop)));
        }
        if limits.deadline.is_some_and(|d| cycles >= d) {
            return Ok(Some(TurnEnd::Stopped(Cause::Time)));
        }
        if let (Some(n), Some(c)) = (limits.nodes, self.node_count(m)) {
            if c >= n {
                return Ok(Some(TurnEnd::Stopped(Cause::Nodes)));
            }
        }
        if cycles >= self.adaptor.turn_budget {
            let out = take_output(m);
            return Err(EngineError::Backend(format!(
                "{}: no wait for input within the turn's budget of {} cycles ({:.1} s at {} MHz){}",
                self.adaptor.name,
                self.adaptor.turn_budget,
                self.adaptor
                    .clock
                    .duration(self.adaptor.turn_budget)
                    .as_secs_f64(),
                self.adaptor.clock.mhz,
                printed(&out)
            )));
        }
        Ok(None)
    }

    /// The nodes counted since the turn began (the node routines' entries).
    fn node_count(&self, m: &Machine) -> Option<u64> {
        self.adaptor.nodes.as_ref().map(|(addrs, _)| {
            m.execution_counts()
                .iter()
                .filter(|(a, _)| addrs.contains(a))
                .map(|(_, n)| n)
                .sum()
        })
    }
}

/// `; output: ...` for an error message, or nothing when the program printed nothing.
fn printed(out: &str) -> String {
    let line = one_line(out);
    if line.trim().is_empty() {
        String::new()
    } else {
        format!("; output: {}", line.trim())
    }
}

fn take_output(m: &mut Machine) -> String {
    String::from_utf8_lossy(&m.console_mut().take_output()).into_owned()
}

/// A turn under way: its cycles so far and the move the program held as best when last read.
#[derive(Default)]
struct Running {
    cycles: u64,
    held: Option<Held>,
}

/// What ends a turn early.
struct TurnLimits<'a> {
    stop: &'a AtomicBool,
    /// Cycles of the turn.
    deadline: Option<u64>,
    nodes: Option<u64>,
    realtime: bool,
}

/// Why a turn ended before the program waited for input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cause {
    /// The search was told to stop.
    Stop,
    /// Its time limit (emulated time) was reached.
    Time,
    /// Its node limit was reached.
    Nodes,
}

/// How a turn ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TurnEnd {
    /// The program waits for input (it has answered).
    Waiting,
    /// The turn was ended before: the program is in the middle of its work.
    Stopped(Cause),
}

/// A turn's outcome.
#[derive(Clone, Debug)]
pub(crate) struct Turn {
    /// What the program printed.
    pub(crate) out: String,
    /// The turn's cycles.
    pub(crate) cycles: u64,
    /// The nodes counted in the turn, when the adaptor counts them.
    pub(crate) nodes: Option<u64>,
    pub(crate) end: TurnEnd,
    /// In the turn that computes the move: what the program held in RAM at its end.
    pub(crate) held: Option<Held>,
    /// In the turn that computes the move: the bytes of the program's board (where its
    /// adaptor says it keeps it) as the turn began and as it ended.
    pub(crate) boards: Option<(Vec<u8>, Vec<u8>)>,
}

/// A change of the move the program holds as best, while it searches.
#[derive(Clone, Debug)]
pub(crate) struct Progress {
    pub(crate) held: Option<Held>,
    pub(crate) cycles: u64,
    pub(crate) nodes: Option<u64>,
}

/// The limits of the turn that computes the program's move.
pub(crate) struct SearchTurn {
    pub(crate) keys: String,
    pub(crate) stop: Arc<AtomicBool>,
    pub(crate) deadline: Option<u64>,
    pub(crate) nodes: Option<u64>,
    pub(crate) realtime: bool,
    /// The program plays Black (how its squares are read).
    pub(crate) program_black: bool,
}

/// What the machine's thread is asked to do.
pub(crate) enum Cmd {
    /// A fresh machine, run to its first wait for input.
    Boot(Arc<AtomicBool>),
    /// Type the keys and run to the next wait.
    Turn(String, Arc<AtomicBool>),
    /// The turn that computes the program's move.
    Search(SearchTurn),
    /// Restart the program at its entry (RAM kept) and run to the next wait.
    Restart(Arc<AtomicBool>),
    /// Write bytes to RAM.
    Poke(Vec<(u16, u8)>),
    /// Read bytes.
    Read(u16, usize),
}

/// A command's answer.
pub(crate) type Reply = Result<Answer, EngineError>;

/// What the machine's thread answers.
pub(crate) enum Answer {
    Turn(Turn),
    Bytes(Vec<u8>),
    Done,
}

/// A message from the machine's thread: progress of a search, or the answer to a command.
pub(crate) enum Msg {
    Progress(Progress),
    Done(Reply),
}

/// Answers one command on `machine` (the program's machine once booted); progress of a
/// search goes to `progress`.
fn answer(
    driver: &Driver,
    machine: &mut Option<Machine>,
    cmd: Cmd,
    progress: &mut dyn FnMut(Progress),
) -> Reply {
    let missing = || EngineError::Backend("the program is not running".into());
    match (cmd, machine.as_mut()) {
        (Cmd::Boot(stop), _) => driver.boot(&stop).map(|(m, _)| {
            *machine = Some(m);
            Answer::Done
        }),
        (Cmd::Turn(keys, stop), Some(m)) => driver.turn(m, &keys, &stop).map(Answer::Turn),
        (Cmd::Search(s), Some(m)) => {
            let root = RootBoard::read(driver.adaptor, m, s.program_black);
            let limits = TurnLimits {
                stop: &s.stop,
                deadline: s.deadline,
                nodes: s.nodes,
                realtime: s.realtime,
            };
            let board = driver.adaptor.board_memory();
            let before = board.map(|(at, len)| m.read_bytes(at, len));
            let mut turn = driver.run_turn(m, &s.keys, &limits, Some((&root, progress)))?;
            turn.boards = before.zip(board.map(|(at, len)| m.read_bytes(at, len)));
            Ok(Answer::Turn(turn))
        }
        (Cmd::Restart(stop), Some(m)) => driver.restart(m, &stop).map(Answer::Turn),
        (Cmd::Poke(bytes), Some(m)) => bytes
            .iter()
            .try_for_each(|(a, b)| m.write_bytes(*a, &[*b]))
            .map(|_| Answer::Done)
            .map_err(|e| EngineError::Backend(e.to_string())),
        (Cmd::Read(a, n), Some(m)) => Ok(Answer::Bytes(m.read_bytes(a, n))),
        (_, None) => Err(missing()),
    }
}

/// Where the program's machine runs: on a thread of its own (the engine talks to it through
/// channels, so a `stop` from the engine's thread reaches a running turn), or on the host's own
/// thread, each command answered in the call that asks it (a turn runs to its end, or to its
/// time or node limit, before the call returns: a `stop` cannot reach it).
pub(crate) enum Host {
    Thread(Worker),
    Inline {
        adaptor: Arc<Adaptor>,
        machine: RefCell<Option<Box<Machine>>>,
        /// A search opened to be run a slice at a time ([`Host::open`]).
        opened: RefCell<Option<Opened>>,
    },
}

/// The turns of a search opened on the caller's thread and run a slice at a time: the steps
/// still to do (the last turn computes the program's move), and the turn under way.
pub(crate) struct Opened {
    steps: std::collections::VecDeque<(Step, bool)>,
    search: SearchTurn,
    current: Option<Current>,
}

/// The turn under way in an [`Opened`] search.
struct Current {
    run: Running,
    /// The turn computes the program's move: its piece list as it began (for the move it
    /// holds) and the bytes of its board then.
    search: Option<(RootBoard, Option<Vec<u8>>)>,
}

/// What a slice of an opened search did.
pub(crate) enum Advanced {
    /// The turns go on: the cycles of the turn under way, its nodes, whether it is the turn
    /// that computes the move, and the program's board as that turn began.
    Running {
        cycles: u64,
        nodes: Option<u64>,
        searching: bool,
        board_before: Option<Vec<u8>>,
    },
    /// The search turn ended (or a set-up turn was stopped): as [`run_actions`] returns it.
    Done(Turn),
}

/// The thread's side of [`Host::Thread`].
pub(crate) struct Worker {
    tx: mpsc::Sender<Cmd>,
    rx: mpsc::Receiver<Msg>,
}

impl Host {
    /// The machine on a thread of its own.
    pub(crate) fn spawn(adaptor: Arc<Adaptor>) -> Host {
        let (tx, cmds) = mpsc::channel::<Cmd>();
        let (replies, rx) = mpsc::channel::<Msg>();
        std::thread::spawn(move || {
            let mut machine: Option<Machine> = None;
            let driver = Driver {
                adaptor: &adaptor,
                all_registers: false,
            };
            for cmd in cmds {
                let mut progress = |p: Progress| {
                    let _ = replies.send(Msg::Progress(p));
                };
                let reply = answer(&driver, &mut machine, cmd, &mut progress);
                if replies.send(Msg::Done(reply)).is_err() {
                    break;
                }
            }
        });
        Host::Thread(Worker { tx, rx })
    }

    /// The machine on the caller's thread.
    pub(crate) fn inline(adaptor: Arc<Adaptor>) -> Host {
        Host::Inline {
            adaptor,
            machine: RefCell::new(None),
            opened: RefCell::new(None),
        }
    }

    /// Opens the search that `actions` make (see [`run_actions`]) without running it: its
    /// turns run in [`Host::advance`], a slice at a time. On the caller's thread only.
    pub(crate) fn open(&self, actions: Vec<Action>, search: SearchTurn) -> Result<(), EngineError> {
        let Host::Inline { opened, .. } = self else {
            return Err(EngineError::Backend(
                "a search in slices runs on the caller's thread only".into(),
            ));
        };
        let steps = steps(actions);
        let last = steps
            .iter()
            .rposition(|s| matches!(s, Step::Turn(_)))
            .ok_or_else(|| {
                EngineError::Backend("nothing to type: no turn computes a move".into())
            })?;
        *opened.borrow_mut() = Some(Opened {
            steps: steps
                .into_iter()
                .enumerate()
                .map(|(i, s)| (s, i == last))
                .collect(),
            search,
            current: None,
        });
        Ok(())
    }

    /// Runs the opened search on for at most `budget` cycles; progress of its search turn
    /// goes to `progress`. An error closes it.
    pub(crate) fn advance(
        &self,
        budget: u64,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Advanced, EngineError> {
        let closed = || EngineError::Backend("no search is open".into());
        let Host::Inline {
            adaptor,
            machine,
            opened,
        } = self
        else {
            return Err(closed());
        };
        let driver = Driver {
            adaptor,
            all_registers: false,
        };
        let mut m = machine.borrow_mut();
        let m = m
            .as_deref_mut()
            .ok_or_else(|| EngineError::Backend("the program is not running".into()))?;
        let mut slot = opened.borrow_mut();
        let o = slot.as_mut().ok_or_else(closed)?;
        let r = driver.advance_opened(m, o, budget, progress);
        if !matches!(r, Ok(Advanced::Running { .. })) {
            *slot = None;
        }
        r
    }

    /// Sends `cmd` and waits for its answer; progress reports on the way go to `progress`.
    pub(crate) fn ask_with(&self, cmd: Cmd, progress: &mut dyn FnMut(Progress)) -> Reply {
        match self {
            Host::Thread(w) => {
                let gone = || EngineError::Backend("the machine's thread has ended".into());
                w.tx.send(cmd).map_err(|_| gone())?;
                loop {
                    match w.rx.recv().map_err(|_| gone())? {
                        Msg::Progress(p) => progress(p),
                        Msg::Done(reply) => return reply,
                    }
                }
            }
            Host::Inline {
                adaptor, machine, ..
            } => {
                let driver = Driver {
                    adaptor,
                    all_registers: false,
                };
                let mut held = machine.borrow_mut();
                let mut m = held.take().map(|b| *b);
                let reply = answer(&driver, &mut m, cmd, progress);
                *held = m.map(Box::new);
                reply
            }
        }
    }

    pub(crate) fn ask(&self, cmd: Cmd) -> Reply {
        self.ask_with(cmd, &mut |_| {})
    }

    /// A turn's outcome.
    pub(crate) fn turn(&self, cmd: Cmd) -> Result<Turn, EngineError> {
        match self.ask(cmd)? {
            Answer::Turn(t) => Ok(t),
            _ => Err(EngineError::Backend(
                "the machine's thread answered out of turn".into(),
            )),
        }
    }

    /// `n` bytes at `a`.
    pub(crate) fn read(&self, a: u16, n: usize) -> Result<Vec<u8>, EngineError> {
        match self.ask(Cmd::Read(a, n))? {
            Answer::Bytes(b) => Ok(b),
            _ => Err(EngineError::Backend(
                "the machine's thread answered out of turn".into(),
            )),
        }
    }
}

/// What is done to the running program, in order.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Action {
    Keys(String),
    /// Type the keys queued so far as a turn of their own.
    Flush,
    Restart,
    Poke(Vec<(u16, u8)>),
    /// The keys after which the program computes its move: a turn of their own, the last.
    /// Empty: the program computes its move in the turn before (it moves by itself).
    Search(String),
}

/// The turns of a list of actions: keys are gathered into one turn up to a flush, a restart,
/// a poke or the search.
#[derive(Debug, PartialEq, Eq)]
enum Step {
    Turn(String),
    Restart,
    Poke(Vec<(u16, u8)>),
}

fn steps(actions: Vec<Action>) -> Vec<Step> {
    let mut steps = Vec::new();
    let mut pending = String::new();
    for action in actions {
        match action {
            Action::Keys(k) => pending.push_str(&k),
            other => {
                if !pending.is_empty() {
                    steps.push(Step::Turn(std::mem::take(&mut pending)));
                }
                match other {
                    Action::Flush => {}
                    Action::Restart => steps.push(Step::Restart),
                    Action::Poke(bytes) => steps.push(Step::Poke(bytes)),
                    Action::Search(k) if !k.is_empty() => steps.push(Step::Turn(k)),
                    Action::Search(_) => {}
                    Action::Keys(_) => unreachable!("keys are pending"),
                }
            }
        }
    }
    if !pending.is_empty() {
        steps.push(Step::Turn(pending));
    }
    steps
}

/// Runs the actions; the last turn that types keys is the search's, with its limits, and its
/// outcome is returned (or the outcome of an earlier turn that a stop ended).
pub(crate) fn run_actions(
    w: &Host,
    actions: Vec<Action>,
    search: SearchTurn,
    progress: &mut dyn FnMut(Progress),
) -> Result<Turn, EngineError> {
    let steps = steps(actions);
    let last = steps
        .iter()
        .rposition(|s| matches!(s, Step::Turn(_)))
        .ok_or_else(|| EngineError::Backend("nothing to type: no turn computes a move".into()))?;
    let stop = Arc::clone(&search.stop);
    let mut search = Some(search);
    for (i, step) in steps.into_iter().enumerate() {
        let t = match step {
            Step::Turn(keys) if i == last => {
                let s = search.take().expect("one search turn");
                match w.ask_with(Cmd::Search(SearchTurn { keys, ..s }), progress)? {
                    Answer::Turn(t) => return Ok(t),
                    _ => return Err(EngineError::Backend("no turn answered".into())),
                }
            }
            Step::Turn(keys) => w.turn(Cmd::Turn(keys, Arc::clone(&stop)))?,
            Step::Restart => w.turn(Cmd::Restart(Arc::clone(&stop)))?,
            Step::Poke(bytes) => {
                w.ask(Cmd::Poke(bytes))?;
                continue;
            }
        };
        if t.end != TurnEnd::Waiting {
            return Ok(t);
        }
    }
    Err(EngineError::Backend("no turn computed a move".into()))
}

#[cfg(feature = "opened")]
/// A fresh machine with the program booted and brought, by `actions`, to the start of the
/// turn in which it computes its move: every turn of the set-up run, the last one's keys
/// typed and not yet read (the machine has not run since). What a debugger or a tree
/// collector runs from.
/// `all_registers`: a Z80 runs on the core that shows every register (for a debugger).
pub(crate) fn prepare_search(
    adaptor: &Adaptor,
    actions: Vec<Action>,
    all_registers: bool,
) -> Result<Machine, EngineError> {
    let driver = Driver {
        adaptor,
        all_registers,
    };
    let stop = AtomicBool::new(false);
    let (mut m, _) = driver.boot(&stop)?;
    let steps = steps(actions);
    let last = steps
        .iter()
        .rposition(|s| matches!(s, Step::Turn(_)))
        .ok_or_else(|| EngineError::Backend("nothing to type: no turn computes a move".into()))?;
    for (i, step) in steps.into_iter().enumerate() {
        let t = match step {
            Step::Turn(keys) if i == last => {
                let _ = take_output(&mut m);
                driver.start_turn(&mut m, &keys, false);
                return Ok(m);
            }
            Step::Turn(keys) => driver.turn(&mut m, &keys, &stop)?,
            Step::Restart => driver.restart(&mut m, &stop)?,
            Step::Poke(bytes) => {
                bytes
                    .iter()
                    .try_for_each(|(a, b)| m.write_bytes(*a, &[*b]))
                    .map_err(|e| EngineError::Backend(e.to_string()))?;
                continue;
            }
        };
        if t.end != TurnEnd::Waiting {
            return Err(EngineError::Backend(
                "a turn of the set-up did not end".into(),
            ));
        }
    }
    Err(EngineError::Backend("no turn computed a move".into()))
}

/// The text the program printed since it was last taken.
#[cfg(feature = "opened")]
pub(crate) fn output(m: &mut Machine) -> String {
    take_output(m)
}

/// Console text on one line (for an error that UCI prints as one `info string`), the last
/// 300 characters.
pub(crate) fn one_line(text: &str) -> String {
    let flat: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let n = flat.chars().count();
    flat.chars().skip(n.saturating_sub(300)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_gathered_into_turns_and_the_search_keys_are_a_turn_of_their_own() {
        let s = steps(vec![
            Action::Keys("C".into()),
            Action::Flush,
            Action::Keys("1333".into()),
            Action::Keys("F".into()),
            Action::Search("P".into()),
        ]);
        assert_eq!(
            s,
            [
                Step::Turn("C".into()),
                Step::Turn("1333F".into()),
                Step::Turn("P".into())
            ]
        );
        let s = steps(vec![
            Action::Keys("YB2".into()),
            Action::Flush,
            Action::Search(String::new()),
        ]);
        assert_eq!(s, [Step::Turn("YB2".into())]);
        let s = steps(vec![
            Action::Keys("G".into()),
            Action::Restart,
            Action::Poke(vec![(1, 2)]),
            Action::Keys("W".into()),
        ]);
        assert_eq!(
            s,
            [
                Step::Turn("G".into()),
                Step::Restart,
                Step::Poke(vec![(1, 2)]),
                Step::Turn("W".into())
            ]
        );
    }
}
