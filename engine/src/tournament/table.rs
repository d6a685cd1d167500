//! The standings of a set of games, whoever played them and wherever they come from (a
//! tournament just played, or PGN files read back): the crosstable, each player's points and
//! Bradley-Terry rating with its 95 % margin, every pairing's Elo difference, the count of each
//! kind of ending and the forfeits. As text for a terminal and as JSON.

use super::game::{GameRecord, Outcome, Termination};
use super::pgn::PgnGame;
use super::rating::{
    EloEstimate, Rating, RatingError, Wdl, describe_elo, elo_difference, fit_ratings,
};
use serde_json::{Value, json};
use std::collections::BTreeMap;
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

/// The standings of a set of games.
#[derive(Clone, Debug)]
pub struct Standings {
    /// The players, in the order given (crosstable rows and columns are ranked, JSON
    /// `crosstable` keeps this order).
    pub players: Vec<String>,
    /// The games.
    pub games: Vec<GameSummary>,
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
    /// The anchor names no player.
    #[error("the anchor '{0}' is not among the players ({1})")]
    UnknownAnchor(String, String),
    /// The fit failed.
    #[error(transparent)]
    Rating(#[from] RatingError),
}

impl Standings {
    /// The standings of `games` among `players`; `anchor` fixes one player's rating
    /// (name, Elo).
    pub fn new(
        players: Vec<String>,
        games: Vec<GameSummary>,
        anchor: Option<(&str, f64)>,
    ) -> Result<Standings, StandingsError> {
        let n = players.len();
        let index = |name: &str, round: Option<usize>| {
            players
                .iter()
                .position(|p| p == name)
                .ok_or_else(|| StandingsError::UnknownPlayer {
                    name: name.to_string(),
                    round,
                })
        };
        let mut points = vec![vec![0.0f64; n]; n];
        let mut count = vec![vec![0u32; n]; n];
        let mut wdl = vec![vec![Wdl::default(); n]; n];
        for g in &games {
            let (w, b) = (index(&g.white, g.round)?, index(&g.black, g.round)?);
            let wp = g.outcome.white_points();
            points[w][b] += wp;
            points[b][w] += 1.0 - wp;
            count[w][b] += 1;
            count[b][w] += 1;
            wdl[w][b].add(wp);
            wdl[b][w].add(1.0 - wp);
        }
        let anchor = match anchor {
            None => None,
            Some((name, elo)) => {
                let i = players.iter().position(|p| p == name).ok_or_else(|| {
                    StandingsError::UnknownAnchor(name.to_string(), players.join(", "))
                })?;
                Some((i, elo))
            }
        };
        let ratings = fit_ratings(&points, &count, anchor)?;
        let totals: Vec<Wdl> = wdl
            .iter()
            .map(|row| {
                row.iter().fold(Wdl::default(), |a, w| Wdl {
                    wins: a.wins + w.wins,
                    draws: a.draws + w.draws,
                    losses: a.losses + w.losses,
                })
            })
            .collect();
        let mut order: Vec<usize> = (0..n).collect();
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
        Ok(Standings {
            players,
            games,
            points,
            count,
            wdl,
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
        mut games: Vec<GameSummary>,
        anchor: Option<(&str, f64)>,
    ) -> Result<Standings, StandingsError> {
        games.sort_by_key(|g| g.round.unwrap_or(usize::MAX));
        let mut players: Vec<String> = Vec::new();
        for g in &games {
            for name in [&g.white, &g.black] {
                if !players.contains(name) {
                    players.push(name.clone());
                }
            }
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
                for j in 0..n {
                    if group[j] == usize::MAX && (self.count[i][j] > 0 || self.count[j][i] > 0) {
                        group[j] = id;
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
        for g in &self.games {
            let key = g
                .termination
                .as_ref()
                .map_or("not recorded".to_string(), |t| t.category());
            *out.entry(key).or_default() += 1;
        }
        out
    }

    /// The games lost by a forfeit.
    pub fn forfeits(&self) -> Vec<&GameSummary> {
        self.games
            .iter()
            .filter(|g| g.termination.as_ref().is_some_and(|t| t.is_forfeit()))
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
        let n = self.players.len();
        let width = self
            .players
            .iter()
            .map(|p| p.len())
            .max()
            .unwrap_or(0)
            .max(6);
        let cell = |i: usize, j: usize| -> String {
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
        };
        let cw = (0..n)
            .flat_map(|i| (0..n).map(move |j| (i, j)))
            .map(|(i, j)| cell(i, j).len())
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
                let _ = write!(out, "  {:>cw$}", cell(i, j));
            }
            let t = self.totals[i];
            let rating = match (self.ratings[i].elo, self.ratings[i].margin) {
                (Some(e), Some(_)) if Some(i) == self.anchor.map(|a| a.0) => {
                    format!("{e:.0} (anchor)")
                }
                (Some(e), Some(m)) => format!("{e:.0} ± {m:.0}"),
                _ if t.games() == 0 => "no games".into(),
                _ if t.wins == t.games() => "unbounded (won all)".into(),
                _ if t.losses == t.games() => "unbounded (lost all)".into(),
                _ => "unbounded".into(),
            };
            let _ = writeln!(
                out,
                "  {:>7}  {:>5}  {:>5.1}%  {:>13}",
                fmt_points(t.points()),
                t.games(),
                100.0 * t.score().unwrap_or(0.0),
                rating
            );
        }
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "A cell is the row player's points against the column player's. Ratings: \
             Bradley-Terry fit, 95 % margins, {}.",
            self.anchor_text()
        );
        let _ = writeln!(out);
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
        let _ = writeln!(out);
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
        out
    }

    /// The standings as JSON: `players` (ranked: name, games, wins, draws, losses, points,
    /// elo, margin), `crosstable` (in the given order: name, points and games against each),
    /// `pairings` (wins, draws, losses, score, elo, margin, low, high; `null` where
    /// unbounded), `terminations` (counts), `games`.
    pub fn to_json(&self) -> Value {
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
            "games": self.games.iter().map(|g| json!({
                "round": g.round,
                "white": g.white,
                "black": g.black,
                "opening": g.opening,
                "result": g.outcome.pgn(),
                "termination": g.termination,
                "plies": g.plies,
            })).collect::<Vec<_>>(),
        })
    }
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
}
