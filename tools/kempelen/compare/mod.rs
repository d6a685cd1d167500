//! Compare: the 8-bit builds against the native reference on a suite (`compare`), one search
//! (`search`) and the move-tree count (`perft`) with any engine.

pub mod builds;
pub mod perft;
pub mod search;
