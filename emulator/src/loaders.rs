//! Program image formats: raw binaries, Intel HEX, the hex dumps of the era (`ADDR b b b ...`
//! per line, as Soft6502 and many listings print them), the KIM-1 paper-tape format, and the
//! program files of the machines Kempelen's builds are written for: ZX Spectrum tapes,
//! Commodore `.prg`, Atari binary files, MSX cartridges and TRS-80 load modules, which also
//! name where the program starts ([`parse_program`]).
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
    /// A ZX Spectrum tape (`.tap`): blocks of a length, a flag, data and a checksum; the
    /// code blocks load at their headers' addresses, the entry is the BASIC loader's `USR`.
    Tap,
    /// A Commodore `.prg`: a load address, then the bytes (entry: a BASIC `SYS` line's).
    Prg,
    /// An Atari binary load file (`.xex`): `$FFFF` and segments (entry: `RUNAD`).
    Xex,
    /// An MSX cartridge ROM (`AB` header) of 8 to 32 KB at `$4000` (entry: INIT).
    MsxRom,
    /// A TRS-80 `/CMD` load module (entry: the transfer address).
    TrsCmd,
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

    /// The format of the file `name` holding `bytes`: its extension names the binary formats
    /// of the target machines ([`ImageFormat::by_extension`]); a file whose extension names
    /// none is known by its contents where they are one of those formats whole
    /// ([`ImageFormat::sniff`]: a file `kempelen build` wrote runs under any name); otherwise
    /// [`ImageFormat::detect`].
    pub fn detect_file(name: &str, bytes: &[u8]) -> ImageFormat {
        ImageFormat::by_extension(name, bytes)
            .or_else(|| ImageFormat::sniff(bytes))
            .unwrap_or_else(|| ImageFormat::detect(bytes))
    }

    /// The binary format the file's contents are, read whole and checked: a ZX Spectrum
    /// tape (every block's checksum, a header before each code block), a Commodore program
    /// at `$0801` that starts with a `SYS` line, an Atari binary file (`$FFFF` and segments
    /// to its last byte), a TRS-80 load module (records to its transfer address, the file's
    /// last four bytes), an MSX cartridge (`AB`, 8, 16 or 32 KB, INIT in the cartridge).
    /// `None` when the bytes are none of them whole (a raw binary, a text format).
    pub fn sniff(bytes: &[u8]) -> Option<ImageFormat> {
        let basic_sys = bytes.len() > 8 && bytes[..2] == [0x01, 0x08] && bytes[6] == 0x9E;
        if basic_sys && prg(bytes).is_ok() {
            return Some(ImageFormat::Prg);
        }
        if bytes.get(..3) == Some(&[0x13, 0x00, 0x00])
            && tap(bytes).is_ok_and(|(chunks, _)| !chunks.is_empty())
        {
            return Some(ImageFormat::Tap);
        }
        if bytes.starts_with(&[0xFF, 0xFF]) && xex(bytes).is_ok_and(|(c, _)| !c.is_empty()) {
            return Some(ImageFormat::Xex);
        }
        let transfer_last = bytes.len() >= 4 && bytes[bytes.len() - 4..bytes.len() - 2] == [2, 2];
        if matches!(bytes.first(), Some(0x01 | 0x05))
            && transfer_last
            && trs_cmd(bytes).is_ok_and(|(c, _)| !c.is_empty())
        {
            return Some(ImageFormat::TrsCmd);
        }
        if msx_rom(bytes).is_ok_and(|(_, init)| init.is_some_and(|a| (0x4000..0xC000).contains(&a)))
        {
            return Some(ImageFormat::MsxRom);
        }
        None
    }

    /// The binary format the file's extension names: `.tap`, `.prg`, `.xex`, `.cmd` or
    /// TRSDOS's `/CMD`, `.rom` with an MSX header.
    pub fn by_extension(name: &str, bytes: &[u8]) -> Option<ImageFormat> {
        // TRSDOS writes the extension after a slash: KEMPELEN/CMD.
        let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
        let ext = if name.to_ascii_lowercase().ends_with("/cmd") {
            "cmd".to_string()
        } else {
            base.rsplit_once('.')
                .map(|(_, e)| e.to_ascii_lowercase())
                .unwrap_or_default()
        };
        match ext.as_str() {
            "tap" => Some(ImageFormat::Tap),
            "prg" => Some(ImageFormat::Prg),
            "xex" => Some(ImageFormat::Xex),
            "cmd" => Some(ImageFormat::TrsCmd),
            "rom" if bytes.starts_with(b"AB") => Some(ImageFormat::MsxRom),
            _ => None,
        }
    }

    /// Whether the format is one of the target machines' binary files.
    pub fn is_binary(self) -> bool {
        matches!(
            self,
            ImageFormat::Tap
                | ImageFormat::Prg
                | ImageFormat::Xex
                | ImageFormat::MsxRom
                | ImageFormat::TrsCmd
        )
    }

    /// The format's name (`raw`, `intel-hex`, `hex-dump`, `kim-tape`, `tap`, `prg`, `xex`,
    /// `msx-rom`, `trs-cmd`).
    pub fn name(self) -> &'static str {
        match self {
            ImageFormat::Raw => "raw",
            ImageFormat::IntelHex => "intel-hex",
            ImageFormat::HexDump => "hex-dump",
            ImageFormat::KimTape => "kim-tape",
            ImageFormat::Tap => "tap",
            ImageFormat::Prg => "prg",
            ImageFormat::Xex => "xex",
            ImageFormat::MsxRom => "msx-rom",
            ImageFormat::TrsCmd => "trs-cmd",
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
            "tap" => ImageFormat::Tap,
            "prg" => ImageFormat::Prg,
            "xex" => ImageFormat::Xex,
            "msx-rom" => ImageFormat::MsxRom,
            "trs-cmd" | "cmd" => ImageFormat::TrsCmd,
            _ => {
                return Err(format!(
                    "unknown image format `{s}` (raw, intel-hex, hex-dump, kim-tape, tap, prg, xex, msx-rom, trs-cmd)"
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
#[error("{file}{}: {message}", if *line == 0 { String::new() } else { format!(":{line}:{col}") })]
pub struct LoadError {
    /// The file.
    pub file: String,
    /// Line, from 1 (0 for an error of the whole file, such as a raw image too large).
    pub line: usize,
    /// Column, from 1.
    pub col: usize,
    /// What is wrong.
    pub message: String,
}

/// A program file read: its chunks, and where it starts when the file says so (a tape's
/// `USR`, a `.prg`'s `SYS`, a cartridge's INIT, a load module's transfer address, an Atari
/// file's `RUNAD`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loaded {
    /// The bytes and their addresses, sorted, adjacent ones joined.
    pub chunks: Vec<Chunk>,
    /// The entry point the file names.
    pub entry: Option<u16>,
}

/// Reads a program file in `format`: [`parse`] for the formats that carry no entry, and the
/// binary formats of the target machines (see [`ImageFormat`]) with the entry they name.
pub fn parse_program(
    file: &str,
    bytes: &[u8],
    format: ImageFormat,
    raw_addr: u16,
) -> Result<Loaded, LoadError> {
    let err = |message: String| LoadError {
        file: file.to_string(),
        line: 0,
        col: 0,
        message,
    };
    let (chunks, entry) = match format {
        ImageFormat::Tap => tap(bytes).map_err(err)?,
        ImageFormat::Prg => prg(bytes).map_err(err)?,
        ImageFormat::Xex => xex(bytes).map_err(err)?,
        ImageFormat::MsxRom => msx_rom(bytes).map_err(err)?,
        ImageFormat::TrsCmd => trs_cmd(bytes).map_err(err)?,
        _ => {
            return Ok(Loaded {
                chunks: parse(file, bytes, format, raw_addr)?,
                entry: None,
            });
        }
    };
    Ok(Loaded {
        chunks: merge_chunks(file, format, chunks)?,
        entry,
    })
}

/// Chunks of a binary format, each with its record's number (for overlap messages), and the
/// entry.
type Records = (Vec<(usize, Chunk)>, Option<u16>);

/// A little-endian word at `at`, or an error naming what was cut short.
fn word(b: &[u8], at: usize, what: &str) -> Result<u16, String> {
    match b.get(at..at + 2) {
        Some(w) => Ok(u16::from_le_bytes([w[0], w[1]])),
        None => Err(format!("the file ends inside {what} (byte {at})")),
    }
}

/// The blocks of a ZX Spectrum `.tap`: (flag, data) with the checksum checked.
fn tap_blocks(b: &[u8]) -> Result<Vec<(u8, &[u8])>, String> {
    let mut blocks = Vec::new();
    let mut at = 0;
    while at < b.len() {
        let len = usize::from(word(b, at, "a block's length")?);
        let body = b
            .get(at + 2..at + 2 + len)
            .ok_or_else(|| format!("the block at byte {at} runs past the end of the file"))?;
        if len < 2 {
            return Err(format!("the block at byte {at} is {len} bytes long"));
        }
        if body.iter().fold(0u8, |a, &x| a ^ x) != 0 {
            return Err(format!("the block at byte {at} has a bad checksum"));
        }
        blocks.push((body[0], &body[1..len - 1]));
        at += 2 + len;
    }
    Ok(blocks)
}

/// A ZX Spectrum tape: every code block (a header of type 3 and its data) is loaded at the
/// header's address; the entry is the number after `USR` in the BASIC program, if the tape
/// has one, else the first code block's address.
fn tap(b: &[u8]) -> Result<Records, String> {
    let blocks = tap_blocks(b)?;
    let mut chunks = Vec::new();
    let mut usr = None;
    let mut i = 0;
    while i < blocks.len() {
        let (flag, h) = blocks[i];
        if flag != 0x00 || h.len() != 17 {
            return Err(format!("block {} is data without a header", i + 1));
        }
        let Some(&(0xFF, data)) = blocks.get(i + 1) else {
            return Err(format!("the header of block {} has no data block", i + 1));
        };
        let len = usize::from(u16::from_le_bytes([h[11], h[12]]));
        if data.len() != len {
            return Err(format!(
                "block {} holds {} bytes, its header says {len}",
                i + 2,
                data.len()
            ));
        }
        match h[0] {
            0 => usr = usr.or_else(|| basic_usr(data)),
            3 => chunks.push((
                i + 2,
                Chunk {
                    addr: u16::from_le_bytes([h[13], h[14]]),
                    bytes: data.to_vec(),
                },
            )),
            _ => {}
        }
        i += 2;
    }
    let first = chunks.first().map(|(_, c)| c.addr);
    Ok((chunks, usr.or(first)))
}

/// The number after the first `USR` token (`$C0`) of a Spectrum BASIC program: its
/// five-byte form after the digits (`$0E`, 0, sign, low, high).
fn basic_usr(program: &[u8]) -> Option<u16> {
    let at = program.iter().position(|&b| b == 0xC0)?;
    let rest = &program[at + 1..];
    let n = rest.iter().position(|&b| b == 0x0E)?;
    let f = rest.get(n + 1..n + 6)?;
    (f[0] == 0 && f[1] == 0).then(|| u16::from_le_bytes([f[2], f[3]]))
}

/// A Commodore `.prg`: the load address, then the bytes; the entry is the number after a
/// `SYS` token (`$9E`) in a BASIC line at `$0801`, else the load address.
fn prg(b: &[u8]) -> Result<Records, String> {
    let addr = word(b, 0, "the load address")?;
    let data = &b[2..];
    if data.is_empty() {
        return Err("the file holds a load address and no bytes".into());
    }
    let mut entry = addr;
    if addr == 0x0801 && data.len() > 5 && data[4] == 0x9E {
        let digits: String = data[5..]
            .iter()
            .skip_while(|&&c| c == b' ' || c == b'(')
            .take_while(|c| c.is_ascii_digit())
            .map(|&c| char::from(c))
            .collect();
        entry = match digits.parse::<u16>() {
            Ok(n) => n,
            Err(_) if digits.is_empty() => {
                return Err("the BASIC line's SYS is not followed by an address".into());
            }
            Err(_) => {
                return Err(format!(
                    "the BASIC line's SYS {digits} is past the last address (65535)"
                ));
            }
        };
    }
    Ok((
        vec![(
            1,
            Chunk {
                addr,
                bytes: data.to_vec(),
            },
        )],
        Some(entry),
    ))
}

/// An Atari binary load file: `$FFFF`, then segments (start, end, bytes), each may be
/// preceded by another `$FFFF`; the entry is the word a segment writes to RUNAD (`$02E0`).
/// A segment writing INITAD (`$02E2`) asks DOS to run code in the middle of loading, which
/// Kempelen does not do: it is refused.
fn xex(b: &[u8]) -> Result<Records, String> {
    if word(b, 0, "the header")? != 0xFFFF {
        return Err("an Atari binary file starts with $FF $FF".into());
    }
    let mut at = 2;
    let mut chunks = Vec::new();
    let mut entry = None;
    while at < b.len() {
        if word(b, at, "a segment's start")? == 0xFFFF {
            at += 2;
        }
        let start = word(b, at, "a segment's start")?;
        let end = word(b, at + 2, "a segment's end")?;
        if end < start {
            return Err(format!(
                "the segment at byte {at} ends (${end:04X}) before it starts (${start:04X})"
            ));
        }
        let len = usize::from(end - start) + 1;
        let data = b
            .get(at + 4..at + 4 + len)
            .ok_or_else(|| format!("the segment at byte {at} runs past the end of the file"))?;
        let covers = |a: u16| start <= a && a <= end;
        if covers(0x02E2) || covers(0x02E3) {
            return Err(format!(
                "the segment at byte {at} writes INITAD ($02E2): code run while loading is not supported"
            ));
        }
        if covers(0x02E0) && covers(0x02E1) {
            let o = usize::from(0x02E0 - start);
            entry = Some(u16::from_le_bytes([data[o], data[o + 1]]));
        }
        chunks.push((
            chunks.len() + 1,
            Chunk {
                addr: start,
                bytes: data.to_vec(),
            },
        ));
        at += 4 + len;
    }
    Ok((chunks, entry))
}

/// An MSX cartridge ROM of 8, 16 or 32 KB at `$4000`: the header's `AB`, then INIT (the
/// entry).
fn msx_rom(b: &[u8]) -> Result<Records, String> {
    if !b.starts_with(b"AB") {
        return Err("an MSX cartridge starts with \"AB\"".into());
    }
    if ![0x2000, 0x4000, 0x8000].contains(&b.len()) {
        return Err(format!(
            "{} bytes: an MSX cartridge here holds 8, 16 or 32 KB",
            b.len()
        ));
    }
    let init = word(b, 2, "the header")?;
    Ok((
        vec![(
            1,
            Chunk {
                addr: 0x4000,
                bytes: b.to_vec(),
            },
        )],
        (init != 0).then_some(init),
    ))
}

/// A TRS-80 `/CMD` load module: records of a type and a length; type 01 loads its bytes at the
/// address that starts it (the length counts the address, 0-2 meaning 256-258), 02 gives the
/// transfer address (the entry) and ends the file, 05 is the module's name.
fn trs_cmd(b: &[u8]) -> Result<Records, String> {
    let mut chunks = Vec::new();
    let mut at = 0;
    while at < b.len() {
        let kind = b[at];
        let len = usize::from(
            *b.get(at + 1)
                .ok_or_else(|| format!("the record at byte {at} has no length"))?,
        );
        match kind {
            0x01 => {
                let n = if len < 3 { len + 256 } else { len };
                let addr = word(b, at + 2, "a load record's address")?;
                let data = b.get(at + 4..at + 2 + n).ok_or_else(|| {
                    format!("the load record at byte {at} runs past the end of the file")
                })?;
                chunks.push((
                    chunks.len() + 1,
                    Chunk {
                        addr,
                        bytes: data.to_vec(),
                    },
                ));
                at += 2 + n;
            }
            0x02 => {
                let entry = word(b, at + 2, "the transfer address")?;
                return Ok((chunks, Some(entry)));
            }
            0x05 => at += 2 + len,
            k => {
                return Err(format!(
                    "record type {k:02X} at byte {at} is not 01, 02 or 05"
                ));
            }
        }
    }
    Err("the file ends without a transfer address (record 02)".into())
}

/// The errors of `file`: each made of its line, column and message.
fn errors_in(file: &str) -> impl Fn(usize, usize, String) -> LoadError + '_ {
    move |line, col, message| LoadError {
        file: file.to_string(),
        line,
        col,
        message,
    }
}

/// Parses `bytes` (the file `file`) in `format`. A raw image becomes one chunk at `raw_addr`.
/// Adjacent chunks are merged; chunks that overlap, or run past `$FFFF`, are an error. The
/// binary formats of the target machines go through [`parse_program`], which also gives
/// their entry.
pub fn parse(
    file: &str,
    bytes: &[u8],
    format: ImageFormat,
    raw_addr: u16,
) -> Result<Vec<Chunk>, LoadError> {
    if format.is_binary() {
        return parse_program(file, bytes, format, raw_addr).map(|l| l.chunks);
    }
    if format == ImageFormat::Raw {
        return raw(file, bytes, raw_addr);
    }
    let text = crate::files::utf8(bytes).map_err(|(line, col)| {
        errors_in(file)(
            line,
            col,
            format!("not UTF-8 text (the {format} format is text)"),
        )
    })?;
    let image = TextImage { file };
    let chunks = match format {
        ImageFormat::IntelHex => image.intel_hex(text)?,
        ImageFormat::KimTape => image.kim_tape(text)?,
        ImageFormat::HexDump => image.hex_dump(text)?,
        ImageFormat::Raw
        | ImageFormat::Tap
        | ImageFormat::Prg
        | ImageFormat::Xex
        | ImageFormat::MsxRom
        | ImageFormat::TrsCmd => unreachable!(),
    };
    merge_chunks(file, format, chunks)
}

/// A raw image: its bytes, at `raw_addr`.
fn raw(file: &str, bytes: &[u8], raw_addr: u16) -> Result<Vec<Chunk>, LoadError> {
    let err = errors_in(file);
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
    Ok(vec![Chunk {
        addr: raw_addr,
        bytes: bytes.to_vec(),
    }])
}

/// The lines of a text image that are not blank: each with its number (from 1), its indent
/// and its text without the surrounding blanks.
fn text_lines(text: &str) -> impl Iterator<Item = (usize, usize, &str)> {
    text.lines().enumerate().filter_map(|(i, raw)| {
        let indent = raw.len() - raw.trim_start().len();
        let l = raw.trim();
        (!l.is_empty()).then_some((i + 1, indent, l))
    })
}

/// A text image being read (Intel HEX, a KIM-1 tape, a hex dump): its chunks, each with the
/// line it came from, or an error at the line and column that is wrong.
struct TextImage<'a> {
    file: &'a str,
}

impl TextImage<'_> {
    fn err(&self, line: usize, col: usize, message: String) -> LoadError {
        errors_in(self.file)(line, col, message)
    }

    /// The bytes of `s`, written as pairs of hex digits (at `col` of `line`).
    fn hex_pairs(&self, s: &str, line: usize, col: usize) -> Result<Vec<u8>, LoadError> {
        if s.len() % 2 != 0 || !s.is_ascii() {
            return Err(self.err(
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
                        self.err(
                            line,
                            col + i,
                            format!("`{}` is not a hex byte", &s[i..i + 2]),
                        )
                    })
            })
            .collect()
    }

    /// A record of a tape format: `start`, then hex pairs (`what`: the format, for the error).
    fn record(
        &self,
        l: &str,
        line: usize,
        indent: usize,
        start: char,
        what: &str,
    ) -> Result<Vec<u8>, LoadError> {
        let Some(body) = l.strip_prefix(start) else {
            let message = format!("{what} record starts with `{start}`");
            return Err(self.err(line, indent + 1, message));
        };
        self.hex_pairs(body, line, indent + 2)
    }

    /// The count byte (the record's first) is the record's length less its address, its type
    /// or end, and its checksum: 4 bytes.
    fn counted(&self, rec: &[u8], line: usize, indent: usize) -> Result<(), LoadError> {
        if rec.len() < 5 || rec.len() != usize::from(rec[0]) + 5 {
            let message = "record length does not match its count byte".to_string();
            return Err(self.err(line, indent + 1, message));
        }
        Ok(())
    }

    /// Intel HEX: records up to the end record (type 01), each checked by its checksum.
    fn intel_hex(&self, text: &str) -> Result<Vec<(usize, Chunk)>, LoadError> {
        let mut chunks = Vec::new();
        for (line, indent, l) in text_lines(text) {
            let rec = self.record(l, line, indent, ':', "an Intel HEX")?;
            self.counted(&rec, line, indent)?;
            let sum = rec.iter().fold(0u8, |a, &b| a.wrapping_add(b));
            if sum != 0 {
                return Err(self.err(
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
                0x01 => break,
                0x03 | 0x05 => {}
                0x02 | 0x04 if rec[4..rec.len() - 1].iter().all(|&b| b == 0) => {}
                t @ (0x02 | 0x04) => {
                    return Err(self.err(
                        line,
                        indent + 8,
                        format!("record type {t:02X} addresses memory beyond 64 KB"),
                    ));
                }
                t => {
                    return Err(self.err(
                        line,
                        indent + 8,
                        format!("unknown record type {t:02X} (Intel HEX has types 00 to 05)"),
                    ));
                }
            }
        }
        Ok(chunks)
    }

    /// A KIM-1 tape: records up to `;00`, each checked by its 16-bit sum.
    fn kim_tape(&self, text: &str) -> Result<Vec<(usize, Chunk)>, LoadError> {
        let mut chunks = Vec::new();
        for (line, indent, l) in text_lines(text) {
            let rec = self.record(l, line, indent, ';', "a KIM-1 tape")?;
            if rec.first() == Some(&0) {
                break;
            }
            self.counted(&rec, line, indent)?;
            let n = rec.len();
            let sum: u16 = rec[..n - 2]
                .iter()
                .map(|&b| u16::from(b))
                .fold(0, u16::wrapping_add);
            let want = u16::from_be_bytes([rec[n - 2], rec[n - 1]]);
            if sum != want {
                return Err(self.err(
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
        Ok(chunks)
    }

    /// A hex dump: per line an address and the bytes after it (comment lines skipped).
    fn hex_dump(&self, text: &str) -> Result<Vec<(usize, Chunk)>, LoadError> {
        let mut chunks = Vec::new();
        for (line, indent, l) in text_lines(text) {
            if l.starts_with([';', '#']) {
                continue;
            }
            if let Some(chunk) = self.hex_dump_line(l, line, indent)? {
                chunks.push((line, chunk));
            }
        }
        Ok(chunks)
    }

    /// A hex dump line: `ADDR b b b ...` (or `ADDR:b b ...`); the bytes end at the first
    /// token that is not a hex byte (an ASCII column, a comment).
    fn hex_dump_line(
        &self,
        l: &str,
        line: usize,
        indent: usize,
    ) -> Result<Option<Chunk>, LoadError> {
        let mut tokens = l.split_whitespace();
        let first = tokens.next().unwrap_or("");
        let (addr_text, rest_first) = match first.split_once(':') {
            Some((a, r)) => (a, (!r.is_empty()).then_some(r)),
            None => (first, None),
        };
        let addr = u16::from_str_radix(addr_text, 16)
            .ok()
            .filter(|_| addr_text.len() == 4 && addr_text.bytes().all(|b| b.is_ascii_hexdigit()))
            .ok_or_else(|| {
                self.err(
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
        Ok((!data.is_empty()).then_some(Chunk { addr, bytes: data }))
    }
}

/// Sorts the chunks (each with the line or record it came from) by address and joins adjacent
/// ones; overlapping chunks, chunks running past `$FFFF`, or none at all, are an error naming
/// the line.
fn merge_chunks(
    file: &str,
    format: ImageFormat,
    mut chunks: Vec<(usize, Chunk)>,
) -> Result<Vec<Chunk>, LoadError> {
    let err = errors_in(file);
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

    /// The error reading the text image `text`, as printed.
    fn error(file: &str, text: &[u8], format: ImageFormat) -> String {
        parse(file, text, format, 0).unwrap_err().to_string()
    }

    /// The text image `text` reads as the chunks `expected`.
    fn reads(file: &str, text: &[u8], format: ImageFormat, expected: &[Chunk]) {
        assert_eq!(parse(file, text, format, 0).unwrap(), expected);
    }

    /// Reading the text image `text` fails with `expected`.
    fn refused(file: &str, text: &[u8], format: ImageFormat, expected: &str) {
        assert_eq!(error(file, text, format), expected);
    }

    fn chunk(addr: u16, bytes: &[u8]) -> Chunk {
        Chunk {
            addr,
            bytes: bytes.to_vec(),
        }
    }

    #[test]
    fn detects_formats() {
        for (text, format) in [
            (&b":0100000000FF\n:00000001FF\n"[..], ImageFormat::IntelHex),
            (b"0000 D8 A2\n0002 FF\n", ImageFormat::HexDump),
            (b";0100000001\n;00\n", ImageFormat::KimTape),
            (&[0x3E, 0x01, 0xD3], ImageFormat::Raw),
        ] {
            assert_eq!(ImageFormat::detect(text), format, "{text:?}");
        }
    }

    #[test]
    fn intel_hex_with_checksums() {
        let text = b":03010000AF3E41CE\n:02020000414279\n:00000001FF\n";
        reads(
            "a.hex",
            text,
            ImageFormat::IntelHex,
            &[
                chunk(0x0100, &[0xAF, 0x3E, 0x41]),
                chunk(0x0200, &[0x41, 0x42]),
            ],
        );
        refused(
            "a.hex",
            b":03010000AF3E41CF\n",
            ImageFormat::IntelHex,
            "a.hex:1:1: checksum error (the bytes sum to $01, not $00)",
        );
    }

    #[test]
    fn hex_dump_lines_merge_and_overlaps_are_refused() {
        let text = b"; Soft6502 style\n0000 D8 A2 FF 9A\n0004 A2 C8  ..ascii\n1F6A 60 \n";
        reads(
            "m.h65",
            text,
            ImageFormat::HexDump,
            &[
                chunk(0, &[0xD8, 0xA2, 0xFF, 0x9A, 0xA2, 0xC8]),
                chunk(0x1F6A, &[0x60]),
            ],
        );
        refused(
            "m.h65",
            b"0000 01 02 03\n0002 04\n",
            ImageFormat::HexDump,
            "m.h65:2:1: bytes at $0002 overlap those of line 1",
        );
        refused(
            "m.h65",
            b"00G0 01\n",
            ImageFormat::HexDump,
            "m.h65:1:1: `00G0` is not a four-digit hex address",
        );
    }

    #[test]
    fn kim_tape_records() {
        // ;02 0200 A9 41 checksum = 02+02+00+A9+41 = $00EE
        let text = b";020200A94100EE\n;0000010001\n";
        reads(
            "t.ptp",
            text,
            ImageFormat::KimTape,
            &[chunk(0x0200, &[0xA9, 0x41])],
        );
        let e = error("t.ptp", b";020200A94100EF\n", ImageFormat::KimTape);
        assert!(e.starts_with("t.ptp:1:1: checksum error"), "{e}");
    }

    /// The target machines' files: their chunks and the entry each names.
    #[test]
    fn machine_program_files_and_their_entries() {
        // A .prg with `10 SYS 2062`.
        let prg = [
            0x01, 0x08, 0x0C, 0x08, 0x0A, 0x00, 0x9E, b'2', b'0', b'6', b'2', 0x00, 0x00, 0x00,
            0x60,
        ];
        let l = parse_program("k.prg", &prg, ImageFormat::detect_file("k.prg", &prg), 0).unwrap();
        assert_eq!(l.entry, Some(2062));
        assert_eq!(l.chunks[0].addr, 0x0801);
        // An Atari file: one segment, then RUNAD.
        let xex = [
            0xFF, 0xFF, 0x00, 0x20, 0x01, 0x20, 0xEA, 0x60, 0xE0, 0x02, 0xE1, 0x02, 0x00, 0x20,
        ];
        let l = parse_program("k.xex", &xex, ImageFormat::Xex, 0).unwrap();
        assert_eq!(l.entry, Some(0x2000));
        assert_eq!(l.chunks.len(), 2);
        let init = [0xFF, 0xFF, 0xE2, 0x02, 0xE3, 0x02, 0x00, 0x20];
        let e = parse_program("k.xex", &init, ImageFormat::Xex, 0).unwrap_err();
        assert!(e.message.contains("INITAD"), "{e}");
        // A /CMD: name, one load record of 2 bytes, transfer address.
        let cmd = [
            0x05, 0x01, b'K', 0x01, 0x04, 0x00, 0x52, 0xC3, 0x00, 0x02, 0x02, 0x00, 0x52,
        ];
        assert_eq!(
            ImageFormat::detect_file("dir/KEMPELEN/CMD", &cmd),
            ImageFormat::TrsCmd
        );
        let l = parse_program("K/CMD", &cmd, ImageFormat::TrsCmd, 0).unwrap();
        assert_eq!(l.entry, Some(0x5200));
        assert_eq!(l.chunks[0].bytes, [0xC3, 0x00]);
        let e = parse_program("K/CMD", &cmd[..9], ImageFormat::TrsCmd, 0).unwrap_err();
        assert!(e.message.contains("transfer address"), "{e}");
        // An MSX cartridge of 16 KB: INIT at $4010.
        let mut rom = vec![0xFFu8; 0x4000];
        rom[..4].copy_from_slice(b"AB\x10\x40");
        let l = parse_program("k.rom", &rom, ImageFormat::detect_file("k.rom", &rom), 0).unwrap();
        assert_eq!(l.entry, Some(0x4010));
        assert!(parse_program("k.rom", &rom[..100], ImageFormat::MsxRom, 0).is_err());
        // A tape: a BASIC loader with USR 32771, a code block at 32768.
        let mut tap = Vec::new();
        let block = |tap: &mut Vec<u8>, flag: u8, data: &[u8]| {
            tap.extend_from_slice(&((data.len() + 2) as u16).to_le_bytes());
            tap.push(flag);
            tap.extend_from_slice(data);
            tap.push(data.iter().fold(flag, |a, &b| a ^ b));
        };
        let basic = [
            0x00, 0x0A, 0x0D, 0x00, 0xF9, 0xC0, b'3', 0x0E, 0x00, 0x00, 0x03, 0x80, 0x00, 0x0D,
        ];
        let mut head = vec![0u8; 17];
        head[11..13].copy_from_slice(&(basic.len() as u16).to_le_bytes());
        block(&mut tap, 0, &head);
        block(&mut tap, 0xFF, &basic);
        let mut head = vec![3u8; 17];
        head[11..17].copy_from_slice(&[3, 0, 0x00, 0x80, 0x00, 0x80]);
        block(&mut tap, 0, &head);
        block(&mut tap, 0xFF, &[1, 2, 3]);
        let l = parse_program("k.tap", &tap, ImageFormat::Tap, 0).unwrap();
        assert_eq!(l.entry, Some(32771));
        assert_eq!(l.chunks[0].addr, 0x8000);
        let mut bad = tap.clone();
        let last = bad.len() - 1;
        bad[last] ^= 1;
        let e = parse_program("k.tap", &bad, ImageFormat::Tap, 0).unwrap_err();
        assert!(e.message.contains("bad checksum"), "{e}");
        // Without an extension each is known by its contents, read whole; a file that is one
        // of them only in part (a corrupted tape) is not.
        for (bytes, format) in [
            (&prg[..], ImageFormat::Prg),
            (&xex[..], ImageFormat::Xex),
            (&cmd[..], ImageFormat::TrsCmd),
            (&rom[..], ImageFormat::MsxRom),
            (&tap[..], ImageFormat::Tap),
            (&bad[..], ImageFormat::Raw),
            (&xex[..xex.len() - 1], ImageFormat::Raw),
            (&cmd[..cmd.len() - 1], ImageFormat::Raw),
            (&[0xFF, 0xFF, 0x3E, 0x01][..], ImageFormat::Raw),
            (&[0x3E, 0x01, 0xD3][..], ImageFormat::Raw),
        ] {
            assert_eq!(ImageFormat::detect_file("game", bytes), format, "{bytes:?}");
        }
        // A SYS address past $FFFF is refused (it used to start at the load address).
        let mut far = prg;
        far[7..11].copy_from_slice(b"9999");
        let mut far = far.to_vec();
        far.insert(7, b'9');
        let e = parse_program("k.prg", &far, ImageFormat::Prg, 0).unwrap_err();
        assert!(
            e.message.contains("SYS 99999 is past the last address"),
            "{e}"
        );
    }

    #[test]
    fn a_text_image_with_one_bad_line_is_an_error_at_that_line_never_raw() {
        for (file, text, format, expected) in [
            (
                "m.h65",
                &b"0000 00 00\n+FFF 00\n"[..],
                ImageFormat::HexDump,
                "m.h65:2:1: `+FFF` is not a four-digit hex address",
            ),
            (
                "a.hex",
                b":0100000000FF\n:01000100\xe900FF\n",
                ImageFormat::IntelHex,
                "a.hex:2:10: not UTF-8 text (the intel-hex format is text)",
            ),
        ] {
            assert_eq!(ImageFormat::detect(text), format, "{file}");
            refused(file, text, format, expected);
        }
        refused(
            "a.hex",
            b":01000000+1FF\n",
            ImageFormat::IntelHex,
            "a.hex:1:10: `+1` is not a hex byte",
        );
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
        refused(
            "a.hex",
            b":00000006FA\n",
            ImageFormat::IntelHex,
            "a.hex:1:8: unknown record type 06 (Intel HEX has types 00 to 05)",
        );
        refused(
            "a.hex",
            b":020000021000EC\n",
            ImageFormat::IntelHex,
            "a.hex:1:8: record type 02 addresses memory beyond 64 KB",
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
            assert_eq!(
                error("e", text, format),
                format!("e:1:1: the {format} image holds no bytes to load")
            );
        }
    }
}
