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
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
        "{args:?}: {stderr}"
    );
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
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
        "{stderr}"
    );
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
    assert!(!out.contains("bestmove"), "{out}");
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
