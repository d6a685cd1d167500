//! The Z80 core from the `rustzx-z80` crate: every register visible, for tracing.
//!
//! `rustzx-z80` counts time through bus callbacks (`wait_*`) instead of returning cycles; the
//! adapter below adds them up per step. An I/O cycle is 4 T-states: the crate leaves that to
//! the bus (the ZX Spectrum adds contention there), so the adapter adds 4 for each port access.
//!
//! Because the crate reports every machine cycle with its address (it was written for the
//! Spectrum's contention), it is the core of machines whose timing model needs each access and
//! its moment ([`crate::timing`]): on a bus with such a model ([`Bus::TIMED`]) the adapter hands
//! each cycle to the bus as well. The step still returns the CPU's own T-states; the waits are
//! the model's.

use super::interface::{Core, Registers, Z80MainRegisters, Z80Registers};
use crate::{Bus, Cpu};
use rustzx_z80::{IntMode, Z80Bus};

/// Interrupt lines as `rustzx-z80` polls them.
#[derive(Default)]
struct Lines {
    irq: bool,
    nmi: std::cell::Cell<bool>,
}

/// A [`Bus`] as `rustzx-z80` sees it, counting the clocks it spends. Held by value so memory
/// is one pointer away (see the `z80` core).
struct Io<B> {
    bus: B,
    lines: Lines,
    clk: u32,
}

impl<B: Bus> Z80Bus for Io<B> {
    #[inline(always)]
    fn read_internal(&mut self, addr: u16) -> u8 {
        self.bus.read(addr)
    }
    #[inline(always)]
    fn write_internal(&mut self, addr: u16, data: u8) {
        self.bus.write(addr, data)
    }
    #[inline(always)]
    fn wait_mreq(&mut self, addr: u16, clk: usize) {
        if B::TIMED {
            self.bus.cycle_mreq(addr, clk as u32);
        }
        self.clk += clk as u32;
    }
    #[inline(always)]
    fn wait_no_mreq(&mut self, addr: u16, clk: usize) {
        if B::TIMED {
            for _ in 0..clk {
                self.bus.cycle_no_mreq(addr);
            }
        }
        self.clk += clk as u32;
    }
    #[inline(always)]
    fn wait_internal(&mut self, clk: usize) {
        if B::TIMED {
            self.bus.cycle_internal(clk as u32);
        }
        self.clk += clk as u32;
    }
    #[inline(always)]
    fn wait_loop(&mut self, addr: u16, clk: usize) {
        self.wait_no_mreq(addr, clk);
    }
    fn read_io(&mut self, port: u16) -> u8 {
        if B::TIMED {
            self.bus.cycle_io(port);
        }
        self.clk += 4;
        self.bus.port_in(port)
    }
    fn write_io(&mut self, port: u16, data: u8) {
        if B::TIMED {
            self.bus.cycle_io(port);
        }
        self.clk += 4;
        self.bus.port_out(port, data)
    }
    fn read_interrupt(&mut self) -> u8 {
        0xFF
    }
    fn reti(&mut self) {}
    fn halt(&mut self, _halted: bool) {}
    fn int_active(&self) -> bool {
        self.lines.irq
    }
    fn nmi_active(&self) -> bool {
        // Edge triggered: the CPU services the pulse once.
        self.lines.nmi.replace(false)
    }
    fn pc_callback(&mut self, _addr: u16) {}
}

/// Z80 on `rustzx-z80`.
pub struct RustzxCore<B> {
    cpu: rustzx_z80::Z80,
    io: Io<B>,
}

impl<B: Bus> Core for RustzxCore<B> {
    type Bus = B;
    const CPU: Cpu = Cpu::Z80;
    const NAME: &'static str = "rustzx-z80";

    fn new(bus: B) -> Self {
        let mut core = RustzxCore {
            cpu: rustzx_z80::Z80::default(),
            io: Io {
                bus,
                lines: Lines::default(),
                clk: 0,
            },
        };
        core.power_on();
        core
    }

    #[inline(always)]
    fn step(&mut self) -> u32 {
        self.io.clk = 0;
        self.cpu.emulate(&mut self.io);
        self.io.clk
    }

    fn bus(&self) -> &B {
        &self.io.bus
    }

    fn bus_mut(&mut self) -> &mut B {
        &mut self.io.bus
    }

    #[inline(always)]
    fn pc(&self) -> u16 {
        self.cpu.regs.get_pc()
    }

    fn set_pc(&mut self, pc: u16) {
        self.cpu.regs.set_pc(pc);
    }

    #[inline(always)]
    fn sp(&self) -> u16 {
        self.cpu.regs.get_sp()
    }

    fn set_sp(&mut self, sp: u16) {
        self.cpu.regs.set_sp(sp);
    }

    fn registers(&self) -> Registers {
        let r = &self.cpu.regs;
        let pair = |h: u8, l: u8| u16::from_be_bytes([h, l]);
        Registers::Z80(Z80Registers {
            pc: r.get_pc(),
            sp: r.get_sp(),
            ix: r.get_ix(),
            iy: r.get_iy(),
            i: r.get_i(),
            r: r.get_r(),
            iff1: r.get_iff1(),
            iff2: r.get_iff2(),
            im: u8::from(self.cpu.get_im()),
            main: Some(Z80MainRegisters {
                af: r.get_af(),
                bc: r.get_bc(),
                de: r.get_de(),
                hl: r.get_hl(),
                af_alt: pair(r.get_acc_alt(), r.get_flags_alt()),
                bc_alt: pair(r.get_b_alt(), r.get_c_alt()),
                de_alt: pair(r.get_d_alt(), r.get_e_alt()),
                hl_alt: pair(r.get_h_alt(), r.get_l_alt()),
            }),
        })
    }

    fn set_registers(&mut self, regs: &Registers) -> bool {
        let Registers::Z80(Z80Registers {
            pc,
            sp,
            ix,
            iy,
            main: Some(m),
            ..
        }) = *regs
        else {
            return false;
        };
        let r = &mut self.cpu.regs;
        r.set_pc(pc);
        r.set_sp(sp);
        r.set_ix(ix);
        r.set_iy(iy);
        r.set_af(m.af);
        r.set_bc(m.bc);
        r.set_de(m.de);
        r.set_hl(m.hl);
        true
    }

    fn reset(&mut self) {
        let regs = &mut self.cpu.regs;
        regs.set_pc(0);
        regs.set_i(0);
        regs.set_r(0);
        regs.set_iff1(false);
        regs.set_iff2(false);
        self.cpu.set_im(u8::from(IntMode::Im0));
    }

    fn set_irq(&mut self, active: bool) {
        self.io.lines.irq = active;
    }

    fn pulse_nmi(&mut self) {
        self.io.lines.nmi.set(true);
    }

    fn accepts_interrupt(&self) -> bool {
        self.cpu.regs.get_iff1()
    }

    fn set_start_state(&mut self, interrupts: bool, im: Option<u8>, i: Option<u8>) {
        self.cpu.regs.set_iff1(interrupts);
        self.cpu.regs.set_iff2(interrupts);
        if let Some(im) = im {
            self.cpu.set_im(im.min(2));
        }
        if let Some(i) = i {
            self.cpu.regs.set_i(i);
        }
    }
}

impl<B: Bus> RustzxCore<B> {
    /// The same power-on register values as the `z80` crate (AF and SP 0xFFFF, the rest 0), so
    /// the two Z80 cores start from identical states.
    fn power_on(&mut self) {
        self.cpu.regs.set_af(0xFFFF);
        self.cpu.regs.set_sp(0xFFFF);
        self.reset();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FlatBus;

    #[test]
    fn shows_the_main_registers() {
        // LD BC,$1234; LD DE,$5678; LD HL,$9ABC; LD A,$42; SCF
        let code = [
            0x01, 0x34, 0x12, 0x11, 0x78, 0x56, 0x21, 0xBC, 0x9A, 0x3E, 0x42, 0x37,
        ];
        let mut core = RustzxCore::new(FlatBus::with_code(0, &code));
        let cycles: u32 = (0..5).map(|_| core.step()).sum();
        assert_eq!(cycles, 10 * 3 + 7 + 4);
        let Registers::Z80(r) = core.registers() else {
            panic!("not a Z80")
        };
        let m = r.main.expect("rustzx shows the main registers");
        assert_eq!((m.bc, m.de, m.hl), (0x1234, 0x5678, 0x9ABC));
        assert_eq!(m.af >> 8, 0x42);
        assert_eq!(m.af & 1, 1, "carry set by SCF");
    }

    #[test]
    fn io_costs_four_cycles_like_the_z80_crate() {
        // LD A,$2A; OUT ($01),A (11); IN A,($00) (11)
        let mut core =
            RustzxCore::new(FlatBus::with_code(0, &[0x3E, 0x2A, 0xD3, 0x01, 0xDB, 0x00]));
        let cycles: u32 = (0..3).map(|_| core.step()).sum();
        assert_eq!(cycles, 7 + 11 + 11);
        assert_eq!(core.bus().port_writes, vec![(0x2A01, 0x2A)]);
    }
}
