//! Kempelen's cross-assembler for the Z80 and the NMOS 6502.
