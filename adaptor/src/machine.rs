//! The emulated machine that runs the program, on a thread of its own: booted with the
//! images and pokes, driven turn by turn (keys typed, run until the program waits for input),
//! restarted or poked for a set-up.

use kempelen_emulator::{Machine, MemoryMap, StopReason};
use kempelen_engine::EngineError;
use std::sync::{Arc, mpsc};

use crate::description::Adaptor;

impl Adaptor {
    /// A fresh machine with the program loaded, poked and run to its first wait for input.
    fn boot(&self) -> Result<(Machine, String), EngineError> {
        let be = |e: String| EngineError::Backend(e);
        let mut b = match &self.personality {
            Some(p) => p.builder(),
            None => Machine::builder(self.cpu).memory_map(MemoryMap::default_for(self.cpu)),
        };
        for (a, bytes) in &self.chunks {
            b = b.load(*a, bytes);
        }
        if let Some(e) = self.entry {
            b = b.entry(e);
        }
        let mut m = b.clock(self.clock).build().map_err(|e| be(e.to_string()))?;
        for (a, bytes) in &self.pokes {
            m.write_bytes(*a, bytes).map_err(|e| be(e.to_string()))?;
        }
        m.console_mut().set_stop_on_empty_input(true);
        let (out, _) = self.turn(&mut m, "")?;
        Ok((m, out))
    }

    /// Restarts the program at its entry, RAM kept, and runs it to its next wait for input.
    fn restart(&self, m: &mut Machine) -> Result<(String, u64), EngineError> {
        let entry = self.entry.ok_or_else(|| {
            EngineError::Backend(format!("{}: no entry to restart at", self.name))
        })?;
        m.set_pc(entry);
        self.turn(m, "")
    }

    /// Types `keys` and runs until the program waits for input; returns its output and the
    /// cycles of the turn.
    fn turn(&self, m: &mut Machine, keys: &str) -> Result<(String, u64), EngineError> {
        m.console_mut().push_input(keys.as_bytes());
        let stats = m.run(self.turn_budget).map_err(|e| {
            let out = String::from_utf8_lossy(&m.console_mut().take_output()).into_owned();
            EngineError::Backend(format!("{}: {e}; output: {}", self.name, one_line(&out)))
        })?;
        let out = String::from_utf8_lossy(&m.console_mut().take_output()).into_owned();
        match stats.stop {
            StopReason::InputWait { .. } => Ok((out, stats.cycles)),
            stop => Err(EngineError::Backend(format!(
                "{}: the program stopped ({stop}) instead of waiting for input; output: {}",
                self.name,
                one_line(&out)
            ))),
        }
    }
}

/// What the machine's thread is asked to do.
pub(crate) enum Cmd {
    /// A fresh machine, run to its first wait for input.
    Boot,
    /// Type the keys and run to the next wait.
    Turn(String),
    /// Restart the program at its entry (RAM kept) and run to the next wait.
    Restart,
    /// Write bytes to RAM.
    Poke(Vec<(u16, u8)>),
}

/// The program's output of a step and the cycles it took.
pub(crate) type Reply = Result<(String, u64), EngineError>;

/// The machine lives on a thread of its own (a [`Machine`] stays on the thread that built
/// it); the engine talks to it through channels.
pub(crate) struct Worker {
    tx: mpsc::Sender<Cmd>,
    rx: mpsc::Receiver<Reply>,
}

impl Worker {
    pub(crate) fn spawn(adaptor: Arc<Adaptor>) -> Worker {
        let (tx, cmds) = mpsc::channel::<Cmd>();
        let (replies, rx) = mpsc::channel::<Reply>();
        std::thread::spawn(move || {
            let mut machine: Option<Machine> = None;
            for cmd in cmds {
                let reply = match cmd {
                    Cmd::Boot => adaptor.boot().map(|(m, out)| {
                        machine = Some(m);
                        (out, 0)
                    }),
                    Cmd::Turn(keys) => match machine.as_mut() {
                        Some(m) => adaptor.turn(m, &keys),
                        None => Err(EngineError::Backend("the program is not running".into())),
                    },
                    Cmd::Restart => match machine.as_mut() {
                        Some(m) => adaptor.restart(m),
                        None => Err(EngineError::Backend("the program is not running".into())),
                    },
                    Cmd::Poke(bytes) => match machine.as_mut() {
                        Some(m) => bytes
                            .iter()
                            .try_for_each(|(a, b)| m.write_bytes(*a, &[*b]))
                            .map(|_| (String::new(), 0))
                            .map_err(|e| EngineError::Backend(e.to_string())),
                        None => Err(EngineError::Backend("the program is not running".into())),
                    },
                };
                if replies.send(reply).is_err() {
                    break;
                }
            }
        });
        Worker { tx, rx }
    }

    pub(crate) fn ask(&self, cmd: Cmd) -> Reply {
        self.tx
            .send(cmd)
            .map_err(|_| EngineError::Backend("the machine's thread has ended".into()))?;
        self.rx
            .recv()
            .map_err(|_| EngineError::Backend("the machine's thread has ended".into()))?
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
}

/// Runs the actions; returns what the program printed in the last turn that typed keys (or,
/// when no keys were typed after a restart, in the restart) and the cycles of that turn.
pub(crate) fn run_actions(w: &Worker, actions: Vec<Action>) -> Reply {
    let mut last = (String::new(), 0);
    let mut pending = String::new();
    for action in actions {
        match action {
            Action::Keys(k) => pending.push_str(&k),
            other => {
                if !pending.is_empty() {
                    last = w.ask(Cmd::Turn(std::mem::take(&mut pending)))?;
                }
                match other {
                    Action::Flush => {}
                    Action::Restart => last = w.ask(Cmd::Restart)?,
                    Action::Poke(bytes) => {
                        w.ask(Cmd::Poke(bytes))?;
                    }
                    Action::Keys(_) => unreachable!("keys are pending"),
                }
            }
        }
    }
    if !pending.is_empty() {
        last = w.ask(Cmd::Turn(pending))?;
    }
    Ok(last)
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
