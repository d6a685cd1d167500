//! Parses the tables printed in `docs/ALGORITHM.md` and compares them with the engine's
//! constants, so the document and the reference implementation cannot drift apart.

use kempelen_engine::engine::{INF, MATE};
use kempelen_engine::reference::{MAX_DEPTH, MAX_PLY};
use kempelen_engine::tables::*;

fn doc() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/ALGORITHM.md");
    std::fs::read_to_string(path).expect("docs/ALGORITHM.md")
}

/// The 8 rows of numbers in the code block following `heading`, as printed (rank 8 first).
fn printed_table(doc: &str, heading: &str) -> Vec<i32> {
    let at = doc
        .find(heading)
        .unwrap_or_else(|| panic!("heading '{heading}' not found"));
    let block = &doc[at..];
    let start = block.find("```").unwrap() + 3;
    let end = start + block[start..].find("```").unwrap();
    let values: Vec<i32> = block[start..end]
        .split_whitespace()
        .map(|w| w.parse().unwrap())
        .collect();
    assert_eq!(values.len(), 64, "{heading}");
    values
}

/// The first line of `doc` that `is_it` picks (`what` names it) and the line after it.
fn line_and_next<'a>(
    doc: &'a str,
    what: &str,
    is_it: impl Fn(&str) -> bool,
) -> (&'a str, Option<&'a str>) {
    let mut lines = doc.lines().skip_while(|l| !is_it(l));
    let line = lines.next().unwrap_or_else(|| panic!("{what} not found"));
    (line, lines.next())
}

fn as_sq64(printed: &[i32]) -> Vec<i32> {
    (0..64).map(|s| printed[s ^ 56]).collect()
}

#[test]
fn piece_square_tables_match() {
    let d = doc();
    for (heading, t) in [
        ("PST pawn:", 1),
        ("PST knight:", 2),
        ("PST bishop:", 3),
        ("PST rook:", 4),
        ("PST queen:", 5),
        ("PST king (middle game):", 6),
    ] {
        let expected = as_sq64(&printed_table(&d, heading));
        let actual: Vec<i32> = PST[t].iter().map(|&v| v as i32).collect();
        assert_eq!(actual, expected, "{heading}");
    }
    let expected = as_sq64(&printed_table(&d, "PST king (endgame):"));
    let actual: Vec<i32> = PST_KING_END.iter().map(|&v| v as i32).collect();
    assert_eq!(actual, expected, "endgame king table");
}

#[test]
fn material_values_and_endgame_threshold_match() {
    let d = doc();
    let (line, _) = line_and_next(&d, "VALUE line", |l| l.starts_with("`VALUE` ="));
    let numbers: Vec<i16> = line
        .split([',', ' ', '.'])
        .filter_map(|w| w.parse().ok())
        .collect();
    assert_eq!(numbers, VALUE[1..].to_vec());
    assert!(d.contains(&format!("`npm[white] + npm[black] <= {ENDGAME_NPM}`")));
}

#[test]
fn castling_masks_match() {
    let d = doc();
    let (line, next) = line_and_next(&d, "MASK line", |l| l.contains("where `MASK` is"));
    let text = format!("{line} {}", next.expect("the line after the MASK line"));
    assert!(text.contains("`0x0F` everywhere except"));
    for (name, sq) in [
        ("a1", 0x00),
        ("e1", 0x04),
        ("h1", 0x07),
        ("a8", 0x70),
        ("e8", 0x74),
        ("h8", 0x77),
    ] {
        let expected = format!("{name} `0x{:02X}`", CASTLE_MASK[sq]);
        assert!(text.contains(&expected), "{expected} in: {text}");
    }
    let special = [0x00, 0x04, 0x07, 0x70, 0x74, 0x77];
    for (sq, &mask) in CASTLE_MASK.iter().enumerate() {
        if !special.contains(&sq) {
            assert_eq!(mask, 0x0F);
        }
    }
}

#[test]
fn zobrist_generator_matches() {
    let d = doc();
    assert!(d.contains("x ^= x << 13;  x ^= x >> 17;  x ^= x << 5;"));
    assert!(d.contains(&format!("x = 0x{ZOBRIST_SEED:08X}")));
    // Order: white then black, pawn..king, sq64 0..63, then side, then castling bits 0..3.
    let mut x = ZOBRIST_SEED;
    for c in 0..2 {
        for t in 1..=6 {
            for s in 0..64 {
                x = xorshift32(x);
                assert_eq!(ZOBRIST32.piece[c][t][s], x);
            }
        }
    }
    x = xorshift32(x);
    assert_eq!(ZOBRIST32.side, x);
    for key in ZOBRIST32.castling {
        x = xorshift32(x);
        assert_eq!(key, x);
    }
}

#[test]
fn ordering_keys_match() {
    let d = doc();
    for (row, key) in [
        ("| 255 | the principal-variation move", KEY_PV),
        (
            "| 160 | non-capturing promotion to a queen",
            KEY_QUEEN_PROMOTION,
        ),
        ("| 150 | the first killer move", KEY_KILLER1),
        ("| 140 | the second killer move", KEY_KILLER2),
        ("| 1 | every other move", KEY_OTHER),
    ] {
        let printed: u8 = row[2..].split(' ').next().unwrap().parse().unwrap();
        assert_eq!(printed, key, "{row}");
        assert!(d.contains(row), "row '{row}' missing");
    }
    assert!(d.contains(&format!("| `{KEY_CAPTURE} + 8 * V - A` | captures")));
    assert!(d.contains("range 162 ... 199"));
    assert_eq!(KEY_CAPTURE + 8 - 6, 162);
    assert_eq!(KEY_CAPTURE + 8 * 5 - 1, 199);
}

#[test]
fn generation_order_matches() {
    let d = doc().split_whitespace().collect::<Vec<_>>().join(" ");
    let list = |v: &[i8]| {
        v.iter()
            .map(|o| {
                if *o > 0 {
                    format!("+{o}")
                } else {
                    o.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    for (text, what) in [
        (
            format!("offsets in the order {}", list(&KNIGHT_OFFSETS)),
            "knight",
        ),
        (
            format!("**Bishop**: directions {}.", list(&BISHOP_DIRS)),
            "bishop",
        ),
        (format!("**Rook**: {}.", list(&ROOK_DIRS)), "rook"),
        (format!("**Queen**: {}.", list(&KING_DIRS)), "queen"),
        (
            format!("one step in the directions {}", list(&KING_DIRS)),
            "king",
        ),
        (
            "in the order queen, rook, bishop, knight".to_string(),
            "promotions",
        ),
    ] {
        assert!(d.contains(&text), "{what}: '{text}' not in the document");
    }
}

#[test]
fn bounds_and_scores_match() {
    let d = doc();
    assert!(d.contains(&format!("`MATE = {MATE}`, `INF = {INF}`")));
    assert!(d.contains(&format!("| `MAX_DEPTH` | {MAX_DEPTH} ")));
    assert!(d.contains(&format!("| `MAX_PLY` | {MAX_PLY} ")));
}
