//! [`MachineBus`]: memory, memory map and devices as the CPU sees them.
//!
//! One attribute byte per address says what the address is (RAM, ROM, I/O, unmapped) and
//! whether it belongs to the loaded program. A second, 256-entry table summarises each page:
//! a page of nothing but RAM or ROM reads at full speed, a page of nothing but RAM outside the
//! program writes at full speed. That table stays in the host's L1 cache, so an ordinary access
//! costs one extra load from it and a predictable branch; pages holding devices, unmapped bytes,
//! ROM (for writes) or program code in RAM (whose opcode marks must stay current) take the
//! per-byte slow path. Every CPU write to RAM also sets a byte in `written`, for the RAM
//! profile.
//!
//! The bus cannot stop the CPU in the middle of an instruction. A write that must end the run
//! (to ROM, to unmapped memory, a host call) is recorded as a [`BusEvent`]; the machine checks
//! for an event after every instruction and stops there. The first event of an instruction
//! wins.

use crate::devices::{
    Console, HOST_CALL_DONE, PORT_CONSOLE_DATA, PORT_CONSOLE_STATUS, PORT_HOST_CALL,
};
use crate::memory::{MemoryMap, RegionKind};
use crate::{Bus, Cpu};
use std::cell::{Cell, RefCell};

/// Attribute bits, one byte per address.
pub(crate) mod attr {
    // Bit 32 is free.
    /// Read-write memory.
    pub const RAM: u8 = 1;
    /// Read-only memory.
    pub const ROM: u8 = 2;
    /// 6502 I/O page.
    pub const IO: u8 = 4;
    /// Nothing there.
    pub const UNMAPPED: u8 = 8;
    /// Part of a loaded program image: the PC may be here.
    pub const EXEC: u8 = 16;
    /// In the program, and the byte here is an opcode the machine checks before running it
    /// (halts, prefixes with illegal forms, refused opcodes). Kept up to date on every write
    /// to the program, so the step loop decides "nothing to check" from this byte alone.
    pub const CHECK: u8 = 64;
}

/// Page flags: what can take the fast path in a page.
mod page {
    /// Every byte is RAM or ROM.
    pub const READ_FAST: u8 = 1;
    /// Every byte is RAM and none belongs to the program.
    pub const WRITE_FAST: u8 = 2;
}

/// Something a bus access did that the machine must act on after the instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum BusEvent {
    /// A write to the host-call device.
    HostCall(u8),
    /// A CPU write to ROM (not applied).
    RomWrite {
        /// Address written.
        addr: u16,
        /// Value the CPU tried to write.
        value: u8,
    },
    /// A CPU write to unmapped memory or to an unconnected I/O-page address (not applied).
    UnmappedWrite {
        /// Address written.
        addr: u16,
        /// Value.
        value: u8,
    },
    /// A Z80 `OUT` to an unconnected port.
    PortWrite {
        /// The full 16-bit port address.
        port: u16,
        /// Value.
        value: u8,
    },
    /// The program read the console while its input queue was empty, with
    /// [`Console::set_stop_on_empty_input`] on.
    InputWait,
}

/// The machine's bus: 64 KB of memory under a memory map, the console and the host-call
/// device.
pub struct MachineBus {
    pub(crate) mem: Box<[u8; 0x10000]>,
    pub(crate) attr: Box<[u8; 0x10000]>,
    /// 1 where the CPU wrote during the current run.
    pub(crate) written: Box<[u8; 0x10000]>,
    /// [`page`] flags per 256-byte page.
    pages: [u8; 256],
    pub(crate) console: RefCell<Console>,
    /// A cell because a console read (through `&self`) can record [`BusEvent::InputWait`].
    pub(crate) event: Cell<Option<BusEvent>>,
    pub(crate) unmapped_reads: Cell<u64>,
    /// Opcodes (first bytes) that get [`attr::CHECK`] where they sit in the program.
    checked_ops: [bool; 256],
}

fn page_array(fill: u8) -> Box<[u8; 0x10000]> {
    vec![fill; 0x10000]
        .into_boxed_slice()
        .try_into()
        .expect("64 KB")
}

impl MachineBus {
    /// A bus for `cpu` laid out as `map` (which must be valid). Unmapped bytes read as `0xFF`;
    /// RAM and ROM start as zeros.
    pub(crate) fn new(cpu: Cpu, map: &MemoryMap) -> Self {
        let mut mem = page_array(0xFF);
        let mut attr = page_array(attr::UNMAPPED);
        for region in &map.regions {
            let bits = match region.kind {
                RegionKind::Ram => attr::RAM,
                RegionKind::Rom => attr::ROM,
            };
            for a in region.range.indices() {
                attr[a] = bits;
                mem[a] = 0;
            }
        }
        if let Some(io) = map.io_range(cpu) {
            for a in io.indices() {
                attr[a] = attr::IO;
            }
        }
        let mut bus = MachineBus {
            mem,
            attr,
            written: page_array(0),
            pages: [0; 256],
            console: RefCell::new(Console::default()),
            event: Cell::new(None),
            unmapped_reads: Cell::new(0),
            checked_ops: [false; 256],
        };
        bus.refresh_pages();
        bus
    }

    /// Whether every address is RAM or ROM (no unmapped byte, no I/O page).
    pub(crate) fn all_memory(&self) -> bool {
        self.pages.iter().all(|p| p & page::READ_FAST != 0)
    }

    /// Recomputes the page flags from the attribute bytes (after the map or the program
    /// changed).
    pub(crate) fn refresh_pages(&mut self) {
        for (p, flags) in self.pages.iter_mut().enumerate() {
            let bytes = &self.attr[p << 8..(p + 1) << 8];
            let mut f = 0;
            if bytes.iter().all(|&a| a & (attr::RAM | attr::ROM) != 0) {
                f |= page::READ_FAST;
            }
            if bytes
                .iter()
                .all(|&a| a & (attr::RAM | attr::EXEC) == attr::RAM)
            {
                f |= page::WRITE_FAST;
            }
            *flags = f;
        }
    }

    /// Sets which opcodes are checked before they run, and re-marks the program.
    pub(crate) fn set_checked_ops(&mut self, checked: [bool; 256]) {
        self.checked_ops = checked;
        for a in 0..=0xFFFF {
            self.refresh(a);
        }
    }

    /// Recomputes [`attr::CHECK`] for `addr` from the byte stored there.
    #[inline]
    pub(crate) fn refresh(&mut self, addr: u16) {
        let i = usize::from(addr);
        let a = self.attr[i] & !attr::CHECK;
        let check = a & attr::EXEC != 0 && self.checked_ops[usize::from(self.mem[i])];
        self.attr[i] = if check { a | attr::CHECK } else { a };
    }

    fn record(&self, event: BusEvent) {
        if self.event.get().is_none() {
            self.event.set(Some(event));
        }
    }

    /// A console register read (`status` or data), reporting a starved console as an event.
    fn console_read(&self, status: bool) -> u8 {
        let mut console = self.console.borrow_mut();
        let value = if status {
            console.status()
        } else {
            console.read()
        };
        if console.take_starved() {
            self.record(BusEvent::InputWait);
        }
        value
    }

    #[cold]
    fn read_slow(&self, addr: u16, a: u8) -> u8 {
        if a & attr::IO != 0 {
            match addr as u8 {
                PORT_CONSOLE_STATUS => return self.console_read(true),
                PORT_CONSOLE_DATA => return self.console_read(false),
                _ => {}
            }
        }
        self.unmapped_reads.set(self.unmapped_reads.get() + 1);
        0xFF
    }

    #[cold]
    fn write_slow(&mut self, addr: u16, value: u8, a: u8) {
        if a & attr::RAM != 0 {
            // RAM in a page with program code: keep the opcode check marks current.
            self.mem[usize::from(addr)] = value;
            self.written[usize::from(addr)] = 1;
            if a & attr::EXEC != 0 {
                self.refresh(addr);
            }
        } else if a & attr::ROM != 0 {
            self.record(BusEvent::RomWrite { addr, value });
        } else if a & attr::IO != 0 {
            match addr as u8 {
                PORT_CONSOLE_DATA => self.console.get_mut().write(value),
                PORT_HOST_CALL => self.record(BusEvent::HostCall(value)),
                _ => self.record(BusEvent::UnmappedWrite { addr, value }),
            }
        } else {
            self.record(BusEvent::UnmappedWrite { addr, value });
        }
    }

    /// The byte at `addr` as stored, without device side effects (`0xFF` when unmapped).
    #[inline]
    pub(crate) fn peek(&self, addr: u16) -> u8 {
        self.mem[addr as usize]
    }
}

impl Bus for MachineBus {
    #[inline(always)]
    fn read(&self, addr: u16) -> u8 {
        if self.pages[usize::from(addr >> 8)] & page::READ_FAST != 0 {
            self.mem[usize::from(addr)]
        } else {
            let a = self.attr[usize::from(addr)];
            if a & (attr::IO | attr::UNMAPPED) == 0 {
                self.mem[usize::from(addr)]
            } else {
                self.read_slow(addr, a)
            }
        }
    }

    #[inline(always)]
    fn write(&mut self, addr: u16, value: u8) {
        let i = usize::from(addr);
        if self.pages[i >> 8] & page::WRITE_FAST != 0 {
            self.mem[i] = value;
            self.written[i] = 1;
        } else {
            self.write_slow(addr, value, self.attr[i])
        }
    }

    fn port_in(&self, port: u16) -> u8 {
        match port as u8 {
            PORT_CONSOLE_STATUS => self.console_read(true),
            PORT_CONSOLE_DATA => self.console_read(false),
            _ => {
                self.unmapped_reads.set(self.unmapped_reads.get() + 1);
                0xFF
            }
        }
    }

    fn port_out(&mut self, port: u16, value: u8) {
        match port as u8 {
            PORT_CONSOLE_DATA => self.console.get_mut().write(value),
            PORT_HOST_CALL => self.record(BusEvent::HostCall(value)),
            _ => self.record(BusEvent::PortWrite { port, value }),
        }
    }
}

/// The bus the machine's step loop works with: a [`MachineBus`], possibly wrapped.
pub(crate) trait Machined: Bus {
    fn machine(&self) -> &MachineBus;
    fn machine_mut(&mut self) -> &mut MachineBus;
}

impl Machined for MachineBus {
    #[inline(always)]
    fn machine(&self) -> &MachineBus {
        self
    }
    #[inline(always)]
    fn machine_mut(&mut self) -> &mut MachineBus {
        self
    }
}

/// A [`MachineBus`] whose every address is RAM or ROM (no unmapped byte, no I/O page), such
/// as the default Z80 map: reads need no check, so they skip the page look-up.
#[repr(transparent)]
pub(crate) struct AllMemory(pub(crate) MachineBus);

impl Bus for AllMemory {
    #[inline(always)]
    fn read(&self, addr: u16) -> u8 {
        self.0.mem[usize::from(addr)]
    }
    #[inline(always)]
    fn write(&mut self, addr: u16, value: u8) {
        self.0.write(addr, value)
    }
    fn port_in(&self, port: u16) -> u8 {
        self.0.port_in(port)
    }
    fn port_out(&mut self, port: u16, value: u8) {
        self.0.port_out(port, value)
    }
}

impl Machined for AllMemory {
    #[inline(always)]
    fn machine(&self) -> &MachineBus {
        &self.0
    }
    #[inline(always)]
    fn machine_mut(&mut self) -> &mut MachineBus {
        &mut self.0
    }
}

/// Whether a host-call value means "done".
pub(crate) fn is_done(value: u8) -> bool {
    value == HOST_CALL_DONE
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bus(cpu: Cpu) -> MachineBus {
        MachineBus::new(cpu, &MemoryMap::default_for(cpu))
    }

    #[test]
    fn ram_is_written_and_remembered() {
        let mut b = bus(Cpu::Z80);
        b.write(0x4000, 7);
        assert_eq!(b.read(0x4000), 7);
        assert_eq!(b.written[0x4000], 1);
        assert_eq!(b.written[0x4001], 0);
        assert_eq!(b.event.get(), None);
    }

    #[test]
    fn program_code_in_ram_keeps_its_check_marks() {
        let mut b = MachineBus::new(Cpu::Z80, &MemoryMap::all_ram());
        let mut checked = [false; 256];
        checked[0x76] = true;
        b.set_checked_ops(checked);
        b.attr[0x0100] |= attr::EXEC;
        b.refresh_pages();
        b.write(0x0100, 0x76);
        assert_eq!(b.mem[0x0100], 0x76);
        assert_ne!(b.attr[0x0100] & attr::CHECK, 0);
        b.write(0x0100, 0x00);
        assert_eq!(b.attr[0x0100] & attr::CHECK, 0);
        assert_eq!(b.written[0x0100], 1);
        // The rest of the page is written on the slow path too, and correctly.
        b.write(0x0101, 9);
        assert_eq!((b.mem[0x0101], b.written[0x0101]), (9, 1));
        assert_eq!(b.attr[0x0101] & attr::CHECK, 0);
    }

    #[test]
    fn rom_write_is_reported_not_applied() {
        let mut b = bus(Cpu::Z80);
        b.mem[0x0100] = 0x55;
        b.write(0x0100, 0xAA);
        assert_eq!(b.read(0x0100), 0x55);
        assert_eq!(
            b.event.get(),
            Some(BusEvent::RomWrite {
                addr: 0x0100,
                value: 0xAA
            })
        );
        // Only the first event of an instruction is kept.
        b.write(0x0200, 1);
        assert_eq!(
            b.event.get(),
            Some(BusEvent::RomWrite {
                addr: 0x0100,
                value: 0xAA
            })
        );
    }

    #[test]
    fn unmapped_reads_give_ff_and_are_counted_writes_are_reported() {
        let mut b = MachineBus::new(Cpu::Z80, &MemoryMap::empty().ram("ram", 0x8000..=0xFFFF));
        assert_eq!(b.read(0x1234), 0xFF);
        assert_eq!(b.read(0x0000), 0xFF);
        assert_eq!(b.unmapped_reads.get(), 2);
        b.write(0x1234, 0);
        assert_eq!(
            b.event.get(),
            Some(BusEvent::UnmappedWrite {
                addr: 0x1234,
                value: 0
            })
        );
    }

    #[test]
    fn z80_ports_reach_the_console_and_the_host_call() {
        let mut b = bus(Cpu::Z80);
        assert_eq!(b.port_in(0x0000), 0, "no key waiting");
        b.console.get_mut().push_input(b"k");
        assert_eq!(b.port_in(0x0000), 1);
        assert_eq!(b.port_in(0x0001), b'k');
        assert_eq!(b.port_in(0x0001), 0, "0 when no key");
        b.port_out(0x4101, b'A'); // OUT ($01),A with A = $41 on the high byte
        assert_eq!(b.console.get_mut().output(), b"A");
        assert_eq!(b.port_in(0x0042), 0xFF);
        assert_eq!(b.unmapped_reads.get(), 1);
        b.port_out(0x00FF, 0);
        assert_eq!(b.event.get(), Some(BusEvent::HostCall(0)));
        assert!(is_done(0));
    }

    #[test]
    fn unconnected_port_write_is_reported() {
        let mut b = bus(Cpu::Z80);
        b.port_out(0x0010, 3);
        assert_eq!(
            b.event.get(),
            Some(BusEvent::PortWrite {
                port: 0x0010,
                value: 3
            })
        );
    }

    #[test]
    fn mos6502_io_page_maps_the_same_devices() {
        let mut b = bus(Cpu::Mos6502);
        b.console.get_mut().push_input(b"z");
        assert_eq!(b.read(0xBF00), 1);
        assert_eq!(b.read(0xBF01), b'z');
        b.write(0xBF01, b'!');
        assert_eq!(b.console.get_mut().output(), b"!");
        assert_eq!(b.read(0xBF42), 0xFF);
        b.write(0xBFFF, 0);
        assert_eq!(b.event.get(), Some(BusEvent::HostCall(0)));
        b.event.set(None);
        b.write(0xBF42, 9);
        assert_eq!(
            b.event.get(),
            Some(BusEvent::UnmappedWrite {
                addr: 0xBF42,
                value: 9
            })
        );
    }
}
