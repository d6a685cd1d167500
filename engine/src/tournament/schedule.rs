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

/// The whole schedule of `players` players (`games` per pairing, `openings` openings).
pub fn schedule(players: usize, format: Format, games: u32, openings: usize) -> Vec<Pairing> {
    let mut pairs = Vec::new();
    for i in 0..players {
        for j in i + 1..players {
            if format == Format::RoundRobin || i == 0 {
                pairs.push((i, j));
            }
        }
    }
    let mut out = Vec::new();
    for &(i, j) in &pairs {
        for k in 0..games as usize {
            let (white, black) = if k % 2 == 0 { (i, j) } else { (j, i) };
            out.push(Pairing {
                round: out.len() + 1,
                white,
                black,
                opening: (k / 2) % openings.max(1),
            });
        }
    }
    out
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

    /// The games of this slice, in schedule order.
    pub fn select(&self, schedule: &[Pairing]) -> Vec<Pairing> {
        schedule
            .iter()
            .filter(|p| self.contains(p.round))
            .copied()
            .collect()
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
        let all = schedule(4, Format::RoundRobin, 6, 10);
        let mut rounds: Vec<usize> = (1..=5)
            .flat_map(|k| {
                let shard: Shard = format!("{k}/5").parse().unwrap();
                shard.select(&all).into_iter().map(|p| p.round)
            })
            .collect();
        rounds.sort();
        assert_eq!(rounds, (1..=all.len()).collect::<Vec<_>>());
        let first: Shard = "1/5".parse().unwrap();
        assert_eq!(first.select(&all)[1].round, 6);
        for bad in ["0/3", "4/3", "1/0", "x/2", "3", "1/2/3"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
