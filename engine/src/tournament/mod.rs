//! Engine-versus-engine play and the arithmetic of ratings: the library behind
//! `kempelen tournament` and the "Elo per feature" table (`docs/ELO.md`, `docs/TOURNAMENT.md`).
//!
//! - [`game`]: one game between two [`crate::Engine`]s at fixed nodes, fixed depth or a clock,
//!   from an opening, adjudicated by the rules and a move cap; the game as PGN.
//! - [`player`]: who plays: native profiles, reference variants with one feature off, external
//!   UCI and xboard engines ([`external`]).
//! - [`openings`]: opening sets as EPD text.
//! - [`rating`]: score to Elo with a 95 % margin, Bradley-Terry ratings of a round robin.
//! - [`event`]: a whole tournament: the schedule of a round robin or gauntlet, its games
//!   played several at a time, the standings.
//!
//! One game of the reference against itself at two plies a move:
//!
//! ```
//! use kempelen_engine::tournament::{GameSettings, MoveLimit, Opening, play_game};
//! use kempelen_engine::{NativeEngine, Profile};
//! let (mut a, mut b) = (NativeEngine::new(Profile::Reference), NativeEngine::new(Profile::Reference));
//! let settings = GameSettings { limit: MoveLimit::Depth(2), max_plies: 20 };
//! let record = play_game(("a", &mut a), ("b", &mut b), &Opening::startpos(), &settings);
//! assert!(record.moves.len() <= 20);
//! ```

pub mod event;
pub mod external;
pub mod game;
pub mod openings;
pub mod player;
pub mod rating;

pub use event::{Pairing, Standings, forfeits, play_all, play_scheduled, schedule};
pub use game::{
    GameRecord, GameSettings, MoveLimit, Opening, Outcome, PgnTags, Termination, play_game, to_pgn,
};
pub use openings::parse_openings;
pub use player::{PlayerKind, PlayerSpec, ReferenceVariant, VARIANTS, Variant, variant_features};
pub use rating::{
    EloEstimate, Rating, RatingError, Wdl, elo_difference, elo_from_score, fit_ratings,
};

/// Errors of tournament set-up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TournamentError {
    /// A player spec names nothing Kempelen can run.
    #[error("bad player '{spec}': {reason}")]
    BadPlayer {
        /// The spec as given.
        spec: String,
        /// Why it was refused.
        reason: String,
    },
    /// An opening line is malformed.
    #[error("{place}: {reason}")]
    BadOpening {
        /// `source:line`.
        place: String,
        /// What is wrong.
        reason: String,
    },
}
