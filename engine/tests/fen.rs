//! FEN parsing and printing: round trips, and one test per refusal reason, each checking the
//! field that is named.

use kempelen_engine::{FenField, FenReason, Position};

fn refused(fen: &str) -> (FenField, FenReason) {
    let e = Position::from_fen(fen).expect_err(fen);
    // The message names the field and the reason.
    let text = e.to_string();
    assert!(text.starts_with("invalid FEN, "), "{text}");
    (e.field, e.reason)
}

macro_rules! refusal {
    ($($name:ident: $fen:expr => $field:ident, $pat:pat,)*) => {$(
        #[test]
        fn $name() {
            let (field, reason) = refused($fen);
            assert_eq!(field, FenField::$field, "{reason:?}");
            assert!(matches!(reason, $pat), "{reason:?}");
        }
    )*};
}

refusal! {
    too_few_fields: "8/8/8/8/8/8/8/8 w" => Record, FenReason::FieldCount(2),
    too_many_fields: "4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra" => Record, FenReason::FieldCount(7),
    five_fields: "4k3/8/8/8/8/8/8/4K3 w - - 0" => Record, FenReason::FieldCount(5),
    adjacent_digits: "4k3/44/8/8/8/8/8/4K3 w - - 0 1" => Board, FenReason::AdjacentDigits { rank: 7, .. },
    adjacent_digits_after_a_piece: "4k3/8/8/8/8/8/8/K16 w - - 0 1" => Board, FenReason::AdjacentDigits { rank: 1, .. },
    seven_ranks: "4k3/8/8/8/8/8/4K3 w - - 0 1" => Board, FenReason::RankCount(7),
    rank_too_long: "4k3/9/8/8/8/8/8/4K3 w - - 0 1" => Board, FenReason::BadChar('9'),
    rank_too_short: "4k3/7/8/8/8/8/8/4K3 w - - 0 1" => Board, FenReason::RankLength { rank: 7, squares: 7 },
    rank_overfull: "4k3/8/8/8/8/8/8/4K3p w - - 0 1" => Board, FenReason::RankLength { rank: 1, squares: 9 },
    bad_piece_letter: "4k3/8/8/8/8/8/8/4X3 w - - 0 1" => Board, FenReason::BadChar('X'),
    missing_white_king: "4k3/8/8/8/8/8/8/8 w - - 0 1" => Board, FenReason::MissingKing("White"),
    missing_black_king: "8/8/8/8/8/8/8/4K3 w - - 0 1" => Board, FenReason::MissingKing("Black"),
    two_kings: "4k3/8/8/8/8/8/8/3KK3 w - - 0 1" => Board, FenReason::ExtraKing("White"),
    pawn_on_rank_8: "3Pk3/8/8/8/8/8/8/4K3 w - - 0 1" => Board, FenReason::PawnOnBackRank(_),
    pawn_on_rank_1: "4k3/8/8/8/8/8/8/p3K3 w - - 0 1" => Board, FenReason::PawnOnBackRank(_),
    nine_pawns: "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1" => Board, FenReason::TooManyPieces("White"),
    too_many_queens: "4k3/8/8/8/QQQQ4/QQQQQ3/PP6/4K3 w - - 0 1" => Board, FenReason::TooManyPieces("White"),
    side_not_to_move_in_check: "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1" => SideToMove, FenReason::OpponentInCheck,
    kings_adjacent: "8/8/8/8/8/8/3k4/4K3 w - - 0 1" => SideToMove, FenReason::OpponentInCheck,
    triple_check: "4k3/8/3N4/1B6/8/8/8/4RK2 b - - 0 1" => Board, FenReason::ImpossibleCheck(_),
    two_knights_check: "4k3/2N3N1/8/8/8/8/8/5K2 b - - 0 1" => Board, FenReason::ImpossibleCheck(_),
    pawn_and_knight_check: "4k3/3P4/5N2/8/8/8/8/5K2 b - - 0 1" => Board, FenReason::ImpossibleCheck(_),
    checks_from_both_sides_of_a_line: "R3k2R/8/8/8/8/8/8/5K2 b - - 0 1" => Board, FenReason::ImpossibleCheck(_),
    check_older_than_the_double_push: "3k4/8/8/3pP3/8/8/8/3K3r w - d6 0 1" => Board, FenReason::ImpossibleCheck(_),
    check_before_the_double_push: "8/8/8/3pP3/8/8/8/r3K1k1 w - d6 0 1" => Board, FenReason::ImpossibleCheck(_),
    two_checks_after_a_double_push: "8/8/8/2kpP3/8/8/8/r3K3 w - d6 0 1" => Board, FenReason::ImpossibleCheck(_),
    bad_side: "4k3/8/8/8/8/8/8/4K3 x - - 0 1" => SideToMove, FenReason::BadSide(_),
    bad_castling_letter: "4k3/8/8/8/8/8/8/4K3 w X - 0 1" => Castling, FenReason::BadCastling(_),
    repeated_castling_letter: "r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1" => Castling, FenReason::BadCastling(_),
    castling_without_rook: "4k3/8/8/8/8/8/8/4K3 w K - 0 1" => Castling, FenReason::CastlingInconsistent { right: 'K', .. },
    castling_king_moved: "r3k2r/8/8/8/8/8/8/R2K3R w Q - 0 1" => Castling, FenReason::CastlingInconsistent { right: 'Q', .. },
    black_castling_without_rook: "4k3/8/8/8/8/8/8/4K3 w q - 0 1" => Castling, FenReason::CastlingInconsistent { right: 'q', .. },
    ep_not_a_square: "4k3/8/8/8/8/8/8/4K3 w - z9 0 1" => EnPassant, FenReason::BadSquare(_),
    ep_wrong_rank: "4k3/8/8/8/4P3/8/8/4K3 b - e4 0 1" => EnPassant, FenReason::EpWrongRank(_),
    ep_wrong_rank_for_side: "4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1" => EnPassant, FenReason::EpWrongRank(_),
    ep_without_pawn: "4k3/8/8/8/8/8/8/4K3 b - e3 0 1" => EnPassant, FenReason::EpNoDoublePush(_),
    ep_origin_occupied: "4k3/8/8/8/4P3/8/4N3/4K3 b - e3 0 1" => EnPassant, FenReason::EpNoDoublePush(_),
    halfmove_not_a_number: "4k3/8/8/8/8/8/8/4K3 w - - x 1" => HalfmoveClock, FenReason::BadNumber(_),
    halfmove_negative: "4k3/8/8/8/8/8/8/4K3 w - - -1 1" => HalfmoveClock, FenReason::BadNumber(_),
    fullmove_not_a_number: "4k3/8/8/8/8/8/8/4K3 w - - 0 one" => FullmoveNumber, FenReason::BadNumber(_),
}

#[test]
fn messages_name_field_and_reason() {
    let e = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w K - 0 1").unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid FEN, castling rights (field 3): right 'K' but White has no rook on h1"
    );
    let e = Position::from_fen("3Pk3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid FEN, piece placement (field 1): pawn on the back rank at d8"
    );
}

#[test]
fn possible_checks_are_accepted() {
    for fen in [
        // A knight and a discovered rook (the knight left e5); a bishop and a pawn.
        "4k3/8/3N4/8/8/8/8/4RK2 b - - 0 1",
        "4k3/3P4/8/8/1B6/8/8/5K2 b - - 0 1",
        // The double push d7-d5 checks with the pawn, or opens the rook's line through d7.
        "8/8/8/3pP3/4K3/8/8/7k w - d6 0 1",
        "8/r6K/8/3pP3/8/8/8/7k w - d6 0 1",
    ] {
        Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    }
    let e = Position::from_fen("4k3/8/3N4/1B6/8/8/8/4RK2 b - - 0 1").unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid FEN, piece placement (field 1): the side to move is in a check no move can give: 3 pieces give check at once (R on e1 and B on b5 and N on d6)"
    );
}

#[test]
fn valid_fens_round_trip() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 b - - 99 150",
    ] {
        assert_eq!(Position::from_fen(fen).unwrap().to_fen(), fen);
    }
    // EPD-style: clocks may be left out.
    let p = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - -").unwrap();
    assert_eq!(p.to_fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
}

#[test]
fn accessors_use_the_algorithm_encoding() {
    let p = Position::from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
        .unwrap();
    assert_eq!(p.board()[0x04], 0x06); // white king on e1
    assert_eq!(p.board()[0x74], 0x0E); // black king on e8
    assert_eq!(p.board()[0x08], 0); // right half of the 0x88 board is empty
    assert_eq!(p.side(), 0);
    assert_eq!(p.castling(), 0x0F);
    assert_eq!(p.ep_square(), 0x55);
    assert_eq!(p.king_square(8), 0x74);
    assert_eq!(p.npm(0), 3200);
    assert_eq!(p.count(8, 1), 8);
    let start = Position::startpos();
    assert_eq!(start.ep_square(), 0x80);
}

/// A FEN saved by an editor that writes a UTF-8 byte-order mark reads as the FEN without it.
#[test]
fn a_byte_order_mark_before_a_fen_is_skipped() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let p = Position::from_fen(&format!("\u{feff}{fen}")).unwrap();
    assert_eq!(p.to_fen(), fen);
    // Only at the start: a mark inside the board field is still a bad character there.
    let inside = fen.replacen('/', "/\u{feff}", 1);
    assert!(Position::from_fen(&inside).is_err());
}
