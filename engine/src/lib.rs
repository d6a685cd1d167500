//! Kempelen's native chess engine.
//!
//! The engine is also the executable reference for the 8-bit ports: the `reference` search
//! profile implements `docs/ALGORITHM.md` exactly, so that the Z80 and 6502 builds reproduce its
//! best move, score and node count bit for bit.
