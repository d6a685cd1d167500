//! The memory map: which addresses are ROM, RAM, I/O or nothing, and where the stack may live.
//!
//! A [`MemoryMap`] is plain data, checked once by [`MemoryMap::validate`] when a machine is
//! built. The machine turns it into one attribute byte per address so the hot loop decides
//! every access with a single table look-up.
//!
//! Rules the machine enforces (see `docs/MACHINE.md`):
//! - ROM: the CPU reads it; a CPU write is not applied and stops the run with an error.
//! - RAM: read and written freely; every address the CPU writes is remembered for the RAM
//!   profile.
//! - I/O page (6502 only): the devices of [`crate::devices`].
//! - Unmapped: reads give `0xFF` and are counted; writes stop the run with an error.
//! - Stack region: the stack pointer must stay inside it (growing below it is a stack
//!   overflow, popping above its top an underflow).

use crate::Cpu;
use crate::devices::MOS6502_IO_PAGE;
use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;

/// What a region of memory is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum RegionKind {
    /// Read-only memory.
    Rom,
    /// Read-write memory.
    Ram,
}

impl fmt::Display for RegionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RegionKind::Rom => "ROM",
            RegionKind::Ram => "RAM",
        })
    }
}

/// An inclusive address range `start..=end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub struct AddrRange {
    /// First address.
    pub start: u16,
    /// Last address (inclusive).
    pub end: u16,
}

impl AddrRange {
    /// `start..=end`; `None` if `end < start`.
    pub fn new(start: u16, end: u16) -> Option<Self> {
        (start <= end).then_some(AddrRange { start, end })
    }

    /// Number of addresses (1 to 65536).
    pub fn len(&self) -> u32 {
        u32::from(self.end) - u32::from(self.start) + 1
    }

    /// Never true: a range holds at least one address. (Present for clippy's `len` rule.)
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Whether `addr` lies inside.
    pub fn contains(&self, addr: u16) -> bool {
        (self.start..=self.end).contains(&addr)
    }

    /// Whether the two ranges share an address.
    pub fn overlaps(&self, other: &AddrRange) -> bool {
        self.start <= other.end && other.start <= self.end
    }

    /// As a `RangeInclusive` of `usize`, for indexing.
    pub fn indices(&self) -> RangeInclusive<usize> {
        usize::from(self.start)..=usize::from(self.end)
    }
}

impl From<RangeInclusive<u16>> for AddrRange {
    /// Converts `a..=b`. An empty range (`b < a`) becomes the single address `a`; use
    /// [`AddrRange::new`] to reject it instead.
    fn from(r: RangeInclusive<u16>) -> Self {
        AddrRange::new(*r.start(), *r.end()).unwrap_or(AddrRange {
            start: *r.start(),
            end: *r.start(),
        })
    }
}

impl fmt::Display for AddrRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "${:04X}-${:04X}", self.start, self.end)
    }
}

/// A range written as `START-END` in hex (`4000-FFFF`, `$4000-$FFFF`, `0x4000-0xFFFF`).
impl FromStr for AddrRange {
    type Err = ConfigError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || ConfigError::BadRange(s.to_string());
        let (a, b) = s.split_once('-').ok_or_else(bad)?;
        let a = parse_addr(a).ok_or_else(bad)?;
        let b = parse_addr(b).ok_or_else(bad)?;
        AddrRange::new(a, b).ok_or_else(bad)
    }
}

/// Parses a 16-bit address written in hex with an optional `$`, `0x` or `h` marker, or in
/// decimal with a `#` prefix (`#1024`).
pub fn parse_addr(s: &str) -> Option<u16> {
    let s = s.trim();
    if let Some(dec) = s.strip_prefix('#') {
        if dec.is_empty() || !dec.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        return dec.parse().ok();
    }
    let hex = s
        .strip_prefix('$')
        .or_else(|| s.strip_prefix("0x"))
        .or_else(|| s.strip_prefix("0X"))
        .or_else(|| s.strip_suffix(['h', 'H']))
        .unwrap_or(s);
    if hex.is_empty() || hex.len() > 4 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u16::from_str_radix(hex, 16).ok()
}

/// A named ROM or RAM region.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Region {
    /// Name used in reports (`rom`, `ram`, `zero page` ...).
    pub name: String,
    /// The addresses.
    pub range: AddrRange,
    /// ROM or RAM.
    pub kind: RegionKind,
}

/// Everything about the address space that is not the program itself.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct MemoryMap {
    /// ROM and RAM regions; they may not overlap each other or the I/O page.
    pub regions: Vec<Region>,
    /// Base of the 256-byte 6502 I/O page (must be page aligned); `None` for none. Ignored by
    /// the Z80, which reaches its devices through ports.
    pub io_page: Option<u16>,
    /// Where the stack may live; `None` turns the stack check off.
    pub stack: Option<AddrRange>,
}

impl MemoryMap {
    /// No memory at all: every address unmapped.
    pub fn empty() -> Self {
        MemoryMap {
            regions: Vec::new(),
            io_page: None,
            stack: None,
        }
    }

    /// Kempelen's default map for `cpu`, the one its 8-bit ROMs are built for.
    ///
    /// - Z80: ROM `$0000-$3FFF`, RAM `$4000-$FFFF`, stack region `$F000-$FFFF` (4 KB, SP starts
    ///   at `$0000`, that is just above `$FFFF`).
    /// - 6502: RAM `$0000-$BEFF` (zero page, stack page, data), I/O page `$BF00-$BFFF`,
    ///   ROM `$C000-$FFFF` (holds the vectors), stack region `$0100-$01FF`.
    pub fn default_for(cpu: Cpu) -> Self {
        match cpu {
            Cpu::Z80 => MemoryMap::empty()
                .rom("rom", 0x0000..=0x3FFF)
                .ram("ram", 0x4000..=0xFFFF)
                .with_stack(0xF000..=0xFFFF),
            Cpu::Mos6502 | Cpu::Cmos65c02 => MemoryMap::empty()
                .ram("ram", 0x0000..=0xBEFF)
                .with_io_page(MOS6502_IO_PAGE)
                .rom("rom", 0xC000..=0xFFFF)
                .with_stack(0x0100..=0x01FF),
        }
    }

    /// 64 KB of RAM, no I/O page, no stack check: the map of test programs such as Klaus
    /// Dormann's 6502 functional test, which use the whole address space.
    pub fn all_ram() -> Self {
        MemoryMap::empty().ram("ram", 0x0000..=0xFFFF)
    }

    /// Adds a ROM region.
    pub fn rom(mut self, name: &str, range: impl Into<AddrRange>) -> Self {
        self.regions.push(Region {
            name: name.to_string(),
            range: range.into(),
            kind: RegionKind::Rom,
        });
        self
    }

    /// Adds a RAM region.
    pub fn ram(mut self, name: &str, range: impl Into<AddrRange>) -> Self {
        self.regions.push(Region {
            name: name.to_string(),
            range: range.into(),
            kind: RegionKind::Ram,
        });
        self
    }

    /// Puts the 6502 I/O page at `base`.
    pub fn with_io_page(mut self, base: u16) -> Self {
        self.io_page = Some(base);
        self
    }

    /// Names the stack region.
    pub fn with_stack(mut self, range: impl Into<AddrRange>) -> Self {
        self.stack = Some(range.into());
        self
    }

    /// Turns the stack check off.
    pub fn without_stack(mut self) -> Self {
        self.stack = None;
        self
    }

    /// The region holding `addr`.
    pub fn region_at(&self, addr: u16) -> Option<&Region> {
        self.regions.iter().find(|r| r.range.contains(addr))
    }

    /// The I/O page as a range, if the CPU has one.
    pub fn io_range(&self, cpu: Cpu) -> Option<AddrRange> {
        match cpu {
            Cpu::Z80 => None,
            Cpu::Mos6502 | Cpu::Cmos65c02 => self.io_page.map(|b| AddrRange {
                start: b,
                end: b | 0xFF,
            }),
        }
    }

    /// Checks that regions do not overlap, the I/O page is page aligned and free, and the
    /// stack region lies in RAM (and, on the 6502, in page 1).
    pub fn validate(&self, cpu: Cpu) -> Result<(), ConfigError> {
        for (i, a) in self.regions.iter().enumerate() {
            for b in &self.regions[i + 1..] {
                if a.range.overlaps(&b.range) {
                    return Err(ConfigError::RegionOverlap {
                        first: format!("{} {} {}", a.kind, a.name, a.range),
                        second: format!("{} {} {}", b.kind, b.name, b.range),
                    });
                }
            }
        }
        if let (Cpu::Mos6502, Some(base)) = (cpu, self.io_page) {
            if base & 0xFF != 0 {
                return Err(ConfigError::IoPageNotAligned(base));
            }
            let io = self.io_range(cpu).expect("6502 with an I/O page");
            if let Some(r) = self.regions.iter().find(|r| r.range.overlaps(&io)) {
                return Err(ConfigError::RegionOverlap {
                    first: format!("I/O page {io}"),
                    second: format!("{} {} {}", r.kind, r.name, r.range),
                });
            }
        }
        if let Some(stack) = self.stack {
            if cpu.is_6502_family() && (stack.start < 0x0100 || stack.end > 0x01FF) {
                return Err(ConfigError::StackNotInPageOne(stack));
            }
            let all_ram = stack.indices().all(|a| {
                self.region_at(a as u16)
                    .is_some_and(|r| r.kind == RegionKind::Ram)
            });
            if !all_ram {
                return Err(ConfigError::StackNotInRam(stack));
            }
        }
        Ok(())
    }
}

impl fmt::Display for MemoryMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut regions: Vec<&Region> = self.regions.iter().collect();
        regions.sort_by_key(|r| r.range.start);
        for r in regions {
            writeln!(f, "{}  {}  {}", r.range, r.kind, r.name)?;
        }
        if let Some(b) = self.io_page {
            writeln!(f, "${:04X}-${:04X}  I/O  (6502 devices)", b, b | 0xFF)?;
        }
        if let Some(s) = self.stack {
            writeln!(f, "stack region {s}")?;
        }
        Ok(())
    }
}

/// A machine that cannot be built as asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// Two regions share addresses.
    #[error("memory regions overlap: {first} and {second}")]
    RegionOverlap {
        /// The first region.
        first: String,
        /// The second region.
        second: String,
    },
    /// The 6502 I/O page does not start on a page boundary.
    #[error("the I/O page must start on a page boundary ($xx00), not ${0:04X}")]
    IoPageNotAligned(u16),
    /// The stack region is not entirely RAM.
    #[error("the stack region {0} is not entirely RAM")]
    StackNotInRam(AddrRange),
    /// A 6502 stack region outside page 1.
    #[error("the 6502 stack lives in page 1 ($0100-$01FF); {0} is outside it")]
    StackNotInPageOne(AddrRange),
    /// A range that does not parse.
    #[error("bad address range `{0}` (expected START-END in hex, like 4000-FFFF)")]
    BadRange(String),
    /// An image that does not fit below $10000.
    #[error("an image of {len} bytes loaded at ${addr:04X} runs past $FFFF")]
    ImageTooLarge {
        /// Load address.
        addr: u16,
        /// Image length.
        len: usize,
    },
    /// Bytes written by the host that would run past `$FFFF`.
    #[error("{len} bytes written at ${addr:04X} run past $FFFF")]
    WritePastEnd {
        /// First address.
        addr: u16,
        /// How many bytes.
        len: usize,
    },
    /// Two loaded images share addresses (allowed with `Overlap::LaterWins`).
    #[error(
        "the images overlap: {second} writes over {first}, loaded before it (the later bytes win only with --overlap later-wins)"
    )]
    ImagesOverlap {
        /// The earlier image.
        first: AddrRange,
        /// The later image.
        second: AddrRange,
    },
    /// An image or host write that touches unmapped memory or the I/O page.
    #[error("${addr:04X} is {what}: the host can only write ROM and RAM")]
    NotMemory {
        /// The address.
        addr: u16,
        /// "unmapped" or "the I/O page".
        what: &'static str,
    },
    /// The chosen core emulates another CPU.
    #[error("the {core} core does not emulate the {cpu}")]
    CoreMismatch {
        /// Core name.
        core: &'static str,
        /// The machine's CPU.
        cpu: Cpu,
    },
    /// Nothing was loaded, so there is no program to run.
    #[error("no program loaded")]
    NoProgram,
    /// A timing model for another CPU, or one that needs every access reported on a core
    /// that does not report them.
    #[error("timing model {model} does not fit: {why}")]
    TimingMismatch {
        /// The model (`machine/id`).
        model: String,
        /// Why.
        why: &'static str,
    },
    /// The initial stack pointer is outside the stack region.
    #[error("the initial stack pointer ${sp:04X} is outside the stack region {stack}")]
    SpOutsideStack {
        /// Initial SP.
        sp: u16,
        /// The stack region.
        stack: AddrRange,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_maps_are_valid() {
        MemoryMap::default_for(Cpu::Z80).validate(Cpu::Z80).unwrap();
        MemoryMap::default_for(Cpu::Mos6502)
            .validate(Cpu::Mos6502)
            .unwrap();
        MemoryMap::all_ram().validate(Cpu::Z80).unwrap();
    }

    #[test]
    fn overlapping_regions_are_rejected() {
        let map = MemoryMap::empty()
            .rom("rom", 0x0000..=0x3FFF)
            .ram("ram", 0x3000..=0xFFFF);
        let err = map.validate(Cpu::Z80).unwrap_err();
        assert_eq!(
            err.to_string(),
            "memory regions overlap: ROM rom $0000-$3FFF and RAM ram $3000-$FFFF"
        );
    }

    #[test]
    fn io_page_must_be_free_and_aligned() {
        let map = MemoryMap::all_ram().with_io_page(0xBF00);
        assert!(matches!(
            map.validate(Cpu::Mos6502),
            Err(ConfigError::RegionOverlap { .. })
        ));
        // The Z80 ignores the I/O page.
        map.validate(Cpu::Z80).unwrap();
        let map = MemoryMap::empty().with_io_page(0xBF10);
        assert_eq!(
            map.validate(Cpu::Mos6502),
            Err(ConfigError::IoPageNotAligned(0xBF10))
        );
    }

    #[test]
    fn stack_must_be_ram_and_in_page_one_on_the_6502() {
        let map = MemoryMap::default_for(Cpu::Z80).with_stack(0x3F00..=0x40FF);
        assert!(matches!(
            map.validate(Cpu::Z80),
            Err(ConfigError::StackNotInRam(_))
        ));
        let map = MemoryMap::all_ram().with_stack(0x0200..=0x02FF);
        assert!(matches!(
            map.validate(Cpu::Mos6502),
            Err(ConfigError::StackNotInPageOne(_))
        ));
    }

    #[test]
    fn ranges_and_addresses_parse() {
        assert_eq!(
            "4000-FFFF".parse::<AddrRange>().unwrap(),
            AddrRange::new(0x4000, 0xFFFF).unwrap()
        );
        assert_eq!(
            "$0100-$01ff".parse::<AddrRange>().unwrap(),
            AddrRange::new(0x100, 0x1FF).unwrap()
        );
        assert!("FFFF-0000".parse::<AddrRange>().is_err());
        assert!("12345-2".parse::<AddrRange>().is_err());
        assert_eq!(parse_addr("0x8000"), Some(0x8000));
        assert_eq!(parse_addr("C000h"), Some(0xC000));
        assert_eq!(parse_addr("#1024"), Some(1024));
        assert_eq!(parse_addr("zz"), None);
    }
}
