//! The command line under hostile use: no output replaces an input or another
//! output, outputs are written all or none, printing commands exit quietly on a closed pipe,
//! oversized images are refused.

mod common;

use common::{Scratch, arg as s, fails, fails_with, kempelen, succeeds};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh directory for one test, removed when the test passes.
fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("hostile-{name}"))
}

const SOURCE: &str = "        org $8000\n        ld a,1\n        include \"lib.asm\"\n";
const LIB: &str = "        ret\n";

/// A source with an included file; returns (dir, main, lib).
fn program(name: &str) -> (Scratch, PathBuf, PathBuf) {
    let dir = scratch(name);
    let main = dir.file("main.asm", SOURCE);
    let lib = dir.file("lib.asm", LIB);
    (dir, main, lib)
}

/// `kempelen asm MAIN --cpu z80 extra...`, which must fail ({what}) with "nothing written" and
/// every one of `parts` in its message.
#[track_caller]
fn refused(main: &Path, extra: &[&str], what: &str, parts: &[&str]) {
    let args = [&["asm", s(main), "--cpu", "z80"][..], extra].concat();
    let stderr = fails_with(&args, &["nothing written"]);
    common::assert_contains(what, &stderr, parts);
}

#[test]
fn asm_never_overwrites_its_source_or_an_included_file() {
    let (dir, main, lib) = program("inputs");
    refused(&main, &["-o", s(&main)], "-o = source", &["-o"]);
    refused(
        &main,
        &["--listing", s(&main)],
        "--listing = source",
        &["--listing"],
    );
    refused(&main, &["--symbols", s(&main)], "--symbols = source", &[]);
    refused(&main, &["-o", s(&lib)], "-o = included file", &[]);
    // Through a symlink and through `..`.
    #[cfg(unix)]
    {
        let link = dir.join("link.asm");
        std::os::unix::fs::symlink(&main, &link).unwrap();
        refused(&main, &["-o", s(&link)], "symlink", &[]);
    }
    let dotted = dir.join("sub/../main.asm");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    refused(&main, &["-o", s(&dotted)], "..", &[]);
    assert_eq!(std::fs::read_to_string(&main).unwrap(), SOURCE);
    assert_eq!(std::fs::read_to_string(&lib).unwrap(), LIB);
}

#[test]
fn asm_refuses_two_outputs_naming_one_file() {
    let (dir, main, _) = program("twice");
    let out = dir.join("out.bin");
    refused(
        &main,
        &["-o", s(&out), "--listing", s(&out)],
        "two outputs",
        &["--listing", "-o names the same file"],
    );
    assert!(!out.exists());
}

#[test]
fn asm_without_o_never_replaces_a_source_named_bin() {
    let dir = scratch("dotbin");
    let prog = dir.file("prog.bin", " nop\n");
    refused(&prog, &[], "default -o = source", &["the default output"]);
    assert_eq!(std::fs::read_to_string(&prog).unwrap(), " nop\n");
}

#[test]
fn asm_writes_all_outputs_or_none() {
    let (dir, main, _) = program("allornone");
    let bin = dir.file("main.bin", "old");
    let bad = dir.join("no/such/dir/main.lst");
    let asm = |listing: &Path, more: &[&str]| {
        let args = ["asm", s(&main), "--cpu", "z80", "-o", s(&bin), "--listing"];
        kempelen(&[&args[..], &[s(listing)], more].concat())
    };
    let (ok, _, stderr) = asm(&bad, &[]);
    assert!(!ok && stderr.contains("main.lst"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&bin).unwrap(),
        "old",
        "the binary was written"
    );
    no_leftovers(&dir);
    // With good paths every output appears.
    let lst = dir.join("main.lst");
    let sym = dir.join("main.sym");
    let (ok, _, stderr) = asm(&lst, &["--symbols", s(&sym)]);
    assert!(ok, "{stderr}");
    assert_eq!(std::fs::read(&bin).unwrap(), [0x3E, 0x01, 0xC9]);
    assert!(lst.exists() && sym.exists());
}

#[test]
fn bench_svg_refuses_to_overwrite_its_suite() {
    let dir = scratch("svg");
    let text = "7k/8/6K1/8/8/8/8/R7 w - -; id \"m1\";\n";
    let suite = dir.file("s.epd", text);
    let bench = [
        "bench",
        "--cpu",
        "z80",
        "--depth",
        "1",
        "--suite",
        s(&suite),
    ];
    fails_with(
        &[&bench[..], &["--svg", s(&suite)]].concat(),
        &["--svg", "refusing to overwrite"],
    );
    assert_eq!(std::fs::read_to_string(&suite).unwrap(), text);
}

/// Runs `kempelen args`, reads one line of its output, closes the pipe and waits: the exit must
/// be quiet (status 0 or death by SIGPIPE, nothing on stderr about a panic).
fn closes_pipe_quietly(args: &[&str]) {
    let mut child = common::spawn(args);
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(!line.is_empty(), "{args:?} printed nothing");
    // The reader is gone now (stdout dropped above).
    let out = child.wait_with_output().unwrap();
    no_panic_on_the_pipe(&out, &format!("{args:?}"));
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        assert!(
            out.status.success() || out.status.signal() == Some(libc_sigpipe()),
            "{args:?}: {:?}",
            out.status
        );
    }
}

/// A run whose reader went away said nothing about a panic or a broken pipe on standard error.
fn no_panic_on_the_pipe(out: &std::process::Output, what: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
        "{what}: {stderr}"
    );
}

#[cfg(unix)]
fn libc_sigpipe() -> i32 {
    13
}

#[test]
fn printing_commands_exit_quietly_on_a_closed_pipe() {
    let dir = scratch("pipe");
    // 60,000 bytes of varied code: a long listing.
    let bytes: Vec<u8> = (0..60_000u32).map(|i| (i * 7 + i / 251) as u8).collect();
    let big = dir.file("big.bin", bytes);
    closes_pipe_quietly(&["disasm", s(&big), "--cpu", "z80"]);
    closes_pipe_quietly(&["disasm", s(&big), "--cpu", "6502", "--json"]);
    closes_pipe_quietly(&["perft", "--depth", "4", "--divide"]);
}

/// The tournament ignores SIGPIPE while its games run (an engine's pipe may close: a forfeit,
/// not the end of Kempelen); its report to a reader that has already gone must still end
/// quietly, not in a panic on the failed write.
#[test]
fn tournament_report_to_a_closed_pipe_ends_quietly() {
    let mut child = common::spawn(&common::words(
        "tournament reference turing --nodes 200 --games 2",
    ));
    // The reader goes away before anything is printed.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    no_panic_on_the_pipe(&out, "tournament");
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(
            out.status.signal(),
            Some(libc_sigpipe()),
            "{:?}",
            out.status
        );
    }
}

#[test]
fn disasm_refuses_images_over_64_kb_instead_of_wrapping() {
    let dir = scratch("big");
    let big = dir.file("big.bin", vec![0u8; 70_000]);
    let (ok, stdout, stderr) = kempelen(&["disasm", s(&big), "--cpu", "z80"]);
    assert!(!ok && stdout.is_empty(), "{stdout:.200}");
    assert!(stderr.contains("more than 65536 bytes"), "{stderr}");
    let small = dir.file("small.bin", vec![0u8; 0x200]);
    fails_with(
        &["disasm", s(&small), "--cpu", "z80", "--org", "$FF00"],
        &["run past $FFFF"],
    );
    let (ok, stdout, _) = kempelen(&["disasm", s(&small), "--cpu", "z80", "--org", "$FE00"]);
    assert!(ok && stdout.contains("FFFF"), "{stdout:.200}");
}

#[test]
fn compare_on_an_empty_or_comment_only_suite_is_an_error() {
    let dir = scratch("emptysuite");
    for (name, text) in [("empty.epd", ""), ("comments.epd", "# only a comment\n\n")] {
        let suite = dir.file(name, text);
        let (ok, stdout, stderr) = kempelen(&["compare", "--suite", s(&suite)]);
        assert!(!ok, "{stdout}");
        assert!(!stdout.contains("0/0"), "{stdout}");
        common::assert_contains(name, &stderr, &[name, "the suite has no positions"]);
    }
}

#[test]
fn bench_on_a_suite_without_a_legal_move_prints_no_per_node_figure() {
    let dir = scratch("nomove");
    // Checkmate and stalemate: no legal move anywhere.
    let suite = dir.file(
        "mated.epd",
        "R6k/8/6K1/8/8/8/8/8 b - -; id \"mated\";\n7k/5Q2/6K1/8/8/8/8/8 b - -; id \"stalemate\";\n",
    );
    let (ok, stdout, stderr) = kempelen(&[
        "bench",
        "--cpu",
        "z80",
        "--suite",
        s(&suite),
        "--depth",
        "1",
    ]);
    assert!(!ok, "{stdout}");
    assert!(!stdout.contains("per node"), "{stdout}");
    common::assert_contains(
        "bench",
        &stderr,
        &["no position of the suite has a legal move"],
    );
}

#[test]
fn a_suite_that_is_not_utf8_or_has_a_bad_operation_is_refused_with_its_place() {
    let dir = scratch("badsuite");
    for (text, message) in [
        (
            &b"7k/8/6K1/8/8/8/8/R7 w - -; id \"\xff\";\n"[..],
            "bad.epd:1:32: the line is not valid UTF-8",
        ),
        (
            b"7k/8/6K1/8/8/8/8/R7 w - -; id \"unterminated;\n",
            "bad.epd:1:31: string without its closing",
        ),
    ] {
        let suite = dir.file("bad.epd", text);
        fails_with(&["compare", "--suite", s(&suite)], &[message]);
    }
}

/// Feeds `input` to `kempelen uci extra...` and returns its output.
fn uci(extra: &[&str], input: &[u8]) -> String {
    let out = common::with_input(&[&["uci"], extra].concat(), input);
    assert!(out.status.success(), "{}", common::text(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn uci_survives_a_line_that_is_not_utf8_native_and_z80() {
    for extra in [&[][..], &["--engine", "z80"][..]] {
        let out = uci(extra, b"isready\n\xff\nisready\nquit\n");
        assert_eq!(out.matches("readyok").count(), 2, "{extra:?}: {out}");
        let error = "info string error: input line 2 is not valid UTF-8";
        common::assert_contains("uci", &out, &[error]);
        // During an infinite search `isready` and `stop` still reach the engine.
        let out = uci(
            extra,
            b"position startpos\ngo infinite\n\xfe\xff\nisready\nstop\nquit\n",
        );
        let ready = out
            .find("readyok")
            .unwrap_or_else(|| panic!("{extra:?}: {out}"));
        let best = out
            .find("bestmove")
            .unwrap_or_else(|| panic!("{extra:?}: {out}"));
        assert!(ready < best, "{out}");
    }
}

#[test]
fn uci_negative_limits_are_errors() {
    let out = uci(&[], b"go nodes -5\ngo movetime -1\nisready\nquit\n");
    common::assert_contains(
        "uci",
        &out,
        &[
            "info string error: go: 'nodes' must not be negative, found -5",
            "info string error: go: 'movetime' must not be negative, found -1",
        ],
    );
    // Each refused `go` is answered with the null move: a GUI waits for a `bestmove`.
    assert_eq!(out.matches("bestmove 0000\n").count(), 2, "{out}");
    assert_eq!(out.matches("bestmove").count(), 2, "{out}");
}

#[test]
fn every_address_flag_reads_numbers_the_same_way() {
    let dir = scratch("addr");
    let bin = dir.file("nop.bin", [0u8]);
    // Hex by default, as `run --load` has always read it; decimal with '#'.
    for org in ["8000", "$8000", "0x8000", "8000h", "#32768"] {
        let (stdout, _) = succeeds(&["disasm", s(&bin), "--cpu", "z80", "--org", org]);
        assert!(stdout.contains("ORG $8000"), "{org}: {stdout}");
    }
    for (command, flag) in [("disasm", "--org"), ("run", "--load")] {
        fails_with(
            &[command, s(&bin), "--cpu", "z80", flag, "zz"],
            &[flag, "zz"],
        );
    }
}

#[test]
fn json_uses_one_vocabulary() {
    for args in [
        &["perft", "--depth", "2", "--json"][..],
        &["search", "--depth", "2", "--json"][..],
    ] {
        let v = common::json(args);
        assert!(v["nodes_per_second"].is_u64(), "{args:?}: {v}");
        assert!(v.get("nps").is_none(), "{args:?}: {v}");
        let ms = v["time_ms"].as_f64().expect("time_ms");
        assert_eq!(
            (ms * 1000.0).round() / 1000.0,
            ms,
            "{args:?}: rounded to 3 decimals"
        );
    }
    let (dir, main, _) = program("json");
    let bin = dir.join("main.bin");
    let v = common::json(&["asm", s(&main), "--cpu", "z80", "-o", s(&bin), "--json"]);
    assert_eq!(
        (v["ok"].as_bool(), v["bytes"].as_u64(), v["origin"].as_u64()),
        (Some(true), Some(3), Some(0x8000))
    );
    let v = common::json(&["disasm", s(&bin), "--cpu", "z80", "--org", "8000", "--json"]);
    assert_eq!(v["instructions"][0]["text"], "LD A,$01");
    assert_eq!(v["instructions"][0]["addr"], 0x8000);
    let v = common::json(&["gen-tables", "--check", "--json"]);
    let tables = v["tables"].as_array().expect("a list of tables");
    assert!(!tables.is_empty());
    assert!(tables.iter().all(|t| t["up_to_date"] == true), "{v}");
}

#[test]
fn endless_inputs_end_with_an_error() {
    let dir = scratch("endless");
    let bin = dir.file("nop.bin", [0u8]);
    #[cfg(unix)]
    {
        fails_with(
            &["disasm", s(&bin), "--cpu", "z80", "--symbols", "/dev/zero"],
            &["larger than 16 MiB"],
        );
        fails_with(
            &["disasm", "/dev/zero", "--cpu", "z80"],
            &["more than 65536 bytes"],
        );
        // Every file a command reads is bounded.
        for args in [
            &["run", s(&bin), "--machine", "/dev/zero"][..],
            &["run", s(&bin), "--cpu", "z80", "--symbols", "/dev/zero"],
            &["run", "/dev/zero", "--cpu", "z80"],
            &["run", s(&bin), "--cpu", "z80", "--image", "/dev/zero"],
            &["uci", "--program", "/dev/zero"],
            &["compare", "--suite", "/dev/zero"],
            &["bench", "--cpu", "z80", "--suite", "/dev/zero"],
            &common::words("tournament reference turing --openings /dev/zero --nodes 10"),
        ] {
            let stderr = fails(args);
            assert!(
                [
                    "larger than 1 MiB",
                    "larger than 16 MiB",
                    "larger than 64 MiB"
                ]
                .iter()
                .any(|bound| stderr.contains(bound)),
                "{args:?}: {stderr}"
            );
        }
    }
    // A UCI line without an end is cut, reported, and the engine answers the next command.
    let mut input = vec![b'a'; 200_000];
    input.extend_from_slice(b"\nisready\nquit\n");
    let out = uci(&[], &input);
    common::assert_contains("uci", &out, &["input line 1 is longer than 65536 bytes"]);
    assert!(out.ends_with("readyok\n"), "{out}");
}

#[cfg(unix)]
#[test]
fn asm_writes_through_a_symlinked_output_and_to_a_device() {
    let (dir, main, _) = program("devices");
    // A symlinked output: the file it names gets the bytes, the link stays a link.
    let real = dir.file("real.bin", "old");
    let link = dir.join("link.bin");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    succeeds(&["asm", s(&main), "--cpu", "z80", "-o", s(&link)]);
    assert_eq!(std::fs::read(&real).unwrap(), [0x3E, 0x01, 0xC9]);
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    // A device is written, not replaced by a regular file.
    succeeds(&["asm", s(&main), "--cpu", "z80", "-o", "/dev/null"]);
    assert!(!std::fs::metadata("/dev/null").unwrap().is_file());
}

/// A 6502 program (a hex dump at `$0200`) that fills page 1 with `$1E9F` and jumps to the trap
/// at `$1EA0` (the KIM-1's OUTCH): every return lands on the trap again.
const LOOP_ON_A_TRAP: &str =
    "0200 A2 00 A9 9F 9D 00 01 A9 1E 9D 01 01 E8 E8 D0 F2\n0210 A2 FF 9A 4C A0 1E\n";

/// [`LOOP_ON_A_TRAP`] on the KIM-1. There the first return underflows the stack; without the
/// stack check each call still costs the RTS's cycles, so the run stops at `--max-cycles`.
#[test]
fn a_program_looping_on_a_host_trap_stops_at_the_cycle_budget() {
    let dir = scratch("traploop");
    let prog = dir.file("loop.h65", LOOP_ON_A_TRAP);
    let run = |extra: &[&str]| {
        let args = ["run", s(&prog), "--machine", "kim-1", "--entry", "0200"];
        kempelen(&[&args[..], &["--max-cycles", "100000"], extra].concat())
    };
    let (ok, _, stderr) = run(&[]);
    assert!(!ok, "{stderr}");
    common::assert_contains("run", &stderr, &["stack underflow", "at PC $1EA0"]);
    let (ok, stdout, stderr) = run(&["--no-stack-check", "--json"]);
    assert!(!ok, "{stdout}");
    let budget = "cycle budget of 100000 cycles exceeded at PC $1EA0";
    common::assert_contains("--no-stack-check", &stderr, &[budget]);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let cycles = v["cycles"].as_u64().unwrap();
    assert!((100_000..100_006).contains(&cycles), "{cycles}");
    // A is $1E at every call: printed as `\x1E`, about one character per 6 cycles.
    let printed = v["console"].as_str().unwrap().matches("\\x1E").count();
    assert!((16_000..16_700).contains(&printed), "{printed}");
}

#[test]
fn poke_is_checked_before_anything_is_written() {
    let dir = scratch("poke");
    let bin = dir.file("halt.bin", [0x76]);
    for (poke, want) in [
        ("0200=aé1", "--poke `0200=aé1`: `aé1` is not hex bytes"),
        ("0200=+1", "--poke `0200=+1`: `+1` is not hex bytes"),
        (
            "FFFF=0102",
            "--poke `FFFF=0102`: 2 bytes at $FFFF run past $FFFF (nothing wraps to $0000)",
        ),
        (
            "+FFF=01",
            "--poke `+FFF=01`: `+FFF` is not a 16-bit address",
        ),
    ] {
        let stderr = fails_with(&["run", s(&bin), "--cpu", "z80", "--poke", poke], &[want]);
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    let run = ["run", s(&bin), "--cpu", "z80", "--poke", "0001=76"];
    succeeds(&[&run[..], &["--dump", "0000-0001"]].concat());
}

#[test]
fn images_that_overlap_across_files_are_refused_unless_later_wins() {
    let dir = scratch("overlap");
    let rom = dir.file("rom.bin", [0x00, 0x00, 0x76]);
    // $0001: HALT
    let a = dir.file("a.hex", ":010001007688\n:00000001FF\n");
    let b = dir.file("b.hex", ":010001007688\n:00000001FF\n");
    for (args, first, second) in [
        (vec![s(&rom), "--image", s(&a)], "rom.bin", "a.hex"),
        (vec!["--image", s(&a), "--image", s(&b)], "a.hex", "b.hex"),
        (vec!["--image", s(&a), "--image", s(&a)], "a.hex", "a.hex"),
        (
            vec![s(&rom), "--image", &format!("{}@0002", s(&rom))],
            "rom.bin",
            "rom.bin",
        ),
    ] {
        let all = [&["run", "--cpu", "z80"][..], &args].concat();
        fails_with(
            &all,
            &[
                &format!("{second}: its bytes at"),
                &format!("overlap those of {}", dir.join(first).display()),
                "--overlap later-wins",
            ],
        );
    }
    // With --overlap later-wins the later file's HALT at $0001 stops the run there.
    let run = ["run", "--cpu", "z80", s(&rom), "--image", s(&a)];
    let v = common::json(&[&run[..], &["--overlap", "later-wins", "--json"]].concat());
    assert_eq!(v["stop"]["Halt"]["pc"], 1, "{v}");
}

#[test]
fn a_text_image_with_a_bad_line_is_refused_with_its_place() {
    let dir = scratch("badimage");
    for (name, bytes, want) in [
        (
            "dump.h65",
            &b"0000 00 00\n+FFF 00\n"[..],
            "dump.h65:2:1: `+FFF` is not a four-digit hex address",
        ),
        (
            "latin1.hex",
            b":0100000000FF\n:01000100\xe900FF\n",
            "latin1.hex:2:10: not UTF-8 text",
        ),
        (
            "type6.hex",
            b":00000006FA\n",
            "type6.hex:1:8: unknown record type 06 (Intel HEX has types 00 to 05)",
        ),
        (
            "nothing.hex",
            b":0000000000\n:00000001FF\n",
            "nothing.hex:1:1: the intel-hex image holds no bytes to load",
        ),
    ] {
        let path = dir.file(name, bytes);
        let stderr = fails_with(&["run", s(&path), "--cpu", "z80"], &[want]);
        assert!(!stderr.contains("loaded at )"), "{stderr}");
    }
}

#[test]
fn numbers_and_registers_of_a_personality_are_checked_from_the_command_line() {
    let dir = scratch("personality");
    let bin = dir.file("nop.bin", [0xEA]);
    for (body, want) in [
        (
            "mhz = 1e-300\n",
            "p.toml:4:7: mhz must be between 0.01 and 1000",
        ),
        (
            "mhz = 1e-20\n",
            "p.toml:4:7: mhz must be between 0.01 and 1000",
        ),
        (
            "[[trap]]\nname = \"P\"\nat = \"1000\"\nservice = \"print-string\"\n",
            "p.toml:7:11: `print-string` needs an address in a register pair",
        ),
        (
            "[[trap]]\nname = \"P\"\nat = \"1000\"\nservice = \"put-char\"\ncycles = 18446744073709551615\n",
            "p.toml:8:10: cycles must be between 1 and 1000000000",
        ),
        (
            "[[fill]]\nat = \"FFFF\"\nbytes = \"01 02\"\n",
            "p.toml:6:9: 2 bytes at $FFFF run past $FFFF",
        ),
    ] {
        let file = dir.file(
            "p.toml",
            format!("id = \"x\"\nname = \"x\"\ncpu = \"6502\"\n{body}"),
        );
        let run = ["run", s(&bin), "--machine", s(&file), "--realtime"];
        let stderr = fails_with(&[&run[..], &["--max-cycles", "10"]].concat(), &[want]);
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

/// Runs `kempelen args` with a file-size limit of `blocks` KiB (bash's `ulimit -f`).
#[cfg(unix)]
fn kempelen_with_file_limit(blocks: u32, args: &[&str]) -> (bool, String, String) {
    let out = Command::new("bash")
        .arg("-c")
        .arg(format!("ulimit -f {blocks}; exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_kempelen"))
        .args(args)
        .output()
        .unwrap();
    common::outcome(&out)
}

/// No temporary file is left in `dir`.
fn no_leftovers(dir: &Path) {
    let left: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// Every output file is written whole or not at all: with a 2 KiB file-size limit each write
/// fails with an error, and the old file is still there, untouched.
#[cfg(unix)]
#[test]
fn outputs_are_written_whole_or_not_at_all() {
    let dir = scratch("wholeornone");
    let suite = dir.file("s.epd", "7k/8/6K1/8/8/8/8/R7 w - -; id \"m1\";\n");
    let target = dir.join("out.file");
    let sym = dir.join("out.file.sym");
    let cases: Vec<Vec<&str>> = vec![
        vec!["tree", "--svg", s(&target)],
        vec!["play", "--write-rom", s(&target)],
        vec!["gen-tables", "--cpu", "z80", "--out", s(&target)],
        vec![
            "bench",
            "--cpu",
            "z80",
            "--suite",
            s(&suite),
            "--ram-suite",
            s(&suite),
            "--depth",
            "1",
            "--ram-depth",
            "1",
            "--svg",
            s(&target),
        ],
    ];
    for args in cases {
        std::fs::write(&target, "old").unwrap();
        std::fs::write(&sym, "old sym").unwrap();
        let (ok, _, stderr) = kempelen_with_file_limit(2, &args);
        assert!(!ok, "{args:?} must fail under the limit");
        assert!(stderr.contains("cannot write"), "{args:?}: {stderr}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "old", "{args:?}");
        assert_eq!(
            std::fs::read_to_string(&sym).unwrap(),
            "old sym",
            "{args:?}"
        );
        no_leftovers(&dir);
        // Without the limit the whole file is written.
        let (ok, _, stderr) = kempelen(&args);
        assert!(ok, "{args:?}: {stderr}");
        assert!(std::fs::metadata(&target).unwrap().len() > 2048, "{args:?}");
        if args[0] == "play" {
            // The ROM's symbols are written with it.
            assert!(std::fs::read_to_string(&sym).unwrap().contains("EQU"));
        }
        no_leftovers(&dir);
    }
}

/// `gen-tables --out` never replaces another source file of the port.
#[test]
fn gen_tables_never_replaces_a_source_of_the_port() {
    let engine = Path::new(env!("CARGO_MANIFEST_DIR")).join("roms-src/z80/engine.asm");
    let before = std::fs::read(&engine).unwrap();
    let (ok, _, stderr) = kempelen(&["gen-tables", "--cpu", "z80", "--out", s(&engine)]);
    let after = std::fs::read(&engine).unwrap();
    if after != before {
        std::fs::write(&engine, &before).unwrap();
        panic!("gen-tables replaced engine.asm");
    }
    assert!(!ok, "gen-tables wrote over engine.asm");
    common::assert_contains(
        "gen-tables",
        &stderr,
        &["refusing to overwrite", "nothing written"],
    );
}

/// `claims --markdown` to a path that cannot be written fails at once, before minutes of
/// measurement; `tree --svg` and `bench --svg` likewise.
#[test]
fn an_unwritable_output_fails_before_the_work() {
    let dir = scratch("unwritable");
    let bad = dir.join("no/such/dir/report.md");
    for args in [
        vec!["claims", "--markdown", s(&bad)],
        vec!["bench", "--cpu", "z80", "--svg", s(&bad)],
        vec!["tree", "--svg", s(&bad)],
    ] {
        // Refused before the work: the command says nothing ran and printed no result.
        let (ok, stdout, stderr) = kempelen(&args);
        assert!(!ok, "{args:?} succeeded: {stdout}");
        common::assert_contains(
            &format!("{args:?}"),
            &stderr,
            &["cannot be written (nothing run)", "report.md"],
        );
        assert!(stdout.is_empty(), "{args:?} printed: {stdout}");
    }
    fails_with(&["claims", "--markdown", s(&dir)], &["it is a directory"]);
}

/// A position in a check no move can give is refused, not searched (perft 1 = 0, exit 0).
#[test]
fn a_fen_with_an_impossible_check_is_refused() {
    for fen in [
        "4k3/8/3N4/1B6/8/8/8/4RK2 b - - 0 1",
        "4k3/2N3N1/8/8/8/8/8/5K2 b - - 0 1",
        "R3k2R/8/8/8/8/8/8/5K2 b - - 0 1",
    ] {
        let check = "the side to move is in a check no move can give";
        fails_with(&["perft", "--fen", fen, "--depth", "1"], &[check]);
    }
}

/// `setoption name Hash value 4096`, the advertised maximum, on a host that cannot give it (a
/// 3 GB address-space limit): an error, and the engine goes on with its old table.
#[cfg(unix)]
#[test]
fn a_hash_table_the_host_cannot_give_is_refused_and_the_old_one_kept() {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new("bash")
        .arg("-c")
        .arg("ulimit -v 3000000; exec \"$0\" uci")
        .arg(env!("CARGO_BIN_EXE_kempelen"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(
            b"setoption name Hash value 4096\nisready\nposition startpos\ngo depth 3\nquit\n",
        )
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{:?}: {stdout}", out.status);
    common::assert_contains(
        "uci",
        &stdout,
        &[
            "cannot allocate 4096 MB",
            "the hash table stays at 64 MB",
            "readyok",
            "bestmove ",
        ],
    );
}

/// An adapted program that loops on a host trap spends the adaptor's turn budget (each call
/// costs cycles) and the turn ends with an error instead of running for ever.
#[test]
fn an_adapted_program_looping_on_a_trap_ends_at_the_turn_budget() {
    use std::io::Write;
    let dir = scratch("adaptorloop");
    dir.file("loop.h65", LOOP_ON_A_TRAP);
    dir.file(
        "loop.toml",
        "id = \"loop\"\nname = \"a 6502 without a stack check\"\ncpu = \"6502\"\nload = \"0200\"\n\
         [[memory]]\nname = \"RAM\"\nkind = \"ram\"\nrange = \"0000-7FFF\"\n\
         [[trap]]\nname = \"OUTCH\"\nat = \"1EA0\"\nservice = \"put-char\"\n",
    );
    let adaptor = dir.file(
        "adaptor.toml",
        "name = \"a program that loops on a trap\"\nmachine = \"loop.toml\"\nentry = \"0200\"\n\
         turn_budget = 1000000\n[[image]]\nfile = \"loop.h65\"\n\
         [keys]\nmove = \"{move}\\n\"\ngo = \"go\\n\"\n\
         [reply]\npattern = 'plays (?P<move>[a-h][1-8][a-h][1-8])'\n",
    );
    let mut child = common::spawn(&["uci", "--program", s(&adaptor)]);
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"uci\nposition startpos\ngo depth 1\n")
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut seen = String::new();
    let mut line = String::new();
    while out.read_line(&mut line).unwrap() > 0 {
        seen.push_str(&line);
        if line.starts_with("bestmove") {
            break;
        }
        line.clear();
    }
    stdin.write_all(b"quit\n").unwrap();
    drop(stdin);
    let status = child.wait().unwrap();
    let budget = "no wait for input within the turn's budget of 1000000 cycles";
    common::assert_contains("uci --program", &seen, &[budget]);
    assert!(status.success(), "{status:?}");
}

/// A book move is said to be one, not shown as a search of depth 1 and no nodes.
#[test]
fn a_book_move_says_it_is_one() {
    for (profile, depth) in [("sargon", "3"), ("microchess", "1")] {
        let (stdout, _) = succeeds(&["search", "--profile", profile, "--depth", depth]);
        let book = "profile's book move: played without a search";
        common::assert_contains(profile, &stdout, &[book]);
        let v = common::json(&["search", "--profile", profile, "--depth", depth, "--json"]);
        assert_eq!(v["book"], true, "{v}");
    }
    let v = common::json(&["search", "--depth", "2", "--json"]);
    assert_eq!(v["book"], false, "{v}");
}

/// `play` and `gen-tables` serve only the 8-bit builds: their help offers no `--cpu native`.
#[test]
fn commands_of_the_8_bit_builds_do_not_offer_the_native_engine() {
    for command in ["play", "gen-tables"] {
        let (ok, stdout, _) = kempelen(&[command, "--help"]);
        assert!(ok && stdout.contains("6502"), "{stdout}");
        assert!(
            !stdout.contains("- native:") && !stdout.contains("possible values: native"),
            "{command}: {stdout}"
        );
        fails_with(
            &[command, "--cpu", "native"],
            &["[possible values: z80, 6502]"],
        );
    }
}

/// `compare --full` scores the engines on the bundled suite, which gives `bm`/`am` where the
/// answer is forced.
#[test]
fn compare_full_scores_the_bundled_suite() {
    let v = common::json(&[
        "compare", "--cpu", "native", "--full", "--depth", "2", "--json",
    ]);
    assert!(v["scored"].as_u64().unwrap() >= 8, "{}", v["scored"]);
    assert!(
        v["full_solved"].as_u64().unwrap() >= 6,
        "{}",
        v["full_solved"]
    );
}

/// An adaptor's `[[poke]]` past `$FFFF` is refused with its address instead of wrapping onto
/// the program at `$0000`.
#[test]
fn an_adaptor_poke_past_the_last_address_is_refused() {
    let dir = scratch("adaptorpoke");
    dir.file("p.h65", "0000 4C 00 00\n");
    let adaptor = dir.file(
        "adaptor.toml",
        "name = \"a poke that wraps\"\ncpu = \"z80\"\nturn_budget = 100000\n\
         [[image]]\nfile = \"p.h65\"\n[[poke]]\nat = \"FFFF\"\nbytes = \"01 02\"\n\
         [keys]\nmove = \"{move}\\n\"\ngo = \"go\\n\"\n\
         [reply]\npattern = 'plays (?P<move>[a-h][1-8][a-h][1-8])'\n",
    );
    // Refused when the file is read, at the poke's place (no input: `output` gives none).
    fails_with(
        &["uci", "--program", s(&adaptor)],
        &["adaptor.toml:8:9: [[poke]] of 2 bytes at $FFFF runs past $FFFF"],
    );
}

/// `build -o` writes through the writer `asm` uses: a symlink's file is replaced, not the
/// link; a FIFO is written into, not replaced; `-o X --symbols X` is refused with nothing
/// written; an error names the output, not a temporary file.
#[cfg(unix)]
#[test]
fn build_writes_through_the_shared_writer() {
    let dir = scratch("build-writer");
    let real = dir.file("real.com", "old");
    let link = dir.join("link.com");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    succeeds(&["build", "--target", "cpm", "-o", s(&link)]);
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink(),
        "the link was replaced"
    );
    assert!(std::fs::read(&real).unwrap().len() > 1000);
    let same = dir.join("same.com");
    fails_with(
        &[
            "build",
            "--target",
            "cpm",
            "-o",
            s(&same),
            "--symbols",
            s(&same),
        ],
        &["--symbols", "names the same file", "nothing written"],
    );
    assert!(!same.exists());
    let missing = dir.join("no/such/dir/game.com");
    let stderr = fails_with(&["build", "--target", "cpm", "-o", s(&missing)], &[]);
    assert!(
        stderr.contains(s(&missing)) && !stderr.contains(".tmp"),
        "{stderr}"
    );
    no_leftovers(&dir);
    // A FIFO: a reader gets the program, the FIFO stays a FIFO.
    let fifo = dir.join("fifo");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let copy = dir.join("copy.com");
    let mut cat = Command::new("sh")
        .args(["-c", "cat \"$1\" > \"$2\"", "sh", s(&fifo), s(&copy)])
        .spawn()
        .unwrap();
    let (ok, _, stderr) = common::kempelen(&["build", "--target", "cpm", "-o", s(&fifo)]);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while cat.try_wait().unwrap().is_none() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let _ = cat.kill();
    let _ = cat.wait();
    use std::os::unix::fs::FileTypeExt;
    assert!(
        ok && std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo(),
        "the FIFO was replaced: {stderr}"
    );
    assert_eq!(std::fs::read(&copy).unwrap(), std::fs::read(&real).unwrap());
    // A device is written, never replaced (as root, /dev/null became a regular file).
    succeeds(&["build", "--target", "cpm", "-o", "/dev/null"]);
    assert!(
        std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device(),
        "/dev/null is no longer a device"
    );
}

/// `--timing` is checked wherever it is taken: a model no machine of the bench has, and any
/// model for the native engine (which runs on no machine), are refused; a control character
/// is shown escaped; a machine without models says so.
#[test]
fn timing_values_are_refused_where_they_mean_nothing() {
    fails_with(
        &[
            "bench", "--cpu", "z80", "--depth", "1", "--timing", "nosuch",
        ],
        &[
            "--timing nosuch: no machine has a timing model `nosuch` (models: ",
            "48k",
        ],
    );
    for command in [&["search", "--depth", "1"][..], &["uci"][..]] {
        let args = [command, &["--timing", "nosuch"]].concat();
        let out = common::with_input(&args, "quit\n");
        let (ok, _, stderr) = common::outcome(&out);
        assert!(
            !ok && stderr.contains("--timing nosuch: the native engine runs on no machine"),
            "{args:?}: {stderr}"
        );
    }
    let (ok, stdout, stderr) = common::kempelen(&[
        "search",
        "--depth",
        "1",
        "--cpu",
        "z80",
        "--timing",
        "a\u{1b}[2Jb",
    ]);
    assert!(
        !ok && !stdout.contains('\u{1b}') && !stderr.contains('\u{1b}'),
        "{stderr:?}"
    );
    let stderr = fails_with(
        &[
            "search",
            "--depth",
            "1",
            "--cpu",
            "z80",
            "--machine",
            "trs-80",
            "--timing",
            "fast",
        ],
        &["has no timing models"],
    );
    assert!(!stderr.contains("(it has: ;"), "{stderr}");
}

/// A FEN whose counters contradict the position: an en-passant square (a double push just
/// happened) beside a halfmove clock above 0, or a fullmove number of 0.
#[test]
fn a_fen_with_impossible_counters_is_refused() {
    for (fen, why) in [
        (
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 99 1",
            "halfmove clock (field 5): 99 with an en-passant square",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
            "fullmove number (field 6): 0: the first move is number 1",
        ),
    ] {
        fails_with(&["search", "--depth", "1", "--fen", fen], &[why]);
    }
    succeeds(&[
        "search",
        "--depth",
        "1",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
    ]);
}

/// `bench --program` where no position is searched (a turn budget no search fits in) names
/// each position's reason, as it does when some positions work (it said only "no position
/// searched").
#[test]
fn a_program_bench_without_a_searched_position_says_why_for_each() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = scratch("program-bench-none");
    let shipped = std::fs::read_to_string(root.join("adaptors/kempelen-console-z80.toml")).unwrap();
    // A turn of one cycle (the smallest budget) and one of 1,000: neither reaches a move.
    for budget in [1, 1000] {
        let text = shipped
            .replace(
                "clock = \"zx-spectrum\"",
                &format!("clock = \"zx-spectrum\"\nturn_budget = {budget}"),
            )
            .replace(
                "file = \"console.bin\"",
                &format!(
                    "file = \"{}\"\nassemble = {{ cpu = \"z80\" }}",
                    root.join("roms-src/z80/console.asm").display()
                ),
            )
            + "\n[depth]\ndefault = 2\nmax = 9\n\n[nodes]\nroutines = [\"search\", \"quiesce\", \"q_leaf\"]\n\
               what = \"nodes (entries to search, quiesce and q_leaf)\"\n";
        let file = dir.file("starved.toml", text);
        let stderr = fails_with(
            &[
                "bench",
                "--program",
                s(&file),
                "--positions",
                "2",
                "--level",
                "1",
            ],
            &[
                "level 1: no position searched (",
                "not searched: engine backend failed: Kempelen",
                &format!("within the turn's budget of {budget} cycles"),
            ],
        );
        assert_eq!(stderr.matches("not searched: ").count(), 2, "{stderr}");
    }
}

/// The other ways no position is searched, each named per position: `--positions 1` whose
/// position Microchess answers from its opening book (no node counted), and a suite whose
/// positions it cannot hold (more pieces of a kind than its board keeps). Needs the real
/// Microchess (KEMPELEN_HISTORICAL).
#[test]
fn a_program_bench_of_a_book_move_or_of_positions_the_program_cannot_hold_says_why() {
    if common::historical_file("microchess.h65").is_none() {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let adaptor = root.join("adaptors/microchess-kim1.toml");
    fails_with(
        &["bench", "--program", s(&adaptor), "--positions", "1"],
        &["no position searched (start position: answered without a node counted (a book move))"],
    );
    let dir = scratch("program-bench-cannot-hold");
    let suite = dir.file(
        "cannot.epd",
        "4k3/8/8/8/8/8/QQ6/4K3 w - - 0 1; id \"two queens\";\n\
         4k3/8/8/8/8/8/8/NNN1K3 w - - 0 1; id \"three knights\";\n",
    );
    fails_with(
        &["bench", "--program", s(&adaptor), "--suite", s(&suite)],
        &[
            "no position searched (two queens: not searched: ",
            "cannot take this position: it keeps 1 queen for each side, and White has 2; \
             three knights: not searched: ",
            "it keeps 2 knights for each side, and White has 3)",
        ],
    );
}

/// An adapted program that computes for ever without waiting for input and names no best-move
/// memory (`INC A; JR -3`): `isready` is answered while it runs, `stop` answers `bestmove
/// 0000` with the reason, and `quit` ends the engine at once (it ran on until its turn budget,
/// here hours, because the program's start ignored the stop).
#[test]
fn quit_and_stop_end_an_adapted_program_that_never_waits() {
    use std::io::Write;
    use std::time::{Duration, Instant};
    let dir = scratch("spinner");
    dir.file("spin.bin", [0x3C, 0x18, 0xFD]);
    let adaptor = dir.file(
        "spin.toml",
        "name = \"a program that never waits\"\ncpu = \"z80\"\nclock = \"zx-spectrum\"\n\
         entry = \"8000\"\nturn_budget = 1000000000000\n\
         [[image]]\nfile = \"spin.bin\"\nat = \"8000\"\n\
         [keys]\nmove = \"{move}\\n\"\ngo = \"go\\n\"\n\
         [reply]\npattern = 'plays (?P<move>[a-h][1-8][a-h][1-8])'\n",
    );
    let mut child = common::spawn(&["uci", "--program", s(&adaptor)]);
    let mut stdin = child.stdin.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap_or_default()).is_err() {
                break;
            }
        }
    });
    let wait_for = |prefix: &str| -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(line) if line.starts_with(prefix) => return line,
                Ok(_) => {}
                Err(_) => panic!("no '{prefix}' within 60 s"),
            }
        }
    };
    // The commands are read in order: `readyok` comes after `go` has started the turn, which
    // never ends by itself, so every answer below comes during a turn, on a host of any speed.
    stdin
        .write_all(b"uci\nposition startpos\ngo infinite\nisready\n")
        .unwrap();
    wait_for("readyok");
    stdin.write_all(b"stop\n").unwrap();
    assert_eq!(wait_for("bestmove"), "bestmove 0000");
    stdin.write_all(b"go depth 3\nisready\n").unwrap();
    wait_for("readyok");
    stdin.write_all(b"quit\n").unwrap();
    let asked = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if asked.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("still running 60 s after quit");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `[depth]` that the program cannot take is refused when the adaptor file is read, at the
/// number's place: a default above the maximum, a maximum of 0, beyond any program's search,
/// or of two digits where the depth is typed as one key (the program then faulted at the
/// depth it was typed).
#[test]
fn an_adaptor_depth_the_program_cannot_take_is_refused_at_its_place() {
    let dir = scratch("adaptor-depth");
    dir.file("a.bin", [0u8; 16]);
    let head = "name = \"x\"\ncpu = \"z80\"\n\n[[image]]\nfile = \"a.bin\"\nat = \"0000\"\n\n";
    let keys = |depth: &str| {
        format!(
            "[keys]\nmove = \"{{move}}\"\n{depth}\n[reply]\n\
             pattern = '(?P<move>[a-h][1-8][a-h][1-8])'\n"
        )
    };
    let line = keys("depth = \"d {depth}\\n\"");
    let one_key = keys("start = \"Y{depth}\"");
    for (text, want) in [
        (
            format!("{head}[depth]\ndefault = 7\nmax = 6\n\n{line}"),
            "depth.toml:9:11: [depth] default = 7 is above the deepest level, max = 6",
        ),
        (
            format!("{head}[depth]\ndefault = 12\n\n{line}"),
            "depth.toml:9:11: [depth] default = 12 is above the deepest level, max = 9",
        ),
        (
            format!("{head}[depth]\nmax = 100\n\n{line}"),
            "depth.toml:9:7: [depth] max = 100: at most 32: no program Kempelen runs takes more",
        ),
        (
            format!("{head}[depth]\nmax = 0\n\n{line}"),
            "depth.toml:9:7: [depth] max = 0: depths start at 1",
        ),
        (
            format!("{head}[depth]\ndefault = 2\nmax = 12\n\n{one_key}"),
            "depth.toml:10:7: [depth] max = 12: at most 9: the depth is typed as one key",
        ),
    ] {
        let file = dir.file("depth.toml", &text);
        let out = common::with_input(&["uci", "--program", s(&file)], "quit\n");
        let (ok, _, stderr) = common::outcome(&out);
        assert!(!ok && stderr.contains(want), "{text}\n{stderr}");
    }
}

/// A program file `build` wrote runs with the command `build` printed, whatever its name: a
/// file without an extension is known by its contents (a tape, a `.prg`, an Atari file, a
/// `/CMD`, a cartridge), not loaded as raw bytes.
#[test]
fn a_built_program_without_an_extension_runs_with_the_printed_command() {
    let dir = scratch("build-no-extension");
    for t in kempelen_roms::target::Target::all() {
        if t.port.require().is_err() {
            continue;
        }
        let game = dir.join(format!("game-{}", t.id));
        let (out, _) = succeeds(&["build", "--target", t.id, "-o", s(&game)]);
        let printed = format!("kempelen run {} --machine {}", s(&game), t.machine);
        assert!(out.contains(&printed), "{}: {out}", t.id);
        let (ok, out, err) =
            kempelen(&["run", s(&game), "--machine", &t.machine, "--input", "q\\n"]);
        assert!(ok, "{}: {err}", t.id);
        let text = t.unwrap_output(&out).to_lowercase();
        assert!(text.contains("goodbye"), "{}: {text}", t.id);
    }
}

/// A personality that names no clock (`cpm`, or a file of one's own) runs at the CPU's usual
/// speed without a machine's timing model: a CP/M machine has no ZX Spectrum's contended
/// memory or 50 Hz interrupt. A named model is refused: the machine has none.
#[test]
fn a_personality_without_a_clock_takes_no_machines_timing() {
    let dir = scratch("cpm-timing");
    let com = dir.join("k.com");
    succeeds(&["build", "--target", "cpm", "-o", s(&com)]);
    let (_, stderr) = succeeds(&["run", s(&com), "--machine", "cpm", "--input", "q\\n"]);
    assert!(
        stderr.contains("time at 3.5 MHz (cpm)")
            && !stderr.contains("zx-spectrum")
            && !stderr.contains("time on the machine"),
        "{stderr}"
    );
    fails_with(
        &["run", s(&com), "--machine", "cpm", "--timing", "48k"],
        &["machine `cpm` has no timing models"],
    );
    let own = dir.file(
        "own.toml",
        "id = \"box\"\nname = \"a box\"\ncpu = \"z80\"\n[[memory]]\nname = \"all\"\nkind = \"ram\"\nrange = \"0000-FFFF\"\n",
    );
    let bin = dir.file("halt.bin", "\u{76}");
    let (_, stderr) = succeeds(&["run", s(&bin), "--machine", s(&own)]);
    assert!(
        stderr.contains("(box)") && !stderr.contains("time on the machine"),
        "{stderr}"
    );
}

/// A `.prg` whose BASIC line's `SYS` names an address past `$FFFF` is refused with the
/// address (it started silently at the load address, `$0801`).
#[test]
fn a_prg_whose_sys_address_is_out_of_range_is_refused() {
    let dir = scratch("prg-sys");
    // $0801: a BASIC line `10 SYS 99999`, the end of the program, then RTS.
    let mut prg = vec![0x01, 0x08, 0x0D, 0x08, 0x0A, 0x00, 0x9E];
    prg.extend(b"99999\0\0\0");
    prg.push(0x60);
    let file = dir.file("far.prg", &prg);
    fails_with(
        &["run", s(&file), "--machine", "c64"],
        &["far.prg", "SYS 99999 is past the last address (65535)"],
    );
    let bare = dir.file("far", &prg);
    let (ok, _, stderr) = kempelen(&[
        "run",
        s(&bare),
        "--machine",
        "c64",
        "--max-cycles",
        "100000",
    ]);
    assert!(
        !stderr.contains("panicked") && (ok || !stderr.is_empty()),
        "{stderr}"
    );
}
