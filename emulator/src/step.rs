//! The step loop: runs a core instruction by instruction, counting cycles and checking what
//! every run needs, with one slow path for everything else (the checks' details, the
//! profiler, the tracer). See `docs/MACHINE.md`, "Speed".
//!
//! The step loop is compiled once per CPU core, so the wrapped crate's step function inlines
//! into it. A run pays, per instruction, for the checks every run needs, folded into one test
//! of an attribute byte at the PC (outside the program, an opcode to check, a possible jump to
//! itself), one compare for the budget and the bus events together, one for the stack
//! pointer, and one store into the ring of recent PCs.

use crate::bus_impl::{MachineBus, Machined, attr};
use crate::core::{Core, Registers};
use crate::cpu_rules::{class, is_defined_z80_ed, mos6502::TXS, repeats_in_place};
use crate::error::Fault;
use crate::profiler::Profiler;
use crate::stack::{StackCheck, stack_window};
use crate::stats::StopReason;
use crate::trace::{RECENT, TraceEntry, Tracer};
use crate::{Cpu, SymbolTable};

/// Why the step loop returned.
pub(crate) enum Exit {
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
    /// The PC reached a host trap (not executed).
    Trap { pc: u16 },
    /// The PC reached a breakpoint (not executed).
    Break { pc: u16 },
}

/// The per-run state of the step loop.
pub(crate) struct RunState {
    pub(crate) cpu: Cpu,
    /// Every instruction through [`Core::step_careful`] ([`MachineBuilder::checked_steps`]).
    pub(crate) checked_steps: bool,
    pub(crate) cycles: u64,
    pub(crate) instructions: u64,
    pub(crate) class: [u8; 256],
    pub(crate) stack: Option<StackCheck>,
}

/// The profiler and the tracer, whichever are on.
///
/// While they are on, every instruction takes the step loop's slow path, which calls
/// [`Watching::after`] for the instruction before and [`Watching::before`] for the next one.
/// The profiler's report of an instruction is thus deferred to the next slow path (or the end
/// of the loop); nothing changes the CPU in between, so it sees the SP and PC the
/// instruction left.
pub(crate) struct Watching<'a> {
    pub(crate) profiler: Option<&'a mut Profiler>,
    pub(crate) tracer: Option<&'a mut Tracer>,
    pub(crate) symbols: Option<&'a SymbolTable>,
    /// The instruction that ran last and is not reported to the profiler yet: its PC, its
    /// first opcode byte and the cycle count before it.
    pub(crate) pending: Option<(u16, u8, u64)>,
}

impl Watching<'_> {
    /// Before the instruction at `pc`, the `n`th of the run, at `cycles`.
    pub(crate) fn before<C: Core<Bus: Machined>>(
        &mut self,
        core: &C,
        cpu: Cpu,
        pc: u16,
        n: u64,
        cycles: u64,
    ) {
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
    pub(crate) fn after<C: Core>(&mut self, core: &C, cycles: u64) {
        if let (Some((pc, op, before)), Some(p)) = (self.pending.take(), &mut self.profiler) {
            p.after_step(pc, op, (cycles - before) as u32, core.sp(), core.pc());
        }
    }
}

/// What the checks before an instruction found.
pub(crate) enum Pre {
    /// Run it.
    Go,
    /// Run it with every access checked ([`Core::step_careful`]).
    Careful,
    /// Do not run it.
    Exit(Exit),
}

/// The checks before an instruction whose address is outside the program or whose opcode
/// byte is marked for a check (see [`attr::CHECK`] and [`attr::CAREFUL`]).
fn pre_check(bus: &MachineBus, st: &RunState, pc: u16, a: u8, interrupt_pending: bool) -> Pre {
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
        class::STP => Some(Exit::Stop(StopReason::ClockStopped { pc })),
        class::WAI if interrupt_pending => return Pre::Careful,
        class::WAI => Some(Exit::Stop(StopReason::WaitForInterrupt { pc })),
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
    if bus.breaks_before(pc, n) {
        if let Some(w) = cold.watch.as_deref_mut() {
            w.after(core, cycles);
        }
        return Pre::Exit(Exit::Break { pc });
    }
    if bus.is_trap(pc) {
        if let Some(w) = cold.watch.as_deref_mut() {
            w.after(core, cycles);
        }
        return Pre::Exit(Exit::Trap { pc });
    }
    if let Some(exit) = self_loop(bus, cold, pc, n) {
        return Pre::Exit(exit);
    }
    let pre = pre_check(
        bus,
        cold.st,
        pc,
        bus.attr[usize::from(pc)],
        core.interrupt_pending(),
    );
    if !matches!(pre, Pre::Exit(_)) {
        bus.count(pc);
    }
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
        Cpu::Mos6502 | Cpu::Cmos65c02 => {
            if bus.mem[usize::from(pc)] == TXS {
                // TXS sets S to anything.
                s.depth = s.depth_of(cpu, sp);
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

/// What the step loop does after [`MachineBus::stop_at`] stopped it.
enum Settled {
    /// Go on: the bus only had deferred writes, and they raised no event.
    Go,
    /// The bus recorded an event.
    Event,
    /// The cycle limit is reached.
    Limit,
}

/// Completes the last instruction's deferred writes (and stamps the console characters it
/// took) and tells the step loop why it stopped.
#[cold]
#[inline(never)]
fn settle(bus: &mut MachineBus, cycles: u64, limit: u64) -> Settled {
    bus.complete_deferred();
    // A console character taken by the instruction (a Z80 `IN` completed just now, a 6502
    // load from the data address) is stamped with the cycle count at its end.
    bus.console.get_mut().stamp_reads(cycles);
    if bus.event.get().is_some() {
        Settled::Event
    } else if cycles >= limit {
        Settled::Limit
    } else {
        bus.stop_at.set(limit.min(bus.timer_stop()));
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
pub(crate) fn step_loop<C: Core<Bus: Machined>>(
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
    bus.stop_at.set(if bus.event.get().is_some() {
        0
    } else {
        limit.min(bus.timer_stop())
    });
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
    let accepts = core.accepts_interrupt();
    let bus = core.bus_mut().machine_mut();
    bus.executed = n;
    if let Some(timer) = bus.timer.as_deref_mut() {
        let last = bus.ring[(n.wrapping_sub(1) as usize) % RECENT];
        timer.settle(cycles, bus.mem[usize::from(last)], accepts);
    }
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
pub(crate) struct Cold<'a, 'w> {
    st: &'a mut RunState,
    watch: Option<&'a mut Watching<'w>>,
    limit: u64,
    /// The instruction count when the loop started: the instruction before it was checked
    /// by the previous call.
    first: u64,
}
/// A core the machine can drive, with its step loop; object safe so the machine holds any.
pub(crate) trait Runner {
    fn run_until(&mut self, st: &mut RunState, watch: Option<&mut Watching>, limit: u64) -> Exit;
    fn bus(&self) -> &MachineBus;
    fn bus_mut(&mut self) -> &mut MachineBus;
    fn pc(&self) -> u16;
    fn set_pc(&mut self, pc: u16);
    fn sp(&self) -> u16;
    fn set_sp(&mut self, sp: u16);
    fn registers(&self) -> Registers;
    fn set_registers(&mut self, regs: &Registers) -> bool;
    fn reset(&mut self);
    fn set_irq(&mut self, active: bool);
    fn pulse_nmi(&mut self);
    fn set_start_state(&mut self, interrupts: bool, im: Option<u8>, i: Option<u8>);
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
    fn set_registers(&mut self, regs: &Registers) -> bool {
        Core::set_registers(self, regs)
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
    fn set_start_state(&mut self, interrupts: bool, im: Option<u8>, i: Option<u8>) {
        Core::set_start_state(self, interrupts, im, i)
    }
}
