//! A tournament as an event: the schedule of a round robin or a gauntlet ([`schedule`]), its
//! games played several at a time with fresh engines ([`play_all`]), and the standings
//! ([`Standings`]: the crosstable, win/draw/loss per pairing, ratings, rank order, endings).
//! `kempelen tournament` parses its arguments into these and prints the standings.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use super::game::{GameRecord, GameSettings, Opening, Outcome, Termination, play_game};
use super::player::PlayerSpec;
use super::rating::{EloEstimate, Rating, RatingError, Wdl, elo_difference, fit_ratings};

/// One scheduled game: its round (from 1), the players by index, the opening by index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// The round, from 1 (the game's number in the schedule).
    pub round: usize,
    /// Index of White.
    pub white: usize,
    /// Index of Black.
    pub black: usize,
    /// Index of the opening.
    pub opening: usize,
}

/// The schedule: every pairing (in a gauntlet only the first player's) plays `games` games,
/// the openings in order, each opening twice with the colours swapped.
pub fn schedule(players: usize, gauntlet: bool, games: u32, openings: usize) -> Vec<Pairing> {
    let mut pairs = Vec::new();
    for i in 0..players {
        for j in i + 1..players {
            if !gauntlet || i == 0 {
                pairs.push((i, j));
            }
        }
    }
    let mut schedule = Vec::new();
    for &(i, j) in &pairs {
        for k in 0..games as usize {
            let (white, black) = if k % 2 == 0 { (i, j) } else { (j, i) };
            schedule.push(Pairing {
                round: schedule.len() + 1,
                white,
                black,
                opening: (k / 2) % openings,
            });
        }
    }
    schedule
}

/// Plays one scheduled game with fresh engines; a player that fails to start forfeits.
pub fn play_scheduled(
    players: &[PlayerSpec],
    p: &Pairing,
    opening: &Opening,
    settings: &GameSettings,
    move_timeout: Duration,
) -> GameRecord {
    let (w, b) = (&players[p.white], &players[p.black]);
    let engines = (w.start(move_timeout), b.start(move_timeout));
    match engines {
        (Ok(mut we), Ok(mut be)) => play_game(
            (&w.label, we.as_mut()),
            (&b.label, be.as_mut()),
            opening,
            settings,
        ),
        (we, be) => {
            let (outcome, err) = match (we, be) {
                (Err(e), _) => (Outcome::BlackWins, e),
                (_, Err(e)) => (Outcome::WhiteWins, e),
                _ => unreachable!("one of them failed"),
            };
            GameRecord {
                white: w.label.clone(),
                black: b.label.clone(),
                opening: opening.clone(),
                moves: opening.moves.clone(),
                outcome,
                termination: Termination::EngineFailure {
                    reason: err.to_string(),
                },
                nodes: [0, 0],
            }
        }
    }
}

/// Plays every game of `schedule`, `concurrency` at a time; `finished` is called with each
/// game's index in the schedule and its record as soon as it ends. The records come back in
/// the schedule's order.
pub fn play_all(
    players: &[PlayerSpec],
    schedule: &[Pairing],
    openings: &[Opening],
    settings: &GameSettings,
    move_timeout: Duration,
    concurrency: usize,
    finished: &(dyn Fn(usize, &GameRecord) + Sync),
) -> Vec<GameRecord> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<GameRecord>>> = Mutex::new(vec![None; schedule.len()]);
    std::thread::scope(|scope| {
        for _ in 0..concurrency.min(schedule.len()) {
            scope.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(p) = schedule.get(k) else { break };
                    let record =
                        play_scheduled(players, p, &openings[p.opening], settings, move_timeout);
                    finished(k, &record);
                    results.lock().expect("results")[k] = Some(record);
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

/// What a tournament's games add up to. Indices are the players' (as in the schedule).
pub struct Standings {
    /// Points of player `i` against player `j`.
    pub points: Vec<Vec<f64>>,
    /// Games of player `i` against player `j`.
    pub games: Vec<Vec<u32>>,
    /// Wins, draws and losses of player `i` against player `j`.
    pub wdl: Vec<Vec<Wdl>>,
    /// How the games ended: a count per kind of ending (illegal moves and engine failures
    /// counted together whatever their reason).
    pub terminations: BTreeMap<String, u32>,
    /// The fitted ratings.
    pub ratings: Vec<Rating>,
    /// Wins, draws and losses of each player over all games.
    pub totals: Vec<Wdl>,
    /// The players by rank: rating first (an unrated player with points above every rated
    /// one, without points below), then the order given.
    pub order: Vec<usize>,
    /// Every pairing that played: the two players (`i < j`), `i`'s result and the Elo
    /// difference it gives.
    pub pairings: Vec<(usize, usize, Wdl, Option<EloEstimate>)>,
}

impl Standings {
    /// Adds up the `records` of `schedule` for `players` players; `anchor` fixes one player's
    /// rating (its index and Elo).
    pub fn new(
        players: usize,
        schedule: &[Pairing],
        records: &[GameRecord],
        anchor: Option<(usize, f64)>,
    ) -> Result<Standings, RatingError> {
        let n = players;
        let mut points = vec![vec![0.0f64; n]; n];
        let mut games = vec![vec![0u32; n]; n];
        let mut wdl = vec![vec![Wdl::default(); n]; n];
        let mut terminations: BTreeMap<String, u32> = BTreeMap::new();
        for (p, r) in schedule.iter().zip(records) {
            let wp = r.outcome.white_points();
            points[p.white][p.black] += wp;
            points[p.black][p.white] += 1.0 - wp;
            games[p.white][p.black] += 1;
            games[p.black][p.white] += 1;
            wdl[p.white][p.black].add(wp);
            wdl[p.black][p.white].add(1.0 - wp);
            let key = match &r.termination {
                Termination::IllegalMove { .. } => "illegal move".to_string(),
                Termination::EngineFailure { .. } => "engine failure".to_string(),
                t => t.to_string(),
            };
            *terminations.entry(key).or_default() += 1;
        }
        let ratings = fit_ratings(&points, &games, anchor)?;
        let totals: Vec<Wdl> = (0..n)
            .map(|i| {
                wdl[i].iter().fold(Wdl::default(), |a, w| Wdl {
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
        let mut pairings = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                if games[i][j] > 0 {
                    pairings.push((i, j, wdl[i][j], elo_difference(wdl[i][j])));
                }
            }
        }
        Ok(Standings {
            points,
            games,
            wdl,
            terminations,
            ratings,
            totals,
            order,
            pairings,
        })
    }
}

/// The games lost by forfeit (an illegal move, an engine failure, the time), with their
/// rounds.
pub fn forfeits<'a>(
    schedule: &[Pairing],
    records: &'a [GameRecord],
) -> Vec<(usize, &'a GameRecord)> {
    schedule
        .iter()
        .zip(records)
        .filter(|(_, r)| {
            matches!(
                r.termination,
                Termination::IllegalMove { .. }
                    | Termination::EngineFailure { .. }
                    | Termination::TimeForfeit
            )
        })
        .map(|(p, r)| (p.round, r))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gauntlet_pairs_only_the_first_player_and_swaps_colours_per_opening() {
        let s = schedule(3, true, 4, 3);
        assert_eq!(s.len(), 8);
        assert!(s.iter().all(|p| p.white == 0 || p.black == 0));
        let first: Vec<(usize, usize, usize)> = s[..4]
            .iter()
            .map(|p| (p.white, p.black, p.opening))
            .collect();
        assert_eq!(first, [(0, 1, 0), (1, 0, 0), (0, 1, 1), (1, 0, 1)]);
        assert_eq!(
            s.iter().map(|p| p.round).collect::<Vec<_>>(),
            (1..=8).collect::<Vec<_>>()
        );
        // A round robin of four plays six pairings; openings wrap around.
        let s = schedule(4, false, 6, 2);
        assert_eq!(s.len(), 36);
        assert_eq!(s[4].opening, 0);
    }
}
