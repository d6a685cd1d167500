//! What the end-to-end tests share: running the `kempelen` binary as a user does.

#![allow(dead_code)] // each test binary uses its own part

use std::process::Command;

/// Runs `kempelen args`: whether it succeeded, its standard output and its standard error.
pub fn kempelen(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kempelen"))
        .args(args)
        .output()
        .expect("run kempelen");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `kempelen args` (with `--json` among them), which must succeed, and parses its output.
pub fn json(args: &[&str]) -> serde_json::Value {
    let (ok, stdout, stderr) = kempelen(args);
    assert!(ok, "{args:?}: {stderr}");
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{args:?}: {e}: {stdout}"))
}

/// Whether python3 with python-chess is there (the UCI session tests skip without it).
pub fn python_chess_available() -> bool {
    Command::new("python3")
        .args(["-c", "import chess.engine"])
        .output()
        .is_ok_and(|o| o.status.success())
}
