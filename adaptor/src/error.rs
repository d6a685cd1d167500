//! Why an adaptor file could not be read.

use std::path::PathBuf;

use kempelen_emulator::resolve::ResolveError;

/// An adaptor file that could not be read, checked or loaded. Each message names the file
/// (and, for TOML syntax, its line and column).
#[derive(Debug, thiserror::Error)]
pub enum AdaptorError {
    /// A file that could not be read; `hint` says where to get it (or is empty).
    #[error("cannot read {}{hint}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Where to get it, with a leading space, or empty.
        hint: String,
        /// Why.
        source: std::io::Error,
    },
    /// TOML that does not parse or does not match the adaptor's fields.
    #[error("{}:{line}:{col}: {message}", path.display())]
    Syntax {
        /// The adaptor file.
        path: PathBuf,
        /// Line, from 1.
        line: usize,
        /// Column, from 1.
        col: usize,
        /// What is wrong.
        message: String,
    },
    /// A value of the file that does not make sense.
    #[error("{}: {message}", path.display())]
    Invalid {
        /// The file (the adaptor, or the image it names).
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// An image under `$KEMPELEN_HISTORICAL/` without that variable.
    #[error("{file}: set KEMPELEN_HISTORICAL to the folder with the program")]
    Historical {
        /// The file as written in the adaptor.
        file: String,
        /// Why the variable could not be read.
        source: std::env::VarError,
    },
    /// A poke's bytes that are not hex.
    #[error("`{text}` is not a hex byte")]
    HexByte {
        /// The word.
        text: String,
        /// Why.
        source: std::num::ParseIntError,
    },
    /// An `at` that is neither a symbol of the assembled images nor an address.
    #[error("`{0}` is neither a symbol of the assembled source nor an address")]
    Symbol(String),
    /// A `[[setup]]` poke whose address is wrong.
    #[error("{}: [[setup]] poke", path.display())]
    SetupPoke {
        /// The adaptor file.
        path: PathBuf,
        /// What is wrong with the address.
        source: Box<AdaptorError>,
    },
    /// A reply pattern that is not a regular expression.
    #[error("{}: reply pattern", path.display())]
    Pattern {
        /// The adaptor file.
        path: PathBuf,
        /// Why.
        source: regex::Error,
    },
    /// A range of `only` that does not parse.
    #[error("`only` {range}: {message}")]
    Only {
        /// The range as written.
        range: String,
        /// What is wrong.
        message: String,
    },
    /// An `[image.assemble]` CPU that Kempelen's assembler does not know.
    #[error(transparent)]
    Cpu(#[from] kempelen_asm::UnknownCpu),
    /// An `[image.assemble]` overlap rule that does not exist.
    #[error("overlap: {0}")]
    Overlap(String),
    /// An `[image.assemble]` dialect that does not exist.
    #[error("dialect: {0}")]
    Dialect(String),
    /// A source that does not assemble: the assembler's report.
    #[error("assembling {}:\n{report}", path.display())]
    Assembly {
        /// The source.
        path: PathBuf,
        /// The assembler's diagnostics.
        report: String,
    },
    /// A machine, address or image that could not be resolved.
    #[error(transparent)]
    Resolve(#[from] ResolveError),
}
