//! Generates one `#[test]` per line of `tests/data/perft_suite.epd`, so a failing position is
//! named by its line number (see `tests/perft_suite.rs`).

use std::fmt::Write;

fn main() {
    let path = "tests/data/perft_suite.epd";
    println!("cargo::rerun-if-changed={path}");
    let text = std::fs::read_to_string(path).expect("perft suite data file");
    let mut out = String::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let n = i + 1;
        writeln!(
            out,
            "#[test]\nfn perft_suite_line_{n:03}() {{ check_line({n}); }}"
        )
        .unwrap();
    }
    let dest =
        std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("perft_suite_cases.rs");
    std::fs::write(dest, out).unwrap();
}
