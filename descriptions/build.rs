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
        let files = kempelen_bundle::read_folder(&emulator.join(folder), |n| n.ends_with(".toml"));
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
