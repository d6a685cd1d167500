//! Search trees for teaching and for re-measuring the claims of the historical documents.
//!
//! - [`synthetic`]: uniform game trees that exist only as arithmetic (every node has the same
//!   number of children, leaf values come from a seeded hash), with minimax, alpha-beta,
//!   NegaScout and MTD(f) over them, each counting the leaves it evaluates. The trees with a
//!   controlled move ordering (best move first, last, or at a random place) show the
//!   arithmetic of alpha-beta; the trees with random leaf values of a few distinct values
//!   repeat A. Adrian's experiment ("Computer-Schach", 2011).
//! - [`lesson`]: the reference search of `docs/ALGORITHM.md` rebuilt with switches (alpha-beta,
//!   quiescence, null move, move ordering), a width cap and forced move orders, so that the
//!   same code runs plain minimax, plain alpha-beta and the reference, records the tree it
//!   visits for drawing (`kempelen tree`), and measures what the null move costs and saves.
//!   With every switch on and no width cap it visits exactly the nodes of
//!   [`crate::reference`] (checked by a test).
//! - [`searched`]: the tree a historical program's search visits, recorded from the real
//!   program in the emulator and from its profile, and the two set side by side.
//! - [`minisearch`]: the search of Kempelen's small teaching program (`adaptors/minisearch/`)
//!   in Rust, its tree the program's node for node.

pub mod lesson;
pub mod minisearch;
pub mod searched;
pub mod synthetic;

pub use lesson::{Algorithm, Lesson, LessonConfig, NullStats, TraceNode};
pub use synthetic::{
    Ordering, RandomTree, UniformTree, alpha_beta_leaves, minimal_leaves, minimax_leaves,
};
