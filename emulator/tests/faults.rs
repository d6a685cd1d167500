//! Every way a run can end: the clean stops and each fault, on small hand-assembled programs,
//! with exact cycle counts and the recent-instruction trace.

use kempelen_emulator::{
    AddrRange, ConfigError, Cpu, Fault, Machine, MachineBuilder, MemoryMap, RunError, RunStats,
    StopReason,
};

/// A Z80 machine on the default map with `code` at $0000.
fn z80(code: &[u8]) -> Machine {
    MachineBuilder::new(Cpu::Z80)
        .load(0x0000, code)
        .build()
        .unwrap()
}

/// A 6502 machine on the default map with `code` at $C000.
fn m6502(code: &[u8]) -> Machine {
    MachineBuilder::new(Cpu::Mos6502)
        .load(0xC000, code)
        .build()
        .unwrap()
}

fn fault(m: &mut Machine, budget: u64) -> RunError {
    match m.run(budget) {
        Ok(stats) => panic!("expected a fault, the run ended with {:?}", stats.stop),
        Err(e) => e,
    }
}

/// Runs `m` within 1000 cycles to the fault `expected` (what and where); returns the error
/// (counts and trace) for further checks.
fn expect_fault(m: &mut Machine, expected: Fault) -> RunError {
    let e = fault(m, 1000);
    assert_eq!(e.fault, expected, "{e}");
    e
}

/// Runs `m` within 1000 cycles to the clean stop `expected`; returns the run's figures.
fn expect_stop(m: &mut Machine, expected: StopReason) -> RunStats {
    let stats = m.run(1000).unwrap();
    assert_eq!(stats.stop, expected);
    stats
}

/// A machine for `cpu` on `map` with `code` at `origin`.
fn on_map(cpu: Cpu, map: MemoryMap, origin: u16, code: &[u8]) -> Machine {
    MachineBuilder::new(cpu)
        .memory_map(map)
        .load(origin, code)
        .build()
        .unwrap()
}

/// The stack regions of the default maps.
fn z80_stack() -> AddrRange {
    AddrRange::new(0xF000, 0xFFFF).unwrap()
}

fn m6502_stack() -> AddrRange {
    AddrRange::new(0x0100, 0x01FF).unwrap()
}

#[test]
fn budget_exceeded_names_budget_and_pc() {
    // loop: INC A (4) ; JR loop (12)
    let mut m = z80(&[0x3C, 0x18, 0xFD]);
    let e = fault(&mut m, 1000);
    // 62 loops = 992 cycles, then the 63rd: INC A (996) and JR (1008); the check before the
    // next instruction stops the run.
    assert_eq!(
        e.fault,
        Fault::BudgetExceeded {
            budget: 1000,
            pc: 0x0000
        }
    );
    assert_eq!((e.cycles, e.instructions), (1008, 126));
    assert_eq!(e.trace.entries.len(), 16);
    assert_eq!(e.trace.entries.last().unwrap().pc, 0x0000);
    let text = e.to_string();
    assert!(
        text.starts_with("cycle budget of 1000 cycles exceeded at PC $0000"),
        "{text}"
    );
}

#[test]
fn rom_write_is_an_error_and_not_applied() {
    // LD A,1 ; LD ($0100),A
    let mut m = z80(&[0x3E, 0x01, 0x32, 0x00, 0x01]);
    let e = expect_fault(
        &mut m,
        Fault::RomWrite {
            addr: 0x0100,
            value: 1,
            pc: 0x0002,
        },
    );
    assert_eq!(m.read_byte(0x0100), 0);
    assert_eq!((e.cycles, e.instructions), (7 + 13, 2));
    assert_eq!(e.trace.entries.last().unwrap().pc, 0x0002);
}

#[test]
fn rom_write_on_the_6502() {
    // LDA #$55 ; STA $C100
    expect_fault(
        &mut m6502(&[0xA9, 0x55, 0x8D, 0x00, 0xC1]),
        Fault::RomWrite {
            addr: 0xC100,
            value: 0x55,
            pc: 0xC002,
        },
    );
}

#[test]
fn unmapped_write_is_an_error_and_unmapped_reads_are_counted() {
    let map = MemoryMap::empty()
        .rom("rom", 0x0000..=0x0FFF)
        .ram("ram", 0x8000..=0xFFFF)
        .with_stack(0xF000..=0xFFFF);
    // LD A,($2000) ; LD A,($2001) ; XOR A ; OUT ($FF),A
    let code = [0x3A, 0x00, 0x20, 0x3A, 0x01, 0x20, 0xAF, 0xD3, 0xFF];
    let stats = on_map(Cpu::Z80, map.clone(), 0, &code).run(1000).unwrap();
    assert_eq!(stats.unmapped_reads, 2);
    // LD ($2000),A
    expect_fault(
        &mut on_map(Cpu::Z80, map, 0, &[0x32, 0x00, 0x20]),
        Fault::UnmappedWrite {
            addr: 0x2000,
            value: 0xFF,
            pc: 0,
        },
    );
}

#[test]
fn illegal_z80_ed_opcode() {
    // NOP ; DB $ED,$00
    let e = expect_fault(
        &mut z80(&[0x00, 0xED, 0x00]),
        Fault::IllegalOpcode {
            bytes: vec![0xED, 0x00],
            pc: 0x0001,
        },
    );
    assert_eq!((e.cycles, e.instructions), (4, 1));
    assert_eq!(e.trace.entries.len(), 2, "the NOP and the illegal opcode");
    assert!(
        e.to_string()
            .starts_with("illegal opcode ED 00 at PC $0001")
    );
}

#[test]
fn illegal_6502_jam_and_undocumented_opcodes() {
    let illegal = |code: &[u8], bytes: Vec<u8>, pc| {
        expect_fault(&mut m6502(code), Fault::IllegalOpcode { bytes, pc });
    };
    illegal(&[0xEA, 0x02], vec![0x02], 0xC001);
    // LAX $10 (undocumented) is refused unless allowed.
    illegal(&[0xA7, 0x10], vec![0xA7], 0xC000);
    // Allowed: LAX $10 ; STA $BFFF (A = 0: done)
    let mut m = MachineBuilder::new(Cpu::Mos6502)
        .allow_undocumented(true)
        .load(0xC000, &[0xA7, 0x10, 0x8D, 0xFF, 0xBF])
        .build()
        .unwrap();
    let stats = expect_stop(&mut m, StopReason::HostDone);
    assert_eq!(stats.cycles, 3 + 4);
}

/// `m` recurses without end: the stack overflow (SP `sp` out of `region` after the call at
/// `pc`) ends the run after `calls` calls of `cycles` each.
fn recursion_overflows(
    mut m: Machine,
    (sp, pc, region): (u16, u16, AddrRange),
    calls: u64,
    cycles: u64,
) {
    let e = fault(&mut m, 1_000_000);
    assert_eq!(e.fault, Fault::StackOverflow { sp, pc, region });
    assert_eq!((e.instructions, e.cycles), (calls, calls * cycles));
}

#[test]
fn stack_overflow_on_the_z80() {
    // f: CALL f   (endless recursion). 2048 calls fill the 4 KB region exactly; the 2049th
    // (17 cycles) leaves it.
    let m = z80(&[0xCD, 0x00, 0x00]);
    recursion_overflows(m, (0xEFFE, 0x0000, z80_stack()), 2049, 17);
}

#[test]
fn stack_overflow_on_the_6502_is_seen_through_the_page_wrap() {
    // f: JSR f. 128 calls fill page 1; the 129th (6 cycles) wraps S to $FD.
    let m = m6502(&[0x20, 0x00, 0xC0]);
    recursion_overflows(m, (0x01FD, 0xC000, m6502_stack()), 129, 6);
}

#[test]
fn stack_underflow() {
    // POP HL with an empty stack.
    let (sp, pc, region) = (0x0002, 0, z80_stack());
    expect_fault(&mut z80(&[0xE1]), Fault::StackUnderflow { sp, pc, region });
    // PLA with an empty stack.
    let (sp, pc, region) = (0x0100, 0xC000, m6502_stack());
    expect_fault(
        &mut m6502(&[0x68]),
        Fault::StackUnderflow { sp, pc, region },
    );
}

#[test]
fn stack_pointer_set_outside_the_region() {
    // LD SP,$8000
    let (sp, pc, region) = (0x8000, 0, z80_stack());
    let code = [0x31, 0x00, 0x80, 0x00];
    expect_fault(&mut z80(&code), Fault::StackOverflow { sp, pc, region });
    // Building with an initial SP outside the region is refused.
    let err = MachineBuilder::new(Cpu::Z80)
        .load(0, &[0])
        .stack_pointer(0x8000)
        .build()
        .unwrap_err();
    assert!(matches!(
        err,
        ConfigError::SpOutsideStack { sp: 0x8000, .. }
    ));
}

#[test]
fn pc_leaving_the_program() {
    // JP $2000 (ROM, but nothing loaded there)
    let out_of_program = |pc, from, program: &str| Fault::PcOutOfProgram {
        pc,
        from: Some(from),
        program: program.to_string(),
    };
    let e = expect_fault(
        &mut z80(&[0xC3, 0x00, 0x20]),
        out_of_program(0x2000, 0, "$0000-$0002"),
    );
    assert_eq!(
        e.fault.to_string(),
        "PC $2000 is outside the program (loaded at $0000-$0002), reached from PC $0000"
    );
    // Running off the end of the image.
    expect_fault(
        &mut m6502(&[0xEA]),
        out_of_program(0xC001, 0xC000, "$C000-$C000"),
    );
}

#[test]
fn unknown_host_call() {
    // LD A,7 ; OUT ($FF),A
    let e = expect_fault(
        &mut z80(&[0x3E, 0x07, 0xD3, 0xFF]),
        Fault::UnknownHostCall { value: 7, pc: 2 },
    );
    assert_eq!(
        e.fault.to_string(),
        "unknown host call $07 at PC $0002 (only $00 = done and $01 = iteration complete are defined)"
    );
    // LDA #$02 ; STA $BFFF ($01 is "iteration complete", emulator/tests/host_iteration.rs)
    let (value, pc) = (2, 0xC002);
    let code = [0xA9, 0x02, 0x8D, 0xFF, 0xBF];
    expect_fault(&mut m6502(&code), Fault::UnknownHostCall { value, pc });
}

#[test]
fn unconnected_port() {
    // OUT ($10),A
    let (port, value, pc) = (0xFF10, 0xFF, 0);
    expect_fault(
        &mut z80(&[0xD3, 0x10]),
        Fault::UnconnectedPort { port, value, pc },
    );
}

#[test]
fn clean_stops() {
    // NOP ; HALT
    let mut m = z80(&[0x00, 0x76]);
    let stats = expect_stop(&mut m, StopReason::Halt { pc: 1 });
    assert_eq!((stats.cycles, stats.instructions), (4, 1));
    // JR $
    let mut m = z80(&[0x18, 0xFE]);
    let stats = expect_stop(&mut m, StopReason::SelfLoop { pc: 0 });
    assert_eq!((stats.cycles, stats.instructions), (12, 1));
    // NOP ; BRK
    let mut m = m6502(&[0xEA, 0x00]);
    let stats = expect_stop(&mut m, StopReason::Brk { pc: 0xC001 });
    assert_eq!(stats.cycles, 2);
    // BNE * with Z clear (LDX #1 first)
    let mut m = m6502(&[0xA2, 0x01, 0xD0, 0xFE]);
    let stats = expect_stop(&mut m, StopReason::SelfLoop { pc: 0xC002 });
    assert_eq!(stats.cycles, 2 + 3);
}

/// A 65C02 machine on the default map with `code` at $C000, the NMI vector at `$C080` and the
/// IRQ vector at `$C040`.
fn w65c02s(code: &[u8]) -> Machine {
    MachineBuilder::new(Cpu::Cmos65c02)
        .load(0xC000, code)
        .load(0xFFFA, &[0x80, 0xC0, 0x00, 0xC0, 0x40, 0xC0])
        .build()
        .unwrap()
}

/// `LDA #0 ; STA $BFFF` (host call "done") at $C040 and at $C080, after `code` at $C000.
fn w65c02s_with_handlers(code: &[u8]) -> Machine {
    let mut image = vec![0xEA; 0x90];
    image[..code.len()].copy_from_slice(code);
    let done = [0xA9, 0x00, 0x8D, 0xFF, 0xBF];
    image[0x40..0x45].copy_from_slice(&done);
    image[0x80..0x85].copy_from_slice(&done);
    w65c02s(&image)
}

#[test]
fn w65c02s_stp_stops_the_run_before_it() {
    // NOP ; STP
    let mut m = w65c02s(&[0xEA, 0xDB]);
    let stats = expect_stop(&mut m, StopReason::ClockStopped { pc: 0xC001 });
    assert_eq!((stats.cycles, stats.instructions), (2, 1));
    assert_eq!(
        stats.stop.to_string(),
        "STP at $C001: the clock is stopped until a reset"
    );
    // Running again stops at once: only a reset restarts the clock.
    let stats = expect_stop(&mut m, StopReason::ClockStopped { pc: 0xC001 });
    assert_eq!((stats.cycles, stats.instructions), (0, 0));
}

#[test]
fn w65c02s_wai_stops_until_an_interrupt_wakes_it() {
    // CLI ; WAI ; then the IRQ handler at $C040 ends the run.
    let mut m = w65c02s_with_handlers(&[0x58, 0xCB]);
    let stats = expect_stop(&mut m, StopReason::WaitForInterrupt { pc: 0xC001 });
    assert_eq!((stats.cycles, stats.instructions), (2, 1));
    // Still no interrupt: it waits again, doing nothing.
    let stats = expect_stop(&mut m, StopReason::WaitForInterrupt { pc: 0xC001 });
    assert_eq!((stats.cycles, stats.instructions), (0, 0));
    // An IRQ wakes it: WAI (3), the interrupt (7), LDA #0 (2), STA $BFFF (4).
    m.set_irq(true);
    let stats = expect_stop(&mut m, StopReason::HostDone);
    assert_eq!((stats.cycles, stats.instructions), (3 + 7 + 2 + 4, 3));
    // An NMI does too, whatever the I flag: SEI ; WAI goes to the handler at $C080.
    let mut m = w65c02s_with_handlers(&[0x78, 0xCB]);
    expect_stop(&mut m, StopReason::WaitForInterrupt { pc: 0xC001 });
    m.pulse_nmi();
    let stats = expect_stop(&mut m, StopReason::HostDone);
    assert_eq!(stats.cycles, 3 + 7 + 2 + 4);
    assert_eq!(m.registers().pc(), 0xC085);
    // An IRQ while I is set ends the wait without being served: SEI ; WAI ; LDA #0 ; STA $BFFF.
    let mut m = w65c02s_with_handlers(&[0x78, 0xCB, 0xA9, 0x00, 0x8D, 0xFF, 0xBF]);
    m.set_irq(true);
    let stats = expect_stop(&mut m, StopReason::HostDone);
    assert_eq!((stats.cycles, stats.instructions), (2 + 3 + 2 + 4, 4));
    assert_eq!(m.registers().pc(), 0xC007);
}

#[test]
fn w65c02s_bit_branch_to_itself_is_a_self_loop() {
    // STZ $10 ; BBR0 $10,* (bit 0 clear: branches to itself, 5 + 1 cycles).
    let mut m = w65c02s(&[0x64, 0x10, 0x0F, 0x10, 0xFD]);
    let stats = expect_stop(&mut m, StopReason::SelfLoop { pc: 0xC002 });
    assert_eq!((stats.cycles, stats.instructions), (3 + 6, 2));
    // The same bit set (SMB0 $10 first): BBR0 falls through, and BBS0 $10,* loops.
    let mut m = w65c02s(&[0x87, 0x10, 0x0F, 0x10, 0xFD, 0x8F, 0x10, 0xFD]);
    let stats = expect_stop(&mut m, StopReason::SelfLoop { pc: 0xC005 });
    assert_eq!((stats.cycles, stats.instructions), (5 + 5 + 6, 3));
}

#[test]
fn djnz_and_ldir_in_place_are_not_self_loops() {
    // LD B,3 ; DJNZ $ ; LD HL,$4000 ; LD DE,$4001 ; LD BC,3 ; LDIR ; XOR A ; OUT ($FF),A
    let code = [
        0x06, 0x03, 0x10, 0xFE, 0x21, 0x00, 0x40, 0x11, 0x01, 0x40, 0x01, 0x03, 0x00, 0xED, 0xB0,
        0xAF, 0xD3, 0xFF,
    ];
    let mut m = z80(&code);
    let stats = expect_stop(&mut m, StopReason::HostDone);
    // LD B 7; DJNZ 13+13+8; LD HL/DE/BC 3x10; LDIR 21+21+16; XOR 4; OUT 11
    assert_eq!(stats.cycles, 7 + 34 + 30 + 58 + 4 + 11);
}

#[test]
fn host_writes_are_checked() {
    let mut m = m6502(&[0xEA]);
    assert!(m.write_byte(0xC000, 0xEA).is_ok(), "the host may patch ROM");
    assert_eq!(
        m.write_byte(0xBF01, 0).unwrap_err(),
        ConfigError::NotMemory {
            addr: 0xBF01,
            what: "the I/O page"
        }
    );
    m.write_word(0x0200, 0x1234).unwrap();
    assert_eq!(m.read_word(0x0200), 0x1234);
    assert_eq!(m.read_bytes(0x0200, 2), [0x34, 0x12]);
    // Host writes past $FFFF are refused whole: nothing lands on $0000.
    let before = m.read_bytes(0x0000, 2);
    assert_eq!(
        m.write_bytes(0xFFFF, &[1, 2]).unwrap_err(),
        ConfigError::WritePastEnd {
            addr: 0xFFFF,
            len: 2
        }
    );
    assert_eq!(m.read_bytes(0x0000, 2), before);
    m.write_bytes(0xFFFF, &[7]).unwrap();
    assert_eq!(m.read_byte(0xFFFF), 7);
    let err = MachineBuilder::new(Cpu::Z80)
        .load(0xFFF0, &[0; 32])
        .build()
        .unwrap_err();
    assert_eq!(
        err,
        ConfigError::ImageTooLarge {
            addr: 0xFFF0,
            len: 32
        }
    );
    let err = MachineBuilder::new(Cpu::Mos6502)
        .load(0xBF00, &[0])
        .build()
        .unwrap_err();
    assert!(matches!(err, ConfigError::NotMemory { addr: 0xBF00, .. }));
    assert_eq!(
        MachineBuilder::new(Cpu::Z80).build().unwrap_err(),
        ConfigError::NoProgram
    );
}

/// The trace of a run error shows each instruction with the bytes it ran with, not the bytes
/// the program wrote over it later (self-modifying code), on both CPUs.
#[test]
fn the_error_trace_shows_self_modified_code_as_it_ran() {
    let map = MemoryMap::empty().ram("RAM", AddrRange::new(0x0000, 0xFFFF).unwrap());
    let z80_code = [
        0x06, 0x11, // 0000 LD B,$11        (then rewritten to LD C,$11)
        0x3E, 0x0E, // 0002 LD A,$0E
        0x32, 0x00, 0x00, // 0004 LD ($0000),A
        0x3E, 0xED, // 0007 LD A,$ED
        0x32, 0x0E, 0x00, // 0009 LD ($000E),A
        0x00, 0x00, // 000C NOP ; NOP
        0x00, 0x00, // 000E NOP, rewritten to ED 00: illegal
    ];
    let mut m = on_map(Cpu::Z80, map, 0x0000, &z80_code);
    let (bytes, pc) = (vec![0xED, 0x00], 0x000E);
    let e = expect_fault(&mut m, Fault::IllegalOpcode { bytes, pc });
    let first = &e.trace.entries[0];
    assert_eq!(
        (first.pc, first.bytes.as_slice()),
        (0x0000, &[0x06, 0x11][..])
    );
    assert_eq!(first.text, "LD B,$11");
    let last = e.trace.entries.last().unwrap();
    assert_eq!(
        (last.pc, last.bytes.as_slice()),
        (0x000E, &[0xED, 0x00][..])
    );
    // The memory itself holds the new bytes.
    assert_eq!(m.read_bytes(0, 2), [0x0E, 0x11]);

    // 6502: INC of its own operand, then BRK's stop shows the trace (LDX #$41 ran as $41).
    let mos_code = [
        0xA2, 0x41, // C000 LDX #$41     (then incremented to LDX #$42)
        0xEE, 0x01, 0xC0, // C002 INC $C001
        0xEE, 0x01, 0xC0, // C005 INC $C001
        0x4C, 0x00, 0xC1, // C008 JMP $C100 (outside the program)
    ];
    let map = MemoryMap::empty()
        .ram("low", AddrRange::new(0x0000, 0xBEFF).unwrap())
        .ram("high", AddrRange::new(0xC000, 0xFFFF).unwrap())
        .with_io_page(0xBF00);
    let mut m = on_map(Cpu::Mos6502, map, 0xC000, &mos_code);
    let (pc, from, program) = (0xC100, Some(0xC008), "$C000-$C00A".to_string());
    let e = expect_fault(&mut m, Fault::PcOutOfProgram { pc, from, program });
    let first = &e.trace.entries[0];
    assert_eq!((first.pc, first.text.as_str()), (0xC000, "LDX #$41"));
    assert_eq!(m.read_byte(0xC001), 0x43);
}
