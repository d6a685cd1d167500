//! Reading the files a user names (personalities, images, symbol files, suites, adaptor
//! files): every read is bounded, so an endless file (`/dev/zero`) or a huge one ends in an
//! error instead of taking the host's memory, and text that is not UTF-8 is refused with the
//! line and column of its first bad byte.

use std::path::Path;

pub use kempelen_isa::files::read_bounded;

/// The largest text file read by default: 16 MiB, far more than any image, suite or symbol
/// file of an 8-bit program (the assembler reads sources up to the same size).
pub const MAX_TEXT_BYTES: u64 = kempelen_isa::files::MAX_FILE_BYTES;

/// `bytes` as UTF-8 text, or the line and column (from 1, the column in characters) of the
/// first byte that is not.
pub fn utf8(bytes: &[u8]) -> Result<&str, (usize, usize)> {
    std::str::from_utf8(bytes).map_err(|e| {
        let good = &bytes[..e.valid_up_to()];
        let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
        let start = good.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
        let col = std::str::from_utf8(&good[start..]).map_or(1, |l| l.chars().count() + 1);
        (line, col)
    })
}

/// Reads the UTF-8 text file at `path` (at most `limit` bytes); the error says what is wrong
/// and where, prefixed by the file's name.
pub fn read_text(path: &Path, limit: u64) -> Result<String, String> {
    let file = path.display();
    let bytes = read_bounded(path, limit).map_err(|e| format!("cannot read {file}: {e}"))?;
    match utf8(&bytes) {
        Ok(_) => Ok(String::from_utf8(bytes).expect("checked")),
        Err((line, col)) => Err(format!("{file}:{line}:{col}: not UTF-8 text")),
    }
}
