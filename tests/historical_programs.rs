//! The real Sargon and Microchess opened up (ignored: they need the local copies of the
//! published files, `KEMPELEN_HISTORICAL=DIR`): Rictor's listing laid over the 1976 KIM-1
//! binary, the declared variables at named breakpoints, every lesson step opening at its
//! routine and reproduced from its cycles, the programs' search trees beside their profiles'
//! on the positions of the history pages (the figures there are this test's; with
//! `KEMPELEN_WRITE_DOCS=1` it writes them), and what collecting a tree costs in host time.
//!
//! ```text
//! KEMPELEN_HISTORICAL=DIR cargo test --release --test historical_programs -- --ignored --nocapture
//! ```

mod common;

use common::historical_dir;
use kempelen_adaptor::Adaptor;
use kempelen_adaptor::session::{Session, StopView};
use kempelen_adaptor::tree::TreeRun;
use kempelen_emulator::{Paused, StopReason};
use kempelen_engine::history::{TreeProfile, profile_tree};
use kempelen_engine::tree::searched::{SearchTree, compare};
use kempelen_engine::{Game, Position};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

const SARGON: &str = "adaptors/sargon-book-jupiter3.toml";
const KIM: &str = "adaptors/microchess-kim1.toml";
const RICTOR: &str = "adaptors/microchess-rictor.toml";

/// The positions of the history pages' figures: (name, FEN).
const POSITIONS: [(&str, &str); 6] = [
    (
        "the start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "a book exit (1. e4 e5)",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
    ),
    (
        "a middlegame (Queen's Gambit Declined)",
        "r1bq1rk1/pp1nbppp/2p1pn2/3p2B1/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 7",
    ),
    (
        "a middlegame (Nimzo-Indian)",
        "r2q1rk1/pp1b1ppp/2n1pn2/3p4/1b1P4/2NBPN2/PP3PPP/R1BQ1RK1 w - - 4 9",
    ),
    (
        "an ending (rook against pawns)",
        "8/8/4k3/3p4/3P4/4K3/8/R7 w - - 0 40",
    ),
    (
        "an ending (a back-rank mate)",
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 30",
    ),
];

fn adaptor(file: &str) -> Option<Arc<Adaptor>> {
    historical_dir()?;
    Some(Arc::new(Adaptor::from_file(Path::new(file)).unwrap()))
}

fn game(fen: &str) -> Game {
    Game::new(Position::from_fen(fen).unwrap())
}

fn var<'a>(v: &'a StopView, name: &str) -> &'a str {
    &v.variables
        .iter()
        .find(|x| x.name == name)
        .unwrap_or_else(|| panic!("no variable {name}"))
        .text
}

#[test]
#[ignore]
fn rictors_listing_lies_over_the_1976_binary() {
    let Some(a) = adaptor(KIM) else { return };
    let map = a.listing().unwrap().as_ref().expect("the listing is there");
    println!(
        "{} of the listing's {} instructions laid over the binary ({} bytes with the data); where it differs:",
        map.matched, map.listing_instructions, map.matched_bytes
    );
    for d in &map.differs {
        println!("  ${:04X}-${:04X} after {:?}", d.first, d.last, d.after);
    }
    println!("labels not in the binary: {}", map.labels_missing.join(" "));
    let s = &a.program_source().symbols;
    for (name, at) in [
        ("JANUS", 0x0100),
        ("ON4", 0x013F),
        ("TREE", 0x016F),
        ("GNMZ", 0x0200),
        ("GNM", 0x0209),
        ("REVERSE", 0x02B2),
        ("CMOVE", 0x02CA),
        ("CHKCHK", 0x02F5),
        ("GENRM", 0x0325),
        ("UMOVE", 0x0331),
        ("MOVE", 0x034B),
        ("PUSH", 0x038F),
        ("STRATGY", 0x1780),
    ] {
        assert_eq!(s.get(name), Some(at), "{name}");
    }
    // GO tests its book's pointer the other way round (BPL, the listing BMI), CKMATE loads X
    // where the listing loads Y: the binary's own code, not named.
    for name in ["GO", "CKMATE"] {
        assert_eq!(s.get(name), None, "{name}");
        assert!(map.labels_missing.iter().any(|l| l == name));
    }
    // The continuation's JSR GNM (the listing comments its JSR OHM out) and the keypad.
    assert!(map.difference_at(0x0157).is_some());
    assert!(map.difference_at(0x000B).is_some());
    assert!(map.difference_at(0x0100).is_none());
}

#[test]
#[ignore]
fn the_variables_read_as_the_position_at_named_breakpoints() {
    let fen = POSITIONS[2].1;
    if let Some(a) = adaptor(SARGON) {
        let mut s = Session::open(Arc::clone(&a), &game(fen), Some(2)).unwrap();
        let fm19 = s.resolve("FM19").unwrap();
        s.run_to(fm19, u64::MAX / 4).unwrap();
        let v = s.view();
        assert_eq!(var(&v, "NPLY"), "1 ($01)");
        assert_eq!(var(&v, "PLYMAX"), "2 ($02)");
        let mv = var(&v, "MLPTRJ")[..4].to_string();
        let mut after = Position::from_fen(fen).unwrap();
        after.play(after.parse_uci(&mv).unwrap());
        let board = var(&v, "BOARDA").replace([' ', '\n'], "");
        let want: String = after
            .to_fen()
            .split(' ')
            .next()
            .unwrap()
            .split('/')
            .map(|r| {
                r.chars()
                    .flat_map(|c| match c.to_digit(10) {
                        Some(n) => vec!['.'; n as usize],
                        None => vec![c],
                    })
                    .collect::<String>()
            })
            .collect();
        assert_eq!(
            board, want,
            "Sargon's board after its first move of the search"
        );
        println!(
            "Sargon at FM19 after {} cycles: MLPTRJ {}",
            v.cycles,
            var(&v, "MLPTRJ")
        );
    }
    for file in [KIM, RICTOR] {
        let Some(a) = adaptor(file) else { return };
        let mut s = Session::open(Arc::clone(&a), &game(fen), None).unwrap();
        let at = s.resolve("GENRM").unwrap();
        s.run_to(at, u64::MAX / 4).unwrap();
        let v = s.view();
        // A reply captures: the board is turned round, its squares read from the other side.
        assert_eq!(var(&v, "REVERSED"), "1", "{file}");
        assert_eq!(var(&v, "STATE"), "255 ($FF)", "{file}");
        println!(
            "{file} at GENRM after {} cycles: the reply {} on\n{}",
            v.cycles,
            var(&v, "move being tried"),
            var(&v, "BOARD")
        );
    }
}

#[test]
#[ignore]
fn every_lesson_step_opens_at_its_routine_and_again_from_its_cycles() {
    for file in [SARGON, KIM, RICTOR] {
        let Some(a) = adaptor(file) else { return };
        for step in a.lessons() {
            let started = Instant::now();
            let game = step.game().unwrap();
            let mut s = Session::open(Arc::clone(&a), &game, step.level).unwrap();
            assert!(
                s.run_to_lesson(step, u64::MAX / 4).unwrap(),
                "{file} step {}",
                step.step
            );
            let v = s.view();
            assert_eq!(v.pc, step.at, "{file} step {}", step.step);
            let mut again = Session::open(Arc::clone(&a), &game, step.level).unwrap();
            assert!(again.seek(v.cycles, u64::MAX / 4).unwrap());
            assert_eq!(again.view().pc, v.pc);
            println!(
                "{file} step {} ({}): {} after {} cycles ({:.1} s of the machine; {:.1} s of host time): {}",
                step.step,
                step.title,
                v.routine.as_deref().unwrap_or("?"),
                v.cycles,
                v.cycles as f64 / (v.mhz * 1e6),
                started.elapsed().as_secs_f64(),
                v.source
                    .map(|l| l.text.trim().to_string())
                    .unwrap_or_default()
            );
        }
    }
}

/// One row of the figures: the program's tree beside its profile's on a position.
struct Row {
    position: &'static str,
    level: Option<u32>,
    /// `None`: the program answered from its book.
    tree: Option<(usize, usize, usize, usize)>,
    answer: String,
    seconds: f64,
}

/// The program's tree and its profile's on every position (at `level`).
fn rows(a: &Arc<Adaptor>, profile: TreeProfile, level: Option<u32>) -> Vec<Row> {
    POSITIONS
        .iter()
        .map(|(name, fen)| {
            let g = game(fen);
            let (tree, cycles, printed) = TreeRun::open(Arc::clone(a), &g, level, 2_000_000)
                .unwrap()
                .finish()
                .unwrap();
            let answer = a
                .answer(&g, &printed)
                .map_or_else(|| "?".to_string(), |m| g.position().san(m));
            let seconds = cycles as f64 / (a.clock().mhz * 1e6);
            let ours = profile_tree(profile, &g, level, 2_000_000);
            let tree = match (tree.nodes.len(), ours) {
                (1, None) => None,
                (_, Some(p)) => {
                    let c = compare(&tree, &p);
                    Some((c.program_nodes, c.agree, c.found, tree.cuts.len()))
                }
                (n, None) => panic!(
                    "{name}: the program's tree has {n} nodes, its profile plays from its book"
                ),
            };
            println!("{name}, level {level:?}: {tree:?}, {answer}, {seconds:.1} s");
            Row {
                position: name,
                level,
                tree,
                answer,
                seconds,
            }
        })
        .collect()
}

/// The rows as a Markdown table.
fn table(rows: &[Row], level_name: &str) -> String {
    let mut s = format!(
        "| position | {level_name} | the program's nodes | the profile's, in the same order with the same value | cut-offs | its answer | emulated time |\n|---|---|---|---|---|---|---|\n"
    );
    for r in rows {
        let level = r
            .level
            .map_or("its one look".to_string(), |l| l.to_string());
        match r.tree {
            None => s.push_str(&format!(
                "| {} | {level} | none: a book move | | | {} | {:.1} s |\n",
                r.position, r.answer, r.seconds
            )),
            Some((n, agree, _, cuts)) => s.push_str(&format!(
                "| {} | {level} | {n} | {agree} ({:.1} %) | {cuts} | {} | {:.1} s |\n",
                r.position,
                100.0 * agree as f64 / n as f64,
                r.answer,
                r.seconds
            )),
        }
    }
    s
}

/// The figures' block of `doc`, between its markers, compared with `block`, or written with
/// `KEMPELEN_WRITE_DOCS=1`.
fn check_doc(doc: &str, block: &str) {
    const BEGIN: &str = "<!-- program-tree figures: tests/historical_programs.rs -->\n";
    const END: &str = "<!-- end of the program-tree figures -->";
    let text = std::fs::read_to_string(doc).unwrap();
    let (Some(b), Some(e)) = (text.find(BEGIN), text.find(END)) else {
        panic!("{doc}: no figures' markers");
    };
    let now = &text[b + BEGIN.len()..e];
    if std::env::var_os("KEMPELEN_WRITE_DOCS").is_some() {
        let new = format!("{}{BEGIN}{block}{}", &text[..b], &text[e..]);
        std::fs::write(doc, new).unwrap();
        return;
    }
    assert_eq!(
        now, block,
        "{doc}: the figures are not what the programs give now (KEMPELEN_WRITE_DOCS=1 writes them)"
    );
}

#[test]
#[ignore]
fn sargon_trees_beside_the_profiles_on_the_history_pages_positions() {
    let Some(a) = adaptor(SARGON) else { return };
    let mut block = String::new();
    for level in [1, 2] {
        let r = rows(&a, TreeProfile::Sargon, Some(level));
        for row in &r {
            if let Some((n, _, found, _)) = row.tree {
                assert_eq!(
                    found, n,
                    "{}: every node of the program's is in the profile's",
                    row.position
                );
            }
        }
        block.push_str(&table(&r, "look-ahead"));
        block.push('\n');
    }
    check_doc("docs/history/sargon.md", &block);
}

#[test]
#[ignore]
fn microchess_trees_beside_the_profiles_on_the_history_pages_positions() {
    let Some(a) = adaptor(KIM) else { return };
    let r = rows(&a, TreeProfile::Microchess, None);
    let block = format!("{}\n", table(&r, "level"));
    check_doc("docs/history/microchess.md", &block);
    // Rictor's version beside the same profile (which re-creates the 1976 binary): its
    // values differ (no continuation counts), its moves and their order do not.
    if let Some(b) = adaptor(RICTOR) {
        for row in rows(&b, TreeProfile::Microchess, None) {
            if let Some((n, _, found, _)) = row.tree {
                assert_eq!(found, n, "{}", row.position);
            }
        }
    }
}

/// Runs a session's turn to its end with no tree: its host time.
fn plain_turn(a: &Arc<Adaptor>, g: &Game, level: Option<u32>) -> f64 {
    let mut s = Session::open_on(Arc::clone(a), g, level, false).unwrap();
    let started = Instant::now();
    loop {
        match s.machine_mut().run_to_break(1 << 24, &[], false).unwrap() {
            Paused::Stop(StopReason::InputWait { .. }) => break,
            Paused::Budget => {}
            p => panic!("{p:?}"),
        }
    }
    started.elapsed().as_secs_f64()
}

#[test]
#[ignore]
fn collecting_a_tree_costs_the_turn_little_host_time() {
    for (file, level) in [(SARGON, Some(2)), (KIM, None), (RICTOR, None)] {
        let Some(a) = adaptor(file) else { return };
        let (mut plain, mut with) = (0.0, 0.0);
        let mut nodes = 0;
        for (_, fen) in &POSITIONS[1..] {
            let g = game(fen);
            plain += plain_turn(&a, &g, level);
            // The turn alone, from where the set-up left it, as plain_turn times it.
            let run = TreeRun::open(Arc::clone(&a), &g, level, 2_000_000).unwrap();
            let started = Instant::now();
            let (t, _, _): (SearchTree, u64, String) = run.finish().unwrap();
            with += started.elapsed().as_secs_f64();
            nodes += t.nodes.len();
        }
        println!(
            "{file}: five turns in {plain:.2} s of host time without the tree, {with:.2} s collecting its {nodes} nodes: {:.1} % more",
            100.0 * (with - plain) / plain
        );
    }
}
