//! The source map: which source line put the bytes at an address, for a debugger that shows
//! the assembly source beside the disassembly (`file:line` of each instruction).
//!
//! The assembler builds it from its listing (`kempelen_asm::listing::Listing::source_map`);
//! the emulator's debugger reads it. It lives here, below both, as the symbol file does.
//!
//! ```
//! use kempelen_isa::source_map::SourceMap;
//!
//! let mut map = SourceMap::new();
//! map.insert(0x1000, 2, true, "loop.asm", 3, "start:  ld a,10h");
//! map.insert(0x1002, 2, true, "loop.asm", 4, "        jr nz,start");
//! let at = map.at(0x1002).unwrap();
//! assert_eq!((at.file.as_ref(), at.line), ("loop.asm", 4));
//! assert_eq!(map.containing(0x1001).unwrap().addr, 0x1000);
//! assert_eq!(map.at(0x1001), None);
//! ```

use std::sync::Arc;

/// The source line that put bytes at an address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceLine {
    /// The first byte's address.
    pub addr: u16,
    /// How many bytes the line put there (at least 1).
    pub len: u16,
    /// Whether the line is an instruction (not data such as `DB`).
    pub code: bool,
    /// The file (for a line of a macro: the file of the macro's definition).
    pub file: Arc<str>,
    /// 1-based line number in that file.
    pub line: u32,
    /// The line's text as assembled.
    pub text: Arc<str>,
}

impl SourceLine {
    /// `file:line`.
    pub fn place(&self) -> String {
        format!("{}:{}", self.file, self.line)
    }
}

/// Source lines by address. Where two lines wrote the same address (overlapping `ORG`s),
/// the later one is kept, as the image keeps its byte.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceMap {
    /// Sorted by address; no two overlap.
    lines: Vec<SourceLine>,
}

impl SourceMap {
    /// An empty map.
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    /// Adds the line that put `len` bytes at `addr` (nothing for `len` 0); lines added earlier
    /// that share a byte with it are dropped. Lines are expected in assembly order.
    pub fn insert(
        &mut self,
        addr: u16,
        len: u16,
        code: bool,
        file: impl Into<Arc<str>>,
        line: u32,
        text: impl Into<Arc<str>>,
    ) {
        if len == 0 {
            return;
        }
        // In u32: at address 0, 0x10000 does not fit a u16.
        let len = u32::from(len).min(0x10000 - u32::from(addr)) as u16;
        let end = u32::from(addr) + u32::from(len);
        // Sorted and without overlaps, the lines' ends are sorted too: the ones this line
        // overlaps are one run.
        let first = self
            .lines
            .partition_point(|l| u32::from(l.addr) + u32::from(l.len) <= u32::from(addr));
        let last = self.lines.partition_point(|l| u32::from(l.addr) < end);
        self.lines.drain(first..last.max(first));
        self.lines.insert(
            first,
            SourceLine {
                addr,
                len,
                code,
                file: file.into(),
                line,
                text: text.into(),
            },
        );
    }

    /// Number of lines.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Whether the map is empty.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The lines in address order.
    pub fn iter(&self) -> impl Iterator<Item = &SourceLine> {
        self.lines.iter()
    }

    /// The line whose bytes start at `addr`.
    pub fn at(&self, addr: u16) -> Option<&SourceLine> {
        self.containing(addr).filter(|l| l.addr == addr)
    }

    /// The line whose bytes include `addr`.
    pub fn containing(&self, addr: u16) -> Option<&SourceLine> {
        let i = self.lines.partition_point(|l| l.addr <= addr);
        let l = self.lines.get(i.checked_sub(1)?)?;
        (u32::from(addr) < u32::from(l.addr) + u32::from(l.len)).then_some(l)
    }

    /// Up to `n` instruction lines that end at or before `addr`, each directly followed by the
    /// next (no gap, no data between them and `addr`), oldest first: the instructions a
    /// disassembly can show before `addr` without guessing where one starts.
    pub fn code_before(&self, addr: u16, n: usize) -> Vec<&SourceLine> {
        let mut out = Vec::new();
        let mut next = u32::from(addr);
        let mut i = self.lines.partition_point(|l| l.addr < addr);
        while out.len() < n && i > 0 {
            i -= 1;
            let l = &self.lines[i];
            if !l.code || u32::from(l.addr) + u32::from(l.len) != next {
                break;
            }
            next = u32::from(l.addr);
            out.push(l);
        }
        out.reverse();
        out
    }

    /// The lines of `file`, by line number (for marking breakpoints in an editor).
    pub fn lines_of<'a>(&'a self, file: &'a str) -> impl Iterator<Item = &'a SourceLine> {
        self.lines.iter().filter(move |l| l.file.as_ref() == file)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_later_line_replaces_the_bytes_it_overlaps() {
        let mut m = SourceMap::new();
        m.insert(0x100, 3, true, "a.asm", 1, "jp x");
        m.insert(0x103, 1, true, "a.asm", 2, "nop");
        m.insert(0x101, 1, false, "a.asm", 5, "db 0");
        assert_eq!(m.len(), 2);
        assert_eq!(m.at(0x100), None);
        assert_eq!(m.at(0x101).unwrap().line, 5);
        assert_eq!(m.containing(0x102), None);
        assert_eq!(m.at(0x103).unwrap().line, 2);
    }

    #[test]
    fn code_before_stops_at_data_and_gaps() {
        let mut m = SourceMap::new();
        m.insert(0x0FF0, 1, false, "a.asm", 1, "db 1");
        m.insert(0x1000, 2, true, "a.asm", 2, "ld a,1");
        m.insert(0x1002, 1, true, "a.asm", 3, "inc a");
        m.insert(0x1003, 3, true, "a.asm", 4, "jp 1000h");
        let before: Vec<u32> = m.code_before(0x1006, 5).iter().map(|l| l.line).collect();
        assert_eq!(before, [2, 3, 4]);
        let before: Vec<u32> = m.code_before(0x1003, 1).iter().map(|l| l.line).collect();
        assert_eq!(before, [3]);
        assert!(m.code_before(0x1001, 3).is_empty());
        assert_eq!(m.containing(0xFFFF), None);
        m.insert(0xFFFE, 5, true, "a.asm", 9, "wraps");
        assert_eq!(m.containing(0xFFFF).unwrap().line, 9);
    }

    #[test]
    fn a_line_at_address_zero_keeps_its_length() {
        let mut m = SourceMap::new();
        m.insert(0x0000, 3, true, "a.asm", 1, "jp start");
        assert_eq!(m.at(0x0000).unwrap().len, 3);
        assert_eq!(m.containing(0x0002).unwrap().line, 1);
    }
}
