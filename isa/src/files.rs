//! Reading the files a user names, bounded: the assembler's sources and the emulator's images,
//! personalities and symbol files are read through [`read_bounded`], so an endless file
//! (`/dev/zero`) or a huge one ends in an error instead of taking the host's memory.

use std::path::Path;

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

/// The largest source or `INCBIN` file the assembler's `FsSource` reads: 16 MiB, far more than any 8-bit
/// program, and a bound for endless files such as `/dev/zero`.
pub const MAX_FILE_BYTES: u64 = 16 << 20;
