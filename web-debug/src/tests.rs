//! The debugger on minisearch (bundled, no copyrighted program): its text with each line's
//! address and cycles, stepping, a label and a line to run to, breakpoints, the declared
//! variables at a pause, a pause reproduced from its cycles, a lesson step, files by contents.

use super::*;

const FEN: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";

fn open(id: &str) -> Stepper {
    let spec = OpenSpec {
        program: id.into(),
        fen: Some(FEN.into()),
        moves: vec![],
        depth: Some(2),
    };
    Stepper::open(&spec, &[]).unwrap()
}

/// Pursues the goal of `action` to its end.
fn run(s: &mut Stepper, action: Action) -> Report {
    let mut r = s.act(&action, 1 << 16).unwrap();
    while r.pending {
        r = s.resume(1 << 16).unwrap();
    }
    r
}

#[test]
fn the_code_column_is_the_programs_own_text_with_addresses_and_cycles() {
    for id in ["minisearch-z80", "minisearch-6502"] {
        let s = open(id);
        let src = s.source();
        assert_eq!(src.files.len(), 1, "{id}");
        let file = &src.files[0];
        assert!(file.name.ends_with(".asm"));
        let bundled = program(id).unwrap().bundled[0].1;
        assert_eq!(file.lines.len(), bundled.lines().count());
        assert!(
            src.code.len() > 100,
            "{id}: {} lines of code",
            src.code.len()
        );
        for c in &src.code {
            let text = &file.lines[c.line as usize - 1];
            assert!(!text.trim().is_empty(), "{id}: line {} is code", c.line);
            assert!(!c.cycles.is_empty(), "{id}: line {} has cycles", c.line);
        }
        let search = src
            .labels
            .iter()
            .find(|(n, _)| n == "search")
            .expect("search");
        assert!(src.code.iter().any(|c| c.addr == search.1));
    }
}

#[test]
fn stepping_runs_to_labels_lines_and_breakpoints_and_decodes_the_variables() {
    for id in ["minisearch-z80", "minisearch-6502"] {
        let mut s = open(id);
        assert_eq!(s.cycles(), 0);
        run(
            &mut s,
            Action::To {
                target: "search".into(),
            },
        );
        let st = s.state(None);
        assert_eq!(st.stop.label.as_deref(), Some("search"), "{id}");
        let line = st.stop.source.clone().expect("a source line");
        let src = s.source();
        assert_eq!(
            src.files[0].lines[line.line as usize - 1],
            line.text,
            "{id}"
        );
        // The label stands on a line of its own just above (the listing's way).
        let above = &src.files[0].lines[..line.line as usize - 1];
        assert!(
            above.iter().rev().take(3).any(|l| l.starts_with("search:")),
            "{id}"
        );
        let ply = st.stop.variables.iter().find(|v| v.name == "PLY").unwrap();
        assert!(
            matches!(ply.value, kempelen_adaptor::variables::Decoded::Number(0)),
            "{id}: {ply:?}"
        );
        let board = st
            .stop
            .variables
            .iter()
            .find(|v| v.name == "BOARD")
            .unwrap();
        assert!(board.text.contains('r'), "{id}: {}", board.text);
        // One instruction on, the PC is the next line's.
        let before = s.cycles();
        run(&mut s, Action::Step);
        assert!(s.cycles() > before);
        // A breakpoint at the label, then Continue stops there again: the next node.
        run(
            &mut s,
            Action::Break {
                target: "search".into(),
            },
        );
        assert_eq!(s.state(None).breakpoints.len(), 1);
        run(&mut s, Action::Continue);
        let again = s.state(None);
        assert_eq!(again.stop.label.as_deref(), Some("search"), "{id}");
        let ply = again
            .stop
            .variables
            .iter()
            .find(|v| v.name == "PLY")
            .unwrap();
        assert!(
            matches!(ply.value, kempelen_adaptor::variables::Decoded::Number(1)),
            "{id}: {ply:?}"
        );
        // Step out of the node (the breakpoint cleared): back in its caller, past the call.
        run(
            &mut s,
            Action::Break {
                target: "search".into(),
            },
        );
        assert!(s.state(None).breakpoints.is_empty());
        run(&mut s, Action::Out);
        let out = s.state(None);
        assert_ne!(out.stop.label.as_deref(), Some("search"));
        // A line of the text: the first code at or after it.
        let src = s.source();
        let c = &src.code[src.code.len() / 2];
        let r = run(
            &mut s,
            Action::To {
                target: format!(":{}", c.line),
            },
        );
        if !s.state(None).stop.over {
            assert_eq!(s.state(None).stop.pc, c.addr, "{id}: line {}", c.line);
        }
        // The pause is reproduced from the program, the position and the cycles.
        let mut t = open(id);
        run(&mut t, Action::Until { cycles: r.cycles });
        assert_eq!(t.cycles(), r.cycles);
        assert_eq!(t.state(None).stop.pc, s.state(None).stop.pc);
        // Continue to the end of the turn: it answers a move.
        run(&mut s, Action::Continue);
        let end = s.state(None);
        assert!(end.stop.over, "{id}");
        assert!(end.printed.contains("move "), "{id}: {}", end.printed);
        assert!(s.act(&Action::Step, 1).is_err());
    }
}

#[test]
fn every_instruction_run_has_its_cycles_and_they_add_up_to_the_turns() {
    for id in ["minisearch-z80", "minisearch-6502"] {
        let mut s = open(id);
        assert!(s.state(None).spent.is_empty(), "{id}: nothing run yet");
        run(
            &mut s,
            Action::To {
                target: "search".into(),
            },
        );
        let sum = |st: &State| st.spent.iter().map(|x| x.cycles).sum::<u64>();
        let at_search = s.state(None);
        assert_eq!(sum(&at_search), s.cycles(), "{id}");
        assert_eq!(
            at_search.spent_outside, 0,
            "{id}: no routine served by the host"
        );
        // The instruction at the PC has not run yet: the first node begins there.
        assert!(at_search.spent.iter().all(|x| x.addr != at_search.stop.pc));
        // One instruction on: it is counted once, with its cycles.
        run(&mut s, Action::Step);
        let stepped = s.state(None);
        let first = stepped
            .spent
            .iter()
            .find(|x| x.addr == at_search.stop.pc)
            .expect("the stepped instruction");
        assert_eq!(first.executions, 1, "{id}");
        assert_eq!(first.cycles, s.cycles() - sum(&at_search), "{id}");
        // The whole turn: every instruction's cycles add up to the turn's, and the code
        // column knows every address that ran (the program's own text).
        run(&mut s, Action::Continue);
        let end = s.state(None);
        assert!(end.stop.over, "{id}");
        assert_eq!(sum(&end), s.cycles(), "{id}");
        let src = s.source();
        for x in &end.spent {
            assert!(
                src.code.iter().any(|c| c.addr == x.addr),
                "{id}: ${:04X} ran but is no line of the text",
                x.addr
            );
        }
        // A pause reopened from its cycles has the same counts.
        let mut t = open(id);
        run(
            &mut t,
            Action::Until {
                cycles: s.cycles() / 2,
            },
        );
        let half = t.state(None);
        assert_eq!(sum(&half), t.cycles(), "{id}");
    }
}

#[test]
fn a_bad_target_and_a_bad_position_are_named() {
    let mut s = open("minisearch-z80");
    let e = s
        .act(
            &Action::To {
                target: "NOWHERE".into(),
            },
            10,
        )
        .unwrap_err();
    assert!(e.to_string().contains("`NOWHERE`"), "{e}");
    let spec = OpenSpec {
        program: "minisearch-z80".into(),
        fen: Some("8/8/8/8 w - - 0 1".into()),
        moves: vec![],
        depth: None,
    };
    assert!(matches!(
        Stepper::open(&spec, &[]),
        Err(DebugError::Position(_))
    ));
    let spec = OpenSpec {
        program: "gnuchess".into(),
        ..spec
    };
    assert!(matches!(
        Stepper::open(&spec, &[]),
        Err(DebugError::Program(_))
    ));
}

#[test]
fn a_lesson_step_opens_at_its_routine() {
    let s = Stepper::open_lesson("minisearch-z80", 2, &[], 1 << 30).unwrap();
    let mut s = s;
    assert_eq!(s.state(None).stop.label.as_deref(), Some("sr_cut"));
    assert!(s.lessons().len() >= 2);
}

#[test]
fn the_historical_programs_ask_for_their_files_by_contents() {
    let sargon = program("sargon-book").unwrap();
    let need = needed(sargon, &[("x.asm".into(), b"not it".to_vec())]);
    assert_eq!(need.len(), 1);
    assert_eq!(need[0].name, "sargon2.asm");
    assert!(need[0].picked_as.is_none());
    let micro = needed(program("microchess").unwrap(), &[]);
    let roles: Vec<&str> = micro.iter().map(|n| n.role).collect();
    assert_eq!(roles, ["program", "listing"]);
    let spec = OpenSpec {
        program: "sargon-book".into(),
        fen: None,
        moves: vec![],
        depth: None,
    };
    let e = Stepper::open(&spec, &[]).err().unwrap().to_string();
    assert!(e.contains("pick sargon2.asm"), "{e}");
}

/// With KEMPELEN_HISTORICAL: Sargon (the book's text) and Microchess (with Rictor's listing)
/// open on a middlegame, run to a label of their listings, and show their variables.
#[test]
#[ignore = "needs the historical programs (KEMPELEN_HISTORICAL)"]
fn the_historical_programs_step_through_their_listings() {
    let dir = std::env::var("KEMPELEN_HISTORICAL").expect("KEMPELEN_HISTORICAL");
    let file = |n: &str| {
        (
            format!("copy of {n}"),
            std::fs::read(Path::new(&dir).join(n)).unwrap(),
        )
    };
    for (id, files, label, var) in [
        ("sargon-book", vec![file("sargon2.asm")], "FNDMOV", "NPLY"),
        (
            "microchess",
            vec![file("microchess.h65"), file("microchess_drictor.asm")],
            "GNM",
            "BESTV",
        ),
    ] {
        let spec = OpenSpec {
            program: id.into(),
            fen: Some(FEN.into()),
            moves: vec![],
            depth: None,
        };
        let mut s = Stepper::open(&spec, &files).unwrap();
        let src = s.source();
        assert!(
            src.code.len() > 300,
            "{id}: {} lines of code",
            src.code.len()
        );
        run(
            &mut s,
            Action::To {
                target: label.into(),
            },
        );
        let st = s.state(None);
        assert_eq!(st.stop.label.as_deref(), Some(label), "{id}");
        assert!(st.stop.source.as_ref().unwrap().comment.is_some() || id == "microchess");
        assert!(st.stop.variables.iter().any(|v| v.name == var), "{id}");
        run(&mut s, Action::Continue);
        let end = s.state(None);
        assert!(end.stop.over, "{id}");
        // The heat map's counts: every instruction run; with the cycles of the routines the
        // host serves (Sargon's monitor calls on the Jupiter III), the turn's cycles.
        let spent: u64 = end.spent.iter().map(|x| x.cycles).sum();
        assert_eq!(spent + end.spent_outside, s.cycles(), "{id}");
        let served = !s.session.machine().traps().is_empty();
        assert_eq!(end.spent_outside > 0, served, "{id}: {}", end.spent_outside);
        assert!(
            end.spent.len() > 100,
            "{id}: {} instructions",
            end.spent.len()
        );
    }
}

#[test]
fn the_programs_tree_is_its_profiles_node_for_node_on_minisearch() {
    for id in ["minisearch-z80", "minisearch-6502"] {
        let spec = OpenSpec {
            program: id.into(),
            fen: Some(FEN.into()),
            moves: vec![],
            depth: Some(2),
        };
        let mut job = crate::tree::TreeJob::open(&spec, &[]).unwrap();
        let mut slices = 0;
        let mut drawn: Vec<crate::tree::PageNode> = Vec::new();
        while !job.advance(1 << 16).unwrap() {
            slices += 1;
            // The tree while it grows: each node once, its parent drawn before it.
            let fresh = job.nodes_from(drawn.len());
            for n in &fresh {
                assert!(
                    n.parent
                        .is_none_or(|p| (p as usize) < drawn.len() + fresh.len())
                );
            }
            drawn.extend(fresh);
        }
        assert!(!drawn.is_empty(), "{id}: nodes shown before the turn ended");
        assert!(slices > 1, "{id}: collected in slices");
        let t = job.finish().unwrap();
        let profile = t.profile.expect("its profile's tree");
        let n = t.program.nodes.len();
        assert!(n > 50, "{id}: {n} nodes");
        assert_eq!((t.agree, t.found), (n, n), "{id}");
        assert_eq!(profile.nodes.len(), n, "{id}");
        // The nodes drawn while it grew are the first of the whole tree, move for move.
        for (a, b) in drawn.iter().zip(&t.program.nodes) {
            assert_eq!((a.parent, &a.mv), (b.parent, &b.mv), "{id}");
        }
        assert!(t.program.nodes.iter().all(|x| x.mark == "="), "{id}");
        let cut = t
            .program
            .nodes
            .iter()
            .find(|x| x.cutoff)
            .expect("a cut-off");
        assert!(
            cut.note.as_ref().unwrap()[0].starts_with("not searched: "),
            "{id}"
        );
        assert_eq!(
            t.program.nodes[1].san.as_deref().map(|s| !s.is_empty()),
            Some(true)
        );
        assert!(
            t.printed.contains(&format!("nodes {n}")),
            "{id}: {}",
            t.printed
        );
    }
}
