//! The 6502 core from the `mos6502` crate, NMOS variant.
//!
//! The crate's CPU owns its memory, so the adapter [`Memory`] wraps Kempelen's [`Bus`] together
//! with the interrupt lines the crate polls after every instruction. Cycles come from the
//! crate's running `cycles` counter (documented base cycles plus the page-crossing and
//! taken-branch penalties).

use super::{Core, Mos6502Registers, Registers};
use crate::{Bus, Cpu};
use mos6502::cpu::CPU;
use mos6502::instruction::Nmos6502;

/// A [`Bus`] as the `mos6502` crate wants it.
struct Memory<B> {
    bus: B,
    irq: bool,
    nmi: bool,
    /// An NMI pulse was reported; the crate must see the line low once more to re-arm its
    /// edge detector.
    nmi_rearm: bool,
}

impl<B> Memory<B> {
    /// Whether the CPU must poll the interrupt lines after this instruction.
    #[inline(always)]
    fn lines_active(&self) -> bool {
        self.irq | self.nmi | self.nmi_rearm
    }
}

impl<B: Bus> mos6502::memory::Bus for Memory<B> {
    #[inline(always)]
    fn get_byte(&mut self, address: u16) -> u8 {
        self.bus.read(address)
    }
    #[inline(always)]
    fn set_byte(&mut self, address: u16, value: u8) {
        self.bus.write(address, value)
    }
    #[inline(always)]
    fn nmi_pending(&mut self) -> bool {
        // The crate detects the rising edge of this level; reporting the pulse once is an edge.
        // (Test before clearing: no store on the common path.)
        if self.nmi {
            self.nmi = false;
            self.nmi_rearm = true;
            true
        } else {
            self.nmi_rearm = false;
            false
        }
    }
    #[inline(always)]
    fn irq_pending(&mut self) -> bool {
        self.irq
    }
}

/// NMOS 6502 on the `mos6502` crate.
pub struct Mos6502Core<B: Bus> {
    cpu: CPU<Memory<B>, Nmos6502>,
}

impl<B: Bus> Core for Mos6502Core<B> {
    type Bus = B;
    const CPU: Cpu = Cpu::Mos6502;
    const NAME: &'static str = "mos6502";

    fn new(bus: B) -> Self {
        let memory = Memory {
            bus,
            irq: false,
            nmi: false,
            nmi_rearm: false,
        };
        let mut cpu = CPU::new(memory, Nmos6502);
        cpu.registers.stack_pointer.0 = 0xFF;
        Mos6502Core { cpu }
    }

    #[inline(always)]
    fn step(&mut self) -> u32 {
        let before = self.cpu.cycles;
        if self.cpu.memory.lines_active() {
            self.cpu.single_step();
        } else {
            // No interrupt line is active, so the poll after the instruction would find
            // nothing: run the instruction alone (what `single_step` does before polling).
            match self.cpu.fetch_next_and_decode() {
                Some(decoded) => self.cpu.execute_instruction(decoded),
                None => self.cpu.cycles += 1,
            }
        }
        self.cpu.cycles.wrapping_sub(before) as u32
    }

    #[inline(always)]
    fn bus(&self) -> &B {
        &self.cpu.memory.bus
    }

    #[inline(always)]
    fn bus_mut(&mut self) -> &mut B {
        &mut self.cpu.memory.bus
    }

    #[inline(always)]
    fn pc(&self) -> u16 {
        self.cpu.registers.program_counter
    }

    fn set_pc(&mut self, pc: u16) {
        self.cpu.registers.program_counter = pc;
    }

    #[inline(always)]
    fn sp(&self) -> u16 {
        0x0100 | u16::from(self.cpu.registers.stack_pointer.0)
    }

    fn set_sp(&mut self, sp: u16) {
        self.cpu.registers.stack_pointer.0 = sp as u8;
    }

    fn registers(&self) -> Registers {
        let r = &self.cpu.registers;
        Registers::Mos6502(Mos6502Registers {
            pc: r.program_counter,
            a: r.accumulator,
            x: r.index_x,
            y: r.index_y,
            s: r.stack_pointer.0,
            p: r.status.bits(),
        })
    }

    fn reset(&mut self) {
        self.cpu.reset();
    }

    fn set_irq(&mut self, active: bool) {
        self.cpu.memory.irq = active;
    }

    fn pulse_nmi(&mut self) {
        self.cpu.memory.nmi = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FlatBus;

    fn run(code: &[u8], steps: usize) -> (Mos6502Core<FlatBus>, u32) {
        let mut core = Mos6502Core::new(FlatBus::with_code(0x0200, code));
        core.set_pc(0x0200);
        let cycles = (0..steps).map(|_| core.step()).sum();
        (core, cycles)
    }

    #[test]
    fn lda_sta_cycles() {
        // LDA #$42 (2); STA $0300 (4)
        let (core, cycles) = run(&[0xA9, 0x42, 0x8D, 0x00, 0x03], 2);
        assert_eq!(core.bus().mem[0x0300], 0x42);
        assert_eq!(cycles, 6);
    }

    #[test]
    fn taken_branch_across_a_page_costs_two_extra() {
        // At $0200: BNE +$7E -> $0280 (taken, same page: 3).  LDX #1 first so Z is clear.
        let (_, cycles) = run(&[0xA2, 0x01, 0xD0, 0x7E], 2);
        assert_eq!(cycles, 2 + 3);
        // BNE from $02F0 to $0310 crosses a page: 4.
        let mut core = Mos6502Core::new(FlatBus::with_code(0x02F0, &[0xA2, 0x01, 0xD0, 0x1C]));
        core.set_pc(0x02F0);
        let cycles: u32 = (0..2).map(|_| core.step()).sum();
        assert_eq!(core.pc(), 0x0310);
        assert_eq!(cycles, 2 + 4);
    }

    #[test]
    fn jsr_pushes_return_address_minus_one() {
        // JSR $0400 (6)
        let (core, cycles) = run(&[0x20, 0x00, 0x04], 1);
        assert_eq!(cycles, 6);
        assert_eq!(core.sp(), 0x01FD);
        assert_eq!(core.bus().mem[0x01FE..0x0200], [0x02, 0x02]);
        let Registers::Mos6502(r) = core.registers() else {
            panic!("not a 6502")
        };
        assert_eq!(r.s, 0xFD);
    }
}
