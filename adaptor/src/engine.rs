//! [`AdaptorEngine`]: an adapted program as a [`kempelen_engine::Engine`]. It keeps the
//! program running between searches when the game only grew by the opponent's move, sets it up
//! afresh otherwise, and reads the program's reply (a move, castling, an en-passant capture,
//! and the depth, score and nodes when the program prints them) from its console text.

use kempelen_engine::{
    Engine, EngineClock, EngineError, Game, Limits, Move, SearchControl, SearchInfo, SearchResult,
};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use crate::description::Adaptor;
use crate::error::AdaptorError;
use crate::machine::{Action, Cmd, Worker, one_line, run_actions};
use crate::setup::before_last;

/// An adaptor as a UCI engine.
pub struct AdaptorEngine {
    adaptor: Arc<Adaptor>,
    /// The running program, if any.
    worker: Option<Worker>,
    /// The game as the program knows it: start FEN and moves.
    known: Option<(String, Vec<Move>)>,
}

impl AdaptorEngine {
    /// An engine for the adaptor file at `path`.
    pub fn new(path: &Path) -> Result<AdaptorEngine, AdaptorError> {
        Ok(AdaptorEngine {
            adaptor: Arc::new(Adaptor::from_file(path)?),
            worker: None,
            known: None,
        })
    }
}

impl Engine for AdaptorEngine {
    fn name(&self) -> String {
        format!("{} (in Kempelen's emulator)", self.adaptor.name)
    }

    fn perft(&mut self, _pos: &kempelen_engine::Position, _depth: u32) -> Result<u64, EngineError> {
        Err(EngineError::Unsupported(
            "perft: an adapted program only plays".into(),
        ))
    }

    fn new_game(&mut self) -> Result<(), EngineError> {
        self.known = None;
        Ok(())
    }

    /// An adapted program's time is always the emulated time at its machine's clock.
    fn clock(&self) -> EngineClock {
        EngineClock::Emulated {
            machine: self.adaptor.clock.id.to_string(),
            mhz: self.adaptor.clock.mhz,
        }
    }

    fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &SearchControl,
    ) -> Result<SearchResult, EngineError> {
        let a = Arc::clone(&self.adaptor);
        if let Some(side) = a.plays {
            let fen = game.position().to_fen();
            if fen.split(' ').nth(1) != Some(&side.to_string()[..]) {
                return Err(EngineError::Unsupported(format!(
                    "{} plays {} only",
                    a.name,
                    if side == 'w' { "White" } else { "Black" }
                )));
            }
        }
        let start = game.start().to_fen();
        let moves = game.moves().to_vec();
        let depth = a.depth_for(limits.depth);
        let mut keys = String::new();
        if let (Some(d), Some(t)) = (limits.depth, &a.keys.depth) {
            keys.push_str(&t.replace("{depth}", &a.depth.clamp(d).to_string()));
        }
        let replies = a.keys.replies_to_moves.unwrap_or(true);
        let synced = match (&self.known, &self.worker) {
            (Some((fen, known)), Some(_)) if *fen == start && moves.starts_with(known) => {
                match (moves.len() - known.len(), &a.keys.go) {
                    (0, Some(go)) => {
                        keys.push_str(go);
                        true
                    }
                    (1, go) => {
                        let mut before = game.clone();
                        while before.moves().len() > known.len() {
                            before = before_last(&before);
                        }
                        keys.push_str(&a.keys_for(before.position(), &moves[known.len()]));
                        if !replies {
                            keys.push_str(go.as_deref().unwrap_or(""));
                        }
                        true
                    }
                    _ => false,
                }
            }
            _ => false,
        };
        let actions = if synced {
            vec![Action::Keys(keys)]
        } else {
            let plan = a.plan(game, limits.depth)?;
            // A fresh program: the new-game keys if it has them and the plan starts from
            // its own start, else a new machine.
            let mut actions = Vec::new();
            match (&self.worker, &a.keys.new_game, plan.fresh_keys) {
                (Some(w), Some(n), true) => {
                    if let Err(e) = w.ask(Cmd::Turn(n.clone())) {
                        self.worker = None;
                        self.known = None;
                        return Err(e);
                    }
                }
                _ => {
                    self.worker = None;
                    let w = Worker::spawn(Arc::clone(&a));
                    w.ask(Cmd::Boot)?;
                    self.worker = Some(w);
                    // Start keys as a turn of their own (the program answers its questions).
                    actions.push(Action::Keys(plan.start));
                    actions.push(Action::Flush);
                }
            }
            actions.push(Action::Keys(keys));
            actions.extend(plan.actions);
            actions
        };
        let w = self.worker.as_ref().expect("a running program");
        let (out, cycles) = match run_actions(w, actions) {
            Ok(r) => r,
            Err(e) => {
                self.worker = None;
                self.known = None;
                return Err(e);
            }
        };
        let caps: Vec<regex::Captures> = a.reply.captures_iter(&out).collect();
        let cap = if a.first { caps.first() } else { caps.last() };
        let Some(cap) = cap else {
            self.known = None;
            return Err(EngineError::Backend(format!(
                "{}: no reply matching `{}` in: {}",
                a.name,
                a.reply.as_str(),
                one_line(&out)
            )));
        };
        let white = game.position().to_fen().split(' ').nth(1) == Some("w");
        let rank = if white { '1' } else { '8' };
        let text = match (cap.name("move"), cap.name("castle")) {
            _ if cap.name("en_passant").is_some() => {
                let pos = game.position();
                let ep: Vec<Move> = pos
                    .legal_moves()
                    .iter()
                    .copied()
                    .filter(|&m| pos.is_en_passant(m))
                    .collect();
                match ep.as_slice() {
                    [m] => m.to_uci(),
                    [] => {
                        return Err(EngineError::Backend(format!(
                            "{}: it replies with an en-passant capture, and there is none here",
                            a.name
                        )));
                    }
                    _ => {
                        return Err(EngineError::Backend(format!(
                            "{}: it replies with an en-passant capture without saying which pawn takes ({} can)",
                            a.name,
                            ep.iter().map(|m| m.to_uci()).collect::<Vec<_>>().join(", ")
                        )));
                    }
                }
            }
            (_, Some(c)) if c.as_str().len() > 3 => {
                format!("e{rank}c{rank}")
            }
            (_, Some(_)) => format!("e{rank}g{rank}"),
            (Some(mv), None) => mv.as_str().to_ascii_lowercase(),
            (None, None) => {
                let sq = |n: &str| {
                    cap.name(n)
                        .and_then(|t| a.squares.decode(t.as_str(), !white))
                };
                match (sq("from"), sq("to")) {
                    (Some(f), Some(t)) => format!("{f}{t}"),
                    _ => String::new(),
                }
            }
        };
        let mut after = game.clone();
        let best = after.push_uci(&text).map_err(|e| {
            EngineError::Backend(format!(
                "{}: its reply `{text}` is not legal here: {e}",
                a.name
            ))
        })?;
        let mut known = moves;
        known.push(best);
        self.known = Some((start, known));
        let num = |n: &str| cap.name(n).and_then(|t| t.as_str().parse::<i64>().ok());
        let time = a.clock.duration(cycles);
        let depth = num("depth").map_or(depth, |d| d as u32);
        let nodes = num("nodes").map_or(0, |n| n as u64);
        let score = num("score").map_or(0, |s| s as i32);
        control.report(&SearchInfo {
            depth,
            seldepth: 0,
            score,
            nodes,
            time,
            pv: vec![best],
            hashfull: None,
        });
        Ok(SearchResult {
            best: Some(best),
            score,
            pv: vec![best],
            depth,
            nodes,
            time: time.max(Duration::from_nanos(1)),
        })
    }
}
