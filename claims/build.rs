//! Bundles the documents the library reads, the lessons' Markdown (`docs/SEARCH.md` and
//! `docs/history/*.md`) and the history's data (`docs/history/figures.toml`,
//! `docs/history/program-speed.json`), deflated into `OUT_DIR/docs.deflate`, with their paths
//! and lengths in `OUT_DIR/docs.rs` (`src/lib.rs` inflates them once, on first use;
//! `kempelen-bundle`).

use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    // Named by their paths in the repository.
    let within = |folder: &str, keep: &dyn Fn(&str) -> bool| {
        kempelen_bundle::read_folder(&root.join(folder), keep)
            .into_iter()
            .map(move |(name, text)| (format!("{folder}/{name}"), text))
            .collect::<Vec<_>>()
    };
    let mut files = within("docs", &|n| n == "SEARCH.md");
    files.extend(within("docs/history", &|n| {
        n.ends_with(".md") || n == "figures.toml" || n == "program-speed.json"
    }));
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).to_path_buf();
    let sizes = kempelen_bundle::pack(&out.join("docs.deflate"), &files).unwrap();
    std::fs::write(
        out.join("docs.rs"),
        format!("/// The bundled documents' paths and lengths.\nconst DOC_FILES: &[(&str, usize)] = &{sizes:?};\n"),
    )
    .unwrap();
}
