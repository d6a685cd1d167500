//! Bundles the lessons' Markdown (`docs/SEARCH.md` and `docs/history/*.md`) deflated into
//! `OUT_DIR/lessons.deflate`, with their paths and lengths in `OUT_DIR/lessons.rs`
//! (`src/lessons.rs` inflates them once, on first use; `kempelen-bundle`).

use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut paths = vec!["docs/SEARCH.md".to_string()];
    let mut history: Vec<String> = std::fs::read_dir(root.join("docs/history"))
        .expect("docs/history/ is there")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md"))
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
    let sizes = kempelen_bundle::pack(&out.join("lessons.deflate"), &files).unwrap();
    std::fs::write(
        out.join("lessons.rs"),
        format!("/// The bundled lessons' paths and lengths.\nconst LESSON_FILES: &[(&str, usize)] = &{sizes:?};\n"),
    )
    .unwrap();
}
