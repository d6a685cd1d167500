//! The running side of a [`TimingModel`]: where the machine is in its frame, and how much
//! longer than its CPU cycles the run has taken.
//!
//! The timer keeps `pos`, the machine's ticks since it was built. It moves in one of two ways:
//!
//! - **By events** (display DMA, stretched cycles, the interrupt; the `z80` crate and the 6502
//!   cores). Between events the ticks are the CPU's cycles times [`TimingModel::cycle_ticks`]
//!   (plus the Apple II's long cycles, counted in closed form). The step loop stops at the
//!   CPU cycle count [`Timer::next_cycles`] a little before the next event (its one compare
//!   covers the budget, the bus events and this); from there the timer takes each
//!   instruction as it ends and lays its cycles onto the frame one by one, skipping the ticks
//!   the display takes (a 6502 on RDY goes on writing in the lead-in and stops at its first
//!   read), until the event is past.
//! - **By access** (contention, alignment, wait states; the `rustzx-z80` core): the core
//!   reports every memory, I/O and internal cycle through the bus ([`Timer::mreq`] and the
//!   rest), and the timer adds each one's ticks and waits as it comes. When `pos` passes the
//!   next event it lowers the bus's `stop_at`, so the step loop settles after the instruction.
//!
//! The interrupt is the ROM's: not executed (Kempelen has no ROM), but charged. When the
//! interrupt is due and the CPU takes interrupts (Z80 IFF1, 6502 I clear) at the end of an
//! instruction, the timer adds the acknowledge and the routine's cycles; while the CPU does
//! not take them it looks again after every instruction until the line drops (`length`).

use super::{TimerStats, TimingModel};
use crate::Cpu;
use std::cell::Cell;

/// Enough cycles before an event to be sure no instruction passes it unseen: the longest Z80
/// instruction with an interrupt acknowledge in the same step (23 + 19)...
const LOOKAHEAD_Z80: u64 = 48;
/// ... and the longest 6502 one with an interrupt sequence (7 + 7).
const LOOKAHEAD_6502: u64 = 16;

/// A span of a frame the display takes: `[start - lead, end)` in ticks from the frame's start.
#[derive(Debug, Clone, Copy)]
struct Window {
    start: u64,
    end: u64,
    lead: u64,
}

/// See the module documentation.
#[derive(Debug, Clone)]
pub(crate) struct Timer {
    pub(crate) model: &'static TimingModel,
    per_access: bool,
    frame: u64,
    cycle_ticks: u64,
    /// Machine ticks since the machine was built.
    pos: u64,
    /// By events: the run's CPU cycle count at `pos`.
    at_cycles: u64,
    /// CPU cycles since the machine was built, at `pos` (the long cycles' phase).
    total_cycles: u64,
    /// The step loop stops once the run's CPU cycles reach this (by events).
    next_cycles: u64,
    /// By events: the last instruction ended near an event, so take the next one singly.
    stepping: bool,
    /// By access: the tick at which the next event is due.
    next_tick: u64,
    /// One frame's DMA windows, sorted.
    windows: Vec<Window>,
    /// Cycles before an event from which the instructions are taken one by one.
    lookahead: u64,
    /// Some window has a lead-in (a 6502 on RDY): the windows are then taken instruction by
    /// instruction.
    lead_windows: bool,
    /// The tick of the next interrupt.
    irq_next: u64,
    /// An interrupt not taken yet, and the tick its line drops.
    irq_pending: Option<u64>,
    /// Contended addresses, one bit each.
    contended: Vec<u64>,
    /// By access: the model's contention (memory, I/O), slot and M1 wait, looked up once.
    ula: bool,
    ula_io: bool,
    align_every: u64,
    m1_wait: u64,
    /// The contention delay at each tick of a frame (empty without contention).
    delay: Box<[u8]>,
    /// The tick at which the frame `pos` lies in began (by access).
    frame_base: u64,
    /// Per opcode, which of its cycles are writes (bit 0: the last); 6502 only.
    writes: [u8; 256],
    stats: TimerStats,
}

impl Timer {
    pub(crate) fn new(model: &'static TimingModel, cpu: Cpu) -> Timer {
        let frame = model.frame();
        let mut windows = Vec::new();
        for d in &model.dma {
            let mut line = d.lines[0];
            while line <= d.lines[1] {
                let base = u64::from(line) * u64::from(model.line);
                windows.push(Window {
                    start: base + u64::from(d.at),
                    end: base + u64::from(d.at + d.ticks),
                    lead: u64::from(d.lead),
                });
                line += d.every;
            }
        }
        windows.sort_by_key(|w| w.start);
        let mut contended = vec![0u64; 1024];
        if let Some(c) = &model.contention {
            for r in &c.memory {
                for a in usize::from(r[0])..=usize::from(r[1]) {
                    contended[a / 64] |= 1 << (a % 64);
                }
            }
        }
        let delay: Box<[u8]> = match &model.contention {
            Some(c) => (0..frame)
                .map(|t| {
                    let first = u64::from(c.first);
                    if t < first {
                        return 0;
                    }
                    let line = (t - first) / u64::from(model.line);
                    let x = (t - first) % u64::from(model.line);
                    if line >= u64::from(c.lines) || x >= u64::from(c.width) {
                        0
                    } else {
                        c.pattern[(x % c.pattern.len() as u64) as usize] as u8
                    }
                })
                .collect(),
            None => Box::new([]),
        };
        let irq_next = model
            .interrupt
            .as_ref()
            .map_or(u64::MAX, |i| u64::from(i.at));
        let mut writes = [0; 256];
        if cpu.is_6502_family() {
            for (op, w) in writes.iter_mut().enumerate() {
                *w = crate::cpu_rules::mos6502::write_cycles(cpu, op as u8);
            }
        }
        let mut t = Timer {
            model,
            per_access: model.per_access(),
            frame,
            cycle_ticks: u64::from(model.cycle_ticks),
            pos: 0,
            at_cycles: 0,
            total_cycles: 0,
            next_cycles: u64::MAX,
            stepping: false,
            next_tick: u64::MAX,
            lookahead: if cpu.is_6502_family() {
                LOOKAHEAD_6502
            } else {
                LOOKAHEAD_Z80
            },
            lead_windows: windows.iter().any(|w| w.lead > 0),
            windows,
            irq_next,
            irq_pending: None,
            contended,
            ula: model.contention.is_some(),
            ula_io: model.contention.as_ref().is_some_and(|c| c.io),
            align_every: model.align.as_ref().map_or(0, |a| u64::from(a.every)),
            m1_wait: model.m1_wait.map_or(0, u64::from),
            delay,
            frame_base: 0,
            writes,
            stats: TimerStats::default(),
        };
        t.plan(0);
        t
    }

    /// Machine ticks since the machine was built.
    pub(crate) fn pos(&self) -> u64 {
        self.pos
    }

    /// Where the time went so far.
    pub(crate) fn stats(&self) -> TimerStats {
        self.stats
    }

    /// The CPU cycle count at which the step loop must stop for the timer.
    pub(crate) fn next_cycles(&self) -> u64 {
        self.next_cycles
    }

    /// Moves the machine to tick `tick` of the current frame (a test measures a piece of code
    /// at a given moment of the display); the next interrupt is the first after it.
    pub(crate) fn set_frame_position(&mut self, tick: u64) {
        let frame_start = self.pos - self.pos % self.frame;
        self.pos = frame_start + tick % self.frame;
        self.frame_base = frame_start;
        self.irq_pending = None;
        if let Some(irq) = &self.model.interrupt {
            let period = irq.period.map_or(self.frame, u64::from);
            let mut next = frame_start + u64::from(irq.at);
            while next < self.pos {
                next += period;
            }
            self.irq_next = next;
        }
        let cycles = self.at_cycles;
        self.plan(cycles);
    }

    /// A new run starts: its cycle count starts at 0.
    pub(crate) fn begin_run(&mut self) {
        self.at_cycles = 0;
        self.plan(0);
    }

    /// The run continues from `cycles` (a run resumed with `run_more`).
    pub(crate) fn resume_run(&mut self, cycles: u64) {
        self.at_cycles = cycles;
        self.plan(cycles);
    }

    /// Cycles spent outside the CPU (a host trap's routine), at run cycle `cycles` (after
    /// adding them).
    pub(crate) fn charge(&mut self, added: u64, cycles: u64) {
        if self.per_access {
            self.pos += added * self.cycle_ticks;
            self.total_cycles += added;
            self.at_cycles = cycles;
        }
    }

    /// Ticks at run cycle `cycles` if nothing happens on the way (the plain advance).
    fn plain(&mut self, cycles: u64) {
        let n = cycles.saturating_sub(self.at_cycles);
        if self.windows.is_empty() {
            self.pos += n * self.cycle_ticks;
        } else {
            self.advance_free(n);
        }
        if let Some(s) = &self.model.stretch {
            let every = u64::from(s.every);
            let long = (self.total_cycles + n) / every - self.total_cycles / every;
            let extra = long * u64::from(s.extra);
            self.pos += extra;
            self.stats.stretch_ticks += extra;
        }
        self.total_cycles += n;
        self.at_cycles = cycles;
    }

    /// Moves `pos` over `n` CPU cycles laid onto the free ticks of the frame, the windows
    /// skipped whole (windows without a lead-in: whatever the cycle does, it waits; the
    /// windows with one are taken instruction by instruction, see [`Timer::lay`]).
    fn advance_free(&mut self, n: u64) {
        let mut left = n * self.cycle_ticks;
        while left > 0 {
            match self.window_from(self.pos) {
                Some((_, start, end)) if self.pos >= start => {
                    self.stats.dma_ticks += end - self.pos;
                    self.pos = end;
                }
                Some((_, start, _)) if start - self.pos < left => {
                    left -= start - self.pos;
                    self.pos = start;
                }
                _ => {
                    self.pos += left;
                    left = 0;
                }
            }
        }
    }

    /// CPU cycles that fit in the free ticks from `pos` to `event` (the windows without a
    /// lead-in left out), at most `cap`.
    fn free_cycles_until(&self, event: u64, cap: u64) -> u64 {
        let (mut t, mut free) = (self.pos, 0);
        while t < event && free < cap {
            match self.window_from(t) {
                Some((_, start, end)) if t >= start => t = end,
                Some((_, start, _)) if start < event => {
                    free += start - t;
                    t = start;
                }
                _ => {
                    free += event - t;
                    t = event;
                }
            }
        }
        free / self.cycle_ticks
    }

    /// The window that holds or follows tick `t`, as absolute ticks `(from, start, end,
    /// lead)` where `from = start - lead`.
    fn window_from(&self, t: u64) -> Option<(u64, u64, u64)> {
        if self.windows.is_empty() {
            return None;
        }
        let frame_start = t - t % self.frame;
        let in_frame = t % self.frame;
        // The first window that ends after `t` in this frame, or the first of the next.
        let i = self.windows.partition_point(|w| w.end <= in_frame);
        let (w, base) = match self.windows.get(i) {
            Some(w) => (w, frame_start),
            None => (&self.windows[0], frame_start + self.frame),
        };
        Some((base + w.start - w.lead, base + w.start, base + w.end))
    }

    /// Lays `n` CPU cycles, the last `writes` of them (bit 0 = last) writes, onto the frame
    /// from `pos`: a cycle in a window's stolen span waits for its end; in its lead-in a
    /// write goes on and a read waits.
    fn lay(&mut self, n: u64, writes: u8) {
        for k in 0..n {
            let from_end = n - 1 - k;
            let write = from_end < 8 && writes & (1 << from_end) != 0;
            // Windows may follow one another (whole lines): wait until none holds the bus.
            while let Some((from, start, end)) = self.window_from(self.pos) {
                let blocked = self.pos >= start || (self.pos >= from && !write);
                if !(blocked && self.pos < end) {
                    break;
                }
                self.stats.dma_ticks += end - self.pos;
                self.pos = end;
            }
            self.pos += self.cycle_ticks;
        }
        self.total_cycles += n;
    }

    /// The step loop stopped for the timer (or for anything else) with the run at `cycles`,
    /// at the end of an instruction whose first opcode byte was `op`; `accepts`: the CPU
    /// takes an interrupt now. Brings `pos` up to date, takes a due interrupt, and plans the
    /// next stop.
    pub(crate) fn settle(&mut self, cycles: u64, op: u8, accepts: bool) {
        self.advance(cycles, op);
        self.interrupt(accepts);
        self.plan(cycles);
    }

    /// The run ended with the run at `cycles`: brings `pos` up to date (an interrupt raised
    /// during the last instruction is taken when the machine runs again, if it does).
    pub(crate) fn settle_end(&mut self, cycles: u64, op: u8) {
        self.advance(cycles, op);
        self.plan(cycles);
    }

    /// Brings `pos` up to the run at `cycles`.
    fn advance(&mut self, cycles: u64, op: u8) {
        if self.per_access {
            self.at_cycles = cycles;
        } else if self.stepping {
            let n = cycles.saturating_sub(self.at_cycles);
            self.lay(n, self.writes[usize::from(op)]);
            self.at_cycles = cycles;
        } else {
            self.plain(cycles);
        }
    }

    /// Takes the interrupt if it is due and the CPU takes it.
    fn interrupt(&mut self, accepts: bool) {
        let Some(irq) = &self.model.interrupt else {
            return;
        };
        // Raised during (or before) the instruction that just ended.
        while self.pos > self.irq_next {
            let drop = irq
                .length
                .map_or(u64::MAX, |l| self.irq_next + u64::from(l));
            self.irq_pending = Some(drop);
            let period = irq.period.map_or(self.frame, u64::from);
            self.irq_next += period;
        }
        if let Some(drop) = self.irq_pending {
            if accepts {
                self.irq_pending = None;
                let before = self.pos;
                let cycles = u64::from(irq.ack + irq.routine);
                if self.per_access {
                    self.pos += cycles * self.cycle_ticks;
                    self.total_cycles += cycles;
                } else {
                    // The routine reads as it runs: it waits for the display like a read.
                    self.lay(cycles, 0);
                }
                self.stats.interrupts += 1;
                self.stats.interrupt_ticks += self.pos - before;
                // A routine longer than the period lets the next one wait until it returns.
            } else if self.pos >= drop {
                self.irq_pending = None;
            }
        }
    }

    /// Plans the next stop from the run at `cycles` (`pos` is current).
    fn plan(&mut self, cycles: u64) {
        let pending = self.irq_pending.is_some();
        let mut event = self.irq_next;
        // Only windows with a lead-in need the instructions one by one; the others are
        // skipped whole by the plain advance.
        if self.lead_windows {
            if let Some((from, _, end)) = self.window_from(self.pos) {
                if self.pos >= from && self.pos < end {
                    event = self.pos;
                } else {
                    event = event.min(from);
                }
            }
        }
        if self.per_access {
            self.next_tick = if pending { self.pos } else { event };
            self.next_cycles = u64::MAX;
            return;
        }
        let ahead = if event == u64::MAX {
            u64::MAX
        } else if self.windows.is_empty() || self.lead_windows {
            event.saturating_sub(self.pos) / self.cycle_ticks
        } else {
            self.free_cycles_until(event, self.lookahead + (1 << 40))
        };
        if pending || ahead <= self.lookahead {
            self.stepping = true;
            self.next_cycles = cycles;
        } else {
            self.stepping = false;
            self.next_cycles = if event == u64::MAX {
                u64::MAX
            } else {
                cycles + (ahead - self.lookahead)
            };
        }
    }

    /// Whether `pos` has reached the next event (by access): the bus then stops the loop.
    #[inline]
    fn check(&self, stop_at: &Cell<u64>) {
        if self.pos >= self.next_tick {
            stop_at.set(0);
        }
    }

    /// The ULA's delay for an access at `pos`.
    #[inline]
    fn contention_delay(&mut self) -> u64 {
        if self.pos < self.frame_base {
            self.frame_base = self.pos - self.pos % self.frame;
        }
        let mut t = self.pos - self.frame_base;
        while t >= self.frame {
            self.frame_base += self.frame;
            t -= self.frame;
        }
        u64::from(self.delay[t as usize])
    }

    #[inline]
    fn is_contended(&self, addr: u16) -> bool {
        let a = usize::from(addr);
        self.contended[a / 64] & (1 << (a % 64)) != 0
    }

    /// Waits for contention at `pos` if `addr` is contended.
    #[inline]
    fn contend(&mut self, addr: u16) {
        if self.ula && self.is_contended(addr) {
            let d = self.contention_delay();
            self.pos += d;
            self.stats.wait_ticks += d;
        }
    }

    /// Waits for the next slot: the cycle's sampling tick, `sample` ticks in, must fall on a
    /// multiple of the alignment.
    #[inline]
    fn align(&mut self, sample: u64) {
        let every = self.align_every;
        if every != 0 {
            let w = (every - (self.pos + sample) % every) % every;
            self.pos += w;
            self.stats.wait_ticks += w;
        }
    }

    /// A memory cycle of `clk` T-states at `addr` (4: an M1 opcode fetch).
    #[inline]
    pub(crate) fn mreq(&mut self, addr: u16, clk: u32, stop_at: &Cell<u64>) {
        self.contend(addr);
        self.align(1);
        if clk == 4 && self.m1_wait != 0 {
            self.pos += self.m1_wait;
            self.stats.wait_ticks += self.m1_wait;
        }
        self.pos += u64::from(clk);
        self.check(stop_at);
    }

    /// One T-state with `addr` on the address bus and no memory request.
    #[inline]
    pub(crate) fn no_mreq(&mut self, addr: u16, stop_at: &Cell<u64>) {
        self.contend(addr);
        self.pos += 1;
        self.check(stop_at);
    }

    /// `clk` T-states inside the CPU.
    #[inline]
    pub(crate) fn internal(&mut self, clk: u32, stop_at: &Cell<u64>) {
        self.pos += u64::from(clk);
        self.check(stop_at);
    }

    /// An I/O cycle (4 T-states with the Z80's automatic wait) at `port`.
    pub(crate) fn io(&mut self, port: u16, stop_at: &Cell<u64>) {
        if self.ula_io {
            // The ZX Spectrum's I/O contention: the high byte on the address lines is
            // contended like memory; the ULA answers even ports and is contended then.
            let high = self.is_contended(port & 0xFF00);
            let even = port & 1 == 0;
            let c = |timer: &mut Timer, ticks: u64| {
                let d = timer.contention_delay();
                timer.pos += d + ticks;
                timer.stats.wait_ticks += d;
            };
            match (high, even) {
                (true, true) => {
                    c(self, 1);
                    c(self, 3);
                }
                (true, false) => {
                    for _ in 0..4 {
                        c(self, 1);
                    }
                }
                (false, true) => {
                    self.pos += 1;
                    c(self, 3);
                }
                (false, false) => self.pos += 4,
            }
        } else {
            self.align(2);
            self.pos += 4;
        }
        self.check(stop_at);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timing::machine_timing;

    fn model(machine: &str, id: &str) -> &'static TimingModel {
        machine_timing(machine).unwrap().model(id).unwrap()
    }

    #[test]
    fn the_ula_pattern_repeats_every_8_t_states_over_128_of_each_display_line() {
        let mut t = Timer::new(model("zx-spectrum", "48k"), Cpu::Z80);
        let delay_at = |t: &mut Timer, tick: u64| {
            t.pos = tick;
            t.contention_delay()
        };
        let first = 14335;
        let seen: Vec<u64> = (0..16).map(|k| delay_at(&mut t, first + k)).collect();
        assert_eq!(seen, [6, 5, 4, 3, 2, 1, 0, 0, 6, 5, 4, 3, 2, 1, 0, 0]);
        assert_eq!(delay_at(&mut t, first - 1), 0, "the top border");
        assert_eq!(delay_at(&mut t, first + 128), 0, "the right border");
        assert_eq!(delay_at(&mut t, first + 224), 6, "the next line");
        assert_eq!(delay_at(&mut t, first + 191 * 224 + 127), 0);
        assert_eq!(delay_at(&mut t, first + 191 * 224 + 120), 6);
        assert_eq!(delay_at(&mut t, first + 192 * 224), 0, "the bottom border");
        assert_eq!(delay_at(&mut t, 69_888 + first), 6, "the next frame");
    }

    #[test]
    fn the_interrupt_due_at_the_frame_start_stops_the_loop_at_the_first_access() {
        let mut t = Timer::new(model("zx-spectrum", "48k"), Cpu::Z80);
        let stop = Cell::new(u64::MAX);
        t.mreq(0x8000, 4, &stop);
        assert_eq!((t.pos(), stop.get()), (4, 0));
        t.settle(4, 0, true);
        assert_eq!(t.pos(), 4 + 13 + 882, "taken: acknowledge and MASK-INT");
        stop.set(u64::MAX);
        t.mreq(0x8000, 4, &stop);
        assert_eq!(stop.get(), u64::MAX, "the next interrupt is a frame away");
    }
}
