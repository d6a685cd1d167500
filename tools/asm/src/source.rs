//! Where source text comes from: the main file, `INCLUDE` and `INCBIN`.
//!
//! The assembler never touches the file system itself; it asks a [`SourceProvider`]. The
//! command line uses [`FsSource`], the ROM glue can serve bundled sources and tests serve
//! strings with [`MemorySource`].

pub use kempelen_isa::files::{MAX_FILE_BYTES, read_bounded};
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
