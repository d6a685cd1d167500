//! Kempelen's native chess engine.
//!
//! The engine is also the executable reference for the 8-bit ports: the `reference` search
//! profile implements `docs/ALGORITHM.md` exactly, so that the Z80 and 6502 builds reproduce its
//! best move, score and node count bit for bit. The `full` profile is the native engine at its
//! best, for people who play against it. Both run over the one legal move generator that also
//! serves perft and move parsing.
//!
//! Layout, one vocabulary item per file: [`square`], [`piece`], [`moves`], [`position`],
//! [`fen`], [`movegen`], [`san`], [`game`], [`game_pgn`], [`perft`](mod@perft), [`tables`], [`eval`], [`reference`](mod@reference),
//! [`full`], [`history`] (the historical profiles), [`engine`] (the backend trait), [`uci`]
//! (the protocol loop), [`bench`](mod@bench), [`tournament`] (games between engines, external
//! engine processes, ratings).
//!
//! A reference search as a port host would run it (fixed depth, deterministic node count):
//!
//! ```
//! use kempelen_engine::{Game, ReferenceLimits, reference};
//! let mut game = Game::default();
//! game.push_uci("e2e4").unwrap();
//! let limits = ReferenceLimits::depth(3);
//! let r = reference::search(game.position(), &game.reference_history(), limits);
//! assert_eq!(r.depth, 3);
//! assert_eq!(r.pv.first().copied(), r.best);
//! ```
//!
//! The same through the backend trait the command line uses:
//!
//! ```
//! use kempelen_engine::{Engine, Game, Limits, NativeEngine, Profile, SearchControl};
//! let mut engine: Box<dyn Engine> = Box::new(NativeEngine::new(Profile::Reference));
//! let r = engine.search(&Game::default(), &Limits::depth(2), &SearchControl::default()).unwrap();
//! assert!(r.best.is_some());
//! assert_eq!(engine.perft(&kempelen_engine::Position::startpos(), 2).unwrap(), 400);
//! ```

pub mod fen;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod piece;
pub mod position;
mod pv;
pub mod square;
pub mod tables;

pub use fen::{FenError, FenField, FenReason};
pub use movegen::GenMode;
pub use moves::{Move, MoveError, MoveList};
pub use perft::{divide, perft};
pub use position::{Position, START_FEN, Undo};
pub use square::Square;
pub mod bench;
pub mod engine;
pub mod eval;
pub mod full;
pub mod game;
pub mod game_pgn;
pub mod history;
pub mod native;
pub mod reference;
pub mod san;
pub mod time;
pub mod tournament;
pub mod tree;
pub mod uci;

pub use engine::{
    Engine, EngineClock, EngineError, EngineOption, INF, Limits, MATE, OptionKind, SearchControl,
    SearchInfo, SearchRequest, SearchResult, check_option, mate_in,
};
pub use game::{Game, GameStatus};
pub use game_pgn::GamePgnError;
pub use native::{NativeEngine, Profile};
pub use reference::{ReferenceLimits, ReferenceSearch};
