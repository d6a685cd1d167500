//! Shared helpers of the emulator's integration tests.
//!
//! Third-party test ROMs (ZEXDOC/ZEXALL, Klaus Dormann's 6502 functional test) are GPL and are
//! never committed: they are read at test time from the crates that ship them, which are
//! dev-dependencies so cargo downloads them, located through `cargo metadata`.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// The `cargo metadata` package list, fetched once per test binary.
fn metadata() -> &'static serde_json::Value {
    static META: OnceLock<serde_json::Value> = OnceLock::new();
    META.get_or_init(|| {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
        let out = Command::new(cargo)
            .args(["metadata", "--format-version", "1"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("run cargo metadata");
        assert!(
            out.status.success(),
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON")
    })
}

/// The source directory of the dependency `name` at `version_prefix` (for example `1.`).
pub fn crate_dir(name: &str, version_prefix: &str) -> PathBuf {
    let packages = metadata()["packages"].as_array().expect("packages");
    let pkg = packages
        .iter()
        .find(|p| {
            p["name"] == name
                && p["version"]
                    .as_str()
                    .is_some_and(|v| v.starts_with(version_prefix))
        })
        .unwrap_or_else(|| panic!("crate {name} {version_prefix}x is not a dependency"));
    let manifest = PathBuf::from(pkg["manifest_path"].as_str().expect("manifest_path"));
    manifest.parent().expect("crate directory").to_path_buf()
}

/// The bytes of `path` inside the crate `name`.
pub fn crate_file(name: &str, version_prefix: &str, path: &str) -> Vec<u8> {
    let file = crate_dir(name, version_prefix).join(path);
    std::fs::read(&file).unwrap_or_else(|e| panic!("read {}: {e}", file.display()))
}
