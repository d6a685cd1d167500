//! A whole tournament: players, limits, openings and the schedule, checked before any game is
//! played, then the games of the schedule (or of one slice of it) played N at a time, each
//! with fresh engines.

use super::clock::ClockMode;
use super::error::TournamentError;
use super::game::{
    GameRecord, GameSettings, MoveLimit, Opening, Outcome, PgnTags, Seat, Termination, play_game,
    to_pgn,
};
use super::player::{PlayerKind, PlayerSpec};
use super::schedule::{Format, Pairing, Schedule, ScheduleTooLong, Slice};
use super::table::GameSummary;
use crate::engine::EngineClock;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// What a tournament plays.
#[derive(Clone, Debug)]
pub struct Tournament {
    /// The players.
    pub players: Vec<PlayerSpec>,
    /// Each player's own limit (same length as `players`).
    pub limits: Vec<Option<MoveLimit>>,
    /// How each game is played.
    pub settings: GameSettings,
    /// The openings, played in turn.
    pub openings: Vec<Opening>,
    /// Round robin or gauntlet.
    pub format: Format,
    /// Games per pairing.
    pub games_per_pairing: u32,
    /// The time an external engine may exceed its limit, and the longest wait for its
    /// handshake (at most [`super::external::HANDSHAKE_TIMEOUT`]).
    pub move_timeout: Duration,
    /// The event named in every game's PGN.
    pub event: String,
}

/// What a game played leaves for the report: its summary for the standings and its PGN.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedGame {
    /// The game as the standings see it.
    pub summary: GameSummary,
    /// The game as PGN (export format).
    pub pgn: String,
}

impl Tournament {
    /// A tournament of `players` at `settings`, without own limits, over `openings`.
    pub fn new(
        players: Vec<PlayerSpec>,
        settings: GameSettings,
        openings: Vec<Opening>,
    ) -> Tournament {
        let n = players.len();
        Tournament {
            players,
            limits: vec![None; n],
            settings,
            openings,
            format: Format::RoundRobin,
            games_per_pairing: 2,
            move_timeout: Duration::from_secs(60),
            event: "Kempelen tournament".into(),
        }
    }

    /// The whole schedule.
    pub fn schedule(&self) -> Result<Schedule, ScheduleTooLong> {
        Schedule::new(
            self.players.len(),
            self.format,
            self.games_per_pairing,
            self.openings.len(),
        )
    }

    /// Everything that can be checked before play: two players or more with distinct
    /// names, limits a game can be played at, openings, and every player started once with
    /// its options set (so a player that cannot start, or an option it refuses, stops the
    /// tournament here with the reason); an xboard engine cannot search a fixed number of
    /// nodes; a player on an emulated clock plays a clock or a time per move only when the
    /// tournament charges emulated time.
    pub fn check(&self) -> Result<(), TournamentError> {
        let bad = |s: String| TournamentError::BadSettings(s);
        if self.players.len() < 2 {
            return Err(bad("give at least two players".into()));
        }
        if self.limits.len() != self.players.len() {
            return Err(bad("one own limit (or none) per player".into()));
        }
        for (i, p) in self.players.iter().enumerate() {
            if self.players[..i].iter().any(|q| q.label == p.label) {
                return Err(bad(format!(
                    "two players are called '{}': name them with LABEL=SPEC",
                    p.label
                )));
            }
        }
        self.settings.limit.check().map_err(bad)?;
        if self.openings.is_empty() {
            return Err(bad("no openings".into()));
        }
        if self.games_per_pairing == 0 {
            return Err(bad("at least one game per pairing".into()));
        }
        for (p, own) in self.players.iter().zip(&self.limits) {
            if let Some(l) = own {
                if matches!(l, MoveLimit::Clock(_)) {
                    return Err(bad(format!(
                        "{}: a clock is the game's, not a player's",
                        p.label
                    )));
                }
                l.check().map_err(|e| bad(format!("{}: {e}", p.label)))?;
            }
            let limit = own.as_ref().unwrap_or(&self.settings.limit);
            if matches!(p.kind, PlayerKind::Xboard(_)) && matches!(limit, MoveLimit::Nodes(_)) {
                return Err(bad(format!(
                    "'{}' is an xboard engine: the xboard protocol has no fixed-node search; \
                     use a depth or a time",
                    p.label
                )));
            }
        }
        for (p, own) in self.players.iter().zip(&self.limits) {
            let engine = p
                .start(self.move_timeout)
                .map_err(|e| TournamentError::BadPlayer {
                    spec: p.label.clone(),
                    reason: e.to_string(),
                })?;
            let timed = matches!(self.settings.limit, MoveLimit::Clock(_))
                || matches!(own, Some(MoveLimit::MoveTime(_)))
                || (own.is_none() && matches!(self.settings.limit, MoveLimit::MoveTime(_)));
            if let EngineClock::Emulated { machine, mhz } = engine.clock() {
                if timed && self.settings.clock == ClockMode::Host {
                    return Err(bad(format!(
                        "'{}' keeps emulated time ({machine} at {mhz} MHz): its time limits are \
                         emulated time, so it plays a clock or a time per move only on emulated \
                         clocks (--clock emulated)",
                        p.label
                    )));
                }
            }
        }
        Ok(())
    }

    /// Plays one scheduled game with fresh engines; a player that fails to start forfeits.
    pub fn play_one(&self, p: &Pairing) -> GameRecord {
        let (w, b) = (&self.players[p.white], &self.players[p.black]);
        let opening = &self.openings[p.opening];
        let mut settings = self.settings.clone();
        settings.move_timeout = Some(self.move_timeout);
        match (w.start(self.move_timeout), b.start(self.move_timeout)) {
            (Ok(mut we), Ok(mut be)) => play_game(
                Seat::new(&w.label, we.as_mut()).with_limit(self.limits[p.white].clone()),
                Seat::new(&b.label, be.as_mut()).with_limit(self.limits[p.black].clone()),
                opening,
                &settings,
            ),
            (we, be) => {
                let (outcome, err) = match (we, be) {
                    (Err(e), _) => (Outcome::BlackWins, e),
                    (_, Err(e)) => (Outcome::WhiteWins, e),
                    _ => unreachable!("one of them failed"),
                };
                let reason = err.to_string();
                GameRecord::unplayed(
                    [&w.label, &b.label],
                    opening,
                    &settings,
                    outcome,
                    Termination::EngineFailure { reason },
                )
            }
        }
    }

    /// The PGN tags of the game of `round`.
    pub fn tags(&self, round: usize) -> PgnTags {
        PgnTags {
            event: self.event.clone(),
            round: round.to_string(),
            date: String::new(),
        }
    }

    /// Plays the games of `slice` (the schedule or a slice of it), `concurrency` at a time,
    /// and returns each game's summary and PGN in the order of the slice (never more than the
    /// games played: a game's record is dropped once it is written). `on_game` hears of each
    /// game as it ends (its index in the slice, the record, its PGN), from the thread that
    /// played it.
    pub fn play(
        &self,
        slice: &Slice,
        concurrency: usize,
        on_game: &(dyn Fn(usize, &GameRecord, &str) + Sync),
    ) -> Vec<PlayedGame> {
        let next = AtomicUsize::new(0);
        let results: Mutex<Vec<Option<PlayedGame>>> = Mutex::new(Vec::new());
        std::thread::scope(|scope| {
            for _ in 0..concurrency.clamp(1, slice.len().max(1)) {
                scope.spawn(|| {
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(p) = slice.get(k) else { break };
                        let record = self.play_one(&p);
                        let pgn = to_pgn(&record, &self.tags(p.round));
                        on_game(k, &record, &pgn);
                        let summary = GameSummary::of_record(&record, p.round);
                        let mut results = results.lock().expect("results");
                        if results.len() <= k {
                            results.resize(k + 1, None);
                        }
                        results[k] = Some(PlayedGame { summary, pgn });
                    }
                });
            }
        });
        results
            .into_inner()
            .expect("results")
            .into_iter()
            .map(|r| r.expect("every game was played"))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::schedule::Shard;
    use crate::tournament::table::Standings;

    /// Why `t` is refused before play.
    fn refusal(t: &Tournament) -> String {
        t.check().unwrap_err().to_string()
    }

    fn tournament(specs: &[&str], limit: MoveLimit) -> Tournament {
        let players = specs
            .iter()
            .map(|s| PlayerSpec::parse(s).unwrap())
            .collect();
        let settings = GameSettings {
            limit,
            max_plies: 40,
            ..GameSettings::default()
        };
        let mut t = Tournament::new(players, settings, vec![Opening::startpos()]);
        t.games_per_pairing = 2;
        t
    }

    /// The records of the games of `slice`, in its order.
    fn records(t: &Tournament, slice: &Slice) -> Vec<GameRecord> {
        let out = Mutex::new(vec![None; slice.len()]);
        t.play(slice, 1, &|k, r, _| {
            out.lock().unwrap()[k] = Some(r.clone())
        });
        out.into_inner().unwrap().into_iter().flatten().collect()
    }

    #[test]
    fn the_slices_together_are_the_whole_tournament() {
        let t = tournament(
            &["reference", "reference-no-killers", "micromax"],
            MoveLimit::Nodes(150),
        );
        t.check().unwrap();
        let all = t.schedule().unwrap();
        let whole = t.play(&all.slice(None), 2, &|_, _, _| {});
        let mut merged = Vec::new();
        for k in 1..=4 {
            let shard = Shard { index: k, count: 4 };
            merged.extend(t.play(&all.slice(Some(shard)), 1, &|_, _, _| {}));
        }
        merged.sort_by_key(|g| g.summary.round);
        assert_eq!(merged, whole);
        let a = Standings::new(
            t.players.iter().map(|p| p.label.clone()).collect(),
            whole.iter().map(|g| g.summary.clone()).collect::<Vec<_>>(),
            None,
        )
        .unwrap();
        let b = Standings::from_games(
            merged.into_iter().map(|g| g.summary).collect::<Vec<_>>(),
            None,
        )
        .unwrap();
        assert_eq!(a.to_json(), b.to_json());
        assert_eq!(a.to_text(), b.to_text());
    }

    #[test]
    fn settings_that_cannot_be_played_are_refused_before_play() {
        let t = tournament(&["full:Hash=abc", "reference"], MoveLimit::Nodes(100));
        let e = refusal(&t);
        assert!(e.contains("full") && e.contains("'abc'"), "{e}");
        let t = tournament(&["full:Nosuch=1", "reference"], MoveLimit::Nodes(100));
        assert!(refusal(&t).contains("unknown option 'Nosuch'"));
        let t = tournament(&["reference:Hash=0", "full"], MoveLimit::Nodes(100));
        assert!(refusal(&t).contains("'0'"));
        let t = tournament(&["reference", "full"], MoveLimit::Depth(4_294_967_295));
        let e = refusal(&t);
        assert!(e.contains("at most 64"), "{e}");
        let mut t = tournament(&["reference", "full"], MoveLimit::Nodes(100));
        t.limits[1] = Some(MoveLimit::Depth(0));
        assert!(refusal(&t).contains("full: the depth must be"));
        let t = tournament(&["reference", "reference"], MoveLimit::Nodes(100));
        assert!(refusal(&t).contains("two players"));
    }

    #[test]
    fn an_own_limit_replaces_the_games_limit_for_that_player() {
        let mut t = tournament(&["a=reference", "b=reference"], MoveLimit::Depth(1));
        t.limits[1] = Some(MoveLimit::Depth(3));
        t.check().unwrap();
        let records = records(&t, &t.schedule().unwrap().slice(None));
        // b searches three plies, a one: b's trees are the larger in both colours.
        assert!(
            records[0].nodes[1] > 3 * records[0].nodes[0],
            "{:?}",
            records[0].nodes
        );
        assert!(
            records[1].nodes[0] > 3 * records[1].nodes[1],
            "{:?}",
            records[1].nodes
        );
        assert_eq!(records[0].limits, [None, Some(MoveLimit::Depth(3))]);
        assert_eq!(records[1].limits, [Some(MoveLimit::Depth(3)), None]);
    }
}
