//! The debugger on both CPUs: one step is one instruction with its exact cycles, step over a
//! recursive call comes back at the caller's level, step out stops after the routine's return,
//! run to a symbol, breakpoints resume, and a program run by the debugger in small budgets
//! ends with the cycles of one plain run. The programs are our own, assembled here.

use kempelen_emulator::debug::{Debugger, Goal, Why};
use kempelen_emulator::{CoreKind, Cpu, Machine, MachineBuilder, StopReason};

fn assembled(cpu: Cpu, source: &str) -> kempelen_asm::Assembly {
    let out = kempelen_asm::assemble_source(cpu, "prog.asm", source);
    assert!(out.is_ok(), "{}", out.report());
    out
}

fn machine(cpu: Cpu, core: CoreKind, out: &kempelen_asm::Assembly) -> Machine {
    let mut b = MachineBuilder::new(cpu)
        .core(core)
        .load(out.image.origin, &out.image.bytes)
        .symbols(out.symbols.clone());
    if cpu != Cpu::Z80 {
        b = b.entry(out.image.origin);
    }
    b.build().unwrap()
}

/// fact(n) by recursion, then the host call "done". T-states in the comments.
const Z80_FACT: &str = "
        org 0
start:  ld sp,0             ; 10
        ld b,4              ;  7
        call fact           ; 17
        xor a               ;  4
        out (0FFh),a        ; 11
; fact: B levels deep, then back (a recursive routine with nothing to compute)
fact:   dec b               ;  4
        jr z,leaf           ;  7 / 12
        call fact           ; 17
leaf:   inc b               ;  4
        ret                 ; 10
";

/// The same for the 6502 (host call: $00 to $BFFF).
const M6502_FACT: &str = "
        .org $0200
start:  ldx #$FF            ; 2
        txs                 ; 2
        ldy #4              ; 2
        jsr fact            ; 6
        lda #0              ; 2
        sta $BFFF           ; 4
fact:   dey                 ; 2
        beq leaf            ; 2 / 3
        jsr fact            ; 6
leaf:   iny                 ; 2
        rts                 ; 6
";

fn fact(cpu: Cpu) -> (Machine, kempelen_asm::Assembly) {
    let (src, core) = match cpu {
        Cpu::Z80 => (Z80_FACT, CoreKind::RustzxZ80),
        _ => (M6502_FACT, CoreKind::default_for(cpu)),
    };
    let out = assembled(cpu, src);
    (machine(cpu, core, &out), out)
}

#[test]
fn a_step_is_one_instruction_with_its_table_cycles() {
    let (mut m, _) = fact(Cpu::Z80);
    let mut d = Debugger::new();
    let want = [
        (0x0003, 10),
        (0x0005, 7),
        (0x000B, 17),
        (0x000C, 4),
        (0x000E, 7),
    ];
    for (pc, cycles) in want {
        let s = d.step(&mut m).unwrap();
        assert_eq!(
            (s.why, s.pc, s.cycles, s.instructions),
            (Why::Done, pc, cycles, 1)
        );
    }
    let (mut m, _) = fact(Cpu::Mos6502);
    let want = [
        (0x0202, 2),
        (0x0203, 2),
        (0x0205, 2),
        (0x020D, 6),
        (0x020E, 2),
    ];
    for (pc, cycles) in want {
        let s = d.step(&mut m).unwrap();
        assert_eq!((s.why, s.pc, s.cycles), (Why::Done, pc, cycles));
    }
}

#[test]
fn step_over_a_recursive_call_comes_back_at_the_callers_level() {
    for cpu in [Cpu::Z80, Cpu::Mos6502, Cpu::Cmos65c02] {
        let (mut m, out) = fact(cpu);
        let routine = out.symbols.get("fact").unwrap();
        let mut d = Debugger::new();
        // To the call in `start`.
        let call = routine - if cpu == Cpu::Z80 { 6 } else { 8 };
        assert_eq!(d.run_to(&mut m, call, 1000).unwrap().why, Why::Done);
        let sp = m.sp();
        let s = d.step_over(&mut m, 10_000).unwrap();
        // The recursion passes the instruction after the inner calls three times deeper down
        // first; step over stops only at the caller's level.
        assert_eq!((s.why, s.pc, m.sp()), (Why::Done, call + 3, sp), "{cpu}");
        let want = match cpu {
            Cpu::Z80 => 17 + 3 * (4 + 7 + 17) + (4 + 12) + 4 * (4 + 10),
            _ => 6 + 3 * (2 + 2 + 6) + (2 + 3) + 4 * (2 + 6),
        };
        assert_eq!(s.cycles, want, "{cpu}");
        // A budget too small leaves the goal set; resuming reaches it.
        let (mut m, _) = fact(cpu);
        d.run_to(&mut m, call, 1000).unwrap();
        let s = d.step_over(&mut m, 20).unwrap();
        assert_eq!(s.why, Why::Budget);
        assert!(matches!(d.goal(), Some(Goal::Over { .. })));
        let mut total = s.cycles;
        loop {
            let s = d.resume(&mut m, 20).unwrap();
            total += s.cycles;
            if s.why != Why::Budget {
                assert_eq!((s.why, s.pc, total), (Why::Done, call + 3, want), "{cpu}");
                break;
            }
        }
    }
}

#[test]
fn step_out_stops_after_the_return_of_the_current_routine() {
    for cpu in [Cpu::Z80, Cpu::Mos6502] {
        let (mut m, out) = fact(cpu);
        let leaf = out.symbols.get("leaf").unwrap();
        let mut d = Debugger::new();
        // The first time at `leaf` is four levels down; out of one level: back after the
        // inner call, at `leaf` again, one level up.
        assert_eq!(d.run_to(&mut m, leaf, 1000).unwrap().why, Why::Done);
        let s = d.step_out(&mut m, 1000).unwrap();
        assert_eq!((s.why, s.pc), (Why::Done, leaf), "{cpu}");
        assert_eq!(s.instructions, 2, "{cpu}");
        let sp = m.sp();
        d.step_out(&mut m, 1000).unwrap();
        assert!(m.sp() > sp, "{cpu}");
    }
}

#[test]
fn breakpoints_stop_before_the_instruction_and_resume_from_it() {
    for cpu in [Cpu::Z80, Cpu::Mos6502] {
        let (mut m, out) = fact(cpu);
        let leaf = out.symbols.get("leaf").unwrap();
        let mut d = Debugger::new();
        d.set_breakpoint(leaf);
        let mut hits = 0;
        loop {
            let s = d.run(&mut m, 1_000_000).unwrap();
            match s.why {
                Why::Breakpoint(pc) => {
                    assert_eq!(pc, leaf);
                    hits += 1;
                }
                Why::Stopped(StopReason::HostDone) => break,
                other => panic!("{cpu}: {other:?}"),
            }
        }
        // fact(4) passes `leaf` once per level.
        assert_eq!(hits, 4, "{cpu}");
        assert_eq!(
            d.run_to_symbol(&mut m, "nowhere", 10).unwrap_err().0,
            "nowhere"
        );
    }
}

#[test]
fn a_run_in_small_budgets_ends_with_the_cycles_of_one_run() {
    for cpu in [Cpu::Z80, Cpu::Mos6502] {
        let (mut whole, _) = fact(cpu);
        let stats = whole.run(1_000_000).unwrap();
        let (mut m, _) = fact(cpu);
        let mut d = Debugger::new();
        let mut steps = 0;
        loop {
            let s = d.run(&mut m, 7).unwrap();
            steps += 1;
            if let Why::Stopped(r) = s.why {
                assert_eq!(r, StopReason::HostDone);
                break;
            }
        }
        assert_eq!(m.total_cycles(), stats.cycles, "{cpu}");
        assert_eq!(m.total_instructions(), stats.instructions, "{cpu}");
        assert_eq!(m.registers(), whole.registers(), "{cpu}");
        assert!(steps > 5, "{cpu}: {steps}");
    }
}

#[test]
fn the_disassembly_shows_symbols_cycles_and_source_lines() {
    let (mut m, out) = fact(Cpu::Z80);
    let mut d = Debugger::new().with_sources(out.listing.source_map());
    d.run_to_symbol(&mut m, "leaf", 1000).unwrap().unwrap();
    d.set_breakpoint(0x0011);
    let lines = d.disassembly(&m, m.pc(), 3, 2);
    let text: Vec<String> = lines
        .iter()
        .map(|l| {
            format!(
                "{:04X} {} {} {} {}{}{}",
                l.addr,
                l.text,
                l.cycles,
                l.routine.as_deref().unwrap_or(""),
                l.source
                    .as_ref()
                    .map_or(String::new(), |s| format!("prog.asm:{}", s.line)),
                if l.current { " <" } else { "" },
                if l.breakpoint { " *" } else { "" },
            )
        })
        .collect();
    assert_eq!(
        text,
        [
            "000B DEC B 4 fact prog.asm:9",
            "000C JR Z,leaf 7/12 fact+1 prog.asm:10",
            "000E CALL fact 17 fact+3 prog.asm:11",
            "0011 INC B 4 leaf prog.asm:12 < *",
            "0012 RET 10 leaf+1 prog.asm:13",
        ]
    );
    assert_eq!(lines[3].label.as_deref(), Some("leaf"));
    // Without the source map the instructions before are decoded from the routine's label.
    let plain = Debugger::new().disassembly(&m, 0x000E, 5, 1);
    let addrs: Vec<u16> = plain.iter().map(|l| l.addr).collect();
    assert_eq!(addrs, [0x000B, 0x000C, 0x000E]);
}

#[test]
fn registers_and_flags_per_cpu() {
    let (mut m, _) = fact(Cpu::Z80);
    let mut d = Debugger::new();
    d.run_to_symbol(&mut m, "leaf", 1000).unwrap().unwrap();
    // DEC B made B zero: Z set, N set.
    let flags = m.registers().flags().unwrap();
    let set: Vec<&str> = flags.iter().filter(|f| f.set).map(|f| f.name).collect();
    assert!(set.contains(&"Z") && set.contains(&"N"), "{set:?}");
    let bc = m
        .registers()
        .values()
        .into_iter()
        .find(|r| r.name == "BC")
        .unwrap();
    assert_eq!(bc.value >> 8, 0);
    for cpu in [Cpu::Mos6502, Cpu::Cmos65c02] {
        let (mut m, _) = fact(cpu);
        d.run_to_symbol(&mut m, "leaf", 1000).unwrap().unwrap();
        let r = m.registers();
        let y = r.values().into_iter().find(|r| r.name == "Y").unwrap();
        assert_eq!((y.value, y.bits), (0, 8));
        let z = r
            .flags()
            .unwrap()
            .into_iter()
            .find(|f| f.name == "Z")
            .unwrap();
        assert!(z.set && z.bit == 1);
    }
    // The default Z80 core keeps F private: no flags to show.
    let out = assembled(Cpu::Z80, Z80_FACT);
    let m = machine(Cpu::Z80, CoreKind::Z80, &out);
    assert!(m.registers().flags().is_none());
}
