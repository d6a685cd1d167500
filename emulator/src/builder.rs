//! [`MachineBuilder`]: CPU, core, memory map, program, entry point, stack pointer, and the
//! checks that make a [`Machine`] from them.

use crate::bus_impl::{AllMemory, MachineBus, Timed, Z80Memory};
use crate::clock::{ClockProfile, default_machine};
use crate::core::{Cmos65c02Core, Core, Mos6502Core, RustzxCore, Z80Core};
use crate::cpu_rules::{OpcodeRules, class_table};
use crate::machine::{CoreKind, Machine};
use crate::memory::{AddrRange, ConfigError, MemoryMap, RegionKind};
use crate::stack::StackCheck;
use crate::step::{RunState, Runner};
use crate::timing::TimingModel;
use crate::timing::timer::Timer;
use crate::traps::Trap;
use crate::{Bus, Cpu, SymbolTable};

#[derive(Debug, Clone)]
pub struct MachineBuilder {
    pub(crate) cpu: Cpu,
    pub(crate) core: CoreKind,
    pub(crate) map: MemoryMap,
    pub(crate) images: Vec<(u16, Vec<u8>)>,
    pub(crate) entry: Option<u16>,
    pub(crate) sp: Option<u16>,
    pub(crate) opcodes: OpcodeRules,
    pub(crate) checked_steps: bool,
    pub(crate) symbols: Option<SymbolTable>,
    pub(crate) clock: &'static ClockProfile,
    pub(crate) traps: Vec<Trap>,
    pub(crate) fills: Vec<(u16, Vec<u8>)>,
    pub(crate) mirrors: Vec<(AddrRange, u16)>,
    pub(crate) overlap: kempelen_isa::Overlap,
    pub(crate) timing: Option<&'static TimingModel>,
}

/// The way to a machine starts here (so that `machine` needs nothing of its builder).
impl MachineBuilder {
    /// Starts building a machine for `cpu` with the default core and memory map.
    pub fn new(cpu: Cpu) -> Self {
        MachineBuilder {
            cpu,
            core: CoreKind::default_for(cpu),
            map: MemoryMap::default_for(cpu),
            images: Vec::new(),
            entry: None,
            sp: None,
            opcodes: OpcodeRules::default(),
            checked_steps: false,
            symbols: None,
            clock: default_machine(cpu),
            traps: Vec::new(),
            fills: Vec::new(),
            mirrors: Vec::new(),
            overlap: kempelen_isa::Overlap::Error,
            timing: None,
        }
    }
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

    /// What [`MachineBuilder::build`] does when two images share addresses: refuse
    /// ([`Overlap::Error`](kempelen_isa::Overlap), the default, as the assembler refuses
    /// overlapping `ORG` areas) or let the later image's bytes win.
    pub fn overlap(mut self, overlap: kempelen_isa::Overlap) -> Self {
        self.overlap = overlap;
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
        self.opcodes.allow_undocumented = allow;
        self
    }

    /// Whether a 6502 `BRK` ends the run (the default, [`StopReason::Brk`](crate::stats::StopReason::Brk)) or executes as
    /// the CPU defines it, through the IRQ vector (test programs such as Klaus Dormann's
    /// functional test exercise it).
    pub fn stop_on_brk(mut self, stop: bool) -> Self {
        self.opcodes.stop_on_brk = stop;
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

    /// Runs under a timing model ([`crate::timing`]): runs report the machine's time under
    /// it, `--realtime` paces to it, and the CPU starts in the state the model's ROM leaves a
    /// program in. A model that needs every access (contention, alignment, wait states)
    /// runs the Z80 on the `rustzx-z80` core, which reports them (same cycles). `None`: the
    /// CPU clock only (the default).
    pub fn timing(mut self, model: Option<&'static TimingModel>) -> Self {
        self.timing = model;
        self
    }

    /// Host traps (see [`crate::traps`]). On the Z80 they need a core that shows every
    /// register: with traps the default core becomes [`CoreKind::RustzxZ80`] (same cycles).
    pub fn traps(mut self, traps: Vec<Trap>) -> Self {
        self.traps = traps;
        self
    }

    /// Memory contents the machine has at start (ROM vectors, page-zero jumps), written as
    /// the host after the program is loaded; not part of the program.
    pub fn fill(mut self, addr: u16, bytes: &[u8]) -> Self {
        self.fills.push((addr, bytes.to_vec()));
        self
    }

    /// Makes `range` a copy of the bytes at `of` (address lines a machine does not decode):
    /// copied after loading and filling; `range` must be ROM, so the copy stays exact.
    pub fn mirror(mut self, range: AddrRange, of: u16) -> Self {
        self.mirrors.push((range, of));
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
        if self.images.iter().all(|(_, bytes)| bytes.is_empty()) {
            return Err(ConfigError::NoProgram);
        }
        let ranges: Vec<AddrRange> = self
            .images
            .iter()
            .filter(|(_, b)| !b.is_empty())
            .map(|(a, b)| {
                AddrRange::new(*a, a.wrapping_add((b.len() - 1) as u16))
                    .filter(|_| usize::from(*a) + b.len() <= 0x10000)
                    .ok_or(ConfigError::ImageTooLarge {
                        addr: *a,
                        len: b.len(),
                    })
            })
            .collect::<Result<_, _>>()?;
        if self.overlap == kempelen_isa::Overlap::Error {
            for (i, second) in ranges.iter().enumerate() {
                if let Some(first) = ranges[..i].iter().find(|f| f.overlaps(second)) {
                    return Err(ConfigError::ImagesOverlap {
                        first: *first,
                        second: *second,
                    });
                }
            }
        }
        let mut bus = MachineBus::new(self.cpu, &self.map);
        bus.set_traps(self.traps.iter().map(|t| t.at).collect());
        let per_access = self.timing.is_some_and(|m| m.per_access());
        if let Some(model) = self.timing {
            let machine = crate::clock::machine(&model.machine);
            if machine.is_some_and(|m| m.cpu.is_6502_family() != self.cpu.is_6502_family()) {
                return Err(ConfigError::TimingMismatch {
                    model: model.full_id(),
                    why: "its machine has another CPU",
                });
            }
            if per_access && self.cpu != Cpu::Z80 {
                return Err(ConfigError::TimingMismatch {
                    model: model.full_id(),
                    why: "per-access timing exists for the Z80 only",
                });
            }
            bus.timer = Some(Box::new(Timer::new(model, self.cpu)));
        }
        let kind = match self.core {
            CoreKind::Z80 if !self.traps.is_empty() || per_access => CoreKind::RustzxZ80,
            k => k,
        };
        if per_access && kind != CoreKind::RustzxZ80 {
            return Err(ConfigError::TimingMismatch {
                model: self.timing.map(|m| m.full_id()).unwrap_or_default(),
                why: "it needs the rustzx-z80 core, which reports every access",
            });
        }
        let class = class_table(self.cpu, self.opcodes, |p| bus.plain_page(p));
        let core: Box<dyn Runner + Send> = match kind {
            // A map of nothing but RAM and ROM has no read to check or count.
            CoreKind::Z80 if bus.all_memory() => Box::new(Z80Core::new(AllMemory(bus))),
            CoreKind::Z80 => Box::new(Z80Core::new(Z80Memory(bus))),
            CoreKind::RustzxZ80 if per_access && bus.all_memory() => {
                Box::new(RustzxCore::new(Timed(AllMemory(bus))))
            }
            CoreKind::RustzxZ80 if per_access => Box::new(RustzxCore::new(Timed(Z80Memory(bus)))),
            CoreKind::RustzxZ80 if bus.all_memory() => Box::new(RustzxCore::new(AllMemory(bus))),
            CoreKind::RustzxZ80 => Box::new(RustzxCore::new(Z80Memory(bus))),
            CoreKind::Mos6502 => Box::new(Mos6502Core::<_>::new(bus)),
            CoreKind::Cmos65c02 => Box::new(Cmos65c02Core::new(bus)),
        };
        let mut m = Machine {
            cpu: self.cpu,
            kind,
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
            timing: self.timing,
            run_start: (0, Default::default()),
            total_cycles: 0,
            total_instructions: 0,
            traps: self.traps.clone(),
            trap_state: Default::default(),
            run_wall: Default::default(),
            run_begun: false,
        };
        let class = m.st.class;
        m.core.bus_mut().set_classes(class);
        for (addr, bytes) in &self.images {
            m.load(*addr, bytes)?;
        }
        for (addr, bytes) in &self.fills {
            if usize::from(*addr) + bytes.len() > 0x10000 {
                return Err(ConfigError::ImageTooLarge {
                    addr: *addr,
                    len: bytes.len(),
                });
            }
            m.write_bytes(*addr, bytes)?;
        }
        for (range, of) in &self.mirrors {
            if u32::from(*of) + range.len() > 0x10000 {
                return Err(ConfigError::ImageTooLarge {
                    addr: *of,
                    len: range.len() as usize,
                });
            }
            for (i, a) in range.indices().enumerate() {
                if m.map.region_at(a as u16).map(|r| r.kind) != Some(RegionKind::Rom) {
                    return Err(ConfigError::NotMemory {
                        addr: a as u16,
                        what: "not ROM (a mirror must be ROM)",
                    });
                }
                let b = m.read_byte(of.wrapping_add(i as u16));
                m.write_byte(a as u16, b)?;
            }
        }
        let entry = self.entry.unwrap_or_else(|| {
            let covers_vector = m
                .program
                .iter()
                .any(|r| r.contains(0xFFFC) && r.contains(0xFFFD));
            if self.cpu.is_6502_family() && covers_vector {
                m.read_word(0xFFFC)
            } else {
                self.images[0].0
            }
        });
        m.set_pc(entry);
        let sp = self.sp.unwrap_or(match (self.cpu, m.map.stack) {
            (Cpu::Z80, Some(s)) => s.end.wrapping_add(1),
            (Cpu::Mos6502 | Cpu::Cmos65c02, Some(s)) => s.end & 0xFF,
            (Cpu::Z80, None) => 0x0000,
            (Cpu::Mos6502 | Cpu::Cmos65c02, None) => 0x00FF,
        });
        m.set_sp(sp);
        if let Some(start) = self.timing.and_then(|t| t.start.as_ref()) {
            m.core.set_start_state(start.interrupts, start.im, start.i);
        }
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
