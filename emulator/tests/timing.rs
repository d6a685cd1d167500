//! The timing models against their sources' figures, exactly: each test names the publication
//! its expected numbers come from, and computes them from that publication's rules, not from
//! Kempelen's model files.
//!
//! - ZX Spectrum: the comp.sys.sinclair FAQ's contention (the delay at each T-state of the
//!   frame, the order of each instruction's accesses, the I/O patterns), a frame of 69,888
//!   T-states, the interrupt once a frame.
//! - Amstrad CPC: Kevin Thacker's measured table of instruction times in microseconds.
//! - Commodore 64: Christian Bauer's VIC-II article: 63 cycles a line, 312 lines, bad lines
//!   that cost a reading CPU 43 cycles and one that writes in BA's 3 cycles less.
//! - Atari 800: the Atari 400/800 Hardware Manual's cycle counting: 114 cycles a line, 262
//!   lines, 9 refresh cycles a line, the text screen's character fetches.
//! - Apple II: Jim Sather's long cycle. ZX81: the ROM's NMI in the margins.

use kempelen_emulator::timing::{Timing, TimingModel};
use kempelen_emulator::{CoreKind, Cpu, Machine, MachineBuilder, MemoryMap, RunStats, StopReason};

/// The bytes of `source`, which must assemble without errors.
fn assemble(cpu: Cpu, source: &str) -> (u16, Vec<u8>) {
    let out = kempelen_asm::assemble_source(cpu, "test.asm", source);
    assert!(out.is_ok(), "{:?}", out.diagnostics);
    (out.image.origin, out.image.bytes)
}

fn model(machine: &str, id: &str) -> &'static TimingModel {
    Timing::parse(id).model_for(machine).unwrap().unwrap()
}

/// A Z80 machine (all RAM) with `source` assembled into it, timed by `model`.
fn z80_machine(model: &'static TimingModel, source: &str) -> Machine {
    let (org, bytes) = assemble(Cpu::Z80, source);
    MachineBuilder::new(Cpu::Z80)
        .memory_map(MemoryMap::all_ram())
        .load(org, &bytes)
        .timing(Some(model))
        .build()
        .unwrap()
}

/// Runs a Z80 program (all RAM) under `model` from frame tick `at`, to its host call "done".
fn run_z80(model: &'static TimingModel, source: &str, at: u64) -> RunStats {
    let mut m = z80_machine(model, source);
    assert_eq!(m.core_kind(), CoreKind::RustzxZ80, "per-access timing");
    assert!(m.set_frame_position(at));
    let stats = m.run(10_000_000).unwrap();
    assert_eq!(stats.stop, StopReason::HostDone);
    stats
}

/// Runs a 6502 program (default map, at `$C000`) under `model` from frame tick `at`.
fn run_6502(model: &'static TimingModel, source: &str, at: u64) -> RunStats {
    let (org, bytes) = assemble(Cpu::Mos6502, source);
    let mut m = MachineBuilder::new(Cpu::Mos6502)
        .load(org, &bytes)
        .entry(org)
        .timing(Some(model))
        .build()
        .unwrap();
    assert!(m.set_frame_position(at));
    let stats = m.run(100_000_000).unwrap();
    assert_eq!(stats.stop, StopReason::HostDone);
    stats
}

fn ticks(s: &RunStats) -> u64 {
    s.machine_time.expect("a timed run").ticks
}

// --- ZX Spectrum: the comp.sys.sinclair FAQ, "Contended memory" and "Contended I/O" ---------

/// The FAQ's delay for a contended access starting at frame T-state `t` (48K): 6, 5, 4, 3,
/// 2, 1, 0, 0 from 14335, over 128 T-states of each of the 192 lines of 224.
fn ula_delay(t: u64) -> u64 {
    let t = t % 69_888;
    if t < 14_335 {
        return 0;
    }
    let (line, x) = ((t - 14_335) / 224, (t - 14_335) % 224);
    if line >= 192 || x >= 128 {
        0
    } else {
        [6, 5, 4, 3, 2, 1, 0, 0][(x % 8) as usize]
    }
}

/// One step of the FAQ's breakdown of an instruction.
#[derive(Clone, Copy)]
enum Step {
    /// `addr:n`: the address on the bus (contended if in `$4000-$7FFF`), for n T-states.
    M(u16, u64),
    /// An I/O cycle at a port, by the FAQ's four patterns.
    Io(u16),
}

/// The T-states the FAQ's rules give for `steps` from frame T-state `t0`, with `contended`
/// the contended addresses.
fn faq_time(steps: &[Step], t0: u64, contended: impl Fn(u16) -> bool) -> u64 {
    let mut t = t0;
    for &s in steps {
        match s {
            Step::M(addr, n) => {
                if contended(addr) {
                    t += ula_delay(t);
                }
                t += n;
            }
            Step::Io(port) => {
                let c = |t: &mut u64, n: u64| {
                    *t += ula_delay(*t) + n;
                };
                match (contended(port & 0xFF00), port & 1 == 0) {
                    (true, true) => {
                        c(&mut t, 1);
                        c(&mut t, 3);
                    }
                    (true, false) => (0..4).for_each(|_| c(&mut t, 1)),
                    (false, true) => {
                        t += 1;
                        c(&mut t, 3);
                    }
                    (false, false) => t += 4,
                }
            }
        }
    }
    t - t0
}

/// A program at `base` with its data at `data` (both pages chosen by the test), and the FAQ's
/// breakdown of every instruction it executes, in order.
fn spectrum_program(base: u16, data: u16) -> (String, Vec<Step>) {
    use Step::{Io, M};
    let hl = data;
    let de = data + 0x0800;
    let sp = data + 0x2000;
    let ir = 0x3F00; // I = $3F as the ROM sets it; R changes but stays in page $3F
    let source = format!(
        "        org ${base:04X}
        ld hl,${hl:04X}
        ld de,${de:04X}
        ld sp,${sp:04X}
        ld bc,3
        nop
        ld a,(hl)
        inc hl
        push hl
        ldi
        ex (sp),hl
        call sub
        in a,($00)
        ld a,$40
        in a,($00)
        ld a,$40
        in a,($01)
        xor a
        out ($FF),a
sub:    inc (hl)
        ret
"
    );
    let pc = |k: u16| base + k;
    let sub = base + 35;
    let mut steps = vec![
        // LD HL,nn; LD DE,nn; LD SP,nn; LD BC,nn: pc:4, pc+1:3, pc+2:3
        M(pc(0), 4),
        M(pc(1), 3),
        M(pc(2), 3),
        M(pc(3), 4),
        M(pc(4), 3),
        M(pc(5), 3),
        M(pc(6), 4),
        M(pc(7), 3),
        M(pc(8), 3),
        M(pc(9), 4),
        M(pc(10), 3),
        M(pc(11), 3),
        // NOP: pc:4
        M(pc(12), 4),
        // LD A,(HL): pc:4, hl:3
        M(pc(13), 4),
        M(hl, 3),
        // INC HL: pc:4, ir:1 x 2
        M(pc(14), 4),
        M(ir, 1),
        M(ir, 1),
        // PUSH HL: pc:4, ir:1, sp-1:3, sp-2:3
        M(pc(15), 4),
        M(ir, 1),
        M(sp - 1, 3),
        M(sp - 2, 3),
        // LDI: pc:4, pc+1:4, hl:3, de:3, de:1 x 2
        M(pc(16), 4),
        M(pc(17), 4),
        M(hl + 1, 3),
        M(de, 3),
        M(de, 1),
        M(de, 1),
        // EX (SP),HL: pc:4, sp:3, sp+1:3, sp+1:1, sp+1(write):3, sp(write):3, sp(write):1 x 2
        M(pc(18), 4),
        M(sp - 2, 3),
        M(sp - 1, 3),
        M(sp - 1, 1),
        M(sp - 1, 3),
        M(sp - 2, 3),
        M(sp - 2, 1),
        M(sp - 2, 1),
        // CALL nn: pc:4, pc+1:3, pc+2:3, pc+2:1, sp-1:3, sp-2:3
        M(pc(19), 4),
        M(pc(20), 3),
        M(pc(21), 3),
        M(pc(21), 1),
        M(sp - 3, 3),
        M(sp - 4, 3),
        // INC (HL): pc:4, hl:3, hl:1, hl(write):3 (HL came back from the stack: hl + 1)
        M(sub, 4),
        M(hl + 1, 3),
        M(hl + 1, 1),
        M(hl + 1, 3),
        // RET: pc:4, sp:3, sp+1:3
        M(sub + 1, 4),
        M(sp - 4, 3),
        M(sp - 3, 3),
    ];
    // LD A,n at pc(k): pc:4, pc+1:3; IN A,(n) at pc(k): the same, then I/O at A*256+n.
    let ld_a_n = |k: u16| [M(pc(k), 4), M(pc(k + 1), 3)];
    let in_a_n = |k: u16, port: u16| [M(pc(k), 4), M(pc(k + 1), 3), Io(port)];
    // A = 0: port $0000.
    steps.extend(in_a_n(22, 0x0000));
    steps.extend(ld_a_n(24));
    // A = $40: port $4000, high byte contended, even.
    steps.extend(in_a_n(26, 0x4000));
    steps.extend(ld_a_n(28));
    // A = $40: port $4001, high byte contended, odd.
    steps.extend(in_a_n(30, 0x4001));
    // XOR A; OUT ($FF),A: port $00FF
    steps.extend([M(pc(32), 4), M(pc(33), 4), M(pc(34), 3), Io(0x00FF)]);
    (source, steps)
}

#[test]
fn spectrum_48k_contention_matches_the_faq_at_points_across_the_frame() {
    let m48 = model("zx-spectrum", "48k");
    let contended = |a: u16| (0x4000..=0x7FFF).contains(&a);
    // Code and data in the contended RAM, then in the upper 32 KB.
    for (base, data) in [(0x6000, 0x4800), (0x9000, 0xA000), (0x6000, 0xA000)] {
        let (source, steps) = spectrum_program(base, data);
        for at in [
            100,
            14_300,
            14_335,
            14_338,
            14_335 + 120,
            14_335 + 224 * 50 + 3,
            14_335 + 224 * 191 + 100,
            60_000,
        ] {
            let stats = run_z80(m48, &source, at);
            let expected = faq_time(&steps, at, contended);
            assert_eq!(
                ticks(&stats),
                expected,
                "code ${base:04X}, data ${data:04X}, from T-state {at}"
            );
            let plain: u64 = steps
                .iter()
                .map(|s| match s {
                    Step::M(_, n) => *n,
                    Step::Io(_) => 4,
                })
                .sum();
            assert_eq!(stats.cycles, plain, "the CPU's own T-states");
        }
    }
}

#[test]
fn spectrum_contention_the_published_examples() {
    let m48 = model("zx-spectrum", "48k");
    // A NOP fetched from contended memory at 14335 waits 6 T-states; NOPs that follow, 4 each.
    let (source, _) = (
        "        org $6000\n        nop\n        nop\n        nop\n        xor a\n        out ($FF),a\n",
        (),
    );
    let stats = run_z80(m48, source, 14_335);
    // 14335: +6, NOP to 14345; 14345 (phase 2): +4, to 14353; 14353: +4, to 14361;
    // XOR A at 14361: +4, to 14369; OUT: 14369 +4 to 14377, operand 14377 (phase 2) +4 to
    // 14384, I/O at port $00FF uncontended: 4.
    assert_eq!(
        ticks(&stats),
        (6 + 4) + (4 + 4) + (4 + 4) + (4 + 4) + (4 + 4) + (4 + 3) + 4
    );
    // The same code in the upper 32 KB is never contended.
    let upper = "        org $8000\n        nop\n        nop\n        nop\n        xor a\n        out ($FF),a\n";
    assert_eq!(ticks(&run_z80(m48, upper, 14_335)), 4 * 4 + 11);
}

#[test]
fn spectrum_16k_contends_every_address_but_the_refresh_page() {
    let m16 = model("zx-spectrum-16k", "16k");
    let contended = |a: u16| a >> 8 != 0x3F;
    let (source, steps) = spectrum_program(0x9000, 0xA000);
    for at in [14_335, 14_335 + 224 * 100 + 17, 60_000] {
        let stats = run_z80(m16, &source, at);
        assert_eq!(ticks(&stats), faq_time(&steps, at, contended), "from {at}");
    }
}

#[test]
fn spectrum_frames_are_69888_t_states_with_the_roms_interrupt_in_each() {
    let m48 = model("zx-spectrum", "48k");
    // About five frames of an uncontended loop with interrupts on (as the ROM leaves them).
    let source = "        org $8000
        ld bc,0
        ld d,2
loop:   dec bc
        ld a,b
        or c
        jr nz,loop
        dec d
        jr nz,loop
        out ($FF),a
";
    let stats = run_z80(m48, source, 0);
    let t = stats.machine_time.unwrap();
    // Interrupts are raised at 0, 69888, 139776, ...; each is taken at the end of the
    // instruction running, and costs 13 + 882 T-states (the ROM's MASK-INT, no key pressed).
    assert_eq!(t.ticks, stats.cycles + t.stats.interrupts * (13 + 882));
    assert_eq!(t.stats.interrupts, t.ticks.div_ceil(69_888));
    assert_eq!(t.stats.wait_ticks, 0, "nothing contended");
    // With interrupts off the run is its T-states.
    let di = source.replace("ld bc,0", "di\n        ld bc,0");
    let stats = run_z80(m48, &di, 0);
    assert_eq!(ticks(&stats), stats.cycles);
}

// --- Amstrad CPC: K. Thacker, "Instruction timings" (measured on a CPC) ---------------------

/// Thacker's table as `emulator/tests/data/cpc_instruction_times.txt` gives it.
fn cpc_rows() -> Vec<(String, u64)> {
    let text = include_str!("data/cpc_instruction_times.txt");
    // A sum of products of whole numbers: `1 + 5 + 2 + 3`, `4 * 2`.
    let value = |s: &str| -> u64 {
        s.split('+')
            .map(|term| {
                term.split('*')
                    .map(|n| n.trim().parse::<u64>().unwrap())
                    .product::<u64>()
            })
            .sum()
    };
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (us, code) = l.split_once('|').unwrap_or_else(|| panic!("no `|`: {l}"));
            let code: Vec<&str> = code.split(';').map(str::trim).collect();
            (code.join("\n "), value(us))
        })
        .collect()
}

#[test]
fn cpc_instruction_times_match_the_measured_table() {
    let cpc = model("cpc464", "cpc");
    // Rows of the table: the code (instructions on lines of their own) and the microseconds
    // the table gives, summed for the instructions of the row.
    let rows = cpc_rows();
    let program = |body: &str| {
        format!(
            "        org $4000
        ld sp,$F000
{body}
        xor a
        out ($FF),a
ret_only: ret
ret_nc: ret nc
        ret
ret_c:  ret c
        ret
"
        )
    };
    let base = ticks(&run_z80(cpc, &program(""), 0));
    for (code, us) in &rows {
        let body: String = (0..4)
            .map(|_| format!("        {}\n", code.replace("\n ", "\n        ")))
            .collect();
        let stats = run_z80(cpc, &program(&body), 0);
        assert_eq!(
            ticks(&stats) - base,
            4 * us * 4,
            "`{code}` four times: the table gives {us} µs each"
        );
    }
}

// --- Commodore 64: C. Bauer, "The MOS 6567/6569 video controller (VIC-II)" -------------------

/// Bauer: 63 cycles a line; bad lines $33-$F3 every 8 (YSCROLL 3); BA low from cycle 12, the
/// VIC-II's 40 accesses in cycles 15-54 (here from 0: BA at 11, the accesses at 14-53).
const C64_LINE: u64 = 63;
const C64_FRAME: u64 = 63 * 312;
const FIRST_BAD_LEAD: u64 = 0x33 * C64_LINE + 11;

#[test]
fn c64_a_bad_line_costs_a_reading_cpu_43_cycles_and_one_that_writes_in_ba_less() {
    let pal = model("c64", "pal");
    assert_eq!(pal.frame(), C64_FRAME);
    // NOP NOP (reads only): the second NOP's first read falls in BA's first cycle.
    let reads = ".org $C000\n nop\n nop\n sta $BFFF\n";
    let s = run_6502(pal, reads, FIRST_BAD_LEAD - 2);
    assert_eq!((s.cycles, ticks(&s)), (8, 8 + 43));
    // STA abs writes in BA's first cycle, then the next instruction's read waits: 42.
    let write = ".org $C000\n sta $0200\n sta $BFFF\n";
    let s = run_6502(pal, write, FIRST_BAD_LEAD - 3);
    assert_eq!((s.cycles, ticks(&s)), (8, 8 + 42));
    // INC abs writes twice (its last two cycles) in BA's first two: 41.
    let rmw = ".org $C000\n inc $0200\n sta $BFFF\n";
    let s = run_6502(pal, rmw, FIRST_BAD_LEAD - 4);
    assert_eq!((s.cycles, ticks(&s)), (10, 10 + 41));
    // Away from the bad lines nothing is taken.
    let s = run_6502(pal, reads, 0x30 * C64_LINE);
    assert_eq!(ticks(&s), 8);
}

/// A loop of reads only, long enough for several frames.
const C64_READ_LOOP: &str = ".org $C000
        sei
        ldy #40
outer:  ldx #0
inner:  nop
        nop
        dex
        bne inner
        dey
        bne outer
        sta $BFFF
";

#[test]
fn c64_frames_have_25_bad_lines_of_43_cycles_for_a_cpu_that_reads() {
    let pal = model("c64", "pal");
    let s = run_6502(pal, C64_READ_LOOP, 0);
    let t = s.machine_time.unwrap();
    // Every bad line whose BA went low before the end took 43 cycles (the loop only reads).
    let bad_lines_passed = (0..)
        .flat_map(|frame: u64| {
            (0x33..=0xF3)
                .step_by(8)
                .map(move |line| frame * C64_FRAME + line * C64_LINE + 11)
        })
        .take_while(|&lead| lead + 43 <= t.ticks)
        .count() as u64;
    assert!(
        bad_lines_passed > 25 * 3,
        "several frames: {bad_lines_passed}"
    );
    assert_eq!(t.stats.dma_ticks, 43 * bad_lines_passed);
    assert_eq!(
        t.ticks,
        s.cycles + 43 * bad_lines_passed,
        "SEI: no interrupt"
    );
    // So a whole frame leaves the CPU 19,656 - 25 x 43 = 18,581 cycles.
    assert_eq!(C64_FRAME - 25 * 43, 18_581);
}

#[test]
fn c64_kernal_interrupt_every_16422_cycles_and_no_bad_lines_with_the_screen_off() {
    let off = model("c64", "screen-off");
    let program = C64_READ_LOOP.replace("        sei\n", "");
    let s = run_6502(off, &program, 0);
    let t = s.machine_time.unwrap();
    // CIA 1 timer A, latch $4025 (Leemon; the KERNAL listing): an interrupt every 16,422
    // cycles, each 7 to take and 212 in the KERNAL's routine.
    assert_eq!(t.stats.interrupts, t.ticks.div_ceil(16_422));
    assert_eq!(t.ticks, s.cycles + t.stats.interrupts * (7 + 212));
    assert_eq!(t.stats.dma_ticks, 0);
}

// --- Atari 800: Atari 400/800 Hardware Manual, "Cycle counting" ------------------------------

/// The cycles ANTIC takes in line `line` (0-261) of the OS's GRAPHICS 0 screen, by the
/// manual's rules: 9 refresh cycles a line, but one on the first line of a character row; one
/// cycle per display-list byte; 40 character data cycles on each of the 192 text lines and 40
/// character codes on the first line of each of the 24 rows. The display list: 3 x "8 blank
/// lines" (lines 8-31), mode 2 with its screen address (3 bytes) at line 32, 23 more mode 2
/// rows, the 3-byte jump at line 224.
fn antic_text_line(line: u64) -> u64 {
    let text = (32..224).contains(&line);
    let row_start = text && (line - 32) % 8 == 0;
    let refresh = if row_start { 1 } else { 9 };
    let dl = match line {
        8 | 16 | 24 => 1,
        32 | 224 => 3,
        l if row_start && l > 32 => 1,
        _ => 0,
    };
    let playfield = if row_start {
        80
    } else if text {
        40
    } else {
        0
    };
    refresh + dl + playfield
}

#[test]
fn atari_a_frame_is_262_lines_of_114_cycles_and_the_text_screen_takes_10838() {
    let text = model("atari-800", "text");
    assert_eq!((text.line, text.lines), (114, 262));
    let per_frame: u64 = (0..262).map(antic_text_line).sum();
    assert_eq!(per_frame, 10_838);
    assert_eq!(29_868 - per_frame, 19_030, "the CPU's cycles a frame");
    let loop_ = ".org $C000
        ldy #60
outer:  ldx #0
inner:  nop
        dex
        bne inner
        dey
        bne outer
        sta $BFFF
";
    let s = run_6502(text, loop_, 0);
    let t = s.machine_time.unwrap();
    let frames = t.ticks / 29_868;
    assert!(frames >= 3, "{frames} frames");
    // Whole frames took 10,838 cycles each; the last, partial one what its lines took (each
    // line's cycles in one block from cycle 25, the display-list fetch at cycle 1).
    let rest = t.ticks % 29_868;
    let partial: u64 = (0..262)
        .map(|line| {
            let start = line * 114;
            let taken = antic_text_line(line);
            let dl = match line {
                8 | 16 | 24 => 1,
                32 | 224 => 3,
                l if (40..224).contains(&l) && (l - 32) % 8 == 0 => 1,
                _ => 0,
            };
            let block = taken - dl;
            let mut n = 0;
            if rest >= start + 1 + dl {
                n += dl;
            }
            if rest >= start + 25 + block {
                n += block;
            }
            n
        })
        .sum();
    assert_eq!(t.stats.dma_ticks, frames * per_frame + partial);
    assert_eq!(t.ticks, s.cycles + t.stats.dma_ticks);
    // Display DMA off: refresh only, 9 cycles a line, 2,358 a frame.
    let off = model("atari-800", "dma-off");
    let s = run_6502(off, loop_, 0);
    let t = s.machine_time.unwrap();
    let lines = t.ticks / 114;
    let last = if t.ticks % 114 >= 25 + 9 { 9 } else { 0 };
    assert_eq!(t.stats.dma_ticks, lines * 9 + last);
    assert_eq!(262 * 9, 2_358);
}

// --- Apple II: J. Sather, "Understanding the Apple II" ----------------------------------------

#[test]
fn apple_ii_every_65th_cycle_is_two_master_periods_long() {
    let apple = model("apple-2", "ntsc");
    let s = run_6502(
        apple,
        ".org $C000\n ldx #0\nl: dex\n bne l\n sta $BFFF\n",
        0,
    );
    let c = s.cycles;
    assert_eq!(ticks(&s), 14 * c + 2 * (c / 65));
    // A line: 65 cycles, 912 periods of 14.31818 MHz; the CPU's mean clock 1.0205 MHz.
    assert_eq!(65 * 14 + 2, 912);
    let mean_mhz: f64 = 14.318_18 * 65.0 / 912.0;
    assert!((mean_mhz - 1.0205).abs() < 1e-4, "{mean_mhz}");
}

// --- ZX81: the ROM's NMI in the margins (Logan & O'Hara, the ZX81 ROM disassembly) ------------

#[test]
fn zx81_slow_gives_the_program_164_of_207_t_states_in_each_margin_line() {
    let slow = model("zx81", "slow");
    let source = "        org $4000
        ld bc,0
loop:   dec bc
        ld a,b
        or c
        jr nz,loop
        out ($FF),a
";
    let s = run_z80_events(slow, source);
    let t = s.machine_time.unwrap();
    let frame = 312 * 207;
    // 110 margin lines of 164 T-states a frame for the program: 18,040 of 64,584.
    let frames = t.ticks / frame;
    assert!(frames >= 5, "{frames}");
    let program_per_frame = 110 * (207 - 43);
    assert_eq!(program_per_frame, 18_040);
    let whole = frames * program_per_frame;
    assert!(
        s.cycles >= whole && s.cycles < whole + program_per_frame,
        "{} cycles in {} ticks, {frames} frames",
        s.cycles,
        t.ticks
    );
    // FAST: the CPU's T-states.
    let fast = model("zx81", "fast");
    let s = run_z80_events(fast, source);
    assert_eq!(ticks(&s), s.cycles);
}

/// A Z80 program under a model that needs no per-access timing: it stays on the `z80` core.
fn run_z80_events(model: &'static TimingModel, source: &str) -> RunStats {
    let mut m = z80_machine(model, source);
    assert_eq!(m.core_kind(), CoreKind::Z80);
    let stats = m.run(100_000_000).unwrap();
    assert_eq!(stats.stop, StopReason::HostDone);
    stats
}

#[test]
fn a_machine_without_a_model_reports_no_machine_time_and_cpu_timing_is_none() {
    let (org, bytes) = assemble(
        Cpu::Z80,
        "        org $4000\n        xor a\n        out ($FF),a\n",
    );
    let mut m = MachineBuilder::new(Cpu::Z80)
        .memory_map(MemoryMap::all_ram())
        .load(org, &bytes)
        .build()
        .unwrap();
    let s = m.run(1000).unwrap();
    assert_eq!(s.machine_time, None);
    assert_eq!(Timing::Cpu.model_for("zx-spectrum"), Ok(None));
    assert_eq!(
        Timing::Machine.model_for("trs-80"),
        Ok(None),
        "no model: the clock"
    );
    let e = MachineBuilder::new(Cpu::Mos6502)
        .load(0xC000, &[0xEA])
        .timing(Some(model("msx", "pal")))
        .build()
        .unwrap_err();
    assert!(e.to_string().contains("another CPU"), "{e}");
}
