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

#[test]
fn compare_agrees_on_the_bundled_suite_at_depth_2() {
    let (ok, stdout, stderr) = kempelen(&["compare", "--cpu", "z80", "--depth", "2", "--json"]);
    assert!(ok, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let positions = v["positions"].as_u64().unwrap();
    assert!(positions >= 60, "{positions} positions");
    assert_eq!(v["agree"], positions);
    assert_eq!(v["machine"], "zx-spectrum");
    assert!(v["results"][0]["z80"]["cycles"].as_u64().unwrap() > 0);
}

#[test]
fn compare_reads_a_given_suite_and_reports_bad_lines_with_their_place() {
    let dir = std::env::temp_dir().join(format!("kempelen-compare-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.epd");
    std::fs::write(
        &good,
        "8/8/8/4k3/8/8/3QK3/8 w - - hmvc 99; id \"fifty\";\n\
         7k/8/8/8/8/1Q6/8/K7 w - -; moves \"b3b2 h8g8 b2b3 g8h8\"; id \"repeat\";\n",
    )
    .unwrap();
    let (ok, stdout, stderr) = kempelen(&[
        "compare",
        "--suite",
        good.to_str().unwrap(),
        "--depth",
        "3",
        "--machine",
        "trs-80",
    ]);
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("2/2 positions agree at depth 3"),
        "{stdout}"
    );
    assert!(stdout.contains("1.774 MHz (trs-80)"), "{stdout}");
    let bad = dir.join("bad.epd");
    std::fs::write(&bad, "# header\n8/8/8 w\n").unwrap();
    let (ok, _, stderr) = kempelen(&["compare", "--suite", bad.to_str().unwrap()]);
    assert!(!ok && stderr.contains("bad.epd:2:1"), "{stderr}");
    let (ok, _, stderr) = kempelen(&["compare", "--cpu", "6502"]);
    assert!(!ok && stderr.contains("only the Z80"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
