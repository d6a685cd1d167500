//! The profiler counts routines entered by a jump (a tail call, an RST vector's jump to its
//! handler) as well as by calls, on both CPUs.

use kempelen_emulator::{Cpu, MachineBuilder, SymbolTable};

fn profile(cpu: Cpu, code: &[u8], symbols: &str) -> Vec<(String, u64, u64, u64)> {
    let mut m = MachineBuilder::new(cpu)
        .load(if cpu == Cpu::Z80 { 0 } else { 0xC000 }, code)
        .symbols(SymbolTable::parse(symbols).unwrap())
        .build()
        .unwrap();
    m.enable_profiler();
    m.run(10_000).unwrap();
    let mut rows: Vec<_> = m
        .profile()
        .unwrap()
        .rows
        .into_iter()
        .map(|r| (r.routine, r.cycles, r.inclusive, r.calls))
        .collect();
    rows.sort();
    rows
}

#[test]
fn z80_rst_vector_jumping_to_its_handler_and_a_tail_call() {
    // 0000 START: JP MAIN
    // 0008 VEC:   JP HANDLER      (the RST 08h vector)
    // 0010 MAIN:  RST 08h ; XOR A ; OUT ($FF),A
    // 0020 HANDLER: JP TAIL
    // 0030 TAIL:  RET
    let mut code = vec![0u8; 0x31];
    code[0..3].copy_from_slice(&[0xC3, 0x10, 0x00]);
    code[8..11].copy_from_slice(&[0xC3, 0x20, 0x00]);
    code[0x10..0x14].copy_from_slice(&[0xCF, 0xAF, 0xD3, 0xFF]);
    code[0x20..0x23].copy_from_slice(&[0xC3, 0x30, 0x00]);
    code[0x30] = 0xC9;
    let rows = profile(
        Cpu::Z80,
        &code,
        "START EQU $0000\nVEC EQU $0008\nMAIN EQU $0010\nHANDLER EQU $0020\nTAIL EQU $0030\n",
    );
    assert_eq!(
        rows,
        [
            ("HANDLER".into(), 10, 10, 1),
            ("MAIN".into(), 11 + 4 + 11, 66 - 10, 1),
            ("START".into(), 10, 0, 0),
            ("TAIL".into(), 10, 10, 1),
            // The RST's frame runs to the RET, through HANDLER and TAIL.
            ("VEC".into(), 10, 30, 1),
        ]
    );
}

#[test]
fn mos6502_jmp_into_a_routine_counts_as_an_entry() {
    // C000 START: JSR SUB ; STA $BFFF (done)      SUB: JMP TAIL ; TAIL: RTS
    let code = [
        0x20, 0x06, 0xC0, // JSR SUB     6
        0x8D, 0xFF, 0xBF, // STA $BFFF   4
        0x4C, 0x09, 0xC0, // SUB: JMP TAIL  3
        0x60, // TAIL: RTS          6
    ];
    let rows = profile(
        Cpu::Mos6502,
        &code,
        "START EQU $C000\nSUB EQU $C006\nTAIL EQU $C009\n",
    );
    assert_eq!(
        rows,
        [
            ("START".into(), 10, 0, 0),
            // From the JSR to the RTS, TAIL included.
            ("SUB".into(), 3, 9, 1),
            ("TAIL".into(), 6, 6, 1),
        ]
    );
}

#[test]
fn z80_inclusive_time_runs_from_the_call_to_the_return_through_jumped_to_labels() {
    // 0000 START: LD SP,0 ; CALL ROUT ; XOR A ; OUT (0FFH),A
    // 0009 ROUT:  LD B,200 ; JR L1
    // 000D L1:    DJNZ L1 ; RET
    let code = [
        0x31, 0x00, 0x00, // LD SP,0      10
        0xCD, 0x09, 0x00, // CALL ROUT    17
        0xAF, // XOR A                     4
        0xD3, 0xFF, // OUT (0FFH),A       11
        0x06, 200, // ROUT: LD B,200       7
        0x18, 0x00, // JR L1              12
        0x10, 0xFE, // L1: DJNZ L1        199 x 13 + 8
        0xC9, // RET                      10
    ];
    let rows = profile(
        Cpu::Z80,
        &code,
        "START EQU $0000\nROUT EQU $0009\nL1 EQU $000D\n",
    );
    let djnz = 199 * 13 + 8;
    assert_eq!(
        rows,
        [
            ("L1".into(), djnz + 10, djnz + 10, 1),
            // From the CALL into ROUT to its return: 7 + 12 + 2,595 + 10.
            ("ROUT".into(), 7 + 12, 2_624, 1),
            ("START".into(), 10 + 17 + 4 + 11, 0, 0),
        ]
    );
}
