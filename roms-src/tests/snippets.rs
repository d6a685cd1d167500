//! The guided examples of the assembler to try do what their text says: the cycles it counts,
//! the registers it names, the engine's moves; stepped one instruction at a time with the
//! debugger they end with the cycles of one whole run (as `kempelen run` gives them).

use kempelen_emulator::debug::{Debugger, Why};
use kempelen_emulator::{CoreKind, Machine, MachineBuilder, Registers, StopReason};
use kempelen_roms::snippets::{SNIPPETS, snippet};

fn machine(id: &str) -> Machine {
    let s = snippet(id).unwrap();
    let out = kempelen_asm::assemble_source(s.cpu, &format!("{id}.asm"), &s.source().unwrap());
    assert!(out.is_ok(), "{}", out.report());
    MachineBuilder::new(s.cpu)
        .core(visible_core(s.cpu))
        .load(out.image.origin, &out.image.bytes)
        .entry(out.image.origin)
        .build()
        .unwrap()
}

/// The core that shows every register (the Z80's rustzx core).
fn visible_core(cpu: kempelen_emulator::Cpu) -> CoreKind {
    match CoreKind::default_for(cpu) {
        CoreKind::Z80 => CoreKind::RustzxZ80,
        other => other,
    }
}

#[test]
fn each_example_counts_the_cycles_its_text_gives() {
    let cases = [
        ("timed-loop-z80", 7 + 4 * 13 + 8 + 4 + 11),
        ("timed-loop-6502", 26 + 2 + 4),
    ];
    for (id, cycles) in cases {
        let stats = machine(id).run(10_000).unwrap();
        assert_eq!(
            (stats.stop, stats.cycles),
            (StopReason::HostDone, cycles),
            "{id}"
        );
    }
}

#[test]
fn the_0x88_test_finds_the_three_squares_of_a_knight_on_b1() {
    let mut m = machine("offboard-0x88-z80");
    m.run(10_000).unwrap();
    let Registers::Z80(r) = m.registers() else {
        panic!()
    };
    assert_eq!(r.main.unwrap().bc & 0xFF, 3);
    let mut m = machine("offboard-0x88-6502");
    m.run(10_000).unwrap();
    let Registers::Mos6502(r) = m.registers() else {
        panic!()
    };
    assert_eq!(r.y, 3);
}

#[test]
fn the_engines_slide_lists_the_fourteen_rook_moves_from_d4() {
    let mut m = machine("engine-slide-6502");
    assert!(m.run(100_000).unwrap().is_done());
    let list = m.read_bytes(0x0500, 28);
    let mut to: Vec<u8> = list
        .chunks(2)
        .map(|mv| {
            assert_eq!(mv[0], 0x33);
            mv[1]
        })
        .collect();
    to.sort();
    let want = [
        0x03, 0x13, 0x23, 0x30, 0x31, 0x32, 0x34, 0x35, 0x36, 0x37, 0x43, 0x53, 0x63, 0x73,
    ];
    assert_eq!(to, want);
    // The list pointer stands after the 14th move.
    assert_eq!(m.read_word(0x10), 0x0500 + 28);
}

#[test]
fn stepped_to_the_end_each_example_takes_the_cycles_of_one_run() {
    for s in &SNIPPETS {
        let whole = machine(s.id).run(1_000_000).unwrap();
        let mut m = machine(s.id);
        let mut d = Debugger::new();
        let mut cycles = 0;
        let mut steps = 0u64;
        loop {
            let step = d.step(&mut m).unwrap();
            cycles += step.cycles;
            steps += step.instructions;
            match step.why {
                Why::Done => {}
                Why::Stopped(r) => {
                    assert_eq!(r, StopReason::HostDone, "{}", s.id);
                    break;
                }
                other => panic!("{}: {other:?}", s.id),
            }
        }
        assert_eq!(
            (cycles, steps),
            (whole.cycles, whole.instructions),
            "{}",
            s.id
        );
    }
}
