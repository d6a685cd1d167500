//! Engine adaptors: a console chess program of the 1970s driven as a UCI engine.
//!
//! An adaptor file (TOML) tells Kempelen how to run a program and talk to it: the images and
//! the machine (a personality or Kempelen's own machine), the keys that start a new game,
//! enter the opponent's move, set the depth or a position, and ask for the program's move, and
//! a regular expression that finds the program's reply in its console text. `kempelen uci
//! --program FILE.toml` then plays through it; every time figure is emulated time at the
//! machine's clock. `adaptors/` holds files for Microchess and Sargon (which name where to get
//! the programs, never the programs) and the project's own Z80 console front end.
//!
//! A turn: the keys are queued, the machine runs until the program waits for input
//! ([`StopReason::InputWait`](kempelen_emulator::StopReason::InputWait)), and the reply is read
//! from what it printed in that turn.
//!
//! The parts, in the order a game uses them: [`description`] (the adaptor file, read and
//! checked into an [`Adaptor`]), `setup` (how a game is brought into a freshly started
//! program: keys, board, pokes), `machine` (the emulated machine on a thread of its own,
//! driven turn by turn) and [`engine`] ([`AdaptorEngine`], the [`kempelen_engine::Engine`]
//! that reads the program's replies); [`board`] reads the program's own board from its RAM;
//! [`player`] makes an adapted program a tournament player
//! (`program:FILE.toml`).
//!
//! With the feature `opened` (on by default) the program is opened up: its adaptor file's
//! variables, counters, search tree, listing and lesson steps are read (`opened`),
//! `session` runs it under the debugger and `tree` reads its search tree as it plays; `expr`,
//! `variables`, `listing` and `lessons` are their parts. The page leaves the feature out for
//! now (the size of its wasm).

pub mod board;
pub mod description;
pub mod engine;
pub mod error;
#[cfg(feature = "opened")]
pub mod expr;
pub mod files;
mod held;
#[cfg(feature = "opened")]
pub mod lessons;
#[cfg(feature = "opened")]
pub mod listing;
mod machine;
pub mod player;
#[cfg(feature = "opened")]
pub mod session;
mod setup;
#[cfg(feature = "opened")]
pub mod tree;
#[cfg(feature = "opened")]
pub mod variables;

pub use board::{BoardError, ProgramBoard};
pub use description::{Adaptor, ProgramSource};
pub use engine::{AdaptorEngine, OpenSearch, SearchFigures, SearchSlice, TurnBoards};
pub use error::AdaptorError;
