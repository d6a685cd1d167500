//! The 8-bit search read node by node from the machine (kempelen_roms::inspect) is the native
//! reference's tree: the same nodes in the same order, each with the same move, ply, kind,
//! alpha and beta on entry and backed-up value, on both CPUs; and what a pause shows of the
//! engine (board in RAM, ply frames, routine) agrees with the walker.

use kempelen_engine::tree::{Algorithm, Lesson, LessonConfig};
use kempelen_engine::{Move, Position};
use kempelen_roms::inspect::{NodeWalker, Walk};
use kempelen_roms::{PortEngine, port};

const POSITIONS: [(&str, u32); 4] = [
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        3,
    ),
    // Kiwipete: captures, castling, promotions nearby, null moves.
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        2,
    ),
    // An endgame: the null move is off (little material), checks.
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 3),
    // After 1.e4 e5 2.Nf3 Nc6 3.d4: the lesson's reference tree (SEARCH.md), with null moves.
    (
        "r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 3",
        3,
    ),
];

/// (ply, move, kind, alpha, beta, score, iteration) of every node.
type Row = (usize, Option<Move>, String, i32, i32, Option<i32>, u32);

fn native(pos: &Position, depth: u32) -> Vec<Row> {
    let mut cfg = LessonConfig::of(Algorithm::Reference);
    cfg.trace = true;
    cfg.trace_every_iteration = true;
    let r = Lesson::new(pos, &[], cfg).run(depth);
    r.trace
        .iter()
        .map(|n| {
            let kind = format!("{:?}", n.kind);
            (
                n.ply,
                n.mv,
                kind,
                n.alpha,
                n.beta,
                Some(n.score),
                n.iteration,
            )
        })
        .collect()
}

fn walked(engine: &PortEngine, pos: &Position, depth: u32) -> (Vec<Row>, NodeWalker) {
    let (mut w, mut m) = NodeWalker::machine(engine, pos, &[], depth).unwrap();
    // Small slices, as the page's worker runs it.
    while w.run(&mut m, 200_000).unwrap() == Walk::Running {}
    let rows = w
        .nodes()
        .iter()
        .map(|n| {
            let kind = format!("{:?}", n.kind);
            (n.ply, n.mv, kind, n.alpha, n.beta, n.score, n.iteration)
        })
        .collect();
    (rows, w)
}

#[test]
fn the_8_bit_tree_is_the_native_tree_node_for_node() {
    for p in port::Port::present() {
        let engine = PortEngine::shared(p).unwrap();
        for (fen, depth) in POSITIONS {
            let pos = Position::from_fen(fen).unwrap();
            let want = native(&pos, depth);
            let (have, w) = walked(engine, &pos, depth);
            let first_difference = want.iter().zip(&have).position(|(a, b)| a != b);
            assert_eq!(
                first_difference,
                None,
                "{}: {fen} depth {depth}: node {first_difference:?}: native {:?}, {} {:?}",
                p.name,
                first_difference.map(|i| &want[i]),
                p.name,
                first_difference.map(|i| &have[i]),
            );
            assert_eq!(have.len(), want.len(), "{}: {fen} depth {depth}", p.name);
            assert!(w.is_done() && w.path().is_empty());
            // The entry cycles grow with the visit order.
            assert!(w.nodes().windows(2).all(|n| n[0].cycles < n[1].cycles));
        }
    }
}

#[test]
fn a_pause_shows_the_board_the_frames_and_the_routine() {
    for p in port::Port::present() {
        let engine = PortEngine::shared(p).unwrap();
        let pos = Position::from_fen(POSITIONS[1].0).unwrap();
        let (mut w, mut m) = NodeWalker::machine(engine, &pos, &[], 2).unwrap();
        // Until a node two plies down is entered.
        while w.path().len() < 3 {
            assert_eq!(w.run(&mut m, 1).unwrap(), Walk::Running);
        }
        let view = w.map().view(&m);
        let path = w.path();
        assert_eq!(view.ply, Some(2), "{}", p.name);
        assert_eq!(u32::from(view.iteration), path[2].iteration);
        // One instruction after the node entry: in the entry's routine, or in the node
        // counter it calls first.
        let routine = view.routine.clone().unwrap();
        assert!(
            ["search", "quiesce", "count_node"]
                .iter()
                .any(|r| routine.starts_with(r)),
            "{}: {routine}",
            p.name
        );
        // The board in RAM is the position the walker replayed along the engine's moves.
        let at = w.nodes().len() - 1;
        let replayed = w.position_at(at).unwrap();
        let in_ram = view.board.position().unwrap();
        assert_eq!(in_ram.board(), replayed.board(), "{}", p.name);
        assert_eq!(in_ram.side(), replayed.side());
        // The frames are the open nodes' frames, with the windows they were entered with (the
        // child's, just entered: its alpha cannot have risen yet).
        let frames: Vec<u16> = view.path.iter().map(|f| f.addr).collect();
        let open: Vec<u16> = path.iter().map(|n| n.frame).collect();
        assert_eq!(frames, open, "{}", p.name);
        let last = view.path.last().unwrap();
        assert_eq!((last.alpha, last.beta), (path[2].alpha, path[2].beta));
        // Every ply above holds its frame and lists: the RAM of the ply.
        assert!(
            view.path[..2]
                .iter()
                .all(|f| f.bytes.is_some_and(|b| b > 30 && b < 1024))
        );
        assert_eq!(view.nodes as usize, w.nodes().len() - 1);
    }
}

/// Before the engine has set up its first frame (the machine at its first instruction), no
/// frame claims a size: the RAM between the frames and address 0 is no ply's.
#[test]
fn a_frame_not_set_up_claims_no_ram() {
    for p in port::Port::present() {
        let engine = PortEngine::shared(p).unwrap();
        let (w, m) = NodeWalker::machine(engine, &Position::startpos(), &[], 2).unwrap();
        let view = w.map().view(&m);
        assert!(
            view.path.iter().all(|f| f.bytes.is_none()),
            "{}: {:?}",
            p.name,
            view.path
        );
    }
}
