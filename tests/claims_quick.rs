//! `kempelen claims --quick` re-measures the fast rows; docs/CLAIMS.md (written by the full run)
//! must still hold every one of them, word for word.

mod common;
use common::{fails, json};

#[test]
fn quick_rows_match_docs_claims_md() {
    let j = json(&["claims", "--quick", "--json"]);
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/CLAIMS.md"))
        .expect("docs/CLAIMS.md exists");
    let mut n = 0;
    for c in j["claims"].as_array().unwrap() {
        assert!(
            doc.contains(c["source"].as_str().unwrap()),
            "source of {} missing",
            c["id"]
        );
        for r in c["rows"].as_array().unwrap() {
            assert_eq!(r["quick"], true);
            let line = r["markdown"].as_str().unwrap();
            assert!(
                doc.lines().any(|l| l == line),
                "docs/CLAIMS.md no longer matches `kempelen claims --quick`; rerun `kempelen claims --markdown docs/CLAIMS.md`. Missing row:\n{line}"
            );
            n += 1;
        }
    }
    assert!(n >= 10, "only {n} quick rows");
    // Every claim of the data file has a section in the page.
    for id in [
        "minimal-tree",
        "branching-factor",
        "null-move",
        "negascout-mtdf",
        "stack-per-ply",
        "elo-per-ply",
    ] {
        assert!(doc.contains(&format!("<a id=\"{id}\"></a>")), "{id}");
    }
}

#[test]
fn claims_refuses_bad_options() {
    let err = fails(&["claims", "--only", "flat-earth"]);
    assert!(err.contains("no such claim"), "{err}");
    let err = fails(&["claims", "--quick", "--markdown", "x.md"]);
    assert!(err.contains("--markdown"), "{err}");
}
