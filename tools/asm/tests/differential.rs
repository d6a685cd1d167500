//! Differential tests: Kempelen against the established assemblers Debian ships (`.ci/run`
//! installs them). A source with every instruction form of each table, and every top-level
//! source in `roms-src/z80/` and `roms-src/6502/` (one generated test each), must assemble to
//! identical bytes with Kempelen and with pasmo and z80asm (Z80) or ca65 (6502). The W65C02S's
//! instructions beyond the common CMOS set (the bit instructions, `WAI`, `STP`) are checked
//! against acme as well.
//!
//! A missing reference assembler fails the test with an install hint: CI installs them, so a
//! silent skip would hide a broken setup.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{SAMPLE, Values, encode};
use kempelen_asm::isa::instructions;
use kempelen_asm::source::FsSource;
use kempelen_asm::{Cpu, Options, assemble, decode};

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("kempelen-asm-differential")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch directory");
    dir
}

/// Runs a reference assembler in `cwd`; panics with its output if it fails or is missing.
fn run(program: &str, args: &[&str], cwd: &Path) {
    let output = Command::new(program).args(args).current_dir(cwd).output().unwrap_or_else(|e| {
        panic!("cannot run '{program}' ({e}): install it (Debian: apt-get install pasmo z80asm cc65; .ci/run does)")
    });
    assert!(
        output.status.success(),
        "{program} {args:?} failed in {}:\n{}{}",
        cwd.display(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// In the arguments of [`reference`]: the source's path.
const SOURCE: &str = "{source}";
/// In the arguments of [`reference`]: the output file's path.
const OUT: &str = "{out}";

/// Runs the reference assembler `program` with `args` in the folder of `source`, writing a
/// plain binary to `out_dir/<program>.bin` ([`SOURCE`] and [`OUT`] in `args` stand for the
/// two paths); the bytes it wrote.
fn reference(program: &str, args: &[&str], source: &Path, out_dir: &Path) -> Vec<u8> {
    let out = out_dir.join(format!("{program}.bin"));
    let (source_path, out_path) = (source.to_string_lossy(), out.to_string_lossy());
    let args: Vec<&str> = args
        .iter()
        .map(|&a| match a {
            SOURCE => &*source_path,
            OUT => &*out_path,
            a => a,
        })
        .collect();
    run(program, &args, source.parent().expect("source directory"));
    std::fs::read(&out).unwrap_or_else(|e| panic!("{program} output: {e}"))
}

fn pasmo(source: &Path, out_dir: &Path) -> Vec<u8> {
    reference("pasmo", &["--bin", SOURCE, OUT], source, out_dir)
}

fn z80asm(source: &Path, out_dir: &Path) -> Vec<u8> {
    reference("z80asm", &["-o", OUT, SOURCE], source, out_dir)
}

/// ca65 assembles to an object file; ld65 with a flat 64K memory writes the bytes in order.
fn ca65(source: &Path, out_dir: &Path) -> Vec<u8> {
    ca65_for(Cpu::Mos6502, source, out_dir)
}

/// [`ca65`] for the NMOS 6502 (`--cpu 6502`) or the 65C02 (`--cpu 65c02`).
fn ca65_for(cpu: Cpu, source: &Path, out_dir: &Path) -> Vec<u8> {
    let object = out_dir.join("ca65.o");
    let config = out_dir.join("flat.cfg");
    let out = out_dir.join("ca65.bin");
    std::fs::write(
        &config,
        "MEMORY { RAM: start = $0000, size = $10000, file = %O, fill = no; }\nSEGMENTS { CODE: load = RAM, type = rw; }\n",
    )
    .expect("write ld65 config");
    let cwd = source.parent().expect("source directory");
    run(
        "ca65",
        &[
            "--cpu",
            cpu.name(),
            "-o",
            &object.to_string_lossy(),
            &source.to_string_lossy(),
        ],
        cwd,
    );
    run(
        "ld65",
        &[
            "-C",
            &config.to_string_lossy(),
            "-o",
            &out.to_string_lossy(),
            &object.to_string_lossy(),
        ],
        cwd,
    );
    std::fs::read(out).expect("ld65 output")
}

/// acme (`--cpu w65c02`, plain binary output) on a source that sets its own origin.
fn acme_w65c02(source: &Path, out_dir: &Path) -> Vec<u8> {
    let args = ["--cpu", "w65c02", "-f", "plain", "-o", OUT, SOURCE];
    reference("acme", &args, source, out_dir)
}

fn kempelen(cpu: Cpu, source: &Path) -> Vec<u8> {
    let out = assemble(&source.to_string_lossy(), &FsSource, &Options::new(cpu));
    assert!(
        out.is_ok(),
        "Kempelen rejects {}:\n{}",
        source.display(),
        out.report()
    );
    out.image.bytes
}

/// Where two binaries first differ, for the failure message.
fn first_difference(a: &[u8], b: &[u8]) -> String {
    match a.iter().zip(b).position(|(x, y)| x != y) {
        Some(i) => format!(
            "first difference at offset {i} (${i:04X}): {:02X} vs {:02X}",
            a[i], b[i]
        ),
        None => format!("lengths {} and {}", a.len(), b.len()),
    }
}

fn assert_same(what: &str, ours: &[u8], theirs: &[u8], reference: &str) {
    assert!(
        ours == theirs,
        "{what}: Kempelen and {reference} differ: {}",
        first_difference(ours, theirs)
    );
}

/// A source with every row of `cpu`'s table, twice (ordinary operands, then operands at their
/// limits), written in Kempelen's disassembly syntax; and the bytes it must produce.
fn every_form_source(cpu: Cpu, org: u16, header: &str) -> (String, Vec<u8>) {
    const EDGE: Values = Values {
        byte: 0xFF,
        word: 0x00FF,
        disp: -128,
        rel: -128,
    };
    let mut source = format!(
        "; Every documented {cpu} instruction form, generated from Kempelen's table.\n{header}\n"
    );
    let mut bytes = Vec::new();
    let mut addr = org;
    for values in [SAMPLE, EDGE] {
        for row in instructions(cpu) {
            let encoded = encode(row, values);
            let d = decode(cpu, &encoded, addr).expect("a table row decodes");
            source.push_str(&format!("        {}\n", d.text()));
            addr += encoded.len() as u16;
            bytes.extend(encoded);
        }
    }
    (source, bytes)
}

/// Writes [`every_form_source`] for `cpu` at $8000 (`org`: the origin line) to `file` in a
/// scratch folder `name` and assembles it with Kempelen, checked against the table's bytes:
/// the folder, the source's path and Kempelen's bytes.
fn every_form(cpu: Cpu, name: &str, file: &str, org: &str) -> (PathBuf, PathBuf, Vec<u8>) {
    let dir = scratch(name);
    let (source, expected) = every_form_source(cpu, 0x8000, org);
    let path = dir.join(file);
    std::fs::write(&path, source).expect("write source");
    let ours = kempelen(cpu, &path);
    let what = format!("every {} form (table bytes)", cpu.name().to_uppercase());
    assert_same(&what, &ours, &expected, "the table encoding");
    (dir, path, ours)
}

#[test]
fn every_z80_instruction_form_matches_pasmo_and_z80asm() {
    let (dir, path, ours) = every_form(
        Cpu::Z80,
        "z80-every-form",
        "every_form.asm",
        "        org $8000",
    );
    assert_same("every Z80 form", &ours, &pasmo(&path, &dir), "pasmo");
    assert_same("every Z80 form", &ours, &z80asm(&path, &dir), "z80asm");
}

#[test]
fn every_6502_instruction_form_matches_ca65() {
    let org = "        .org $8000";
    let (dir, path, ours) = every_form(Cpu::Mos6502, "6502-every-form", "every_form.s", org);
    assert_same("every 6502 form", &ours, &ca65(&path, &dir), "ca65");
}

#[test]
fn every_65c02_instruction_form_matches_ca65() {
    let org = "        .org $8000";
    let (dir, path, ours) = every_form(Cpu::Cmos65c02, "65c02-every-form", "every_form.s", org);
    assert_same(
        "every 65C02 form",
        &ours,
        &ca65_for(Cpu::Cmos65c02, &path, &dir),
        "ca65 --cpu 65c02",
    );
}

/// The rows the W65C02S adds to the common CMOS set: `RMBn`, `SMBn`, `BBRn`, `BBSn`, `WAI`,
/// `STP`.
fn is_w65c02s_extension(row: &kempelen_asm::Instr) -> bool {
    ["RMB", "SMB", "BBR", "BBS", "WAI", "STP"]
        .iter()
        .any(|m| row.mnemonic.starts_with(m))
}

#[test]
fn w65c02s_extension_forms_match_ca65_and_acme() {
    let dir = scratch("w65c02s-extensions");
    let mut source = String::new();
    let mut expected = Vec::new();
    let mut addr = 0x8000u16;
    // Forward and backward branches, the zero page's ends.
    let edge = Values {
        byte: 0xFF,
        word: 0,
        disp: 0,
        rel: -128,
    };
    let low = Values {
        byte: 0x00,
        rel: 0x7F,
        ..edge
    };
    let mut rows = 0;
    for values in [SAMPLE, edge, low] {
        for row in instructions(Cpu::Cmos65c02)
            .iter()
            .filter(|r| is_w65c02s_extension(r))
        {
            let encoded = encode(row, values);
            let d = decode(Cpu::Cmos65c02, &encoded, addr).expect("a table row decodes");
            source.push_str(&format!("        {}\n", d.text()));
            addr += encoded.len() as u16;
            expected.extend(encoded);
            rows += 1;
        }
    }
    assert_eq!(
        rows,
        3 * 34,
        "32 bit instructions, WAI and STP, three times"
    );
    // The same lines under each reference's origin directive (ca65 `.org`, acme `* =`).
    let comment = "; The W65C02S's bit instructions, WAI and STP, generated from Kempelen's table.";
    let path = dir.join("w65c02s.s");
    std::fs::write(&path, format!("{comment}\n        .org $8000\n{source}"))
        .expect("write source");
    let acme_path = dir.join("w65c02s.a");
    std::fs::write(
        &acme_path,
        format!("{comment}\n        * = $8000\n{source}"),
    )
    .expect("write source");
    let ours = kempelen(Cpu::Cmos65c02, &path);
    assert_same(
        "W65C02S forms with '* ='",
        &kempelen(Cpu::Cmos65c02, &acme_path),
        &ours,
        "Kempelen with '.org'",
    );
    assert_same(
        "W65C02S forms (table bytes)",
        &ours,
        &expected,
        "the table encoding",
    );
    assert_same(
        "W65C02S forms",
        &ours,
        &ca65_for(Cpu::Cmos65c02, &path, &dir),
        "ca65 --cpu 65c02",
    );
    assert_same(
        "W65C02S forms",
        &ours,
        &acme_w65c02(&acme_path, &dir),
        "acme --cpu w65c02",
    );
}

/// One source of `roms-src/`: Kempelen against pasmo and z80asm, or against ca65.
fn roms_src_file(cpu: Cpu, path: &str) {
    let path = Path::new(path);
    let name = path
        .file_stem()
        .expect("file name")
        .to_string_lossy()
        .into_owned();
    let dir = scratch(&format!("roms-src-{cpu}-{name}"));
    let ours = kempelen(cpu, path);
    let what = path.display().to_string();
    match cpu {
        Cpu::Z80 => {
            assert_same(&what, &ours, &pasmo(path, &dir), "pasmo");
            assert_same(&what, &ours, &z80asm(path, &dir), "z80asm");
        }
        Cpu::Mos6502 | Cpu::Cmos65c02 => {
            assert_same(&what, &ours, &ca65_for(cpu, path, &dir), "ca65")
        }
    }
}

/// The `roms-src` harness itself, on test sources that both references accept (so it is
/// exercised even before `roms-src/` has sources of a CPU).
#[test]
fn roms_src_harness_on_sample_sources() {
    let cases = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    roms_src_file(
        Cpu::Z80,
        &cases.join("z80_conditions.asm").to_string_lossy(),
    );
    roms_src_file(Cpu::Z80, &cases.join("z80_include.asm").to_string_lossy());
    roms_src_file(
        Cpu::Mos6502,
        &cases.join("6502_local_labels.asm").to_string_lossy(),
    );
}

include!(concat!(env!("OUT_DIR"), "/roms_src.rs"));
