//! Generates one `#[test]` per test source, so that a failure names its file:
//! - `tests/cases/*.asm`: sources with the expected bytes or errors written inline;
//! - `roms-src/z80/*.asm` and `roms-src/6502/*.asm`: the bundled 8-bit sources, assembled by
//!   Kempelen and by a reference assembler in `tests/differential.rs` (`*.inc` files are only
//!   included, not assembled on their own).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::{env, fs};

fn test_name(prefix: &str, path: &Path) -> String {
    let stem = path.file_stem().expect("file name").to_string_lossy();
    let clean: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    format!("{prefix}_{clean}")
}

fn asm_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = match fs::read_dir(dir) {
        Ok(entries) => entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "asm"))
            .collect(),
        Err(_) => Vec::new(),
    };
    files.sort();
    files
}

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets it"));

    let cases = manifest.join("tests/cases");
    println!("cargo::rerun-if-changed={}", cases.display());
    let mut code = String::new();
    for file in asm_files(&cases) {
        let _ = writeln!(
            code,
            "#[test]\nfn {}() {{\n    run_case({:?});\n}}",
            test_name("case", &file),
            file.display().to_string()
        );
    }
    fs::write(out.join("cases.rs"), code).expect("write cases.rs");

    let roms = manifest.join("../../roms-src");
    println!("cargo::rerun-if-changed={}", roms.display());
    let mut code = String::new();
    for (dir, cpu) in [("z80", "Z80"), ("6502", "Mos6502")] {
        for file in asm_files(&roms.join(dir)) {
            let name = test_name(&format!("roms_src_{dir}"), &file);
            let _ = writeln!(
                code,
                "#[test]\nfn {name}() {{\n    roms_src_file(Cpu::{cpu}, {:?});\n}}",
                file.display().to_string()
            );
        }
    }
    fs::write(out.join("roms_src.rs"), code).expect("write roms_src.rs");
}
