//! A tournament as a front end asks for it (the flags of `kempelen tournament`, a form of the
//! page): the players, the limits, the openings and the slice, read and checked into a
//! [`Tournament`] before any game, every refusal naming the setting; then the games played and
//! the report made, as text or JSON. The front end reads the files and prints.

use super::clock::{ClockMode, TimeControl};
use super::error::TournamentError;
use super::game::MAX_STRING_CHARS;
use super::game::{MoveLimit, Opening};
use super::openings::parse_openings;
use super::player::{PlayerKinds, PlayerSpec};
use super::run::{PlayedGame, Tournament};
use super::schedule::{Format, Shard, Slice};
use super::table::{Standings, StandingsError};
use serde_json::{Value, json};
use std::fmt::Write;
use std::path::PathBuf;
use std::time::Duration;

/// The highest anchor Elo taken (and the lowest, negated): beyond any rating list, and short
/// enough to print.
pub const MAX_ANCHOR_ELO: f64 = 10_000.0;

/// A tournament's settings as a user gives them, by the names of `kempelen tournament`'s
/// flags.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    /// Player specs ([`PlayerSpec::parse_with`]).
    pub players: Vec<String>,
    /// A gauntlet instead of a round robin.
    pub gauntlet: bool,
    /// `--nodes`.
    pub nodes: Option<u64>,
    /// `--depth`.
    pub depth: Option<u32>,
    /// `--movetime`, as given: milliseconds, or `30s`, `500ms` ([`super::parse_movetime`]).
    pub movetime: Option<String>,
    /// `--tc`, as PGN's TimeControl writes it.
    pub tc: Option<String>,
    /// Whose time the clocks charge.
    pub clock: ClockMode,
    /// Own limits, `LABEL=LIMIT`.
    pub limits: Vec<String>,
    /// Games per pairing.
    pub games: u32,
    /// Opening files (none: the bundled set).
    pub opening_files: Vec<String>,
    /// Games played at once.
    pub concurrency: usize,
    /// The move cap.
    pub max_plies: usize,
    /// `--move-timeout`, seconds.
    pub move_timeout: f64,
    /// The slice played.
    pub shard: Option<Shard>,
    /// `LABEL=ELO`.
    pub anchor: Option<String>,
    /// The PGN's event.
    pub event: String,
}

/// A tournament made from its [`Setup`]: players parsed, limits and openings read, not yet
/// started ([`Planned::check`] starts each player once).
#[derive(Clone, Debug)]
pub struct Planned {
    /// The tournament.
    pub tournament: Tournament,
    /// The slice played.
    pub shard: Option<Shard>,
    /// Games played at once.
    pub concurrency: usize,
    /// The anchor (name, Elo).
    pub anchor: Option<(String, f64)>,
    /// The files the tournament reads (opening files, the players' files), which no output
    /// may replace.
    pub inputs: Vec<PathBuf>,
}

fn bad(reason: String) -> TournamentError {
    TournamentError::BadSettings(reason)
}

/// `LABEL=VALUE` with the label among `names`.
pub fn split_label<'a>(
    flag: &str,
    text: &'a str,
    names: &[&str],
) -> Result<(&'a str, &'a str), TournamentError> {
    let (label, value) = text
        .split_once('=')
        .ok_or_else(|| bad(format!("{flag} '{text}': expected LABEL=...")))?;
    let label = label.trim();
    if !names.contains(&label) {
        return Err(bad(format!(
            "{flag} '{text}': no player '{label}' (players: {})",
            names.join(", ")
        )));
    }
    Ok((label, value.trim()))
}

/// `--anchor LABEL=ELO`: a player among `names` and a rating within [`MAX_ANCHOR_ELO`].
pub fn parse_anchor(text: &str, names: &[&str]) -> Result<(String, f64), TournamentError> {
    let (label, elo) = split_label("--anchor", text, names)?;
    let value: f64 = elo
        .parse()
        .ok()
        .filter(|e: &f64| e.is_finite())
        .ok_or_else(|| bad(format!("--anchor '{text}': '{elo}' is not a rating")))?;
    if value.abs() > MAX_ANCHOR_ELO {
        return Err(bad(format!(
            "--anchor '{text}': {elo} is beyond any rating (at most {MAX_ANCHOR_ELO} either way)"
        )));
    }
    Ok((label.to_string(), value))
}

/// The players of `specs`, with distinct labels a PGN tag can hold.
pub fn parse_players(
    specs: &[String],
    kinds: &[&dyn PlayerKinds],
) -> Result<Vec<PlayerSpec>, TournamentError> {
    if specs.len() < 2 {
        return Err(bad(
            "give at least two players (profile names, reference variants, z80, \
                        6502, program:FILE.toml, uci:... or xboard:...)"
                .into(),
        ));
    }
    let players = specs
        .iter()
        .map(|text| PlayerSpec::parse_with(text, kinds))
        .collect::<Result<Vec<PlayerSpec>, TournamentError>>()?;
    for (i, p) in players.iter().enumerate() {
        if players[..i].iter().any(|q| q.label == p.label) {
            return Err(bad(format!(
                "two players are called '{}': name them with LABEL=SPEC (e.g. a={} b={})",
                p.label, specs[i], specs[i]
            )));
        }
    }
    Ok(players)
}

/// The game's limit from the flags that give one (none: 10,000 nodes a move).
pub fn game_limit(
    nodes: Option<u64>,
    depth: Option<u32>,
    movetime: Option<&str>,
    tc: Option<&str>,
) -> Result<MoveLimit, TournamentError> {
    let limit = match (nodes, depth, movetime, tc) {
        (Some(n), ..) => MoveLimit::Nodes(n),
        (_, Some(d), ..) => MoveLimit::Depth(d),
        (_, _, Some(t), _) => MoveLimit::MoveTime(
            super::parse_movetime(t).map_err(|e| bad(format!("--movetime {e}")))?,
        ),
        (_, _, _, Some(tc)) => MoveLimit::Clock(
            tc.parse::<TimeControl>()
                .map_err(|e| bad(format!("--tc '{}': {}", e.text, e.reason)))?,
        ),
        _ => MoveLimit::Nodes(10_000),
    };
    limit.check().map_err(|e| {
        bad(match &limit {
            MoveLimit::Depth(d) => format!("--depth {d}: {e}"),
            MoveLimit::Nodes(n) => format!("--nodes {n}: {e}"),
            _ => e,
        })
    })?;
    Ok(limit)
}

/// Each player's own limit from `LABEL=LIMIT` texts (at most one each).
pub fn own_limits(
    texts: &[String],
    players: &[PlayerSpec],
) -> Result<Vec<Option<MoveLimit>>, TournamentError> {
    let names: Vec<&str> = players.iter().map(|p| p.label.as_str()).collect();
    let mut own: Vec<Option<MoveLimit>> = vec![None; players.len()];
    for text in texts {
        let (label, value) = split_label("--limit", text, &names)?;
        let l = MoveLimit::parse_fixed(value).map_err(|e| bad(format!("--limit {e}")))?;
        let i = names.iter().position(|n| *n == label).expect("a player");
        if own[i].is_some() {
            return Err(bad(format!(
                "--limit '{text}': '{label}' has a limit already"
            )));
        }
        own[i] = Some(l);
    }
    Ok(own)
}

impl Setup {
    /// The event name, which goes into every game's PGN tags.
    fn check_event(&self) -> Result<(), TournamentError> {
        if self.event.chars().any(char::is_control) {
            return Err(bad(format!(
                "--event {:?}: a control character (a line end, a tab) cannot go into a PGN tag",
                self.event
            )));
        }
        if self.event.chars().count() > MAX_STRING_CHARS {
            return Err(bad(format!(
                "--event: {} characters, more than a PGN tag holds ({MAX_STRING_CHARS})",
                self.event.chars().count()
            )));
        }
        Ok(())
    }

    /// The flags that count things: games at once, the move timeout, games per pairing.
    fn check_numbers(&self) -> Result<(), TournamentError> {
        if self.concurrency == 0 {
            return Err(bad("--concurrency must be at least 1".into()));
        }
        if !(self.move_timeout > 0.0 && self.move_timeout <= 86_400.0) {
            return Err(bad(
                "--move-timeout must be between 0 and 86400 seconds".into()
            ));
        }
        if self.games == 0 {
            return Err(bad("--games must be at least 1".into()));
        }
        Ok(())
    }

    /// The openings of the files (read by `read`), or of `bundled` when there are none.
    fn openings<E: From<TournamentError>>(
        &self,
        bundled: &str,
        read: &mut impl FnMut(&str) -> Result<String, E>,
    ) -> Result<Vec<Opening>, E> {
        let mut openings: Vec<Opening> = Vec::new();
        for path in &self.opening_files {
            let text = read(path)?;
            openings.extend(parse_openings(&text, path)?);
        }
        if openings.is_empty() {
            openings = parse_openings(bundled, "bundled openings")?;
        }
        Ok(openings)
    }

    /// The tournament these settings ask for, every setting checked but the players not yet
    /// started; `read` reads an opening file, `bundled` is the opening set without one.
    pub fn prepare<E: From<TournamentError>>(
        &self,
        kinds: &[&dyn PlayerKinds],
        bundled: &str,
        mut read: impl FnMut(&str) -> Result<String, E>,
    ) -> Result<Planned, E> {
        let players = parse_players(&self.players, kinds)?;
        self.check_event()?;
        let limit = game_limit(
            self.nodes,
            self.depth,
            self.movetime.as_deref(),
            self.tc.as_deref(),
        )?;
        self.check_numbers()?;
        let own = own_limits(&self.limits, &players)?;
        let names: Vec<&str> = players.iter().map(|p| p.label.as_str()).collect();
        let anchor = self
            .anchor
            .as_deref()
            .map(|a| parse_anchor(a, &names))
            .transpose()?;
        let openings = self.openings(bundled, &mut read)?;
        let mut inputs: Vec<PathBuf> = self.opening_files.iter().map(PathBuf::from).collect();
        for p in &players {
            inputs.extend(p.inputs());
        }
        let mut t = Tournament::new(players, Default::default(), openings);
        t.settings.limit = limit;
        t.settings.max_plies = self.max_plies;
        t.settings.clock = self.clock;
        t.limits = own;
        t.format = if self.gauntlet {
            Format::Gauntlet
        } else {
            Format::RoundRobin
        };
        t.games_per_pairing = self.games;
        t.move_timeout = Duration::from_secs_f64(self.move_timeout);
        t.event = self.event.clone();
        Ok(Planned {
            tournament: t,
            shard: self.shard,
            concurrency: self.concurrency,
            anchor,
            inputs,
        })
    }
}

impl Planned {
    /// A note for the user when the games of a pairing repeat the openings (deterministic
    /// players then replay the same games).
    pub fn note(&self) -> Option<String> {
        let t = &self.tournament;
        (t.games_per_pairing as usize > 2 * t.openings.len()).then(|| {
            format!(
                "{} games per pairing repeat the {} openings; deterministic players \
                 (native profiles and 8-bit builds at fixed nodes or depth, or on emulated \
                 clocks) replay identical games",
                t.games_per_pairing,
                t.openings.len()
            )
        })
    }

    /// Starts every player once with its options ([`Tournament::check`]) and gives the games
    /// to play: the schedule, or the slice of it.
    pub fn check(&self) -> Result<Slice, TournamentError> {
        self.tournament.check()?;
        let all = self.tournament.schedule().map_err(|e| bad(e.to_string()))?;
        let slice = all.slice(self.shard);
        if let (Some(shard), true) = (self.shard, slice.is_empty()) {
            return Err(bad(format!(
                "--shard {shard}: the schedule has only {} games, none in this slice",
                all.len()
            )));
        }
        Ok(slice)
    }

    /// The standings of the games played.
    pub fn standings(&self, played: &[PlayedGame]) -> Result<Standings, StandingsError> {
        Standings::new(
            self.tournament
                .players
                .iter()
                .map(|p| p.label.clone())
                .collect(),
            played
                .iter()
                .map(|g| g.summary.clone())
                .collect::<super::table::GameList>(),
            self.anchor
                .as_ref()
                .map(|(name, elo)| (name.as_str(), *elo)),
        )
    }

    /// The fields the report's JSON adds to the standings' ([`Standings::write_json`]): how
    /// the tournament was played.
    pub fn report_fields(&self, slice: &Slice) -> Value {
        let t = &self.tournament;
        json!({
            "format": t.format.to_string(),
            "limit": t.settings.limit.to_string(),
            "clock": t.settings.clock,
            "games_per_pairing": t.games_per_pairing,
            "openings": t.openings.len(),
            "max_plies": t.settings.max_plies,
            "shard": self.shard.map(|s| s.to_string()),
            "scheduled_games": slice.schedule.len(),
        })
    }

    /// The report as text: how the tournament was played, the players' own limits, then the
    /// standings.
    pub fn report_text(&self, standings: &Standings, slice: &Slice) -> String {
        let t = &self.tournament;
        let format = match t.format {
            Format::RoundRobin => "Round robin",
            Format::Gauntlet => "Gauntlet",
        };
        let limit = &t.settings.limit;
        let clocks = match (limit, t.settings.clock) {
            (MoveLimit::Clock(_) | MoveLimit::MoveTime(_), ClockMode::Emulated) => {
                " (emulated clocks)"
            }
            (MoveLimit::Clock(_) | MoveLimit::MoveTime(_), ClockMode::Host) => " (host clocks)",
            _ => "",
        };
        let part = match self.shard {
            Some(s) => format!(
                " (slice {s}: {} of {} games)",
                slice.len(),
                slice.schedule.len()
            ),
            None => String::new(),
        };
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{format} of {} players, {} games per pairing, {limit}{clocks}, {} openings, \
             draw at {} plies: {} games{part}",
            t.players.len(),
            t.games_per_pairing,
            t.openings.len(),
            t.settings.max_plies,
            standings.games.len()
        );
        for (p, l) in t.players.iter().zip(&t.limits) {
            if let Some(l) = l {
                let _ = writeln!(out, "  {} plays at {l}", p.label);
            }
        }
        let _ = writeln!(out);
        out += &standings.to_text();
        out
    }
}
