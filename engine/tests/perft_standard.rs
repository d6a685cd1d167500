//! Perft of the six standard positions (the public reference counts, published and
//! cross-checked): depth 4 in the normal run, depths 5 and 6 as ignored tests
//! (`cargo test -p kempelen-engine --release -- --ignored`).

use kempelen_engine::{Position, perft};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POS3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const POS4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
const POS5: &str = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
const POS6: &str = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

const COUNTS: [(&str, [u64; 6]); 6] = [
    (START, [20, 400, 8902, 197281, 4865609, 119060324]),
    (KIWIPETE, [48, 2039, 97862, 4085603, 193690690, 8031647685]),
    (POS3, [14, 191, 2812, 43238, 674624, 11030083]),
    (POS4, [6, 264, 9467, 422333, 15833292, 706045033]),
    (POS5, [44, 1486, 62379, 2103487, 89941194, 3048196529]),
    (POS6, [46, 2079, 89890, 3894594, 164075551, 6923051137]),
];

fn check(index: usize, max_depth: u32) {
    let (fen, counts) = COUNTS[index];
    let pos = Position::from_fen(fen).unwrap();
    for depth in 1..=max_depth {
        assert_eq!(
            perft(&pos, depth),
            counts[depth as usize - 1],
            "{fen} depth {depth}"
        );
    }
}

fn check_depth(index: usize, depth: u32) {
    let (fen, counts) = COUNTS[index];
    let pos = Position::from_fen(fen).unwrap();
    assert_eq!(
        perft(&pos, depth),
        counts[depth as usize - 1],
        "{fen} depth {depth}"
    );
}

macro_rules! standard {
    ($($name:ident $deep5:ident $deep6:ident = $i:expr;)*) => {$(
        #[test]
        fn $name() {
            check($i, 4);
        }
        #[test]
        #[ignore = "deep perft: run with --ignored (release recommended)"]
        fn $deep5() {
            check_depth($i, 5);
        }
        #[test]
        #[ignore = "deep perft: run with --ignored (release recommended)"]
        fn $deep6() {
            check_depth($i, 6);
        }
    )*};
}

standard! {
    start_to_depth_4 start_depth_5 start_depth_6 = 0;
    kiwipete_to_depth_4 kiwipete_depth_5 kiwipete_depth_6 = 1;
    pos3_to_depth_4 pos3_depth_5 pos3_depth_6 = 2;
    pos4_to_depth_4 pos4_depth_5 pos4_depth_6 = 3;
    pos5_to_depth_4 pos5_depth_5 pos5_depth_6 = 4;
    pos6_to_depth_4 pos6_depth_5 pos6_depth_6 = 5;
}

#[test]
fn mirrored_pos4_matches() {
    // The colour-mirrored twin of position 4 must give the same counts.
    let pos =
        Position::from_fen("r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1")
            .unwrap();
    assert_eq!(perft(&pos, 3), 9467);
    assert_eq!(perft(&pos, 4), 422333);
}
