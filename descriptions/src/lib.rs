//! Kempelen's machine description files as they are written, read into plain data.
//!
//! Two kinds of file describe a historical machine to the emulator: its timing model
//! (`emulator/timing/*.toml`, [`timing`]; `docs/TIMING.md`) and its personality
//! (`emulator/machines/*.toml` or a user's file, [`personality`]; `docs/MACHINE.md`). This
//! crate only reads their TOML into the types below, field by field, with each value's place in
//! the file where the checks need it; `kempelen-emulator` checks what they say and builds
//! machines from them, and re-exports the timing types.
//!
//! The files Kempelen carries are bundled here, deflated ([`timing::built_in`],
//! [`personality::built_in`]).
//!
//! Why a crate of its own: serde's and toml's code for these types is large (most of it is
//! instantiated for each type read), and none of it runs while a program runs. Kept apart
//! from the emulator's step loop, a build can compile this reading for size and the loop for
//! speed: the page's `[profile.web]` (Cargo.toml) does so, which keeps the page's wasm small.

pub mod personality;
pub mod timing;

use std::sync::OnceLock;

// `TIMING_FILES`, `MACHINE_FILES`: the names and lengths of the files build.rs bundled.
include!(concat!(env!("OUT_DIR"), "/bundles.rs"));

/// A bundled file's text: `<id>.toml` of `emulator/timing/` (`machines` false) or
/// `emulator/machines/` (true). build.rs stores each folder's files deflated; they are
/// inflated once, on first use.
fn bundled(machines: bool, id: &str) -> Option<&'static str> {
    type Files = OnceLock<Vec<(&'static str, &'static str)>>;
    static TIMING: Files = OnceLock::new();
    static MACHINES: Files = OnceLock::new();
    let files = if machines {
        MACHINES.get_or_init(|| {
            kempelen_bundle::unpack(
                include_bytes!(concat!(env!("OUT_DIR"), "/machines.deflate")),
                MACHINE_FILES,
            )
        })
    } else {
        TIMING.get_or_init(|| {
            kempelen_bundle::unpack(
                include_bytes!(concat!(env!("OUT_DIR"), "/timing.deflate")),
                TIMING_FILES,
            )
        })
    };
    let file = format!("{id}.toml");
    files.iter().find(|(n, _)| *n == file).map(|(_, t)| *t)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every bundled file is one the crate lists, and every listed one is bundled and reads.
    #[test]
    fn the_lists_are_the_bundled_files() {
        for (list, files, machines) in [
            (timing::BUILT_IN, TIMING_FILES, false),
            (personality::BUILT_IN, MACHINE_FILES, true),
        ] {
            let mut listed: Vec<String> = list.iter().map(|id| format!("{id}.toml")).collect();
            listed.sort();
            let bundled_names: Vec<String> = files.iter().map(|(n, _)| n.to_string()).collect();
            assert_eq!(listed, bundled_names);
            for id in list {
                let text = bundled(machines, id).expect("bundled");
                if machines {
                    personality::read(text).unwrap_or_else(|e| panic!("{id}: {e}"));
                } else {
                    timing::read(text).unwrap_or_else(|e| panic!("{id}: {e}"));
                }
            }
        }
    }
}
