//! The reference profile's fingerprint (`tests/data/reference_depth5.epd`): best move, score,
//! node count and principal variation at depth 5 on the bench positions. The 8-bit ports are
//! compared with the native reference, so any change to these numbers is a change of the
//! reference algorithm and must be deliberate (with `docs/ALGORITHM.md` changed to match).

use kempelen_engine::{Position, ReferenceLimits, reference};

const DATA: &str = include_str!("data/reference_depth5.epd");

/// The value of an EPD opcode on a line (unquoted).
fn opcode<'a>(line: &'a str, name: &str) -> &'a str {
    line.split(';')
        .map(str::trim)
        .find_map(|op| {
            op.strip_prefix(name)
                .and_then(|rest| rest.strip_prefix(' '))
        })
        .unwrap_or_else(|| panic!("opcode {name} missing: {line}"))
        .trim_matches('"')
}

fn check_line(line_number: usize) {
    let line = DATA.lines().nth(line_number - 1).expect("line exists");
    let fen = line.split(';').next().unwrap();
    let pos = Position::from_fen(fen).unwrap();
    let r = reference::search(&pos, &[], ReferenceLimits::depth(5));
    let id = opcode(line, "id");
    assert_eq!(r.depth, 5);
    assert_eq!(
        r.nodes,
        opcode(line, "acn").parse::<u64>().unwrap(),
        "{id}: nodes"
    );
    assert_eq!(
        r.score,
        opcode(line, "ce").parse::<i32>().unwrap(),
        "{id}: score"
    );
    assert_eq!(
        r.best,
        Some(pos.parse_san(opcode(line, "bm")).unwrap()),
        "{id}: best move"
    );
    let mut p = pos.clone();
    let mut pv = Vec::new();
    for san in opcode(line, "pv").split_whitespace() {
        let m = p.parse_san(san).unwrap();
        p.play(m);
        pv.push(m);
    }
    assert_eq!(r.pv, pv, "{id}: principal variation");
}

macro_rules! lines {
    ($($name:ident = $n:expr;)*) => {$(
        #[test]
        fn $name() {
            check_line($n);
        }
    )*};
}

lines! {
    start_position = 5;
    kiwipete = 6;
    perft_position_3 = 7;
    perft_position_4 = 8;
    perft_position_5 = 9;
    perft_position_6 = 10;
    scholars_mate_threat = 11;
    dragon_yugoslav = 12;
    queens_gambit_middlegame = 13;
    dragon_opposite_castling = 14;
    sicilian_scheveningen = 15;
    back_rank_mate = 16;
    bishop_against_pawn = 17;
    pawn_ending = 18;
    rook_ending = 19;
    king_and_pawn = 20;
}

#[test]
fn every_data_line_has_a_test() {
    let data_lines = DATA
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .count();
    assert_eq!(data_lines, 16);
}
