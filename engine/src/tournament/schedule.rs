//! The schedule of a tournament: which players meet, with which colours and opening, in which
//! round; and its slices ([`Shard`]), so that the games can be spread over several machines
//! and their PGN files merged afterwards (`kempelen ratings`).
//!
//! The schedule depends only on the number of players, the format, the games per pairing and
//! the number of openings, so every machine computes the same one. Pairings come in the order
//! of the players (1-2, 1-3, ..., 2-3, ...; a gauntlet only 1-k); game `k` of a pairing plays
//! opening `k / 2` (round the set), the first player White in even games. Rounds are numbered
//! from 1 across the whole schedule, in every slice the same.

use std::fmt;
use std::str::FromStr;

/// Who meets whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// Everyone meets everyone.
    RoundRobin,
    /// The first player meets each of the others; the others do not meet each other.
    Gauntlet,
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::RoundRobin => "round robin",
            Format::Gauntlet => "gauntlet",
        })
    }
}

/// One scheduled game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// Its number in the whole schedule, from 1.
    pub round: usize,
    /// White's index among the players.
    pub white: usize,
    /// Black's index.
    pub black: usize,
    /// The opening's index in the set.
    pub opening: usize,
}

/// The whole schedule of a tournament, computed game by game and never held whole: a
/// schedule of 10^8 games costs a few words, and a slice of it ([`Schedule::slice`]) the
/// memory of its own games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    players: usize,
    format: Format,
    games: u32,
    openings: usize,
    pairs: usize,
    len: usize,
}

/// A schedule too long to count (more games than the host's word holds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the schedule has more games than this host can count ({pairs} pairings of {games})")]
pub struct ScheduleTooLong {
    /// Pairings.
    pub pairs: usize,
    /// Games per pairing.
    pub games: u32,
}

impl Schedule {
    /// The schedule of `players` players (`games` per pairing, `openings` openings).
    pub fn new(
        players: usize,
        format: Format,
        games: u32,
        openings: usize,
    ) -> Result<Schedule, ScheduleTooLong> {
        let pairs = match format {
            Format::RoundRobin => {
                players / 2 * players.saturating_sub(1)
                    + (players % 2) * (players.saturating_sub(1) / 2)
            }
            Format::Gauntlet => players.saturating_sub(1),
        };
        let len = pairs
            .checked_mul(games as usize)
            .ok_or(ScheduleTooLong { pairs, games })?;
        Ok(Schedule {
            players,
            format,
            games,
            openings,
            pairs,
            len,
        })
    }

    /// Games in the whole schedule.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the schedule has no game (fewer than two players).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The players of pairing `p` (from 0, in the order of the players: 1-2, 1-3, ..., 2-3).
    fn pair(&self, p: usize) -> (usize, usize) {
        if self.format == Format::Gauntlet {
            return (0, p + 1);
        }
        let (mut i, mut first) = (0, 0);
        // Player i meets the players - 1 - i after it.
        while first + (self.players - 1 - i) <= p {
            first += self.players - 1 - i;
            i += 1;
        }
        (i, i + 1 + (p - first))
    }

    /// The game of `round` (from 1), if the schedule has it.
    pub fn game(&self, round: usize) -> Option<Pairing> {
        if round == 0 || round > self.len {
            return None;
        }
        let index = round - 1;
        let games = self.games as usize;
        let (i, j) = self.pair(index / games);
        let k = index % games;
        let (white, black) = if k % 2 == 0 { (i, j) } else { (j, i) };
        Some(Pairing {
            round,
            white,
            black,
            opening: (k / 2) % self.openings.max(1),
        })
    }

    /// Every game, in order.
    pub fn iter(&self) -> impl Iterator<Item = Pairing> + '_ {
        (1..=self.len).filter_map(|round| self.game(round))
    }

    /// The games of `shard` (all of them for `None`), in schedule order.
    pub fn slice(&self, shard: Option<Shard>) -> Slice {
        let shard = shard.unwrap_or(Shard { index: 1, count: 1 });
        Slice {
            schedule: *self,
            shard,
        }
    }
}

/// The whole schedule as a list of `players` players (`games` per pairing, `openings`
/// openings); [`Schedule`] gives the same games one at a time.
pub fn schedule(players: usize, format: Format, games: u32, openings: usize) -> Vec<Pairing> {
    Schedule::new(players, format, games, openings)
        .map(|s| s.iter().collect())
        .unwrap_or_default()
}

/// The games of one slice of a schedule, computed one at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slice {
    /// The whole schedule.
    pub schedule: Schedule,
    /// Which slice.
    pub shard: Shard,
}

impl Slice {
    /// Games in the slice.
    pub fn len(&self) -> usize {
        match self.schedule.len().checked_sub(self.shard.index) {
            Some(rest) => rest / self.shard.count + 1,
            None => 0,
        }
    }

    /// Whether the slice has no game.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `k`-th game of the slice (from 0).
    pub fn get(&self, k: usize) -> Option<Pairing> {
        if k >= self.len() {
            return None;
        }
        self.schedule.game(self.shard.index + k * self.shard.count)
    }

    /// The slice's games, in order.
    pub fn iter(&self) -> impl Iterator<Item = Pairing> + '_ {
        (0..self.len()).filter_map(|k| self.get(k))
    }
}

/// The K-th of N slices of a schedule: the games whose round leaves the remainder K - 1 when
/// divided by N (so every slice holds some games of every pairing, and the slices take about
/// the same time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// K, from 1.
    pub index: usize,
    /// N.
    pub count: usize,
}

impl Shard {
    /// Whether the game of `round` (from 1) belongs to this slice.
    pub fn contains(&self, round: usize) -> bool {
        (round - 1) % self.count == self.index - 1
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `K/N`, 1 <= K <= N.
    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = |why: &str| format!("shard '{text}': {why}");
        let (k, n) = text.split_once('/').ok_or_else(|| bad("expected K/N"))?;
        let k: usize = k.trim().parse().map_err(|_| bad("K is not a number"))?;
        let n: usize = n.trim().parse().map_err(|_| bad("N is not a number"))?;
        if n == 0 || k == 0 || k > n {
            return Err(bad("expected 1 <= K <= N"));
        }
        Ok(Shard { index: k, count: n })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_and_gauntlet() {
        let s = schedule(3, Format::RoundRobin, 4, 1);
        assert_eq!(s.len(), 12);
        assert_eq!(
            (s[0].white, s[0].black, s[1].white, s[1].black),
            (0, 1, 1, 0)
        );
        assert_eq!((s[4].white, s[4].black), (0, 2));
        assert_eq!(s.iter().map(|p| p.opening).max(), Some(0));
        let s = schedule(4, Format::Gauntlet, 2, 50);
        assert_eq!(s.len(), 6);
        assert!(s.iter().all(|p| p.white == 0 || p.black == 0));
        assert_eq!(schedule(3, Format::RoundRobin, 6, 2)[5].opening, 0);
        assert_eq!(schedule(3, Format::RoundRobin, 6, 5)[5].opening, 2);
    }

    #[test]
    fn a_gauntlet_pairs_only_the_first_player_and_swaps_colours_per_opening() {
        let s = schedule(3, Format::Gauntlet, 4, 3);
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
        let s = schedule(4, Format::RoundRobin, 6, 2);
        assert_eq!(s.len(), 36);
        assert_eq!(s[4].opening, 0);
    }

    #[test]
    fn shards_cover_the_schedule_once() {
        let whole = Schedule::new(4, Format::RoundRobin, 6, 10).unwrap();
        let all = schedule(4, Format::RoundRobin, 6, 10);
        let mut rounds: Vec<usize> = (1..=5)
            .flat_map(|k| {
                let shard: Shard = format!("{k}/5").parse().unwrap();
                whole
                    .slice(Some(shard))
                    .iter()
                    .map(|p| p.round)
                    .collect::<Vec<_>>()
            })
            .collect();
        rounds.sort();
        assert_eq!(rounds, (1..=all.len()).collect::<Vec<_>>());
        let first: Shard = "1/5".parse().unwrap();
        assert_eq!(whole.slice(Some(first)).get(1).unwrap().round, 6);
        for bad in ["0/3", "4/3", "1/0", "x/2", "3", "1/2/3"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    /// The schedule as a list, pairing by pairing, as the module's header describes it.
    fn listed(players: usize, format: Format, games: u32, openings: usize) -> Vec<Pairing> {
        let mut out = Vec::new();
        for i in 0..players {
            for j in i + 1..players {
                if format == Format::Gauntlet && i > 0 {
                    continue;
                }
                for k in 0..games as usize {
                    let (white, black) = if k % 2 == 0 { (i, j) } else { (j, i) };
                    let (round, opening) = (out.len() + 1, (k / 2) % openings.max(1));
                    out.push(Pairing {
                        round,
                        white,
                        black,
                        opening,
                    });
                }
            }
        }
        out
    }

    #[test]
    fn games_computed_one_at_a_time_are_the_listed_schedule() {
        for players in 0..7 {
            for format in [Format::RoundRobin, Format::Gauntlet] {
                for games in [1, 2, 5] {
                    let s = Schedule::new(players, format, games, 3).unwrap();
                    let list = listed(players, format, games, 3);
                    assert_eq!(s.iter().collect::<Vec<_>>(), list);
                    assert_eq!(s.len(), list.len());
                    for n in 1..5 {
                        for k in 1..=n {
                            let shard = Shard { index: k, count: n };
                            let slice = s.slice(Some(shard));
                            let expected: Vec<Pairing> = list
                                .iter()
                                .filter(|p| shard.contains(p.round))
                                .copied()
                                .collect();
                            assert_eq!(slice.iter().collect::<Vec<_>>(), expected);
                            assert_eq!(slice.len(), expected.len());
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_slice_of_a_huge_schedule_costs_only_its_games() {
        // 4,294,967,295 games per pairing, a hundred million slices: the schedule is counted,
        // not listed, and the last slice holds the games whose round ends in ...00.
        let s = Schedule::new(3, Format::RoundRobin, u32::MAX, 50).unwrap();
        assert_eq!(s.len(), 3 * u32::MAX as usize);
        let shard = Shard {
            index: 100_000_000,
            count: 100_000_000,
        };
        let slice = s.slice(Some(shard));
        assert_eq!(slice.len(), s.len() / 100_000_000);
        let last = slice.get(slice.len() - 1).unwrap();
        assert_eq!(last.round % 100_000_000, 0);
        assert_eq!((last.white, last.black), (2, 1));
        assert!(Schedule::new(usize::MAX / 2, Format::Gauntlet, 3, 1).is_err());
    }
}
