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

/// The `id "..."` of an EPD line, or "".
fn epd_id(line: &str) -> &str {
    line.split("id \"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .unwrap_or("")
}

/// Writes `OUT_DIR/name` with one line of code per EPD line of `path` (blank lines and `#`
/// comments skipped): `test(line number, id)`.
fn per_line(path: &Path, name: &str, test: impl Fn(usize, &str) -> String) {
    println!("cargo:rerun-if-changed={}", path.display());
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut code = String::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        writeln!(code, "{}", test(i + 1, epd_id(t))).unwrap();
    }
    let out = std::env::var("OUT_DIR").unwrap();
    std::fs::write(Path::new(&out).join(name), code).unwrap();
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf();

    per_line(
        &root.join("tests/data/suite.epd"),
        "suite_tests.rs",
        |n, id| {
            format!(
                "#[test] fn suite_{n:03}_{}() {{ compare_suite_line({n}); }}",
                slug(id)
            )
        },
    );
    per_line(
        &root.join("engine/tests/data/perft_suite.epd"),
        "perft_suite_tests.rs",
        |n, _| format!("#[test] fn perft_suite_line_{n:03}() {{ perft_suite_line({n}); }}"),
    );
    // The differential test's case files: one test per line, named by its `id`.
    for (file, prefix) in [
        ("roms-src/tests/data/edge_cases.epd", "edge"),
        ("roms-src/tests/data/regressions.epd", "regression"),
    ] {
        per_line(&root.join(file), &format!("{prefix}_tests.rs"), |n, id| {
            let name: String = slug(id).chars().take(60).collect();
            format!(
                "#[test] fn {prefix}_{n:03}_{}() {{ {prefix}_line({n}); }}",
                name.trim_end_matches('_')
            )
        });
    }
}
