//! Learn the historical programs: their profiles in a tournament (`tournament`), the documents'
//! claims re-measured (`claims`), the tree a search visits (`tree`) and the machines they ran on
//! (`machines`).

pub mod claims;
pub mod machines;
pub mod tournament;
pub mod tree;
