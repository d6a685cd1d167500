//! The machine's fast paths are exact: every program here runs twice, once as usual and once
//! with every bus access checked as it happens (`MachineBuilder::checked_steps`), and both
//! runs must end the same way (stop or error, cycles, instructions, recent trace, registers)
//! with the same memory, RAM profile, unmapped reads and console output.
//!
//! The fast paths (see `docs/MACHINE.md`, "Speed"): the 6502 runs on a plain view of memory
//! with its writes collected until the end of the instruction, and falls back to checked
//! execution only for the instructions that touch a device or unmapped memory; device, ROM
//! and unmapped writes and the console's side effects are completed after the instruction;
//! the jump-to-itself check runs only where an instruction can land on itself.

mod common;

use kempelen_emulator::bench::{MOS6502_SIEVE, Workload, Z80_SIEVE};
use kempelen_emulator::{Cpu, MachineBuilder, MemoryMap};
use std::ops::RangeInclusive;

/// Everything a run shows from outside, as text (the wall time left out).
fn outcome(builder: &MachineBuilder, checked: bool, input: &[u8], budget: u64) -> String {
    let mut m = builder
        .clone()
        .checked_steps(checked)
        .build()
        .expect("machine");
    m.console_mut().push_input(input);
    let result = match m.run(budget) {
        Ok(s) => format!(
            "{:?} cycles {} instructions {} unmapped reads {} stack {:?}",
            s.stop, s.cycles, s.instructions, s.unmapped_reads, s.max_stack_depth
        ),
        Err(e) => format!("{e:?}"),
    };
    format!(
        "{result}\nregisters {:?}\nRAM {:?}\nprinted {:?}\nmemory {:?}",
        m.registers(),
        m.ram_profile(),
        m.console_mut().take_output(),
        m.read_bytes(0, 0x10000)
    )
}

fn assert_same(what: &str, builder: MachineBuilder, input: &[u8], budget: u64) {
    let fast = outcome(&builder, false, input, budget);
    let checked = outcome(&builder, true, input, budget);
    assert!(
        fast == checked,
        "{what}: the fast run and the checked run differ\nfast:    {}\nchecked: {}",
        fast.lines().next().unwrap_or(""),
        checked.lines().next().unwrap_or("")
    );
}

fn workload(w: &Workload) -> MachineBuilder {
    MachineBuilder::new(w.cpu)
        .load(w.origin, w.code)
        .entry(w.origin)
}

#[test]
fn sieve_z80() {
    assert_same("Z80 sieve", workload(&Z80_SIEVE), b"", u64::MAX);
    assert_same("Z80 sieve, budget", workload(&Z80_SIEVE), b"", 1_000_003);
}

#[test]
fn sieve_6502() {
    assert_same("6502 sieve", workload(&MOS6502_SIEVE), b"", u64::MAX);
    assert_same("6502 sieve, budget", workload(&MOS6502_SIEVE), b"", 777_777);
}

/// Klaus Dormann's functional test exercises every documented 6502 instruction and
/// addressing mode, with code and data in RAM (every write goes through the program's
/// check marks).
#[test]
fn klaus_functional_test() {
    let image = common::crate_file("r6502", "1.", "tests/6502_functional_test.bin");
    let builder = MachineBuilder::new(Cpu::Mos6502)
        .memory_map(MemoryMap::all_ram())
        .stop_on_brk(false)
        .load(0x0000, &image)
        .entry(0x0400);
    assert_same("Klaus", builder, b"", 200_000_000);
}

/// 6502 maps with devices or holes where the fast path would read pointers, the stack, the
/// vectors, operand bytes or operated-on bytes, and programs that touch them.
#[test]
fn mos6502_devices_and_holes() {
    // The I/O page at `io`, RAM regions `ram` and the ROM `rom`; nothing elsewhere.
    let io_map = |io: u16, ram: &[(&str, RangeInclusive<u16>)], rom: RangeInclusive<u16>| {
        let map = ram.iter().fold(MemoryMap::empty(), |map, (name, range)| {
            map.ram(name, range.clone())
        });
        map.rom("rom", rom).with_io_page(io)
    };
    let (rom, below_vectors) = (0xC000..=0xFFFF, 0xC000..=0xFEFF);
    let maps = [
        (
            "I/O in the zero page",
            io_map(0x0000, &[("ram", 0x0100..=0xBFFF)], rom.clone()),
        ),
        (
            "I/O in the stack page",
            io_map(
                0x0100,
                &[("zp", 0x0000..=0x00FF), ("ram", 0x0200..=0xBFFF)],
                rom.clone(),
            ),
        ),
        (
            "I/O on the vectors",
            io_map(0xFF00, &[("ram", 0x0000..=0xBFFF)], below_vectors),
        ),
        (
            "a hole and I/O at $8000",
            io_map(0x8000, &[("ram", 0x0000..=0x3FFF)], rom),
        ),
        ("default", MemoryMap::default_for(Cpu::Mos6502)),
    ];
    let programs: [(&str, &[u8]); 9] = [
        // LDX #0 ; LDA ($10,X) ; LDA ($01),Y ; LDA #0 ; STA $BFFF
        (
            "pointers",
            &[
                0xA2, 0x00, 0xA1, 0x10, 0xB1, 0x01, 0xA9, 0x00, 0x8D, 0xFF, 0xBF,
            ],
        ),
        // PLA ; PLP ; LDA #0 ; STA $BFFF
        ("pulls", &[0x68, 0x28, 0xA9, 0x00, 0x8D, 0xFF, 0xBF]),
        // NOP ; BRK ; NOP ; LDA #0 ; STA $BFFF
        ("brk", &[0xEA, 0x00, 0xEA, 0xA9, 0x00, 0x8D, 0xFF, 0xBF]),
        ("jmp (ind) 1", &[0x6C, 0x00, 0xFF]),
        ("jmp (ind) 2", &[0x6C, 0x01, 0x01]),
        ("jmp (ind) 3", &[0x6C, 0xFF, 0x80]),
        // Loads, an indexed load, a store and an INC on devices, a load from a hole; loop.
        (
            "devices",
            &[
                0xAD, 0x00, 0x80, 0xAD, 0x01, 0x80, 0xAD, 0x00, 0x50, 0xB9, 0xF0, 0x7F, 0x8D, 0x01,
                0x80, 0xEE, 0x01, 0x80, 0x4C, 0x00, 0xC0,
            ],
        ),
        // INC/DEC/ASL on device registers in three pages, then the host call at $FFFF.
        (
            "read-modify-write",
            &[
                0xEE, 0x01, 0xFF, 0xCE, 0x01, 0x01, 0x0E, 0x01, 0x00, 0xA9, 0x00, 0x8D, 0xFF, 0xFF,
            ],
        ),
        // JSR ; NOP NOP ; RTS
        ("jsr", &[0x20, 0x05, 0xC0, 0xEA, 0xEA, 0x60]),
    ];
    for (map_name, map) in &maps {
        for (name, code) in programs {
            for (stop_on_brk, undocumented) in [(true, false), (false, true)] {
                let builder = MachineBuilder::new(Cpu::Mos6502)
                    .memory_map(map.clone().without_stack())
                    .allow_undocumented(undocumented)
                    .stop_on_brk(stop_on_brk)
                    .load(0xC000, code)
                    .entry(0xC000);
                assert_same(&format!("{map_name}: {name}"), builder, b"abc", 300);
            }
        }
        // An image ending just before a device or a hole: operand bytes lie there.
        let builder = MachineBuilder::new(Cpu::Mos6502)
            .memory_map(map.clone().without_stack())
            .load(0x7FFE, &[0xEA, 0xAD])
            .load(0xC000, &[0x4C, 0xFF, 0x7F])
            .entry(0x7FFE);
        if builder.clone().build().is_ok() {
            assert_same(&format!("{map_name}: operands"), builder, b"q", 100);
        }
    }
}

/// Console programs on both CPUs: polling the status, reading and printing characters.
#[test]
fn console_programs() {
    // l: IN A,(0) ; AND 1 ; JR Z,l ; IN A,(1) ; OR A ; JR Z,end ; OUT (1),A ; JR l ;
    // end: OUT ($FF),A
    let z80 = [
        0xDB, 0x00, 0xE6, 0x01, 0x28, 0xFA, 0xDB, 0x01, 0xB7, 0x28, 0x04, 0xD3, 0x01, 0x18, 0xF1,
        0xD3, 0xFF,
    ];
    // l: LDA $BF00 ; BEQ l ; LDA $BF01 ; BEQ end ; STA $BF01 ; JMP l ; end: STA $BFFF
    let mos6502 = [
        0xAD, 0x00, 0xBF, 0xF0, 0xFB, 0xAD, 0x01, 0xBF, 0xF0, 0x06, 0x8D, 0x01, 0xBF, 0x4C, 0x00,
        0xC0, 0x8D, 0xFF, 0xBF,
    ];
    for budget in [60, 10_000] {
        let builder = MachineBuilder::new(Cpu::Z80).load(0, &z80);
        assert_same("Z80 echo", builder, b"hello\0", budget);
        let builder = MachineBuilder::new(Cpu::Mos6502).load(0xC000, &mos6502);
        assert_same("6502 echo", builder, b"hello\0", budget);
    }
}

/// Programs that jump to themselves, some only after writing their own code.
#[test]
fn jumps_to_themselves() {
    let z80: [(&str, &[u8]); 9] = [
        // LDIR overwriting its own ED B0 with JR +0 (then with JR $).
        (
            "LDIR over itself",
            &[
                0x21, 0x0D, 0x80, 0x11, 0x09, 0x80, 0x01, 0x02, 0x00, 0xED, 0xB0, 0x76, 0x00, 0x18,
                0x00,
            ],
        ),
        (
            "LDIR writing JR $",
            &[
                0x21, 0x0D, 0x80, 0x11, 0x09, 0x80, 0x01, 0x02, 0x00, 0xED, 0xB0, 0x76, 0x00, 0x18,
                0xFE,
            ],
        ),
        // Writes JR $ ahead of itself, then runs into it.
        (
            "written JR $",
            &[
                0x3E, 0x18, 0x32, 0x0A, 0x80, 0x3E, 0xFE, 0x32, 0x0B, 0x80, 0x00, 0x00, 0x00,
            ],
        ),
        ("DD JP $", &[0x00, 0xDD, 0xC3, 0x01, 0x80]),
        ("DD JR $", &[0x00, 0xDD, 0x18, 0xFD]),
        ("JP (IY) to itself", &[0xFD, 0x21, 0x04, 0x80, 0xFD, 0xE9]),
        ("three prefixes", &[0xDD, 0xFD, 0xDD, 0xC3, 0x00, 0x80]),
        ("DD DJNZ", &[0x06, 0x03, 0xDD, 0x10, 0xFD, 0x76]),
        ("JP Z to itself", &[0xAF, 0xCA, 0x01, 0x80]),
    ];
    for (name, code) in z80 {
        let builder = MachineBuilder::new(Cpu::Z80)
            .memory_map(MemoryMap::all_ram())
            .load(0x8000, code);
        assert_same(name, builder, b"", 1000);
    }
    // 6502: writes JMP $0218 at $0218, then jumps there.
    let mut image = vec![0xEA; 0x20];
    image[..18].copy_from_slice(&[
        0xA9, 0x4C, 0x8D, 0x18, 0x02, 0xA9, 0x18, 0x8D, 0x19, 0x02, 0xA9, 0x02, 0x8D, 0x1A, 0x02,
        0x4C, 0x18, 0x02,
    ]);
    let builder = MachineBuilder::new(Cpu::Mos6502)
        .memory_map(MemoryMap::all_ram())
        .load(0x0200, &image);
    assert_same("6502 written JMP *", builder, b"", 1000);
}
