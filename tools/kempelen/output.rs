//! Writing output files safely: no output may replace an input of the same run or another
//! output, and a run writes all of its outputs or none.
//!
//! [`check_outputs`] compares canonical paths (symlinks and `..` resolved) and, on Unix, device
//! and inode numbers (hard links), before anything is written. [`Outputs`] writes each file to
//! a temporary file beside its target and renames them all into place only at the end, so a
//! failure halfway (a bad path for the second output) leaves every target untouched.

use anyhow::{Context, bail};
use std::path::{Path, PathBuf};

/// The identity of an existing file: its canonical path and, on Unix, device and inode.
#[derive(Debug, PartialEq, Eq)]
struct Identity {
    canonical: PathBuf,
    #[cfg(unix)]
    inode: Option<(u64, u64)>,
}

/// What `path` names once symlinks and `..` are resolved. A file that does not exist yet is
/// named by its canonical parent directory and its file name.
fn identity(path: &Path) -> Identity {
    let canonical = std::fs::canonicalize(path).unwrap_or_else(|_| {
        let parent = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let parent = std::fs::canonicalize(parent).unwrap_or_else(|_| parent.to_path_buf());
        match path.file_name() {
            Some(name) => parent.join(name),
            None => parent,
        }
    });
    #[cfg(unix)]
    let inode = {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
    };
    Identity {
        canonical,
        #[cfg(unix)]
        inode,
    }
}

fn same_file(a: &Identity, b: &Identity) -> bool {
    #[cfg(unix)]
    if let (Some(x), Some(y)) = (a.inode, b.inode)
        && x == y
    {
        return true;
    }
    a.canonical == b.canonical
}

/// Refuses a run whose outputs name one of its inputs or each other. `inputs` are the files
/// read (a source, its included files, a suite); `outputs` are (flag, path) pairs such as
/// `("-o", a.bin)`, so the error names the flag.
pub fn check_outputs(inputs: &[PathBuf], outputs: &[(&str, &Path)]) -> anyhow::Result<()> {
    let ins: Vec<Identity> = inputs.iter().map(|p| identity(p)).collect();
    let outs: Vec<Identity> = outputs.iter().map(|(_, p)| identity(p)).collect();
    for (i, (flag, path)) in outputs.iter().enumerate() {
        if let Some(k) = ins.iter().position(|input| same_file(input, &outs[i])) {
            bail!(
                "{flag} {}: that is the input {}; refusing to overwrite it (nothing written)",
                path.display(),
                inputs[k].display()
            );
        }
        for (j, (other_flag, _)) in outputs.iter().enumerate().take(i) {
            if same_file(&outs[j], &outs[i]) {
                bail!(
                    "{flag} {}: {other_flag} names the same file; every output needs its own file (nothing written)",
                    path.display()
                );
            }
        }
    }
    Ok(())
}

/// Writes one output file of a run whole or not at all: refused (nothing written) when `path`
/// is one of `inputs`, else written to a temporary file beside it and renamed into place. `flag`
/// names the option in errors (`--svg`).
pub fn write_output(
    flag: &str,
    path: &Path,
    bytes: &[u8],
    inputs: &[PathBuf],
) -> anyhow::Result<()> {
    check_outputs(inputs, &[(flag, path)])?;
    let mut outputs = Outputs::new();
    outputs.stage(path, bytes)?;
    outputs.commit()
}

/// Checks before a long run that its output `path` can be written (so a measurement of minutes
/// is not lost to a bad path at its end): the temporary file the write will use is created
/// beside `path` and removed again. A device or FIFO is taken as writable; a directory is not.
pub fn check_writable(flag: &str, path: &Path) -> anyhow::Result<()> {
    let mut probe = Outputs::new();
    probe
        .stage(path, b"")
        .with_context(|| format!("{flag} {}: cannot be written (nothing run)", path.display()))?;
    // Dropping the staged output removes the temporary file.
    Ok(())
}

/// Outputs of one run, written all at once by [`Outputs::commit`].
#[derive(Default)]
pub struct Outputs {
    /// Regular files: (temporary file, target).
    staged: Vec<(PathBuf, PathBuf)>,
    /// Targets that are not regular files (`/dev/stdout`, a FIFO): written directly at commit.
    direct: Vec<(PathBuf, Vec<u8>)>,
}

impl Outputs {
    /// No outputs yet.
    pub fn new() -> Outputs {
        Outputs::default()
    }

    /// Writes `bytes` to a temporary file beside `path` (so the final rename stays on one file
    /// system); `path` itself is untouched until [`Outputs::commit`]. A symlink is followed (the
    /// file it names is replaced, not the link); a target that exists and is not a regular file
    /// (a device, a FIFO) is written directly at commit, never replaced.
    pub fn stage(&mut self, path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
        let target = match std::fs::metadata(path) {
            Ok(m) if !m.is_file() => {
                if m.is_dir() {
                    bail!("cannot write {}: it is a directory", path.display());
                }
                self.direct.push((path.to_path_buf(), bytes.to_vec()));
                return Ok(());
            }
            Ok(_) => std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()),
            Err(_) => path.to_path_buf(),
        };
        let name = target
            .file_name()
            .with_context(|| format!("cannot write {}: not a file name", path.display()))?;
        let mut temp_name = std::ffi::OsString::from(".");
        temp_name.push(name);
        temp_name.push(format!(".kempelen-{}.tmp", std::process::id()));
        let temp = target.with_file_name(temp_name);
        if let Err(e) = std::fs::write(&temp, bytes) {
            let _ = std::fs::remove_file(&temp);
            return Err(e).with_context(|| format!("cannot write {}", path.display()));
        }
        self.staged.push((temp, target));
        Ok(())
    }

    /// Renames every staged file into place, then writes the direct targets.
    pub fn commit(mut self) -> anyhow::Result<()> {
        let staged = std::mem::take(&mut self.staged);
        for (i, (temp, path)) in staged.iter().enumerate() {
            if let Err(e) = std::fs::rename(temp, path) {
                for (t, _) in &staged[i..] {
                    let _ = std::fs::remove_file(t);
                }
                return Err(e).with_context(|| format!("cannot write {}", path.display()));
            }
        }
        for (path, bytes) in std::mem::take(&mut self.direct) {
            std::fs::write(&path, bytes)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        Ok(())
    }
}

impl Drop for Outputs {
    /// A run that fails before [`Outputs::commit`] leaves no temporary files behind.
    fn drop(&mut self) {
        for (temp, _) in &self.staged {
            let _ = std::fs::remove_file(temp);
        }
    }
}

/// A duration in milliseconds as every `--json` output writes it (`time_ms`, `host_ms`):
/// rounded to the microsecond, so figures do not print as `12.345678901`.
pub fn millis(t: std::time::Duration) -> f64 {
    round3(t.as_secs_f64() * 1000.0)
}

/// A float rounded to three decimals, the precision of every float in `--json` output.
pub fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}
