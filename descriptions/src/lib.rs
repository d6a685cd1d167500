//! Kempelen's machine description files as they are written, read into plain data.
//!
//! Two kinds of file describe a historical machine to the emulator: its timing model
//! (`emulator/timing/*.toml`, [`timing`]; `docs/TIMING.md`) and its personality
//! (`emulator/machines/*.toml` or a user's file, [`personality`]; `docs/MACHINE.md`). This
//! crate only reads their TOML into the types below, field by field, with each value's place in
//! the file where the checks need it; `kempelen-emulator` checks what they say and builds
//! machines from them, and re-exports the timing types.
//!
//! Why a crate of its own: serde's and toml's code for these types is large (most of it is
//! instantiated for each type read), and none of it runs while a program runs. Kept apart
//! from the emulator's step loop, a build can compile this reading for size and the loop for
//! speed: the page's `[profile.web]` (Cargo.toml) does so, which keeps the page's wasm small.

pub mod personality;
pub mod timing;
