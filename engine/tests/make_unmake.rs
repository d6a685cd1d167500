//! Make/unmake keep every incremental term equal to a fresh computation: along a tree of moves
//! the position after `make` equals the one parsed from its own FEN (board, keys, material,
//! evaluation sum), and `unmake` restores the original exactly.

use kempelen_engine::eval::{evaluate, evaluate_from_scratch};
use kempelen_engine::{GenMode, MoveList, Position};

fn walk(pos: &mut Position, depth: u32) {
    if depth == 0 {
        return;
    }
    let before = pos.clone();
    let mut tactical = MoveList::new();
    pos.generate(&mut tactical, GenMode::Tactical);
    let all = pos.legal_moves();
    for &m in tactical.iter() {
        assert!(
            all.contains(m) && pos.is_tactical(m),
            "{m} in {}",
            pos.to_fen()
        );
    }
    let tactical_count = all.iter().filter(|&&m| pos.is_tactical(m)).count();
    assert_eq!(tactical.len(), tactical_count, "{}", pos.to_fen());
    for &m in all.iter() {
        let undo = pos.make(m);
        let fresh = Position::from_fen(&pos.to_fen()).unwrap();
        assert_eq!(pos.key(), fresh.key(), "key after {m}");
        assert_eq!(pos.key64(), fresh.key64(), "key64 after {m}");
        assert_eq!(*pos, fresh, "state after {m} from {}", before.to_fen());
        assert_eq!(evaluate(pos), evaluate_from_scratch(pos));
        walk(pos, depth - 1);
        pos.unmake(m, &undo);
        assert_eq!(*pos, before, "unmake {m}");
    }
}

#[test]
fn incremental_state_matches_fresh_positions() {
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    ] {
        let mut pos = Position::from_fen(fen).unwrap();
        walk(&mut pos, 3);
    }
}

#[test]
fn null_move_round_trips() {
    let mut pos =
        Position::from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
            .unwrap();
    let before = pos.clone();
    let undo = pos.make_null();
    assert_eq!(pos.ep_square(), 0x80);
    assert_eq!(pos.halfmove_clock(), 0);
    assert_eq!(pos.side(), 8);
    assert_eq!(
        pos.key(),
        before.key() ^ kempelen_engine::tables::ZOBRIST32.side
    );
    pos.unmake_null(&undo);
    assert_eq!(pos, before);
}
