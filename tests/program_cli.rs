//! `kempelen debug` and `kempelen tree --program` on Kempelen's own small search program
//! (adaptors/minisearch-*.toml): the stops print the source line, the registers and the
//! declared variables (text and JSON), the program's tree is drawn beside its profile's (text,
//! SVG, JSON) with the comparison's figures, a lesson step opens at its routine, the lesson
//! trees of `kempelen tree` say what each cut-off skipped and why and read from either side,
//! and bad input gets a clear error.

mod common;
use common::{fails_with, json, succeeds};

const FEN: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";

fn tmp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("kempelen-program-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn debug_stops_at_labels_and_prints_source_registers_and_variables() {
    for cpu in ["z80", "6502"] {
        let program = format!("adaptors/minisearch-{cpu}.toml");
        let (out, _) = succeeds(&[
            "debug",
            "--program",
            &program,
            "--fen",
            FEN,
            "--level",
            "2",
            "--break",
            "sr_cut",
            "--stops",
            "3",
        ]);
        assert!(out.contains("stop 2: breakpoint at"), "{out}");
        assert!(out.contains("(sr_cut)"), "{out}");
        assert!(out.contains("minisearch-") && out.contains("CUTS"), "{out}");
        assert!(out.contains("registers: PC="), "{out}");
        // Every register: the debugger's Z80 core shows the pairs.
        assert!(out.contains(" A=") || out.contains(" AF="), "{out}");
        assert!(out.contains("  PLY = "), "{out}");
        assert!(out.contains("moves not searched yet"), "{out}");
        let j = json(&[
            "debug",
            "--program",
            &program,
            "--fen",
            FEN,
            "--break",
            "sr_made",
            "--stops",
            "2",
            "--json",
        ]);
        let stop = &j["stops"][1]["stop"];
        assert_eq!(j["stops"][1]["why"], "breakpoint");
        assert_eq!(stop["label"], "sr_made");
        let mlcur = stop["variables"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["name"] == "MLCUR")
            .unwrap();
        assert_eq!(mlcur["value"]["move"]["squares"], "b1c3", "{cpu}");
        // The same stop from its cycles.
        let cycles = stop["cycles"].as_u64().unwrap().to_string();
        let again = json(&[
            "debug",
            "--program",
            &program,
            "--fen",
            FEN,
            "--at",
            &cycles,
            "--json",
        ]);
        assert_eq!(again["stops"][0]["stop"]["pc"], stop["pc"]);
    }
}

#[test]
fn debug_opens_a_lesson_step_at_its_routine() {
    let j = json(&[
        "debug",
        "--program",
        "adaptors/minisearch-6502.toml",
        "--lesson",
        "2",
        "--json",
    ]);
    assert_eq!(j["lesson"]["routine"], "sr_cut");
    assert_eq!(j["stops"][0]["stop"]["label"], "sr_cut");
    fails_with(
        &[
            "debug",
            "--program",
            "adaptors/minisearch-6502.toml",
            "--lesson",
            "9",
        ],
        &["--lesson 9", "names no such step", "1, 2"],
    );
    fails_with(
        &[
            "debug",
            "--program",
            "adaptors/minisearch-6502.toml",
            "--break",
            "nowhere",
        ],
        &["--break nowhere", "no label, line or address"],
    );
}

#[test]
fn the_programs_tree_is_drawn_beside_its_profiles() {
    let svg = tmp("mini.svg");
    let j = json(&[
        "tree",
        "--program",
        "adaptors/minisearch-z80.toml",
        "--fen",
        FEN,
        "--depth",
        "2",
        "--beside-profile",
        "--json",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    let program = &j["program"];
    let n = program["nodes"].as_u64().unwrap();
    assert_eq!(program["comparison"]["agree"].as_u64(), Some(n));
    assert_eq!(j["profile"]["nodes"].as_u64(), Some(n));
    assert!(program["cutoffs"].as_u64().unwrap() > 0);
    let note = program["cuts"][0]["note"].as_str().unwrap();
    assert!(
        note.starts_with("not searched: ") && note.contains("already refutes"),
        "{note}"
    );
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("the SVG parses");
    let nodes = doc
        .descendants()
        .filter(|x| x.has_tag_name("g") && x.attribute("class") == Some("node"))
        .count() as u64;
    assert_eq!(nodes, 2 * n, "both trees drawn, no node marked");
    let (out, _) = succeeds(&[
        "tree",
        "--program",
        "adaptors/minisearch-6502.toml",
        "--fen",
        FEN,
        "--depth",
        "2",
        "--beside-profile",
        "--view",
        "to-move",
    ]);
    assert!(
        out.starts_with(&format!("{n} of the program's {n} nodes are the profile's")),
        "{out}"
    );
    assert!(out.contains("// not searched: "), "{out}");
    let (alone, _) = succeeds(&[
        "tree",
        "--profile",
        "minisearch",
        "--fen",
        FEN,
        "--depth",
        "2",
    ]);
    assert!(alone.starts_with("the minisearch profile from"), "{alone}");
}

#[test]
fn lesson_trees_say_what_each_cut_off_skipped_and_read_from_either_side() {
    let (white, _) = succeeds(&["tree"]);
    assert!(white.contains("// cut off: not searched: "), "{white}");
    assert!(white.contains("already refutes"), "{white}");
    let (to_move, _) = succeeds(&["tree", "--view", "to-move"]);
    assert!(to_move.contains("the side to move's view"), "{to_move}");
    assert_ne!(white, to_move);
    let j = json(&["tree", "--json"]);
    let cut = j["tree"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["cutoff"] == true)
        .unwrap();
    assert!(cut["cut_note"].as_str().unwrap().contains("<= alpha"));
    fails_with(&["tree", "--view", "black"], &["unknown view 'black'"]);
}

#[test]
fn program_trees_refuse_what_they_cannot_draw() {
    // The small program's adaptor without its [tree].
    let dir = tmp("untreed");
    std::fs::create_dir_all(dir.join("minisearch")).unwrap();
    std::fs::copy(
        "adaptors/minisearch/minisearch-z80.asm",
        dir.join("minisearch/minisearch-z80.asm"),
    )
    .unwrap();
    let text = std::fs::read_to_string("adaptors/minisearch-z80.toml").unwrap();
    let cut = text.find("# The tree:").unwrap();
    let end = text.find("[[lesson]]").unwrap();
    let untreed = format!("{}{}", &text[..cut], &text[end..]);
    let file = dir.join("untreed.toml");
    std::fs::write(&file, untreed).unwrap();
    fails_with(
        &["tree", "--program", file.to_str().unwrap()],
        &["says nothing of its search tree"],
    );
    fails_with(
        &[
            "tree",
            "--profile",
            "sargon",
            "--fen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ],
        &["plays from its book"],
    );
    fails_with(&["tree", "--beside-profile"], &["--program"]);
}
