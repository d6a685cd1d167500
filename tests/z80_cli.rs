//! End-to-end tests of the issue-5 subcommands as a user runs them.

use std::process::Command;

fn kempelen(args: &[&str]) -> (bool, String, String) {
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

#[test]
fn gen_tables_check_passes_on_the_checked_in_file() {
    let (ok, stdout, stderr) = kempelen(&["gen-tables", "--check"]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("up to date"), "{stdout}");
}

#[test]
fn gen_tables_writes_the_same_file_and_check_catches_a_stale_one() {
    let dir = std::env::temp_dir().join(format!("kempelen-gen-tables-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("tables.inc");
    let out_s = out.to_str().unwrap();
    let (ok, _, stderr) = kempelen(&["gen-tables", "--out", out_s]);
    assert!(ok, "{stderr}");
    let written = std::fs::read_to_string(&out).unwrap();
    let checked_in = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("roms-src/z80/tables.inc"),
    )
    .unwrap();
    assert_eq!(written, checked_in);
    std::fs::write(&out, written.replace("defb $", "defb $0")).unwrap();
    let (ok, _, stderr) = kempelen(&["gen-tables", "--check", "--out", out_s]);
    assert!(!ok && stderr.contains("stale"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
