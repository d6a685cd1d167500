//! The emulator benchmark: emulated MHz through the machine layer against the bare crates.
//!
//! The workload is the BYTE sieve of Eratosthenes (8192 flags, 1899 primes), written for each
//! CPU (sources in `emulator/benches/workloads/`). The same bytes run twice in one process:
//! on the bare crate with a minimal bus (64 KB array, a flag for the host call) and on the
//! [`Machine`](crate::Machine) with everything a normal run has, on the default memory map: the cycle budget,
//! ROM-write and unmapped-write detection, the opcode checks, the PC inside the program, the
//! stack region, jumps to themselves, the RAM profile and the ring of recent instructions.
//! Both runs must count the same cycles; the overhead is the machine's extra time. `cargo
//! bench -p kempelen-emulator` times them (CPU time of the thread where the host provides it,
//! so time spent waiting for a core does not count) and prints the table; the `workload`
//! example runs one of them once, for counting host instructions with callgrind.

use crate::timing::TimingModel;
use crate::{CoreKind, Cpu, MachineBuilder};
use mos6502::cpu::CPU;
use mos6502::instruction::Nmos6502;

/// A fixed benchmark program.
#[derive(Debug, Clone, Copy)]
pub struct Workload {
    /// Name for reports.
    pub name: &'static str,
    /// CPU.
    pub cpu: Cpu,
    /// Load and entry address.
    pub origin: u16,
    /// The program.
    pub code: &'static [u8],
    /// Where the program leaves the prime count of its last pass (little-endian word).
    pub result_addr: u16,
}

/// `sieve-z80.asm` assembled (200 passes).
pub const Z80_SIEVE: Workload = Workload {
    name: "sieve (Z80, 200 passes)",
    cpu: Cpu::Z80,
    origin: 0x0000,
    code: &[
        0x21, 0xC8, 0x00, 0x22, 0x00, 0x40, 0xCD, 0x17, 0x00, 0x2A, 0x00, 0x40, 0x2B, 0x22, 0x00,
        0x40, 0x7C, 0xB5, 0x20, 0xF2, 0xAF, 0xD3, 0xFF, 0x21, 0x00, 0x80, 0x11, 0x01, 0x80, 0x01,
        0xFF, 0x1F, 0x36, 0x01, 0xED, 0xB0, 0xDD, 0x21, 0x00, 0x00, 0x11, 0x00, 0x80, 0x1A, 0xB7,
        0x28, 0x15, 0x62, 0x6B, 0x29, 0x23, 0x23, 0x23, 0x44, 0x4D, 0x19, 0x7C, 0xFE, 0xA0, 0x30,
        0x05, 0x36, 0x00, 0x09, 0x18, 0xF6, 0xDD, 0x23, 0x13, 0x7A, 0xFE, 0xA0, 0x38, 0xE1, 0xDD,
        0x22, 0x02, 0x40, 0xC9,
    ],
    result_addr: 0x4002,
};

/// `sieve-6502.asm` assembled (60 passes), code only (entry `$C000`).
pub const MOS6502_SIEVE: Workload = Workload {
    name: "sieve (6502, 60 passes)",
    cpu: Cpu::Mos6502,
    origin: 0xC000,
    code: &[
        0xA9, 0x3C, 0x85, 0x06, 0xA9, 0x00, 0x85, 0x07, 0x20, 0x1C, 0xC0, 0xA5, 0x06, 0xD0, 0x02,
        0xC6, 0x07, 0xC6, 0x06, 0xA5, 0x06, 0x05, 0x07, 0xD0, 0xEF, 0x8D, 0xFF, 0xBF, 0xA9, 0x00,
        0x85, 0x00, 0xA9, 0x20, 0x85, 0x01, 0xA0, 0x00, 0xA9, 0x01, 0x91, 0x00, 0xC8, 0xD0, 0xFB,
        0xE6, 0x01, 0xA6, 0x01, 0xE0, 0x40, 0xD0, 0xF3, 0xA9, 0x00, 0x85, 0x08, 0x85, 0x09, 0xA9,
        0x20, 0x85, 0x01, 0xA0, 0x00, 0xB1, 0x00, 0xF0, 0x46, 0xA5, 0x01, 0x38, 0xE9, 0x20, 0x85,
        0x03, 0xA5, 0x00, 0x0A, 0x85, 0x02, 0x26, 0x03, 0x18, 0xA5, 0x02, 0x69, 0x03, 0x85, 0x02,
        0x90, 0x02, 0xE6, 0x03, 0x18, 0xA5, 0x00, 0x65, 0x02, 0x85, 0x04, 0xA5, 0x01, 0x65, 0x03,
        0x85, 0x05, 0xA5, 0x05, 0xC9, 0x40, 0xB0, 0x14, 0xA9, 0x00, 0x91, 0x04, 0x18, 0xA5, 0x04,
        0x65, 0x02, 0x85, 0x04, 0xA5, 0x05, 0x65, 0x03, 0x85, 0x05, 0x4C, 0x6B, 0xC0, 0xE6, 0x08,
        0xD0, 0x02, 0xE6, 0x09, 0xE6, 0x00, 0xD0, 0x02, 0xE6, 0x01, 0xA5, 0x01, 0xC9, 0x40, 0xD0,
        0xA8, 0x60,
    ],
    result_addr: 0x0008,
};

/// What one run of a workload did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// Emulated cycles.
    pub cycles: u64,
    /// The prime count the program left in memory.
    pub result: u16,
}

/// A flat 64 KB bus for the bare crates: the host call is the only device.
struct BareBus {
    mem: Box<[u8; 0x10000]>,
    done: bool,
}

impl BareBus {
    fn new(w: &Workload) -> Self {
        let mut mem: Box<[u8; 0x10000]> = vec![0u8; 0x10000].into_boxed_slice().try_into().unwrap();
        let o = usize::from(w.origin);
        mem[o..o + w.code.len()].copy_from_slice(w.code);
        BareBus { mem, done: false }
    }
}

impl z80::Z80_io for BareBus {
    #[inline(always)]
    fn read_byte(&self, addr: u16) -> u8 {
        self.mem[usize::from(addr)]
    }
    #[inline(always)]
    fn write_byte(&mut self, addr: u16, value: u8) {
        self.mem[usize::from(addr)] = value;
    }
    fn port_out(&mut self, addr: u16, _value: u8) {
        if addr as u8 == 0xFF {
            self.done = true;
        }
    }
}

impl mos6502::memory::Bus for BareBus {
    #[inline(always)]
    fn get_byte(&mut self, addr: u16) -> u8 {
        self.mem[usize::from(addr)]
    }
    #[inline(always)]
    fn set_byte(&mut self, addr: u16, value: u8) {
        if addr == 0xBFFF {
            self.done = true;
        } else {
            self.mem[usize::from(addr)] = value;
        }
    }
}

/// Runs `w` on the bare crate (`z80` or `mos6502`) with a minimal bus.
pub fn run_bare(w: &Workload) -> Outcome {
    let bus = BareBus::new(w);
    let (cycles, mem) = match w.cpu {
        Cpu::Z80 => {
            let mut io = bus;
            let mut cpu = z80::Z80::new();
            cpu.init();
            cpu.pc = w.origin;
            cpu.sp = 0x0000;
            let mut cycles = 0u64;
            while !io.done {
                cycles += u64::from(cpu.step(&mut io));
            }
            (cycles, io.mem)
        }
        // The workloads are NMOS code; the 65C02 runs them the same way.
        Cpu::Mos6502 | Cpu::Cmos65c02 => {
            let mut cpu = CPU::new(bus, Nmos6502);
            cpu.registers.program_counter = w.origin;
            cpu.registers.stack_pointer.0 = 0xFF;
            while !cpu.memory.done {
                cpu.single_step();
            }
            (cpu.cycles, cpu.memory.mem)
        }
    };
    let r = usize::from(w.result_addr);
    Outcome {
        cycles,
        result: u16::from_le_bytes([mem[r], mem[r + 1]]),
    }
}

/// Runs `w` on Kempelen's [`Machine`](crate::Machine) with the default memory map and core.
pub fn run_machine(w: &Workload) -> Outcome {
    run_with(w, None, None).0
}

/// Runs `w` on the machine with the default memory map under the timing model `model` (or
/// none), on `core` (or the one the model asks for), and returns the outcome and the
/// machine ticks of the model.
pub fn run_with(
    w: &Workload,
    model: Option<&'static TimingModel>,
    core: Option<CoreKind>,
) -> (Outcome, Option<u64>) {
    let mut b = MachineBuilder::new(w.cpu)
        .load(w.origin, w.code)
        .entry(w.origin)
        .timing(model);
    if let Some(core) = core {
        b = b.core(core);
    }
    let mut m = b.build().expect("workload fits the default map");
    let stats = m.run(u64::MAX).expect("workload runs to its host call");
    assert!(stats.is_done());
    let outcome = Outcome {
        cycles: stats.cycles,
        result: m.read_word(w.result_addr),
    };
    (outcome, stats.machine_time.map(|t| t.ticks))
}

/// The timing models `cargo bench` measures on a workload of `cpu`: each machine's default
/// model (and the named ones) whose machine has that CPU.
pub fn models_for(cpu: Cpu) -> Vec<&'static TimingModel> {
    crate::timing::all()
        .iter()
        .filter(|t| {
            crate::clock::machine(&t.machine)
                .is_some_and(|m| m.cpu.is_6502_family() == cpu.is_6502_family())
        })
        .flat_map(|t| t.models.iter())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn z80_sieve_finds_1899_primes_with_the_same_cycles_bare_and_in_the_machine() {
        let bare = run_bare(&Z80_SIEVE);
        let machine = run_machine(&Z80_SIEVE);
        assert_eq!(bare.result, 1899);
        assert_eq!(machine.result, 1899);
        assert_eq!(bare.cycles, machine.cycles);
    }

    /// `w` with `passes` passes of the sieve instead of its own (the count is the first
    /// instruction's operand).
    fn fewer_passes(w: &Workload, passes: u8) -> Workload {
        let mut code = w.code.to_vec();
        code[1] = passes;
        Workload {
            code: Box::leak(code.into_boxed_slice()),
            ..*w
        }
    }

    #[test]
    fn every_timing_model_runs_the_sieve_with_the_same_cycles_and_takes_longer() {
        for w in [fewer_passes(&Z80_SIEVE, 3), fewer_passes(&MOS6502_SIEVE, 3)] {
            let bare = run_bare(&w).cycles;
            for model in models_for(w.cpu) {
                let (out, ticks) = run_with(&w, Some(model), None);
                assert_eq!(
                    (out.result, out.cycles),
                    (1899, bare),
                    "{}",
                    model.full_id()
                );
                let ticks = ticks.expect("a timed run");
                assert!(
                    ticks >= bare * u64::from(model.cycle_ticks),
                    "{}: {ticks} ticks",
                    model.full_id()
                );
            }
        }
    }

    #[test]
    fn mos6502_sieve_finds_1899_primes_with_the_same_cycles_bare_and_in_the_machine() {
        let bare = run_bare(&MOS6502_SIEVE);
        let machine = run_machine(&MOS6502_SIEVE);
        assert_eq!(bare.result, 1899);
        assert_eq!(machine.result, 1899);
        assert_eq!(bare.cycles, machine.cycles);
    }
}
