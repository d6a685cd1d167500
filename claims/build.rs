//! Bundles the documents the library reads, the lessons' Markdown (`docs/SEARCH.md` and
//! `docs/history/*.md`) and the history's data (`docs/history/figures.toml`,
//! `docs/history/program-speed.json`), deflated into `OUT_DIR/docs.deflate`, with their paths
//! and lengths in `OUT_DIR/docs.rs` (`src/lib.rs` inflates them once, on first use;
//! `kempelen-bundle`).

use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut paths = vec!["docs/SEARCH.md".to_string()];
    let mut history: Vec<String> = std::fs::read_dir(root.join("docs/history"))
        .expect("docs/history/ is there")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md") || n == "figures.toml" || n == "program-speed.json")
        .map(|n| format!("docs/history/{n}"))
        .collect();
    history.sort();
    paths.extend(history);
    println!(
        "cargo:rerun-if-changed={}",
        root.join("docs/history").display()
    );
    let files: Vec<(String, String)> = paths
        .into_iter()
        .map(|p| {
            let path = root.join(&p);
            println!("cargo:rerun-if-changed={}", path.display());
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (p, text)
        })
        .collect();
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).to_path_buf();
    let sizes = kempelen_bundle::pack(&out.join("docs.deflate"), &files).unwrap();
    std::fs::write(
        out.join("docs.rs"),
        format!("/// The bundled documents' paths and lengths.\nconst DOC_FILES: &[(&str, usize)] = &{sizes:?};\n"),
    )
    .unwrap();
}
