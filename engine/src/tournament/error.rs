//! What can be wrong in a tournament's set-up.

/// Errors of tournament set-up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TournamentError {
    /// A player spec names nothing Kempelen can run.
    #[error("bad player '{spec}': {reason}")]
    BadPlayer {
        /// The spec as given.
        spec: String,
        /// Why it was refused.
        reason: String,
    },
    /// Settings no tournament can be played at.
    #[error("{0}")]
    BadSettings(String),
    /// An opening line is malformed.
    #[error("{place}: {reason}")]
    BadOpening {
        /// `source:line`.
        place: String,
        /// What is wrong.
        reason: String,
    },
}
