//! The console's record of reads: every character a program takes, with the exact cycle count
//! when it took it, on both CPUs (Kempelen's own Z80 and 6502 machines) and through a
//! personality's host traps (CP/M BDOS 1, 6 and 10 and the Jupiter III's RST 38h key service
//! on the Z80, the KIM-1's GETCH and GETKEY on the 6502). Looking at the status, and reading
//! the data register while nothing waits, add no entry. The programs are our own, assembled
//! here.

use kempelen_emulator::{
    ConsoleRead, CoreKind, Cpu, Fault, Machine, MachineBuilder, Personality, StopReason,
};

/// The bytes of `source`, which must assemble without errors.
fn assemble(cpu: Cpu, source: &str) -> (u16, Vec<u8>) {
    let out = kempelen_asm::assemble_source(cpu, "test.asm", source);
    assert!(out.is_ok(), "{:?}", out.diagnostics);
    (out.image.origin, out.image.bytes)
}

/// The reads as (cycle count, character) pairs.
/// A machine of the built-in personality `id` with the program at `org`, recording reads.
fn recording_on(id: &str, org: u16, bytes: &[u8]) -> Machine {
    let mut m = Personality::built_in(id)
        .unwrap()
        .builder()
        .load(org, bytes)
        .build()
        .unwrap();
    m.console_mut().set_record_reads(true);
    m
}

fn reads(m: &mut Machine) -> Vec<(u64, u8)> {
    let v: Vec<(u64, u8)> = m
        .console_mut()
        .reads()
        .iter()
        .map(|&ConsoleRead { cycles, byte }| (cycles, byte))
        .collect();
    // One entry per character taken.
    assert_eq!(v.len() as u64, m.console_mut().counts().0);
    v
}

/// Reads the data port once with nothing queued, then echoes three characters, each after
/// polling the status until one waits.
const Z80_READ_THREE: &str = "
        org 0
        in a,(1)        ; 11  nothing waiting: A = 0, nothing taken
        ld b,3          ;  7
next:   in a,(0)        ; 11  status
        and 1           ;  7
        jr z,next       ; 12 taken, 7 not
        in a,(1)        ; 11  takes a character
        out (1),a       ; 11
        djnz next       ; 13 taken, 8 not
        xor a           ;  4
        out (0FFh),a    ; 11  host call: done
";

/// The same for the 6502, through the I/O page at $BF00.
const MOS6502_READ_THREE: &str = "
        .org $C000
        lda $BF01       ; 4  nothing waiting: A = 0, nothing taken
        ldx #3          ; 2
next:   lda $BF00       ; 4  status
        and #1          ; 2
        beq next        ; 3 taken, 2 not
        lda $BF01       ; 4  takes a character
        sta $BF01       ; 4
        dex             ; 2
        bne next        ; 3 taken, 2 not
        lda #0          ; 2
        sta $BFFF       ; 4  host call: done
";

/// Runs a READ_THREE program: first with nothing queued (it stops after the empty data read,
/// having taken nothing), then with `xyz`. Returns the reads and the run's cycles.
fn read_three(b: MachineBuilder) -> (Vec<(u64, u8)>, u64) {
    let mut m = b.build().unwrap();
    m.console_mut().set_record_reads(true);
    m.console_mut().set_stop_on_empty_input(true);
    let stats = m.run(10_000).unwrap();
    assert!(matches!(stats.stop, StopReason::InputWait { .. }));
    assert!(reads(&mut m).is_empty(), "the empty read took nothing");
    m.console_mut().push_input(b"xyz");
    let stats = m.run_more(10_000).unwrap();
    assert_eq!(stats.stop, StopReason::HostDone);
    assert_eq!(m.console_mut().take_output(), b"xyz");
    (reads(&mut m), stats.cycles)
}

#[test]
fn z80_reads_are_stamped_at_the_end_of_each_in() {
    let (org, bytes) = assemble(Cpu::Z80, Z80_READ_THREE);
    let builders = [
        MachineBuilder::new(Cpu::Z80).core(CoreKind::Z80),
        MachineBuilder::new(Cpu::Z80).core(CoreKind::RustzxZ80),
        MachineBuilder::new(Cpu::Z80).checked_steps(true),
    ];
    for b in builders {
        let (reads, cycles) = read_three(b.load(org, &bytes));
        // IN (11), LD B (7), then per character: IN, AND, JR not taken, IN (11 + 7 + 7 + 11
        // = 36 to the end of the data IN), OUT and DJNZ taken (11 + 13) before the next.
        let first = 11 + 7 + 36;
        let round = 36 + 11 + 13;
        assert_eq!(
            reads,
            [
                (first, b'x'),
                (first + round, b'y'),
                (first + 2 * round, b'z')
            ]
        );
        // OUT, DJNZ not taken, XOR A, OUT.
        assert_eq!(cycles, first + 2 * round + 11 + 8 + 4 + 11);
    }
}

#[test]
fn mos6502_reads_are_stamped_at_the_end_of_each_load() {
    let (org, bytes) = assemble(Cpu::Mos6502, MOS6502_READ_THREE);
    for cpu in [Cpu::Mos6502, Cpu::Cmos65c02] {
        let (reads, cycles) = read_three(MachineBuilder::new(cpu).load(org, &bytes));
        // LDA (4), LDX (2), then per character: LDA, AND, BEQ not taken, LDA (4 + 2 + 2 + 4
        // = 12 to the end of the data load), STA, DEX and BNE taken (4 + 2 + 3).
        let first = 4 + 2 + 12;
        let round = 12 + 4 + 2 + 3;
        assert_eq!(
            reads,
            [
                (first, b'x'),
                (first + round, b'y'),
                (first + 2 * round, b'z')
            ],
            "{cpu}"
        );
        // STA, DEX, BNE not taken, LDA #0, STA.
        assert_eq!(cycles, first + 2 * round + 4 + 2 + 2 + 2 + 4, "{cpu}");
    }
}

#[test]
fn polling_the_status_adds_no_entry_and_recording_is_off_by_default() {
    let (org, bytes) = assemble(Cpu::Z80, Z80_READ_THREE);
    // One character, taken by the first IN; then the program polls the status until the
    // budget is gone, more than a thousand times.
    let mut m = MachineBuilder::new(Cpu::Z80)
        .load(org, &bytes)
        .build()
        .unwrap();
    m.console_mut().set_record_reads(true);
    m.console_mut().push_input(b"x");
    let e = m.run(20_000).unwrap_err();
    assert!(matches!(e.fault, Fault::BudgetExceeded { .. }));
    assert_eq!(reads(&mut m), [(11, b'x')]);
    // Taking the list empties it.
    assert_eq!(m.console_mut().take_reads().len(), 1);
    assert!(m.console_mut().reads().is_empty());

    let mut m = MachineBuilder::new(Cpu::Z80)
        .load(org, &bytes)
        .build()
        .unwrap();
    m.console_mut().push_input(b"wxyz");
    assert_eq!(m.run(10_000).unwrap().stop, StopReason::HostDone);
    assert_eq!(m.console_mut().counts().0, 4);
    assert!(m.console_mut().reads().is_empty(), "off unless asked for");
}

#[test]
fn cpm_bdos_reads_are_stamped_when_the_call_returns() {
    let (org, bytes) = assemble(
        Cpu::Z80,
        "
        org 100h
        ld c,1          ;  7
        call 5          ; 17  BDOS 1: a character, echoed
        ld c,6          ;  7
        ld e,0FEh       ;  7
        call 5          ; 17  BDOS 6 with E = $FE: the status only
        ld c,6          ;  7
        ld e,0FFh       ;  7
        call 5          ; 17  BDOS 6 with E = $FF: a character, not echoed
        ld c,11         ;  7
        call 5          ; 17  BDOS 11: the status only
        ld c,10         ;  7
        ld de,buf       ; 10
        call 5          ; 17  BDOS 10: a line, up to its carriage return
        jp 0            ; 10  warm boot: done
buf:    db 8
        ds 9
",
    );
    let mut m = recording_on("cpm", org, &bytes);
    m.console_mut().push_input(b"xyab\r");
    let stats = m.run(10_000).unwrap();
    assert_eq!(stats.stop, StopReason::HostDone);
    // The BDOS costs the 10 T-states of its RET (the personality charges no more): each read
    // is stamped when the routine returns.
    let ret = 10;
    let bdos1 = 7 + 17 + ret;
    let bdos6 = bdos1 + (7 + 7 + 17 + ret) + (7 + 7 + 17 + ret);
    let bdos10 = bdos6 + (7 + 17 + ret) + (7 + 10 + 17 + ret);
    assert_eq!(
        reads(&mut m),
        [
            (bdos1, b'x'),
            (bdos6, b'y'),
            (bdos10, b'a'),
            (bdos10, b'b'),
            (bdos10, b'\r')
        ]
    );
    assert_eq!(stats.cycles, bdos10 + 10);
    assert_eq!(m.console_mut().take_output(), b"xab\n");
}

#[test]
fn kim1_getch_and_getkey_reads_are_stamped_when_the_routine_returns() {
    let (org, bytes) = assemble(
        Cpu::Mos6502,
        "
        .org $0200
GETCH   = $1E5A
GETKEY  = $1F6A
START   = $1C4F
        jsr GETCH       ; 6  a character in A, echoed
        sta $10         ; 3
        jsr GETKEY      ; 6  the key held down (characters that are no key are skipped)
        sta $11         ; 3
        jsr GETKEY      ; 6  released: takes nothing
        jsr GETCH       ; 6
        jmp START       ; 3  into the monitor: done
",
    );
    let mut m = recording_on("kim-1", org, &bytes);
    m.console_mut().set_stop_on_empty_input(true);
    m.console_mut().push_input(b"q\n");
    // GETKEY takes the new line (no key), finds nothing more and waits.
    // Each routine costs the 6 cycles of its RTS; a call that waits costs nothing yet.
    let rts = 6;
    let stats = m.run(10_000).unwrap();
    assert_eq!(stats.stop, StopReason::InputWait { pc: 0x1F6A });
    assert_eq!(stats.cycles, 6 + rts + 3 + 6);
    m.console_mut().push_input(b"5z");
    let stats = m.run_more(10_000).unwrap();
    assert_eq!(stats.stop, StopReason::HostDone);
    assert_eq!(
        reads(&mut m),
        [
            (6 + rts, b'q'),
            (21, b'\n'),
            (21 + rts, b'5'),
            (21 + rts + 3 + (6 + rts) + 6 + rts, b'z')
        ]
    );
    assert_eq!(stats.cycles, 54 + 3);
    assert_eq!(m.read_bytes(0x10, 2), [b'q', 5]);
}

#[test]
fn jupiter3_key_reads_are_stamped_when_the_rst_returns() {
    let (org, bytes) = assemble(
        Cpu::Z80,
        "
        org 0
        jp start        ; 10
        org 40h
start:  rst 38h         ; 11  Jove: read a key into A
        db 81h, 00h
        ld (70h),a      ; 13
        rst 38h         ; 11  read a key into A
        db 81h, 00h
        ld (71h),a      ; 13
        rst 38h         ; 11  exit to the monitor
        db 1Fh
",
    );
    let mut m = recording_on("jupiter-3", org, &bytes);
    m.console_mut().push_input(b"YB");
    let stats = m.run(10_000).unwrap();
    assert_eq!(stats.stop, StopReason::HostDone);
    // Each service costs the 10 T-states of a RET; the exit ends the run.
    let ret = 10;
    assert_eq!(
        reads(&mut m),
        [(10 + 11 + ret, b'Y'), (10 + 11 + ret + 13 + 11 + ret, b'B')]
    );
    assert_eq!(stats.cycles, 10 + 11 + ret + 13 + 11 + ret + 13 + 11);
    assert_eq!(m.read_bytes(0x70, 2), *b"YB");
}
