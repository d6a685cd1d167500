//! The bus every CPU core talks to.
//!
//! A core sees the rest of the machine only through [`Bus`]: memory reads and writes and the
//! Z80's I/O ports. The same cores therefore run on the full [`MachineBus`](crate::MachineBus)
//! (memory map, devices, bookkeeping) and on the [`FlatBus`] that unit tests use to run a few
//! bytes of code against 64 KB of plain RAM.
//!
//! Reads take `&self` because the fastest core (the `z80` crate) reads through a shared
//! reference; a bus that must count or consume on a read uses interior mutability.

/// Memory and I/O as the CPU sees them.
///
/// Only [`Bus::read`] and [`Bus::write`] are required. The provided methods let a bus with
/// devices and unmapped space offer a core a faster path over its plain memory; their
/// defaults describe a bus that is plain memory throughout.
pub trait Bus {
    /// Reads the byte at `addr`.
    fn read(&self, addr: u16) -> u8;
    /// Writes `value` to `addr`.
    fn write(&mut self, addr: u16, value: u8);
    /// Whether every address in the 256-byte page `page` reads as plain memory (no device, no
    /// unmapped byte), so that [`Bus::read_plain`] may stand in for [`Bus::read`] there.
    #[inline(always)]
    fn plain_page(&self, _page: u8) -> bool {
        true
    }
    /// Reads `addr` in a page that [`Bus::plain_page`] calls plain: a load, nothing else.
    #[inline(always)]
    fn read_plain(&self, addr: u16) -> u8 {
        self.read(addr)
    }

    /// Reads Z80 I/O port `port` (the full 16-bit address the CPU puts on the bus; devices
    /// decode the low byte). The 6502 has no ports and never calls this.
    fn port_in(&self, _port: u16) -> u8 {
        0xFF
    }
    /// Writes Z80 I/O port `port`.
    fn port_out(&mut self, _port: u16, _value: u8) {}

    /// Whether the bus keeps a per-access timing model (see [`crate::timing`]): a core that
    /// reports every machine cycle (`rustzx-z80`) calls the four methods below only then.
    const TIMED: bool = false;
    /// A memory cycle of `clk` T-states at `addr` begins (4: an M1 opcode fetch).
    #[inline(always)]
    fn cycle_mreq(&mut self, _addr: u16, _clk: u32) {}
    /// One T-state with `addr` on the address bus and no memory request.
    #[inline(always)]
    fn cycle_no_mreq(&mut self, _addr: u16) {}
    /// `clk` T-states inside the CPU, with nothing on the bus.
    #[inline(always)]
    fn cycle_internal(&mut self, _clk: u32) {}
    /// An I/O cycle at `port` begins (4 T-states with the Z80's automatic wait state).
    #[inline(always)]
    fn cycle_io(&mut self, _port: u16) {}
}

/// 64 KB of RAM and nothing else, for tests of single instructions. Port writes are recorded,
/// port reads return `port_input`.
#[derive(Clone)]
pub struct FlatBus {
    /// The whole address space.
    pub mem: Box<[u8; 0x10000]>,
    /// Every `OUT` so far, as (port, value).
    pub port_writes: Vec<(u16, u8)>,
    /// What every `IN` returns.
    pub port_input: u8,
}

impl FlatBus {
    /// 64 KB of zeros with `code` copied to `addr`.
    pub fn with_code(addr: u16, code: &[u8]) -> Self {
        let mut mem: Box<[u8; 0x10000]> = vec![0u8; 0x10000].into_boxed_slice().try_into().unwrap();
        for (i, &b) in code.iter().enumerate() {
            mem[(addr as usize + i) & 0xFFFF] = b;
        }
        FlatBus {
            mem,
            port_writes: Vec::new(),
            port_input: 0xFF,
        }
    }
}

impl Default for FlatBus {
    fn default() -> Self {
        Self::with_code(0, &[])
    }
}

impl Bus for FlatBus {
    #[inline]
    fn read(&self, addr: u16) -> u8 {
        self.mem[addr as usize]
    }
    #[inline]
    fn write(&mut self, addr: u16, value: u8) {
        self.mem[addr as usize] = value;
    }
    fn port_in(&self, _port: u16) -> u8 {
        self.port_input
    }
    fn port_out(&mut self, port: u16, value: u8) {
        self.port_writes.push((port, value));
    }
}
