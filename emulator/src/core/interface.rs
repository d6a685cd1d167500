//! What the machine asks of a CPU core ([`Core`]) and the registers a core shows
//! ([`Registers`]), below the cores themselves.

use crate::bus::Bus;
use kempelen_isa::Cpu;
use std::fmt;

/// A CPU together with the bus it owns.
///
/// The core owns its bus because one of the wrapped crates (`mos6502`) owns its memory; the
/// machine reaches the bus through [`Core::bus`] and [`Core::bus_mut`].
pub trait Core {
    /// The bus the CPU reads and writes through.
    type Bus: Bus;
    /// Which processor this is.
    const CPU: Cpu;
    /// Short name of the core, for reports (`z80`, `rustzx-z80`, `mos6502`).
    const NAME: &'static str;

    /// A CPU in its reset state on `bus`.
    fn new(bus: Self::Bus) -> Self;
    /// Executes one instruction (or one interrupt acknowledge) and returns the clock cycles
    /// (T-states) it took.
    fn step(&mut self) -> u32;
    /// Like [`Core::step`], with every access to the bus made through [`Bus::read`] and
    /// [`Bus::write`] as it happens. The machine asks for this when the instruction's operand
    /// bytes, pointers, stack or vectors may lie outside plain memory ([`Bus::plain_page`]);
    /// only a core whose `step` takes shortcuts over plain memory (the 6502 core) needs to
    /// override it.
    fn step_careful(&mut self) -> u32 {
        self.step()
    }
    /// The bus.
    fn bus(&self) -> &Self::Bus;
    /// The bus, mutably.
    fn bus_mut(&mut self) -> &mut Self::Bus;
    /// Program counter.
    fn pc(&self) -> u16;
    /// Sets the program counter.
    fn set_pc(&mut self, pc: u16);
    /// Stack pointer as an address: the Z80's SP; on the 6502 `0x0100 | S`.
    fn sp(&self) -> u16;
    /// Sets the stack pointer (on the 6502 only the low byte is used).
    fn set_sp(&mut self, sp: u16);
    /// A snapshot of the registers.
    fn registers(&self) -> Registers;
    /// Sets the registers from a snapshot of the same CPU (the Z80's shadow registers, I, R
    /// and the interrupt state are left alone). Returns `false`, changing nothing, on a core
    /// that keeps registers private (the `z80` crate's A, F, BC, DE, HL): host traps, which
    /// put results into registers, need a core that shows them.
    fn set_registers(&mut self, _regs: &Registers) -> bool {
        false
    }
    /// Resets the CPU (not the bus): PC to the reset address (the 6502 reads its vector).
    fn reset(&mut self);
    /// Drives the maskable interrupt line (level triggered).
    fn set_irq(&mut self, active: bool);
    /// Pulses the non-maskable interrupt line (edge triggered).
    fn pulse_nmi(&mut self);
    /// Whether an interrupt would wake a waiting CPU now: the IRQ line is active (whatever
    /// the I flag) or an NMI pulse is not served yet. Only the 65C02's `WAI` asks.
    fn interrupt_pending(&self) -> bool {
        false
    }
    /// Whether the CPU would take a maskable interrupt at the end of the current instruction
    /// (Z80: IFF1 set and no `EI` just before; 6502: the I flag clear). A timing model asks,
    /// to charge the ROM's interrupt routine only when the real machine would have run it.
    fn accepts_interrupt(&self) -> bool {
        false
    }
    /// Puts the CPU into the state the machine's ROM leaves a program in: interrupts enabled
    /// or not, and (Z80) the interrupt mode and the I register.
    fn set_start_state(&mut self, _interrupts: bool, _im: Option<u8>, _i: Option<u8>) {}
}

/// Register snapshot of either CPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Registers {
    /// Z80 registers.
    Z80(Z80Registers),
    /// 6502 registers.
    Mos6502(Mos6502Registers),
}

impl Registers {
    /// Program counter.
    pub fn pc(&self) -> u16 {
        match self {
            Registers::Z80(r) => r.pc,
            Registers::Mos6502(r) => r.pc,
        }
    }
}

/// Z80 registers. `main` is `None` on a core that keeps A, F, BC, DE, HL and their shadows
/// private (the `z80` crate).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Z80Registers {
    /// Program counter.
    pub pc: u16,
    /// Stack pointer.
    pub sp: u16,
    /// Index register IX.
    pub ix: u16,
    /// Index register IY.
    pub iy: u16,
    /// Interrupt vector base.
    pub i: u8,
    /// Refresh counter.
    pub r: u8,
    /// Interrupt enable flip-flop 1.
    pub iff1: bool,
    /// Interrupt enable flip-flop 2.
    pub iff2: bool,
    /// Interrupt mode (0, 1, 2).
    pub im: u8,
    /// The register pairs, if the core shows them.
    pub main: Option<Z80MainRegisters>,
}

/// The Z80's AF, BC, DE, HL and their shadow copies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Z80MainRegisters {
    /// Accumulator and flags.
    pub af: u16,
    /// BC.
    pub bc: u16,
    /// DE.
    pub de: u16,
    /// HL.
    pub hl: u16,
    /// AF'.
    pub af_alt: u16,
    /// BC'.
    pub bc_alt: u16,
    /// DE'.
    pub de_alt: u16,
    /// HL'.
    pub hl_alt: u16,
}

/// 6502 registers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Mos6502Registers {
    /// Program counter.
    pub pc: u16,
    /// Accumulator.
    pub a: u8,
    /// Index register X.
    pub x: u8,
    /// Index register Y.
    pub y: u8,
    /// Stack pointer (low byte of the address in page 1).
    pub s: u8,
    /// Processor status NV-BDIZC.
    pub p: u8,
}

/// Flags as letters, upper case when set (`SZ-H-PNC` for the Z80, `NV-BDIZC` for the 6502).
fn flag_letters(value: u8, letters: &[u8; 8]) -> String {
    letters
        .iter()
        .enumerate()
        .map(|(i, &l)| {
            let set = value & (0x80 >> i) != 0;
            match l {
                b'-' => '-',
                _ if set => l.to_ascii_uppercase() as char,
                _ => l.to_ascii_lowercase() as char,
            }
        })
        .collect()
}

impl fmt::Display for Z80Registers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.main {
            Some(m) => write!(
                f,
                "AF={:04X} BC={:04X} DE={:04X} HL={:04X} IX={:04X} IY={:04X} SP={:04X} F={}",
                m.af,
                m.bc,
                m.de,
                m.hl,
                self.ix,
                self.iy,
                self.sp,
                flag_letters(m.af as u8, b"sz-h-pnc")
            ),
            None => write!(
                f,
                "AF=---- BC=---- DE=---- HL=---- IX={:04X} IY={:04X} SP={:04X}",
                self.ix, self.iy, self.sp
            ),
        }
    }
}

impl fmt::Display for Mos6502Registers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "A={:02X} X={:02X} Y={:02X} S={:02X} P={}",
            self.a,
            self.x,
            self.y,
            self.s,
            flag_letters(self.p, b"nv-bdizc")
        )
    }
}

impl fmt::Display for Registers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Registers::Z80(r) => r.fmt(f),
            Registers::Mos6502(r) => r.fmt(f),
        }
    }
}
