//! Engine-versus-engine play and the arithmetic of ratings: the library behind
//! `kempelen tournament` and `kempelen ratings` and the "Elo per feature" table
//! (`docs/ELO.md`, `docs/TOURNAMENT.md`).
//!
//! - [`game`]: one game between two [`crate::Engine`]s at fixed nodes, fixed depth, a time
//!   per move or a clock ([`clock`]: time controls such as `40/7200`, host or emulated time),
//!   each side with its own limit if it has one, from an opening, adjudicated by the rules and
//!   a move cap; the game as PGN with each move's time.
//! - [`player`]: who plays: native profiles, reference variants with one feature off, external
//!   UCI and xboard engines ([`external`]), and the kinds a crate above supplies through
//!   [`PlayerKinds`] (the 8-bit builds, the adapted historical programs).
//! - [`openings`]: opening sets as EPD text.
//! - [`schedule`](mod@schedule): who meets whom in which round, and the slices of a schedule ([`Shard`]).
//! - [`setup`]: a tournament as a front end asks for it ([`Setup`]), checked into a
//!   [`Tournament`], and its report.
//! - [`run`]: a whole [`Tournament`], checked, then played N games at a time.
//! - [`pgn`]: PGN files read back, a game at a time; [`collection`]: the games of several
//!   PGN files for their standings; [`table`]: the standings of any set of games.
//! - [`rating`]: score to Elo with a 95 % margin, Bradley-Terry ratings of a round robin.
//!
//! One game of the reference against itself at two plies a move:
//!
//! ```
//! use kempelen_engine::tournament::{GameSettings, MoveLimit, Opening, Seat, play_game};
//! use kempelen_engine::{NativeEngine, Profile};
//! let (mut a, mut b) = (NativeEngine::new(Profile::Reference), NativeEngine::new(Profile::Reference));
//! let settings = GameSettings { limit: MoveLimit::Depth(2), max_plies: 20, ..GameSettings::default() };
//! let record = play_game(Seat::new("a", &mut a), Seat::new("b", &mut b), &Opening::startpos(), &settings);
//! assert!(record.moves.len() <= 20);
//! ```

pub mod clock;
pub mod collection;
mod error;
pub mod external;
pub mod game;
pub mod openings;
pub mod pgn;
pub mod player;
pub mod rating;
pub mod run;
pub mod schedule;
pub mod setup;
pub mod table;

pub use clock::{ClockMode, Period, SideClock, TimeControl, TimeControlError};
pub use collection::{CollectionError, PgnCollection};
pub use error::TournamentError;
pub use game::{
    GameRecord, GameSettings, MAX_DEPTH, MoveLimit, MoveStamp, Opening, Outcome, PgnTags, Seat,
    Termination, parse_movetime, pgn_tag_value, play_game, to_pgn,
};
pub use openings::parse_openings;
pub use pgn::{PgnError, PgnGame, PgnReader, PgnTag, games, read_pgn};
pub use player::{
    KindInfo, PlayerFactory, PlayerKind, PlayerKinds, PlayerSpec, ReferenceVariant, Supplied,
    VARIANTS, Variant, variant_features,
};
pub use rating::{
    EloEstimate, Rating, RatingError, Wdl, describe_elo, elo_difference, fit_ratings,
};
pub use run::{PlayedGame, Tournament};
pub use schedule::{Format, Pairing, Schedule, ScheduleTooLong, Shard, Slice, schedule};
pub use setup::{Planned, Setup};
pub use table::{GameSummary, Standings, StandingsError};
