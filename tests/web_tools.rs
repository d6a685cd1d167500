//! `tools/web.sh tools`, the install of the page's build tools, run against stand-ins for
//! rustup, cargo and wasm-bindgen (shell scripts on PATH): when the wasm-bindgen CLI's own lock
//! file names versions the registry lacks and the install without it works, nothing it prints
//! is an error; when both fail, both errors are shown and the script fails.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A shell script named `name` in `dir`.
fn script(dir: &Path, name: &str, body: &str) {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// `tools/web.sh tools` with the stand-ins of `dir` first on PATH: success, standard error.
fn web_tools(dir: &Path, fallback_works: bool) -> (bool, String) {
    script(dir, "rustup", "echo wasm32-unknown-unknown");
    script(dir, "wasm-bindgen", "exit 127");
    let without_lock = if fallback_works {
        "echo '  Installed package `wasm-bindgen-cli`' >&2; exit 0"
    } else {
        "echo 'error: could not compile `wasm-bindgen-cli` (the registry)' >&2; exit 101"
    };
    script(
        dir,
        "cargo",
        &format!(
            "case \"$*\" in\n  *--locked*) echo 'error: failed to select a version for the requirement `webpki-roots = \"^1.0.10\"` (locked to 1.0.11)' >&2; exit 101 ;;\n  *) {without_lock} ;;\nesac"
        ),
    );
    let path = format!("{}:/usr/bin:/bin", dir.display());
    let out = Command::new("bash")
        .arg(Path::new(ROOT).join("tools/web.sh"))
        .arg("tools")
        .env("PATH", path)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_fallback_install_that_works_prints_no_error() {
    let dir = common::scratch("web-tools-ok");
    let (ok, err) = web_tools(&dir, true);
    assert!(ok, "{err}");
    assert!(
        !err.contains("error"),
        "an error printed although the install worked:\n{err}"
    );
    assert!(err.contains("installing wasm-bindgen-cli"), "{err}");
    assert!(
        err.contains("building it with the registry's versions"),
        "{err}"
    );
}

#[test]
fn a_fallback_install_that_fails_shows_both_errors() {
    let dir = common::scratch("web-tools-fail");
    let (ok, err) = web_tools(&dir, false);
    assert!(!ok, "the script succeeded: {err}");
    assert!(err.contains("could not compile"), "{err}");
    assert!(err.contains("failed to select a version"), "{err}");
}
