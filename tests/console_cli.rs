//! End-to-end: the console front end through the command line, the two ways the README
//! gives: `kempelen asm` + `kempelen run` on the assembled ROM, and `kempelen play`.

mod common;

use common::{arg, assembles, scratch, succeeds, text};
use std::path::Path;

#[test]
fn asm_then_run_plays_a_scripted_game() {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("roms-src/z80/console.asm");
    let rom = scratch("console-cli").join("console.bin");
    assembles(&source, "z80", &rom, &[]);
    let (stdout, stderr) = run_rom(&rom, "f2f3\\ng2g4\\nq\\n");
    assert!(
        stdout.starts_with("Kempelen chess: the reference engine on a Z80. Type h for help.\n"),
        "{stdout}"
    );
    common::assert_contains(
        "run",
        &stdout,
        &[
            "Kempelen plays e7e5 (depth 4, score 10, 2109 nodes)\n",
            "Kempelen plays d8h4 (depth 4, mate in 1, ",
            "\nCheckmate: Black wins\n",
        ],
    );
    assert!(stdout.ends_with("> Goodbye\n"), "{stdout}");
    assert!(stderr.contains("stopped: host call: done"));
}

/// `kempelen run ROM --cpu z80 --input INPUT`, which must succeed: its standard output and
/// error.
fn run_rom(rom: &Path, input: &str) -> (String, String) {
    succeeds(&["run", arg(rom), "--cpu", "z80", "--input", input])
}

#[test]
fn run_stops_when_the_scripted_input_runs_out() {
    let rom = scratch("console-cli").join("console-short.bin");
    let (_, stderr) = succeeds(&["play", "--write-rom", arg(&rom)]);
    assert!(stderr.contains("(engine "), "{}", stderr);
    let (stdout, stderr) = run_rom(&rom, "b\\n");
    assert!(stdout.ends_with("Move 1, White to move\n> \n"));
    assert!(
        stderr.contains("stopped: waiting for console input"),
        "{}",
        stderr
    );
}

#[test]
fn play_reads_the_terminal_and_quits_at_the_end_of_input() {
    // No q: the end of the input quits.
    let out = common::with_input(&["play", "--machine", "trs-80"], "d 2\ne2e4\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("> Search depth 2\n"), "{stdout}");
    assert!(stdout.contains("Kempelen plays "), "{stdout}");
    assert!(stdout.ends_with("> Goodbye\n"), "{stdout}");
    let stderr = text(&out.stderr);
    assert!(stderr.contains("at 1.774 MHz (trs-80)"), "{stderr}");
}
