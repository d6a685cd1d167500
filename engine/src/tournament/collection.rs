//! Games gathered from PGN texts for their standings (`kempelen ratings`, the slices of a
//! tournament played on several machines): each text read one game at a time, what cannot be
//! scored as given refused with its place (the same game twice, a player's game against
//! itself), unfinished games counted and left out.

use super::pgn::{PgnError, PgnGame, games};
use super::setup::parse_anchor;
use super::table::{GameList, GameSummary, Standings, StandingsError};
use std::collections::HashMap;
use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;

/// The games of several PGN texts.
#[derive(Debug, Default)]
pub struct PgnCollection {
    /// The finished games.
    games: GameList,
    /// Games without a result (`*`).
    unfinished: usize,
    /// The texts read, by name.
    sources: Vec<String>,
    /// Each game with a round seen so far, by a 128-bit hash of its event, site, round and
    /// players: (source, line) of its first appearance.
    seen: HashMap<(u64, u64), (u32, u32)>,
    /// The two hashes' keys.
    hashers: (RandomState, RandomState),
}

/// Standings that cannot be made from the collection.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CollectionError {
    /// No finished game.
    #[error("no finished games in {sources} ({unfinished} unfinished)")]
    NoGames {
        /// The texts read.
        sources: String,
        /// Games without a result.
        unfinished: usize,
    },
    /// The anchor is refused.
    #[error(transparent)]
    Anchor(#[from] super::error::TournamentError),
    /// The standings are refused.
    #[error(transparent)]
    Standings(#[from] StandingsError),
}

impl PgnCollection {
    /// No games yet.
    pub fn new() -> PgnCollection {
        PgnCollection::default()
    }

    /// Reads the games of `text` (named `source` in errors).
    pub fn add(&mut self, text: &str, source: &str) -> Result<(), PgnError> {
        let index = self.sources.len() as u32;
        self.sources.push(source.to_string());
        for g in games(text, source) {
            let g = g?;
            self.check_once(&g, index)?;
            match GameSummary::of_pgn(&g) {
                Some(s) => {
                    check_two_players(&g)?;
                    self.games.push(s);
                }
                None => self.unfinished += 1,
            }
        }
        Ok(())
    }

    /// Refuses a game read before (a slice given twice would count twice): the same event,
    /// site, round and players. Games without a round number are not compared.
    fn check_once(&mut self, g: &PgnGame, source: u32) -> Result<(), PgnError> {
        let round = g.tag("Round").unwrap_or("").trim();
        if round.is_empty() || round == "?" || round == "-" {
            return Ok(());
        }
        let tag = |t: &str| g.tag(t).unwrap_or("");
        let key = (tag("Event"), tag("Site"), round, tag("White"), tag("Black"));
        let hash = (self.hashers.0.hash_one(key), self.hashers.1.hash_one(key));
        let line = g.place.rsplit(':').next().and_then(|l| l.parse().ok());
        if let Some(&(s, l)) = self.seen.get(&hash) {
            return Err(PgnError {
                place: g.place.clone(),
                reason: format!(
                    "the same game (event, round, players) as {}:{l}; is a file given twice?",
                    self.sources[s as usize]
                ),
            });
        }
        self.seen.insert(hash, (source, line.unwrap_or(0)));
        Ok(())
    }

    /// Finished games read.
    pub fn finished(&self) -> usize {
        self.games.len()
    }

    /// Games without a result, left out.
    pub fn unfinished(&self) -> usize {
        self.unfinished
    }

    /// The standings of the finished games, with the players in the order they first play
    /// ([`Standings::from_games`]); `anchor` is `LABEL=ELO`.
    pub fn standings(mut self, anchor: Option<&str>) -> Result<Standings, CollectionError> {
        if self.games.is_empty() {
            return Err(CollectionError::NoGames {
                sources: self.sources.join(", "),
                unfinished: self.unfinished,
            });
        }
        let anchor = match anchor {
            Some(text) => {
                self.games.sort_by_round();
                let names = self.games.players();
                let names: Vec<&str> = names.iter().map(String::as_str).collect();
                Some(parse_anchor(text, &names)?)
            }
            None => None,
        };
        let anchor = anchor.as_ref().map(|(name, elo)| (name.as_str(), *elo));
        Ok(Standings::from_games(self.games, anchor)?)
    }
}

/// Refuses a finished game whose White and Black are the same player: a game against oneself
/// has no result to rate (it would count twice at 50 %).
fn check_two_players(g: &PgnGame) -> Result<(), PgnError> {
    let name = |t: &str| g.tag(t).unwrap_or("?");
    if name("White") != name("Black") {
        return Ok(());
    }
    let place = g
        .tag_pair("Black")
        .or(g.tag_pair("White"))
        .map_or_else(|| format!("{}:1", g.place), |t| t.place.clone());
    Err(PgnError {
        place,
        reason: format!(
            "White and Black are both '{}': a game against oneself cannot be rated",
            name("White")
        ),
    })
}
