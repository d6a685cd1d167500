//! Kempelen's `msx` timing model against an emulator nobody here wrote: a cartridge that runs
//! a timed piece of code in openMSX 18 with C-BIOS (the free MSX BIOS; Debian packages
//! `openmsx` and `cbios`, which tools/test.sh installs), headless (`-control stdio`, renderer
//! none, throttle off), timed between two breakpoints with `machine_info time`, and the same
//! code in Kempelen under the `msx/pal` model (the C-BIOS_MSX1 machine is a 50 Hz one).
//!
//! With interrupts off the two times are equal to the T-state; with interrupts on (C-BIOS's
//! routine runs 50 times a second in openMSX, and Kempelen charges its measured mean) they
//! agree within 0.5 %. Without openMSX the tests print `SKIPPED` with the reason and pass.

use kempelen_emulator::timing::Timing;
use kempelen_emulator::{Cpu, MachineBuilder, MemoryMap, StopReason};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Why openMSX cannot run here, if it cannot.
fn missing() -> Option<String> {
    let ok = Command::new("openmsx")
        .arg("-v")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        return Some("openmsx is not installed (tools/test.sh installs openmsx and cbios)".into());
    }
    if !std::path::Path::new("/usr/share/cbios").is_dir() {
        return Some("C-BIOS is not installed (Debian package cbios)".into());
    }
    None
}

/// The timed code: copies, indexed and bit instructions (one and two prefixes, so the M1
/// wait state counts twice), stack traffic, `count` times; `first` is `di` or `ei`.
fn timed_code(first: &str, count: u16) -> String {
    format!(
        "start:  {first}
        ld iy,{count}
loop:   ld hl,$C000
        ld de,$C100
        ld bc,$0080
        ldir
        ld ix,$C200
        ld (ix+1),a
        set 3,(ix+2)
        rlc (hl)
        inc (hl)
        push hl
        pop de
        ex (sp),hl
        dec iy
        push iy
        pop bc
        ld a,b
        or c
        jr nz,loop
stop:   jr stop
"
    )
}

/// The cartridge: the "AB" header with its INIT address; INIT waits 300 frames with
/// interrupts on (C-BIOS scans the keyboard on every third interrupt only from the 256th after
/// power-on: the timed code runs in that steady state), then the timed code.
fn cartridge(code: &str) -> (Vec<u8>, u16, u16, Vec<u8>, u16) {
    let source = format!(
        "        org $4000
        db \"AB\"
        dw init
        dw 0,0,0,0,0,0
init:   ei
        ld hl,300
wait:   halt
        dec hl
        ld a,h
        or l
        jr nz,wait
{code}"
    );
    let out = kempelen_asm::assemble_source(Cpu::Z80, "cart.asm", &source);
    assert!(out.is_ok(), "{:?}", out.diagnostics);
    let start = out.symbols.get("start").expect("start");
    let stop = out.symbols.get("stop").expect("stop");
    let mut rom = out.image.bytes.clone();
    rom.resize(0x4000, 0);
    (rom, start, stop, out.image.bytes, out.image.origin)
}

/// T-states openMSX takes from `start` to `stop` (from the breakpoint before the first
/// instruction to the one before the last), and the interrupts it took on the way.
fn openmsx_time(name: &str, rom: &[u8], start: u16, stop: u16) -> (u64, u64) {
    let dir = std::env::temp_dir().join(format!("kempelen-openmsx-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("timed.rom");
    std::fs::write(&file, rom).unwrap();
    let mut child = Command::new("openmsx")
        .args(["-machine", "C-BIOS_MSX1", "-carta"])
        .arg(&file)
        .args(["-control", "stdio"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start openmsx");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let mut rest = line.as_str();
            while let Some(i) = rest.find("<reply result=\"") {
                let r = &rest[i..];
                let body_start = r.find('>').unwrap() + 1;
                let Some(end) = r.find("</reply>") else { break };
                let ok = r.starts_with("<reply result=\"ok\"");
                let _ = tx.send((ok, r[body_start..end].to_string()));
                rest = &r[end..];
            }
        }
    });
    let send = |stdin: &mut std::process::ChildStdin, cmd: &str| {
        writeln!(stdin, "<command>{cmd}</command>").unwrap();
        stdin.flush().unwrap();
    };
    let reply = || {
        rx.recv_timeout(Duration::from_secs(30))
            .expect("openmsx replies")
    };
    writeln!(stdin, "<openmsx-control>").unwrap();
    for cmd in [
        "set renderer none".to_string(),
        "set throttle off".to_string(),
        "set ::n 0".to_string(),
        format!("debug set_bp 0x{start:04X} {{}} {{set ::t0 [machine_info time]; set ::n 0}}"),
        format!("debug set_bp 0x{stop:04X} {{}} {{set ::t1 [machine_info time]; debug break}}"),
        "debug set_bp 0x0038 {} {incr ::n}".to_string(),
        "set power on".to_string(),
    ] {
        send(&mut stdin, &cmd);
        let (ok, body) = reply();
        assert!(ok, "openmsx refused `{cmd}`: {body}");
    }
    let deadline = Instant::now() + Duration::from_secs(120);
    let result = loop {
        send(
            &mut stdin,
            "if {[info exists ::t1]} {format {%.3f %d} [expr {($::t1 - $::t0) * 3579545}] $::n} else {set _ running}",
        );
        let (ok, body) = reply();
        assert!(ok, "{body}");
        if body != "running" {
            break body;
        }
        assert!(Instant::now() < deadline, "openmsx did not reach the stop");
        std::thread::sleep(Duration::from_millis(100));
    };
    send(&mut stdin, "exit");
    let _ = writeln!(stdin, "</openmsx-control>");
    drop(stdin);
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
    let mut it = result.split_whitespace();
    let t: f64 = it.next().unwrap().parse().unwrap();
    let n: u64 = it.next().unwrap().parse().unwrap();
    assert!((t - t.round()).abs() < 0.01, "whole T-states: {t}");
    (t.round() as u64, n)
}

/// Machine ticks Kempelen's `msx` model takes for the same code, from `start` to the start of
/// `stop` (the run ends after the jump to itself at `stop` has run once: 12 T-states and the
/// M1 wait state).
fn kempelen_time(image: &[u8], origin: u16, start: u16) -> (u64, u64) {
    let model = Timing::Machine.model_for("msx").unwrap().unwrap();
    assert_eq!(model.full_id(), "msx/pal");
    let mut m = MachineBuilder::new(Cpu::Z80)
        .memory_map(MemoryMap::all_ram())
        .load(origin, image)
        .entry(start)
        .timing(Some(model))
        .build()
        .unwrap();
    let stats = m.run(1_000_000_000).unwrap();
    assert!(
        matches!(stats.stop, StopReason::SelfLoop { .. }),
        "{:?}",
        stats.stop
    );
    let t = stats.machine_time.unwrap();
    (t.ticks - 13, t.stats.interrupts)
}

/// The timed code with interrupts `di` or `ei` over `loops` loops, in openMSX and in
/// Kempelen: each one's T-states and interrupts; `None` (the test is skipped, as printed)
/// without openMSX.
fn both_times(mode: &str, loops: u16) -> Option<((u64, u64), (u64, u64))> {
    if let Some(why) = missing() {
        println!("SKIPPED: {why}");
        return None;
    }
    let (rom, start, stop, image, origin) = cartridge(&timed_code(mode, loops));
    let theirs = openmsx_time(mode, &rom, start, stop);
    Some((theirs, kempelen_time(&image, origin, start)))
}

#[test]
fn msx_with_interrupts_off_takes_the_same_t_states_as_openmsx() {
    let Some(((theirs, n), (ours, ours_n))) = both_times("di", 600) else {
        return;
    };
    println!("interrupts off: openMSX {theirs} T-states, Kempelen {ours}");
    assert_eq!((n, ours_n), (0, 0));
    assert_eq!(ours, theirs);
}

#[test]
fn msx_with_interrupts_on_is_within_half_a_percent_of_openmsx() {
    let Some(((theirs, n), (ours, ours_n))) = both_times("ei", 2400) else {
        return;
    };
    let diff = (ours as f64 - theirs as f64) / theirs as f64;
    println!(
        "interrupts on: openMSX {theirs} T-states ({n} interrupts), Kempelen {ours} \
         ({ours_n}), {:+.3} %",
        diff * 100.0
    );
    assert!(n > 50 && ours_n > 50, "{n} and {ours_n} interrupts");
    assert!(diff.abs() < 0.005, "{:+.3} %", diff * 100.0);
}
