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
    /// The format of `bytes`, decided by the first line that is not blank: `:` and hex digits
    /// is an Intel HEX record, `;` and hex digits a KIM-1 tape record, four hex digits then a
    /// blank or `:` a hex dump line (after comment lines starting with `;` or `#`); anything
    /// else is raw. The rest of the file is then read in that format, so a bad line further
    /// down is an error at its place, never a reason to run the text as code.
    pub fn detect(bytes: &[u8]) -> ImageFormat {
        let mut lines = bytes
            .split(|&b| b == b'\n')
            .map(<[u8]>::trim_ascii)
            .filter(|l| !l.is_empty());
        let Some(first) = lines.next() else {
            return ImageFormat::Raw;
        };
        let hex_record = |l: &[u8], mark: u8| {
            l.len() > 1 && l[0] == mark && l[1..].iter().all(u8::is_ascii_hexdigit)
        };
        if hex_record(first, b':') {
            return ImageFormat::IntelHex;
        }
        if hex_record(first, b';') {
            return ImageFormat::KimTape;
        }
        let comment = |l: &[u8]| l.starts_with(b";") || l.starts_with(b"#");
        let text = |l: &[u8]| {
            std::str::from_utf8(l).is_ok_and(|t| t.chars().all(|c| !c.is_control() || c == '\t'))
        };
        let dump_line = |l: &[u8]| {
            l.len() >= 4
                && l[..4].iter().all(u8::is_ascii_hexdigit)
                && l.get(4).is_none_or(|c| matches!(c, b' ' | b'\t' | b':'))
        };
        let mut line = first;
        loop {
            if dump_line(line) {
                return ImageFormat::HexDump;
            }
            if !(comment(line) && text(line)) {
                return ImageFormat::Raw;
            }
            match lines.next() {
                Some(l) => line = l,
                None => return ImageFormat::Raw,
            }
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
        if bytes.is_empty() {
            return Err(err(1, 1, "the raw image holds no bytes to load".into()));
        }
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
    let text = crate::files::utf8(bytes).map_err(|(line, col)| {
        err(
            line,
            col,
            format!("not UTF-8 text (the {format} format is text)"),
        )
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
                let pair = &s[i..i + 2];
                pair.bytes()
                    .all(|b| b.is_ascii_hexdigit())
                    .then(|| u8::from_str_radix(pair, 16).ok())
                    .flatten()
                    .ok_or_else(|| {
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
                    0x00 if rec.len() > 5 => chunks.push((
                        line,
                        Chunk {
                            addr,
                            bytes: rec[4..rec.len() - 1].to_vec(),
                        },
                    )),
                    0x00 => {}
                    0x01 => break 'lines,
                    0x03 | 0x05 => {}
                    0x02 | 0x04 if rec[4..rec.len() - 1].iter().all(|&b| b == 0) => {}
                    t @ (0x02 | 0x04) => {
                        return Err(err(
                            line,
                            indent + 8,
                            format!("record type {t:02X} addresses memory beyond 64 KB"),
                        ));
                    }
                    t => {
                        return Err(err(
                            line,
                            indent + 8,
                            format!("unknown record type {t:02X} (Intel HEX has types 00 to 05)"),
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
                if n > 5 {
                    chunks.push((
                        line,
                        Chunk {
                            addr: u16::from_be_bytes([rec[1], rec[2]]),
                            bytes: rec[3..n - 2].to_vec(),
                        },
                    ));
                }
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
                    .filter(|_| {
                        addr_text.len() == 4 && addr_text.bytes().all(|b| b.is_ascii_hexdigit())
                    })
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
                        Ok(b) if t.bytes().all(|b| b.is_ascii_hexdigit()) => data.push(b),
                        _ => break,
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
    if out.is_empty() {
        return Err(err(
            1,
            1,
            format!("the {format} image holds no bytes to load"),
        ));
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
    #[test]
    fn a_text_image_with_one_bad_line_is_an_error_at_that_line_never_raw() {
        let dump = b"0000 00 00\n+FFF 00\n";
        assert_eq!(ImageFormat::detect(dump), ImageFormat::HexDump);
        let e = parse("m.h65", dump, ImageFormat::HexDump, 0).unwrap_err();
        assert_eq!(
            e.to_string(),
            "m.h65:2:1: `+FFF` is not a four-digit hex address"
        );
        let hex = b":0100000000FF\n:01000100\xe900FF\n";
        assert_eq!(ImageFormat::detect(hex), ImageFormat::IntelHex);
        let e = parse("a.hex", hex, ImageFormat::IntelHex, 0).unwrap_err();
        assert_eq!(
            e.to_string(),
            "a.hex:2:10: not UTF-8 text (the intel-hex format is text)"
        );
        let e = parse("a.hex", b":01000000+1FF\n", ImageFormat::IntelHex, 0).unwrap_err();
        assert_eq!(e.to_string(), "a.hex:1:10: `+1` is not a hex byte");
        // Comment lines before the first dump line; a tape after a blank line.
        assert_eq!(
            ImageFormat::detect(b"; a listing\n# saved 1976\n0200 A9 41\n"),
            ImageFormat::HexDump
        );
        assert_eq!(
            ImageFormat::detect(b"\n\n;020200A94100EE\nnot a record\n"),
            ImageFormat::KimTape
        );
        // Binaries stay raw, even when they start with `:` or `;` (LD A,(nn); DEC SP).
        for raw in [
            &[0x3A, 0x00, 0x80, 0x76][..],
            &[0x3B, 0x0A, 0x31, 0xC9][..],
            b"# \x01\n0000 00\n",
            b"0",
        ] {
            assert_eq!(ImageFormat::detect(raw), ImageFormat::Raw, "{raw:?}");
        }
    }

    #[test]
    fn intel_hex_record_types_are_named_for_what_they_are() {
        let e = parse("a.hex", b":00000006FA\n", ImageFormat::IntelHex, 0).unwrap_err();
        assert_eq!(
            e.to_string(),
            "a.hex:1:8: unknown record type 06 (Intel HEX has types 00 to 05)"
        );
        let e = parse("a.hex", b":020000021000EC\n", ImageFormat::IntelHex, 0).unwrap_err();
        assert_eq!(
            e.to_string(),
            "a.hex:1:8: record type 02 addresses memory beyond 64 KB"
        );
    }

    #[test]
    fn an_image_without_bytes_is_an_error() {
        for (format, text) in [
            (ImageFormat::IntelHex, &b":0000000000\n:00000001FF\n"[..]),
            (ImageFormat::HexDump, b"; nothing\n0200\n"),
            (ImageFormat::KimTape, b";0000000000\n"),
            (ImageFormat::Raw, b""),
        ] {
            let e = parse("e", text, format, 0).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!("e:1:1: the {format} image holds no bytes to load")
            );
        }
    }
}
