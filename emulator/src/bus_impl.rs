//! [`MachineBus`]: memory, memory map and devices as the CPU sees them.
//!
//! One attribute byte per address says what the address is (RAM, ROM, I/O, unmapped), whether
//! it lies outside the loaded program, and whether the step loop must look at an instruction
//! there (see [`attr`]). A second, 256-entry table summarises each page: a page of nothing but
//! RAM or ROM reads as plain memory, a page of nothing but RAM outside the program is written
//! with two stores (the byte, and its mark in `written` for the RAM profile). That table stays
//! in the host's L1 cache, so an ordinary access costs one extra load from it and a predictable
//! branch. On maps without devices or holes (the Z80's default) reads skip even that
//! ([`AllMemory`]).
//!
//! Every other write (ROM, devices, unmapped memory, program code in RAM, whose check marks
//! must stay current) writes a RAM byte at once and leaves the rest for the end of the
//! instruction ([`MachineBus::complete_deferred`]): the write path never calls a function, which
//! would make the compiler save registers in every one of the CPU crates' instruction
//! functions. A write that must end the run (to ROM, to unmapped memory, a host call) is
//! recorded as a [`BusEvent`] there; the first event of an instruction wins. The bus makes the
//! step loop stop after such an instruction by lowering [`MachineBus::stop_at`], the one value
//! the loop compares with the cycle count.

use crate::devices::{
    Console, HOST_CALL_DONE, HOST_CALL_ITERATION, PORT_CONSOLE_DATA, PORT_CONSOLE_STATUS,
    PORT_HOST_CALL,
};
use crate::memory::{MemoryMap, RegionKind};
use crate::timing::timer::Timer;
use crate::trace::RECENT;
use crate::{Bus, Cpu};
use std::cell::{Cell, RefCell};

/// Attribute bits, one byte per address.
pub(crate) mod attr {
    /// Read-write memory.
    pub const RAM: u8 = 1;
    /// Read-only memory.
    pub const ROM: u8 = 2;
    /// 6502 I/O page.
    pub const IO: u8 = 4;
    /// Nothing there.
    pub const UNMAPPED: u8 = 8;
    /// Outside every loaded program image: the PC may not be here. (Set for "outside" rather
    /// than for "inside" so that the step loop's test is one `test` against zero.)
    pub const OUTSIDE: u8 = 16;
    /// In the program, and the next two bytes (where an instruction here has its operands) are
    /// not all plain memory: an instruction here runs with every access checked (see
    /// [`crate::Core::step_careful`]).
    pub const CAREFUL: u8 = 32;
    /// In the program, and an instruction here needs a look before or after it runs (see
    /// [`crate::cpu_rules::needs_check`]): halts, illegal forms, refused opcodes, and jumps that
    /// may land on themselves. Kept up to date on every write to the program, so the step
    /// loop decides "nothing to check" from this byte alone:
    /// `attr & (OUTSIDE | CAREFUL | CHECK) == 0`.
    pub const CHECK: u8 = 64;
    /// Set on every byte while the profiler or the tracer watches a run (or every step is
    /// checked), so that every instruction takes the step loop's slow path, where they are
    /// called.
    pub const WATCH: u8 = 128;
    /// The bits that send an instruction at an address to the step loop's slow path.
    pub const SLOW: u8 = OUTSIDE | CAREFUL | CHECK | WATCH;
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
///
/// The fields lie in the order written (`repr(C)`): the memory first, then its attribute
/// bytes, then the rest, new fields at the end. Left to itself the compiler reorders the
/// fields whenever one is added, and the step loop's speed depends on where the memory, the
/// ring and the CPU's registers (which follow the bus in the core) lie, as it depends on where
/// the code lies: with the same host instructions, the Z80 machine layer measured 5 % over the
/// bare crate before the host traps were added and 18-29 % after (see `docs/MACHINE.md`,
/// "Speed").
#[repr(C)]
pub struct MachineBus {
    /// The bytes, and their attribute bytes: held in the bus itself, not behind a pointer, so
    /// that a core reaches a byte with one load from the bus it holds (the bus lives inside
    /// the core, which the machine keeps on the heap).
    pub(crate) mem: [u8; 0x10000],
    pub(crate) attr: [u8; 0x10000],
    /// 1 where the CPU wrote during the current run.
    pub(crate) written: Box<[u8; 0x10000]>,
    /// [`page`] flags per 256-byte page.
    pages: [u8; 256],
    pub(crate) console: RefCell<Console>,
    /// A cell because a console read (through `&self`) can record [`BusEvent::InputWait`].
    pub(crate) event: Cell<Option<BusEvent>>,
    /// Whether the host call "iteration complete" stops the run (else it is ignored).
    pub(crate) stop_on_iteration: bool,
    pub(crate) unmapped_reads: Cell<u64>,
    /// The CPU, and the class of each opcode, for [`attr::CHECK`].
    cpu: Cpu,
    class: [u8; 256],
    /// The step loop stops before the next instruction once the cycle count reaches this:
    /// the run's cycle limit, or 0 as soon as an event is recorded. One compare in the step
    /// loop thus covers both the budget and the bus events.
    pub(crate) stop_at: Cell<u64>,
    /// The PCs of the last [`RECENT`] instructions, indexed by the instruction count modulo
    /// [`RECENT`], for the trace of a run error. Kept here, beside the memory the step loop
    /// already addresses, so the loop needs no other pointer.
    pub(crate) ring: [u16; RECENT],
    /// The step loop's SP after the last instruction it checked.
    pub(crate) last_sp: u16,
    /// The instruction count after the last instruction that moved SP (which is therefore no
    /// jump to itself). These two live here rather than in the step loop's registers, which
    /// the CPU core's code needs more.
    pub(crate) sp_moved_at: u64,
    /// Stack pointers `stack_low ..= stack_low + stack_span` (wrapping) need no stack
    /// bookkeeping beyond `last_sp` (see `stack::stack_window`).
    pub(crate) stack_low: u16,
    /// See `stack_low`.
    pub(crate) stack_span: u16,
    /// Writes of the current instruction waiting for [`MachineBus::complete_deferred`].
    deferred: [Deferred; DEFERRED],
    /// How many (never more than [`DEFERRED`]).
    pub(crate) deferred_len: usize,
    /// What a Z80 `IN` from the console status port reads: the console's status as of the
    /// end of the last instruction that touched the console (or the start of the run).
    console_status: u8,
    /// What a Z80 `IN` from the console data port reads: the next character, or 0.
    console_next: u8,
    /// The Z80 read the console status during the instruction: poll the console again.
    console_polled: Cell<bool>,
    /// The Z80 read the console data during the instruction: the character is taken.
    console_taken: Cell<bool>,
    /// Addresses of host traps (sorted): the step loop stops before an instruction there
    /// (see [`crate::traps`]).
    pub(crate) traps: Vec<u16>,
    /// The instruction count when the step loop last completed deferred writes: the writes
    /// are those of instruction `executed - 1` (counted from 0).
    pub(crate) executed: u64,
    /// The last writes into the program's code, with the bytes they replaced, so that the
    /// trace of a run error shows each recent instruction as it was when it ran.
    pub(crate) code_log: Box<CodeLog>,
    /// The machine's timing model at work, if it has one ([`crate::timing`]).
    pub(crate) timer: Option<Box<Timer>>,
    /// Addresses whose instruction is counted every time it runs (sorted), and the counts
    /// (see [`crate::Machine::count_executions`]).
    counted: Vec<u16>,
    counts: Vec<Cell<u64>>,
    /// Breakpoints (sorted), set only while the machine runs towards them
    /// ([`crate::Machine::run_to_break`]): the step loop stops before an instruction there.
    breaks: Vec<u16>,
    /// The breakpoint the run resumes from, as (address, instruction count): the instruction
    /// there runs once before its breakpoint counts again.
    break_resume: Option<(u16, u64)>,
}

/// The most recent writes into program code: enough for every write of the last [`RECENT`]
/// instructions (each writes at most [`DEFERRED`] bytes).
pub(crate) const CODE_LOG: usize = RECENT * DEFERRED;

/// A write into program code: the instruction count after the writing instruction, the
/// address and the byte it replaced.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct CodeWrite {
    pub(crate) executed: u64,
    pub(crate) addr: u16,
    pub(crate) old: u8,
}

/// A ring of the last [`CODE_LOG`] [`CodeWrite`]s.
#[derive(Debug)]
pub(crate) struct CodeLog {
    pub(crate) writes: [CodeWrite; CODE_LOG],
    /// Writes logged in all (the newest is at `(len - 1) % CODE_LOG`).
    pub(crate) len: usize,
}

impl CodeLog {
    fn push(&mut self, w: CodeWrite) {
        self.writes[self.len % CODE_LOG] = w;
        self.len += 1;
    }

    /// The logged writes, newest first.
    pub(crate) fn newest_first(&self) -> impl Iterator<Item = &CodeWrite> {
        let kept = self.len.min(CODE_LOG);
        (0..kept).map(move |k| &self.writes[(self.len - 1 - k) % CODE_LOG])
    }

    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }
}

/// How far before a byte an instruction can start whose [`attr::CHECK`] mark depends on it
/// (a Z80 instruction with three prefixes).
const MARK_REACH: u16 = 3;

/// Room for the deferred writes of one instruction: at most 2 for the instruction itself
/// (Z80) or 3 (6502 `BRK`), plus 2 or 3 for an interrupt acknowledged in the same step.
const DEFERRED: usize = 8;

/// A CPU write that [`MachineBus::complete_deferred`] completes after the instruction.
#[derive(Debug, Clone, Copy, Default)]
struct Deferred {
    /// Memory address, or the Z80 port.
    addr: u16,
    value: u8,
    /// The byte the write replaced (memory writes).
    old: u8,
    /// A Z80 `OUT` rather than a memory write.
    port: bool,
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
        let mut mem = [0xFF; 0x10000];
        let mut attr = [attr::UNMAPPED | attr::OUTSIDE; 0x10000];
        for region in &map.regions {
            let bits = match region.kind {
                RegionKind::Ram => attr::RAM,
                RegionKind::Rom => attr::ROM,
            };
            for a in region.range.indices() {
                attr[a] = bits | attr::OUTSIDE;
                mem[a] = 0;
            }
        }
        if let Some(io) = map.io_range(cpu) {
            for a in io.indices() {
                attr[a] = attr::IO | attr::OUTSIDE;
            }
        }
        let mut bus = MachineBus {
            mem,
            attr,
            written: page_array(0),
            pages: [0; 256],
            console: RefCell::new(Console::default()),
            event: Cell::new(None),
            stop_on_iteration: false,
            unmapped_reads: Cell::new(0),
            cpu,
            class: [0; 256],
            stop_at: Cell::new(0),
            ring: [0; RECENT],
            last_sp: 0,
            sp_moved_at: 0,
            stack_low: 0,
            stack_span: 0,
            deferred: [Deferred::default(); DEFERRED],
            deferred_len: 0,
            traps: Vec::new(),
            counted: Vec::new(),
            counts: Vec::new(),
            breaks: Vec::new(),
            break_resume: None,
            console_status: 0,
            console_next: 0,
            console_polled: Cell::new(false),
            console_taken: Cell::new(false),
            executed: 0,
            code_log: Box::new(CodeLog {
                writes: [CodeWrite::default(); CODE_LOG],
                len: 0,
            }),
            timer: None,
        };
        bus.refresh_pages();
        bus
    }

    /// The CPU cycle count at which the step loop must stop for the timing model (never,
    /// without one).
    #[inline]
    pub(crate) fn timer_stop(&self) -> u64 {
        self.timer.as_ref().map_or(u64::MAX, |t| t.next_cycles())
    }

    /// Sets the stack pointers the step loop accepts without bookkeeping, as (lowest, width).
    pub(crate) fn set_stack_window(&mut self, (low, span): (u16, u16)) {
        self.stack_low = low;
        self.stack_span = span;
    }

    /// Sets or clears [`attr::WATCH`] everywhere.
    pub(crate) fn set_watched(&mut self, watched: bool) {
        for a in self.attr.iter_mut() {
            *a = if watched {
                *a | attr::WATCH
            } else {
                *a & !attr::WATCH
            };
        }
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
                .all(|&a| a & (attr::RAM | attr::OUTSIDE) == attr::RAM | attr::OUTSIDE)
            {
                f |= page::WRITE_FAST;
            }
            *flags = f;
        }
    }

    /// Marks the program bytes whose next two bytes are not all plain memory
    /// ([`attr::CAREFUL`]); after the program or the page flags changed.
    pub(crate) fn mark_careful(&mut self) {
        for a in 0..=0xFFFF_usize {
            let plain = |d: usize| self.pages[((a + d) & 0xFFFF) >> 8] & page::READ_FAST != 0;
            let careful = self.attr[a] & attr::OUTSIDE == 0 && !(plain(1) && plain(2));
            self.attr[a] = if careful {
                self.attr[a] | attr::CAREFUL
            } else {
                self.attr[a] & !attr::CAREFUL
            };
        }
    }

    /// Sets the opcode classes ([`crate::cpu_rules`]'s `class` constants) and re-marks the
    /// program.
    pub(crate) fn set_classes(&mut self, class: [u8; 256]) {
        self.class = class;
        for a in 0..=0xFFFF {
            self.mark(a);
        }
    }

    /// Recomputes [`attr::CHECK`] after the byte at `addr` changed: for the instructions that
    /// may include it, which start up to [`MARK_REACH`] bytes before it.
    pub(crate) fn refresh(&mut self, addr: u16) {
        for back in 0..=MARK_REACH {
            self.mark(addr.wrapping_sub(back));
        }
    }

    /// Recomputes [`attr::CHECK`] for the instruction at `a`.
    fn mark(&mut self, a: u16) {
        let i = usize::from(a);
        let at = self.attr[i] & !attr::CHECK;
        let check = (at & attr::OUTSIDE == 0
            && crate::cpu_rules::needs_check(self.cpu, &self.class, &self.mem, a))
            || self.is_trap(a)
            || self.is_counted(a)
            || self.is_break(a);
        self.attr[i] = if check { at | attr::CHECK } else { at };
    }

    /// Whether a host trap sits at `a`.
    pub(crate) fn is_trap(&self, a: u16) -> bool {
        !self.traps.is_empty() && self.traps.binary_search(&a).is_ok()
    }

    /// Whether the instruction at `a` is counted.
    fn is_counted(&self, a: u16) -> bool {
        !self.counted.is_empty() && self.counted.binary_search(&a).is_ok()
    }

    /// Counts every execution of the instructions at `addrs` from now on (counts from 0),
    /// marking them for the step loop's slow path, where they are counted.
    pub(crate) fn set_counted(&mut self, mut addrs: Vec<u16>) {
        addrs.sort_unstable();
        addrs.dedup();
        self.counts = addrs.iter().map(|_| Cell::new(0)).collect();
        let old = std::mem::replace(&mut self.counted, addrs.clone());
        for a in old.into_iter().chain(addrs) {
            self.mark(a);
        }
    }

    /// Whether a breakpoint is set at `a`.
    fn is_break(&self, a: u16) -> bool {
        !self.breaks.is_empty() && self.breaks.binary_search(&a).is_ok()
    }

    /// Sets the breakpoints (none: `addrs` empty) and marks them for the step loop's slow
    /// path; `resume`: the breakpoint the run starts on (see [`MachineBus::breaks_before`]).
    pub(crate) fn set_breaks(&mut self, mut addrs: Vec<u16>, resume: Option<(u16, u64)>) {
        addrs.sort_unstable();
        addrs.dedup();
        let old = std::mem::replace(&mut self.breaks, addrs.clone());
        for a in old.into_iter().chain(addrs) {
            self.mark(a);
        }
        self.break_resume = resume;
    }

    /// Whether the step loop stops before the instruction at `pc`, the `n`th of the run: a
    /// breakpoint is there, and it is not the one the run resumed from, at its first
    /// instruction.
    #[inline]
    pub(crate) fn breaks_before(&self, pc: u16, n: u64) -> bool {
        self.is_break(pc) && self.break_resume != Some((pc, n))
    }

    /// Counts one execution of the instruction at `a`, if it is counted.
    #[inline]
    pub(crate) fn count(&self, a: u16) {
        if !self.counted.is_empty() {
            if let Ok(i) = self.counted.binary_search(&a) {
                self.counts[i].set(self.counts[i].get() + 1);
            }
        }
    }

    /// The counted addresses (ascending) with their counts.
    pub(crate) fn counts(&self) -> Vec<(u16, u64)> {
        self.counted
            .iter()
            .zip(&self.counts)
            .map(|(&a, c)| (a, c.get()))
            .collect()
    }

    /// Sets the host trap addresses and marks them for the step loop's slow path.
    pub(crate) fn set_traps(&mut self, mut traps: Vec<u16>) {
        traps.sort_unstable();
        traps.dedup();
        let old = std::mem::replace(&mut self.traps, traps.clone());
        for a in old.into_iter().chain(traps) {
            self.mark(a);
        }
    }

    /// A write to the host-call device: "iteration complete" is ignored unless the host asked
    /// to stop at it; every other value is an event for the machine.
    fn host_call(&self, value: u8) {
        if value != HOST_CALL_ITERATION || self.stop_on_iteration {
            self.record(BusEvent::HostCall(value));
        }
    }

    fn record(&self, event: BusEvent) {
        if self.event.get().is_none() {
            self.event.set(Some(event));
            self.stop_at.set(0);
        }
    }

    /// A console register read (`status` or data) through memory, reporting a starved
    /// console as an event.
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
        if console.has_unstamped() {
            // A recorded read: stop after the instruction, where the read gets its cycle
            // count (see `settle` in the step loop).
            self.stop_at.set(0);
        }
        value
    }

    /// A read in a page that holds a device or unmapped bytes.
    #[cold]
    #[inline(never)]
    fn read_slow(&self, addr: u16) -> u8 {
        let a = self.attr[usize::from(addr)];
        if a & (attr::IO | attr::UNMAPPED) == 0 {
            return self.mem[usize::from(addr)];
        }
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

    /// Leaves a write for [`MachineBus::complete_deferred`] and makes the step loop stop
    /// before the next instruction to call it. No call, so a core's instruction code that
    /// writes memory keeps its registers (a call on the write path would make the compiler
    /// save registers around every write, and in the prologue of the crate's functions).
    #[inline(always)]
    fn defer(&mut self, addr: u16, value: u8, old: u8, port: bool) {
        let k = self.deferred_len;
        self.deferred[k % DEFERRED] = Deferred {
            addr,
            value,
            old,
            port,
        };
        self.deferred_len = k + 1;
        self.stop_at.set(0);
    }

    /// Completes the writes deferred during the last instruction, in order: the opcode check
    /// marks of program code in RAM, and the writes that are not applied (ROM, unmapped
    /// memory) or go to a device.
    #[cold]
    #[inline(never)]
    pub(crate) fn complete_deferred(&mut self) {
        debug_assert!(
            self.deferred_len <= DEFERRED,
            "an instruction writes at most 6 bytes"
        );
        for k in 0..self.deferred_len.min(DEFERRED) {
            let Deferred {
                addr,
                value,
                old,
                port,
            } = self.deferred[k];
            if port {
                self.port_write(addr, value);
            } else {
                self.memory_write(addr, value, old);
            }
        }
        self.deferred_len = 0;
        let taken = self.console_taken.take();
        let polled = self.console_polled.take();
        if taken || polled {
            // The instruction read `console_status` or `console_next`, the console as it
            // still is (nothing has used it since they were read): repeat the read on the
            // console itself, which takes the character, or finds the queue empty.
            let console = self.console.get_mut();
            if taken && console.pending_input() > 0 {
                console.read();
            } else {
                // An empty queue (the data register read 0), or a status read. A status
                // read rather than a data read, so that a key a terminal has just typed is
                // queued, not taken unseen.
                console.status();
            }
            if console.take_starved() {
                self.record(BusEvent::InputWait);
            }
            self.refresh_console();
        }
    }

    /// Reads the console's status and next character for the Z80's port reads (see
    /// [`Bus::port_in`]). Not a read by the program, so it never starves the console.
    pub(crate) fn refresh_console(&mut self) {
        let console = self.console.get_mut();
        self.console_status = console.status();
        self.console_next = console.peek();
        console.take_starved();
    }

    /// The part of a CPU write outside a page of plain RAM that waits until the end of the
    /// instruction (the RAM byte itself is written at once, see [`Bus::write`]).
    fn memory_write(&mut self, addr: u16, value: u8, old: u8) {
        let a = self.attr[usize::from(addr)];
        if a & attr::RAM != 0 {
            // RAM in a page with program code: keep the opcode check marks current, and
            // remember code that changes for the trace of a run error.
            if a & attr::OUTSIDE == 0 {
                self.refresh(addr);
                if old != value {
                    let executed = self.executed;
                    self.code_log.push(CodeWrite {
                        executed,
                        addr,
                        old,
                    });
                }
            }
        } else if a & attr::ROM != 0 {
            self.record(BusEvent::RomWrite { addr, value });
        } else if a & attr::IO != 0 {
            match addr as u8 {
                PORT_CONSOLE_DATA => self.console.get_mut().write(value),
                PORT_HOST_CALL => self.host_call(value),
                _ => self.record(BusEvent::UnmappedWrite { addr, value }),
            }
        } else {
            self.record(BusEvent::UnmappedWrite { addr, value });
        }
    }

    /// A Z80 `OUT`, completed at the end of the instruction.
    fn port_write(&mut self, port: u16, value: u8) {
        match port as u8 {
            PORT_CONSOLE_DATA => self.console.get_mut().write(value),
            PORT_HOST_CALL => self.host_call(value),
            _ => self.record(BusEvent::PortWrite { port, value }),
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
            self.read_slow(addr)
        }
    }

    /// A page of plain RAM is written at once; elsewhere a RAM byte is written at once too
    /// and everything else (opcode check marks, ROM, devices, unmapped memory) waits for the
    /// end of the instruction (`MachineBus::complete_deferred`). The CPU cannot tell: a
    /// write that is not applied changes nothing it could read, and no instruction reads a
    /// device after writing it.
    #[inline(always)]
    fn write(&mut self, addr: u16, value: u8) {
        let i = usize::from(addr);
        if self.pages[i >> 8] & page::WRITE_FAST != 0 {
            self.mem[i] = value;
            self.written[i] = 1;
        } else {
            let old = self.mem[i];
            if self.attr[i] & attr::RAM != 0 {
                self.mem[i] = value;
                self.written[i] = 1;
            }
            self.defer(addr, value, old, false);
        }
    }

    #[inline(always)]
    fn plain_page(&self, page: u8) -> bool {
        self.pages[usize::from(page)] & page::READ_FAST != 0
    }

    #[inline(always)]
    fn read_plain(&self, addr: u16) -> u8 {
        self.mem[usize::from(addr)]
    }

    /// The console registers are read as of the end of the last instruction that used the
    /// console; taking a character (and polling a terminal for a typed one) is done at the
    /// end of the instruction (`MachineBus::complete_deferred`). So a port read is a load
    /// and a store, with no call: a call there would make the compiler save registers in
    /// the prologue of every instruction function of the `z80` crate. The program cannot
    /// tell, as no instruction reads a port twice.
    #[inline(always)]
    fn port_in(&self, port: u16) -> u8 {
        match port as u8 {
            PORT_CONSOLE_STATUS => {
                self.console_polled.set(true);
                self.stop_at.set(0);
                self.console_status
            }
            PORT_CONSOLE_DATA => {
                self.console_taken.set(true);
                self.stop_at.set(0);
                self.console_next
            }
            _ => {
                self.unmapped_reads.set(self.unmapped_reads.get() + 1);
                0xFF
            }
        }
    }

    /// Completed at the end of the instruction, like a device write to memory.
    #[inline(always)]
    fn port_out(&mut self, port: u16, value: u8) {
        self.defer(port, value, 0, true);
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
    #[inline(always)]
    fn port_in(&self, port: u16) -> u8 {
        self.0.port_in(port)
    }
    #[inline(always)]
    fn port_out(&mut self, port: u16, value: u8) {
        self.0.port_out(port, value)
    }
}

/// A Z80's [`MachineBus`] on a map with unmapped memory. The Z80 has no devices in its
/// address space, so a read is a byte of memory or an unmapped byte (`$FF`, counted), decided
/// without a call (a call on the read path makes the compiler save registers in every one of
/// the `z80` crate's instruction functions).
#[repr(transparent)]
pub(crate) struct Z80Memory(pub(crate) MachineBus);

impl Bus for Z80Memory {
    #[inline(always)]
    fn read(&self, addr: u16) -> u8 {
        let (bus, i) = (&self.0, usize::from(addr));
        if bus.pages[i >> 8] & page::READ_FAST != 0 || bus.attr[i] & attr::UNMAPPED == 0 {
            bus.mem[i]
        } else {
            bus.unmapped_reads.set(bus.unmapped_reads.get() + 1);
            0xFF
        }
    }
    #[inline(always)]
    fn write(&mut self, addr: u16, value: u8) {
        self.0.write(addr, value)
    }
    #[inline(always)]
    fn port_in(&self, port: u16) -> u8 {
        self.0.port_in(port)
    }
    #[inline(always)]
    fn port_out(&mut self, port: u16, value: u8) {
        self.0.port_out(port, value)
    }
}

impl Machined for Z80Memory {
    #[inline(always)]
    fn machine(&self) -> &MachineBus {
        &self.0
    }
    #[inline(always)]
    fn machine_mut(&mut self) -> &mut MachineBus {
        &mut self.0
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

/// A Z80 bus with a per-access timing model: the `rustzx-z80` core reports every machine
/// cycle, and the bus hands it to the timer ([`crate::timing`]). Its own type, so that the
/// machines without such a model compile these calls away.
#[repr(transparent)]
pub(crate) struct Timed<B>(pub(crate) B);

impl<B: Machined> Timed<B> {
    #[inline(always)]
    fn timer(&mut self) -> (&mut Timer, &Cell<u64>) {
        let bus = self.0.machine_mut();
        let timer = bus.timer.as_deref_mut().expect("a timed bus has a timer");
        (timer, &bus.stop_at)
    }
}

impl<B: Machined> Bus for Timed<B> {
    #[inline(always)]
    fn read(&self, addr: u16) -> u8 {
        self.0.read(addr)
    }
    #[inline(always)]
    fn write(&mut self, addr: u16, value: u8) {
        self.0.write(addr, value)
    }
    #[inline(always)]
    fn port_in(&self, port: u16) -> u8 {
        self.0.port_in(port)
    }
    #[inline(always)]
    fn port_out(&mut self, port: u16, value: u8) {
        self.0.port_out(port, value)
    }
    const TIMED: bool = true;
    #[inline(always)]
    fn cycle_mreq(&mut self, addr: u16, clk: u32) {
        let (t, stop) = self.timer();
        t.mreq(addr, clk, stop)
    }
    #[inline(always)]
    fn cycle_no_mreq(&mut self, addr: u16) {
        let (t, stop) = self.timer();
        t.no_mreq(addr, stop)
    }
    #[inline(always)]
    fn cycle_internal(&mut self, clk: u32) {
        let (t, stop) = self.timer();
        t.internal(clk, stop)
    }
    #[inline(always)]
    fn cycle_io(&mut self, port: u16) {
        let (t, stop) = self.timer();
        t.io(port, stop)
    }
}

impl<B: Machined> Machined for Timed<B> {
    #[inline(always)]
    fn machine(&self) -> &MachineBus {
        self.0.machine()
    }
    #[inline(always)]
    fn machine_mut(&mut self) -> &mut MachineBus {
        self.0.machine_mut()
    }
}

/// Whether a host-call value means "done".
pub(crate) fn is_done(value: u8) -> bool {
    value == HOST_CALL_DONE
}

/// Whether a host-call value means "iteration complete".
pub(crate) fn is_iteration(value: u8) -> bool {
    value == HOST_CALL_ITERATION
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bus(cpu: Cpu) -> MachineBus {
        MachineBus::new(cpu, &MemoryMap::default_for(cpu))
    }

    /// A write as the CPU does it, with the end of the instruction after it.
    fn write(b: &mut MachineBus, addr: u16, value: u8) {
        b.write(addr, value);
        b.complete_deferred();
    }

    /// An `IN` as the CPU does it, with the end of the instruction after it.
    fn port_in(b: &mut MachineBus, port: u16) -> u8 {
        let value = b.port_in(port);
        b.complete_deferred();
        value
    }

    /// An `OUT` as the CPU does it, with the end of the instruction after it.
    fn port_out(b: &mut MachineBus, port: u16, value: u8) {
        b.port_out(port, value);
        b.complete_deferred();
    }

    #[test]
    fn ram_is_written_and_remembered() {
        let mut b = bus(Cpu::Z80);
        write(&mut b, 0x4000, 7);
        assert_eq!(b.read(0x4000), 7);
        assert_eq!(b.written[0x4000], 1);
        assert_eq!(b.written[0x4001], 0);
        assert_eq!(b.event.get(), None);
    }

    #[test]
    fn program_code_in_ram_keeps_its_check_marks() {
        let mut b = MachineBus::new(Cpu::Z80, &MemoryMap::all_ram());
        let mut class = [0; 256];
        class[0x76] = 1;
        b.set_classes(class);
        b.attr[0x0100] &= !attr::OUTSIDE;
        b.refresh_pages();
        b.write(0x0100, 0x76);
        assert_eq!(b.mem[0x0100], 0x76, "the byte is written at once");
        assert_eq!(
            b.attr[0x0100] & attr::CHECK,
            0,
            "its mark at the instruction's end"
        );
        b.complete_deferred();
        assert_ne!(b.attr[0x0100] & attr::CHECK, 0);
        write(&mut b, 0x0100, 0x00);
        assert_eq!(b.attr[0x0100] & attr::CHECK, 0);
        assert_eq!(b.written[0x0100], 1);
        // The rest of the page is written on the slow path too, and correctly.
        write(&mut b, 0x0101, 9);
        assert_eq!((b.mem[0x0101], b.written[0x0101]), (9, 1));
        assert_eq!(b.attr[0x0101] & attr::CHECK, 0);
    }

    #[test]
    fn rom_write_is_reported_not_applied() {
        let mut b = bus(Cpu::Z80);
        b.mem[0x0100] = 0x55;
        write(&mut b, 0x0100, 0xAA);
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
        b.write(0x0300, 2);
        b.complete_deferred();
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
        write(&mut b, 0x1234, 0);
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
        assert_eq!(port_in(&mut b, 0x0000), 0, "no key waiting");
        // The host queues input between runs; a run starts with the console read afresh.
        b.console.get_mut().push_input(b"k");
        b.refresh_console();
        assert_eq!(port_in(&mut b, 0x0000), 1);
        assert_eq!(b.port_in(0x0001), b'k');
        assert_eq!(
            b.console.get_mut().pending_input(),
            1,
            "taken when the IN is done"
        );
        b.complete_deferred();
        assert_eq!(b.console.get_mut().pending_input(), 0);
        assert_eq!(port_in(&mut b, 0x0000), 0);
        assert_eq!(port_in(&mut b, 0x0001), 0, "0 when no key");
        port_out(&mut b, 0x4101, b'A'); // OUT ($01),A with A = $41 on the high byte
        assert_eq!(b.console.get_mut().output(), b"A");
        assert_eq!(port_in(&mut b, 0x0042), 0xFF);
        assert_eq!(b.unmapped_reads.get(), 1);
        port_out(&mut b, 0x00FF, 0);
        assert_eq!(b.event.get(), Some(BusEvent::HostCall(0)));
        assert!(is_done(0));
    }

    #[test]
    fn unconnected_port_write_is_reported() {
        let mut b = bus(Cpu::Z80);
        port_out(&mut b, 0x0010, 3);
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
        write(&mut b, 0xBF01, b'!');
        assert_eq!(b.console.get_mut().output(), b"!");
        assert_eq!(b.read(0xBF42), 0xFF);
        write(&mut b, 0xBFFF, 0);
        assert_eq!(b.event.get(), Some(BusEvent::HostCall(0)));
        b.event.set(None);
        write(&mut b, 0xBF42, 9);
        assert_eq!(
            b.event.get(),
            Some(BusEvent::UnmappedWrite {
                addr: 0xBF42,
                value: 9
            })
        );
    }
}
