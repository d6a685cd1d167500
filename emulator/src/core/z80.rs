//! The Z80 core from the `z80` crate: the fastest and the default.
//!
//! The crate keeps A, F, BC, DE, HL (and shadows) private, so [`Core::registers`] reports them as
//! unknown; use [`RustzxCore`](super::RustzxCore) when a trace must show them.

use super::interface::{Core, Registers, Z80Registers};
use crate::{Bus, Cpu};

/// A [`Bus`] as the `z80` crate sees it, for [`Core::step`]. Held by value (not as a reference
/// made for each step) so the crate reaches memory through one pointer, as it would with its
/// own bus type: a wrapper around a reference costs an extra dependent load on every memory
/// access.
#[repr(transparent)]
struct Io<B>(B);

impl<B: Bus> ::z80::Z80_io for Io<B> {
    #[inline(always)]
    fn read_byte(&self, addr: u16) -> u8 {
        self.0.read(addr)
    }
    #[inline(always)]
    fn write_byte(&mut self, addr: u16, value: u8) {
        self.0.write(addr, value)
    }
    #[inline]
    fn port_in(&self, addr: u16) -> u8 {
        self.0.port_in(addr)
    }
    #[inline]
    fn port_out(&mut self, addr: u16, value: u8) {
        self.0.port_out(addr, value)
    }
}

/// The bus for [`Core::step_careful`]. Its own type, so that the crate's step function for
/// [`Io`] keeps a single caller, the machine's step loop: the compiler inlines it only there.
struct Direct<'a, B>(&'a mut B);

impl<B: Bus> ::z80::Z80_io for Direct<'_, B> {
    fn read_byte(&self, addr: u16) -> u8 {
        self.0.read(addr)
    }
    fn write_byte(&mut self, addr: u16, value: u8) {
        self.0.write(addr, value)
    }
    fn port_in(&self, addr: u16) -> u8 {
        self.0.port_in(addr)
    }
    fn port_out(&mut self, addr: u16, value: u8) {
        self.0.port_out(addr, value)
    }
}

/// The `z80` crate's registers on a cache line of their own. The step loop reads and writes
/// them on every instruction beside the bus's fields; where they start depends on the size of
/// the bus before them, and a start near the end of a line splits them over two lines (a
/// field added to the bus once made the machine's step 10 % slower that way). Aligned, they
/// stay in one line whatever the bus holds.
#[repr(align(64))]
struct Registers64(::z80::Z80);

impl std::ops::Deref for Registers64 {
    type Target = ::z80::Z80;
    #[inline(always)]
    fn deref(&self) -> &::z80::Z80 {
        &self.0
    }
}

impl std::ops::DerefMut for Registers64 {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut ::z80::Z80 {
        &mut self.0
    }
}

/// Z80 on the `z80` crate.
pub struct Z80Core<B> {
    cpu: Registers64,
    io: Io<B>,
}

impl<B: Bus> Core for Z80Core<B> {
    type Bus = B;
    const CPU: Cpu = Cpu::Z80;
    const NAME: &'static str = "z80";

    fn new(bus: B) -> Self {
        let mut cpu = ::z80::Z80::new();
        // Power-on state as the crate defines it: PC 0, SP and AF 0xFFFF, others 0.
        cpu.init();
        Z80Core {
            cpu: Registers64(cpu),
            io: Io(bus),
        }
    }

    #[inline(always)]
    fn step(&mut self) -> u32 {
        self.cpu.step(&mut self.io)
    }

    /// The same as [`Core::step`] (every access is checked already), through a bus type of its
    /// own: the machine never calls this on the Z80, but the call is compiled into its step
    /// loop.
    #[inline(never)]
    fn step_careful(&mut self) -> u32 {
        self.cpu.step(&mut Direct(&mut self.io.0))
    }

    #[inline(always)]
    fn bus(&self) -> &B {
        &self.io.0
    }

    #[inline(always)]
    fn bus_mut(&mut self) -> &mut B {
        &mut self.io.0
    }

    #[inline(always)]
    fn pc(&self) -> u16 {
        self.cpu.pc
    }

    fn set_pc(&mut self, pc: u16) {
        self.cpu.pc = pc;
        self.cpu.halted = false;
    }

    #[inline(always)]
    fn sp(&self) -> u16 {
        self.cpu.sp
    }

    fn set_sp(&mut self, sp: u16) {
        self.cpu.sp = sp;
    }

    fn registers(&self) -> Registers {
        Registers::Z80(Z80Registers {
            pc: self.cpu.pc,
            sp: self.cpu.sp,
            ix: self.cpu.ix,
            iy: self.cpu.iy,
            i: self.cpu.i,
            r: self.cpu.r,
            iff1: self.cpu.iff1,
            iff2: self.cpu.iff2,
            im: self.cpu.interrupt_mode,
            main: None,
        })
    }

    fn reset(&mut self) {
        self.cpu.reset();
    }

    fn set_irq(&mut self, active: bool) {
        if active {
            self.cpu.assert_irq(0xFF);
        } else {
            self.cpu.clr_irq();
        }
    }

    fn pulse_nmi(&mut self) {
        self.cpu.pulse_nmi();
    }

    fn accepts_interrupt(&self) -> bool {
        self.cpu.iff1 && self.cpu.iff_delay == 0
    }

    fn set_start_state(&mut self, interrupts: bool, im: Option<u8>, i: Option<u8>) {
        self.cpu.iff1 = interrupts;
        self.cpu.iff2 = interrupts;
        if let Some(im) = im {
            self.cpu.interrupt_mode = im;
        }
        if let Some(i) = i {
            self.cpu.i = i;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FlatBus;

    /// Runs `code` from 0 for `steps` instructions and returns the core and the cycles.
    fn run(code: &[u8], steps: usize) -> (Z80Core<FlatBus>, u32) {
        let mut core = Z80Core::new(FlatBus::with_code(0, code));
        let cycles = (0..steps).map(|_| core.step()).sum();
        (core, cycles)
    }

    #[test]
    fn ld_and_store_take_documented_cycles() {
        // LD A,$42 (7); LD ($8000),A (13)
        let (core, cycles) = run(&[0x3E, 0x42, 0x32, 0x00, 0x80], 2);
        assert_eq!(core.bus().mem[0x8000], 0x42);
        assert_eq!(cycles, 7 + 13);
        assert_eq!(core.pc(), 5);
    }

    #[test]
    fn call_pushes_return_address() {
        // LD SP,$9000 (10); CALL $0010 (17)
        let (core, cycles) = run(&[0x31, 0x00, 0x90, 0xCD, 0x10, 0x00], 2);
        assert_eq!(core.sp(), 0x8FFE);
        assert_eq!(core.bus().mem[0x8FFE..0x9000], [0x06, 0x00]);
        assert_eq!(core.pc(), 0x0010);
        assert_eq!(cycles, 27);
    }

    #[test]
    fn out_reaches_the_bus() {
        // LD A,$2A; OUT ($01),A (11)
        let (core, cycles) = run(&[0x3E, 0x2A, 0xD3, 0x01], 2);
        assert_eq!(core.bus().port_writes, vec![(0x2A01, 0x2A)]);
        assert_eq!(cycles, 7 + 11);
    }
}
