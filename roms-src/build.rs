//! Generates one `#[test]` per position of the bundled suite (`tests/data/suite.epd` at the
//! workspace root), of the engine's perft suite and of the differential test's case files
//! (`roms-src/tests/data/*.epd`), so a failure names its position.

use std::fmt::Write as _;
use std::path::Path;

fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    out.trim_matches('_').to_string()
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf();
    let out = std::env::var("OUT_DIR").unwrap();

    let suite = root.join("tests/data/suite.epd");
    println!("cargo:rerun-if-changed={}", suite.display());
    let text = std::fs::read_to_string(&suite).unwrap_or_default();
    let mut code = String::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let id = t
            .split("id \"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .unwrap_or("");
        writeln!(
            code,
            "#[test] fn suite_{:03}_{}() {{ compare_suite_line({}); }}",
            i + 1,
            slug(id),
            i + 1
        )
        .unwrap();
    }
    std::fs::write(Path::new(&out).join("suite_tests.rs"), code).unwrap();

    let perft = root.join("engine/tests/data/perft_suite.epd");
    println!("cargo:rerun-if-changed={}", perft.display());
    let text = std::fs::read_to_string(&perft).unwrap_or_default();
    let mut code = String::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        writeln!(
            code,
            "#[test] fn perft_suite_line_{:03}() {{ perft_suite_line({}); }}",
            i + 1,
            i + 1
        )
        .unwrap();
    }
    std::fs::write(Path::new(&out).join("perft_suite_tests.rs"), code).unwrap();

    // The differential test's case files: one test per line, named by its `id`.
    for (file, prefix) in [
        ("roms-src/tests/data/edge_cases.epd", "edge"),
        ("roms-src/tests/data/regressions.epd", "regression"),
    ] {
        let path = root.join(file);
        println!("cargo:rerun-if-changed={}", path.display());
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let mut code = String::new();
        for (i, line) in text.lines().enumerate() {
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            let id = t
                .split("id \"")
                .nth(1)
                .and_then(|r| r.split('"').next())
                .unwrap_or("");
            let name: String = slug(id).chars().take(60).collect();
            writeln!(
                code,
                "#[test] fn {prefix}_{:03}_{}() {{ {prefix}_line({}); }}",
                i + 1,
                name.trim_end_matches('_'),
                i + 1
            )
            .unwrap();
        }
        std::fs::write(Path::new(&out).join(format!("{prefix}_tests.rs")), code).unwrap();
    }
}
