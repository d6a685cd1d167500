//! Where the files an adaptor file names come from: the file system, for the command line
//! (paths relative to the adaptor file, `$KEMPELEN_HISTORICAL/` expanded), or the files a user
//! picked in a page, by file name ([`PickedFiles`]): the page never holds, bundles or fetches
//! the programs, it reads what its user gives it. Either way each file is checked against the
//! SHA-256 the adaptor file gives for it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use kempelen_asm::source::{FsSource, MemorySource, SourceProvider};

use crate::error::AdaptorError;

/// The files an adaptor file names.
pub trait ProgramFiles {
    /// The path of `file` as the adaptor file writes it, relative to the adaptor file's
    /// folder `dir`.
    fn locate(&self, dir: &Path, file: &str) -> Result<PathBuf, AdaptorError>;
    /// The contents of the file at `path` (a bounded read).
    fn read(&self, path: &Path) -> std::io::Result<Vec<u8>>;
    /// The sources an assembled image reads (its main file and what it includes).
    fn sources(&self) -> &dyn SourceProvider;
}

/// The file system: paths relative to the adaptor file, `$KEMPELEN_HISTORICAL/` replaced by
/// that variable.
pub struct FileSystem;

impl ProgramFiles for FileSystem {
    fn locate(&self, dir: &Path, file: &str) -> Result<PathBuf, AdaptorError> {
        if let Some(rest) = file.strip_prefix("$KEMPELEN_HISTORICAL/") {
            let base = std::env::var("KEMPELEN_HISTORICAL").map_err(|source| {
                AdaptorError::Historical {
                    file: file.to_string(),
                    source,
                }
            })?;
            return Ok(Path::new(&base).join(rest));
        }
        Ok(dir.join(file))
    }

    fn read(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        kempelen_emulator::files::read_bounded(path, kempelen_emulator::files::MAX_TEXT_BYTES)
    }

    fn sources(&self) -> &dyn SourceProvider {
        &FsSource
    }
}

/// Files given by name (a page's file picker): a file the adaptor names is the picked file of
/// the same name, wherever the adaptor file says it lies.
///
/// ```
/// use kempelen_adaptor::files::{PickedFiles, ProgramFiles};
/// use std::path::Path;
///
/// let mut picked = PickedFiles::new();
/// picked.add("microchess.h65", b"...".to_vec());
/// let at = picked.locate(Path::new("adaptors"), "$KEMPELEN_HISTORICAL/microchess.h65").unwrap();
/// assert_eq!(picked.read(&at).unwrap(), b"...");
/// assert!(picked.read(Path::new("sargon.asm")).is_err());
/// ```
#[derive(Default)]
pub struct PickedFiles {
    files: BTreeMap<String, Vec<u8>>,
    sources: MemorySource,
}

impl PickedFiles {
    /// No files.
    pub fn new() -> PickedFiles {
        PickedFiles::default()
    }

    /// Adds the file `name` (a file name; a path keeps its last part).
    pub fn add(&mut self, name: &str, bytes: Vec<u8>) {
        let name = file_name(name).to_string();
        self.sources.add(&name, bytes.clone());
        self.files.insert(name, bytes);
    }

    /// The names of the files given.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.files.keys().map(String::as_str)
    }
}

fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

impl ProgramFiles for PickedFiles {
    fn locate(&self, _dir: &Path, file: &str) -> Result<PathBuf, AdaptorError> {
        Ok(PathBuf::from(file_name(file)))
    }

    fn read(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        let name = file_name(&path.to_string_lossy()).to_string();
        self.files.get(&name).cloned().ok_or_else(|| {
            std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("no file {name} was given"),
            )
        })
    }

    fn sources(&self) -> &dyn SourceProvider {
        &self.sources
    }
}
