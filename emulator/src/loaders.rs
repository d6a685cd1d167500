//! Program image formats: raw binaries, Intel HEX, the hex dumps of the era (`ADDR b b b ...`
//! per line, as Soft6502 and many listings print them) and the KIM-1 paper-tape format.
//!
//! [`parse`] turns a file into [`Chunk`]s (an address and its bytes); [`ImageFormat::detect`]
//! tells the text formats apart by their first meaningful character. Errors name the file,
//! line and column.

use std::fmt;

/// An image file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum ImageFormat {
    /// Bytes as they are, loaded at an address given separately.
    Raw,
    /// Intel HEX (`:LLAAAATT...CC` records, types 00 data, 01 end; 03 and 05 start addresses
    /// are ignored).
    IntelHex,
    /// A hex dump: `ADDR b b b ...` per line (`ADDR:` also accepted); a token that is not a
    /// hex byte ends the line's data (an ASCII column); `;` and `#` start comments.
    HexDump,
    /// The KIM-1 paper-tape format (KIM-1 User Manual, 1976): `;LLAAAA` then LL data bytes and
    /// a 16-bit checksum of all bytes of the record, in hex; `;00` ends the tape.
    KimTape,
}

impl ImageFormat {
    /// The format of `bytes`: a text whose first non-blank character is `:` is Intel HEX, `;`
    /// a KIM-1 tape, four hex digits then a blank or `:` a hex dump; anything else is raw.
    pub fn detect(bytes: &[u8]) -> ImageFormat {
        let Ok(text) = std::str::from_utf8(bytes) else {
            return ImageFormat::Raw;
        };
        let t = text.trim_start();
        if t.starts_with(':')
            && t.lines()
                .all(|l| l.trim().is_empty() || l.trim().starts_with(':'))
        {
            ImageFormat::IntelHex
        } else if t.starts_with(";")
            && t.lines()
                .all(|l| l.trim().is_empty() || l.trim().starts_with(';'))
        {
            ImageFormat::KimTape
        } else if t
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with([';', '#']))
            .all(|l| {
                let b = l.trim_start().as_bytes();
                b.len() >= 4
                    && b[..4].iter().all(u8::is_ascii_hexdigit)
                    && b.get(4).is_none_or(|c| matches!(c, b' ' | b'\t' | b':'))
            })
            && !t.is_empty()
        {
            ImageFormat::HexDump
        } else {
            ImageFormat::Raw
        }
    }

    /// The format's name (`raw`, `intel-hex`, `hex-dump`, `kim-tape`).
    pub fn name(self) -> &'static str {
        match self {
            ImageFormat::Raw => "raw",
            ImageFormat::IntelHex => "intel-hex",
            ImageFormat::HexDump => "hex-dump",
            ImageFormat::KimTape => "kim-tape",
        }
    }
}

impl std::str::FromStr for ImageFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s {
            "raw" => ImageFormat::Raw,
            "intel-hex" | "ihex" | "hex" => ImageFormat::IntelHex,
            "hex-dump" | "dump" => ImageFormat::HexDump,
            "kim-tape" | "kim" => ImageFormat::KimTape,
            _ => {
                return Err(format!(
                    "unknown image format `{s}` (raw, intel-hex, hex-dump, kim-tape)"
                ));
            }
        })
    }
}

impl fmt::Display for ImageFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Bytes at an address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    /// Where the bytes go.
    pub addr: u16,
    /// The bytes.
    pub bytes: Vec<u8>,
}

/// An image that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{col}: {message}")]
pub struct LoadError {
    /// The file.
    pub file: String,
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1.
    pub col: usize,
    /// What is wrong.
    pub message: String,
}

/// Parses `bytes` (the file `file`) in `format`. A raw image becomes one chunk at `raw_addr`.
/// Adjacent chunks are merged; chunks that overlap, or run past `$FFFF`, are an error.
pub fn parse(
    file: &str,
    bytes: &[u8],
    format: ImageFormat,
    raw_addr: u16,
) -> Result<Vec<Chunk>, LoadError> {
    let err = |line: usize, col: usize, message: String| LoadError {
        file: file.to_string(),
        line,
        col,
        message,
    };
    let mut chunks: Vec<(usize, Chunk)> = Vec::new();
    if format == ImageFormat::Raw {
        if usize::from(raw_addr) + bytes.len() > 0x10000 {
            return Err(err(
                0,
                0,
                format!("{} bytes at ${raw_addr:04X} run past $FFFF", bytes.len()),
            ));
        }
        return Ok(vec![Chunk {
            addr: raw_addr,
            bytes: bytes.to_vec(),
        }]);
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        err(line, 1, "not UTF-8 text".into())
    })?;
    let hex_pairs = |s: &str, line: usize, col: usize| -> Result<Vec<u8>, LoadError> {
        if s.len() % 2 != 0 || !s.is_ascii() {
            return Err(err(
                line,
                col,
                format!("`{s}` is not an even number of hex digits"),
            ));
        }
        (0..s.len())
            .step_by(2)
            .map(|i| {
                u8::from_str_radix(&s[i..i + 2], 16).map_err(|_| {
                    err(
                        line,
                        col + i,
                        format!("`{}` is not a hex byte", &s[i..i + 2]),
                    )
                })
            })
            .collect()
    };
    'lines: for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let indent = raw.len() - raw.trim_start().len();
        let l = raw.trim();
        if l.is_empty() {
            continue;
        }
        match format {
            ImageFormat::Raw => unreachable!(),
            ImageFormat::IntelHex => {
                let Some(body) = l.strip_prefix(':') else {
                    return Err(err(
                        line,
                        indent + 1,
                        "an Intel HEX record starts with `:`".into(),
                    ));
                };
                let rec = hex_pairs(body, line, indent + 2)?;
                if rec.len() < 5 || rec.len() != usize::from(rec[0]) + 5 {
                    return Err(err(
                        line,
                        indent + 1,
                        "record length does not match its count byte".into(),
                    ));
                }
                let sum = rec.iter().fold(0u8, |a, &b| a.wrapping_add(b));
                if sum != 0 {
                    return Err(err(
                        line,
                        indent + 1,
                        format!("checksum error (the bytes sum to ${sum:02X}, not $00)"),
                    ));
                }
                let addr = u16::from_be_bytes([rec[1], rec[2]]);
                match rec[3] {
                    0x00 => chunks.push((
                        line,
                        Chunk {
                            addr,
                            bytes: rec[4..rec.len() - 1].to_vec(),
                        },
                    )),
                    0x01 => break 'lines,
                    0x03 | 0x05 => {}
                    0x02 | 0x04 if rec[4..rec.len() - 1].iter().all(|&b| b == 0) => {}
                    t => {
                        return Err(err(
                            line,
                            indent + 8,
                            format!("record type {t:02X} addresses memory beyond 64 KB"),
                        ));
                    }
                }
            }
            ImageFormat::KimTape => {
                let Some(body) = l.strip_prefix(';') else {
                    return Err(err(
                        line,
                        indent + 1,
                        "a KIM-1 tape record starts with `;`".into(),
                    ));
                };
                let rec = hex_pairs(body, line, indent + 2)?;
                if rec.first() == Some(&0) {
                    break 'lines;
                }
                if rec.len() < 5 || rec.len() != usize::from(rec[0]) + 5 {
                    return Err(err(
                        line,
                        indent + 1,
                        "record length does not match its count byte".into(),
                    ));
                }
                let n = rec.len();
                let sum: u16 = rec[..n - 2]
                    .iter()
                    .map(|&b| u16::from(b))
                    .fold(0, u16::wrapping_add);
                let want = u16::from_be_bytes([rec[n - 2], rec[n - 1]]);
                if sum != want {
                    return Err(err(
                        line,
                        indent + 1,
                        format!("checksum error (${sum:04X}, the record says ${want:04X})"),
                    ));
                }
                chunks.push((
                    line,
                    Chunk {
                        addr: u16::from_be_bytes([rec[1], rec[2]]),
                        bytes: rec[3..n - 2].to_vec(),
                    },
                ));
            }
            ImageFormat::HexDump => {
                if l.starts_with([';', '#']) {
                    continue;
                }
                let mut tokens = l.split_whitespace();
                let first = tokens.next().unwrap_or("");
                let (addr_text, rest_first) = match first.split_once(':') {
                    Some((a, r)) => (a, (!r.is_empty()).then_some(r)),
                    None => (first, None),
                };
                let addr = u16::from_str_radix(addr_text, 16)
                    .ok()
                    .filter(|_| addr_text.len() == 4)
                    .ok_or_else(|| {
                        err(
                            line,
                            indent + 1,
                            format!("`{addr_text}` is not a four-digit hex address"),
                        )
                    })?;
                let mut data = Vec::new();
                for t in rest_first.into_iter().chain(tokens) {
                    if t.starts_with([';', '#']) || t.len() != 2 {
                        break;
                    }
                    match u8::from_str_radix(t, 16) {
                        Ok(b) => data.push(b),
                        Err(_) => break,
                    }
                }
                if !data.is_empty() {
                    chunks.push((line, Chunk { addr, bytes: data }));
                }
            }
        }
    }
    chunks.sort_by_key(|(_, c)| c.addr);
    let mut out: Vec<Chunk> = Vec::new();
    let mut end_of_last: Option<(usize, usize)> = None;
    for (line, c) in chunks {
        let start = usize::from(c.addr);
        let end = start + c.bytes.len();
        if end > 0x10000 {
            return Err(err(
                line,
                1,
                format!("the bytes at ${:04X} run past $FFFF", c.addr),
            ));
        }
        match (end_of_last, out.last_mut()) {
            (Some((e, other)), _) if start < e => {
                return Err(err(
                    line,
                    1,
                    format!("bytes at ${:04X} overlap those of line {other}", c.addr),
                ));
            }
            (Some((e, _)), Some(last)) if start == e => last.bytes.extend(&c.bytes),
            _ => out.push(c),
        }
        end_of_last = Some((end, line));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_formats() {
        assert_eq!(
            ImageFormat::detect(b":0100000000FF\n:00000001FF\n"),
            ImageFormat::IntelHex
        );
        assert_eq!(
            ImageFormat::detect(b"0000 D8 A2\n0002 FF\n"),
            ImageFormat::HexDump
        );
        assert_eq!(
            ImageFormat::detect(b";0100000001\n;00\n"),
            ImageFormat::KimTape
        );
        assert_eq!(ImageFormat::detect(&[0x3E, 0x01, 0xD3]), ImageFormat::Raw);
    }

    #[test]
    fn intel_hex_with_checksums() {
        let text = ":03010000AF3E41CE\n:02020000414279\n:00000001FF\n";
        let c = parse("a.hex", text.as_bytes(), ImageFormat::IntelHex, 0).unwrap();
        assert_eq!(
            c,
            [
                Chunk {
                    addr: 0x0100,
                    bytes: vec![0xAF, 0x3E, 0x41]
                },
                Chunk {
                    addr: 0x0200,
                    bytes: vec![0x41, 0x42]
                }
            ]
        );
        let bad = ":03010000AF3E41CF\n";
        let e = parse("a.hex", bad.as_bytes(), ImageFormat::IntelHex, 0).unwrap_err();
        assert_eq!(
            e.to_string(),
            "a.hex:1:1: checksum error (the bytes sum to $01, not $00)"
        );
    }

    #[test]
    fn hex_dump_lines_merge_and_overlaps_are_refused() {
        let text = "; Soft6502 style\n0000 D8 A2 FF 9A\n0004 A2 C8  ..ascii\n1F6A 60 \n";
        let c = parse("m.h65", text.as_bytes(), ImageFormat::HexDump, 0).unwrap();
        assert_eq!(
            c,
            [
                Chunk {
                    addr: 0,
                    bytes: vec![0xD8, 0xA2, 0xFF, 0x9A, 0xA2, 0xC8]
                },
                Chunk {
                    addr: 0x1F6A,
                    bytes: vec![0x60]
                }
            ]
        );
        let e = parse(
            "m.h65",
            b"0000 01 02 03\n0002 04\n",
            ImageFormat::HexDump,
            0,
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "m.h65:2:1: bytes at $0002 overlap those of line 1"
        );
        let e = parse("m.h65", b"00G0 01\n", ImageFormat::HexDump, 0).unwrap_err();
        assert_eq!(
            e.to_string(),
            "m.h65:1:1: `00G0` is not a four-digit hex address"
        );
    }

    #[test]
    fn kim_tape_records() {
        // ;02 0200 A9 41 checksum = 02+02+00+A9+41 = $00EE
        let c = parse(
            "t.ptp",
            b";020200A94100EE\n;0000010001\n",
            ImageFormat::KimTape,
            0,
        )
        .unwrap();
        assert_eq!(
            c,
            [Chunk {
                addr: 0x0200,
                bytes: vec![0xA9, 0x41]
            }]
        );
        let e = parse("t.ptp", b";020200A94100EF\n", ImageFormat::KimTape, 0).unwrap_err();
        assert!(
            e.to_string().starts_with("t.ptp:1:1: checksum error"),
            "{e}"
        );
    }
}
