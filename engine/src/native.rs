//! The native engine as an [`Engine`] backend, with its search profiles: `reference`
//! (exactly `docs/ALGORITHM.md`, what the 8-bit ports reproduce), `full` (the strongest
//! native search) and the historical programs of [`crate::history`]. UCI options: `Hash`
//! (megabytes, full profile) and `Profile`.

use crate::engine::{Engine, EngineError, EngineOption, OptionKind, SearchRequest, SearchResult};
use crate::full::{FullLimits, FullState};
use crate::history::{
    HistoryOptions, microchess, micromax, nimzo, salomon, sargon, shannon, tartan, turing,
    with_budget,
};
use crate::position::Position;
use crate::reference::ReferenceSearch;
use crate::time;
use std::fmt;
use std::str::FromStr;

/// Which search the native engine runs: the two native profiles and the historical ones
/// (`docs/history/`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// Exactly the reference algorithm of `docs/ALGORITHM.md`.
    Reference,
    /// The native engine at its best.
    Full,
    /// Turing's paper machine (docs/history/turing.md).
    Turing,
    /// Shannon's Type A strategy (docs/history/shannon.md).
    Shannon,
    /// Zwerschke's Tartan, plain minimax (docs/history/tartan.md).
    Tartan,
    /// Jennings's Microchess (docs/history/microchess.md).
    Microchess,
    /// Muller's micro-Max 4.8 (docs/history/micromax.md).
    Micromax,
    /// Sargon (Dan and Kathe Spracklen, 1978): docs/history/sargon.md.
    Sargon,
    /// The Salomon thesis program (TU Graz, 1992): docs/history/salomon.md.
    Salomon,
    /// The reference with Donninger's null move and zugzwang rules: docs/history/nimzo.md.
    Nimzo,
}

impl Profile {
    /// Every profile with its name, in the order the UCI option lists them.
    pub const ALL: &'static [(Profile, &'static str)] = &[
        (Profile::Full, "full"),
        (Profile::Reference, "reference"),
        (Profile::Turing, "turing"),
        (Profile::Shannon, "shannon"),
        (Profile::Tartan, "tartan"),
        (Profile::Microchess, "microchess"),
        (Profile::Micromax, "micromax"),
        (Profile::Sargon, "sargon"),
        (Profile::Salomon, "salomon"),
        (Profile::Nimzo, "nimzo"),
    ];

    /// The profile's name (as `--profile` and the UCI option take it).
    pub fn name(self) -> &'static str {
        Profile::ALL
            .iter()
            .find(|(p, _)| *p == self)
            .map(|(_, n)| *n)
            .expect("every profile is listed in Profile::ALL")
    }

    /// Whether this is one of the historical profiles.
    pub fn is_historical(self) -> bool {
        !matches!(self, Profile::Reference | Profile::Full)
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Profile {
    type Err = String;
    fn from_str(s: &str) -> Result<Profile, String> {
        let lower = s.trim().to_ascii_lowercase();
        Profile::ALL
            .iter()
            .find(|(_, n)| *n == lower)
            .map(|(p, _)| *p)
            .ok_or_else(|| {
                let names: Vec<&str> = Profile::ALL.iter().map(|(_, n)| *n).collect();
                format!(
                    "unknown profile '{s}' (expected one of: {})",
                    names.join(", ")
                )
            })
    }
}

/// Default transposition-table size of the full profile in megabytes.
pub const DEFAULT_HASH_MB: usize = 64;
/// Largest accepted `Hash` value.
pub const MAX_HASH_MB: usize = 4096;

/// The native engine.
pub struct NativeEngine {
    profile: Profile,
    hash_mb: usize,
    full: Option<FullState>,
    history: HistoryOptions,
}

impl NativeEngine {
    /// An engine running `profile`.
    pub fn new(profile: Profile) -> Self {
        NativeEngine {
            profile,
            hash_mb: DEFAULT_HASH_MB,
            full: None,
            history: HistoryOptions::default(),
        }
    }

    /// The active profile.
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// Switches the profile.
    pub fn set_profile(&mut self, profile: Profile) {
        self.profile = profile;
    }

    /// The settings of the historical profiles.
    pub fn history_options(&self) -> HistoryOptions {
        self.history
    }

    /// Changes the settings of the historical profiles.
    pub fn set_history_options(&mut self, options: HistoryOptions) {
        self.history = options;
    }

    /// Sets the transposition-table size of the full profile (megabytes).
    pub fn set_hash_mb(&mut self, mb: usize) {
        self.hash_mb = mb.clamp(1, MAX_HASH_MB);
        if let Some(full) = &mut self.full {
            full.resize(self.hash_mb);
        }
    }

    /// The full profile's tables, allocated on first use; a table the host cannot give is an
    /// error, not the end of the process.
    fn full_state(&mut self) -> Result<&mut FullState, EngineError> {
        if self.full.is_none() {
            let mb = self.hash_mb;
            let state = FullState::try_new(mb).map_err(|e| {
                EngineError::Backend(format!("cannot allocate the {mb} MB hash table: {e}"))
            })?;
            self.full = Some(state);
        }
        Ok(self.full.as_mut().expect("allocated above"))
    }
}

/// The name a native search reports for `id name`: Kempelen, its version and the profile or
/// variant (`reference`, `reference-no-killers`).
pub(crate) fn kempelen_name(search: impl fmt::Display) -> String {
    format!("Kempelen {} ({search})", env!("CARGO_PKG_VERSION"))
}

impl NativeEngine {
    /// The search of the engine's profile.
    fn search_profile(&mut self, request: SearchRequest<'_>) -> Result<SearchResult, EngineError> {
        let (game, limits, control) = (request.game, request.limits, request.control);
        let pos = game.position();
        match self.profile {
            Profile::Reference => Ok(ReferenceSearch::for_request(request)?.run()),
            Profile::Full => {
                let budget = time::budget(limits, pos.side());
                let fl = FullLimits {
                    depth: limits.depth,
                    nodes: limits.nodes,
                    soft_time: budget.soft,
                    hard_time: budget.hard,
                };
                let history = game.history64();
                let root_moves = &limits.searchmoves;
                Ok(self
                    .full_state()?
                    .search_moves(pos, &history, fl, root_moves, control))
            }
            Profile::Sargon => Ok(sargon::search(game, limits, control)),
            Profile::Salomon => Ok(salomon::search(game, limits, control)),
            Profile::Nimzo => Ok(nimzo::search(game, limits, control)),
            Profile::Turing => with_budget(game, limits, control, |pos, budget| {
                turing::search(pos, limits.depth, budget)
            }),
            Profile::Shannon => with_budget(game, limits, control, |pos, budget| {
                shannon::search(pos, limits.depth, budget)
            }),
            Profile::Tartan => with_budget(game, limits, control, |pos, budget| {
                tartan::search(pos, limits.depth, &self.history, budget)
            }),
            Profile::Microchess => with_budget(game, limits, control, |_, budget| {
                let formula = if self.history.microchess_printed_formula {
                    microchess::Formula::Printed
                } else {
                    microchess::Formula::Binary
                };
                microchess::search(game, budget, formula)
            }),
            Profile::Micromax => with_budget(game, limits, control, |pos, budget| {
                micromax::search(pos, limits.depth, budget)
            }),
        }
    }
}

impl Engine for NativeEngine {
    fn name(&self) -> String {
        kempelen_name(self.profile)
    }

    fn perft(&mut self, pos: &Position, depth: u32) -> Result<u64, EngineError> {
        Ok(crate::perft::perft(pos, depth))
    }

    /// Every profile honours `searchmoves`: it chooses among those root moves only. Where it
    /// chose none of them (a profile that promotes to a queen only, given underpromotions;
    /// Microchess, given a move its board does not make), the search fails with the reason:
    /// no move outside the list is played in its name.
    fn search_request(&mut self, request: SearchRequest<'_>) -> Result<SearchResult, EngineError> {
        let limits = request.limits;
        let pos = request.game.position();
        let result = self.search_profile(request)?;
        let chose_none = result.best.is_none_or(|m| !limits.allows(m));
        if !limits.searchmoves.is_empty() && chose_none && !pos.legal_moves().is_empty() {
            let moves: Vec<String> = limits.searchmoves.iter().map(|m| m.to_uci()).collect();
            return Err(EngineError::Unsupported(format!(
                "searchmoves {}: the {} profile chooses none of these moves (it promotes to a queen only, and Microchess neither castles nor takes en passant)",
                moves.join(" "),
                self.profile
            )));
        }
        Ok(result)
    }

    fn new_game(&mut self) -> Result<(), EngineError> {
        match &mut self.full {
            Some(full) => full.clear(),
            None if self.profile == Profile::Full => {
                self.full_state()?;
            }
            None => {}
        }
        Ok(())
    }

    fn options(&self) -> Vec<EngineOption> {
        vec![
            EngineOption {
                name: "Hash".into(),
                kind: OptionKind::Spin {
                    default: DEFAULT_HASH_MB as i64,
                    min: 1,
                    max: MAX_HASH_MB as i64,
                },
            },
            EngineOption {
                name: "Profile".into(),
                kind: OptionKind::Combo {
                    default: self.profile.to_string(),
                    choices: Profile::ALL.iter().map(|(_, n)| n.to_string()).collect(),
                },
            },
            EngineOption {
                name: "TartanStalemateFix".into(),
                kind: OptionKind::Check {
                    default: HistoryOptions::default().tartan_stalemate_fix,
                },
            },
            EngineOption {
                name: "TartanDepthFix".into(),
                kind: OptionKind::Check {
                    default: HistoryOptions::default().tartan_depth_fix,
                },
            },
            EngineOption {
                name: "MicrochessPrintedFormula".into(),
                kind: OptionKind::Check {
                    default: HistoryOptions::default().microchess_printed_formula,
                },
            },
        ]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        let invalid = |reason: String| EngineError::invalid_option(name, value, reason);
        match name.to_ascii_lowercase().as_str() {
            "hash" => {
                let mb: usize = value
                    .trim()
                    .parse()
                    .map_err(|_| invalid("not a number".into()))?;
                if !(1..=MAX_HASH_MB).contains(&mb) {
                    return Err(invalid(format!("must be between 1 and {MAX_HASH_MB}")));
                }
                // Allocate now, before the GUI's `isready` is answered, not on the clock of
                // the next move; a table the host cannot give is refused and the old one kept.
                let old = self.hash_mb;
                let refused = |e: std::collections::TryReserveError| {
                    invalid(format!(
                        "cannot allocate {mb} MB ({e}); the hash table stays at {old} MB"
                    ))
                };
                match &mut self.full {
                    Some(full) => full.try_resize(mb).map_err(refused)?,
                    None if self.profile == Profile::Full => {
                        self.full = Some(FullState::try_new(mb).map_err(refused)?);
                    }
                    None => {}
                }
                self.hash_mb = mb;
                Ok(())
            }
            "profile" => {
                self.profile = value.trim().parse().map_err(invalid)?;
                if self.profile == Profile::Full {
                    self.full_state()?;
                }
                Ok(())
            }
            "tartanstalematefix" => {
                self.history.tartan_stalemate_fix = crate::engine::check_option(name, value)?;
                Ok(())
            }
            "tartandepthfix" => {
                self.history.tartan_depth_fix = crate::engine::check_option(name, value)?;
                Ok(())
            }
            "microchessprintedformula" => {
                self.history.microchess_printed_formula = crate::engine::check_option(name, value)?;
                Ok(())
            }
            _ => Err(EngineError::UnknownOption(name.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table of `setoption name Hash` exists when the option is set (so before the GUI's
    /// `isready` is answered), not at the next `go`.
    #[test]
    fn setting_hash_allocates_the_table_at_once() {
        let mut engine = NativeEngine::new(Profile::Full);
        assert!(engine.full.is_none());
        engine.set_option("Hash", "2").unwrap();
        let bytes = engine.full.as_ref().map(FullState::table_bytes);
        assert!(
            bytes.is_some_and(|b| b > 1 << 20 && b <= 2 << 20),
            "{bytes:?}"
        );
        engine.set_option("Hash", "1").unwrap();
        let bytes = engine.full.as_ref().map(FullState::table_bytes);
        assert!(
            bytes.is_some_and(|b| b <= 1 << 20 && b > 1 << 19),
            "{bytes:?}"
        );
        // The reference profile has no table: nothing to allocate until it switches.
        let mut reference = NativeEngine::new(Profile::Reference);
        reference.set_option("Hash", "1").unwrap();
        assert!(reference.full.is_none());
        reference.set_option("Profile", "full").unwrap();
        assert!(reference.full.is_some());
    }
}
