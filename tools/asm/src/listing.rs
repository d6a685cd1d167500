//! The listing: every source line with its address, bytes and cycles, as users read it to
//! learn how a program was put together.
//!
//! ```text
//!  line  addr  bytes        cycles  source
//!     3  1000  3E 10             7  start:  ld a,10h
//!     4  1002  20 FC          7/12          jr nz,start
//! ```

use std::fmt;
use std::sync::Arc;

use crate::isa::{Cycles, SourceMap, hex_bytes};

/// One line of the listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListingLine {
    /// The file the line comes from (for macro lines, the file of the macro definition).
    pub file: Arc<str>,
    /// 1-based line number in that file.
    pub line: u32,
    /// Address of the first byte, if the line emitted bytes or defined a label.
    pub addr: Option<u16>,
    /// The bytes the line emitted.
    pub bytes: Vec<u8>,
    /// The instruction's cycles, if the line is an instruction.
    pub cycles: Option<Cycles>,
    /// The source text (after macro argument substitution for macro lines).
    pub source: Arc<str>,
    /// Macro nesting depth: 0 for lines of a file, 1 for lines of a macro called from a file ...
    pub macro_depth: u32,
    /// The line lies in a false branch of `IF` and was not assembled.
    pub skipped: bool,
}

/// The whole listing, in assembly order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Listing {
    /// The lines.
    pub lines: Vec<ListingLine>,
}

impl Listing {
    /// The source line of every address the program filled (skipped `IF` branches left out),
    /// for a debugger that shows `file:line` beside each instruction.
    ///
    /// ```
    /// use kempelen_asm::{Cpu, assemble_source};
    ///
    /// let out = assemble_source(Cpu::Mos6502, "t.asm", "  .org $0600\n  ldx #3\n@l: dex\n  bne @l\n");
    /// let map = out.listing.source_map();
    /// let dex = map.at(0x0602).unwrap();
    /// assert_eq!((dex.place().as_str(), dex.text.as_ref()), ("t.asm:3", "@l: dex"));
    /// ```
    pub fn source_map(&self) -> SourceMap {
        let mut map = SourceMap::new();
        for l in &self.lines {
            if let (Some(addr), false) = (l.addr, l.skipped || l.bytes.is_empty()) {
                let len = l.bytes.len().min(0xFFFF) as u16;
                let code = l.cycles.is_some();
                map.insert(addr, len, code, l.file.clone(), l.line, l.source.clone());
            }
        }
        map
    }
}

const BYTES_PER_ROW: usize = 4;
/// Long data (`DS 1000`) is cut after this many rows.
const MAX_ROWS: usize = 4;

impl fmt::Display for Listing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, " line  addr  bytes        cycles  source")?;
        let mut current_file: Option<&Arc<str>> = None;
        for l in &self.lines {
            if current_file != Some(&l.file) {
                writeln!(f, "; file {}", l.file)?;
                current_file = Some(&l.file);
            }
            let addr = l.addr.map(|a| format!("{a:04X}")).unwrap_or_default();
            let mut rows = l.bytes.chunks(BYTES_PER_ROW);
            let first = rows.next().map(hex_bytes).unwrap_or_default();
            let cycles = l.cycles.map(|c| c.to_string()).unwrap_or_default();
            let marker = if l.skipped {
                "-"
            } else if l.macro_depth > 0 {
                "+"
            } else {
                " "
            };
            writeln!(
                f,
                "{:>5}{marker} {addr:4}  {first:12} {cycles:>6}  {}",
                l.line, l.source
            )?;
            let mut offset = BYTES_PER_ROW;
            for row in rows {
                let a = l
                    .addr
                    .map(|a| format!("{:04X}", a.wrapping_add(offset as u16)))
                    .unwrap_or_default();
                if offset == BYTES_PER_ROW * MAX_ROWS {
                    writeln!(
                        f,
                        "{:>5}  {a:4}  ... {} more bytes",
                        "",
                        l.bytes.len() - offset
                    )?;
                    break;
                }
                writeln!(f, "{:>5}  {a:4}  {}", "", hex_bytes(row))?;
                offset += BYTES_PER_ROW;
            }
        }
        Ok(())
    }
}
