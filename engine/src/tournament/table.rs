//! The standings of a set of games, whoever played them and wherever they come from (a
//! tournament just played, or PGN files read back): the crosstable, each player's points and
//! Bradley-Terry rating with its 95 % margin, every pairing's Elo difference, the count of each
//! kind of ending and the forfeits. As text for a terminal and as JSON.

use super::game::MAX_STRING_CHARS;
use super::game::{GameRecord, Outcome, Termination};
use super::pgn::PgnGame;
use super::rating::{
    EloEstimate, Rating, RatingError, Wdl, describe_elo, elo_difference, fit_ratings,
};
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

/// One game as the standings see it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSummary {
    /// Its round (`None` when the PGN gives no number).
    pub round: Option<usize>,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The opening's name.
    pub opening: String,
    /// The result.
    pub outcome: Outcome,
    /// Why it ended, when known.
    pub termination: Option<Termination>,
    /// Plies played, opening included.
    pub plies: usize,
}

impl GameSummary {
    /// A game just played, in `round`.
    pub fn of_record(record: &GameRecord, round: usize) -> GameSummary {
        GameSummary {
            round: Some(round),
            white: record.white.clone(),
            black: record.black.clone(),
            opening: record.opening.name.clone(),
            outcome: record.outcome,
            termination: Some(record.termination.clone()),
            plies: record.moves.len(),
        }
    }

    /// A game read from PGN; `None` for an unfinished one (result `*`).
    pub fn of_pgn(game: &PgnGame) -> Option<GameSummary> {
        let name = |tag: &str| game.tag(tag).unwrap_or("?").to_string();
        Some(GameSummary {
            round: game.tag("Round").and_then(|r| r.trim().parse().ok()),
            white: name("White"),
            black: name("Black"),
            opening: game.tag("Opening").unwrap_or("").to_string(),
            outcome: game.outcome()?,
            termination: game.termination(),
            plies: game.moves.len(),
        })
    }
}

/// A list of games kept small: each name, opening and ending stored once, a game in 32
/// bytes (a PGN file of 64 MiB can hold 2.6 million games).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameList {
    /// Player names and openings.
    texts: Vec<String>,
    text_index: HashMap<String, u32>,
    /// The endings.
    endings: Vec<Option<Termination>>,
    ending_index: HashMap<Option<Termination>, u32>,
    games: Vec<Packed>,
}

/// One game of a [`GameList`]: indices into its tables.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Packed {
    /// The round; `u64::MAX` for none.
    round: u64,
    white: u32,
    black: u32,
    opening: u32,
    ending: u32,
    plies: u32,
    outcome: Outcome,
}

impl GameList {
    /// No games.
    pub fn new() -> GameList {
        GameList::default()
    }

    fn text(&mut self, t: String) -> u32 {
        if let Some(&i) = self.text_index.get(&t) {
            return i;
        }
        let i = self.texts.len() as u32;
        self.texts.push(t.clone());
        self.text_index.insert(t, i);
        i
    }

    fn ending(&mut self, t: Option<Termination>) -> u32 {
        if let Some(&i) = self.ending_index.get(&t) {
            return i;
        }
        let i = self.endings.len() as u32;
        self.endings.push(t.clone());
        self.ending_index.insert(t, i);
        i
    }

    /// Adds a game.
    pub fn push(&mut self, g: GameSummary) {
        let packed = Packed {
            round: g.round.map_or(u64::MAX, |r| r as u64),
            white: self.text(g.white),
            black: self.text(g.black),
            opening: self.text(g.opening),
            ending: self.ending(g.termination),
            plies: u32::try_from(g.plies).unwrap_or(u32::MAX),
            outcome: g.outcome,
        };
        self.games.push(packed);
    }

    /// Games in the list.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether the list has no game.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    fn unpack(&self, p: &Packed) -> GameSummary {
        GameSummary {
            round: (p.round != u64::MAX).then_some(p.round as usize),
            white: self.texts[p.white as usize].clone(),
            black: self.texts[p.black as usize].clone(),
            opening: self.texts[p.opening as usize].clone(),
            outcome: p.outcome,
            termination: self.endings[p.ending as usize].clone(),
            plies: p.plies as usize,
        }
    }

    /// The games, in order.
    pub fn iter(&self) -> impl Iterator<Item = GameSummary> + '_ {
        self.games.iter().map(|p| self.unpack(p))
    }

    /// The games by round (games without a round number after the others, in the order
    /// given).
    pub fn sort_by_round(&mut self) {
        self.games.sort_by_key(|g| g.round);
    }

    /// The players in the order they first play.
    pub fn players(&self) -> Vec<String> {
        let mut seen = vec![false; self.texts.len()];
        let mut players = Vec::new();
        for g in &self.games {
            for i in [g.white, g.black] {
                if !std::mem::replace(&mut seen[i as usize], true) {
                    players.push(self.texts[i as usize].clone());
                }
            }
        }
        players
    }
}

impl FromIterator<GameSummary> for GameList {
    fn from_iter<I: IntoIterator<Item = GameSummary>>(games: I) -> GameList {
        let mut list = GameList::new();
        for g in games {
            list.push(g);
        }
        list
    }
}

impl From<Vec<GameSummary>> for GameList {
    fn from(games: Vec<GameSummary>) -> GameList {
        games.into_iter().collect()
    }
}

/// The standings of a set of games.
#[derive(Clone, Debug)]
pub struct Standings {
    /// The players, in the order given (crosstable rows and columns are ranked, JSON
    /// `crosstable` keeps this order).
    pub players: Vec<String>,
    /// The games.
    pub games: GameList,
    /// `points[i][j]`: what player `i` scored against `j`.
    pub points: Vec<Vec<f64>>,
    /// `count[i][j]`: games between `i` and `j`.
    pub count: Vec<Vec<u32>>,
    /// `wdl[i][j]`: `i`'s wins, draws and losses against `j`.
    pub wdl: Vec<Vec<Wdl>>,
    /// Each player's totals.
    pub totals: Vec<Wdl>,
    /// Each player's rating.
    pub ratings: Vec<Rating>,
    /// The anchor, if any (player index, Elo).
    pub anchor: Option<(usize, f64)>,
    /// Player indices by rank.
    pub order: Vec<usize>,
}

/// Standings that cannot be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum StandingsError {
    /// A game names a player who is not in the list.
    #[error("a game of round {round:?} names '{name}', who is not among the players")]
    UnknownPlayer {
        /// The name.
        name: String,
        /// The game's round.
        round: Option<usize>,
    },
    /// A game's White and Black are one player.
    #[error(
        "a game of round {round:?} has '{name}' on both sides: a game against oneself cannot be rated"
    )]
    OnBothSides {
        /// The name.
        name: String,
        /// The game's round.
        round: Option<usize>,
    },
    /// A name longer than a PGN tag holds.
    #[error(
        "a player's name of {chars} characters, more than a PGN tag holds ({}): '{}...'",
        MAX_STRING_CHARS,
        .name.chars().take(40).collect::<String>().escape_debug()
    )]
    LongName {
        /// The name.
        name: String,
        /// Its length in characters.
        chars: usize,
    },
    /// More players than the standings take.
    #[error(
        "the games name {0} players, more than the standings take ({MAX_PLAYERS}: their tables grow with the square of the players)"
    )]
    TooManyPlayers(usize),
    /// The anchor names no player.
    #[error("the anchor '{0}' is not among the players ({1})")]
    UnknownAnchor(String, String),
    /// The fit failed.
    #[error(transparent)]
    Rating(#[from] RatingError),
}

/// The most players a set of standings takes: its tables grow with the square of the players
/// and the fit of their ratings faster (an engine tournament has a few dozen).
pub const MAX_PLAYERS: usize = 1_000;

/// Each pair's points, games and results from a list of games.
struct Tally {
    points: Vec<Vec<f64>>,
    count: Vec<Vec<u32>>,
    wdl: Vec<Vec<Wdl>>,
}

impl Tally {
    /// The tally of `games` among `players`: every name a player, no one on both sides.
    fn of(players: &[String], games: &GameList) -> Result<Tally, StandingsError> {
        let n = players.len();
        let mut by_name: HashMap<&str, usize> = HashMap::new();
        for (i, p) in players.iter().enumerate() {
            by_name.entry(p.as_str()).or_insert(i);
        }
        // Each name of the list as a player's index.
        let of_text: Vec<Option<usize>> = games
            .texts
            .iter()
            .map(|t| by_name.get(t.as_str()).copied())
            .collect();
        let mut t = Tally {
            points: vec![vec![0.0f64; n]; n],
            count: vec![vec![0u32; n]; n],
            wdl: vec![vec![Wdl::default(); n]; n],
        };
        for g in &games.games {
            let round = (g.round != u64::MAX).then_some(g.round as usize);
            let index = |text: u32| {
                of_text[text as usize].ok_or_else(|| StandingsError::UnknownPlayer {
                    name: games.texts[text as usize].clone(),
                    round,
                })
            };
            let (w, b) = (index(g.white)?, index(g.black)?);
            if w == b {
                return Err(StandingsError::OnBothSides {
                    name: players[w].clone(),
                    round,
                });
            }
            let wp = g.outcome.white_points();
            t.points[w][b] += wp;
            t.points[b][w] += 1.0 - wp;
            t.count[w][b] += 1;
            t.count[b][w] += 1;
            t.wdl[w][b].add(wp);
            t.wdl[b][w].add(1.0 - wp);
        }
        Ok(t)
    }

    /// Each player's wins, draws and losses against everyone.
    fn totals(&self) -> Vec<Wdl> {
        self.wdl
            .iter()
            .map(|row| {
                row.iter().fold(Wdl::default(), |a, w| Wdl {
                    wins: a.wins + w.wins,
                    draws: a.draws + w.draws,
                    losses: a.losses + w.losses,
                })
            })
            .collect()
    }
}

/// Refuses players the standings cannot print or fit: more than [`MAX_PLAYERS`], a name
/// longer than a PGN tag holds.
fn check_players(players: &[String]) -> Result<(), StandingsError> {
    if players.len() > MAX_PLAYERS {
        return Err(StandingsError::TooManyPlayers(players.len()));
    }
    if let Some(name) = players
        .iter()
        .find(|p| p.chars().count() > MAX_STRING_CHARS)
    {
        return Err(StandingsError::LongName {
            name: name.clone(),
            chars: name.chars().count(),
        });
    }
    Ok(())
}

/// Players by rank: rating first (an unbounded player above or below all, as it won or lost
/// everything), then the order given.
fn rank(ratings: &[Rating], totals: &[Wdl]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..ratings.len()).collect();
    order.sort_by(|&a, &b| {
        let key = |i: usize| {
            ratings[i].elo.unwrap_or(if totals[i].points() > 0.0 {
                f64::INFINITY
            } else {
                f64::NEG_INFINITY
            })
        };
        key(b).total_cmp(&key(a)).then(a.cmp(&b))
    });
    order
}

impl Standings {
    /// The standings of `games` among `players`; `anchor` fixes one player's rating
    /// (name, Elo).
    pub fn new(
        players: Vec<String>,
        games: impl Into<GameList>,
        anchor: Option<(&str, f64)>,
    ) -> Result<Standings, StandingsError> {
        let games = games.into();
        check_players(&players)?;
        let tally = Tally::of(&players, &games)?;
        let anchor = match anchor {
            None => None,
            Some((name, elo)) => {
                let i = players.iter().position(|p| p == name).ok_or_else(|| {
                    StandingsError::UnknownAnchor(name.to_string(), players.join(", "))
                })?;
                Some((i, elo))
            }
        };
        let ratings = fit_ratings(&tally.points, &tally.count, anchor)?;
        let totals = tally.totals();
        let order = rank(&ratings, &totals);
        Ok(Standings {
            players,
            games,
            points: tally.points,
            count: tally.count,
            wdl: tally.wdl,
            totals,
            ratings,
            anchor,
            order,
        })
    }

    /// The standings of games read from PGN: the players in the order they first play when
    /// the games are taken by round (games without a round number after the others, in the
    /// order given), so that the slices of a tournament give its players in its order.
    pub fn from_games(
        games: impl Into<GameList>,
        anchor: Option<(&str, f64)>,
    ) -> Result<Standings, StandingsError> {
        let mut games = games.into();
        games.sort_by_round();
        let players = games.players();
        if players.len() > MAX_PLAYERS {
            return Err(StandingsError::TooManyPlayers(players.len()));
        }
        Standings::new(players, games, anchor)
    }

    /// The players in groups that met (directly or through others), each group in the
    /// players' order: one group when every two players are linked by games. Ratings are on
    /// one scale within a group only; between groups they say nothing.
    pub fn groups(&self) -> Vec<Vec<String>> {
        let n = self.players.len();
        let mut group = vec![usize::MAX; n];
        let mut groups = Vec::new();
        for first in 0..n {
            if group[first] != usize::MAX {
                continue;
            }
            let id = groups.len();
            let mut members = Vec::new();
            let mut todo = vec![first];
            group[first] = id;
            while let Some(i) = todo.pop() {
                members.push(i);
                for (j, g) in group.iter_mut().enumerate() {
                    if *g == usize::MAX && (self.count[i][j] > 0 || self.count[j][i] > 0) {
                        *g = id;
                        todo.push(j);
                    }
                }
            }
            members.sort_unstable();
            groups.push(members.iter().map(|&i| self.players[i].clone()).collect());
        }
        groups
    }

    /// Pairings with games: (i, j, i's result against j, the Elo difference).
    pub fn pairings(&self) -> Vec<(usize, usize, Wdl, Option<EloEstimate>)> {
        let n = self.players.len();
        let mut out = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                if self.count[i][j] > 0 {
                    out.push((i, j, self.wdl[i][j], elo_difference(self.wdl[i][j])));
                }
            }
        }
        out
    }

    /// How many games ended each way.
    pub fn endings(&self) -> BTreeMap<String, u32> {
        let mut out = BTreeMap::new();
        for g in &self.games.games {
            let key = self.games.endings[g.ending as usize]
                .as_ref()
                .map_or("not recorded".to_string(), |t| t.category());
            *out.entry(key).or_default() += 1;
        }
        out
    }

    /// The games lost by a forfeit.
    pub fn forfeits(&self) -> Vec<GameSummary> {
        self.games
            .games
            .iter()
            .filter(|g| {
                self.games.endings[g.ending as usize]
                    .as_ref()
                    .is_some_and(|t| t.is_forfeit())
            })
            .map(|g| self.games.unpack(g))
            .collect()
    }

    fn anchor_text(&self) -> String {
        match self.anchor {
            Some((i, elo)) => format!("anchored at {} = {elo}", self.players[i]),
            None => "relative to the mean (no anchor)".to_string(),
        }
    }

    /// The standings as text: the crosstable (ranked; a cell is the row player's points
    /// against the column player's, `3:1`), ratings, pairings, endings and forfeits.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        self.write_crosstable(&mut out);
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "A cell is the row player's points against the column player's. Ratings: \
             Bradley-Terry fit, 95 % margins, {}.",
            self.anchor_text()
        );
        let _ = writeln!(out);
        self.write_pairings(&mut out);
        let _ = writeln!(out);
        self.write_endings(&mut out);
        out
    }

    /// The width of the name column: the longest name, at least 6.
    fn name_width(&self) -> usize {
        self.players
            .iter()
            .map(|p| p.len())
            .max()
            .unwrap_or(0)
            .max(6)
    }

    /// A crosstable cell: `i`'s points against `j`'s (`3:1`), `-` on the diagonal, `.` where
    /// they did not meet.
    fn cell(&self, i: usize, j: usize) -> String {
        if i == j {
            "-".into()
        } else if self.count[i][j] == 0 {
            ".".into()
        } else {
            let p = self.points[i][j];
            format!(
                "{}:{}",
                fmt_points(p),
                fmt_points(self.count[i][j] as f64 - p)
            )
        }
    }

    /// A player's rating as the crosstable prints it: `1500 ± 80`, `1500 (anchor)`, or why
    /// there is none.
    fn rating_text(&self, i: usize) -> String {
        let t = self.totals[i];
        match (self.ratings[i].elo, self.ratings[i].margin) {
            (Some(e), Some(_)) if Some(i) == self.anchor.map(|a| a.0) => {
                format!("{e:.0} (anchor)")
            }
            (Some(e), Some(m)) => format!("{e:.0} ± {m:.0}"),
            _ if t.games() == 0 => "no games".into(),
            _ if t.wins == t.games() => "unbounded (won all)".into(),
            _ if t.losses == t.games() => "unbounded (lost all)".into(),
            _ => "unbounded".into(),
        }
    }

    /// The ranked crosstable: a header, then a row per player with its cells, points, games,
    /// score and rating.
    fn write_crosstable(&self, out: &mut String) {
        let n = self.players.len();
        let width = self.name_width();
        let cw = (0..n)
            .flat_map(|i| (0..n).map(move |j| (i, j)))
            .map(|(i, j)| self.cell(i, j).len())
            .max()
            .unwrap_or(1)
            .max(3);
        let _ = write!(out, "{:>3}  {:<width$}", "#", "player");
        for c in 1..=n {
            let _ = write!(out, "  {c:>cw$}");
        }
        let _ = writeln!(
            out,
            "  {:>7}  {:>5}  {:>6}  {:>13}",
            "points", "games", "score", "Elo (95 %)"
        );
        for (rank, &i) in self.order.iter().enumerate() {
            let _ = write!(out, "{:>3}  {:<width$}", rank + 1, self.players[i]);
            for &j in &self.order {
                let _ = write!(out, "  {:>cw$}", self.cell(i, j));
            }
            let t = self.totals[i];
            let _ = writeln!(
                out,
                "  {:>7}  {:>5}  {:>5.1}%  {:>13}",
                fmt_points(t.points()),
                t.games(),
                100.0 * t.score().unwrap_or(0.0),
                self.rating_text(i)
            );
        }
    }

    /// Every pairing from its first player's view: wins, draws, losses, score, Elo.
    fn write_pairings(&self, out: &mut String) {
        let width = self.name_width();
        let _ = writeln!(out, "Pairings (first player's view):");
        for (i, j, w, e) in self.pairings() {
            let _ = writeln!(
                out,
                "  {:<width$}  vs  {:<width$}  +{} ={} -{}  {:>5.1}%  {}",
                self.players[i],
                self.players[j],
                w.wins,
                w.draws,
                w.losses,
                100.0 * e.map_or(0.0, |e| e.score),
                describe_elo(w)
            );
        }
    }

    /// The count of each kind of ending, then every forfeit with its reason.
    fn write_endings(&self, out: &mut String) {
        let endings: Vec<String> = self
            .endings()
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        let _ = writeln!(out, "Endings: {}", endings.join(", "));
        for g in self.forfeits() {
            let round = g.round.map_or("?".to_string(), |r| r.to_string());
            let _ = writeln!(
                out,
                "  game {round} {} - {}: {} {}",
                g.white,
                g.black,
                g.outcome.pgn(),
                g.termination
                    .as_ref()
                    .map_or(String::new(), |t| t.to_string())
            );
        }
    }

    /// The standings as JSON: `players` (ranked: name, games, wins, draws, losses, points,
    /// elo, margin), `crosstable` (in the given order: name, points and games against each),
    /// `pairings` (wins, draws, losses, score, elo, margin, low, high; `null` where
    /// unbounded), `terminations` (counts), `games`.
    pub fn to_json(&self) -> Value {
        let mut v = self.summary_json();
        v["games"] = self.games.iter().map(|g| game_json(&g)).collect();
        v
    }

    /// [`Standings::to_json`] with the fields of `extra` added, written as pretty JSON (the
    /// text `serde_json::to_string_pretty` gives) one game at a time: the games of a large
    /// PGN file never stand in memory as JSON values.
    pub fn write_json(&self, extra: Value, out: &mut impl std::io::Write) -> std::io::Result<()> {
        let mut v = self.summary_json();
        if let (Value::Object(map), Value::Object(more)) = (&mut v, extra) {
            map.extend(more);
        }
        v["games"] = Value::Null;
        let text = serde_json::to_string_pretty(&v)?;
        let (before, after) = text
            .split_once("\n  \"games\": null")
            .expect("the games field is written at the top level");
        write!(out, "{before}\n  \"games\": ")?;
        if self.games.is_empty() {
            out.write_all(b"[]")?;
        }
        for (i, g) in self.games.iter().enumerate() {
            out.write_all(if i == 0 { b"[\n    " } else { b",\n    " })?;
            let item = serde_json::to_string_pretty(&game_json(&g))?;
            out.write_all(item.replace('\n', "\n    ").as_bytes())?;
        }
        if !self.games.is_empty() {
            out.write_all(b"\n  ]")?;
        }
        writeln!(out, "{after}")
    }

    /// The JSON of [`Standings::to_json`] without the games.
    fn summary_json(&self) -> Value {
        json!({
            "anchor": self.anchor.map(|(i, elo)| json!({"player": self.players[i], "elo": elo})),
            "players": self.order.iter().map(|&i| json!({
                "name": self.players[i],
                "games": self.totals[i].games(),
                "wins": self.totals[i].wins,
                "draws": self.totals[i].draws,
                "losses": self.totals[i].losses,
                "points": self.totals[i].points(),
                "elo": self.ratings[i].elo,
                "margin": self.ratings[i].margin,
            })).collect::<Vec<_>>(),
            "crosstable": (0..self.players.len()).map(|i| json!({
                "name": self.players[i],
                "points": self.points[i],
                "games": self.count[i],
            })).collect::<Vec<_>>(),
            "pairings": self.pairings().iter().map(|(i, j, w, e)| json!({
                "player": self.players[*i],
                "opponent": self.players[*j],
                "wins": w.wins, "draws": w.draws, "losses": w.losses,
                "score": w.score(),
                "elo": e.and_then(|e| finite(e.elo)),
                "margin": e.and_then(|e| finite(e.margin)),
                "low": e.and_then(|e| finite(e.low)),
                "high": e.and_then(|e| finite(e.high)),
            })).collect::<Vec<_>>(),
            "terminations": self.endings(),
        })
    }
}

/// One game in the standings' JSON.
fn game_json(g: &GameSummary) -> Value {
    json!({
        "round": g.round,
        "white": g.white,
        "black": g.black,
        "opening": g.opening,
        "result": g.outcome.pgn(),
        "termination": g.termination,
        "plies": g.plies,
    })
}

/// Points as a table prints them: `3`, `2.5`.
pub fn fmt_points(p: f64) -> String {
    if p.fract() == 0.0 {
        format!("{p:.0}")
    } else {
        format!("{p:.1}")
    }
}

/// JSON has no infinity: `null` for an unbounded value.
fn finite(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(round: usize, white: &str, black: &str, outcome: Outcome) -> GameSummary {
        GameSummary {
            round: Some(round),
            white: white.into(),
            black: black.into(),
            opening: "o".into(),
            outcome,
            termination: Some(Termination::Checkmate),
            plies: 10,
        }
    }

    /// Games as a schedule lists them: `"2 b-a 1-0"` is round 2, b (White) against a, and the
    /// result as PGN writes it.
    fn games(schedule: &[&str]) -> Vec<GameSummary> {
        schedule
            .iter()
            .map(|line| {
                let fields: Vec<&str> = line.split(' ').collect();
                let (white, black) = fields[1].split_once('-').expect("white-black");
                let outcome = Outcome::from_pgn(fields[2]).expect("a PGN result");
                game(fields[0].parse().expect("a round"), white, black, outcome)
            })
            .collect()
    }

    #[test]
    fn crosstable_cells_are_scores_not_fractions() {
        let games = games(&["1 a-b 1-0", "2 b-a 1-0", "3 a-c 1/2-1/2", "4 c-a 1-0"]);
        let s = Standings::new(vec!["a".into(), "b".into(), "c".into()], games, None).unwrap();
        let text = s.to_text();
        // a scored 1 of 2 against b: "1:1", never "1/2", which reads as a draw.
        assert!(text.contains("1:1"), "{text}");
        assert!(
            text.contains("0.5:1.5") && text.contains("1.5:0.5"),
            "{text}"
        );
        assert!(!text.contains("1/2"), "{text}");
        assert!(!text.contains("inf") && !text.contains("± 0 "), "{text}");
        assert!(text.contains("Endings: checkmate 4"), "{text}");
        let v = s.to_json();
        assert_eq!(v["crosstable"][0]["points"][1], 1.0);
        assert_eq!(v["pairings"][0]["player"], "a");
    }

    #[test]
    fn players_from_pgn_come_in_round_order() {
        let games = games(&["3 c-a 1/2-1/2", "1 a-b 1/2-1/2", "2 b-c 1/2-1/2"]);
        let s = Standings::from_games(games, Some(("b", 1500.0))).unwrap();
        assert_eq!(s.players, ["a", "b", "c"]);
        assert_eq!(s.ratings[1].elo, Some(1500.0));
        let e = Standings::from_games(Vec::new(), Some(("z", 0.0))).unwrap_err();
        assert!(e.to_string().contains("'z'"), "{e}");
    }

    #[test]
    fn names_as_long_as_pgn_allows_print_and_longer_ones_are_refused() {
        let long = "n".repeat(MAX_STRING_CHARS);
        let games = games(&["1 a-b 1-0", "2 b-a 1/2-1/2"]);
        let renamed: Vec<GameSummary> = games
            .iter()
            .cloned()
            .map(|mut g| {
                for name in [&mut g.white, &mut g.black] {
                    if name == "a" {
                        *name = long.clone();
                    }
                }
                g
            })
            .collect();
        let s = Standings::from_games(renamed.clone(), None).unwrap();
        assert!(s.to_text().contains(&long));
        let longer = format!("{long}n");
        let e = Standings::new(vec![longer, "b".into()], Vec::new(), None).unwrap_err();
        assert!(e.to_string().contains("256 characters"), "{e}");
        // 65,536 characters: refused, never a panic of the crosstable's formatting.
        let huge = "h".repeat(65_536);
        assert!(Standings::new(vec![huge, "b".into()], Vec::new(), None).is_err());
        let mut own = games[0].clone();
        own.black = "a".into();
        let e = Standings::from_games(vec![own], None).unwrap_err();
        assert!(e.to_string().contains("on both sides"), "{e}");
    }

    #[test]
    fn json_written_game_by_game_is_the_json_of_the_standings() {
        let s = Standings::new(
            vec!["a".into(), "b".into()],
            games(&["1 a-b 1-0", "2 b-a 1/2-1/2"]),
            None,
        )
        .unwrap();
        let extra = json!({"files": ["x.pgn"], "zzz": 1});
        let mut expected = s.to_json();
        expected["files"] = json!(["x.pgn"]);
        expected["zzz"] = json!(1);
        let mut out = Vec::new();
        s.write_json(extra.clone(), &mut out).unwrap();
        let expected = serde_json::to_string_pretty(&expected).unwrap() + "\n";
        assert_eq!(String::from_utf8(out).unwrap(), expected);
        let none = Standings::new(vec!["a".into()], GameList::new(), None).unwrap();
        let mut out = Vec::new();
        none.write_json(extra, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("\"games\": []"), "{text}");
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap()["zzz"], 1);
    }
}
