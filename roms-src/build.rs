//! Bundles the sources of every port folder (`roms-src/<port>/`, the folders holding an
//! `engine.asm`) into `OUT_DIR/port_sources.rs` and of every target machine
//! (`roms-src/targets/<id>/`) into `OUT_DIR/target_files.rs`, so a new port or target adds no
//! Rust list of files, and
//! generates one test per port (`kempelen_roms::port_tests!`) for each position of the bundled suite (`tests/data/suite.epd` at the
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

/// The folders of `dir` that hold a file `marker`, sorted (none when `dir` is absent).
fn folders_holding(dir: &Path, marker: &str) -> Vec<String> {
    let mut folders: Vec<String> = std::fs::read_dir(dir)
        .map(|r| {
            r.filter_map(|e| e.ok())
                .filter(|e| e.path().join(marker).is_file())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    folders.sort();
    folders
}

/// One arm of a generated `match`: `"folder" => ...` giving `&[(name, text), ...]` with the
/// files of `dir/folder` whose names `keep` takes, sorted by name. The texts are stored deflated
/// (`OUT_DIR/<bundle>-<folder>.deflate`, one after the other) and inflated once on first use
/// (`kempelen_bundle::unpack`); a port's generated `tables.inc` is put back among them.
fn bundled_arm(
    code: &mut String,
    dir: &Path,
    bundle: &str,
    folder: &str,
    keep: impl Fn(&str) -> bool,
) {
    // A port's files get its generated ones back (`port::with_generated`).
    let (wrap, close) = if bundle == "port" {
        (format!("super::with_generated({folder:?}, "), ")")
    } else {
        (String::new(), "")
    };
    let texts = kempelen_bundle::read_folder(&dir.join(folder), keep);
    let packed =
        Path::new(&std::env::var("OUT_DIR").unwrap()).join(format!("{bundle}-{folder}.deflate"));
    let sizes = kempelen_bundle::pack(&packed, &texts).unwrap();
    writeln!(
        code,
        "        {folder:?} => {{\n            \
         static FILES: std::sync::OnceLock<Vec<(&str, &str)>> = std::sync::OnceLock::new();\n            \
         FILES.get_or_init(|| {wrap}kempelen_bundle::unpack(include_bytes!({:?}), &{sizes:?}){close})\n        }}",
        packed.display().to_string()
    )
    .unwrap();
}

/// A module of tests per `(module, function, attribute)`, in each a test per target id (named
/// by its slug) whose body is `call(function, id)`; `attribute` stands before each test.
fn test_modules(
    ids: &[String],
    modules: &[(&str, &str, &str)],
    call: impl Fn(&str, &str) -> String,
) -> String {
    let mut tests = String::new();
    for (module, f, attribute) in modules {
        writeln!(tests, "mod {module} {{").unwrap();
        for id in ids {
            writeln!(
                tests,
                "    #[test]\n{attribute}    fn {}() {{\n        {};\n    }}",
                slug(id),
                call(f, id)
            )
            .unwrap();
        }
        tests.push_str("}\n");
    }
    tests
}

/// Writes `OUT_DIR/port_sources.rs` for each folder of `roms-src/` that holds an
/// `engine.asm`, each list sorted by name (an absent folder gives an empty one):
/// `fn bundled(folder)`, the engine's `.asm` and `.inc` files; `fn console(folder)`, the console
/// front end's (`console*`), a bundle of its own, so that a program that only runs the engine
/// (the page's wasm) carries no front end; `fn all(folder)`, both.
fn port_sources(dir: &Path) {
    // A changed or new file in any folder (a new port's first file included) reruns this.
    println!("cargo:rerun-if-changed={}", dir.display());
    let folders = folders_holding(dir, "engine.asm");
    let source = |n: &str| n.ends_with(".asm") || n.ends_with(".inc");
    let mut code = String::from(
        "/// The bundled engine `.asm`/`.inc` files of the port folder `folder` (empty when absent).\n\
         pub fn bundled(folder: &str) -> &'static [(&'static str, &'static str)] {\n    match folder {\n",
    );
    for folder in &folders {
        // The generated tables (random Zobrist keys as hex: 14 KB deflated for both ports)
        // are written again on first use by the port's generator (`port::with_generated`).
        bundled_arm(&mut code, dir, "port", folder, |n| {
            source(n) && !n.starts_with("console") && n != "tables.inc"
        });
    }
    code.push_str("        _ => &[],\n    }\n}\n");
    code.push_str(
        "/// The bundled console front end files (`console*`) of the port folder `folder`.\n\
         pub fn console(folder: &str) -> &'static [(&'static str, &'static str)] {\n    match folder {\n",
    );
    for folder in &folders {
        bundled_arm(&mut code, dir, "console", folder, |n| {
            source(n) && n.starts_with("console")
        });
    }
    code.push_str("        _ => &[],\n    }\n}\n");
    code.push_str(
        "/// Every bundled file of the port folder `folder`: the engine's and the front end's.\n\
         pub fn all(folder: &str) -> &'static [(&'static str, &'static str)] {\n    match folder {\n",
    );
    for folder in &folders {
        writeln!(
            code,
            "        {folder:?} => {{\n            \
             static FILES: std::sync::OnceLock<Vec<(&str, &str)>> = std::sync::OnceLock::new();\n            \
             FILES.get_or_init(|| {{\n                \
             let mut files = bundled({folder:?}).to_vec();\n                \
             files.extend_from_slice(console({folder:?}));\n                \
             files.sort_by_key(|(name, _)| *name);\n                \
             files\n            }})\n        }}"
        )
        .unwrap();
    }
    code.push_str("        _ => &[],\n    }\n}\n");
    let out = std::env::var("OUT_DIR").unwrap();
    std::fs::write(Path::new(&out).join("port_sources.rs"), code).unwrap();
}

/// Writes `OUT_DIR/target_files.rs`: `TARGET_IDS` (every folder of `roms-src/targets/` that
/// holds a `target.toml`, sorted) and `fn target_files(id) -> &[(name, text)]` with the
/// folder's `target.toml` and `.inc` files, so a new target adds no Rust list of files.
fn target_files(dir: &Path) {
    println!("cargo:rerun-if-changed={}", dir.display());
    let ids = folders_holding(dir, "target.toml");
    let mut code =
        format!("/// The targets' folders, sorted.\npub const TARGET_IDS: &[&str] = &{ids:?};\n\n");
    code.push_str(
        "/// The bundled files of the target folder `id` (`target.toml` and `.inc`; empty when absent).\n\
         pub fn target_files(id: &str) -> &'static [(&'static str, &'static str)] {\n    match id {\n",
    );
    for id in &ids {
        println!("cargo:rerun-if-changed={}", dir.join(id).display());
        bundled_arm(&mut code, dir, "target", id, |n| {
            n == "target.toml" || n.ends_with(".inc")
        });
    }
    code.push_str("        _ => &[],\n    }\n}\n");
    let out = std::env::var("OUT_DIR").unwrap();
    std::fs::write(Path::new(&out).join("target_files.rs"), code).unwrap();
    // One test per target of each kind: tests/targets.rs (a module per kind and a test per
    // target, `run(id, kind)`) and tests/differential.rs (`at_layout(id)`).
    let tests = test_modules(
        &ids,
        &[
            ("game_to_mate", "plays_a_game_to_mate", ""),
            ("nodes_per_second", "nodes_per_second", ""),
            ("file_reads_back", "the_file_reads_back", ""),
        ],
        |f, id| format!("super::run({id:?}, super::{f})"),
    );
    std::fs::write(Path::new(&out).join("target_tests.rs"), tests).unwrap();
    let diff = test_modules(
        &ids,
        &[
            ("at_target_layouts", "at_layout", ""),
            (
                "at_target_layouts_full",
                "at_layout_full",
                "    #[ignore = \"every case-file line at the layout: about 100 s a target in release mode\"]\n",
            ),
        ],
        |f, id| format!("super::{f}({id:?})"),
    );
    std::fs::write(Path::new(&out).join("target_differential_tests.rs"), diff).unwrap();
}

fn main() {
    // Read when the script runs, not when it was compiled: a target folder copied from another
    // checkout keeps its compiled build script, which would otherwise bundle that checkout's
    // sources (or none, once it is gone).
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let manifest = Path::new(&manifest);
    port_sources(manifest);
    target_files(&manifest.join("targets"));
    let root = manifest.parent().unwrap().to_path_buf();

    per_line(
        &root.join("tests/data/suite.epd"),
        "suite_tests.rs",
        |n, id| {
            format!(
                "kempelen_roms::port_tests!(suite_{n:03}_{}, |port| compare_suite_line(port, {n}));",
                slug(id)
            )
        },
    );
    per_line(
        &root.join("engine/tests/data/perft_suite.epd"),
        "perft_suite_tests.rs",
        |n, _| {
            format!(
                "kempelen_roms::port_tests!(perft_suite_line_{n:03}, |port| perft_suite_line(port, {n}));"
            )
        },
    );
    // The differential test's case files: one test per line, named by its `id`.
    for (file, prefix) in [
        ("roms-src/tests/data/edge_cases.epd", "edge"),
        ("roms-src/tests/data/regressions.epd", "regression"),
    ] {
        per_line(&root.join(file), &format!("{prefix}_tests.rs"), |n, id| {
            let name: String = slug(id).chars().take(60).collect();
            format!(
                "kempelen_roms::port_tests!({prefix}_{n:03}_{}, |port| {prefix}_line(port, {n}));",
                name.trim_end_matches('_')
            )
        });
    }
}
