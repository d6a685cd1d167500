//! The host call "iteration complete" (`0x01`): a stop the host resumes from when it asked for
//! it (`Machine::set_stop_on_iteration`), nothing otherwise; on both CPUs.

use kempelen_emulator::{Cpu, Machine, MachineBuilder, StopReason};

/// Z80: `LD A,1 / OUT (0FFh),A / LD A,0 / OUT (0FFh),A` (7 + 11 + 7 + 11 T-states).
const Z80: [u8; 8] = [0x3E, 0x01, 0xD3, 0xFF, 0x3E, 0x00, 0xD3, 0xFF];
/// 6502 at `$C000`: `LDA #1 / STA $BFFF / LDA #0 / STA $BFFF` (2 + 4 + 2 + 4 cycles).
const M6502: [u8; 10] = [0xA9, 0x01, 0x8D, 0xFF, 0xBF, 0xA9, 0x00, 0x8D, 0xFF, 0xBF];

fn machine(cpu: Cpu) -> Machine {
    match cpu {
        Cpu::Z80 => MachineBuilder::new(cpu).load(0, &Z80).build().unwrap(),
        Cpu::Mos6502 | Cpu::Cmos65c02 => MachineBuilder::new(cpu)
            .load(0xC000, &M6502)
            .entry(0xC000)
            .build()
            .unwrap(),
    }
}

#[test]
fn the_iteration_call_stops_and_resumes_when_asked_for() {
    for (cpu, call_pc, first, second) in [(Cpu::Z80, 2, 18, 18), (Cpu::Mos6502, 0xC002, 6, 6)] {
        let mut m = machine(cpu);
        m.set_stop_on_iteration(true);
        let a = m.run(1_000).unwrap();
        assert_eq!(a.stop, StopReason::HostIteration { pc: call_pc }, "{cpu:?}");
        assert_eq!(a.cycles, first, "{cpu:?}: the call is executed and counted");
        let b = m.run(1_000).unwrap();
        assert_eq!(b.stop, StopReason::HostDone, "{cpu:?}");
        assert_eq!(b.cycles, second, "{cpu:?}");
        assert!(a.stop.to_string().contains("iteration complete"));
    }
}

#[test]
fn the_iteration_call_is_ignored_by_default() {
    for (cpu, total) in [(Cpu::Z80, 36), (Cpu::Mos6502, 12)] {
        let mut m = machine(cpu);
        let s = m.run(1_000).unwrap();
        assert_eq!(s.stop, StopReason::HostDone, "{cpu:?}");
        assert_eq!(s.cycles, total, "{cpu:?}");
    }
}
