//! The devices and the measurements through whole programs: the console driven by a script,
//! the RAM profile, the cycle profiler, the tracer and real-time pacing.

use kempelen_emulator::clock::machine;
use kempelen_emulator::trace::TraceFilter;
use kempelen_emulator::{
    AddrRange, CoreKind, Cpu, Fault, Machine, MachineBuilder, Registers, StopReason, SymbolKind,
    SymbolTable, Tracer,
};
use std::time::Duration;

/// A symbol table of labels and constants.
fn symbols(labels: &[(&str, u16)], constants: &[(&str, u16)]) -> SymbolTable {
    let mut t = SymbolTable::new();
    for &(name, value) in labels {
        t.insert(name, value, SymbolKind::Label);
    }
    for &(name, value) in constants {
        t.insert(name, value, SymbolKind::Constant);
    }
    t
}

/// Echoes console input until a newline, then makes the host call "done".
const Z80_ECHO: [u8; 17] = [
    0xDB, 0x00, // 0000 wait: IN A,($00)
    0xE6, 0x01, // 0002 AND 1
    0x28, 0xFA, // 0004 JR Z,wait
    0xDB, 0x01, // 0006 IN A,($01)
    0xD3, 0x01, // 0008 OUT ($01),A
    0xFE, 0x0A, // 000A CP 10
    0x20, 0xF2, // 000C JR NZ,wait
    0xAF, // 000E XOR A
    0xD3, 0xFF, // 000F OUT ($FF),A
];

/// The same for the 6502, through the I/O page.
const MOS6502_ECHO: [u8; 22] = [
    0xAD, 0x00, 0xBF, // C000 wait: LDA $BF00
    0x29, 0x01, // C003 AND #1
    0xF0, 0xF9, // C005 BEQ wait
    0xAD, 0x01, 0xBF, // C007 LDA $BF01
    0x8D, 0x01, 0xBF, // C00A STA $BF01
    0xC9, 0x0A, // C00D CMP #10
    0xD0, 0xEF, // C00F BNE wait
    0xA9, 0x00, // C011 LDA #0
    0x8D, 0xFF, 0xBF, // C013 STA $BFFF
];

/// A Z80 machine with `program` at $0000.
fn z80(program: &[u8]) -> Machine {
    MachineBuilder::new(Cpu::Z80)
        .load(0, program)
        .build()
        .unwrap()
}

/// A 6502 machine with `program` at $C000.
fn mos6502(program: &[u8]) -> Machine {
    MachineBuilder::new(Cpu::Mos6502)
        .load(0xC000, program)
        .build()
        .unwrap()
}

/// Queues `input` in `m`'s console and runs to the host call "done"; the echoed output must
/// be `input`. Returns the run's cycles.
fn echo(m: &mut Machine, input: &[u8]) -> u64 {
    m.console_mut().push_input(input);
    let stats = m.run(10_000).unwrap();
    assert_eq!(stats.stop, StopReason::HostDone);
    assert_eq!(m.console_mut().take_output(), input);
    stats.cycles
}

#[test]
fn z80_console_echo() {
    let mut m = z80(&Z80_ECHO);
    // Two characters at 66 cycles, the newline at 61, then XOR A and OUT.
    assert_eq!(echo(&mut m, b"hi\n"), 66 + 66 + 61 + 4 + 11);
    assert_eq!(m.console_mut().pending_input(), 0);
}

#[test]
fn mos6502_console_echo() {
    assert_eq!(echo(&mut mos6502(&MOS6502_ECHO), b"hi\n"), 21 + 21 + 20 + 6);
}

#[test]
fn waiting_for_input_that_never_comes_hits_the_budget() {
    let mut m = z80(&Z80_ECHO);
    m.console_mut().push_input(b"no newline");
    let e = m.run(100_000).unwrap_err();
    assert!(matches!(
        e.fault,
        Fault::BudgetExceeded {
            budget: 100_000,
            ..
        }
    ));
    assert_eq!(m.console_mut().take_output(), b"no newline");
}

#[test]
fn stop_on_empty_input_hands_control_back_turn_by_turn() {
    for core in [CoreKind::Z80, CoreKind::RustzxZ80] {
        let mut m = MachineBuilder::new(Cpu::Z80)
            .core(core)
            .load(0, &Z80_ECHO)
            .build()
            .unwrap();
        m.console_mut().set_stop_on_empty_input(true);
        // Nothing queued: the first IN finds no key and the run stops right after it.
        let stats = m.run(100_000).unwrap();
        assert_eq!(stats.stop, StopReason::InputWait { pc: 0x0000 });
        assert_eq!((stats.cycles, stats.instructions), (11, 1));
        m.console_mut().push_input(b"h");
        let stats = m.run(100_000).unwrap();
        assert_eq!(stats.stop, StopReason::InputWait { pc: 0x0000 });
        // AND, JR back, then one echoed character (66) and the IN that finds the queue empty.
        assert_eq!(stats.cycles, 7 + 12 + 66 + 11);
        assert_eq!(m.console_mut().take_output(), b"h");
        echo(&mut m, b"i\n");
    }
}

#[test]
fn mos6502_stops_on_empty_input_too() {
    let mut m = mos6502(&MOS6502_ECHO);
    m.console_mut().set_stop_on_empty_input(true);
    m.console_mut().push_input(b"a");
    let stats = m.run(10_000).unwrap();
    assert_eq!(stats.stop, StopReason::InputWait { pc: 0xC000 });
    assert_eq!(m.console_mut().take_output(), b"a");
    m.console_mut().push_input(b"\n");
    assert_eq!(m.run(10_000).unwrap().stop, StopReason::HostDone);
}

/// Fills 10 bytes at $4000, calls a routine that pushes two pairs, and stops.
const Z80_RAM: [u8; 21] = [
    0x21, 0x00, 0x40, // 0000 LD HL,$4000
    0x06, 0x0A, // 0003 LD B,10
    0x36, 0xAA, // 0005 l: LD (HL),$AA
    0x23, // 0007 INC HL
    0x10, 0xFB, // 0008 DJNZ l
    0xCD, 0x10, 0x00, // 000A CALL sub
    0xAF, // 000D XOR A
    0xD3, 0xFF, // 000E OUT ($FF),A
    0xE5, // 0010 sub: PUSH HL
    0xD5, // 0011 PUSH DE
    0xD1, // 0012 POP DE
    0xE1, // 0013 POP HL
    0xC9, // 0014 RET
];

#[test]
fn ram_profile_counts_data_and_stack() {
    let mut m = z80(&Z80_RAM);
    // Host writes are not the program's RAM use.
    m.write_byte(0x5000, 1).unwrap();
    let stats = m.run(10_000).unwrap();
    assert_eq!(stats.max_stack_depth, Some(6));
    let p = m.ram_profile();
    let rom = &p.regions[0];
    let ram = &p.regions[1];
    assert_eq!((rom.name.as_str(), rom.bytes_written), ("rom", 0));
    assert_eq!((ram.name.as_str(), ram.bytes_written), ("ram", 10 + 6));
    let stack = p.stack.unwrap();
    assert_eq!(stack.region, AddrRange::new(0xF000, 0xFFFF).unwrap());
    assert_eq!((stack.max_depth, stack.low_water), (6, 0xFFFA));
    assert_eq!((p.data_bytes, p.peak_bytes), (10, 16));
    // The next run starts a new profile.
    m.set_pc(0x0010);
    m.set_sp(0xFFFE);
    m.write_word(0xFFFE, 0x000D).unwrap();
    m.run(10_000).unwrap();
    let p = m.ram_profile();
    assert_eq!((p.data_bytes, p.peak_bytes), (0, 6));
}

#[test]
fn profiler_charges_cycles_to_routines() {
    let symbols = symbols(
        &[("START", 0x0000), ("SUB", 0x0010), ("DATA", 0x8000)],
        &[("PORT", 0x0001)],
    );
    let mut m = MachineBuilder::new(Cpu::Z80)
        .load(0, &Z80_RAM)
        .symbols(symbols)
        .build()
        .unwrap();
    m.enable_profiler();
    let stats = m.run(10_000).unwrap();
    let p = m.profile().unwrap();
    // PORT is a constant and DATA lies outside the program: neither is a routine.
    assert_eq!(p.rows.len(), 2);
    let start = p.row("START").unwrap();
    let sub = p.row("SUB").unwrap();
    assert_eq!(sub.cycles, 11 + 11 + 10 + 10 + 10);
    assert_eq!((sub.calls, sub.inclusive), (1, 52));
    assert_eq!(start.cycles, 10 + 7 + 10 * 16 + 9 * 13 + 8 + 17 + 4 + 11);
    assert_eq!(p.total_cycles, stats.cycles);
    assert_eq!(p.rows[0].routine, "START");
    assert!((start.share + sub.share - 100.0).abs() < 1e-9);
    // A second run adds up; a reset clears.
    m.set_pc(0);
    m.run(10_000).unwrap();
    assert_eq!(m.profile().unwrap().total_cycles, 2 * stats.cycles);
    m.profiler_mut().unwrap().reset();
    assert_eq!(m.profile().unwrap().total_cycles, 0);
}

#[test]
fn tracer_records_instructions_with_registers() {
    let (tracer, entries) = Tracer::collecting(TraceFilter {
        max_entries: Some(3),
        range: None,
    });
    let mut m = MachineBuilder::new(Cpu::Z80)
        .core(CoreKind::RustzxZ80)
        .load(0, &Z80_RAM)
        .symbols(symbols(&[("START", 0)], &[]))
        .build()
        .unwrap();
    m.set_tracer(tracer);
    m.run(10_000).unwrap();
    let entries = entries.borrow();
    assert_eq!(entries.len(), 3);
    assert_eq!(
        entries.iter().map(|e| e.pc).collect::<Vec<_>>(),
        [0x0000, 0x0003, 0x0005]
    );
    assert_eq!(entries[2].cycles, 17);
    assert_eq!(entries[2].index, 2);
    assert_eq!(entries[1].symbol.as_deref(), Some("START+3"));
    let Some(Registers::Z80(r)) = entries[2].registers else {
        panic!("Z80 registers")
    };
    // Before LD (HL),$AA: HL = $4000, B = 10 (rustzx shows the main registers).
    let main = r.main.expect("rustzx core shows HL and BC");
    assert_eq!((main.hl, main.bc >> 8), (0x4000, 10));
}

#[test]
fn tracer_address_range() {
    let (tracer, entries) = Tracer::collecting(TraceFilter {
        max_entries: None,
        range: Some(AddrRange::new(0x0010, 0x0014).unwrap()),
    });
    let mut m = z80(&Z80_RAM);
    m.set_tracer(tracer);
    m.run(10_000).unwrap();
    let pcs: Vec<u16> = entries.borrow().iter().map(|e| e.pc).collect();
    assert_eq!(pcs, [0x10, 0x11, 0x12, 0x13, 0x14]);
}

#[test]
fn realtime_paces_to_the_clock() {
    // LDY #16 ; o: LDX #0 ; i: DEX ; BNE i ; DEY ; BNE o ; STA $BFFF
    let code = [
        0xA0, 0x10, 0xA2, 0x00, 0xCA, 0xD0, 0xFD, 0x88, 0xD0, 0xF8, 0x8D, 0xFF, 0xBF,
    ];
    let kim = machine("kim-1").unwrap();
    let mut m = MachineBuilder::new(Cpu::Mos6502)
        .load(0xC000, &code)
        .clock(kim)
        .build()
        .unwrap();
    m.set_realtime(true);
    let stats = m.run(1_000_000).unwrap();
    assert_eq!(stats.cycles, 20_581);
    assert_eq!(stats.time_at(kim), Duration::from_micros(20_581));
    // At 1 MHz the run cannot end before 20.581 ms of wall time.
    assert!(
        stats.wall_time >= Duration::from_micros(20_581),
        "{:?}",
        stats.wall_time
    );
}
