//! Klaus Dormann's 6502 functional test, and his 65C02 extended opcodes test, through
//! Kempelen's machine.
//!
//! Two builds of the functional test are in the dependency tree, and both must reach their success trap
//! (`JMP *`): the official binary as shipped by `r6502` (success trap at `$3469`) and the
//! build shipped by `mos6502` (assembled with other options; success trap at `$331C`). The
//! machine stops at the first execution of a jump to itself, so the totals below include the
//! trap's `JMP` (1 instruction, 3 cycles) once. For the official build they are the published
//! figures, 30,646,177 instructions and 96,241,367 cycles. They are exact and deterministic;
//! see `docs/MACHINE.md`.

mod common;
use kempelen_emulator::{Cpu, MachineBuilder, MemoryMap, RunStats, StopReason};

/// Runs a 64 KB functional-test image from `$0400` and returns the statistics.
fn run(image: &[u8]) -> RunStats {
    run_on(Cpu::Mos6502, image, false)
}

/// [`run`] on `cpu`; `undocumented`: run undocumented opcodes instead of refusing them.
fn run_on(cpu: Cpu, image: &[u8], undocumented: bool) -> RunStats {
    assert_eq!(image.len(), 0x10000, "a full 64 KB image");
    let mut m = MachineBuilder::new(cpu)
        .allow_undocumented(undocumented)
        // No stack region: the test wraps S around page 1 on purpose.
        .memory_map(MemoryMap::all_ram())
        .stop_on_brk(false)
        .load(0x0000, image)
        .entry(0x0400)
        .build()
        .expect("machine");
    m.run(200_000_000).unwrap_or_else(|e| panic!("{e}"))
}

/// The run stopped at the success trap `JMP *` at `trap` after exactly `instructions` and
/// `cycles`.
fn reached_success_trap(stats: RunStats, trap: u16, instructions: u64, cycles: u64) {
    assert_eq!(stats.stop, StopReason::SelfLoop { pc: trap });
    assert_eq!(stats.instructions, instructions);
    assert_eq!(stats.cycles, cycles);
}

#[test]
fn official_build_from_r6502_reaches_success_trap() {
    let image = common::crate_file("r6502", "1.", "tests/6502_functional_test.bin");
    reached_success_trap(run(&image), 0x3469, 30_646_177, 96_241_367);
}

#[test]
fn mos6502_crate_build_reaches_success_trap() {
    let image = common::crate_file("mos6502", "0.10", "tests/assets/6502_functional_test.bin");
    reached_success_trap(run(&image), 0x331C, 30_607_781, 96_165_271);
}

/// Klaus Dormann's 65C02 extended opcodes test, as `mos6502` 0.10 ships it (built with the
/// Rockwell bit instructions tested; it executes no `WAI` or `STP`), on Kempelen's 65C02 (the WDC
/// W65C02S): it must reach its success trap (`JMP *` at `$24F1`). The test also runs every
/// opcode the 65C02 leaves undefined, checking that each is a `NOP` of its length, so this
/// run allows undocumented opcodes (the machine refuses them by default). The totals include
/// the trap's `JMP` once; they are our measurement (deterministic, with the W65C02S cycle
/// corrections of `docs/MACHINE.md`), not a published figure.
#[test]
fn w65c02s_extended_opcodes_test_from_mos6502_reaches_success_trap() {
    let image = common::crate_file(
        "mos6502",
        "0.10",
        "tests/assets/65C02_extended_opcodes_test.bin",
    );
    reached_success_trap(
        run_on(Cpu::Cmos65c02, &image, true),
        0x24F1,
        21_986_986,
        66_907_084,
    );
}
