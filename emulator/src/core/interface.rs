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

/// One register's value, for a debugger's register view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct RegisterValue {
    /// Its name as the datasheet writes it (`HL`, `IX`, `A`, `S`).
    pub name: &'static str,
    /// The value.
    pub value: u16,
    /// Its width in bits (8 or 16).
    pub bits: u8,
}

/// One bit of the flags register.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Flag {
    /// Its name (`Z`, `P/V`, `C`; the Z80's undocumented bits 5 and 3 are `5` and `3`).
    pub name: &'static str,
    /// The bit's number in the flags register.
    pub bit: u8,
    /// Whether it is set.
    pub set: bool,
}

/// The Z80's F, bit 7 first.
const Z80_FLAGS: [&str; 8] = ["S", "Z", "5", "H", "3", "P/V", "N", "C"];
/// The 6502's P, bit 7 first (bit 5 is not a flag; B exists only in a pushed copy of P, but
/// the cores keep it).
const MOS6502_FLAGS: [&str; 8] = ["N", "V", "-", "B", "D", "I", "Z", "C"];

fn flags_of(value: u8, names: &[&'static str; 8]) -> Vec<Flag> {
    names
        .iter()
        .enumerate()
        .filter(|(_, n)| **n != "-")
        .map(|(i, &name)| {
            let bit = 7 - i as u8;
            Flag {
                name,
                bit,
                set: value & (1 << bit) != 0,
            }
        })
        .collect()
}

impl Registers {
    /// Every register the core shows, in the datasheet's order (a Z80 core that keeps AF, BC,
    /// DE and HL private shows PC, SP, IX, IY, I and R only).
    ///
    /// ```
    /// use kempelen_emulator::{Cpu, CoreKind, MachineBuilder};
    ///
    /// let m = MachineBuilder::new(Cpu::Mos6502).load(0x0200, &[0xEA]).entry(0x0200).build().unwrap();
    /// let names: Vec<&str> = m.registers().values().iter().map(|r| r.name).collect();
    /// assert_eq!(names, ["PC", "A", "X", "Y", "S", "P"]);
    /// let z80 = MachineBuilder::new(Cpu::Z80).core(CoreKind::RustzxZ80).load(0, &[0]).build().unwrap();
    /// assert_eq!(z80.registers().values().len(), 15);
    /// assert_eq!(z80.registers().flags().unwrap().len(), 8);
    /// ```
    pub fn values(&self) -> Vec<RegisterValue> {
        let r16 = |name, value| RegisterValue {
            name,
            value,
            bits: 16,
        };
        let r8 = |name, value: u8| RegisterValue {
            name,
            value: value.into(),
            bits: 8,
        };
        match self {
            Registers::Z80(r) => {
                let mut v = vec![r16("PC", r.pc), r16("SP", r.sp)];
                if let Some(m) = &r.main {
                    v.extend([
                        r16("AF", m.af),
                        r16("BC", m.bc),
                        r16("DE", m.de),
                        r16("HL", m.hl),
                    ]);
                }
                v.extend([r16("IX", r.ix), r16("IY", r.iy)]);
                if let Some(m) = &r.main {
                    v.extend([
                        r16("AF'", m.af_alt),
                        r16("BC'", m.bc_alt),
                        r16("DE'", m.de_alt),
                        r16("HL'", m.hl_alt),
                    ]);
                }
                v.extend([r8("I", r.i), r8("R", r.r), r8("IM", r.im)]);
                v
            }
            Registers::Mos6502(r) => vec![
                r16("PC", r.pc),
                r8("A", r.a),
                r8("X", r.x),
                r8("Y", r.y),
                r8("S", r.s),
                r8("P", r.p),
            ],
        }
    }

    /// The flags, bit 7 first: the Z80's F (`None` on a core that keeps F private), the
    /// 6502's and 65C02's P.
    pub fn flags(&self) -> Option<Vec<Flag>> {
        match self {
            Registers::Z80(r) => r.main.map(|m| flags_of(m.af as u8, &Z80_FLAGS)),
            Registers::Mos6502(r) => Some(flags_of(r.p, &MOS6502_FLAGS)),
        }
    }

    /// The stack pointer as an address (the 6502's `$0100 | S`).
    pub fn sp(&self) -> u16 {
        match self {
            Registers::Z80(r) => r.sp,
            Registers::Mos6502(r) => 0x0100 | u16::from(r.s),
        }
    }
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
