//! End-to-end tests of `kempelen run` and `kempelen machines`.

mod common;

use common::{arg, assert_contains, fails_with, json, output, scratch_file, succeeds, text};
use std::path::Path;

/// `kempelen run FILE ARGS...`, which must succeed: its standard output and error.
fn run_ok(file: &Path, args: &[&str]) -> (String, String) {
    succeeds(&[&["run", arg(file)], args].concat())
}

/// `kempelen run FILE ARGS...`, which must fail with a message that holds every one of `parts`.
#[track_caller]
fn run_fails(file: &Path, args: &[&str], parts: &[&str]) {
    fails_with(&[&["run", arg(file)], args].concat(), parts);
}

/// `kempelen run FILE ARGS... --json`, which must succeed: the report.
fn run_json(file: &Path, args: &[&str]) -> serde_json::Value {
    json(&[&["run", arg(file)], args, &["--json"]].concat())
}

/// A program in the scratch folder of these tests.
fn program(name: &str, bytes: impl AsRef<[u8]>) -> std::path::PathBuf {
    scratch_file("emulator-cli", name, bytes)
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
    let v = json(&["machines", "--json"]);
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), kempelen_emulator::MACHINES.len());
    let trs80 = rows.iter().find(|r| r["id"] == "trs-80").unwrap();
    assert_eq!(trs80["cpu"], "z80");
    assert_eq!(trs80["mhz"], 1.774);
    assert!(
        rows.iter()
            .all(|r| !r["source"].as_str().unwrap().is_empty())
    );
    let table = output(&["machines"]);
    assert!(text(&table.stdout).contains("zx-spectrum"));
    assert!(text(&table.stdout).contains("zx81             slow, fast"));
}

/// Runs [`Z80_ECHO`] (written to `name`) with the scripted `input`, which must succeed and
/// print `console`: its standard error.
fn echo(name: &str, input: &str, console: &str) -> String {
    let (out, err) = run_ok(
        &program(name, Z80_ECHO),
        &["--cpu", "z80", "--input", input],
    );
    assert_eq!(out, console, "{input}");
    err
}

#[test]
fn run_echoes_scripted_input_and_reports_cycles() {
    let err = echo("echo.z80", "hi\\n", "hi\n");
    assert_contains(
        "run",
        &err,
        &[
            "stopped: host call: done",
            "cycles: 208   instructions: 23",
            "time at 3.5 MHz (zx-spectrum)",
        ],
    );
}

#[test]
fn run_stops_when_scripted_input_runs_out() {
    let err = echo("echo-short.z80", "no newline", "no newline\n");
    assert_contains(
        "run",
        &err,
        &["stopped: waiting for console input at $0000"],
    );
}

#[test]
fn run_6502_with_machine_profile_and_json() {
    let rom = program("echo.6502", MOS6502_ECHO);
    let v = run_json(
        &rom,
        &[
            "--cpu",
            "6502",
            "--machine",
            "turbostar",
            "--input",
            "ok\\n",
        ],
    );
    // A clock profile without a personality: the program's own console, the machine's clock.
    assert_eq!(v["ok"], true);
    assert_eq!(v["stop"], "HostDone");
    assert_eq!(v["cycles"], 21 + 21 + 20 + 6);
    assert_eq!(v["machine"], "turbostar");
    assert_eq!(v["console"], "ok\n");
}

/// A run `kempelen run` refuses: the program's file name and bytes, the arguments, and what
/// the message says.
type Refusal<'a> = (&'a str, &'a [u8], &'a [&'a str], &'a [&'a str]);

/// Programs and arguments `run` refuses: each message says what went wrong and where.
#[test]
fn bad_programs_and_arguments_are_explained() {
    // LD A,1 ; LD ($0100),A
    const ROM_WRITE: &[u8] = &[0x3E, 0x01, 0x32, 0x00, 0x01];
    // A two-instruction loop: INC A ; JR -3
    const LOOP: &[u8] = &[0x3C, 0x18, 0xFD];
    let z80 = ["--cpu", "z80"];
    let cases: [Refusal; 6] = [
        (
            "romwrite.z80",
            ROM_WRITE,
            &z80,
            // The trace, disassembled.
            &[
                "write of $01 to ROM at $0100 by the instruction at PC $0002",
                "LD ($0100),A",
            ],
        ),
        (
            "loop.z80",
            LOOP,
            &["--cpu", "z80", "--max-cycles", "1000"],
            &["cycle budget of 1000 cycles exceeded at PC $0000"],
        ),
        (
            "esc.z80",
            Z80_ECHO,
            &["--cpu", "z80", "--input", "a\\x4"],
            &["`\\x` at column 2 needs two hex digits"],
        ),
        (
            "nop.bin",
            &[0x00],
            &["--cpu", "8080"],
            &["unknown CPU '8080'"],
        ),
        (
            "nop.bin",
            &[0x00],
            &["--cpu", "z80", "--machine", "pdp-11"],
            &["unknown machine `pdp-11`"],
        ),
        (
            "nop.bin",
            &[0x00],
            &["--cpu", "z80", "--load", "zz"],
            &["`zz` is not a 16-bit address"],
        ),
    ];
    for (name, bytes, args, says) in cases {
        run_fails(&program(name, bytes), args, says);
    }
}

#[test]
fn profile_and_trace_use_the_symbol_file() {
    let rom = program("call.z80", CALL_SUB);
    let syms = program(
        "call.sym",
        "; symbols\nSTART EQU $0000\nSUB EQU $0006\nPORT EQU $00FF ; constant\n",
    );
    let (_, err) = run_ok(
        &rom,
        &[
            "--cpu",
            "z80",
            "--profile",
            arg(&syms),
            "--trace",
            "2",
            "--ram-profile",
        ],
    );
    // The trace runs on the rustzx core and shows every register and the routine.
    assert_contains("--trace", &err, &["CALL SUB", "AF=FFFF"]);
    // NOP (4) + RET (10) of 46 cycles, called once, inclusive 14.
    assert_sub_profiled(&err);
    assert!(err.contains("peak RAM in use: 2 bytes"), "{err}");
}

/// START: CALL SUB ; XOR A ; OUT ($FF),A ; SUB: NOP ; RET (Z80, at $0000).
const CALL_SUB: [u8; 8] = [0xCD, 0x06, 0x00, 0xAF, 0xD3, 0xFF, 0x00, 0xC9];

/// The cycle profile's row of `SUB` in a run of [`CALL_SUB`]: NOP (4) + RET (10) of 46 cycles,
/// called once, inclusive 14.
fn assert_sub_profiled(err: &str) {
    let sub = err
        .lines()
        .find(|l| l.starts_with("SUB "))
        .unwrap_or_else(|| panic!("profile row for SUB: {err}"));
    let cols: Vec<&str> = sub.split_whitespace().collect();
    assert_eq!(cols, ["SUB", "14", "30.4", "%", "14", "1"]);
}

/// Echoes console input until a `q` (Z80, at $0000).
const Z80_ECHO_TO_Q: &[u8] = &[
    0xDB, 0x00, 0xE6, 0x01, 0x28, 0xFA, 0xDB, 0x01, 0xD3, 0x01, 0xFE, b'q', 0x20, 0xF2, 0xAF, 0xD3,
    0xFF,
];

/// An Intel HEX text of `bytes` at `addr`, 16 bytes a record.
fn intel_hex(addr: u16, bytes: &[u8]) -> String {
    let mut out = String::new();
    for (i, chunk) in bytes.chunks(16).enumerate() {
        let a = addr + 16 * i as u16;
        let mut rec = vec![chunk.len() as u8, (a >> 8) as u8, a as u8, 0];
        rec.extend(chunk);
        let sum = rec.iter().fold(0u8, |s, &b| s.wrapping_add(b));
        rec.push(sum.wrapping_neg());
        out.push(':');
        for b in rec {
            out.push_str(&format!("{b:02X}"));
        }
        out.push('\n');
    }
    out + ":00000001FF\n"
}

#[test]
fn several_images_in_several_formats_poke_dump_and_stamped_reads() {
    let hex = program("echo.hex", intel_hex(0, Z80_ECHO_TO_Q));
    let data = program("data.bin", [1, 2, 3]);
    let dump = program("more.dump", "; a hex dump\n4003 04 05\n");
    let v = json(&[
        "run",
        "--cpu",
        "z80",
        "--image",
        arg(&hex),
        "--image",
        &format!("{}@4000", data.display()),
        "--image",
        arg(&dump),
        // The echo stops at `!` instead of `q`.
        "--poke",
        "000B=21",
        "--input",
        "ab\\r\\n\\x21",
        "--dump",
        "4000-4004",
        "--json",
    ]);
    assert_eq!(v["stop"], "HostDone");
    assert_eq!(v["console"], "ab\r\n!");
    assert_eq!(v["dumps"][0]["bytes"], serde_json::json!([1, 2, 3, 4, 5]));
    let lines = v["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0]["cycles"], 0);
    assert_eq!(lines[0]["input"], "ab\r\n");
    assert_eq!(lines[1]["input"], "!");
    // The second line was asked for after echoing four characters (a 66-cycle round each)
    // and the `IN` of the status that found the queue empty (11).
    let round = 11 + 7 + 7 + 11 + 11 + 7 + 12;
    let asked = 4 * round + 11;
    assert_eq!(lines[1]["cycles"], asked);
    // Every character read, stamped at the end of its `IN` (36 cycles into a round); the `!`
    // after the AND and JR back (19) and a round up to its `IN`. Polling the status adds no
    // entry.
    let reads = v["reads"].as_array().unwrap();
    let chars: Vec<&str> = reads.iter().map(|r| r["char"].as_str().unwrap()).collect();
    assert_eq!(chars, ["a", "b", "\r", "\n", "!"]);
    let cycles: Vec<u64> = reads
        .iter()
        .map(|r| r["cycles"].as_u64().unwrap())
        .collect();
    assert_eq!(
        cycles,
        [
            36,
            36 + round,
            36 + 2 * round,
            36 + 3 * round,
            asked + 19 + 36
        ]
    );
    // The times at the default Z80 clock (ZX Spectrum, 3.5 MHz), in ms to three decimals.
    for r in reads {
        let ms = r["cycles"].as_u64().unwrap() as f64 / 3500.0;
        assert_eq!(r["time_ms_at_clock"], (ms * 1000.0).round() / 1000.0, "{r}");
    }
    // The text output: the dump in the format --image reads.
    let (out, _) = run_ok(
        &hex,
        &["--cpu", "z80", "--input", "q", "--dump", "0000-0011"],
    );
    assert!(
        out.contains("0000 DB 00 E6 01 28 FA DB 01 D3 01 FE 71 20 F2 AF D3\n0010 FF 00\n"),
        "{out}"
    );
}

/// A KIM-1 program of our own: GETCH, GETKEY twice (held, then released), GETCH, then into
/// the monitor.
const KIM1_KEYS: &str = "
        .org $0200
GETCH   = $1E5A
GETKEY  = $1F6A
START   = $1C4F
        jsr GETCH       ; 6  a character in A, echoed
        jsr GETKEY      ; 6  the key held down (characters that are no key are skipped)
        jsr GETKEY      ; 6  released: takes nothing
        jsr GETCH       ; 6
        jmp START       ; 3  done
";

#[test]
fn json_stamps_every_read_of_a_personality_trap() {
    let asm = kempelen_asm::assemble_source(kempelen_asm::Cpu::Mos6502, "keys.asm", KIM1_KEYS);
    assert!(asm.is_ok(), "{:?}", asm.diagnostics);
    let bin = program("keys.bin", &asm.image.bytes);
    let v = json(&[
        "run",
        "--machine",
        "kim-1",
        "--image",
        &format!("{}@0200", bin.display()),
        "--input",
        "q\\n5z",
        "--json",
    ]);
    assert_eq!(v["stop"], "HostDone");
    // The program's 27 cycles and the RTS (6 cycles) of each of the four routines.
    assert_eq!(v["cycles"], 27 + 4 * 6);
    // GETKEY takes the new line (no key) and waits: the new line is stamped when the run
    // stops; the 5 of the next line, taken in the same call, when GETKEY returns. The KIM-1
    // runs at 1 MHz: a cycle is 1 us.
    let reads = v["reads"].as_array().unwrap();
    let got: Vec<(u64, f64, &str)> = reads
        .iter()
        .map(|r| {
            (
                r["cycles"].as_u64().unwrap(),
                r["time_ms_at_clock"].as_f64().unwrap(),
                r["char"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (12, 0.012, "q"),
            (18, 0.018, "\n"),
            (24, 0.024, "5"),
            (48, 0.048, "z")
        ]
    );
    let lines = v["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 2);
    assert_eq!(
        (&lines[1]["cycles"], &lines[1]["input"]),
        (&18.into(), &"5z".into())
    );
}

#[test]
fn json_console_keeps_bytes_above_7f() {
    // LD A,$E9 ; OUT ($01),A ; LD A,'\' ; OUT ($01),A ; XOR A ; OUT ($FF),A
    let rom = program(
        "high.z80",
        [
            0x3E, 0xE9, 0xD3, 0x01, 0x3E, b'\\', 0xD3, 0x01, 0xAF, 0xD3, 0xFF,
        ],
    );
    let v = run_json(&rom, &["--cpu", "z80"]);
    assert_eq!(v["console"], "\\xE9\\\\");
}

#[test]
fn exhausted_terminal_input_stops_with_input_wait() {
    let rom = program("echo-wait.z80", Z80_ECHO);
    let run = ["run", arg(&rom), "--cpu", "z80"];
    let out = common::with_input(&[&run[..], &["--max-cycles", "100000000000"]].concat(), "");
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_contains(
        "run",
        &stderr,
        &["stopped: waiting for console input at $0000"],
    );
}

#[test]
fn personalities_from_the_command_line() {
    // CP/M: function 1 reads a character (once a HALT), 2 prints it, then warm boot.
    // LD C,1 ; CALL 5 ; LD E,A ; LD C,2 ; CALL 5 ; JP 0
    let com = program(
        "getc.com",
        [
            0x0E, 0x01, 0xCD, 0x05, 0x00, 0x5F, 0x0E, 0x02, 0xCD, 0x05, 0x00, 0xC3, 0x00, 0x00,
        ],
    );
    let v = run_json(&com, &["--cpm", "--input", "k"]);
    assert_eq!(v["stop"], "HostDone");
    assert_eq!(v["console"], "kk", "echo, then function 2");
    // Each BDOS call returns as RET does (10 T-states).
    assert_eq!(v["cycles"], 7 + 17 + 10 + 4 + 7 + 17 + 10 + 10);
    // An unsupported BDOS function names its number.
    let com = program("dma.com", [0x0E, 0x1A, 0xCD, 0x05, 0x00]);
    run_fails(
        &com,
        &["--machine", "cpm"],
        &["BDOS at $0005: function $1A is not supported"],
    );
    // KIM-1 (6502): OUTCH, then a jump into the monitor; the CPU comes from the personality.
    let kim = program("kim.h65", "0200 A9 4B 20 A0 1E 4C 4F 1C\n");
    let v = run_json(&kim, &["--machine", "kim-1"]);
    assert_eq!(
        (v["console"].as_str(), v["cycles"].as_u64()),
        (Some("K"), Some(2 + 6 + 6 + 3))
    );
    assert_eq!(v["machine"], "kim-1");
    // A personality file of one's own, with an error that names file, line and column.
    let bad = program(
        "bad.toml",
        "id = \"x\"\nname = \"x\"\ncpu = \"6502\"\nstack = 7\n",
    );
    run_fails(&kim, &["--machine", arg(&bad)], &["bad.toml:4:9:"]);
    let v = json(&["machines", "--personalities", "--json"]);
    let ids: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    // The built-in personalities in the library's order (the historical machines first, then
    // the machines Kempelen's builds are made for; emulator/tests/personalities.rs names them).
    let built_in: Vec<String> = kempelen_emulator::Personality::all_built_in()
        .into_iter()
        .map(|p| p.id)
        .collect();
    assert_eq!(ids, built_in);
}

#[test]
fn symbols_and_cycle_profile_are_the_new_spelling_of_profile() {
    let rom = program("call2.z80", CALL_SUB);
    let syms = program("call2.sym", "START EQU $0000\nSUB EQU $0006\n");
    let (_, err) = run_ok(
        &rom,
        &["--cpu", "z80", "--symbols", arg(&syms), "--cycle-profile"],
    );
    assert_sub_profiled(&err);
    // --help shows the new flags, not the old one.
    let help = text(&output(&["run", "--help"]).stdout);
    assert!(
        help.contains("--cycle-profile") && !help.contains("--profile <"),
        "{help}"
    );
}

/// A loop counted down 256 times (Z80, at $0000), as source.
const COUNT_ASM: &str = "; counts B down from 0 (256 times), then stops
        org 0
start:  ld b,0
loop:   dec b
        jr nz,loop
        xor a
        out (0FFh),a
";

#[test]
fn hot_lines_give_each_source_line_its_cycles_and_executions() {
    let src = program("count.asm", COUNT_ASM);
    let bin = program(
        "count.bin",
        [0x06, 0x00, 0x05, 0x20, 0xFD, 0xAF, 0xD3, 0xFF],
    );
    let (_, err) = run_ok(
        &bin,
        &["--cpu", "z80", "--source", arg(&src), "--hot-lines", "2"],
    );
    // JR NZ jumps 255 times (12 T-states) and falls through once (7); DEC B runs 256 times.
    let rows: Vec<Vec<&str>> = err
        .lines()
        .skip_while(|l| !l.starts_with("line "))
        .skip(1)
        .take(3)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert!(rows[0][0].ends_with("count.asm:5"), "{err}");
    assert_eq!(
        rows[0][1..7],
        ["3,067", "74.57", "%", "256", "12.0", "loop"]
    );
    assert!(rows[1][0].ends_with("count.asm:4"), "{err}");
    assert_eq!(rows[1][1..7], ["1,024", "24.90", "%", "256", "4.0", "loop"]);
    assert_eq!(
        rows[2].join(" "),
        "2 of 5 lines: 4,091 of 4,113 cycles (99.5 %)"
    );
    // Without the source: each instruction by its address, disassembled; JSON the same.
    let v = run_json(&bin, &["--cpu", "z80", "--hot-lines", "1"]);
    let top = &v["hot_lines"]["lines"][0];
    assert_eq!(
        (
            &top["place"],
            &top["text"],
            &top["cycles"],
            &top["executions"]
        ),
        (
            &"$0003".into(),
            &"JR NZ,$0002".into(),
            &3067.into(),
            &256.into()
        )
    );
    assert_eq!(v["hot_lines"]["total_cycles"], 4113);
    // A source that is not the program's is refused with the first byte that differs.
    let other = program("other.asm", COUNT_ASM.replace("ld b,0", "ld b,1"));
    run_fails(
        &bin,
        &["--cpu", "z80", "--source", arg(&other), "--hot-lines", "2"],
        &["other.asm", "$01 at $0001", "not the program's source"],
    );
    run_fails(
        &bin,
        &["--cpu", "z80", "--hot-lines", "0"],
        &["--hot-lines must be at least 1"],
    );
}
