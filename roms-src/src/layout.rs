//! Where a build of an 8-bit engine or console front end lies in memory: its layout.
//!
//! Every address of the Z80 and 6502 sources is an offset from a few bases that the file
//! `layout.inc` of each port folder defines (the Kempelen machine's, [`Layout::kempelen`]):
//! where the image starts, where the engine and its page-indexed tables are, where the
//! engine's and the front end's RAM lie, the zero page the 6502 build takes, and how the front
//! end prints (screen width, echo, upper case). A target machine (crate::target) assembles the
//! same sources with its own layout, written by [`Layout::to_inc`] in place of the port's file,
//! so the base is a parameter and no source is copied. The differential tests run the engine
//! at every layout a target uses, in a machine whose memory is only what the layout names
//! ([`Layout::memory_map`]).

use std::fmt::Write as _;

use kempelen_emulator::{AddrRange, Cpu, MemoryMap};

/// Bytes of the 6502 engine's zero page (`ZP_ENGINE`): pointers and scratch.
pub const ZP_ENGINE_BYTES: u16 = 0x60;
/// Bytes of the 6502's host protocol block without the principal variation (`PROTO`): the
/// command, position state and the results.
pub const PROTO_BYTES: u16 = 0x20;
/// Bytes of the 6502's principal variation (`PV`, `R_PV`).
pub const PV_BYTES: u16 = 0x40;
/// Bytes of the 6502 front end's zero page (`ZP_CONSOLE`).
pub const ZP_CONSOLE_BYTES: u16 = 9;
/// Offset of the Z80's first search frame from the engine's RAM base (`FRAMES`, ram.inc).
pub const FRAMES_OFFSET: u16 = 0x06A0;
/// Offset of the 6502's first search frame from the engine's RAM base (`FRAMES`, ram.inc:
/// below it the 6502's two 256-byte bit tables, `LOW_FILE` and `CLR_LOW`).
pub const FRAMES_OFFSET_6502: u16 = 0x0900;
/// Bytes the front end's RAM takes from `CON_RAM` (console_ram.inc).
pub const CONSOLE_RAM_BYTES: u16 = 0x1000;
/// How far the last frame's move lists may reach past the frame limit (ram.inc).
pub const FRAME_LISTS_BYTES: u16 = 0x0400;

/// The layout of one build (see the module documentation). Addresses are those of the
/// assembled program; the ones named "page" must be multiples of 256.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// The CPU whose sources it lays out.
    pub cpu: Cpu,
    /// `LOAD_BASE`: the image's first byte (a machine's header may come first).
    pub load: u16,
    /// `CODE_BASE` (Z80) / `ENGINE_BASE` (6502), a page: the engine, whose tables start one
    /// page above it.
    pub code: u16,
    /// `ENG_RAM` (Z80) / `LOW_RAM` (6502), a page: the engine's RAM; the search frames start
    /// [`FRAMES_OFFSET`] (Z80) or [`FRAMES_OFFSET_6502`] above it.
    pub engine_ram: u16,
    /// `FRAME_LIMIT_HI`: no search frame starts at or above this page.
    pub frame_limit_hi: u8,
    /// The stack: Z80 SP starts at its end + 1 (`STACK_TOP`); the 6502's is page 1.
    pub stack: AddrRange,
    /// `CON_RAM`, a page: the front end's 4 KB.
    pub console_ram: u16,
    /// 6502 `ZP_ENGINE`: the engine's 96 bytes of zero page.
    pub zp_engine: u8,
    /// 6502 `PROTO`: the host protocol block's first 32 bytes (command, position, results).
    pub proto: u8,
    /// 6502 `PV`: the protocol block's principal variation, 64 bytes (zero page or not).
    pub pv: u16,
    /// 6502 `ZP_CONSOLE`: the front end's 9 bytes of zero page.
    pub zp_console: u8,
    /// 6502 `IO_PAGE`: the page of the Kempelen machine's devices (the host call at +$FF).
    pub io_page: u16,
    /// 6502 `VECTORS`: the image ends with the vectors at `$FFFA`.
    pub vectors: bool,
    /// `SCREEN_WIDTH`: characters a line of the screen holds (0: the terminal wraps).
    pub screen_width: u8,
    /// `ECHO`: the front end echoes what is typed.
    pub echo: bool,
    /// `UPPER_CASE`: the screen has no lower case.
    pub upper_case: bool,
}

/// A layout that cannot work.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct LayoutError(pub String);

/// A constant of `layout.inc`: its name, its value as the source writes it, what it is.
type IncConstant = (&'static str, String, &'static str);

impl Layout {
    /// The Kempelen machine's layout of `cpu`'s port: the checked-in `layout.inc`.
    pub fn kempelen(cpu: Cpu) -> Layout {
        let z80 = cpu == Cpu::Z80;
        Layout {
            cpu: if z80 { Cpu::Z80 } else { Cpu::Mos6502 },
            load: if z80 { 0x0000 } else { 0xC000 },
            code: if z80 { 0x0000 } else { 0xD700 },
            engine_ram: if z80 { 0x8000 } else { 0x0200 },
            frame_limit_hi: if z80 { 0xEC } else { 0xBA },
            stack: if z80 {
                AddrRange {
                    start: 0xF000,
                    end: 0xFFFF,
                }
            } else {
                AddrRange {
                    start: 0x0100,
                    end: 0x01FF,
                }
            },
            console_ram: if z80 { 0x7000 } else { 0xA000 },
            zp_engine: 0x00,
            proto: 0x80,
            pv: 0xA0,
            zp_console: 0xF0,
            io_page: 0xBF00,
            vectors: !z80,
            screen_width: 0,
            echo: false,
            upper_case: false,
        }
    }

    /// Whether this is the Kempelen machine's layout of its CPU.
    pub fn is_kempelen(&self) -> bool {
        *self == Layout::kempelen(self.cpu)
    }

    /// The first search frame.
    pub fn frames(&self) -> u16 {
        self.engine_ram.wrapping_add(self.frames_offset())
    }

    /// The first search frame's offset from the engine's RAM base.
    pub fn frames_offset(&self) -> u16 {
        if self.cpu == Cpu::Z80 {
            FRAMES_OFFSET
        } else {
            FRAMES_OFFSET_6502
        }
    }

    /// `STACK_TOP`: the Z80's SP at the start (0 for a stack ending at `$FFFF`).
    pub fn stack_top(&self) -> u16 {
        self.stack.end.wrapping_add(1)
    }

    /// The RAM the engine's search may use: from its RAM base to the frame limit plus the
    /// last frame's lists (the Z80's protocol block included).
    pub fn engine_ram_range(&self) -> AddrRange {
        let end = u32::from(self.frame_limit_hi) * 256 + u32::from(FRAME_LISTS_BYTES) - 1;
        AddrRange {
            start: self.engine_ram,
            end: end.min(0xFFFF) as u16,
        }
    }

    /// The front end's RAM.
    pub fn console_ram_range(&self) -> AddrRange {
        AddrRange {
            start: self.console_ram,
            end: self.console_ram + (CONSOLE_RAM_BYTES - 1),
        }
    }

    /// Checks what the assembler cannot: pages where pages are needed, and the frame limit
    /// above the first frame.
    pub fn check(&self) -> Result<(), LayoutError> {
        let page = |name: &str, v: u16| {
            if v & 0xFF == 0 {
                Ok(())
            } else {
                Err(LayoutError(format!(
                    "{name} ${v:04X} is not a multiple of $100"
                )))
            }
        };
        page("the code base", self.code)?;
        page("the engine's RAM", self.engine_ram)?;
        page("the console's RAM", self.console_ram)?;
        if u16::from(self.frame_limit_hi) * 256 <= self.frames() {
            return Err(LayoutError(format!(
                "the frame limit ${:02X}00 is not above the first frame ${:04X}",
                self.frame_limit_hi,
                self.frames()
            )));
        }
        if self.cpu != Cpu::Z80 {
            page("the I/O page", self.io_page)?;
            for (name, start, len) in [
                ("ZP_ENGINE", u16::from(self.zp_engine), ZP_ENGINE_BYTES),
                ("PROTO", u16::from(self.proto), PROTO_BYTES),
                ("ZP_CONSOLE", u16::from(self.zp_console), ZP_CONSOLE_BYTES),
            ] {
                if start + len > 0x100 {
                    return Err(LayoutError(format!(
                        "{name} ${start:02X} + {len} bytes leaves the zero page"
                    )));
                }
            }
        }
        Ok(())
    }

    /// The text of `layout.inc` for this layout; `about` is its first comment line (what the
    /// layout is for).
    pub fn to_inc(&self, about: &str) -> String {
        let mut o = String::new();
        writeln!(o, "; layout.inc - {about}").unwrap();
        o.push_str(
            "; Where the program and its RAM lie: every address of the sources is an offset from these\n\
             ; bases (docs/PORTS.md). Written by kempelen_roms::layout; `kempelen build --target T`\n\
             ; assembles the same sources with the layout of roms-src/targets/T/target.toml instead.\n\n",
        );
        // The lines both CPUs' sources read; the console's RAM and the terminal's traits
        // come last on both.
        let mut lines = if self.cpu == Cpu::Z80 {
            self.z80_constants()
        } else {
            self.mos6502_constants()
        };
        lines.extend(self.terminal_constants());
        for (name, value, what) in lines {
            // Each assembler's way to define a constant: `NAME: equ` (Z80), `NAME =` (6502).
            if self.cpu == Cpu::Z80 {
                let def = format!("{:<11} equ {value}", format!("{name}:"));
                writeln!(o, "{def:<26}; {what}").unwrap();
            } else {
                let def = format!("{name:<14} = {value}");
                writeln!(o, "{def:<24}; {what}").unwrap();
            }
        }
        o
    }

    /// The constants of `layout.inc` the Z80 sources read, in their order.
    fn z80_constants(&self) -> Vec<IncConstant> {
        vec![
            self.load_constant(),
            (
                "CODE_BASE",
                hex16(self.code),
                "a page: the engine; its tables at CODE_BASE + $0100",
            ),
            self.engine_ram_constant("ENG_RAM"),
            self.frame_limit_constant(),
            (
                "STACK_TOP",
                hex16(self.stack_top()),
                "SP at the start: the stack grows down from it",
            ),
            self.console_ram_constant(),
        ]
    }

    /// The constants of `layout.inc` the 6502 sources read, in their order.
    fn mos6502_constants(&self) -> Vec<IncConstant> {
        vec![
            self.load_constant(),
            (
                "ENGINE_BASE",
                hex16(self.code),
                "a page: the engine; its tables at ENGINE_BASE + $0100",
            ),
            (
                "VECTORS",
                u8::from(self.vectors).to_string(),
                "1: the image ends with the vectors at $FFFA",
            ),
            (
                "ZP_ENGINE",
                hex8(self.zp_engine),
                "96 bytes of zero page: the engine's pointers, scratch",
            ),
            (
                "PROTO",
                hex8(self.proto),
                "32 bytes of zero page: the host protocol block",
            ),
            (
                "PV",
                hex_any(self.pv),
                "64 bytes: the protocol block's principal variation",
            ),
            (
                "ZP_CONSOLE",
                hex8(self.zp_console),
                "9 bytes of zero page: the front end's pointers",
            ),
            self.engine_ram_constant("LOW_RAM"),
            self.frame_limit_constant(),
            self.console_ram_constant(),
            (
                "IO_PAGE",
                hex16(self.io_page),
                "the Kempelen machine's I/O page (host call at + $FF)",
            ),
        ]
    }

    fn load_constant(&self) -> IncConstant {
        (
            "LOAD_BASE",
            hex16(self.load),
            "the image's first byte (a machine's header first)",
        )
    }

    fn engine_ram_constant(&self, name: &'static str) -> IncConstant {
        (
            name,
            hex16(self.engine_ram),
            if self.cpu == Cpu::Z80 {
                "a page: the engine's RAM (ram.inc); frames at + $06A0"
            } else {
                "a page: the engine's RAM (ram.inc); frames at + $0900"
            },
        )
    }

    fn frame_limit_constant(&self) -> IncConstant {
        (
            "FRAME_LIMIT_HI",
            hex8(self.frame_limit_hi),
            "no search frame starts at or above this page",
        )
    }

    fn console_ram_constant(&self) -> IncConstant {
        (
            "CON_RAM",
            hex16(self.console_ram),
            "a page: the console front end's 4 KB",
        )
    }

    /// The terminal's traits, last in `layout.inc` on both CPUs.
    fn terminal_constants(&self) -> [IncConstant; 3] {
        [
            (
                "SCREEN_WIDTH",
                self.screen_width.to_string(),
                "characters in a line (0: the terminal wraps)",
            ),
            (
                "ECHO",
                u8::from(self.echo).to_string(),
                "1: the front end echoes what is typed",
            ),
            (
                "UPPER_CASE",
                u8::from(self.upper_case).to_string(),
                "1: no lower case on the screen",
            ),
        ]
    }

    /// The memory of a machine that holds an image of `len` bytes at `origin` in this layout
    /// and nothing else: the image as ROM, RAM only where the layout puts the engine's data
    /// (the protocol block, the engine's RAM and frames, the stack, on the 6502 the zero page
    /// and stack page), the 6502's I/O page at `IO_PAGE`. The Kempelen layouts run in the
    /// CPU's default map instead (docs/MACHINE.md).
    pub fn memory_map(&self, origin: u16, len: usize) -> MemoryMap {
        if self.is_kempelen() {
            return MemoryMap::default_for(self.cpu);
        }
        let mut ram = vec![self.engine_ram_range(), self.stack];
        if self.cpu != Cpu::Z80 {
            ram.push(AddrRange {
                start: 0x0000,
                end: 0x01FF,
            });
            ram.push(AddrRange {
                start: self.pv,
                end: self.pv + (PV_BYTES - 1),
            });
        }
        let mut map = MemoryMap::empty();
        for r in merge(ram) {
            map = map.ram("RAM", r);
        }
        if len > 0 {
            let end = (usize::from(origin) + len - 1).min(0xFFFF) as u16;
            map = map.rom("image", AddrRange { start: origin, end });
        }
        map = map.with_stack(self.stack);
        if self.cpu != Cpu::Z80 {
            map = map.with_io_page(self.io_page);
        }
        map
    }
}

/// Sorted, with overlapping and adjacent ranges joined.
pub fn merge(mut ranges: Vec<AddrRange>) -> Vec<AddrRange> {
    ranges.sort_by_key(|r| r.start);
    let mut out: Vec<AddrRange> = Vec::new();
    for r in ranges {
        match out.last_mut() {
            Some(last) if u32::from(r.start) <= u32::from(last.end) + 1 => {
                last.end = last.end.max(r.end)
            }
            _ => out.push(r),
        }
    }
    out
}

fn hex16(v: u16) -> String {
    format!("${v:04X}")
}

fn hex8(v: u8) -> String {
    format!("${v:02X}")
}

/// A zero-page address with two digits (so that the assembler picks zero-page forms), any
/// other with four.
fn hex_any(v: u16) -> String {
    if v < 0x100 { hex8(v as u8) } else { hex16(v) }
}

/// The first comment line of the Kempelen layouts' `layout.inc`.
pub const KEMPELEN_ABOUT: &str = "the Kempelen machine's layout (docs/MACHINE.md)";

#[cfg(test)]
mod tests {
    use super::*;

    /// The checked-in `layout.inc` of each port is the Kempelen layout's text. Run with
    /// `KEMPELEN_BLESS=1` to rewrite them.
    #[test]
    fn layout_inc_files_are_the_kempelen_layouts() {
        for (dir, cpu) in [("z80", Cpu::Z80), ("6502", Cpu::Mos6502)] {
            let want = Layout::kempelen(cpu).to_inc(KEMPELEN_ABOUT);
            crate::assert_checked_in(&format!("{dir}/layout.inc"), &want);
        }
    }

    #[test]
    fn a_layout_must_keep_its_pages() {
        let mut l = Layout::kempelen(Cpu::Z80);
        assert!(l.check().is_ok());
        l.engine_ram = 0x8010;
        assert!(l.check().unwrap_err().0.contains("not a multiple of $100"));
        let mut l = Layout::kempelen(Cpu::Z80);
        l.frame_limit_hi = 0x86;
        assert!(l.check().unwrap_err().0.contains("frame limit"));
        let mut l = Layout::kempelen(Cpu::Mos6502);
        l.zp_console = 0xF8;
        assert!(l.check().unwrap_err().0.contains("leaves the zero page"));
    }

    #[test]
    fn ranges_merge() {
        let r = |s, e| AddrRange { start: s, end: e };
        assert_eq!(
            merge(vec![
                r(0x100, 0x1FF),
                r(0, 0xFF),
                r(0x300, 0x3FF),
                r(0x350, 0x500)
            ]),
            vec![r(0, 0x1FF), r(0x300, 0x500)]
        );
    }

    #[test]
    fn a_target_layout_maps_only_what_it_names() {
        let mut l = Layout::kempelen(Cpu::Mos6502);
        l.code = 0x2000;
        l.engine_ram = 0x5000;
        l.pv = 0x5000;
        l.frame_limit_hi = 0x90;
        l.vectors = false;
        l.io_page = 0x9F00;
        let m = l.memory_map(0x2000, 0x100);
        assert!(m.validate(Cpu::Mos6502).is_ok());
        assert!(m.region_at(0x4000).is_none());
        assert!(m.region_at(0x5000).is_some());
        assert!(m.region_at(0x20FF).is_some());
    }
}
