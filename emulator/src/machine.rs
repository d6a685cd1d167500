//! The machine: a CPU core, the memory map, the devices, and the run loop that measures and
//! guards every instruction.
//!
//! Build one with [`Machine::builder`], load a program, and [`Machine::run`] it with a cycle
//! budget:
//!
//! ```
//! use kempelen_emulator::{Cpu, Machine, StopReason};
//!
//! // LD A,'K' ; OUT ($01),A ; XOR A ; OUT ($FF),A   (print "K", then host call "done")
//! let program = [0x3E, b'K', 0xD3, 0x01, 0xAF, 0xD3, 0xFF];
//! let mut m = Machine::builder(Cpu::Z80).load(0x0000, &program).build().unwrap();
//! let stats = m.run(1_000).unwrap();
//! assert_eq!(stats.stop, StopReason::HostDone);
//! assert_eq!(stats.cycles, 7 + 11 + 4 + 11);
//! assert_eq!(m.console_mut().take_output(), b"K");
//! ```
//!
//! The step loop is compiled once per CPU core, so the wrapped crate's step function inlines
//! into it. A run pays, per instruction, for the checks every run needs, folded into one test
//! of an attribute byte at the PC (outside the program, an opcode to check, a possible jump to
//! itself), one compare for the budget and the bus events together, one for the stack
//! pointer, and one store into the ring of recent PCs; everything else (the checks' details,
//! the profiler and the tracer) runs on a slow path that the attribute byte asks for. See
//! `docs/MACHINE.md`, "Speed".

use crate::bus_impl::{
    AllMemory, BusEvent, MachineBus, Machined, Z80Memory, attr, is_done, is_iteration,
};
use crate::clock::{ClockProfile, default_machine};
use crate::core::{Core, Mos6502Core, Registers, RustzxCore, Z80Core};
use crate::devices::Console;
use crate::error::{Fault, RunError};
use crate::memory::{AddrRange, ConfigError, MemoryMap};
use crate::profiler::{ProfileReport, Profiler};
use crate::stats::{RamProfile, RegionUse, RunStats, StackUse, StopReason};
use crate::symbols::Routines;
use crate::trace::{RECENT, RecentTrace, TraceEntry, Tracer};
use crate::{Bus, Cpu, SymbolTable};
use std::time::{Duration, Instant};

/// Which emulation core runs the CPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum CoreKind {
    /// Z80 on the `z80` crate (fast; A, F, BC, DE, HL not visible).
    Z80,
    /// Z80 on `rustzx-z80` (every register visible; for tracing).
    RustzxZ80,
    /// NMOS 6502 on the `mos6502` crate.
    Mos6502,
}

impl CoreKind {
    /// The CPU the core emulates.
    pub fn cpu(self) -> Cpu {
        match self {
            CoreKind::Z80 | CoreKind::RustzxZ80 => Cpu::Z80,
            CoreKind::Mos6502 => Cpu::Mos6502,
        }
    }

    /// The default core for `cpu`.
    pub fn default_for(cpu: Cpu) -> Self {
        match cpu {
            Cpu::Z80 => CoreKind::Z80,
            Cpu::Mos6502 => CoreKind::Mos6502,
        }
    }

    /// The core's name (`z80`, `rustzx-z80`, `mos6502`).
    pub fn name(self) -> &'static str {
        match self {
            CoreKind::Z80 => <Z80Core<MachineBus> as Core>::NAME,
            CoreKind::RustzxZ80 => <RustzxCore<MachineBus> as Core>::NAME,
            CoreKind::Mos6502 => <Mos6502Core<MachineBus> as Core>::NAME,
        }
    }

    /// Whether register snapshots from this core include every register.
    pub fn shows_all_registers(self) -> bool {
        self != CoreKind::Z80
    }
}

/// Opcode classes for the pre-check before each instruction.
mod class {
    /// Nothing to check.
    pub const PLAIN: u8 = 0;
    /// Z80 `HALT`: stop.
    pub const HALT: u8 = 1;
    /// Z80 `ED` prefix: check the second byte.
    pub const ED: u8 = 2;
    /// 6502 `BRK`: stop.
    pub const BRK: u8 = 3;
    /// Refused opcode.
    pub const ILLEGAL: u8 = 4;
    /// 6502: an opcode that may read outside plain memory other than through its decoded
    /// address (pointers, stack, vectors): run it with every access checked.
    pub const CAREFUL: u8 = 5;
}

/// Whether `op` is a documented NMOS 6502 opcode: a row of the assembler's instruction table
/// (the one table the assembler, the disassembler and the machine share).
pub fn is_documented_6502(op: u8) -> bool {
    kempelen_asm::decode(Cpu::Mos6502, &[op, 0, 0], 0).is_ok_and(|d| d.is_documented())
}

/// Whether `ED op` is a defined Z80 instruction (documented, or one of the undocumented
/// mirrors in `ED 40-7F` that real Z80s execute). The rest of the `ED` page acts as a
/// two-byte `NOP` on a real Z80; no program means that, so the machine refuses it.
pub fn is_defined_z80_ed(op: u8) -> bool {
    matches!(op, 0x40..=0x7F | 0xA0..=0xA3 | 0xA8..=0xAB | 0xB0..=0xB3 | 0xB8..=0xBB)
}

/// The 6502 `JAM` (`KIL`) opcodes, which lock the CPU.
fn is_jam_6502(op: u8) -> bool {
    op & 0x0F == 0x02 && !matches!(op, 0x82 | 0xA2 | 0xC2 | 0xE2)
}

/// The opcode classes for a machine whose pages `plain` reports plain memory (see
/// [`crate::Bus::plain_page`]).
/// Whether the instruction at `a` needs the step loop's slow path ([`attr::CHECK`]): its
/// opcode is to be checked before it runs (a class other than plain; a Z80 `ED` prefix only
/// when the second byte makes it illegal), or it may jump to itself. The jump-to-itself test
/// runs only on the instructions marked here, so the marks must cover every instruction that
/// can leave PC and SP as they were:
///
/// - Z80: `JR`/`JR cc` with offset -2, `JP`/`JP cc` to their own address, `JP (HL)`; with
///   `DD`/`FD` prefixes, any jump, `DJNZ` or `ED` instruction (and chains of four prefixes).
///   (`CALL`, `RST`, `RET` move SP; unprefixed `DJNZ` and `ED` instructions repeat in place
///   and are no jumps to themselves; `HALT` stops before it runs.)
/// - 6502: `JMP` to its own address, `JMP (ind)`, branches with offset -2, and the opcodes
///   the `mos6502` crate does not know, which leave PC where it is.
pub(crate) fn needs_check(cpu: Cpu, class: &[u8; 256], mem: &[u8; 0x10000], a: u16) -> bool {
    let byte = |d: u16| mem[usize::from(a.wrapping_add(d))];
    let word = |d: u16| u16::from_le_bytes([byte(d), byte(d + 1)]);
    let op = byte(0);
    match class[usize::from(op)] {
        class::PLAIN => {}
        class::ED if is_defined_z80_ed(byte(1)) => {}
        _ => return true,
    }
    const JP: [u8; 9] = [0xC3, 0xC2, 0xCA, 0xD2, 0xDA, 0xE2, 0xEA, 0xF2, 0xFA];
    const JR: [u8; 5] = [0x18, 0x20, 0x28, 0x30, 0x38];
    match cpu {
        Cpu::Z80 => {
            let prefixes = (0..4)
                .take_while(|&d| matches!(byte(d), 0xDD | 0xFD))
                .count() as u16;
            let op = byte(prefixes);
            match prefixes {
                0 if JR.contains(&op) => byte(1) == 0xFE,
                0 if JP.contains(&op) => word(1) == a,
                0 => op == 0xE9,
                1..=3 => JR.contains(&op) || JP.contains(&op) || matches!(op, 0xE9 | 0x10 | 0xED),
                _ => true,
            }
        }
        Cpu::Mos6502 => {
            use mos6502::Variant;
            match op {
                0x4C => word(1) == a,
                0x6C => true,
                0x10 | 0x30 | 0x50 | 0x70 | 0x90 | 0xB0 | 0xD0 | 0xF0 => byte(1) == 0xFE,
                _ => mos6502::instruction::Nmos6502::decode(op).is_none(),
            }
        }
    }
}

fn class_table(
    cpu: Cpu,
    allow_undocumented: bool,
    stop_on_brk: bool,
    plain: impl Fn(u8) -> bool,
) -> [u8; 256] {
    let mut t = [class::PLAIN; 256];
    match cpu {
        Cpu::Z80 => {
            t[0x76] = class::HALT;
            t[0xED] = class::ED;
        }
        Cpu::Mos6502 => {
            use mos6502::Variant;
            use mos6502::instruction::{AddressingMode, Instruction, Nmos6502};
            let any_special = !(0..=255).all(&plain);
            for op in 0..=255u8 {
                let careful = match Nmos6502::decode(op) {
                    // Pointers in the zero page.
                    Some((
                        _,
                        AddressingMode::IndexedIndirectX | AddressingMode::IndirectIndexedY,
                    )) => !plain(0x00),
                    // Pulls read the stack page.
                    Some((
                        Instruction::PLA | Instruction::PLP | Instruction::RTS | Instruction::RTI,
                        _,
                    )) => !plain(0x01),
                    // BRK reads its vector.
                    Some((Instruction::BRK, _)) => !plain(0xFF),
                    // JMP (ind) reads a pointer anywhere.
                    Some((_, AddressingMode::Indirect | AddressingMode::BuggyIndirect)) => {
                        any_special
                    }
                    _ => false,
                };
                t[usize::from(op)] =
                    if is_jam_6502(op) || (!allow_undocumented && !is_documented_6502(op)) {
                        class::ILLEGAL
                    } else if careful {
                        class::CAREFUL
                    } else {
                        class::PLAIN
                    };
            }
            if stop_on_brk {
                t[0x00] = class::BRK;
            }
        }
    }
    t
}

/// Stack bookkeeping. `depth` is the number of bytes in use below the top of the region.
#[derive(Debug, Clone, Copy)]
struct StackCheck {
    region: AddrRange,
    /// `region.end + 1`.
    top: u32,
    /// Bytes in the region.
    size: i64,
    depth: i64,
    max_depth: i64,
}

impl StackCheck {
    fn new(region: AddrRange) -> Self {
        StackCheck {
            region,
            top: u32::from(region.end) + 1,
            size: i64::from(region.len()),
            depth: 0,
            max_depth: 0,
        }
    }

    /// Depth for a given SP, computed from scratch (the Z80 always; the 6502 after `TXS`).
    fn depth_of(&self, cpu: Cpu, sp: u16) -> i64 {
        match cpu {
            // Wraps like the Z80's SP: popping above the top gives a huge depth.
            Cpu::Z80 => i64::from(self.top.wrapping_sub(u32::from(sp)) & 0xFFFF),
            // 6502: the next push goes to $0100+S; empty when that is the region's end.
            Cpu::Mos6502 => i64::from(self.region.end) - i64::from(sp | 0x0100),
        }
    }

    /// The fault for an out-of-region depth.
    fn fault(&self, cpu: Cpu, sp: u16, pc: u16) -> Fault {
        let overflow = match cpu {
            Cpu::Z80 => self.depth <= self.size + (0x10000 - self.size) / 2,
            Cpu::Mos6502 => self.depth > self.size,
        };
        if overflow {
            Fault::StackOverflow {
                sp,
                pc,
                region: self.region,
            }
        } else {
            Fault::StackUnderflow {
                sp,
                pc,
                region: self.region,
            }
        }
    }
}

/// Why the step loop returned.
enum Exit {
    /// The cycle limit was reached before the next instruction.
    Limit,
    /// A clean stop.
    Stop(StopReason),
    /// A fault found before executing the instruction at its PC.
    FaultBefore(Fault),
    /// A fault found after executing the instruction at its PC.
    FaultAfter(Fault),
    /// The bus recorded an event during the instruction at `pc`.
    Event { pc: u16 },
}

/// The per-run state of the step loop.
struct RunState {
    cpu: Cpu,
    /// Every instruction through [`Core::step_careful`] ([`MachineBuilder::checked_steps`]).
    checked_steps: bool,
    cycles: u64,
    instructions: u64,
    class: [u8; 256],
    stack: Option<StackCheck>,
}

/// The profiler and the tracer, whichever are on.
///
/// While they are on, every instruction takes the step loop's slow path, which calls
/// [`Watching::after`] for the instruction before and [`Watching::before`] for the next one.
/// The profiler's report of an instruction is thus deferred to the next slow path (or the end
/// of the loop); nothing changes the CPU in between, so it sees the SP and PC the
/// instruction left.
struct Watching<'a> {
    profiler: Option<&'a mut Profiler>,
    tracer: Option<&'a mut Tracer>,
    symbols: Option<&'a SymbolTable>,
    /// The instruction that ran last and is not reported to the profiler yet: its PC, its
    /// first opcode byte and the cycle count before it.
    pending: Option<(u16, u8, u64)>,
}

impl Watching<'_> {
    /// Before the instruction at `pc`, the `n`th of the run, at `cycles`.
    fn before<C: Core<Bus: Machined>>(&mut self, core: &C, cpu: Cpu, pc: u16, n: u64, cycles: u64) {
        let mem = &core.bus().machine().mem;
        if let Some(t) = self.tracer.as_deref_mut() {
            if t.wants(pc) {
                let mut e = TraceEntry::new(cpu, mem, pc, self.symbols, Some(core.registers()));
                e.index = n;
                e.cycles = cycles;
                t.record(e);
            }
        }
        self.pending = Some((pc, mem[usize::from(pc)], cycles));
    }

    /// After the pending instruction, with the run at `cycles`.
    fn after<C: Core>(&mut self, core: &C, cycles: u64) {
        if let (Some((pc, op, before)), Some(p)) = (self.pending.take(), &mut self.profiler) {
            p.after_step(pc, op, (cycles - before) as u32, core.sp(), core.pc());
        }
    }
}

/// What the checks before an instruction found.
enum Pre {
    /// Run it.
    Go,
    /// Run it with every access checked ([`Core::step_careful`]).
    Careful,
    /// Do not run it.
    Exit(Exit),
}

/// The checks before an instruction whose address is outside the program or whose opcode
/// byte is marked for a check (see [`attr::CHECK`] and [`attr::CAREFUL`]).
fn pre_check(bus: &MachineBus, st: &RunState, pc: u16, a: u8) -> Pre {
    if a & attr::OUTSIDE != 0 {
        return Pre::Exit(Exit::FaultBefore(Fault::PcOutOfProgram {
            pc,
            from: None,
            program: String::new(),
        }));
    }
    let op = bus.mem[usize::from(pc)];
    let exit = match st.class[usize::from(op)] {
        class::PLAIN | class::CAREFUL => None,
        class::HALT => Some(Exit::Stop(StopReason::Halt { pc })),
        class::BRK => Some(Exit::Stop(StopReason::Brk { pc })),
        class::ED => {
            let op2 = bus.mem[usize::from(pc.wrapping_add(1))];
            (!is_defined_z80_ed(op2)).then(|| {
                Exit::FaultBefore(Fault::IllegalOpcode {
                    bytes: vec![op, op2],
                    pc,
                })
            })
        }
        _ => Some(Exit::FaultBefore(Fault::IllegalOpcode {
            bytes: vec![op],
            pc,
        })),
    };
    match exit {
        Some(exit) => Pre::Exit(exit),
        None if a & attr::CAREFUL != 0 || st.class[usize::from(op)] == class::CAREFUL => {
            Pre::Careful
        }
        None => Pre::Go,
    }
}

/// The step loop's slow path before the instruction at `pc` (the `n`th of the run, at
/// `cycles`): taken when the attribute byte at `pc` asks for it ([`attr::SLOW`]), and for
/// every instruction while the profiler or the tracer watches or every step is checked.
#[cold]
#[inline(never)]
fn slow_path<C: Core<Bus: Machined>>(
    core: &C,
    cold: &mut Cold,
    pc: u16,
    n: u64,
    cycles: u64,
) -> Pre {
    let bus = core.bus().machine();
    if let Some(exit) = self_loop(bus, cold, pc, n) {
        return Pre::Exit(exit);
    }
    let pre = pre_check(bus, cold.st, pc, bus.attr[usize::from(pc)]);
    if let Some(w) = cold.watch.as_deref_mut() {
        w.after(core, cycles);
        if !matches!(pre, Pre::Exit(_)) {
            w.before(core, cold.st.cpu, pc, n, cycles);
        }
    }
    match pre {
        Pre::Go if cold.st.checked_steps => Pre::Careful,
        pre => pre,
    }
}

/// Follows the stack after the instruction that brought the run to `n` instructions (the last
/// one in the ring of recent PCs) moved SP from [`MachineBus::last_sp`] to `sp`. Not
/// inlined: the step loop keeps its registers for the common case, an unchanged SP.
#[inline(never)]
fn track_stack(st: &mut RunState, bus: &mut MachineBus, n: u64, sp: u16) -> Option<Exit> {
    let last_sp = std::mem::replace(&mut bus.last_sp, sp);
    bus.sp_moved_at = n;
    let pc = bus.ring[(n.wrapping_sub(1) as usize) % RECENT];
    let cpu = st.cpu;
    let s = st.stack.as_mut()?;
    match cpu {
        Cpu::Z80 => s.depth = s.depth_of(Cpu::Z80, sp),
        Cpu::Mos6502 => {
            if bus.mem[usize::from(pc)] == 0x9A {
                // TXS sets S to anything.
                s.depth = s.depth_of(Cpu::Mos6502, sp);
            } else {
                // Pushes and pulls move S by at most 3; follow the move without the 8-bit
                // wrap so running off the page is seen.
                s.depth += i64::from((last_sp as u8).wrapping_sub(sp as u8) as i8);
            }
        }
    }
    if s.depth > s.max_depth || s.depth < 0 {
        if s.depth < 0 || s.depth > s.size {
            return Some(Exit::FaultAfter(s.fault(cpu, sp, pc)));
        }
        s.max_depth = s.depth;
        bus.set_stack_window(stack_window(cpu, Some(s)));
    }
    None
}

/// The window of stack pointers that [`stack_check`] may accept without
/// [`track_stack`], as (lowest SP, width): on the Z80 every SP from the deepest point so far
/// to the top of the region, where the depth is within the region and sets no new maximum;
/// everything without a stack region; nothing on the 6502, whose depth follows each move.
fn stack_window(cpu: Cpu, stack: Option<&StackCheck>) -> (u16, u16) {
    match (cpu, stack) {
        (_, None) => (0, u16::MAX),
        (Cpu::Z80, Some(s)) => ((s.top - s.max_depth as u32) as u16, s.max_depth as u16),
        (Cpu::Mos6502, Some(_)) => (0, 0),
    }
}

/// What the step loop does after [`MachineBus::stop_at`] stopped it.
enum Settled {
    /// Go on: the bus only had deferred writes, and they raised no event.
    Go,
    /// The bus recorded an event.
    Event,
    /// The cycle limit is reached.
    Limit,
}

/// Completes the last instruction's deferred writes and tells the step loop why it stopped.
#[cold]
#[inline(never)]
fn settle(bus: &mut MachineBus, cycles: u64, limit: u64) -> Settled {
    bus.complete_deferred();
    if bus.event.get().is_some() {
        Settled::Event
    } else if cycles >= limit {
        Settled::Limit
    } else {
        bus.stop_at.set(limit);
        Settled::Go
    }
}

/// The stack check after the instruction that brought the run to `n` instructions (the last
/// one in the ring of recent PCs), with the stack pointer now at `sp`.
#[inline(always)]
fn stack_check(bus: &mut MachineBus, st: &mut RunState, n: u64, sp: u16) -> Option<Exit> {
    if sp == bus.last_sp {
        None
    } else if sp.wrapping_sub(bus.stack_low) <= bus.stack_span {
        bus.last_sp = sp;
        bus.sp_moved_at = n;
        None
    } else {
        track_stack(st, bus, n, sp)
    }
}

/// Whether the last instruction, which brought the run to `n` instructions, jumped to itself:
/// it left PC at its own address `pc` and did not move SP, and it is not one of the
/// instructions that repeat in place. Made for every instruction that [`needs_check`] marks,
/// after every instruction with deferred writes, and at the budget; no other instruction can
/// leave PC and SP as they were.
#[cold]
#[inline(never)]
fn self_loop(bus: &MachineBus, cold: &Cold, pc: u16, n: u64) -> Option<Exit> {
    if n == cold.first || bus.sp_moved_at == n {
        return None;
    }
    let prev = bus.ring[((n - 1) as usize) % RECENT];
    (prev == pc && !repeats_in_place(cold.st.cpu, bus.mem[usize::from(pc)]))
        .then_some(Exit::Stop(StopReason::SelfLoop { pc }))
}

/// The step loop, compiled once for each core `C`. Runs until the cycle count reaches `limit`
/// or something stops the run.
///
/// Each core's step is called from this one place, so the compiler inlines the wrapped
/// crate's step function here, as it does in a bare loop around the crate (a function with a
/// single caller is inlined however large it is). Per instruction the loop then adds: one
/// test of the attribute byte at the PC ([`attr::SLOW`]: outside the program, an opcode to
/// check, a possible jump to itself, an instruction to run carefully), one store into the
/// ring of recent PCs, the two counters, one compare for the budget and the bus events
/// together (see [`MachineBus::stop_at`]) and one for the stack pointer ([`stack_check`]).
/// Everything else is on cold paths: [`slow_path`] (which the profiler and the tracer force
/// for every instruction), stack bookkeeping beyond the depth seen so far, [`settled`], and
/// the exits.
#[inline(never)]
fn step_loop<C: Core<Bus: Machined>>(
    core: &mut C,
    st: &mut RunState,
    watch: Option<&mut Watching>,
    limit: u64,
) -> Exit {
    let mut cycles = st.cycles;
    let mut n = st.instructions;
    let watched = watch.is_some() || st.checked_steps;
    if watched {
        core.bus_mut().machine_mut().set_watched(true);
    }
    let mut cold = Cold {
        st,
        watch,
        limit,
        first: n,
    };
    let sp = core.sp();
    let bus = core.bus_mut().machine_mut();
    bus.stop_at
        .set(if bus.event.get().is_some() { 0 } else { limit });
    bus.last_sp = sp;
    bus.sp_moved_at = n;
    // The loop is rotated: the checks after an instruction end the iteration that ran it.
    let exit = 'run: {
        if let Some(exit) = after_step(core, &mut cold, cycles, n) {
            break 'run exit;
        }
        loop {
            let pc = core.pc();
            if core.bus().machine().attr[usize::from(pc)] & attr::SLOW != 0 {
                match slow_path(core, &mut cold, pc, n, cycles) {
                    Pre::Go => {}
                    Pre::Careful => {
                        core.bus_mut().machine_mut().ring[(n as usize) % RECENT] = pc;
                        cycles += u64::from(core.step_careful());
                        n += 1;
                        if let Some(exit) = after_step(core, &mut cold, cycles, n) {
                            break 'run exit;
                        }
                        continue;
                    }
                    Pre::Exit(exit) => break 'run exit,
                }
            }
            core.bus_mut().machine_mut().ring[(n as usize) % RECENT] = pc;
            cycles += u64::from(core.step());
            n += 1;
            if let Some(exit) = after_step(core, &mut cold, cycles, n) {
                break 'run exit;
            }
        }
    };
    if let Some(w) = cold.watch {
        w.after(core, cycles);
    }
    if watched {
        core.bus_mut().machine_mut().set_watched(false);
    }
    cold.st.cycles = cycles;
    cold.st.instructions = n;
    exit
}

/// The checks after an instruction, with the run at `cycles` and `n` instructions: the bus
/// events and the budget (one compare, see [`MachineBus::stop_at`]), and the stack. When the
/// bus stopped the loop (deferred writes, which may have changed the program, or the budget),
/// the jump-to-itself check too.
#[inline(always)]
fn after_step<C: Core<Bus: Machined>>(
    core: &mut C,
    cold: &mut Cold,
    cycles: u64,
    n: u64,
) -> Option<Exit> {
    if cycles >= core.bus().machine().stop_at.get() {
        return settled(core, cold, cycles, n);
    }
    let sp = core.sp();
    stack_check(core.bus_mut().machine_mut(), cold.st, n, sp)
}

/// [`after_step`] once the bus stopped the loop.
#[cold]
#[inline(never)]
fn settled<C: Core<Bus: Machined>>(
    core: &mut C,
    cold: &mut Cold,
    cycles: u64,
    n: u64,
) -> Option<Exit> {
    let (pc, sp) = (core.pc(), core.sp());
    let bus = core.bus_mut().machine_mut();
    let settled = settle(bus, cycles, cold.limit);
    if let Settled::Event = settled {
        let pc = bus.ring[(n.wrapping_sub(1) as usize) % RECENT];
        return Some(Exit::Event { pc });
    }
    if let Some(exit) = stack_check(bus, cold.st, n, sp) {
        return Some(exit);
    }
    if let Some(exit) = self_loop(bus, cold, pc, n) {
        return Some(exit);
    }
    match settled {
        Settled::Limit => Some(Exit::Limit),
        _ => None,
    }
}

/// What the step loop needs only off its hot path, in one place on its stack frame, so that
/// it takes no register.
struct Cold<'a, 'w> {
    st: &'a mut RunState,
    watch: Option<&'a mut Watching<'w>>,
    limit: u64,
    /// The instruction count when the loop started: the instruction before it was checked
    /// by the previous call.
    first: u64,
}

/// Instructions whose PC stays put while they make progress: the Z80's block instructions
/// (`LDIR` and friends, `ED`-prefixed) and `DJNZ $`.
#[inline(always)]
fn repeats_in_place(cpu: Cpu, op: u8) -> bool {
    cpu == Cpu::Z80 && (op == 0xED || op == 0x10)
}

/// A core the machine can drive, with its step loop; object safe so the machine holds any.
trait Runner {
    fn run_until(&mut self, st: &mut RunState, watch: Option<&mut Watching>, limit: u64) -> Exit;
    fn bus(&self) -> &MachineBus;
    fn bus_mut(&mut self) -> &mut MachineBus;
    fn pc(&self) -> u16;
    fn set_pc(&mut self, pc: u16);
    fn sp(&self) -> u16;
    fn set_sp(&mut self, sp: u16);
    fn registers(&self) -> Registers;
    fn reset(&mut self);
    fn set_irq(&mut self, active: bool);
    fn pulse_nmi(&mut self);
}

impl<C: Core<Bus: Machined>> Runner for C {
    fn run_until(&mut self, st: &mut RunState, watch: Option<&mut Watching>, limit: u64) -> Exit {
        step_loop(self, st, watch, limit)
    }
    fn bus(&self) -> &MachineBus {
        Core::bus(self).machine()
    }
    fn bus_mut(&mut self) -> &mut MachineBus {
        Core::bus_mut(self).machine_mut()
    }
    fn pc(&self) -> u16 {
        Core::pc(self)
    }
    fn set_pc(&mut self, pc: u16) {
        Core::set_pc(self, pc)
    }
    fn sp(&self) -> u16 {
        Core::sp(self)
    }
    fn set_sp(&mut self, sp: u16) {
        Core::set_sp(self, sp)
    }
    fn registers(&self) -> Registers {
        Core::registers(self)
    }
    fn reset(&mut self) {
        Core::reset(self)
    }
    fn set_irq(&mut self, active: bool) {
        Core::set_irq(self, active)
    }
    fn pulse_nmi(&mut self) {
        Core::pulse_nmi(self)
    }
}

/// Builds a [`Machine`]: CPU, core, memory map, program, entry point, stack pointer.
#[derive(Debug, Clone)]
pub struct MachineBuilder {
    cpu: Cpu,
    core: CoreKind,
    map: MemoryMap,
    images: Vec<(u16, Vec<u8>)>,
    entry: Option<u16>,
    sp: Option<u16>,
    allow_undocumented: bool,
    stop_on_brk: bool,
    checked_steps: bool,
    symbols: Option<SymbolTable>,
    clock: &'static ClockProfile,
}

impl MachineBuilder {
    /// Uses `core` (which must emulate the builder's CPU; checked by [`MachineBuilder::build`]).
    pub fn core(mut self, core: CoreKind) -> Self {
        self.core = core;
        self
    }

    /// Uses `map` instead of [`MemoryMap::default_for`] the CPU.
    pub fn memory_map(mut self, map: MemoryMap) -> Self {
        self.map = map;
        self
    }

    /// Loads `bytes` at `addr` as program code: the PC may run anywhere inside loaded images
    /// and nowhere else. May be called more than once.
    pub fn load(mut self, addr: u16, bytes: &[u8]) -> Self {
        self.images.push((addr, bytes.to_vec()));
        self
    }

    /// Sets the entry point. Default: the 6502 reset vector if an image covers `$FFFC-$FFFD`,
    /// otherwise the address of the first image.
    pub fn entry(mut self, addr: u16) -> Self {
        self.entry = Some(addr);
        self
    }

    /// Sets the initial stack pointer (6502: the low byte is S). Default: the top of the
    /// stack region (Z80: its end + 1, so `$0000` for a stack ending at `$FFFF`; 6502: S =
    /// low byte of its end), or `$0000` / `$FF` without a stack region.
    pub fn stack_pointer(mut self, sp: u16) -> Self {
        self.sp = Some(sp);
        self
    }

    /// Lets the 6502 run undocumented opcodes (default: they stop the run as illegal; the
    /// `JAM` opcodes are always illegal).
    pub fn allow_undocumented(mut self, allow: bool) -> Self {
        self.allow_undocumented = allow;
        self
    }

    /// Whether a 6502 `BRK` ends the run (the default, [`StopReason::Brk`]) or executes as
    /// the CPU defines it, through the IRQ vector (test programs such as Klaus Dormann's
    /// functional test exercise it).
    pub fn stop_on_brk(mut self, stop: bool) -> Self {
        self.stop_on_brk = stop;
        self
    }

    /// Runs every instruction with every bus access checked as it happens
    /// ([`Core::step_careful`]) rather than on the fast paths over plain memory (see
    /// `docs/MACHINE.md`, "Speed"). The results are the same, only slower: the test suite
    /// uses this to prove the fast paths exact.
    pub fn checked_steps(mut self, checked: bool) -> Self {
        self.checked_steps = checked;
        self
    }

    /// Symbols for traces, error reports and the profiler.
    pub fn symbols(mut self, symbols: SymbolTable) -> Self {
        self.symbols = Some(symbols);
        self
    }

    /// The clock profile for time reports and `--realtime`. Default: [`default_machine`].
    pub fn clock(mut self, clock: &'static ClockProfile) -> Self {
        self.clock = clock;
        self
    }

    /// Checks everything and builds the machine.
    pub fn build(self) -> Result<Machine, ConfigError> {
        self.map.validate(self.cpu)?;
        if self.core.cpu() != self.cpu {
            return Err(ConfigError::CoreMismatch {
                core: self.core.name(),
                cpu: self.cpu,
            });
        }
        if self.images.is_empty() {
            return Err(ConfigError::NoProgram);
        }
        let bus = MachineBus::new(self.cpu, &self.map);
        let class = class_table(self.cpu, self.allow_undocumented, self.stop_on_brk, |p| {
            bus.plain_page(p)
        });
        let core: Box<dyn Runner> = match self.core {
            // A map of nothing but RAM and ROM has no read to check or count.
            CoreKind::Z80 if bus.all_memory() => Box::new(Z80Core::new(AllMemory(bus))),
            CoreKind::Z80 => Box::new(Z80Core::new(Z80Memory(bus))),
            CoreKind::RustzxZ80 if bus.all_memory() => Box::new(RustzxCore::new(AllMemory(bus))),
            CoreKind::RustzxZ80 => Box::new(RustzxCore::new(Z80Memory(bus))),
            CoreKind::Mos6502 => Box::new(Mos6502Core::new(bus)),
        };
        let mut m = Machine {
            cpu: self.cpu,
            kind: self.core,
            core,
            map: self.map,
            program: Vec::new(),
            st: RunState {
                cpu: self.cpu,
                cycles: 0,
                instructions: 0,
                class,
                stack: None,
                checked_steps: self.checked_steps,
            },
            symbols: self.symbols,
            profiler: None,
            tracer: None,
            clock: self.clock,
            realtime: false,
            total_cycles: 0,
            total_instructions: 0,
        };
        let class = m.st.class;
        m.core.bus_mut().set_classes(class);
        for (addr, bytes) in &self.images {
            m.load(*addr, bytes)?;
        }
        let entry = self.entry.unwrap_or_else(|| {
            let covers_vector = m
                .program
                .iter()
                .any(|r| r.contains(0xFFFC) && r.contains(0xFFFD));
            if self.cpu == Cpu::Mos6502 && covers_vector {
                m.read_word(0xFFFC)
            } else {
                self.images[0].0
            }
        });
        m.set_pc(entry);
        let sp = self.sp.unwrap_or(match (self.cpu, m.map.stack) {
            (Cpu::Z80, Some(s)) => s.end.wrapping_add(1),
            (Cpu::Mos6502, Some(s)) => s.end & 0xFF,
            (Cpu::Z80, None) => 0x0000,
            (Cpu::Mos6502, None) => 0x00FF,
        });
        m.set_sp(sp);
        if let Some(stack) = m.map.stack {
            let check = StackCheck::new(stack);
            let depth = check.depth_of(self.cpu, m.sp());
            if depth < 0 || depth > check.size {
                return Err(ConfigError::SpOutsideStack { sp: m.sp(), stack });
            }
        }
        Ok(m)
    }
}

/// An 8-bit machine: CPU core, memory, devices, and the measurements of its runs.
pub struct Machine {
    cpu: Cpu,
    kind: CoreKind,
    core: Box<dyn Runner>,
    map: MemoryMap,
    program: Vec<AddrRange>,
    st: RunState,
    symbols: Option<SymbolTable>,
    profiler: Option<Profiler>,
    tracer: Option<Tracer>,
    clock: &'static ClockProfile,
    realtime: bool,
    total_cycles: u64,
    total_instructions: u64,
}

impl std::fmt::Debug for Machine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Machine")
            .field("cpu", &self.cpu)
            .field("core", &self.kind)
            .field("registers", &self.registers())
            .field("map", &self.map)
            .field("program", &self.program)
            .finish()
    }
}

impl Machine {
    /// Starts building a machine for `cpu` with the default core and memory map.
    pub fn builder(cpu: Cpu) -> MachineBuilder {
        MachineBuilder {
            cpu,
            core: CoreKind::default_for(cpu),
            map: MemoryMap::default_for(cpu),
            images: Vec::new(),
            entry: None,
            sp: None,
            allow_undocumented: false,
            stop_on_brk: true,
            checked_steps: false,
            symbols: None,
            clock: default_machine(cpu),
        }
    }

    /// The CPU.
    pub fn cpu(&self) -> Cpu {
        self.cpu
    }

    /// The core running the CPU.
    pub fn core_kind(&self) -> CoreKind {
        self.kind
    }

    /// The memory map.
    pub fn memory_map(&self) -> &MemoryMap {
        &self.map
    }

    /// The loaded program images.
    pub fn program(&self) -> &[AddrRange] {
        &self.program
    }

    /// The clock profile used for time reports and real-time pacing.
    pub fn clock(&self) -> &'static ClockProfile {
        self.clock
    }

    /// Changes the clock profile.
    pub fn set_clock(&mut self, clock: &'static ClockProfile) {
        self.clock = clock;
    }

    /// Paces runs to the clock profile's speed (sleeping every 10 ms of emulated time) so a
    /// person can feel the historical machine's speed.
    pub fn set_realtime(&mut self, on: bool) {
        self.realtime = on;
    }

    /// Loads `bytes` at `addr` as program code (see [`MachineBuilder::load`]). Writes ROM and
    /// RAM alike; fails on unmapped memory and the I/O page.
    pub fn load(&mut self, addr: u16, bytes: &[u8]) -> Result<(), ConfigError> {
        if bytes.is_empty() {
            return Ok(());
        }
        if usize::from(addr) + bytes.len() > 0x10000 {
            return Err(ConfigError::ImageTooLarge {
                addr,
                len: bytes.len(),
            });
        }
        self.write_bytes(addr, bytes)?;
        let range = AddrRange::new(addr, addr + (bytes.len() - 1) as u16).expect("non-empty");
        let bus = self.core.bus_mut();
        for a in range.indices() {
            bus.attr[a] &= !attr::OUTSIDE;
            bus.refresh(a as u16);
        }
        bus.refresh_pages();
        if self.cpu == Cpu::Mos6502 {
            bus.mark_careful();
        }
        self.program.push(range);
        Ok(())
    }

    /// The byte at `addr` as stored, without device side effects (`0xFF` if unmapped).
    pub fn read_byte(&self, addr: u16) -> u8 {
        self.core.bus().machine().peek(addr)
    }

    /// The little-endian word at `addr`.
    pub fn read_word(&self, addr: u16) -> u16 {
        u16::from_le_bytes([self.read_byte(addr), self.read_byte(addr.wrapping_add(1))])
    }

    /// `len` bytes from `addr` (wrapping at `$FFFF`).
    pub fn read_bytes(&self, addr: u16, len: usize) -> Vec<u8> {
        (0..len)
            .map(|i| self.read_byte(addr.wrapping_add(i as u16)))
            .collect()
    }

    /// Writes a byte as the host: ROM and RAM alike (the host may patch ROM), not counted in
    /// the RAM profile. Unmapped memory and the I/O page are refused.
    pub fn write_byte(&mut self, addr: u16, value: u8) -> Result<(), ConfigError> {
        let bus = self.core.bus_mut();
        let a = bus.attr[usize::from(addr)];
        if a & (attr::RAM | attr::ROM) == 0 {
            let what = if a & attr::IO != 0 {
                "the I/O page"
            } else {
                "unmapped"
            };
            return Err(ConfigError::NotMemory { addr, what });
        }
        bus.mem[usize::from(addr)] = value;
        bus.refresh(addr);
        Ok(())
    }

    /// Writes a little-endian word as the host.
    pub fn write_word(&mut self, addr: u16, value: u16) -> Result<(), ConfigError> {
        let [lo, hi] = value.to_le_bytes();
        self.write_byte(addr, lo)?;
        self.write_byte(addr.wrapping_add(1), hi)
    }

    /// Writes bytes as the host (wrapping at `$FFFF`).
    pub fn write_bytes(&mut self, addr: u16, bytes: &[u8]) -> Result<(), ConfigError> {
        for (i, &b) in bytes.iter().enumerate() {
            self.write_byte(addr.wrapping_add(i as u16), b)?;
        }
        Ok(())
    }

    /// Program counter.
    pub fn pc(&self) -> u16 {
        self.core.pc()
    }

    /// Sets the program counter (the entry point of the next run).
    pub fn set_pc(&mut self, pc: u16) {
        self.core.set_pc(pc)
    }

    /// Stack pointer (6502: `$0100 | S`).
    pub fn sp(&self) -> u16 {
        self.core.sp()
    }

    /// Sets the stack pointer (6502: the low byte).
    pub fn set_sp(&mut self, sp: u16) {
        self.core.set_sp(sp)
    }

    /// The registers (on the default Z80 core A, F, BC, DE, HL are not visible).
    pub fn registers(&self) -> Registers {
        self.core.registers()
    }

    /// Resets the CPU (the 6502 reads its reset vector; the Z80 starts at 0).
    pub fn reset_cpu(&mut self) {
        self.core.reset()
    }

    /// Drives the maskable interrupt line.
    pub fn set_irq(&mut self, active: bool) {
        self.core.set_irq(active)
    }

    /// Pulses the non-maskable interrupt line.
    pub fn pulse_nmi(&mut self) {
        self.core.pulse_nmi()
    }

    /// The console, to queue input and collect output.
    pub fn console_mut(&mut self) -> &mut Console {
        self.core.bus_mut().console.get_mut()
    }

    /// Cycles of all runs so far.
    pub fn total_cycles(&self) -> u64 {
        self.total_cycles
    }

    /// Instructions of all runs so far.
    pub fn total_instructions(&self) -> u64 {
        self.total_instructions
    }

    /// The symbols, if any.
    pub fn symbols(&self) -> Option<&SymbolTable> {
        self.symbols.as_ref()
    }

    /// Sets the symbols used by traces and error reports (and by a profiler enabled later).
    pub fn set_symbols(&mut self, symbols: SymbolTable) {
        self.symbols = Some(symbols);
    }

    /// Turns on the cycle profiler, charging cycles to the machine's routines: the global
    /// labels of its symbol table that lie inside the loaded program (constants and local
    /// labels are not routines).
    pub fn enable_profiler(&mut self) {
        let bus = self.core.bus();
        let code = self
            .symbols
            .as_ref()
            .map(Routines::from_table)
            .unwrap_or_default()
            .filtered(|_, a| bus.attr[usize::from(a)] & attr::OUTSIDE == 0);
        self.profiler = Some(Profiler::new(self.cpu, code));
    }

    /// The profile so far, if the profiler is on.
    pub fn profile(&self) -> Option<ProfileReport> {
        self.profiler.as_ref().map(Profiler::report)
    }

    /// The profiler, to reset it between measurements.
    pub fn profiler_mut(&mut self) -> Option<&mut Profiler> {
        self.profiler.as_mut()
    }

    /// Attaches an instruction tracer (replacing any other).
    pub fn set_tracer(&mut self, tracer: Tracer) {
        self.tracer = Some(tracer);
    }

    /// Detaches the tracer.
    pub fn take_tracer(&mut self) -> Option<Tracer> {
        self.tracer.take()
    }

    /// RAM use of the most recent run (or, before any run, nothing written).
    pub fn ram_profile(&self) -> RamProfile {
        let bus = self.core.bus();
        let written = |a: usize| bus.written[a] != 0;
        let regions = self
            .map
            .regions
            .iter()
            .map(|r| RegionUse {
                name: r.name.clone(),
                kind: r.kind,
                range: r.range,
                bytes_written: r.range.indices().filter(|&a| written(a)).count() as u32,
            })
            .collect();
        let stack_region = self.map.stack;
        let data_bytes = (0..0x10000)
            .filter(|&a| {
                written(a)
                    && bus.attr[a] & attr::RAM != 0
                    && !stack_region.is_some_and(|s| s.contains(a as u16))
            })
            .count() as u32;
        let stack = self.st.stack.map(|s| StackUse {
            region: s.region,
            low_water: s.top - s.max_depth as u32,
            max_depth: s.max_depth as u32,
        });
        let peak_bytes = match (&stack, stack_region) {
            (Some(s), _) => data_bytes + s.max_depth,
            _ => data_bytes,
        };
        RamProfile {
            regions,
            stack,
            data_bytes,
            peak_bytes,
        }
    }

    /// Whether the host call "iteration complete" (`0x01`) stops the run with
    /// [`StopReason::HostIteration`] (resumable: running again continues after it). Off by
    /// default: the call then does nothing, so programs run in one piece.
    pub fn set_stop_on_iteration(&mut self, on: bool) {
        self.core.bus_mut().stop_on_iteration = on;
    }

    /// Runs from the current PC until the program stops (host call "done", `HALT`, `BRK`, a
    /// jump to itself) or faults, with at most `budget` cycles (checked before each
    /// instruction, so the last instruction may end a few cycles past it).
    pub fn run(&mut self, budget: u64) -> Result<RunStats, RunError> {
        let started = Instant::now();
        self.begin_run()?;
        let exit = if self.realtime {
            self.run_paced(budget, started)
        } else {
            self.run_until(budget)
        };
        let result = self.finish(exit, budget);
        if let Some(p) = self.profiler.as_mut() {
            p.end_run();
        }
        self.total_cycles += self.st.cycles;
        self.total_instructions += self.st.instructions;
        result.map(|stop| RunStats {
            stop,
            cycles: self.st.cycles,
            instructions: self.st.instructions,
            unmapped_reads: self.core.bus().machine().unmapped_reads.get(),
            max_stack_depth: self.st.stack.map(|s| s.max_depth as u32),
            wall_time: started.elapsed(),
        })
    }

    fn begin_run(&mut self) -> Result<(), RunError> {
        let sp = self.core.sp();
        let bus = self.core.bus_mut();
        bus.written.fill(0);
        bus.event.set(None);
        bus.deferred_len = 0;
        bus.refresh_console();
        bus.unmapped_reads.set(0);
        self.st.cycles = 0;
        self.st.instructions = 0;
        self.st.stack = self.map.stack.map(|region| {
            let mut s = StackCheck::new(region);
            s.depth = s.depth_of(self.cpu, sp);
            s.max_depth = s.depth.max(0);
            s
        });
        let window = stack_window(self.cpu, self.st.stack.as_ref());
        self.core.bus_mut().set_stack_window(window);
        if let Some(p) = self.profiler.as_mut() {
            p.begin_run(sp);
        }
        if let Some(s) = self.st.stack {
            if s.depth < 0 || s.depth > s.size {
                let fault = s.fault(self.cpu, sp, self.core.pc());
                return Err(self.error(fault, true));
            }
        }
        Ok(())
    }

    fn run_until(&mut self, limit: u64) -> Exit {
        if self.profiler.is_none() && self.tracer.is_none() {
            self.core.run_until(&mut self.st, None, limit)
        } else {
            let mut w = Watching {
                profiler: self.profiler.as_mut(),
                tracer: self.tracer.as_mut(),
                symbols: self.symbols.as_ref(),
                pending: None,
            };
            self.core.run_until(&mut self.st, Some(&mut w), limit)
        }
    }

    /// Runs in slices of 10 ms of emulated time, sleeping until the wall clock catches up.
    fn run_paced(&mut self, budget: u64, started: Instant) -> Exit {
        let hz = self.clock.hz();
        let slice = ((hz / 100.0) as u64).max(1);
        loop {
            let limit = budget.min(self.st.cycles + slice);
            let exit = self.run_until(limit);
            let due = started + Duration::from_secs_f64(self.st.cycles as f64 / hz);
            if let Some(wait) = due.checked_duration_since(Instant::now()) {
                std::thread::sleep(wait);
            }
            if !matches!(exit, Exit::Limit) || self.st.cycles >= budget {
                return exit;
            }
        }
    }

    /// Turns the loop's exit into the run's result.
    fn finish(&mut self, exit: Exit, budget: u64) -> Result<StopReason, RunError> {
        match exit {
            Exit::Stop(reason) => Ok(reason),
            Exit::Limit => {
                let fault = Fault::BudgetExceeded {
                    budget,
                    pc: self.core.pc(),
                };
                Err(self.error(fault, true))
            }
            Exit::FaultBefore(mut fault) => {
                if let Fault::PcOutOfProgram { from, program, .. } = &mut fault {
                    *from = self.last_pc();
                    *program = self
                        .program
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(", ");
                }
                Err(self.error(fault, true))
            }
            Exit::FaultAfter(fault) => Err(self.error(fault, false)),
            Exit::Event { pc } => {
                let event = self.core.bus_mut().event.take().expect("event recorded");
                let fault = match event {
                    BusEvent::HostCall(v) if is_done(v) => return Ok(StopReason::HostDone),
                    BusEvent::HostCall(v) if is_iteration(v) => {
                        return Ok(StopReason::HostIteration { pc });
                    }
                    BusEvent::InputWait => return Ok(StopReason::InputWait { pc }),
                    BusEvent::HostCall(value) => Fault::UnknownHostCall { value, pc },
                    BusEvent::RomWrite { addr, value } => Fault::RomWrite { addr, value, pc },
                    BusEvent::UnmappedWrite { addr, value } => {
                        Fault::UnmappedWrite { addr, value, pc }
                    }
                    BusEvent::PortWrite { port, value } => {
                        Fault::UnconnectedPort { port, value, pc }
                    }
                };
                Err(self.error(fault, false))
            }
        }
    }

    /// The PC of the last executed instruction of this run.
    fn last_pc(&self) -> Option<u16> {
        let n = self.st.instructions;
        (n > 0).then(|| self.core.bus().ring[((n - 1) as usize) % RECENT])
    }

    /// A run error with the recent trace. `pending`: the fault is at the next instruction
    /// (not executed), which is shown as the last line.
    fn error(&self, fault: Fault, pending: bool) -> RunError {
        let n = self.st.instructions;
        let kept = n.min(RECENT as u64 - u64::from(pending));
        let mem = &self.core.bus().machine().mem;
        let mut entries: Vec<TraceEntry> = (n - kept..n)
            .map(|i| {
                let pc = self.core.bus().ring[(i as usize) % RECENT];
                let mut e = TraceEntry::new(self.cpu, mem, pc, self.symbols.as_ref(), None);
                e.index = i;
                e
            })
            .collect();
        if pending {
            let pc = fault.pc();
            let mut e = TraceEntry::new(self.cpu, mem, pc, self.symbols.as_ref(), None);
            e.index = n;
            entries.push(e);
        }
        RunError {
            fault,
            cycles: self.st.cycles,
            instructions: n,
            trace: RecentTrace {
                entries,
                registers: self.registers(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documented_6502_grid_has_151_opcodes_the_core_knows() {
        let documented: Vec<u8> = (0..=255u8).filter(|&op| is_documented_6502(op)).collect();
        assert_eq!(documented.len(), 151);
        for op in documented {
            use mos6502::Variant;
            assert!(
                mos6502::instruction::Nmos6502::decode(op).is_some(),
                "{op:02X}"
            );
            assert!(!is_jam_6502(op), "{op:02X}");
        }
        let jams: Vec<u8> = (0..=255u8).filter(|&op| is_jam_6502(op)).collect();
        assert_eq!(
            jams,
            [
                0x02, 0x12, 0x22, 0x32, 0x42, 0x52, 0x62, 0x72, 0x92, 0xB2, 0xD2, 0xF2
            ]
        );
    }

    #[test]
    fn defined_ed_opcodes() {
        assert_eq!(
            (0..=255u8).filter(|&op| is_defined_z80_ed(op)).count(),
            64 + 16
        );
        assert!(is_defined_z80_ed(0xB0)); // LDIR
        assert!(is_defined_z80_ed(0x4D)); // RETI
        assert!(!is_defined_z80_ed(0x00));
        assert!(!is_defined_z80_ed(0xFF));
    }
}
