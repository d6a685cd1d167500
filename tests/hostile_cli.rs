//! The command line under hostile use: no output replaces an input or another
//! output, outputs are written all or none, printing commands exit quietly on a closed pipe,
//! oversized images are refused.

mod common;

use common::{fails, kempelen, succeeds};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    common::fresh_scratch(&format!("hostile-{name}"))
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

const SOURCE: &str = "        org $8000\n        ld a,1\n        include \"lib.asm\"\n";
const LIB: &str = "        ret\n";

/// A source with an included file; returns (dir, main, lib).
fn program(name: &str) -> (PathBuf, PathBuf, PathBuf) {
    let dir = scratch(name);
    let main = dir.join("main.asm");
    let lib = dir.join("lib.asm");
    std::fs::write(&main, SOURCE).unwrap();
    std::fs::write(&lib, LIB).unwrap();
    (dir, main, lib)
}

fn refused(args: &[&str], what: &str) -> String {
    let (ok, _, stderr) = kempelen(args);
    assert!(!ok, "{args:?} must fail ({what})");
    assert!(stderr.contains("nothing written"), "{args:?}: {stderr}");
    stderr
}

#[test]
fn asm_never_overwrites_its_source_or_an_included_file() {
    let (dir, main, lib) = program("inputs");
    let e = refused(
        &["asm", s(&main), "--cpu", "z80", "-o", s(&main)],
        "-o = source",
    );
    assert!(e.contains("-o"), "{e}");
    let e = refused(
        &["asm", s(&main), "--cpu", "z80", "--listing", s(&main)],
        "--listing = source",
    );
    assert!(e.contains("--listing"), "{e}");
    refused(
        &["asm", s(&main), "--cpu", "z80", "--symbols", s(&main)],
        "--symbols = source",
    );
    refused(
        &["asm", s(&main), "--cpu", "z80", "-o", s(&lib)],
        "-o = included file",
    );
    // Through a symlink and through `..`.
    #[cfg(unix)]
    {
        let link = dir.join("link.asm");
        std::os::unix::fs::symlink(&main, &link).unwrap();
        refused(
            &["asm", s(&main), "--cpu", "z80", "-o", s(&link)],
            "symlink",
        );
    }
    let dotted = dir.join("sub/../main.asm");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    refused(&["asm", s(&main), "--cpu", "z80", "-o", s(&dotted)], "..");
    assert_eq!(std::fs::read_to_string(&main).unwrap(), SOURCE);
    assert_eq!(std::fs::read_to_string(&lib).unwrap(), LIB);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn asm_refuses_two_outputs_naming_one_file() {
    let (dir, main, _) = program("twice");
    let out = dir.join("out.bin");
    let e = refused(
        &[
            "asm",
            s(&main),
            "--cpu",
            "z80",
            "-o",
            s(&out),
            "--listing",
            s(&out),
        ],
        "two outputs",
    );
    assert!(
        e.contains("--listing") && e.contains("-o names the same file"),
        "{e}"
    );
    assert!(!out.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn asm_without_o_never_replaces_a_source_named_bin() {
    let dir = scratch("dotbin");
    let prog = dir.join("prog.bin");
    std::fs::write(&prog, " nop\n").unwrap();
    let e = refused(&["asm", s(&prog), "--cpu", "z80"], "default -o = source");
    assert!(e.contains("the default output"), "{e}");
    assert_eq!(std::fs::read_to_string(&prog).unwrap(), " nop\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn asm_writes_all_outputs_or_none() {
    let (dir, main, _) = program("allornone");
    let bin = dir.join("main.bin");
    std::fs::write(&bin, "old").unwrap();
    let bad = dir.join("no/such/dir/main.lst");
    let stderr = fails(&[
        "asm",
        s(&main),
        "--cpu",
        "z80",
        "-o",
        s(&bin),
        "--listing",
        s(&bad),
    ]);
    assert!(stderr.contains("main.lst"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&bin).unwrap(),
        "old",
        "the binary was written"
    );
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    // With good paths every output appears.
    let lst = dir.join("main.lst");
    let sym = dir.join("main.sym");
    succeeds(&[
        "asm",
        s(&main),
        "--cpu",
        "z80",
        "-o",
        s(&bin),
        "--listing",
        s(&lst),
        "--symbols",
        s(&sym),
    ]);
    assert_eq!(std::fs::read(&bin).unwrap(), [0x3E, 0x01, 0xC9]);
    assert!(lst.exists() && sym.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bench_svg_refuses_to_overwrite_its_suite() {
    let dir = scratch("svg");
    let suite = dir.join("s.epd");
    let text = "7k/8/6K1/8/8/8/8/R7 w - -; id \"m1\";\n";
    std::fs::write(&suite, text).unwrap();
    let (ok, _, stderr) = kempelen(&[
        "bench",
        "--cpu",
        "z80",
        "--suite",
        s(&suite),
        "--svg",
        s(&suite),
        "--depth",
        "1",
    ]);
    assert!(!ok, "{stderr}");
    assert!(
        stderr.contains("--svg") && stderr.contains("refusing to overwrite"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&suite).unwrap(), text);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `kempelen args`, reads one line of its output, closes the pipe and waits: the exit must
/// be quiet (status 0 or death by SIGPIPE, nothing on stderr about a panic).
fn closes_pipe_quietly(args: &[&str]) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kempelen"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
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
    let big = dir.join("big.bin");
    // 60,000 bytes of varied code: a long listing.
    let bytes: Vec<u8> = (0..60_000u32).map(|i| (i * 7 + i / 251) as u8).collect();
    std::fs::write(&big, &bytes).unwrap();
    closes_pipe_quietly(&["disasm", s(&big), "--cpu", "z80"]);
    closes_pipe_quietly(&["disasm", s(&big), "--cpu", "6502", "--json"]);
    closes_pipe_quietly(&["perft", "--depth", "4", "--divide"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The tournament ignores SIGPIPE while its games run (an engine's pipe may close: a forfeit,
/// not the end of Kempelen); its report to a reader that has already gone must still end
/// quietly, not in a panic on the failed write.
#[test]
fn tournament_report_to_a_closed_pipe_ends_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kempelen"))
        .args([
            "tournament",
            "reference",
            "turing",
            "--nodes",
            "200",
            "--games",
            "2",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
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
    let big = dir.join("big.bin");
    std::fs::write(&big, vec![0u8; 70_000]).unwrap();
    let (ok, stdout, stderr) = kempelen(&["disasm", s(&big), "--cpu", "z80"]);
    assert!(!ok && stdout.is_empty(), "{stdout:.200}");
    assert!(stderr.contains("more than 65536 bytes"), "{stderr}");
    let small = dir.join("small.bin");
    std::fs::write(&small, vec![0u8; 0x200]).unwrap();
    let stderr = fails(&["disasm", s(&small), "--cpu", "z80", "--org", "$FF00"]);
    assert!(stderr.contains("run past $FFFF"), "{stderr}");
    let (ok, stdout, _) = kempelen(&["disasm", s(&small), "--cpu", "z80", "--org", "$FE00"]);
    assert!(ok && stdout.contains("FFFF"), "{stdout:.200}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn compare_on_an_empty_or_comment_only_suite_is_an_error() {
    let dir = scratch("emptysuite");
    for (name, text) in [("empty.epd", ""), ("comments.epd", "# only a comment\n\n")] {
        let suite = dir.join(name);
        std::fs::write(&suite, text).unwrap();
        let (ok, stdout, stderr) = kempelen(&["compare", "--suite", s(&suite)]);
        assert!(!ok, "{stdout}");
        assert!(!stdout.contains("0/0"), "{stdout}");
        assert!(
            stderr.contains(name) && stderr.contains("the suite has no positions"),
            "{stderr}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bench_on_a_suite_without_a_legal_move_prints_no_per_node_figure() {
    let dir = scratch("nomove");
    let suite = dir.join("mated.epd");
    // Checkmate and stalemate: no legal move anywhere.
    std::fs::write(
        &suite,
        "R6k/8/6K1/8/8/8/8/8 b - -; id \"mated\";\n7k/5Q2/6K1/8/8/8/8/8 b - -; id \"stalemate\";\n",
    )
    .unwrap();
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
    assert!(
        stderr.contains("no position of the suite has a legal move"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_suite_that_is_not_utf8_or_has_a_bad_operation_is_refused_with_its_place() {
    let dir = scratch("badsuite");
    let suite = dir.join("bad.epd");
    std::fs::write(&suite, b"7k/8/6K1/8/8/8/8/R7 w - -; id \"\xff\";\n").unwrap();
    let (ok, _, stderr) = kempelen(&["compare", "--suite", s(&suite)]);
    assert!(
        !ok && stderr.contains("bad.epd:1:32: the line is not valid UTF-8"),
        "{stderr}"
    );
    std::fs::write(&suite, "7k/8/6K1/8/8/8/8/R7 w - -; id \"unterminated;\n").unwrap();
    let (ok, _, stderr) = kempelen(&["compare", "--suite", s(&suite)]);
    assert!(
        !ok && stderr.contains("bad.epd:1:31: string without its closing"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Feeds `input` to `kempelen uci extra...` and returns its output.
fn uci(extra: &[&str], input: &[u8]) -> String {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_kempelen"))
        .arg("uci")
        .args(extra)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn uci_survives_a_line_that_is_not_utf8_native_and_z80() {
    for extra in [&[][..], &["--engine", "z80"][..]] {
        let out = uci(extra, b"isready\n\xff\nisready\nquit\n");
        assert_eq!(out.matches("readyok").count(), 2, "{extra:?}: {out}");
        assert!(
            out.contains("info string error: input line 2 is not valid UTF-8"),
            "{out}"
        );
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
    assert!(
        out.contains("info string error: go: 'nodes' must not be negative, found -5"),
        "{out}"
    );
    assert!(
        out.contains("info string error: go: 'movetime' must not be negative, found -1"),
        "{out}"
    );
    // Each refused `go` is answered with the null move: a GUI waits for a `bestmove`.
    assert_eq!(out.matches("bestmove 0000\n").count(), 2, "{out}");
    assert_eq!(out.matches("bestmove").count(), 2, "{out}");
}

#[test]
fn every_address_flag_reads_numbers_the_same_way() {
    let dir = scratch("addr");
    let bin = dir.join("nop.bin");
    std::fs::write(&bin, [0u8]).unwrap();
    // Hex by default, as `run --load` has always read it; decimal with '#'.
    for org in ["8000", "$8000", "0x8000", "8000h", "#32768"] {
        let (stdout, _) = succeeds(&["disasm", s(&bin), "--cpu", "z80", "--org", org]);
        assert!(stdout.contains("ORG $8000"), "{org}: {stdout}");
    }
    for (command, flag) in [("disasm", "--org"), ("run", "--load")] {
        let (ok, _, stderr) = kempelen(&[command, s(&bin), "--cpu", "z80", flag, "zz"]);
        assert!(
            !ok && stderr.contains(flag) && stderr.contains("zz"),
            "{stderr}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
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
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn endless_inputs_end_with_an_error() {
    let dir = scratch("endless");
    let bin = dir.join("nop.bin");
    std::fs::write(&bin, [0u8]).unwrap();
    #[cfg(unix)]
    {
        let (ok, _, stderr) =
            kempelen(&["disasm", s(&bin), "--cpu", "z80", "--symbols", "/dev/zero"]);
        assert!(!ok && stderr.contains("larger than 16 MiB"), "{stderr}");
        let stderr = fails(&["disasm", "/dev/zero", "--cpu", "z80"]);
        assert!(stderr.contains("more than 65536 bytes"), "{stderr}");
        // Every file a command reads is bounded.
        for args in [
            &["run", s(&bin), "--machine", "/dev/zero"][..],
            &["run", s(&bin), "--cpu", "z80", "--symbols", "/dev/zero"],
            &["run", "/dev/zero", "--cpu", "z80"],
            &["run", s(&bin), "--cpu", "z80", "--image", "/dev/zero"],
            &["uci", "--program", "/dev/zero"],
            &["compare", "--suite", "/dev/zero"],
            &["bench", "--cpu", "z80", "--suite", "/dev/zero"],
            &[
                "tournament",
                "reference",
                "turing",
                "--openings",
                "/dev/zero",
                "--nodes",
                "10",
            ],
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
    assert!(
        out.contains("input line 1 is longer than 65536 bytes"),
        "{out}"
    );
    assert!(out.ends_with("readyok\n"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn asm_writes_through_a_symlinked_output_and_to_a_device() {
    let (dir, main, _) = program("devices");
    // A symlinked output: the file it names gets the bytes, the link stays a link.
    let real = dir.join("real.bin");
    std::fs::write(&real, "old").unwrap();
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
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A KIM-1 program that fills page 1 with `$1E9F` and jumps to OUTCH at `$1EA0`: every return
/// lands on the trap again. On the KIM-1 the first return underflows the stack; without the
/// stack check each call still costs the RTS's cycles, so the run stops at `--max-cycles`.
#[test]
fn a_program_looping_on_a_host_trap_stops_at_the_cycle_budget() {
    let dir = scratch("traploop");
    let prog = dir.join("loop.h65");
    std::fs::write(
        &prog,
        "0200 A2 00 A9 9F 9D 00 01 A9 1E 9D 01 01 E8 E8 D0 F2\n0210 A2 FF 9A 4C A0 1E\n",
    )
    .unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "run",
            s(&prog),
            "--machine",
            "kim-1",
            "--entry",
            "0200",
            "--max-cycles",
            "100000",
        ];
        args.extend_from_slice(extra);
        kempelen(&args)
    };
    let (ok, _, stderr) = run(&[]);
    assert!(
        !ok && stderr.contains("stack underflow") && stderr.contains("at PC $1EA0"),
        "{stderr}"
    );
    let (ok, stdout, stderr) = run(&["--no-stack-check", "--json"]);
    assert!(!ok, "{stdout}");
    assert!(
        stderr.contains("cycle budget of 100000 cycles exceeded at PC $1EA0"),
        "{stderr}"
    );
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let cycles = v["cycles"].as_u64().unwrap();
    assert!((100_000..100_006).contains(&cycles), "{cycles}");
    // A is $1E at every call: printed as `\x1E`, about one character per 6 cycles.
    let printed = v["console"].as_str().unwrap().matches("\\x1E").count();
    assert!((16_000..16_700).contains(&printed), "{printed}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn poke_is_checked_before_anything_is_written() {
    let dir = scratch("poke");
    let bin = dir.join("halt.bin");
    std::fs::write(&bin, [0x76]).unwrap();
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
        let (ok, _, stderr) = kempelen(&["run", s(&bin), "--cpu", "z80", "--poke", poke]);
        assert!(!ok && stderr.contains(want), "{poke}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    let (ok, _, stderr) = kempelen(&[
        "run",
        s(&bin),
        "--cpu",
        "z80",
        "--poke",
        "0001=76",
        "--dump",
        "0000-0001",
    ]);
    assert!(ok, "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn images_that_overlap_across_files_are_refused_unless_later_wins() {
    let dir = scratch("overlap");
    let rom = dir.join("rom.bin");
    std::fs::write(&rom, [0x00, 0x00, 0x76]).unwrap();
    let a = dir.join("a.hex");
    let b = dir.join("b.hex");
    // $0001: HALT
    std::fs::write(&a, ":010001007688\n:00000001FF\n").unwrap();
    std::fs::write(&b, ":010001007688\n:00000001FF\n").unwrap();
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
        let mut all = vec!["run", "--cpu", "z80"];
        all.extend(args.iter().copied());
        let (ok, _, stderr) = kempelen(&all);
        assert!(!ok, "{all:?}");
        assert!(
            stderr.contains(&format!("{second}: its bytes at"))
                && stderr.contains(&format!("overlap those of {}", dir.join(first).display()))
                && stderr.contains("--overlap later-wins"),
            "{all:?}: {stderr}"
        );
    }
    // With --overlap later-wins the later file's HALT at $0001 stops the run there.
    let (ok, stdout, stderr) = kempelen(&[
        "run",
        "--cpu",
        "z80",
        s(&rom),
        "--image",
        s(&a),
        "--overlap",
        "later-wins",
        "--json",
    ]);
    assert!(ok, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["stop"]["Halt"]["pc"], 1, "{v}");
    std::fs::remove_dir_all(&dir).unwrap();
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
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let (ok, _, stderr) = kempelen(&["run", s(&path), "--cpu", "z80"]);
        assert!(!ok && stderr.contains(want), "{name}: {stderr}");
        assert!(!stderr.contains("loaded at )"), "{stderr}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn numbers_and_registers_of_a_personality_are_checked_from_the_command_line() {
    let dir = scratch("personality");
    let bin = dir.join("nop.bin");
    std::fs::write(&bin, [0xEA]).unwrap();
    let file = dir.join("p.toml");
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
        std::fs::write(
            &file,
            format!("id = \"x\"\nname = \"x\"\ncpu = \"6502\"\n{body}"),
        )
        .unwrap();
        let (ok, _, stderr) = kempelen(&[
            "run",
            s(&bin),
            "--machine",
            s(&file),
            "--realtime",
            "--max-cycles",
            "10",
        ]);
        assert!(!ok && stderr.contains(want), "{body}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
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
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
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
    let suite = dir.join("s.epd");
    std::fs::write(&suite, "7k/8/6K1/8/8/8/8/R7 w - -; id \"m1\";\n").unwrap();
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
    std::fs::remove_dir_all(&dir).unwrap();
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
    assert!(
        !ok && stderr.contains("refusing to overwrite") && stderr.contains("nothing written"),
        "{stderr}"
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
        let started = std::time::Instant::now();
        let (ok, stdout, stderr) = kempelen(&args);
        assert!(!ok, "{args:?}: {stdout}");
        assert!(
            stderr.contains("cannot be written (nothing run)") && stderr.contains("report.md"),
            "{args:?}: {stderr}"
        );
        // Seconds, not the minutes of a measurement (a generous bound for a loaded host).
        assert!(started.elapsed().as_secs() < 60, "{args:?}");
    }
    let (ok, _, stderr) = kempelen(&["claims", "--markdown", s(&dir)]);
    assert!(!ok && stderr.contains("it is a directory"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A position in a check no move can give is refused, not searched (perft 1 = 0, exit 0).
#[test]
fn a_fen_with_an_impossible_check_is_refused() {
    for fen in [
        "4k3/8/3N4/1B6/8/8/8/4RK2 b - - 0 1",
        "4k3/2N3N1/8/8/8/8/8/5K2 b - - 0 1",
        "R3k2R/8/8/8/8/8/8/5K2 b - - 0 1",
    ] {
        let (ok, stdout, stderr) = kempelen(&["perft", "--fen", fen, "--depth", "1"]);
        assert!(!ok, "{fen}: {stdout}");
        assert!(
            stderr.contains("the side to move is in a check no move can give"),
            "{fen}: {stderr}"
        );
    }
}

/// `setoption name Hash value 4096`, the advertised maximum, on a host that cannot give it (a
/// 3 GB address-space limit): an error, and the engine goes on with its old table.
#[cfg(unix)]
#[test]
fn a_hash_table_the_host_cannot_give_is_refused_and_the_old_one_kept() {
    use std::io::Write;
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
    assert!(
        stdout.contains("cannot allocate 4096 MB")
            && stdout.contains("the hash table stays at 64 MB"),
        "{stdout}"
    );
    assert!(
        stdout.contains("readyok") && stdout.contains("bestmove "),
        "{stdout}"
    );
}

/// An adapted program that loops on a host trap spends the adaptor's turn budget (each call
/// costs cycles) and the turn ends with an error instead of running for ever.
#[test]
fn an_adapted_program_looping_on_a_trap_ends_at_the_turn_budget() {
    use std::io::Write;
    let dir = scratch("adaptorloop");
    std::fs::write(
        dir.join("loop.h65"),
        "0200 A2 00 A9 9F 9D 00 01 A9 1E 9D 01 01 E8 E8 D0 F2\n0210 A2 FF 9A 4C A0 1E\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("loop.toml"),
        "id = \"loop\"\nname = \"a 6502 without a stack check\"\ncpu = \"6502\"\nload = \"0200\"\n\
         [[memory]]\nname = \"RAM\"\nkind = \"ram\"\nrange = \"0000-7FFF\"\n\
         [[trap]]\nname = \"OUTCH\"\nat = \"1EA0\"\nservice = \"put-char\"\n",
    )
    .unwrap();
    let adaptor = dir.join("adaptor.toml");
    std::fs::write(
        &adaptor,
        "name = \"a program that loops on a trap\"\nmachine = \"loop.toml\"\nentry = \"0200\"\n\
         turn_budget = 1000000\n[[image]]\nfile = \"loop.h65\"\n\
         [keys]\nmove = \"{move}\\n\"\ngo = \"go\\n\"\n\
         [reply]\npattern = 'plays (?P<move>[a-h][1-8][a-h][1-8])'\n",
    )
    .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_kempelen"))
        .args(["uci", "--program", s(&adaptor)])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
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
    assert!(
        seen.contains("no wait for input within the turn's budget of 1000000 cycles"),
        "{seen}"
    );
    assert!(status.success(), "{status:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A book move is said to be one, not shown as a search of depth 1 and no nodes.
#[test]
fn a_book_move_says_it_is_one() {
    for (profile, depth) in [("sargon", "3"), ("microchess", "1")] {
        let (ok, stdout, stderr) = kempelen(&["search", "--profile", profile, "--depth", depth]);
        assert!(ok, "{stderr}");
        assert!(
            stdout.contains("profile's book move: played without a search"),
            "{profile}: {stdout}"
        );
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
        let (ok, _, stderr) = kempelen(&[command, "--cpu", "native"]);
        assert!(
            !ok && stderr.contains("[possible values: z80, 6502]"),
            "{stderr}"
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
    std::fs::write(dir.join("p.h65"), "0000 4C 00 00\n").unwrap();
    let adaptor = dir.join("adaptor.toml");
    std::fs::write(
        &adaptor,
        "name = \"a poke that wraps\"\ncpu = \"z80\"\nturn_budget = 100000\n\
         [[image]]\nfile = \"p.h65\"\n[[poke]]\nat = \"FFFF\"\nbytes = \"01 02\"\n\
         [keys]\nmove = \"{move}\\n\"\ngo = \"go\\n\"\n\
         [reply]\npattern = 'plays (?P<move>[a-h][1-8][a-h][1-8])'\n",
    )
    .unwrap();
    // Refused when the file is read, at the poke's place.
    let out = Command::new(env!("CARGO_BIN_EXE_kempelen"))
        .args(["uci", "--program", s(&adaptor)])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains("adaptor.toml:8:9: [[poke]] of 2 bytes at $FFFF runs past $FFFF"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
