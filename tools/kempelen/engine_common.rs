//! Helpers shared by the native-engine subcommands (`perft`, `search`, `uci`, `bench`): the
//! profile flag and building the backend they all run through (`&mut dyn Engine`).

use kempelen_engine::{Engine, NativeEngine, Profile};

/// `--profile` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ProfileArg {
    /// Exactly docs/ALGORITHM.md (what the 8-bit ports reproduce).
    Reference,
    /// The native engine at its best.
    Full,
}

impl From<ProfileArg> for Profile {
    fn from(p: ProfileArg) -> Profile {
        match p {
            ProfileArg::Reference => Profile::Reference,
            ProfileArg::Full => Profile::Full,
        }
    }
}

/// The backend the engine commands run on.
pub fn backend(profile: Profile) -> Box<dyn Engine> {
    Box::new(NativeEngine::new(profile))
}

/// Nodes per second, guarding against a zero duration.
pub fn nps(nodes: u64, time: std::time::Duration) -> u64 {
    let us = time.as_micros().max(1);
    (nodes as u128 * 1_000_000 / us) as u64
}
