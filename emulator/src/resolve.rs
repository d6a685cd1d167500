//! What a user names on a command line or in an adaptor file, resolved to the machine's
//! parts: a machine (a personality file, a built-in personality, or only a clock profile), an
//! address, and an image file in any of the [`loaders`] formats. `kempelen run` and the engine
//! adaptors resolve their names here, so both accept the same spellings and give the same
//! errors.

use crate::clock::{self, ClockProfile};
use crate::loaders::{self, Chunk, ImageFormat, LoadError, Loaded};
use crate::memory::parse_addr;
use crate::personality::{self, Personality, PersonalityError};
use std::path::{Path, PathBuf};

/// A name that could not be resolved, or an image that could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ResolveError {
    /// No personality and no clock profile has this name.
    #[error(
        "unknown machine `{name}` (personalities: {}, or a FILE.toml; clock profiles: {})",
        personalities.join(", "),
        clocks.join(", ")
    )]
    UnknownMachine {
        /// The name as given.
        name: String,
        /// The built-in personalities.
        personalities: Vec<&'static str>,
        /// The clock profiles.
        clocks: Vec<&'static str>,
    },
    /// A personality file that could not be read.
    #[error(transparent)]
    Personality(#[from] PersonalityError),
    /// Not a 16-bit address.
    #[error("`{0}` is not a 16-bit address (hex: C000, $C000, 0xC000)")]
    Address(String),
    /// An image file that could not be read.
    #[error("cannot read {}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// An empty image file.
    #[error("{} is empty: no bytes to load", .0.display())]
    Empty(PathBuf),
    /// A load address given for an image that carries its own.
    #[error("{}: a {format} image carries its own addresses; give no @ADDR", path.display())]
    AddressGiven {
        /// The file.
        path: PathBuf,
        /// Its format.
        format: ImageFormat,
    },
    /// An image whose contents could not be loaded.
    #[error(transparent)]
    Load(#[from] LoadError),
}

/// What a machine name stands for: a personality, or only a clock.
pub enum MachineChoice {
    /// A personality: memory map, host routines, clock.
    Personality(Box<Personality>),
    /// A clock profile only.
    Clock(&'static ClockProfile),
}

/// Resolves a machine name: a FILE.toml (or any path), a built-in personality, or a clock
/// profile.
pub fn machine(name: &str) -> Result<MachineChoice, ResolveError> {
    if name.ends_with(".toml") || name.contains('/') {
        let p = Personality::from_file(Path::new(name))?;
        return Ok(MachineChoice::Personality(Box::new(p)));
    }
    if let Some(p) = Personality::built_in(name) {
        return Ok(MachineChoice::Personality(Box::new(p)));
    }
    match clock::machine(name) {
        Some(c) => Ok(MachineChoice::Clock(c)),
        None => Err(ResolveError::UnknownMachine {
            name: name.to_string(),
            personalities: personality::BUILT_IN.to_vec(),
            clocks: clock::MACHINES.iter().map(|m| m.id).collect(),
        }),
    }
}

/// Parses a 16-bit address (see [`parse_addr`] for the spellings).
pub fn address(s: &str) -> Result<u16, ResolveError> {
    parse_addr(s).ok_or_else(|| ResolveError::Address(s.to_string()))
}

/// Reads an image file (its format detected) and returns its chunks; a raw image goes to
/// `raw_addr`, else to `default_addr`. A text format carries its own addresses, so giving
/// `raw_addr` for one is an error.
pub fn image(
    path: &Path,
    raw_addr: Option<u16>,
    default_addr: u16,
) -> Result<Vec<Chunk>, ResolveError> {
    program(path, raw_addr, default_addr).map(|l| l.chunks)
}

/// [`image`] with the entry point the file names, if its format has one (a tape's `USR`, a
/// `.prg`'s `SYS`, an MSX cartridge's INIT, a `/CMD` transfer address, an Atari file's
/// `RUNAD`); the format is told by the file's extension and contents
/// ([`ImageFormat::detect_file`]; with `raw_addr`, a file whose extension names no format is
/// read as raw or text, never sniffed).
pub fn program(
    path: &Path,
    raw_addr: Option<u16>,
    default_addr: u16,
) -> Result<Loaded, ResolveError> {
    let bytes =
        crate::files::read_bounded(path, crate::files::MAX_TEXT_BYTES).map_err(|source| {
            ResolveError::Read {
                path: path.to_path_buf(),
                source,
            }
        })?;
    program_bytes(path, &bytes, raw_addr, default_addr)
}

/// [`program`] for a file already read: `bytes` are the contents of the file `path` names (a
/// file a page's user picked, say).
pub fn program_bytes(
    path: &Path,
    bytes: &[u8],
    raw_addr: Option<u16>,
    default_addr: u16,
) -> Result<Loaded, ResolveError> {
    if bytes.is_empty() {
        return Err(ResolveError::Empty(path.to_path_buf()));
    }
    let name = path.display().to_string();
    // An address for a raw image says the file is raw: its contents are not sniffed for a
    // binary format (its extension still is one).
    let format = match (ImageFormat::by_extension(&name, bytes), raw_addr) {
        (Some(f), _) => f,
        (None, Some(_)) => ImageFormat::detect(bytes),
        (None, None) => ImageFormat::detect_file(&name, bytes),
    };
    if format != ImageFormat::Raw && raw_addr.is_some() {
        return Err(ResolveError::AddressGiven {
            path: path.to_path_buf(),
            format,
        });
    }
    Ok(loaders::parse_program(
        &name,
        bytes,
        format,
        raw_addr.unwrap_or(default_addr),
    )?)
}
