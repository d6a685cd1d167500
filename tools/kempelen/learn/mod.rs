//! Learn the historical programs: their profiles and the programs themselves in a tournament
//! (`tournament`, `ratings`), the documents' claims re-measured (`claims`), the tree a search
//! visits (`tree`), the real programs under the debugger (`debug`) and the machines they ran on
//! (`machines`).

pub mod claims;
pub mod debug;
pub mod machines;
pub mod tournament;
pub mod tree;
