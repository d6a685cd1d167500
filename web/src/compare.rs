//! The compare view's searches: one position (typed FEN, a position of the bundled suite, or
//! the game's) searched by the native reference and by both 8-bit builds, each build timed at
//! a machine of its CPU. The row is [`kempelen_roms::compare::Row`], the one `kempelen compare`
//! prints: the page only runs the builds in slices (a [`PortJob`] each) so that the worker
//! answers between them, and adds each outcome to the row as it arrives.

use kempelen_emulator::ClockProfile;
use kempelen_engine::{Limits, SearchResult};
use kempelen_roms::compare::{self, ComparePosition, CompareSuite, Row};
use kempelen_roms::{PORTS, Port};
use serde::{Deserialize, Serialize};

use crate::WebError;
use crate::choice::EngineChoice;
use crate::search::{Advance, Event, PortJob, Prepared, ProgressView};
use crate::session::Session;

/// What the compare view asks for (JSON from the worker's message).
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CompareSpec {
    /// A position of the bundled suite, by its index in [`suite_positions`].
    #[serde(default)]
    pub suite: Option<usize>,
    /// Otherwise this start position (default: the standard one) ...
    #[serde(default)]
    pub fen: Option<String>,
    /// ... and these moves from it (the game: they give the repetition history).
    #[serde(default)]
    pub moves: Vec<String>,
    /// Depth in plies (1 to 32).
    pub depth: u32,
    /// The machine whose clock times the Z80 build (default: its first, as `kempelen
    /// compare`'s).
    #[serde(default)]
    pub z80_machine: Option<String>,
    /// The machine whose clock times the 6502 build.
    #[serde(default)]
    pub m6502_machine: Option<String>,
}

/// A position of the bundled suite, as the view lists it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SuitePosition {
    /// Index for [`CompareSpec::suite`].
    pub index: usize,
    /// Its id (category first).
    pub id: String,
    /// The searched position.
    pub fen: String,
}

/// The bundled suite's positions (`kempelen compare`'s default suite).
pub fn suite_positions() -> Result<Vec<SuitePosition>, WebError> {
    let suite = CompareSuite::bundled().map_err(|e| WebError::Request(e.to_string()))?;
    Ok(suite
        .positions
        .iter()
        .enumerate()
        .map(|(index, p)| SuitePosition {
            index,
            id: p.id.clone(),
            fen: p.game.position().to_fen(),
        })
        .collect())
}

impl CompareSpec {
    /// The position the spec names.
    fn position(&self) -> Result<ComparePosition, WebError> {
        if let Some(i) = self.suite {
            let suite = CompareSuite::bundled().map_err(|e| WebError::Request(e.to_string()))?;
            let count = suite.positions.len();
            return suite.positions.into_iter().nth(i).ok_or_else(|| {
                WebError::Request(format!(
                    "suite position {i}: the bundled suite has {count} (0 to {})",
                    count - 1
                ))
            });
        }
        let fen = self.fen.as_deref().unwrap_or(kempelen_engine::START_FEN);
        let game = Session::from_moves(fen, &self.moves)?.game().clone();
        let id = game.position().to_fen();
        Ok(ComparePosition::from_game(game, id))
    }

    /// The machine timing `port`'s build.
    fn machine(&self, port: &'static Port) -> Result<&'static ClockProfile, WebError> {
        let id = match port.id {
            "z80" => self.z80_machine.as_deref(),
            _ => self.m6502_machine.as_deref(),
        };
        Ok(EngineChoice::Port(port)
            .machine(id)?
            .unwrap_or_else(|| port.default_machine()))
    }
}

/// What one call of [`CompareJob::advance`] reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CompareAdvance {
    /// The row so far: the reference's answer and the builds that have finished.
    pub row: Row,
    /// The build searching now (`z80`, `6502`), if any.
    pub running: Option<&'static str>,
    /// How far it has come.
    pub progress: Option<ProgressView>,
    /// Every engine has answered.
    pub done: bool,
}

/// A comparison the worker advances a slice at a time: the reference searched at the start
/// (in one piece: the native search is fast), then each build in turn.
pub struct CompareJob {
    position: ComparePosition,
    depth: u32,
    row: Row,
    /// The builds still to search, with their machines, the next first.
    queue: Vec<(&'static Port, &'static ClockProfile)>,
    current: Option<(&'static Port, &'static ClockProfile, PortJob)>,
    stopped: bool,
}

impl CompareJob {
    /// Checks the spec, searches with the native reference and queues the builds.
    pub fn start(spec: &CompareSpec) -> Result<CompareJob, WebError> {
        let depth = spec.depth;
        if !(1..=32).contains(&depth) {
            return Err(WebError::Depth(format!(
                "{depth}: the 8-bit builds search depths 1 to 32"
            )));
        }
        let position = spec.position()?;
        let queue = PORTS
            .iter()
            .map(|&p| spec.machine(p).map(|m| (p, m)))
            .collect::<Result<Vec<_>, _>>()?;
        let native: SearchResult = compare::reference(&position, depth);
        let row = Row::new(&position, &native);
        let mut job = CompareJob {
            position,
            depth,
            row,
            queue,
            current: None,
            stopped: false,
        };
        job.queue.reverse();
        Ok(job)
    }

    /// Runs the builds' slices for at most `max_host_ms` of host time.
    pub fn advance(&mut self, max_host_ms: f64) -> Result<CompareAdvance, WebError> {
        if self.current.is_none() {
            self.next()?;
        }
        if let Some((port, machine, job)) = &mut self.current {
            let Advance { events, done, .. } = job.advance(max_host_ms)?;
            if done {
                let (port, machine) = (*port, *machine);
                match job.outcome() {
                    Some(out) => self.row.add_port(&self.position, port, machine, out),
                    None => {
                        let why = events
                            .iter()
                            .find_map(|e| match e {
                                Event::Done(r) => r.note.clone(),
                                _ => None,
                            })
                            .unwrap_or_else(|| "stopped".into());
                        self.row.add_port_error(port, machine, why);
                    }
                }
                self.current = None;
                self.next()?;
            }
        }
        Ok(self.report())
    }

    /// Stops the comparison: the build searching now and those still queued are reported as
    /// stopped (no answer is claimed for them).
    pub fn stop(&mut self) {
        self.stopped = true;
        if let Some((port, machine, _)) = self.current.take() {
            self.row
                .add_port_error(port, machine, "stopped before it answered".into());
        }
        while let Some((port, machine)) = self.queue.pop() {
            self.row.add_port_error(
                port,
                machine,
                "not searched: the comparison was stopped".into(),
            );
        }
    }

    /// The row so far and what runs now.
    pub fn report(&self) -> CompareAdvance {
        CompareAdvance {
            row: self.row.clone(),
            running: self.current.as_ref().map(|(p, _, _)| p.id),
            progress: self.current.as_ref().map(|(_, _, j)| j.progress()),
            done: self.current.is_none() && self.queue.is_empty(),
        }
    }

    /// Starts the next queued build, if any.
    fn next(&mut self) -> Result<(), WebError> {
        if self.stopped {
            return Ok(());
        }
        let Some((port, machine)) = self.queue.pop() else {
            return Ok(());
        };
        let prepared = Prepared {
            game: self.position.game.clone(),
            engine: EngineChoice::Port(port),
            clock: Some(machine),
            limits: Limits {
                depth: Some(self.depth),
                ..Limits::default()
            },
            realtime: false,
            debug: false,
        };
        self.current = Some((port, machine, PortJob::start(&prepared)?));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(spec: &CompareSpec) -> Row {
        let mut job = CompareJob::start(spec).unwrap();
        loop {
            let a = job.advance(1e9).unwrap();
            if a.done {
                return a.row;
            }
        }
    }

    #[test]
    fn both_builds_agree_with_the_reference_on_a_typed_position() {
        let row = run(&CompareSpec {
            fen: Some("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1".into()),
            depth: 2,
            z80_machine: Some("trs-80".into()),
            ..CompareSpec::default()
        });
        assert!(row.agree, "{row:?}");
        let cpus: Vec<_> = row.ports.iter().map(|p| (p.cpu, p.machine.id)).collect();
        assert_eq!(cpus, [("z80", "trs-80"), ("6502", "kim-1")]);
        for p in &row.ports {
            let run = p.run().unwrap();
            assert_eq!(run.answer.nodes, row.native.nodes);
            assert!(run.cycles > 0 && run.seconds > 0.0);
        }
    }

    #[test]
    fn a_suite_position_and_the_game_position_are_searched() {
        let suite = suite_positions().unwrap();
        assert!(suite.len() >= 3);
        let row = run(&CompareSpec {
            suite: Some(1),
            depth: 1,
            ..CompareSpec::default()
        });
        assert_eq!(row.fen, suite[1].fen);
        let row = run(&CompareSpec {
            moves: vec!["e2e4".into(), "e7e5".into()],
            depth: 1,
            ..CompareSpec::default()
        });
        assert!(row.fen.starts_with("rnbqkbnr/pppp1ppp/8/4p3/4P3/"));
        assert!(row.agree);
    }

    #[test]
    fn bad_requests_say_what_is_wrong() {
        let bad = |spec: CompareSpec| CompareJob::start(&spec).err().expect("refused").to_string();
        assert!(
            bad(CompareSpec {
                depth: 0,
                ..CompareSpec::default()
            })
            .contains("depth 0")
        );
        let e = bad(CompareSpec {
            depth: 2,
            z80_machine: Some("kim-1".into()),
            ..CompareSpec::default()
        });
        assert!(e.contains("kim-1"), "{e}");
        let e = bad(CompareSpec {
            depth: 2,
            suite: Some(100_000),
            ..CompareSpec::default()
        });
        assert!(e.contains("100000"), "{e}");
        let e = bad(CompareSpec {
            depth: 2,
            fen: Some("8/8/8 w".into()),
            ..CompareSpec::default()
        });
        assert!(e.starts_with("FEN"), "{e}");
    }

    #[test]
    fn a_stopped_comparison_claims_no_answer() {
        let mut job = CompareJob::start(&CompareSpec {
            depth: 3,
            ..CompareSpec::default()
        })
        .unwrap();
        job.advance(0.0).unwrap();
        job.stop();
        let a = job.report();
        assert!(a.done && !a.row.agree);
        assert_eq!(a.row.errors().count(), 2);
    }
}
