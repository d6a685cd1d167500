//! Every link the page writes reads back to the same state: [`link::format`] then
//! [`link::parse`] gives the same [`Link`] and no problem, over random games (from several
//! start positions, random legal moves), engines, machines, depths in each view's range,
//! views and each view's own keys: programs of any text for the assembler, paused machines
//! (cycle counts), trees, comparisons, lessons, real programs. The same property runs through
//! the page in tests/web_flows.py (`links_read_back_what_the_page_wrote`).
#![cfg(not(target_arch = "wasm32"))]

use kempelen_engine::{Game, Position, START_FEN};
use kempelen_web::choice::{EngineChoice, engines};
use kempelen_web::link::{self, Link, Speed};
use proptest::prelude::*;

const STARTS: [&str; 4] = [
    START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
];

const VIEWS: [&str; 7] = [
    "play", "compare", "machine", "tree", "asm", "lessons", "programs",
];

/// A game: a start position and up to `picks.len()` random legal moves from it.
fn game(start: usize, picks: &[u16]) -> (Option<String>, Vec<String>, Game) {
    let fen = STARTS[start];
    let mut g = Game::from_fen(fen).unwrap();
    let mut moves = Vec::new();
    for &p in picks {
        let legal = g.position().legal_moves();
        if legal.is_empty() || g.status().is_over() {
            break;
        }
        let m = legal[usize::from(p) % legal.len()];
        moves.push(m.to_uci());
        g.push(m).unwrap();
    }
    let fen = (fen != START_FEN).then(|| fen.to_string());
    (fen, moves, g)
}

/// A view's own keys as the page writes them, from random numbers and a random text.
fn view_keys(view: &str, n: &[u64], text: &str, g: &Game) -> Vec<(String, String)> {
    let kv = |k: &str, v: String| (k.to_string(), v);
    let pick = |list: &[&str], i: u64| list[(i as usize) % list.len()].to_string();
    let z80 = engines().into_iter().find(|e| e.id == "z80").unwrap();
    let m6502 = engines().into_iter().find(|e| e.id == "6502").unwrap();
    match view {
        "machine" => vec![kv("cycles", (n[0] % 1_000_000_000_000_001).to_string())],
        "asm" if n[0] % 3 == 0 => vec![kv(
            "snippet",
            pick(&kempelen_roms::snippets::SNIPPETS.map(|s| s.id), n[1]),
        )],
        "asm" => vec![
            kv("src", text.to_string()),
            kv("cpu", pick(&["z80", "6502", "65c02"], n[1])),
        ],
        "tree" => {
            let mut v = vec![
                kv("tree", pick(&["native", "z80", "6502"], n[0])),
                kv(
                    "algorithm",
                    pick(&["reference", "alphabeta", "minimax"], n[1]),
                ),
                kv("width", (n[2] % 100).to_string()),
                kv("node", (1 + n[3] % 5000).to_string()),
            ];
            if n[4] % 2 == 0 {
                v.push(kv("root", g.position().to_fen()));
            }
            v
        }
        "compare" => vec![
            kv(
                "z80",
                z80.machines[(n[0] as usize) % z80.machines.len()]
                    .id
                    .to_string(),
            ),
            kv(
                "6502",
                m6502.machines[(n[1] as usize) % m6502.machines.len()]
                    .id
                    .to_string(),
            ),
            if n[2] % 2 == 0 {
                kv("suite", pick(&["all", "0", "17", "68"], n[3]))
            } else {
                kv("cmpfen", g.position().to_fen())
            },
        ],
        "lessons" => {
            let ids: Vec<&str> = kempelen_claims::lessons::LESSONS
                .iter()
                .map(|l| l.id)
                .collect();
            vec![
                kv("lesson", pick(&ids, n[0])),
                kv("example", (n[1] % 20).to_string()),
            ]
        }
        "programs" => vec![kv("program", pick(&["microchess", "sargon"], n[0]))],
        _ => Vec::new(),
    }
}

/// The depth range of a link with this engine and view (as the page's views take it).
fn depth_range(engine: Option<EngineChoice>, view: &str) -> u32 {
    let by_engine = engine.map_or(32, |e| e.max_depth());
    let by_view = match view {
        "tree" => 4,
        "programs" => 3,
        "compare" | "machine" => 32,
        _ => by_engine,
    };
    by_engine.min(by_view)
}

#[allow(clippy::too_many_arguments)]
fn a_link(
    start: usize,
    picks: Vec<u16>,
    engine: Option<usize>,
    machine: usize,
    depth: Option<u32>,
    speed: Option<bool>,
    view: Option<usize>,
    n: Vec<u64>,
    text: String,
) -> Link {
    let (fen, moves, g) = game(start, &picks);
    let list = engines();
    let engine = engine.map(|i| &list[i % list.len()]);
    let choice = engine.map(|e| EngineChoice::parse(e.id).unwrap());
    let view_name = view.map(|i| VIEWS[i % VIEWS.len()]);
    let machine = engine
        .filter(|e| !e.machines.is_empty())
        .map(|e| e.machines[machine % e.machines.len()].id.to_string());
    let top = depth_range(choice, view_name.unwrap_or("play"));
    Link {
        fen,
        moves,
        engine: engine.map(|e| e.id.to_string()),
        machine,
        depth: depth.map(|d| 1 + d % top),
        speed: speed.map(|fast| if fast { Speed::Fast } else { Speed::Real }),
        view: view_name.map(str::to_string),
        extra: view_name.map_or(Vec::new(), |v| view_keys(v, &n, &text, &g)),
    }
}

fn links() -> impl Strategy<Value = Link> {
    (
        0..STARTS.len(),
        prop::collection::vec(any::<u16>(), 0..120),
        prop::option::of(any::<usize>()),
        any::<usize>(),
        prop::option::of(any::<u32>()),
        prop::option::of(any::<bool>()),
        prop::option::of(any::<usize>()),
        prop::collection::vec(any::<u64>(), 5),
        any::<String>(),
    )
        .prop_map(|(s, p, e, m, d, sp, v, n, t)| a_link(s, p, e, m, d, sp, v, n, t))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn every_link_written_reads_back_the_same(link in links()) {
        let text = link::format(&link).expect("a link of this size is written");
        let back = link::parse(&format!("#{text}"));
        prop_assert!(back.problems.is_empty(), "{text}: {:?}", back.problems);
        prop_assert_eq!(back.link, link);
    }
}

/// A program as long as a link holds reads back whole; one a link cannot hold is refused by
/// the writer (never written cut).
#[test]
fn a_long_program_reads_back_whole_or_is_refused() {
    let line = "loop:   dex          ; count down, 0x88 & 'quotes' + % = # ü\n";
    for lines in [300usize, 3_000, 6_000, 30_000] {
        let link = Link {
            view: Some("asm".into()),
            extra: vec![
                ("src".into(), line.repeat(lines)),
                ("cpu".into(), "6502".into()),
            ],
            ..Link::default()
        };
        match link::format(&link) {
            Ok(text) => {
                assert!(text.len() <= link::MAX_FRAGMENT);
                assert_eq!(link::parse(&text).link, link, "{lines} lines");
            }
            Err(e) => assert!(lines >= 6_000 && e.key == "src", "{lines} lines: {e}"),
        }
    }
    // A game of 5,000 plies (a legal shuffle of knights) as well.
    let mut g = Game::default();
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let moves: Vec<String> = (0..5000).map(|i| shuffle[i % 4].to_string()).collect();
    for m in &moves {
        g.push_uci(m).unwrap();
    }
    let link = Link {
        moves,
        ..Link::default()
    };
    let text = link::format(&link).unwrap();
    assert_eq!(link::parse(&text).link, link);
    assert_eq!(Position::startpos().board(), g.position().board());
}
