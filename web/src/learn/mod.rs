//! The page's learning views, on the Rust side (the page's `tree`, `asm`, `lessons` and
//! `programs` views draw what these compute):
//!
//! - [`tree`]: the search tree, native and as the 8-bit build visits it, node by node.
//! - [`sandbox`]: the assembler to try: assemble, run, step.
//! - [`lessons`]: the lessons of `docs/` rendered, and the guided examples.

pub mod lessons;
pub mod sandbox;
pub mod tree;
