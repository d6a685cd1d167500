//! Measure: the fixed bench positions (`bench`): node totals and speed per profile, or an 8-bit
//! build's figures at historical clocks (`port_bench`), or a historical program's
//! (`program_bench`).

pub mod bench;
pub mod port_bench;
pub mod program_bench;
