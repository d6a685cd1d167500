//! The historical programs as search profiles on Kempelen's own board and move generator.
//! Each module rebuilds one program's way of choosing a move from its published description;
//! `docs/history/NAME.md` says what the source states, where it is silent and what Kempelen
//! chose. Every profile takes the same [`crate::Limits`] and [`crate::SearchControl`] as the
//! native profiles and reports the same [`crate::SearchInfo`] lines.

pub(crate) mod budget;
pub mod nimzo;
pub mod salomon;
pub mod sargon;
