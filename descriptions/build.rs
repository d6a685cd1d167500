//! Bundles the machine description files Kempelen carries (`emulator/timing/*.toml`,
//! `emulator/machines/*.toml`) deflated into `OUT_DIR/<folder>.deflate`, with their names and
//! lengths in `OUT_DIR/bundles.rs` (`kempelen-bundle`; inflated once, on first use).

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let emulator = Path::new(env!("CARGO_MANIFEST_DIR")).join("../emulator");
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).to_path_buf();
    let mut code = String::new();
    for (folder, name) in [("timing", "TIMING_FILES"), ("machines", "MACHINE_FILES")] {
        let dir = emulator.join(folder);
        println!("cargo:rerun-if-changed={}", dir.display());
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".toml"))
            .collect();
        names.sort();
        let files: Vec<(String, String)> = names
            .into_iter()
            .map(|n| {
                let path = dir.join(&n);
                println!("cargo:rerun-if-changed={}", path.display());
                let text = std::fs::read_to_string(&path)
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                (n, text)
            })
            .collect();
        let sizes = kempelen_bundle::pack(&out.join(format!("{folder}.deflate")), &files).unwrap();
        writeln!(
            code,
            "/// The bundled files of `emulator/{folder}/`: names and lengths.\n\
             const {name}: &[(&str, usize)] = &{sizes:?};"
        )
        .unwrap();
    }
    std::fs::write(out.join("bundles.rs"), code).unwrap();
}
