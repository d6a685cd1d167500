//! The page in a real browser (Debian's headless Chromium, no network): the web crate's own
//! tests through wasm-bindgen-test, and the end-to-end flows of tests/web_flows.py through
//! WebDriver, compared with what the command line answers on the same input. Both build the
//! page for wasm32 in release (a few minutes cold, shared with `tools/web.sh build`); a test
//! whose tool is missing prints `SKIPPED: <reason>` and passes (tools/test.sh installs them).
//!
//! The flows save a screenshot each in `target/web-shots/` (`KEMPELEN_WEB_SHOTS=docs/web`
//! writes the ones the README and docs/WEB.md show).

use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

fn on_path(tool: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(tool).is_file()))
}

/// Why the browser tests cannot run here, if they cannot.
fn missing_tools(python: bool) -> Option<String> {
    for (path, package) in [(CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")] {
        if !Path::new(path).exists() {
            return Some(format!(
                "{path} is not installed (apt-get install {package})"
            ));
        }
    }
    let targets = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output();
    let has_wasm = targets.is_ok_and(|o| {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .any(|l| l == "wasm32-unknown-unknown")
    });
    if !has_wasm {
        return Some(
            "the wasm32-unknown-unknown target is not installed (rustup target add wasm32-unknown-unknown)"
                .into(),
        );
    }
    if !on_path("wasm-bindgen") || !on_path("wasm-bindgen-test-runner") {
        return Some("wasm-bindgen-cli is not installed (tools/web.sh tools)".into());
    }
    if python {
        let selenium = Command::new("python3")
            .args(["-c", "import selenium"])
            .output();
        if !selenium.is_ok_and(|o| o.status.success()) {
            return Some("python3 with selenium is not installed (pip install selenium)".into());
        }
    }
    None
}

fn skip_without_tools(python: bool) -> bool {
    match missing_tools(python) {
        Some(reason) => {
            eprintln!("SKIPPED: {reason}");
            true
        }
        None => false,
    }
}

/// The web crate's wasm-bindgen tests, in Chromium (a dedicated worker, as the page runs).
#[test]
fn wasm_tests_in_chromium() {
    if skip_without_tools(false) {
        return;
    }
    let out = Command::new(env!("CARGO"))
        .args([
            "test",
            "-p",
            "kempelen-web",
            "--target",
            "wasm32-unknown-unknown",
            "--release",
        ])
        .current_dir(Path::new(ROOT).join("web"))
        .env("CHROMEDRIVER", CHROMEDRIVER)
        .env(
            "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER",
            "wasm-bindgen-test-runner",
        )
        .output()
        .expect("cargo runs");
    let text = String::from_utf8_lossy(&out.stdout);
    eprintln!("{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "the wasm tests failed in Chromium");
    assert!(
        text.contains("test result: ok. 5 passed"),
        "the browser ran fewer tests than web/tests/browser.rs has"
    );
}

/// Runs the kempelen binary; its standard output parsed as JSON.
fn kempelen_json(args: &[&str]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_kempelen"))
        .args(args)
        .output()
        .expect("kempelen runs");
    assert!(
        out.status.success(),
        "kempelen {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("kempelen --json prints JSON")
}

/// What the command line answers on the flows' inputs.
fn expectations() -> serde_json::Value {
    let z80 = kempelen_json(&[
        "search",
        "--cpu",
        "z80",
        "--machine",
        "trs-80",
        "--depth",
        "3",
        "--moves",
        "e2e4",
        "--json",
    ]);
    serde_json::json!({
        "z80_reply": {
            "machine": "trs-80",
            "depth": 3,
            "best": z80["best"],
            "nodes": z80["nodes"],
            "cycles": z80["cycles"],
        },
    })
}

fn build_page(out: &Path) {
    let status = Command::new(Path::new(ROOT).join("tools/web.sh"))
        .arg("build")
        .env("KEMPELEN_WEB_OUT", out)
        .status()
        .expect("tools/web.sh runs");
    assert!(status.success(), "tools/web.sh build failed");
}

/// The end-to-end flows (tests/web_flows.py): load, play against the Z80 build, links, bad
/// input, a whole game against the 6502 build on the KIM-1, no request outside the page.
#[test]
fn page_flows_in_chromium() {
    if skip_without_tools(true) {
        return;
    }
    let root = PathBuf::from(ROOT);
    let page = root.join("target/web-test");
    build_page(&page);
    let expect = root.join("target/web-test-expect.json");
    std::fs::write(&expect, expectations().to_string()).expect("writes the expectations");
    let shots = std::env::var_os("KEMPELEN_WEB_SHOTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target/web-shots"));
    let out = Command::new("python3")
        .arg(root.join("tests/web_flows.py"))
        .arg("--page")
        .arg(&page)
        .arg("--expect")
        .arg(&expect)
        .arg("--shots")
        .arg(&shots)
        .output()
        .expect("python3 runs");
    eprintln!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "a flow failed in Chromium (above)");
}
