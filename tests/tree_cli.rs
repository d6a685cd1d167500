//! `kempelen tree`: the drawing holds exactly the nodes and cutoffs of the search it draws, the
//! SVG parses, and bad input gets a clear error.

mod common;
use common::{json, kempelen, succeeds};
use kempelen_engine::tree::{Algorithm, Lesson, LessonConfig};
use kempelen_engine::{Position, START_FEN};

fn svg_counts(path: &std::path::Path) -> (usize, usize) {
    let text = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("the SVG parses as XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let class = |c: &str| {
        doc.descendants()
            .filter(|n| n.has_tag_name("g") && n.attribute("class") == Some(c))
            .count()
    };
    (class("node"), class("cut"))
}

fn tmp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("kempelen-tree-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn the_tartan_default_draws_the_search_it_runs() {
    let svg = tmp("tartan.svg");
    let j = json(&["tree", "--json", "--svg", svg.to_str().unwrap()]);
    let (nodes, cuts) = svg_counts(&svg);
    assert_eq!(nodes as u64, j["nodes"].as_u64().unwrap());
    assert_eq!(cuts as u64, j["cutoffs"].as_u64().unwrap());
    // Alpha-beta to depth 4 is one search: the drawing holds all of its nodes.
    assert_eq!(j["nodes"], j["search_nodes"]);
    assert_eq!(j["algorithm"], "alphabeta");
    // The article's moves in the article's places.
    let tree = j["tree"].as_array().unwrap();
    let moves: Vec<&str> = tree
        .iter()
        .take(9)
        .map(|n| n["move"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        moves,
        [
            "", "e2e4", "e7e5", "b1c3", "b8c6", "g8f6", "g1f3", "d7d6", moves[8]
        ]
    );
    // At most two moves per node; max and min nodes alternate.
    for n in tree {
        let children = tree.iter().filter(|c| c["parent"] == n["number"]).count();
        let skipped = n["skipped"].as_array().unwrap().len();
        assert!(children + skipped <= 2, "{n}");
        assert_eq!(
            n["max"].as_bool().unwrap(),
            n["ply"].as_u64().unwrap() % 2 == 0
        );
    }
    // The same search through the library: same node and cutoff counts.
    let pos = Position::from_fen(START_FEN).unwrap();
    let mut cfg = LessonConfig::of(Algorithm::AlphaBeta);
    cfg.width = Some(2);
    cfg.trace = true;
    let path = |s: &str| {
        let mut p = pos.clone();
        s.split_whitespace()
            .map(|t| {
                let m = p.parse_uci(t).unwrap();
                p.play(m);
                m
            })
            .collect::<Vec<_>>()
    };
    for (at, first) in [
        ("", "e2e4"),
        ("e2e4", "e7e5"),
        ("e2e4 e7e5", "b1c3 g1f3"),
        ("e2e4 e7e5 b1c3", "b8c6 g8f6"),
        ("e2e4 e7e5 g1f3", "d7d6"),
    ] {
        let head = path(at);
        let all = path(&format!("{at} {}", first.split(' ').next().unwrap()));
        let mut p = pos.clone();
        for &m in &head {
            p.play(m);
        }
        let firsts = first.split(' ').map(|t| p.parse_uci(t).unwrap()).collect();
        let _ = all;
        cfg.forced.push((head, firsts));
    }
    let r = Lesson::new(&pos, &[], cfg).run(4);
    assert_eq!(r.nodes, j["nodes"].as_u64().unwrap());
    assert_eq!(r.cutoffs, j["cutoffs"].as_u64().unwrap());
    assert_eq!(r.evaluations, j["evaluated"].as_u64().unwrap());
    // The lesson quotes these counts.
    let lesson =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/SEARCH.md")).unwrap();
    let quoted = format!(
        "visits {} nodes and evaluates {}",
        j["nodes"], j["evaluated"]
    );
    assert!(lesson.contains(&quoted), "docs/SEARCH.md lacks '{quoted}'");
    assert!(lesson.contains(&format!("with {} cutoffs", j["cutoffs"])));
}

/// The lesson's first tree (minimax on the Tartan article's moves) is what its text says: the
/// value and the principal variation it quotes are the search's.
#[test]
fn the_lesson_quotes_the_minimax_trees_line_and_value() {
    let j = json(&["tree", "--algorithm", "minimax", "--json"]);
    let mut pos = Position::from_fen(START_FEN).unwrap();
    let mut san = Vec::new();
    for (i, m) in j["pv"].as_array().unwrap().iter().enumerate() {
        let m = pos.parse_uci(m.as_str().unwrap()).unwrap();
        let number = if i % 2 == 0 {
            format!("{}.", i / 2 + 1)
        } else {
            String::new()
        };
        san.push(format!("{number}{}", pos.san(m)));
        pos.play(m);
    }
    let lesson =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/SEARCH.md")).unwrap();
    let lesson = lesson.split_whitespace().collect::<Vec<_>>().join(" ");
    let quoted = format!(
        "backs up +{} (centipawns, White's view) through {}",
        j["value"],
        san.join(" ")
    );
    assert!(lesson.contains(&quoted), "docs/SEARCH.md lacks '{quoted}'");
    assert!(lesson.contains("the root's second move is 1.Na3"));
}

/// The pictures in docs/ are what the commands draw today.
#[test]
fn the_pictures_in_docs_are_current() {
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 3";
    let cases: [(&str, &[&str]); 3] = [
        ("tree-tartan.svg", &["tree"]),
        (
            "tree-tartan-minimax.svg",
            &["tree", "--algorithm", "minimax"],
        ),
        (
            "tree-reference.svg",
            &[
                "tree",
                "--algorithm",
                "reference",
                "--depth",
                "3",
                "--width",
                "2",
                "--fen",
                fen,
            ],
        ),
    ];
    for (name, args) in cases {
        let out = tmp(name);
        let mut a = args.to_vec();
        a.extend(["--svg", out.to_str().unwrap()]);
        succeeds(&a);
        let docs = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("docs")
            .join(name);
        assert_eq!(
            std::fs::read_to_string(&out).unwrap(),
            std::fs::read_to_string(&docs).unwrap(),
            "docs/{name} is not what `kempelen {}` draws today",
            args.join(" ")
        );
    }
}

#[test]
fn minimax_draws_the_whole_tree_and_the_reference_its_last_iteration() {
    let svg = tmp("minimax.svg");
    let j = json(&[
        "tree",
        "--json",
        "--algorithm",
        "minimax",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(j["nodes"], 31);
    assert_eq!(j["evaluated"], 16);
    assert_eq!(j["cutoffs"], 0);
    assert_eq!(svg_counts(&svg), (31, 0));

    let svg = tmp("reference.svg");
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let j = json(&[
        "tree",
        "--json",
        "--algorithm",
        "reference",
        "--fen",
        fen,
        "--depth",
        "3",
        "--width",
        "3",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    let (nodes, cuts) = svg_counts(&svg);
    assert_eq!(nodes as u64, j["nodes"].as_u64().unwrap());
    assert_eq!(cuts as u64, j["cutoffs"].as_u64().unwrap());
    assert!(j["search_nodes"].as_u64().unwrap() > j["nodes"].as_u64().unwrap());
    let tree = j["tree"].as_array().unwrap();
    assert!(tree.iter().any(|n| n["kind"] == "quiescence"));
    assert!(tree.iter().filter(|n| n["pv"] == true).count() >= 2);
}

#[test]
fn the_text_form_numbers_the_nodes() {
    let (out, _) = succeeds(&["tree"]);
    assert!(out.contains("[1] max"), "{out}");
    assert!(out.contains("e2e4 [2] min"), "{out}");
    assert!(out.contains("cut off"), "{out}");
}

#[test]
fn bad_input_is_refused_clearly() {
    let cases: [(&[&str], &str); 5] = [
        (&["tree", "--depth", "0"], "--depth 0"),
        (&["tree", "--fen", "8/8/8 w - - 0 1"], "--fen"),
        (&["tree", "--order", "e2e4 e7e5"], "colon"),
        (&["tree", "--order", "e2e5: e7e5"], "e2e5"),
        (
            &[
                "tree",
                "--algorithm",
                "minimax",
                "--depth",
                "6",
                "--width",
                "0",
            ],
            "lower --depth",
        ),
    ];
    for (args, want) in cases {
        let (ok, _, err) = kempelen(args);
        assert!(!ok, "{args:?} succeeded");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
