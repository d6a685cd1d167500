//! Kempelen in the browser: the page's Rust side, compiled to wasm32 with wasm-bindgen.
//!
//! The page is a second front end beside the command line: it reads input and shows results,
//! and every rule, search and emulated cycle comes from the same library functions the
//! command line calls. The modules are plain Rust, tested on the host like any crate; only
//! [`wasm`] speaks to JavaScript.
//!
//! - [`session`]: the game on the board (moves in SAN or coordinates, undo, FEN, PGN) and the
//!   view the board draws.
//! - [`link`]: the URL fragment that reproduces what is on screen.
//! - [`choice`]: the engines (8-bit builds on their machines, native profiles) and their
//!   checks.
//! - [`search`]: searches as the worker runs them (8-bit builds in slices, native in one
//!   piece) and the events the page shows.
//! - [`learn`]: the learning views' data (the search tree live, the assembler to try, the
//!   lessons), exported by `wasm_learn`.
//! - [`compare`]: the compare view's row (reference and both builds on one position).
//! - [`machine`]: the machine view's session (an 8-bit search under the debugger).
//! - [`wasm`]: the exports the page's JavaScript calls (`Board` on the page, `Job` and
//!   `native_search` in the worker).

pub mod choice;
pub mod compare;
pub mod learn;
pub mod link;
pub mod machine;
pub mod search;
pub mod session;
pub mod wasm;
pub mod wasm_learn;

/// What the page is told when a request cannot be served: a sentence that says what and
/// where, shown as it is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WebError {
    /// A FEN that is not a position (the engine's error names the field).
    #[error("FEN: {0}")]
    Fen(String),
    /// A PGN that cannot be read.
    #[error("PGN: {0}")]
    Pgn(String),
    /// A move that cannot be played.
    #[error("{0}")]
    Move(String),
    /// An unknown engine.
    #[error("engine {0}")]
    Engine(String),
    /// A machine the engine does not run on.
    #[error("machine {0}")]
    Machine(String),
    /// A depth the engine does not take.
    #[error("depth {0}")]
    Depth(String),
    /// Limits the engine cannot follow.
    #[error("{0}")]
    Limit(String),
    /// The search failed (the engine's or the emulator's error).
    #[error("search: {0}")]
    Search(String),
    /// A request the page's JavaScript built wrongly.
    #[error("request: {0}")]
    Request(String),
}
