//! The 6502 cores from the `mos6502` crate: the NMOS 6502 and the CMOS 65C02 ([`Family`]).
//!
//! The crate's CPU owns its memory, so the adapter [`Memory`] wraps Kempelen's [`Bus`].
//! Cycles come from the crate's running `cycles` counter (documented base cycles plus the
//! page-crossing and taken-branch penalties), with one correction: `mos6502` 0.10 also charges
//! the page-crossing cycle to the read-modify-write instructions with an indexed address
//! (`ASL`, `LSR`, `ROL`, `ROR`, `INC`, `DEC` abs,X and the undocumented `SLO`, `RLA`, `SRE`,
//! `RRA`, `DCP`, `ISC` in their abs,X, abs,Y and (zp),Y forms), which on an NMOS 6502 always
//! take the same time (7, 7 and 8 cycles) because they read the address twice anyway. The
//! wrapper takes that cycle back ([`has_fixed_indexed_cycles`]).
//!
//! The 65C02 is the WDC W65C02S (the crate's `W65C02S` variant: the CMOS set plus Rockwell's
//! bit instructions `RMB`, `SMB`, `BBR`, `BBS` and WDC's `WAI`, `STP`). It runs on the same code
//! with its own corrections (WDC W65C02S datasheet, table 5-7): the crate's cycle table is the
//! same for every variant, so the shifts and rotates on `abs,X` come out one cycle long (6 on a
//! 65C02, plus one on a page cross), `INC`/`DEC abs,X` charge a page cross they do not take (7
//! on a 65C02 either way), and `BRA` is charged as a branch with a base of 3 (it takes 3, plus
//! one on a page cross). The crate charges `BBR`/`BBS` a flat 5 cycles, the datasheet's figure
//! for a branch not taken; a taken bit branch costs one more, and one more again when it lands
//! on another page than the next instruction, like every branch (as cycle-exact simulators
//! checked against the chip's bus count it), so the wrapper runs these two itself
//! (`bit_branch`). The crate itself charges the 65C02's extra cycle for decimal `ADC`/`SBC`, 5 cycles for
//! `RMB`/`SMB`, 3 for `WAI` and `STP` (the machine stops before an `STP` and before a `WAI` with
//! no interrupt to wake it, see `docs/MACHINE.md`) and 6 cycles for `JMP (abs)` and
//! `JMP (abs,X)`.
//!
//! # Speed
//!
//! The crate's execute function is large, and the compiler inlines it into the machine's
//! step loop (as it does into a bare loop around the crate) only while its memory accesses
//! are tiny. So an instruction normally runs on a plain view of memory: reads are plain loads
//! ([`Bus::read_plain`]), writes are collected in [`Memory::log`] and handed to [`Bus::write`]
//! when the instruction is done. That is exact because no NMOS 6502 instruction reads a byte
//! it wrote itself, and because an instruction runs on the plain view only when it touches
//! nothing but plain memory ([`Bus::plain_page`]): the address it operates on is checked once
//! decoded, and the machine calls [`Core::step_careful`] instead when its operand bytes,
//! pointers, stack or vectors may lie elsewhere. Any other instruction runs on a second,
//! checked instance of the crate's CPU ([`Mos6502Core::careful_step`]), where every read and
//! write goes through [`Bus::read`] and [`Bus::write`] as it happens.
//!
//! Interrupts are serviced here rather than by the crate's `single_step`, so that the crate's
//! fetch and execute functions are called from one place only (the compiler inlines a large
//! function only into its single caller); while a line is active, every step takes the
//! checked path, which looks for them. The sequence is the NMOS one: after an instruction, a
//! pulsed NMI, or else an active IRQ line with the I flag clear before the instruction (so
//! `CLI`/`SEI` act one instruction late), pushes PC and P (B clear, bit 5 set), sets I and
//! jumps through `$FFFA` or `$FFFE`, in 7 cycles.

use super::interface::{Core, Mos6502Registers, Registers};
use crate::{Bus, Cpu};
use mos6502::cpu::CPU;
use mos6502::instruction::{AddressingMode, DecodedInstr, Instruction, Nmos6502, OpInput, W65C02S};
use mos6502::registers::Status;

/// Most bytes one instruction writes (`BRK`: 3).
const LOG: usize = 4;

/// The plain view of a [`Bus`] for the crate's CPU: plain reads, writes collected in `log`.
/// The crate's interrupt polls are never called (see the module header), so their default
/// answers (no interrupt) stand.
struct Memory<B> {
    bus: B,
    /// The writes of the instruction running, as (address, value).
    log: [(u16, u8); LOG],
    /// How many.
    logged: usize,
}

impl<B: Bus> mos6502::memory::Bus for Memory<B> {
    #[inline(always)]
    fn get_byte(&mut self, address: u16) -> u8 {
        self.bus.read_plain(address)
    }
    #[inline(always)]
    fn set_byte(&mut self, address: u16, value: u8) {
        self.log[self.logged % LOG] = (address, value);
        self.logged += 1;
    }
}

impl<B: Bus> Memory<B> {
    /// Hands the logged writes to the bus, in order.
    #[inline]
    fn flush(&mut self) {
        debug_assert!(
            self.logged <= LOG,
            "a 6502 instruction writes at most 3 bytes"
        );
        for &(address, value) in &self.log[..self.logged.min(LOG)] {
            self.bus.write(address, value);
        }
        self.logged = 0;
    }
}

/// The checked view of a [`Bus`] for the crate's CPU: every access as it happens.
struct Checked<'a, B>(&'a mut B);

impl<B: Bus> mos6502::memory::Bus for Checked<'_, B> {
    fn get_byte(&mut self, address: u16) -> u8 {
        self.0.read(address)
    }
    fn set_byte(&mut self, address: u16, value: u8) {
        self.0.write(address, value)
    }
}

/// Whether `instr`, on an address that crossed a page, is one the crate charges a spurious
/// page-crossing cycle: the read-modify-write instructions, whose indexed forms take the same
/// cycles with or without a page cross on an NMOS 6502.
#[inline(always)]
pub fn has_fixed_indexed_cycles(instr: Instruction) -> bool {
    use Instruction::*;
    matches!(
        instr,
        ASL | LSR | ROL | ROR | INC | DEC | SLO | RLA | SRE | RRA | DCP | ISC
    )
}

/// A member of the 6502 family the machine runs: the crate's variant plus what Kempelen
/// corrects in the crate's cycle count for it.
pub trait Family: mos6502::Variant + Copy + Default + Send + Sync + 'static {
    /// The CPU it is.
    const CPU: Cpu;
    /// The core's name.
    const NAME: &'static str;
    /// Whether the part has the bit branches `BBR` and `BBS`, which the wrapper runs itself
    /// (`bit_branch`).
    const BIT_BRANCHES: bool = false;
    /// Cycles the crate charges for `decoded` that the part does not take.
    fn overcharge(decoded: &DecodedInstr) -> u64;
}

impl Family for Nmos6502 {
    const CPU: Cpu = Cpu::Mos6502;
    const NAME: &'static str = "mos6502";

    #[inline(always)]
    fn overcharge(decoded: &DecodedInstr) -> u64 {
        u64::from(decoded.2.page_crossed() && has_fixed_indexed_cycles(decoded.0))
    }
}

impl Family for W65C02S {
    const CPU: Cpu = Cpu::Cmos65c02;
    const NAME: &'static str = "mos6502 (W65C02S)";
    const BIT_BRANCHES: bool = true;

    #[inline(always)]
    fn overcharge(decoded: &DecodedInstr) -> u64 {
        use Instruction::*;
        match (decoded.0, decoded.1) {
            (ASL | LSR | ROL | ROR, AddressingMode::AbsoluteX) => 1,
            // So do the undefined opcodes $DC and $FC, 3-byte NOPs of 4 cycles.
            (INC | DEC | NOPAX, AddressingMode::AbsoluteX) => u64::from(decoded.2.page_crossed()),
            (BRA, _) => 1,
            _ => 0,
        }
    }
}

/// Executes a decoded instruction on `cpu`, with the cycle correction.
#[inline(always)]
fn execute<M: mos6502::memory::Bus, V: Family>(cpu: &mut CPU<M, V>, decoded: DecodedInstr) {
    if V::BIT_BRANCHES
        && let (
            Instruction::BBR(bit) | Instruction::BBS(bit),
            OpInput::UseBitBranch {
                zp_address,
                relative,
            },
        ) = (decoded.0, decoded.2)
    {
        let on_set = matches!(decoded.0, Instruction::BBS(_));
        bit_branch(cpu, bit, on_set, zp_address, relative);
        return;
    }
    let overcharge = V::overcharge(&decoded);
    cpu.execute_instruction(decoded);
    cpu.cycles = cpu.cycles.wrapping_sub(overcharge);
}

/// Cycles of `BBR`/`BBS` when the branch is not taken (W65C02S datasheet).
const BIT_BRANCH_CYCLES: u64 = 5;

/// `BBR bit,zp,rel` (`on_set` false) or `BBS` (`on_set` true), with the PC already past the
/// instruction: reads the zero-page byte once, branches when its bit `bit` is clear (`BBR`) or
/// set (`BBS`), and counts 5 cycles, one more when the branch is taken and one more again when
/// the target is on another page than the next instruction.
#[inline(never)]
fn bit_branch<M: mos6502::memory::Bus, V: Family>(
    cpu: &mut CPU<M, V>,
    bit: u8,
    on_set: bool,
    zp_address: u8,
    relative: u16,
) {
    let value = cpu.memory.get_byte(u16::from(zp_address));
    let mut cycles = BIT_BRANCH_CYCLES;
    if (value >> bit) & 1 == u8::from(on_set) {
        let next = cpu.registers.program_counter;
        let target = next.wrapping_add(relative);
        cycles += 1 + u64::from((next ^ target) & 0xFF00 != 0);
        cpu.registers.program_counter = target;
    }
    cpu.cycles = cpu.cycles.wrapping_add(cycles);
}

/// Cycles of an interrupt sequence (IRQ or NMI) on an NMOS 6502.
const INTERRUPT_CYCLES: u64 = 7;

/// A 6502 on the `mos6502` crate: NMOS by default, the 65C02 as `Mos6502Core<B, W65C02S>`.
pub struct Mos6502Core<B: Bus, V: Family = Nmos6502> {
    cpu: CPU<Memory<B>, V>,
    /// The IRQ line (level triggered).
    irq: bool,
    /// An NMI pulse not serviced yet (edge triggered: serviced once).
    nmi: bool,
    /// `irq || nmi`: whether to look for an interrupt after an instruction.
    lines: bool,
}

/// The CMOS 65C02 core: the WDC W65C02S.
pub type Cmos65c02Core<B> = Mos6502Core<B, W65C02S>;

impl<B: Bus, V: Family> Mos6502Core<B, V> {
    /// Runs the instruction at `pc` on a checked instance of the crate's CPU (see the module
    /// header), which takes over the registers and the cycle count and hands them back.
    #[cold]
    #[inline(never)]
    fn careful_step(&mut self, pc: u16) {
        let mut cpu = CPU::new(Checked(&mut self.cpu.memory.bus), V::default());
        cpu.registers = self.cpu.registers;
        cpu.registers.program_counter = pc;
        cpu.cycles = self.cpu.cycles;
        match cpu.fetch_next_and_decode() {
            Some(decoded) => execute(&mut cpu, decoded),
            None => cpu.cycles = cpu.cycles.wrapping_add(1),
        }
        self.cpu.registers = cpu.registers;
        self.cpu.cycles = cpu.cycles;
    }

    /// After an instruction, with P as it was before it: services a pulsed NMI, or an IRQ if
    /// the line is active and I was clear.
    #[cold]
    #[inline(never)]
    fn interrupt(&mut self, status_before: Status) {
        let vector = if self.nmi {
            self.nmi = false;
            self.lines = self.irq;
            0xFFFA
        } else if !status_before.contains(Status::PS_DISABLE_INTERRUPTS) {
            0xFFFE
        } else {
            return;
        };
        let [hi, lo] = self.cpu.registers.program_counter.to_be_bytes();
        let p = (self.cpu.registers.status.bits() | 0x20) & !0x10;
        for value in [hi, lo, p] {
            let s = &mut self.cpu.registers.stack_pointer.0;
            self.cpu.memory.bus.write(0x0100 | u16::from(*s), value);
            *s = s.wrapping_sub(1);
        }
        self.cpu
            .registers
            .status
            .insert(Status::PS_DISABLE_INTERRUPTS);
        let bus = &mut self.cpu.memory.bus;
        self.cpu.registers.program_counter =
            u16::from_le_bytes([bus.read(vector), bus.read(vector + 1)]);
        self.cpu.cycles = self.cpu.cycles.wrapping_add(INTERRUPT_CYCLES);
    }
}

impl<B: Bus, V: Family> Core for Mos6502Core<B, V> {
    type Bus = B;
    const CPU: Cpu = V::CPU;
    const NAME: &'static str = V::NAME;

    fn new(bus: B) -> Self {
        let memory = Memory {
            bus,
            log: [(0, 0); LOG],
            logged: 0,
        };
        let mut cpu = CPU::new(memory, V::default());
        cpu.registers.stack_pointer.0 = 0xFF;
        Mos6502Core {
            cpu,
            irq: false,
            nmi: false,
            lines: false,
        }
    }

    #[inline(always)]
    fn step(&mut self) -> u32 {
        if self.lines {
            return self.step_careful();
        }
        let pc = self.cpu.registers.program_counter;
        // The crate's counter counts this step only, so no count from before it has to be
        // kept across the crate's code (which needs every register).
        self.cpu.cycles = 0;
        match self.cpu.fetch_next_and_decode() {
            Some(decoded) => {
                let plain = match decoded.2 {
                    OpInput::UseAddress { address, .. } => {
                        self.cpu.memory.bus.plain_page((address >> 8) as u8)
                    }
                    // BBR/BBS read the zero page.
                    OpInput::UseBitBranch { .. } => self.cpu.memory.bus.plain_page(0),
                    _ => true,
                };
                if plain {
                    execute(&mut self.cpu, decoded);
                    if self.cpu.memory.logged != 0 {
                        self.cpu.memory.flush();
                    }
                } else {
                    self.careful_step(pc);
                }
            }
            // An opcode the crate does not know (the machine refuses them before they run):
            // the crate's own step counts one cycle and leaves the PC.
            None => self.cpu.cycles = 1,
        }
        self.cpu.cycles as u32
    }

    /// Also every step while an interrupt line is active: only here is P sampled before the
    /// instruction and the interrupt lines looked at after it.
    fn step_careful(&mut self) -> u32 {
        let status = self.cpu.registers.status;
        self.cpu.cycles = 0;
        self.careful_step(self.cpu.registers.program_counter);
        if self.lines {
            self.interrupt(status);
        }
        self.cpu.cycles as u32
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

    fn set_registers(&mut self, regs: &Registers) -> bool {
        let Registers::Mos6502(r) = *regs else {
            return false;
        };
        let c = &mut self.cpu.registers;
        c.program_counter = r.pc;
        c.accumulator = r.a;
        c.index_x = r.x;
        c.index_y = r.y;
        c.stack_pointer.0 = r.s;
        c.status = Status::from_bits_truncate(r.p);
        true
    }

    fn reset(&mut self) {
        self.cpu.reset();
    }

    fn set_irq(&mut self, active: bool) {
        self.irq = active;
        self.lines = self.irq || self.nmi;
    }

    fn pulse_nmi(&mut self) {
        self.nmi = true;
        self.lines = true;
    }

    fn interrupt_pending(&self) -> bool {
        self.lines
    }

    fn accepts_interrupt(&self) -> bool {
        !self
            .cpu
            .registers
            .status
            .contains(Status::PS_DISABLE_INTERRUPTS)
    }

    fn set_start_state(&mut self, interrupts: bool, _im: Option<u8>, _i: Option<u8>) {
        self.cpu
            .registers
            .status
            .set(Status::PS_DISABLE_INTERRUPTS, !interrupts);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FlatBus;

    fn run(code: &[u8], steps: usize) -> (Mos6502Core<FlatBus>, u32) {
        let mut core = Mos6502Core::<_>::new(FlatBus::with_code(0x0200, code));
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
        let mut core = Mos6502Core::<_>::new(FlatBus::with_code(0x02F0, &[0xA2, 0x01, 0xD0, 0x1C]));
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

    /// Cycles of the instruction `bytes` at $0200 with X = Y = `index`, the zero page pointer
    /// at $10 holding `$02F0`.
    fn cycles_with_index(bytes: &[u8], index: u8) -> u32 {
        let mut bus = FlatBus::with_code(0x0200, bytes);
        bus.mem[0x10] = 0xF0;
        bus.mem[0x11] = 0x02;
        let mut core = Mos6502Core::<_>::new(bus);
        core.cpu.registers.index_x = index;
        core.cpu.registers.index_y = index;
        core.set_pc(0x0200);
        core.step()
    }

    /// One test per read-modify-write abs,X opcode: 7 cycles on an NMOS 6502 whether or not
    /// the indexed address crosses a page (`mos6502` 0.10 alone counts 8 with a cross).
    macro_rules! rmw_abs_x_takes_seven {
        ($($name:ident: $op:literal,)*) => {$(
            #[test]
            fn $name() {
                // $op $02F0,X with X = 5 ($02F5, same page) and X = $20 ($0310, next page).
                assert_eq!(cycles_with_index(&[$op, 0xF0, 0x02], 0x05), 7, "no page cross");
                assert_eq!(cycles_with_index(&[$op, 0xF0, 0x02], 0x20), 7, "page cross");
            }
        )*};
    }

    rmw_abs_x_takes_seven! {
        asl_abs_x_takes_7_cycles_with_or_without_a_page_cross: 0x1E,
        lsr_abs_x_takes_7_cycles_with_or_without_a_page_cross: 0x5E,
        rol_abs_x_takes_7_cycles_with_or_without_a_page_cross: 0x3E,
        ror_abs_x_takes_7_cycles_with_or_without_a_page_cross: 0x7E,
        inc_abs_x_takes_7_cycles_with_or_without_a_page_cross: 0xFE,
        dec_abs_x_takes_7_cycles_with_or_without_a_page_cross: 0xDE,
    }

    #[test]
    fn rmw_abs_x_writes_the_indexed_address() {
        // INC $02F0,X with X = $20: $0310 goes from 9 to 10.
        let mut bus = FlatBus::with_code(0x0200, &[0xFE, 0xF0, 0x02]);
        bus.mem[0x0310] = 9;
        let mut core = Mos6502Core::<_>::new(bus);
        core.cpu.registers.index_x = 0x20;
        core.set_pc(0x0200);
        assert_eq!(core.step(), 7);
        assert_eq!(core.bus().mem[0x0310], 10);
    }

    #[test]
    fn undocumented_rmw_forms_take_fixed_cycles() {
        // SLO, RLA, SRE, RRA, DCP, ISC in their abs,X / abs,Y / (zp),Y forms: 7, 7, 8 cycles.
        for row in [0x00u8, 0x20, 0x40, 0x60, 0xC0, 0xE0] {
            for (op, operand, cycles) in [
                (row | 0x1F, [0xF0, 0x02], 7),
                (row | 0x1B, [0xF0, 0x02], 7),
                (row | 0x13, [0x10, 0x00], 8),
            ] {
                for index in [0x05, 0x20] {
                    let code = [op, operand[0], operand[1]];
                    assert_eq!(
                        cycles_with_index(&code, index),
                        cycles,
                        "{op:02X} X=Y={index:02X}"
                    );
                }
            }
        }
    }

    /// Cycles of `bytes` at $0200 on a 65C02 with X = Y = `index` and P = `p`.
    fn cmos_cycles(bytes: &[u8], index: u8, p: u8) -> u32 {
        let mut bus = FlatBus::with_code(0x0200, bytes);
        bus.mem[0x10] = 0xF0;
        bus.mem[0x11] = 0x02;
        bus.mem[0x1234] = 0x00;
        bus.mem[0x1235] = 0x03;
        let mut core = Cmos65c02Core::new(bus);
        core.cpu.registers.index_x = index;
        core.cpu.registers.index_y = index;
        core.cpu.registers.status = Status::from_bits_truncate(p);
        core.set_pc(0x0200);
        core.step()
    }

    #[test]
    fn cmos_cycles_follow_the_w65c02s_datasheet() {
        // Shifts and rotates on abs,X: 6, 7 across a page.
        for op in [0x1E, 0x3E, 0x5E, 0x7E] {
            assert_eq!(cmos_cycles(&[op, 0xF0, 0x02], 0x05, 0), 6, "{op:02X}");
            assert_eq!(
                cmos_cycles(&[op, 0xF0, 0x02], 0x20, 0),
                7,
                "{op:02X} across"
            );
        }
        // INC/DEC abs,X: 7 either way.
        for op in [0xFE, 0xDE] {
            assert_eq!(cmos_cycles(&[op, 0xF0, 0x02], 0x05, 0), 7, "{op:02X}");
            assert_eq!(
                cmos_cycles(&[op, 0xF0, 0x02], 0x20, 0),
                7,
                "{op:02X} across"
            );
        }
        // BRA: 3 on the page, 4 to another page ($0202 + $7F = $0281; $02F0 + $20 = $0312).
        assert_eq!(cmos_cycles(&[0x80, 0x7F], 0, 0), 3);
        let mut core = Cmos65c02Core::new(FlatBus::with_code(0x02F0, &[0x80, 0x20]));
        core.set_pc(0x02F0);
        assert_eq!(core.step(), 4);
        assert_eq!(core.pc(), 0x0312);
        // JMP (abs) 6, JMP (abs,X) 6, LDA (zp) 5, STZ abs,X 5, TSB abs 6, PHX 3, PLX 4.
        assert_eq!(cmos_cycles(&[0x6C, 0x34, 0x12], 0, 0), 6);
        assert_eq!(cmos_cycles(&[0x7C, 0x30, 0x12], 4, 0), 6);
        assert_eq!(cmos_cycles(&[0xB2, 0x10], 0, 0), 5);
        assert_eq!(cmos_cycles(&[0x9E, 0xF0, 0x02], 0x20, 0), 5);
        assert_eq!(cmos_cycles(&[0x0C, 0x34, 0x12], 0, 0), 6);
        assert_eq!(cmos_cycles(&[0xDA], 0, 0), 3);
        assert_eq!(cmos_cycles(&[0xFA], 0, 0), 4);
        // Decimal ADC takes one more cycle on the 65C02 (P = D), none more on the NMOS part.
        assert_eq!(cmos_cycles(&[0x69, 0x01], 0, 0x08), 3);
        assert_eq!(cmos_cycles(&[0x69, 0x01], 0, 0x00), 2);
        assert_eq!(cycles_with_index(&[0x69, 0x01], 0), 2);
    }

    #[test]
    fn w65c02s_bit_instructions_follow_the_datasheet() {
        // RMB/SMB zp: 5 cycles, one bit changed. $10 holds $00 (cmos_cycles' vectors are
        // elsewhere).
        let mut bus = FlatBus::with_code(0x0200, &[0xF7, 0x10, 0x07, 0x10, 0x87, 0x10]);
        bus.mem[0x10] = 0x81;
        let mut core = Cmos65c02Core::new(bus);
        core.set_pc(0x0200);
        assert_eq!(core.step(), 5, "SMB7");
        assert_eq!(core.bus().mem[0x10], 0x81);
        assert_eq!(core.step(), 5, "RMB0");
        assert_eq!(core.bus().mem[0x10], 0x80);
        assert_eq!(core.step(), 5, "SMB0");
        assert_eq!(core.bus().mem[0x10], 0x81);
        // BBR/BBS zp,rel: 5 not taken, 6 taken on the same page, 7 to another page (the page
        // of the next instruction, $0203, counts). $11 is zero: BBR branches, BBS does not.
        assert_eq!(cmos_cycles(&[0x8F, 0x11, 0x10], 0, 0), 5, "BBS0 not taken");
        assert_eq!(cmos_cycles(&[0x0F, 0x11, 0x10], 0, 0), 6, "BBR0 taken");
        assert_eq!(
            cmos_cycles(&[0x7F, 0x11, 0x00], 0, 0),
            6,
            "BBR7 taken, offset 0"
        );
        assert_eq!(cmos_cycles(&[0x0F, 0x11, 0x80], 0, 0), 7, "BBR0 to $0183");
        let mut bus = FlatBus::with_code(0x0200, &[0xFF, 0x12, 0x7F, 0xEF, 0x12, 0x10]);
        bus.mem[0x12] = 0x80;
        let mut core = Cmos65c02Core::new(bus);
        core.set_pc(0x0200);
        assert_eq!(core.step(), 6, "BBS7 taken to $0282, the same page");
        assert_eq!(core.pc(), 0x0282);
        core.set_pc(0x0203);
        assert_eq!(core.step(), 5, "BBS6 not taken");
        assert_eq!(core.pc(), 0x0206);
        // WAI and STP: 3 cycles each when they run (the machine stops before them unless an
        // interrupt is pending, see `cpu_rules`).
        assert_eq!(cmos_cycles(&[0xCB], 0, 0), 3);
        assert_eq!(cmos_cycles(&[0xDB], 0, 0), 3);
        // The undefined $DC and $FC (abs,X NOPs, run only when allowed): 4 either way.
        assert_eq!(cmos_cycles(&[0xDC, 0xF0, 0x02], 0x05, 0), 4);
        assert_eq!(cmos_cycles(&[0xFC, 0xF0, 0x02], 0x20, 0), 4);
    }

    #[test]
    fn cmos_instructions_work() {
        // LDX #$42 ; PHX ; PLY ; STZ $10 ; LDA ($10) reads $02F0... here $0000 after STZ: 0.
        let mut bus = FlatBus::with_code(0x0200, &[0xA2, 0x42, 0xDA, 0x7A, 0x64, 0x10]);
        bus.mem[0x10] = 0x77;
        let mut core = Cmos65c02Core::new(bus);
        core.set_pc(0x0200);
        for _ in 0..4 {
            core.step();
        }
        let Registers::Mos6502(r) = core.registers() else {
            panic!("not a 6502")
        };
        assert_eq!((r.x, r.y), (0x42, 0x42));
        assert_eq!(core.bus().mem[0x10], 0);
        assert_eq!(<Cmos65c02Core<FlatBus> as Core>::CPU, Cpu::Cmos65c02);
    }

    #[test]
    fn indexed_reads_still_pay_for_a_page_cross() {
        // LDA $02F0,X (4, 5 across), LDA ($10),Y (5, 6 across), STA $02F0,X (5 either way).
        assert_eq!(cycles_with_index(&[0xBD, 0xF0, 0x02], 0x05), 4);
        assert_eq!(cycles_with_index(&[0xBD, 0xF0, 0x02], 0x20), 5);
        assert_eq!(cycles_with_index(&[0xB1, 0x10], 0x05), 5);
        assert_eq!(cycles_with_index(&[0xB1, 0x10], 0x20), 6);
        assert_eq!(cycles_with_index(&[0x9D, 0xF0, 0x02], 0x05), 5);
        assert_eq!(cycles_with_index(&[0x9D, 0xF0, 0x02], 0x20), 5);
    }

    /// A core at $0200 running `code`, with the IRQ/BRK vector at $0300 and the NMI vector
    /// at $0380 (both handlers `NOP`s), S = $FF, P = `p`.
    fn with_vectors(code: &[u8], p: u8) -> Mos6502Core<FlatBus> {
        let mut bus = FlatBus::with_code(0x0200, code);
        bus.mem[0xFFFA..].copy_from_slice(&[0x80, 0x03, 0x00, 0x03, 0x00, 0x03]);
        bus.mem[0x0300..0x0400].fill(0xEA);
        let mut core = Mos6502Core::<_>::new(bus);
        core.cpu.registers.status = Status::from_bits_truncate(p);
        core.set_pc(0x0200);
        core
    }

    #[test]
    fn irq_is_taken_after_the_instruction_when_i_was_clear() {
        // CLI ; NOP ; NOP. The IRQ line is active from the start: CLI clears I, and the
        // interrupt follows the instruction after it (I is sampled before each instruction).
        // P = I and C set.
        let mut core = with_vectors(&[0x58, 0xEA, 0xEA], 0x05);
        core.set_irq(true);
        assert_eq!(core.step(), 2, "CLI: no interrupt yet");
        assert_eq!(core.pc(), 0x0201);
        assert_eq!(
            core.step(),
            2 + 7,
            "NOP, then the 7-cycle interrupt sequence"
        );
        assert_eq!(core.pc(), 0x0300);
        assert_eq!(core.sp(), 0x01FC);
        let stack = &core.bus().mem[0x01FD..0x0200];
        assert_eq!(
            stack,
            [0x21, 0x02, 0x02],
            "P (C; B clear, bit 5 set), PC low, PC high"
        );
        let Registers::Mos6502(r) = core.registers() else {
            panic!("not a 6502")
        };
        assert_ne!(r.p & 0x04, 0, "I set");
        // The line stays active but I is set now: no second interrupt.
        core.step();
        assert_ne!(core.pc(), 0x0300);
    }

    #[test]
    fn nmi_is_taken_once_per_pulse_even_with_i_set() {
        let mut core = with_vectors(&[0xEA, 0xEA, 0xEA], 0x04);
        core.pulse_nmi();
        assert_eq!(core.step(), 2 + 7);
        assert_eq!(core.pc(), 0x0380);
        assert_eq!(core.sp(), 0x01FC);
        assert_eq!(core.bus().mem[0x01FD..0x0200], [0x24, 0x01, 0x02]);
        assert_eq!(core.step(), 2, "the pulse is served once");
        assert_eq!(core.pc(), 0x0381);
    }
}
