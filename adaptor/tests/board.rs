//! The program's own board read from its RAM: a piece list as Microchess keeps it (the
//! position the adaptor wrote there, read back square by square from the program's side, and
//! the squares where it differs from the game after the program's move), and a whole 10 x 12
//! board as Sargon keeps it (pieces, colours and the "moved" marks that stand for castling
//! rights).

use kempelen_adaptor::board::{BoardError, BoardLayout, SquareDifference};
use kempelen_adaptor::{Adaptor, AdaptorEngine};
use kempelen_engine::{Engine, Game, Limits, Position, SearchControl};
use std::path::{Path, PathBuf};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/adaptor")
        .join(name)
}

fn diff(square: &str, game: Option<char>, program: Option<char>) -> SquareDifference {
    SquareDifference {
        square: square.into(),
        game,
        program,
    }
}

/// The piece-list toy (tests/data/adaptor/pieces-toy.toml) answers with its king one rank up
/// and leaves its list as it was: its board before the turn is the position written, and after
/// it differs from the game's by the king's move it did not make on its own board.
#[test]
fn a_piece_list_is_read_back_from_the_programs_side() {
    for (fen, placement, best) in [
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/8/4K3",
            "e1e2",
        ),
        (
            "r3k2r/pp3ppp/2n5/3q4/8/2N1B3/PPP2PPP/R2QK2R b KQkq - 0 12",
            "r3k2r/pp3ppp/2n5/3q4/8/2N1B3/PPP2PPP/R2QK2R",
            "e8e7",
        ),
    ] {
        let adaptor = Adaptor::from_file(&data("pieces-toy.toml")).unwrap();
        let mut engine = AdaptorEngine::with_thread(adaptor, false);
        let game = Game::from_fen(fen).unwrap();
        let limits = Limits {
            depth: Some(1),
            ..Limits::default()
        };
        let r = engine
            .search(&game, &limits, &SearchControl::default())
            .unwrap();
        let best_move = r.best.unwrap();
        assert_eq!(best_move.to_uci(), best);
        let boards = engine.last_boards().expect("the turn was reached").clone();
        let before = boards.before.unwrap();
        assert_eq!(before.layout, BoardLayout::PieceList);
        assert_eq!(before.placement(), placement, "{fen}");
        assert!(before.differences(game.position()).is_empty());
        assert_eq!(
            before.castling(),
            None,
            "a piece list keeps no castling rights"
        );
        let pieces = placement.chars().filter(char::is_ascii_alphabetic).count();
        assert_eq!(before.captured.len(), 32 - pieces);
        let after = boards.after.expect("it answered").unwrap();
        let mut played = game.clone();
        played.push(best_move).unwrap();
        let expected = if fen.contains(" w ") {
            vec![diff("e1", None, Some('K')), diff("e2", Some('K'), None)]
        } else {
            vec![diff("e7", Some('k'), None), diff("e8", None, Some('k'))]
        };
        assert_eq!(after.differences(played.position()), expected, "{fen}");
    }
}

/// The toy's adaptor with a `[ram_board]` that names every piece and the colour and moved
/// bits, as Sargon's does.
fn whole_board_adaptor(extra: &str) -> Adaptor {
    let path = data("behave-toy.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let text = text.replace(
        "pieces = { n = 2, q = 5 }",
        &format!("pieces = {{ p = 1, n = 2, b = 3, r = 4, q = 5, k = 6 }}\n{extra}"),
    );
    Adaptor::from_text(&path, &text, &kempelen_adaptor::files::FileSystem).unwrap()
}

/// The bytes of a 10 x 12 board holding `pos` as Sargon keeps it (border 0xFF), with the
/// squares of `moved` marked as moved.
fn board_10x12(pos: &Position, moved: &[&str]) -> Vec<u8> {
    let mut bytes = vec![0xFFu8; 120];
    let fen = pos.to_fen();
    let placement = fen.split(' ').next().unwrap();
    for (r, row) in placement.split('/').enumerate() {
        let rank = 7 - r;
        let mut file = 0;
        for c in row.chars() {
            if let Some(n) = c.to_digit(10) {
                for _ in 0..n {
                    bytes[21 + file + 10 * rank] = 0;
                    file += 1;
                }
                continue;
            }
            let kind = " pnbrqk".find(c.to_ascii_lowercase()).unwrap() as u8;
            let colour = if c.is_ascii_lowercase() { 0x80 } else { 0 };
            let name = format!("{}{}", (b'a' + file as u8) as char, rank + 1);
            let mark = if moved.contains(&name.as_str()) { 8 } else { 0 };
            bytes[21 + file + 10 * rank] = kind | colour | mark;
            file += 1;
        }
    }
    bytes
}

#[test]
fn a_whole_board_is_read_with_its_colours_and_moved_marks() {
    let adaptor = whole_board_adaptor("black = 128\nmoved = 8");
    let (at, len) = adaptor.board_memory().unwrap();
    assert_eq!((at, len), (0x4200, 99));
    let pos = Position::from_fen("r3k2r/pppq1ppp/2n5/8/8/2N5/PPPQ1PPP/R3K2R w KQkq - 0 9").unwrap();
    let board = adaptor
        .board_from_bytes(&board_10x12(&pos, &["d2", "c3", "d7", "c6"]), false)
        .unwrap();
    assert_eq!(board.layout, BoardLayout::Squares);
    assert_eq!(
        board.placement(),
        "r3k2r/pppq1ppp/2n5/8/8/2N5/PPPQ1PPP/R3K2R"
    );
    assert!(board.differences(&pos).is_empty());
    assert_eq!(board.castling().as_deref(), Some("KQkq"));
    // White's king and Black's a-rook marked moved: only Black's short castling is left.
    let board = adaptor
        .board_from_bytes(&board_10x12(&pos, &["e1", "a8"]), false)
        .unwrap();
    assert_eq!(board.castling().as_deref(), Some("k"));
    // A byte that names no piece is an error that says where.
    let mut bytes = board_10x12(&pos, &[]);
    bytes[21 + 4 + 30] = 7;
    assert_eq!(
        adaptor.board_from_bytes(&bytes, false),
        Err(BoardError::NotAPiece {
            program: "behaviour toy".into(),
            square: "e4".into(),
            addr: 0x4200 + 55,
            byte: 7,
        })
    );
    assert!(matches!(
        adaptor.board_from_bytes(&bytes[..50], false),
        Err(BoardError::Short {
            want: 99,
            got: 50,
            ..
        })
    ));
}

#[test]
fn a_board_without_colours_is_not_read_and_says_why() {
    // The shipped toy's [ram_board] names two pieces only (what a pawn becomes).
    let adaptor = Adaptor::from_file(&data("behave-toy.toml")).unwrap();
    assert_eq!(adaptor.board_memory(), None);
    let e = adaptor.board_from_bytes(&[0; 120], false).unwrap_err();
    assert!(matches!(e, BoardError::NotDescribed { .. }));
    assert!(
        e.to_string()
            .contains("does not say where it keeps its board"),
        "{e}"
    );
    // All six pieces without the colour bit: not enough either.
    assert_eq!(whole_board_adaptor("").board_memory(), None);
}
