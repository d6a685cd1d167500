//! End-to-end tests of `kempelen run` and `kempelen machines`.

use std::path::PathBuf;
use std::process::{Command, Output};

/// Writes `bytes` to a file unique to this test process and returns its path.
fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kempelen-emulator-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn kempelen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kempelen"))
        .args(args)
        .output()
        .expect("run kempelen")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Echoes console input up to a newline, then host call "done" (Z80, at $0000).
const Z80_ECHO: &[u8] = &[
    0xDB, 0x00, 0xE6, 0x01, 0x28, 0xFA, 0xDB, 0x01, 0xD3, 0x01, 0xFE, 0x0A, 0x20, 0xF2, 0xAF, 0xD3,
    0xFF,
];

/// The same for the 6502 (at $C000, devices in the I/O page $BF00).
const MOS6502_ECHO: &[u8] = &[
    0xAD, 0x00, 0xBF, 0x29, 0x01, 0xF0, 0xF9, 0xAD, 0x01, 0xBF, 0x8D, 0x01, 0xBF, 0xC9, 0x0A, 0xD0,
    0xEF, 0xA9, 0x00, 0x8D, 0xFF, 0xBF,
];

#[test]
fn machines_json_lists_every_profile() {
    let out = kempelen(&["machines", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 14);
    let trs80 = rows.iter().find(|r| r["id"] == "trs-80").unwrap();
    assert_eq!(trs80["cpu"], "z80");
    assert_eq!(trs80["mhz"], 1.774);
    assert!(
        rows.iter()
            .all(|r| !r["source"].as_str().unwrap().is_empty())
    );
    let table = kempelen(&["machines"]);
    assert!(text(&table.stdout).contains("zx-spectrum"));
}

#[test]
fn run_echoes_scripted_input_and_reports_cycles() {
    let rom = temp_file("echo.z80", Z80_ECHO);
    let out = kempelen(&[
        "run",
        rom.to_str().unwrap(),
        "--cpu",
        "z80",
        "--input",
        "hi\\n",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "hi\n");
    let err = text(&out.stderr);
    assert!(err.contains("stopped: host call: done"), "{err}");
    assert!(err.contains("cycles: 208   instructions: 23"), "{err}");
    assert!(err.contains("time at 3.5 MHz (zx-spectrum)"), "{err}");
}

#[test]
fn run_stops_when_scripted_input_runs_out() {
    let rom = temp_file("echo-short.z80", Z80_ECHO);
    let out = kempelen(&[
        "run",
        rom.to_str().unwrap(),
        "--cpu",
        "z80",
        "--input",
        "no newline",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "no newline\n");
    let err = text(&out.stderr);
    assert!(
        err.contains("stopped: waiting for console input at $0000"),
        "{err}"
    );
}

#[test]
fn run_6502_with_machine_profile_and_json() {
    let rom = temp_file("echo.6502", MOS6502_ECHO);
    let out = kempelen(&[
        "run",
        rom.to_str().unwrap(),
        "--cpu",
        "6502",
        "--machine",
        "c64",
        "--input",
        "ok\\n",
        "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["ok"], true);
    assert_eq!(v["stop"], "HostDone");
    assert_eq!(v["cycles"], 21 + 21 + 20 + 6);
    assert_eq!(v["machine"], "c64");
    assert_eq!(v["console"], "ok\n");
}

#[test]
fn rom_write_fails_with_a_trace() {
    // LD A,1 ; LD ($0100),A
    let rom = temp_file("romwrite.z80", &[0x3E, 0x01, 0x32, 0x00, 0x01]);
    let out = kempelen(&["run", rom.to_str().unwrap(), "--cpu", "z80"]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("write of $01 to ROM at $0100 by the instruction at PC $0002"),
        "{err}"
    );
    assert!(err.contains("LD ($0100),A"), "disassembled trace: {err}");
}

#[test]
fn budget_is_enforced() {
    // loop: JR loop+1 ... a two-instruction loop: INC A ; JR -3
    let rom = temp_file("loop.z80", &[0x3C, 0x18, 0xFD]);
    let out = kempelen(&[
        "run",
        rom.to_str().unwrap(),
        "--cpu",
        "z80",
        "--max-cycles",
        "1000",
    ]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("cycle budget of 1000 cycles exceeded at PC $0000"),
        "{err}"
    );
}

#[test]
fn profile_and_trace_use_the_symbol_file() {
    // START: CALL SUB ; XOR A ; OUT ($FF),A ; SUB: NOP ; RET
    let rom = temp_file(
        "call.z80",
        &[0xCD, 0x06, 0x00, 0xAF, 0xD3, 0xFF, 0x00, 0xC9],
    );
    let syms = temp_file(
        "call.sym",
        b"; symbols\nSTART EQU $0000\nSUB EQU $0006\nPORT EQU $00FF ; constant\n",
    );
    let out = kempelen(&[
        "run",
        rom.to_str().unwrap(),
        "--cpu",
        "z80",
        "--profile",
        syms.to_str().unwrap(),
        "--trace",
        "2",
        "--ram-profile",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    // The trace runs on the rustzx core and shows every register and the routine.
    assert!(err.contains("CALL SUB"), "{err}");
    assert!(err.contains("AF=FFFF"), "{err}");
    let sub = err
        .lines()
        .find(|l| l.starts_with("SUB "))
        .unwrap_or_else(|| panic!("profile row for SUB: {err}"));
    // NOP (4) + RET (10) of 46 cycles, called once, inclusive 14.
    let cols: Vec<&str> = sub.split_whitespace().collect();
    assert_eq!(cols, ["SUB", "14", "30.4", "%", "14", "1"]);
    assert!(err.contains("peak RAM in use: 2 bytes"), "{err}");
}

#[test]
fn bad_arguments_are_explained() {
    let rom = temp_file("nop.bin", &[0x00]);
    let out = kempelen(&["run", rom.to_str().unwrap(), "--cpu", "8080"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("unknown CPU '8080'"));
    let out = kempelen(&[
        "run",
        rom.to_str().unwrap(),
        "--cpu",
        "z80",
        "--machine",
        "pdp-11",
    ]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("unknown machine `pdp-11`"));
    let out = kempelen(&["run", rom.to_str().unwrap(), "--cpu", "z80", "--load", "zz"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("`zz` is not a 16-bit address"));
}
