//! The programs opened up, checked on Kempelen's own small search program (adaptors/minisearch/,
//! in Z80 and 6502 assembly) so that no copyrighted program is needed: the debugger steps its
//! source, its declared variables decode as the position says, its search tree read from the
//! running program is the tree of the same search written in Rust node for node, a stop is
//! reproduced from (program, position, cycles), a lesson's step opens at its routine, and a
//! listing is laid over a binary assembled from it (the way Rictor's Microchess listing is laid
//! over the 1976 KIM-1 binary), saying where the binary differs.

#![cfg(feature = "opened")]

use kempelen_adaptor::Adaptor;
use kempelen_adaptor::session::Session;
use kempelen_adaptor::tree::TreeRun;
use kempelen_emulator::debug::Why;
use kempelen_engine::tree::minisearch;
use kempelen_engine::tree::searched::{Mark, compare};
use kempelen_engine::{Game, Position};
use std::path::{Path, PathBuf};
use std::sync::Arc;

const CPUS: [&str; 2] = ["z80", "6502"];

/// Positions: an opening, a middlegame, an ending, a mate in one, a promotion.
const FENS: [&str; 5] = [
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 1 8",
    "8/8/4k3/3p4/3P4/4K3/8/R7 b - - 0 40",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "8/1P4k1/8/8/8/8/6p1/K7 w - - 0 1",
];

fn adaptor_path(cpu: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../adaptors/minisearch-{cpu}.toml"))
}

fn adaptor(cpu: &str) -> Arc<Adaptor> {
    Arc::new(Adaptor::from_file(&adaptor_path(cpu)).unwrap())
}

fn game(fen: &str) -> Game {
    Game::new(Position::from_fen(fen).unwrap())
}

#[test]
fn the_programs_tree_is_the_rust_search_node_for_node() {
    for cpu in CPUS {
        let a = adaptor(cpu);
        for fen in FENS {
            for depth in 1..=3 {
                let run = TreeRun::open(Arc::clone(&a), &game(fen), Some(depth), 100_000).unwrap();
                let (tree, _, printed) = run.finish().unwrap();
                let pos = Position::from_fen(fen).unwrap();
                let (rust, best, value) = minisearch::search_tree(&pos, depth, 100_000);
                let c = compare(&tree, &rust);
                let at = format!("{cpu} depth {depth} {fen}");
                assert_eq!(tree.nodes.len(), rust.nodes.len(), "{at}");
                assert_eq!(
                    (c.agree, c.found),
                    (tree.nodes.len(), tree.nodes.len()),
                    "{at}"
                );
                assert!(c.program.iter().all(|m| *m == Mark::Same), "{at}");
                assert_eq!(tree.cuts, rust.cuts, "{at}");
                // The program prints the move, the value and the node count the tree holds.
                // (A promotion is printed without its piece: the pawn becomes a queen.)
                let want = format!(
                    "move {} value {value} nodes {}",
                    &best.unwrap().to_uci()[..4],
                    tree.nodes.len()
                );
                assert!(printed.contains(&want), "{at}: {printed} (expected {want})");
            }
        }
    }
}

#[test]
fn a_different_tree_is_marked_where_it_differs() {
    let a = adaptor("z80");
    let fen = FENS[0];
    let (tree, _, _) = TreeRun::open(a, &game(fen), Some(2), 100_000)
        .unwrap()
        .finish()
        .unwrap();
    let pos = Position::from_fen(fen).unwrap();
    // The Rust search one ply shallower: the same root moves, other values, no replies.
    let (other, _, _) = minisearch::search_tree(&pos, 1, 100_000);
    let c = compare(&tree, &other);
    assert!(c.agree < tree.nodes.len());
    let root_moves = tree.children().of(0).len();
    assert_eq!(c.found, 1 + root_moves, "the root and its moves are found");
    assert!(c.program.iter().any(|m| matches!(m, Mark::Value(_))));
    assert!(c.program.contains(&Mark::Missing));
    // Every cut-off says what it skipped and why.
    let cut = tree.cuts.first().expect("alpha-beta cuts at depth 2");
    let note = tree.cut_note(cut, kempelen_engine::tree::searched::View::ToMove);
    assert!(
        note.starts_with("not searched: ") && note.contains("already refutes"),
        "{note}"
    );
}

#[test]
fn the_debugger_steps_the_source_and_names_the_variables() {
    for cpu in CPUS {
        let a = adaptor(cpu);
        let fen = FENS[0];
        let mut s = Session::open(Arc::clone(&a), &game(fen), Some(2)).unwrap();
        assert_eq!(s.cycles(), 0);
        let search = s.resolve("search").unwrap();
        let stop = s.run_to(search, u64::MAX / 4).unwrap();
        assert_eq!((stop.why, s.machine().pc()), (Why::Done, search), "{cpu}");
        let v = s.view();
        // The label stands on a line of its own; the instruction's line follows it.
        let line = v.source.clone().expect("a source line");
        assert!(line.text.contains("NODES"), "{cpu}: {}", line.text);
        assert_eq!(v.label.as_deref(), Some("search"));
        assert!(!v.instruction_cycles.is_empty() && !v.registers.is_empty());
        let var = |v: &kempelen_adaptor::session::StopView, name: &str| {
            v.variables
                .iter()
                .find(|x| x.name == name)
                .unwrap_or_else(|| panic!("{name}"))
                .text
                .clone()
        };
        assert_eq!(var(&v, "PLY"), "0 ($00)", "{cpu}");
        assert_eq!(var(&v, "DEPTH"), "2 ($02)", "{cpu}");
        let board = v.variables.iter().find(|x| x.name == "BOARD").unwrap();
        match &board.value {
            kempelen_adaptor::variables::Decoded::Board { placement, .. } => {
                assert_eq!(placement, fen.split(' ').next().unwrap(), "{cpu}")
            }
            d => panic!("{cpu}: {d:?}"),
        }
        // Into the first move made: step over genmoves, then to sr_made, a line of the
        // source by number.
        let made = s.resolve("sr_made").unwrap();
        let lines = &a.program_source().lines;
        let made_line = lines.at(made).unwrap().line;
        let by_line = s.resolve(&format!(":{made_line}")).unwrap();
        assert_eq!(by_line, made, "{cpu}");
        s.debugger().set_breakpoint(made);
        let st = s.run(u64::MAX / 4).unwrap();
        assert_eq!(st.why, Why::Breakpoint(made), "{cpu}");
        let v = s.view();
        assert!(
            var(&v, "MLCUR").starts_with("b1c3"),
            "{cpu}: {}",
            var(&v, "MLCUR")
        );
        // Step into search, step out of it again: back after the call.
        let into = s.step_over(1).unwrap();
        assert_eq!(into.why, Why::Done);
        loop {
            if s.machine().pc() == search {
                break;
            }
            s.step().unwrap();
        }
        s.debugger().clear_breakpoint(made);
        let out = s.step_out(u64::MAX / 4).unwrap();
        assert_eq!(out.why, Why::Done, "{cpu}");
        assert_eq!(
            var(&s.view(), "PLY"),
            "1 ($01)",
            "{cpu}: back in the root's loop, PLY not yet lowered"
        );
    }
}

#[test]
fn a_stop_is_reproduced_from_program_position_and_cycles() {
    for cpu in CPUS {
        let a = adaptor(cpu);
        let g = game(FENS[1]);
        let mut s = Session::open(Arc::clone(&a), &g, Some(2)).unwrap();
        let cut = s.resolve("sr_cut").unwrap();
        s.debugger().set_breakpoint(cut);
        s.run(u64::MAX / 4).unwrap();
        s.run(u64::MAX / 4).unwrap();
        let (cycles, view) = (s.cycles(), s.view());
        assert_eq!(view.pc, cut);
        let mut again = Session::open(Arc::clone(&a), &g, Some(2)).unwrap();
        // In slices, as a page does it.
        while !again.seek(cycles, 10_007).unwrap() {}
        let v2 = again.view();
        assert_eq!((v2.pc, v2.cycles), (view.pc, view.cycles), "{cpu}");
        let texts = |v: &kempelen_adaptor::session::StopView| {
            v.variables
                .iter()
                .map(|x| x.text.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(texts(&v2), texts(&view), "{cpu}");
        assert_eq!(v2.registers, view.registers, "{cpu}");
    }
}

#[test]
fn a_lesson_step_opens_at_its_routine() {
    for cpu in CPUS {
        let a = adaptor(cpu);
        for step in a.lessons() {
            let mut s = Session::open(Arc::clone(&a), &step.game().unwrap(), step.level).unwrap();
            assert!(
                s.run_to_lesson(step, u64::MAX / 4).unwrap(),
                "{cpu} step {}",
                step.step
            );
            assert_eq!(s.machine().pc(), step.at);
            let v = s.view();
            assert_eq!(v.label.as_deref(), Some(step.name.as_str()), "{cpu}");
            if step.when_text.is_some() {
                assert!(
                    v.variables
                        .iter()
                        .any(|x| x.name == "PLY" && x.text.starts_with("1 "))
                );
            }
        }
    }
}

#[test]
fn a_listing_is_laid_over_a_binary_where_the_code_is_the_same() {
    // The 6502 program assembled at $1000 is the "listing"; the "binary" is the same program
    // moved to $2000 with one routine changed (look's first instruction) and its tables read
    // elsewhere: the map finds the rest, names its labels at the binary's addresses, and says
    // where the binary differs.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../adaptors/minisearch");
    let text = std::fs::read_to_string(root.join("minisearch-6502.asm")).unwrap();
    let mut files = kempelen_adaptor::files::PickedFiles::new();
    files.add("listing.asm", text.clone().into_bytes());
    let moved = text.replace(".org $1000", ".org $2000").replace(
        "look:\n        ldx TO\n",
        "look:\n        ldx TO\n        nop\n        nop\n",
    );
    let binary = kempelen_asm::assemble_source(kempelen_asm::Cpu::Mos6502, "moved.asm", &moved);
    assert!(binary.is_ok(), "{}", binary.report());
    files.add("moved.bin", binary.image.bytes.clone());
    let adaptor_text = "name = \"moved\"\ncpu = \"6502\"\nentry = \"2000\"\n\
        [[image]]\nfile = \"moved.bin\"\nat = \"2000\"\n\
        [listing]\nfile = \"listing.asm\"\nassemble = { cpu = \"6502\" }\n\
        [keys]\nmove = \"M{from}{to}\"\n[reply]\npattern = 'move (?P<move>[a-h][1-8][a-h][1-8])'\n";
    let a = Adaptor::from_text(Path::new("moved.toml"), adaptor_text, &files).unwrap();
    let map = a.listing().unwrap().as_ref().unwrap();
    let symbols = &a.program_source().symbols;
    let at = |n: &str| symbols.get(n).unwrap_or_else(|| panic!("{n}"));
    let original = |n: &str| binary.symbols.get(n).unwrap_or_else(|| panic!("{n}"));
    for label in [
        "search",
        "genmoves",
        "gen_lines",
        "attacked",
        "sr_made",
        "go_done",
    ] {
        assert_eq!(at(label), original(label), "{label}");
    }
    // The changed routine: its two NOPs are the binary's own, reported.
    let look = original("look");
    assert!(
        map.differs
            .iter()
            .any(|d| d.first >= look && d.first <= look + 4),
        "{:?}",
        map.differs
    );
    assert!(map.matched > map.listing_instructions * 9 / 10, "{map:?}");
    let line = a.program_source().lines.at(at("search")).unwrap();
    assert!(line.text.contains("NODES"), "{}", line.text);
    assert_eq!(&*line.file, "listing.asm");
}

#[test]
fn declarations_that_do_not_fit_are_refused_at_their_place() {
    let text = std::fs::read_to_string(adaptor_path("z80")).unwrap();
    let dir = adaptor_path("z80");
    let bad = |from: &str, to: &str| {
        let t = text.replacen(from, to, 1);
        assert_ne!(t, text, "{from}");
        Adaptor::from_text(&dir, &t, &kempelen_adaptor::files::FileSystem)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_else(|| panic!("accepted: {to}"))
    };
    let e = bad("ply = \"PLY + 1\"\nvalue", "ply = \"PLY +\"\nvalue");
    assert!(e.contains("column 6"), "{e}");
    let e = bad("count = \"DEPTH + 1\"", "count = \"byte(DEPTH)\"");
    assert!(e.contains("write `DEPTH`"), "{e}");
    let e = bad("type = \"moves\"", "type = \"list\"");
    assert!(e.contains("type = `list`"), "{e}");
    let e = bad("move = \"MLCUR\"", "move = \"NOSUCH\"");
    assert!(e.contains("no [[variable]] `NOSUCH`"), "{e}");
    let e = bad("at = \"sr_cut\"", "at = \"no_label\"");
    assert!(e.contains("no_label"), "{e}");
    let e = bad("profile = \"minisearch\"", "profile = \"turing\"");
    assert!(e.contains("profile"), "{e}");
    let e = bad(
        "type = \"word\"\nat = \"NODES\"",
        "type = \"word\"\nat = \"NODES\"\nsise = 2",
    );
    assert!(
        e.contains("[[variable]] \"NODES\"") && e.contains("sise"),
        "{e}"
    );
}
