//! End-to-end tests of `kempelen build --target T -o FILE`: every target's program file is
//! written, then loaded by `kempelen run FILE --machine T` and answers a move with the native
//! reference search's reply; bad targets and outputs give clear errors and leave no file.

mod common;

use std::path::PathBuf;

use common::kempelen;
use kempelen_engine::Game;
use kempelen_engine::reference::{self, ReferenceLimits};

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kempelen-build-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The native reference's reply to 1. e4 at depth 2, as the console prints it.
fn reply_at_depth_2() -> String {
    let mut game = Game::default();
    game.push_uci("e2e4").unwrap();
    let r = reference::search_game(&game, ReferenceLimits::depth(2));
    format!(
        "kempelen plays {} (depth 2, score {}, {} nodes)",
        r.best.unwrap().to_uci(),
        r.score,
        r.nodes
    )
}

#[test]
fn every_target_builds_and_runs_under_its_machine() {
    let dir = scratch("all");
    let want = reply_at_depth_2();
    for t in kempelen_roms::target::Target::all() {
        if t.port.require().is_err() {
            eprintln!("skipped for {}: its CPU port is not in the tree", t.id);
            continue;
        }
        let file = dir.join(t.file.replace('/', "."));
        let f = file.to_str().unwrap();
        let (ok, out, err) = kempelen(&["build", "--target", t.id, "-o", f]);
        assert!(ok, "{}: {err}", t.id);
        assert!(
            out.contains(&format!("kempelen run {f} --machine {}", t.machine)),
            "{out}"
        );
        let (ok, out, err) = kempelen(&[
            "run",
            f,
            "--machine",
            &t.machine,
            "--input",
            "d 2\\ne2e4\\nq\\n",
        ]);
        assert!(ok, "{}: {err}", t.id);
        let text = t.unwrap_output(&out).to_lowercase();
        assert!(text.contains(&want), "{}: want `{want}` in:\n{text}", t.id);
        assert!(text.contains("goodbye"), "{}: {text}", t.id);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_targets_and_outputs_are_refused_and_leave_no_file() {
    let dir = scratch("bad");
    let out = dir.join("x.bin");
    let (ok, _, err) = kempelen(&["build", "--target", "pdp-11", "-o", out.to_str().unwrap()]);
    assert!(!ok);
    assert!(
        err.contains("unknown target `pdp-11`") && err.contains("cpm"),
        "{err}"
    );
    assert!(!out.exists());
    let missing = dir.join("no/such/dir/k.com");
    let (ok, _, err) = kempelen(&["build", "--target", "cpm", "-o", missing.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("cannot write"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
