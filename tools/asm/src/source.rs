//! Where source text comes from: the main file, `INCLUDE` and `INCBIN`.
//!
//! The assembler never touches the file system itself; it asks a [`SourceProvider`]. The
//! command line uses [`FsSource`], the ROM glue can serve bundled sources and tests serve
//! strings with [`MemorySource`].

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

/// A file that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SourceError {
    /// No such file.
    #[error("file '{0}' not found")]
    NotFound(String),
    /// The file is larger than [`MAX_FILE_BYTES`] (or endless, like `/dev/zero`).
    #[error("'{0}' is larger than 16 MiB (an endless file?); refusing to read it")]
    TooLarge(String),
    /// The file exists but reading it failed.
    #[error("cannot read '{path}': {message}")]
    Unreadable {
        /// The resolved path.
        path: String,
        /// Why (from the operating system).
        message: String,
    },
}

/// Resolves and reads the files of a program.
pub trait SourceProvider {
    /// The path of the file that `name` (as written after `INCLUDE`/`INCBIN`) refers to when it
    /// appears in the file at `from`; `from` is `None` for the main file. The result is the key
    /// used to read the file, to detect include cycles and in diagnostics.
    fn resolve(&self, from: Option<&str>, name: &str) -> String;

    /// The bytes of the file at a resolved path.
    fn read(&self, path: &str) -> Result<Vec<u8>, SourceError>;
}

/// Joins `name` to the directory of `from` (unless `name` is absolute) and removes `.` and
/// `..` components, so that one file always has one key.
fn join(from: Option<&str>, name: &str) -> String {
    let base = match from {
        Some(from) if !Path::new(name).is_absolute() => Path::new(from)
            .parent()
            .map(|p| p.join(name))
            .unwrap_or_else(|| PathBuf::from(name)),
        _ => PathBuf::from(name),
    };
    let mut out = PathBuf::new();
    for part in base.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out.to_string_lossy().into_owned()
}

/// Reads files from the file system; includes are relative to the including file.
#[derive(Clone, Copy, Debug, Default)]
pub struct FsSource;

impl SourceProvider for FsSource {
    fn resolve(&self, from: Option<&str>, name: &str) -> String {
        join(from, name)
    }

    fn read(&self, path: &str) -> Result<Vec<u8>, SourceError> {
        let error = |e: std::io::Error| match e.kind() {
            std::io::ErrorKind::NotFound => SourceError::NotFound(path.to_string()),
            _ => SourceError::Unreadable {
                path: path.to_string(),
                message: e.to_string(),
            },
        };
        read_bounded(Path::new(path), MAX_FILE_BYTES).map_err(|e| match e.kind() {
            std::io::ErrorKind::FileTooLarge => SourceError::TooLarge(path.to_string()),
            _ => error(e),
        })
    }
}

/// Reads the file at `path`, at most `limit` bytes: a longer file (or an endless one, such as
/// `/dev/zero`) is an error of kind [`std::io::ErrorKind::FileTooLarge`] after `limit + 1`
/// bytes, so no read of a named file can take the host's memory.
pub fn read_bounded(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(std::io::Error::new(
            std::io::ErrorKind::FileTooLarge,
            format!(
                "larger than {} (an endless file?); refusing to read it",
                size(limit)
            ),
        ));
    }
    Ok(bytes)
}

/// A byte count as people say it: `16 MiB`, `64 KiB`, `100 bytes`.
fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

/// The largest source or `INCBIN` file [`FsSource`] reads: 16 MiB, far more than any 8-bit
/// program, and a bound for endless files such as `/dev/zero`.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// Files held in memory, keyed by path (`dir/name.asm`); includes are relative to the
/// including file as on a file system.
#[derive(Clone, Debug, Default)]
pub struct MemorySource {
    files: HashMap<String, Vec<u8>>,
}

impl MemorySource {
    /// No files.
    pub fn new() -> MemorySource {
        MemorySource::default()
    }

    /// Adds (or replaces) a file.
    pub fn with(mut self, path: &str, contents: impl Into<Vec<u8>>) -> MemorySource {
        self.add(path, contents);
        self
    }

    /// Adds (or replaces) a file.
    pub fn add(&mut self, path: &str, contents: impl Into<Vec<u8>>) {
        self.files.insert(join(None, path), contents.into());
    }
}

impl SourceProvider for MemorySource {
    fn resolve(&self, from: Option<&str>, name: &str) -> String {
        join(from, name)
    }

    fn read(&self, path: &str) -> Result<Vec<u8>, SourceError> {
        self.files
            .get(path)
            .cloned()
            .ok_or_else(|| SourceError::NotFound(path.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn includes_resolve_relative_to_the_including_file() {
        let src = MemorySource::new()
            .with("lib/a.asm", "x")
            .with("b.asm", "y");
        assert_eq!(src.resolve(None, "./lib/a.asm"), "lib/a.asm");
        assert_eq!(src.resolve(Some("lib/a.asm"), "../b.asm"), "b.asm");
        assert_eq!(src.read("b.asm").unwrap(), b"y");
        assert_eq!(
            src.read("c.asm"),
            Err(SourceError::NotFound("c.asm".into()))
        );
    }
}
