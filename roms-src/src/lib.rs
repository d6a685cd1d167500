//! Host glue for Kempelen's hand-written 8-bit chess engines: assembles the sources in this
//! folder with Kempelen's assembler and drives them inside Kempelen's emulator through the host
//! protocol described in `docs/PROTOCOL.md`.
