//! The program files of the target machines (crate::target), each written as its owners load
//! it. Kempelen's emulator reads every one of them back (`kempelen_emulator::loaders`).
//!
//! | format | machine | what the file holds |
//! |---|---|---|
//! | `com` | CP/M 2.2 | the image from `$0100`, as the CCP loads and starts a `.COM` file |
//! | `tap` | ZX Spectrum | a tape: a BASIC loader (`CLEAR`, `LOAD "" CODE`, `RANDOMIZE USR`), auto-started, then the code block |
//! | `rom` | MSX | a cartridge ROM of 32 KB from `$4000`, its header (`AB`, INIT) in the image, the rest `$FF` |
//! | `cmd` | TRS-80 | a `/CMD` load module: a name record, load records of at most 254 bytes, the transfer address |
//! | `prg` | Commodore 64 | the load address, then the image (its BASIC `SYS` line first) |
//! | `bin` | Apple II, raw | the image alone, for `BRUN` at the stated address (or `py65mon -l`, see `raw0`) |
//! | `xex` | Atari 800 | a DOS binary load file: `$FFFF`, one segment with the image, then `RUNAD` |
//! | `kim` | KIM-1 | paper tape in the monitor's format: `;` records of 24 bytes with a checksum, `;00` at the end |
//! | `raw0` | py65 | the image with everything below it zero, to load at address 0 (`py65mon -l`) |
//!
//! Sources of the formats: Digital Research, "CP/M 2.2 Interface Guide" (1979); Sinclair
//! Research, "ZX Spectrum BASIC Programming" (S. Vickers, 1982), chapter 20 and the tape header
//! of its appendix, with the tokens of its character set; ASCII Corporation, "MSX Technical
//! Data Book" (1983), the cartridge header; Radio Shack, "TRSDOS Reference Manual" (1979), the
//! load module format; Commodore, "Commodore 64 Programmer's Reference Guide" (1982); Apple,
//! "The DOS Manual" (1980), `BRUN`; Atari, "Atari 400/800 Disk Operating System II Reference
//! Manual" (1980), binary files; MOS Technology, "KIM-1 User Manual" (1976), paper tape.

use std::fmt;

/// A program file format (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// CP/M `.COM`.
    Com,
    /// ZX Spectrum `.tap`.
    Tap,
    /// MSX cartridge ROM (32 KB).
    Rom,
    /// TRS-80 `/CMD`.
    Cmd,
    /// Commodore `.prg`.
    Prg,
    /// The image alone.
    Bin,
    /// Atari `.xex`.
    Xex,
    /// KIM-1 paper tape.
    Kim,
    /// The image from address 0 (zeros below it).
    Raw0,
}

impl Format {
    /// The format's name as a target description spells it.
    pub fn name(self) -> &'static str {
        match self {
            Format::Com => "com",
            Format::Tap => "tap",
            Format::Rom => "rom",
            Format::Cmd => "cmd",
            Format::Prg => "prg",
            Format::Bin => "bin",
            Format::Xex => "xex",
            Format::Kim => "kim",
            Format::Raw0 => "raw0",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An image a format cannot hold.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a {format} file cannot hold this image: {reason}")]
pub struct FormatError {
    /// The format.
    pub format: Format,
    /// Why not.
    pub reason: String,
}

/// The program to write: its image, where it loads, where it starts, and its name.
#[derive(Debug, Clone, Copy)]
pub struct Program<'a> {
    /// The bytes.
    pub image: &'a [u8],
    /// Their load address.
    pub origin: u16,
    /// Where execution starts.
    pub entry: u16,
    /// The name the file carries (tape and module headers), ASCII.
    pub name: &'a str,
}

impl Program<'_> {
    /// One past the image's last address.
    fn end(&self) -> usize {
        usize::from(self.origin) + self.image.len()
    }
}

/// Writes `program` in `format`.
pub fn write(format: Format, program: &Program) -> Result<Vec<u8>, FormatError> {
    let err = |reason: String| FormatError { format, reason };
    if program.image.is_empty() || program.end() > 0x10000 {
        return Err(err(format!(
            "{} bytes at ${:04X} do not fit 64 KB",
            program.image.len(),
            program.origin
        )));
    }
    match format {
        Format::Com => {
            if program.origin != 0x0100 {
                return Err(err(format!(
                    "a .COM file loads (and starts) at $0100, not ${:04X}",
                    program.origin
                )));
            }
            Ok(program.image.to_vec())
        }
        Format::Bin => Ok(program.image.to_vec()),
        Format::Raw0 => {
            let mut v = vec![0u8; usize::from(program.origin)];
            v.extend_from_slice(program.image);
            Ok(v)
        }
        Format::Prg => {
            let mut v = program.origin.to_le_bytes().to_vec();
            v.extend_from_slice(program.image);
            Ok(v)
        }
        Format::Rom => {
            if program.origin != 0x4000 || program.end() > 0xC000 {
                return Err(err(format!(
                    "an MSX cartridge of 32 KB covers $4000-$BFFF; the image is at ${:04X}-${:04X}",
                    program.origin,
                    program.end() - 1
                )));
            }
            if !program.image.starts_with(b"AB") {
                return Err(err(
                    "the image does not start with the header's \"AB\"".into()
                ));
            }
            let mut v = program.image.to_vec();
            v.resize(0x8000, 0xFF);
            Ok(v)
        }
        Format::Xex => {
            let mut v = vec![0xFF, 0xFF];
            v.extend_from_slice(&program.origin.to_le_bytes());
            v.extend_from_slice(&((program.end() - 1) as u16).to_le_bytes());
            v.extend_from_slice(program.image);
            // RUNAD ($02E0): where DOS starts the program once it is loaded.
            v.extend_from_slice(&[0xE0, 0x02, 0xE1, 0x02]);
            v.extend_from_slice(&program.entry.to_le_bytes());
            Ok(v)
        }
        Format::Cmd => Ok(trs_cmd(program)),
        Format::Kim => Ok(kim_tape(program).into_bytes()),
        Format::Tap => spectrum_tap(program).map_err(err),
    }
}

/// A TRSDOS load module: record type 05 (the name), type 01 (a load block: the length byte
/// counts the two address bytes and the data, 0 meaning 256), type 02 (the transfer address).
fn trs_cmd(p: &Program) -> Vec<u8> {
    let mut v = Vec::new();
    let name: Vec<u8> = p
        .name
        .bytes()
        .filter(u8::is_ascii_alphanumeric)
        .take(8)
        .map(|b| b.to_ascii_uppercase())
        .collect();
    v.push(0x05);
    v.push(name.len() as u8);
    v.extend_from_slice(&name);
    for (i, chunk) in p.image.chunks(254).enumerate() {
        let addr = p.origin + (i * 254) as u16;
        v.push(0x01);
        v.push(((chunk.len() + 2) & 0xFF) as u8);
        v.extend_from_slice(&addr.to_le_bytes());
        v.extend_from_slice(chunk);
    }
    v.extend_from_slice(&[0x02, 0x02]);
    v.extend_from_slice(&p.entry.to_le_bytes());
    v
}

/// KIM-1 paper tape: per record `;`, the byte count, the address (high, low), the data and a
/// 16-bit checksum of count, address and data bytes, all in hex, then CR LF; the last record
/// `;00` with the number of records and its checksum.
fn kim_tape(p: &Program) -> String {
    let mut s = String::new();
    let mut records = 0u16;
    for (i, chunk) in p.image.chunks(24).enumerate() {
        let addr = p.origin + (i * 24) as u16;
        let mut sum = chunk.len() as u16 + (addr >> 8) + (addr & 0xFF);
        s.push_str(&format!(";{:02X}{addr:04X}", chunk.len()));
        for &b in chunk {
            s.push_str(&format!("{b:02X}"));
            sum = sum.wrapping_add(u16::from(b));
        }
        s.push_str(&format!("{sum:04X}\r\n"));
        records += 1;
    }
    let sum = (records >> 8) + (records & 0xFF);
    s.push_str(&format!(";00{records:04X}{sum:04X}\r\n"));
    s
}

/// ZX Spectrum BASIC tokens used by the loader.
const TOKEN_CLEAR: u8 = 0xFD;
const TOKEN_LOAD: u8 = 0xEF;
const TOKEN_CODE: u8 = 0xAF;
const TOKEN_RANDOMIZE: u8 = 0xF9;
const TOKEN_USR: u8 = 0xC0;
/// The loader's line number (and the program's auto-start line).
const LOADER_LINE: u16 = 10;

/// A number in a Spectrum BASIC line: its digits, then `0E` and the five-byte small-integer
/// form (0, sign, value low, high, 0).
fn basic_number(out: &mut Vec<u8>, n: u16) {
    out.extend_from_slice(n.to_string().as_bytes());
    out.push(0x0E);
    out.extend_from_slice(&[0x00, 0x00]);
    out.extend_from_slice(&n.to_le_bytes());
    out.push(0x00);
}

/// One tape block: its length, then the flag byte, the data and the XOR of both.
fn tap_block(out: &mut Vec<u8>, flag: u8, data: &[u8]) {
    out.extend_from_slice(&((data.len() + 2) as u16).to_le_bytes());
    out.push(flag);
    out.extend_from_slice(data);
    out.push(data.iter().fold(flag, |a, &b| a ^ b));
}

/// A 17-byte tape header: type, ten-character name, data length, two parameters.
fn tap_header(kind: u8, name: &str, len: u16, param1: u16, param2: u16) -> Vec<u8> {
    let mut h = vec![kind];
    let mut n: Vec<u8> = name
        .bytes()
        .filter(|b| (0x20..0x7F).contains(b))
        .take(10)
        .collect();
    n.resize(10, b' ');
    h.extend_from_slice(&n);
    h.extend_from_slice(&len.to_le_bytes());
    h.extend_from_slice(&param1.to_le_bytes());
    h.extend_from_slice(&param2.to_le_bytes());
    h
}

/// The Spectrum tape: `10 CLEAR origin-1: LOAD "" CODE : RANDOMIZE USR entry`, saved to start
/// at line 10, then the code block at `origin`.
fn spectrum_tap(p: &Program) -> Result<Vec<u8>, String> {
    if p.origin < 0x5D00 {
        return Err(format!(
            "the code at ${:04X} would overwrite the screen, the system variables or the BASIC loader",
            p.origin
        ));
    }
    let mut line = vec![TOKEN_CLEAR];
    basic_number(&mut line, p.origin - 1);
    line.extend_from_slice(&[
        b':',
        TOKEN_LOAD,
        b'"',
        b'"',
        TOKEN_CODE,
        b':',
        TOKEN_RANDOMIZE,
        TOKEN_USR,
    ]);
    basic_number(&mut line, p.entry);
    line.push(0x0D);
    let mut program = LOADER_LINE.to_be_bytes().to_vec();
    program.extend_from_slice(&(line.len() as u16).to_le_bytes());
    program.extend_from_slice(&line);
    let len = program.len() as u16;
    let mut v = Vec::new();
    tap_block(&mut v, 0x00, &tap_header(0, p.name, len, LOADER_LINE, len));
    tap_block(&mut v, 0xFF, &program);
    let code_name = format!("{}.bin", p.name.chars().take(6).collect::<String>());
    tap_block(
        &mut v,
        0x00,
        &tap_header(3, &code_name, p.image.len() as u16, p.origin, 0x8000),
    );
    tap_block(&mut v, 0xFF, p.image);
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(image: &[u8], origin: u16, entry: u16) -> Program<'_> {
        Program {
            image,
            origin,
            entry,
            name: "kempelen",
        }
    }

    #[test]
    fn a_com_file_loads_at_0100() {
        let p = program(&[0xC3, 0x00, 0x01], 0x0100, 0x0100);
        assert_eq!(write(Format::Com, &p).unwrap(), [0xC3, 0x00, 0x01]);
        let e = write(Format::Com, &program(&[0], 0x8000, 0x8000)).unwrap_err();
        assert!(e.to_string().contains("$0100"), "{e}");
    }

    #[test]
    fn kim_tape_records_carry_their_checksums() {
        let image: Vec<u8> = (0..30).collect();
        let tape = String::from_utf8(write(Format::Kim, &program(&image, 0x2000, 0x2000)).unwrap())
            .unwrap();
        let lines: Vec<&str> = tape.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[0].starts_with(";182000000102"), "{}", lines[0]);
        let sum: u16 = 0x18 + 0x20 + (0..24u16).sum::<u16>();
        assert!(lines[0].ends_with(&format!("{sum:04X}")));
        assert_eq!(lines[2], ";0000020002");
    }

    #[test]
    fn a_tap_holds_the_loader_and_the_code() {
        let image = [0xC3, 0x00, 0x80];
        let tap = write(Format::Tap, &program(&image, 0x8000, 0x8000)).unwrap();
        // The first block: 19 bytes of header (flag 0, type 0 = program).
        assert_eq!(&tap[..4], &[19, 0, 0, 0]);
        // The BASIC line starts with line 10 (big-endian) and CLEAR 32767.
        let basic = &tap[21..];
        assert_eq!(&basic[3..7], &[0, 10, basic[5], 0]);
        assert!(basic.windows(6).any(|w| w == b"\xFD32767"));
        assert!(tap.ends_with(&[0xFF, 0xC3, 0x00, 0x80, 0xFF ^ 0xC3 ^ 0x80]));
        assert!(write(Format::Tap, &program(&image, 0x4000, 0x4000)).is_err());
    }

    #[test]
    fn an_msx_cartridge_is_32_kb_from_4000() {
        let rom = write(Format::Rom, &program(b"AB\x10\x40", 0x4000, 0x4010)).unwrap();
        assert_eq!(rom.len(), 0x8000);
        assert_eq!(rom[4], 0xFF);
        assert!(write(Format::Rom, &program(b"XX", 0x4000, 0x4000)).is_err());
    }

    #[test]
    fn cmd_and_xex_carry_the_entry() {
        let image = vec![0xEA; 300];
        let cmd = write(Format::Cmd, &program(&image, 0x5200, 0x5234)).unwrap();
        assert_eq!(&cmd[..2], &[0x05, 8]);
        assert_eq!(&cmd[10..14], &[0x01, 0x00, 0x00, 0x52]);
        assert!(cmd.ends_with(&[0x02, 0x02, 0x34, 0x52]));
        let xex = write(Format::Xex, &program(&image, 0x2000, 0x2010)).unwrap();
        assert_eq!(&xex[..6], &[0xFF, 0xFF, 0x00, 0x20, 0x2B, 0x21]);
        assert!(xex.ends_with(&[0xE0, 0x02, 0xE1, 0x02, 0x10, 0x20]));
    }
}
