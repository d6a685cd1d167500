//! Execution counters (`Machine::count_executions`): every run of a counted instruction is
//! counted, on both CPUs, across runs that stop at the budget and go on, with or without the
//! profiler; the cycle counts stay as they are without counters.

use kempelen_emulator::{Cpu, Machine, MachineBuilder, StopReason};

/// Z80: a loop that calls ROUT five times; ROUT loops three times at L1.
/// `0000 LD SP,0 / LD B,5 / L: CALL ROUT / DJNZ L / LD A,0 / OUT (0FFh),A / NOP NOP`,
/// `0010 ROUT: LD C,3 / L1: DEC C / JR NZ,L1 / RET`.
const Z80: [u8; 22] = [
    0x31, 0x00, 0x00, 0x06, 0x05, 0xCD, 0x10, 0x00, 0x10, 0xFB, 0x3E, 0x00, 0xD3, 0xFF, 0x00, 0x00,
    0x0E, 0x03, 0x0D, 0x20, 0xFD, 0xC9,
];
/// 6502 at `$C000`, the same loops: `LDX #5 / L: JSR ROUT / DEX / BNE L / LDA #0 / STA $BFFF`,
/// `$C010 ROUT: LDY #3 / L1: DEY / BNE L1 / RTS`.
const M6502: [u8; 22] = [
    0xA2, 0x05, 0x20, 0x10, 0xC0, 0xCA, 0xD0, 0xFA, 0xA9, 0x00, 0x8D, 0xFF, 0xBF, 0xEA, 0xEA, 0xEA,
    0xA0, 0x03, 0x88, 0xD0, 0xFD, 0x60,
];

fn machine(cpu: Cpu) -> (Machine, u16) {
    match cpu {
        Cpu::Z80 => (
            MachineBuilder::new(cpu).load(0, &Z80).build().unwrap(),
            0x0010,
        ),
        Cpu::Mos6502 | Cpu::Cmos65c02 => (
            MachineBuilder::new(cpu)
                .load(0xC000, &M6502)
                .entry(0xC000)
                .build()
                .unwrap(),
            0xC010,
        ),
    }
}

/// Runs to the end in slices of `slice` cycles; the cycles of the whole run.
fn run_sliced(m: &mut Machine, slice: u64) -> u64 {
    let mut cycles = 0;
    loop {
        match m.run(slice) {
            Ok(s) => {
                assert_eq!(s.stop, StopReason::HostDone);
                return cycles + s.cycles;
            }
            Err(e) => cycles += e.cycles,
        }
    }
}

#[test]
fn counted_instructions_are_counted_every_time_they_run() {
    for cpu in [Cpu::Z80, Cpu::Mos6502] {
        let (mut plain, _) = machine(cpu);
        let whole = plain.run(100_000).unwrap().cycles;
        for slice in [100_000, 7, 1] {
            let (mut m, rout) = machine(cpu);
            m.count_executions(&[rout, rout + 2]);
            let cycles = run_sliced(&mut m, slice);
            assert_eq!(cycles, whole, "{cpu:?}, slices of {slice}: same cycles");
            assert_eq!(
                m.execution_counts(),
                [(rout, 5), (rout + 2, 15)],
                "{cpu:?}, slices of {slice}: five calls, fifteen loop steps"
            );
        }
        // With the profiler watching every instruction, the same counts.
        let (mut m, rout) = machine(cpu);
        m.enable_profiler();
        m.count_executions(&[rout]);
        m.run(100_000).unwrap();
        assert_eq!(m.execution_counts(), [(rout, 5)], "{cpu:?} profiled");
        // New counters start from zero; an empty list counts nothing.
        m.count_executions(&[]);
        assert!(m.execution_counts().is_empty());
    }
}
