//! The machine that hosts Kempelen's 8-bit builds.
