#!/usr/bin/env python3
"""Regenerates edge_cases.epd: rule corner cases for the Z80-against-native comparison
(`roms-src/tests/differential.rs`, one test a line). Hand-written positions (en passant in all
its forms, promotions, double check, the 218-move position, nine queens a side, insufficient
material, the fifty-move rule, null-move material limits, deep mates) plus positions found by
python-chess in seeded random games (one to three legal moves, mate and stalemate at the root
and one ply down) and every castling-rights combination. python-chess checks every position
(`Board.is_valid`); the counts in the file come from Kempelen's native engine at test time.

Operations per line (roms-src/src/differential.rs): `depth D` searches depths 1..=D,
`nodes "N N@D ..."` node-limited searches (at depth 32 or D), `perft D` perft 1..=D, `moves` / `history` / `clock`
as there.

Usage: python3 make_edge_cases.py > edge_cases.epd
"""
import random

import chess

# (FEN, id, operations); "" operations means the default checks.
DEFAULT = 'depth 3; nodes "0 1 40 400"; perft 3'
HAND = [
    # en passant
    ("8/8/8/KPp4r/8/8/8/6k1 w - c6 0 1", "en passant: capturing pawn pinned along the rank (king left)", ""),
    ("8/8/8/r1pPK3/8/8/8/6k1 w - c6 0 1", "en passant: capturing pawn pinned along the rank (king right)", ""),
    ("6k1/8/8/8/1pP1K3/8/8/q7 b - c3 0 1", "en passant: both pawns on the rank of the king and a queen", ""),
    ("8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1", "en passant: both pawns leave the rank, the king is exposed", ""),
    ("8/1k6/8/8/3Pp3/8/8/4K2B b - d3 0 1", "en passant: capturing pawn pinned along a diagonal", ""),
    ("7k/8/8/2b5/3Pp3/8/5K2/8 b - d3 0 1", "en passant: captured pawn shields the white king diagonally", ""),
    ("4k3/8/8/2Pp4/8/8/8/4K2b w - d6 0 1", "en passant: capturing pawn on a diagonal that does not pin", ""),
    ("8/8/3k4/8/2pP4/8/8/4K3 b - d3 0 1", "en passant: Black captures on d3", ""),
    ("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", "en passant: captures the checking pawn", ""),
    ("8/8/8/8/2pP4/1k6/8/3K4 b - d3 0 1", "en passant: the only legal reply to the check is not en passant", ""),
    ("4k3/8/8/8/1b2pP2/8/8/K7 b - f3 0 1", "en passant: the capture blocks nothing while in check", ""),
    ("8/8/8/8/1k2pP1R/8/8/4K3 b - f3 0 1", "en passant: in check along the rank, the capture does not help", ""),
    ("8/8/8/8/3kpP2/8/8/4K1B1 b - f3 0 1", "en passant: the double push discovered a check, the capture does not answer it", ""),
    ("3k4/8/8/8/5pP1/8/8/4KB2 b - g3 0 1", "en passant: the captured pawn shields the black king's diagonal", ""),
    ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "en passant: e5xd6 gives no check", ""),
    ("8/8/4k3/2Pp4/8/8/8/4K3 w - d6 0 1", "en passant: the capture gives check", ""),
    ("8/4k3/8/2PpP3/8/8/8/4K3 w - d6 0 1", "en passant: two pawns can capture", ""),
    ("4k3/8/8/pP6/8/8/8/4K3 w - a6 0 1", "en passant: on the a-file", ""),
    ("4k3/8/8/6Pp/8/8/8/4K3 w - h6 0 1", "en passant: on the h-file", ""),
    ("4k3/8/8/8/Pp6/8/8/4K3 b - a3 0 1", "en passant: Black on the a-file", ""),
    ("4k3/8/8/8/6pP/8/8/4K3 b - h3 0 1", "en passant: Black on the h-file", ""),
    ("4k3/8/8/3p4/8/8/8/4K3 w - d6 0 1", "en passant: square set without a capturing pawn", ""),
    ("4k3/8/8/8/8/2P5/1P6/4K3 w - - 0 1", "en passant: a double push gives an en-passant square nobody uses", ""),
    ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "en passant: in the opening", ""),
    ("4k3/8/8/8/4p3/8/3P1P2/4K3 w - - 0 1", "en passant: both double pushes allow it", ""),
    ("8/8/8/8/3Pp3/8/8/1k2K2Q b - d3 0 1", "en passant: kings and a queen on the first rank", ""),
    ("8/8/8/8/k1pP3R/8/8/4K3 b - d3 0 1", "en passant: rook pins both pawns against the king", ""),
    # promotions
    ("8/P7/8/8/8/8/8/k6K w - - 0 1", "promotion: a-pawn runs", ""),
    ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", "promotion: every promotion both sides", ""),
    ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1", "promotion: every promotion both sides, White", ""),
    ("r3k3/1P6/8/8/8/8/8/4K3 w q - 0 1", "promotion: capturing the castling rook", ""),
    ("4k2r/6P1/8/8/8/8/8/4K3 w k - 0 1", "promotion: capturing on h8 removes the right", ""),
    ("4k3/8/8/8/8/8/1p6/R3K3 b Q - 0 1", "promotion: Black captures the a1 rook", ""),
    ("8/5P1k/8/8/8/8/8/K7 w - - 0 1", "promotion: f8 with the king near", ""),
    ("3q2k1/4P3/8/8/8/8/8/4K3 w - - 0 1", "promotion: capturing promotion with check", ""),
    ("7k/5P2/6K1/8/8/8/8/8 w - - 0 1", "promotion: queen stalemates, rook mates", ""),
    ("8/8/8/8/8/8/p1k5/K7 b - - 0 1", "promotion: Black must not stalemate", ""),
    ("5k2/8/8/8/8/8/8/K7 w - - 0 1", "promotion: none", ""),
    ("8/6P1/7k/8/6K1/8/8/8 w - - 0 1", "promotion: knight with check", ""),
    ("2n5/1P6/8/8/8/8/k7/7K w - - 0 1", "promotion: capture or push, knight forks", ""),
    ("1n1n4/2P5/8/8/8/8/k7/7K w - - 0 1", "promotion: two captures and a push", ""),
    ("8/8/8/8/8/k7/4p3/3N1N1K b - - 0 1", "promotion: Black captures either knight", ""),
    ("8/2k2P1P/8/8/8/8/1p4p1/K7 w - - 0 1", "promotion: both sides have two pawns on the seventh", ""),
    ("6bk/5P2/6K1/8/8/8/8/8 w - - 0 1", "promotion: underpromotion to knight mates", ""),
    # checks
    ("4k3/8/5N2/8/B7/8/8/4K3 b - - 0 1", "check: double check by knight and bishop", ""),
    ("4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1", "check: rook check, castling not allowed", ""),
    ("4k3/4r3/8/8/8/8/8/2n1K3 w - - 0 1", "check: double check by rook and knight", ""),
    ("r3k2r/8/8/8/4Q3/8/8/4K3 b kq - 0 1", "check: Black in check cannot castle", ""),
    ("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", "check: pawn check", ""),
    ("8/8/8/8/8/5k2/6q1/7K w - - 0 1", "check: king must capture", ""),
    ("K7/8/2n5/1n6/8/8/8/k6N w - - 0 1", "check: knight check, king has three squares", ""),
    ("k7/8/8/3q4/8/8/8/K2B4 w - - 0 1", "check: pinned bishop", ""),
    # castling through and into check
    ("r3k2r/8/8/8/8/8/5p2/R3K2R w KQkq - 0 1", "castling: pawn attacks e1 (in check)", ""),
    ("r3k2r/8/8/8/8/8/6p1/R3K2R w KQkq - 0 1", "castling: pawn attacks f1, not d1", ""),
    ("r3k2r/8/8/8/8/8/2p5/R3K2R w KQkq - 0 1", "castling: pawn attacks d1 and b1", ""),
    ("r3k2r/8/8/8/8/8/1p6/R3K2R w KQkq - 0 1", "castling: pawn attacks c1 and a1", ""),
    ("r3k2r/8/8/8/8/4n3/8/R3K2R w KQkq - 0 1", "castling: knight attacks g1 and c1", ""),
    ("r3k2r/8/8/8/8/8/8/R3K1nR w KQkq - 0 1", "castling: a knight between king and rook", ""),
    ("r3k2r/8/8/8/8/8/8/R1n1K2R w KQkq - 0 1", "castling: a knight on c1", ""),
    ("rn2k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "castling: Black knight on b8 blocks O-O-O", ""),
    ("r3k2r/8/8/8/8/8/8/RN2K2R b KQkq - 0 1", "castling: White knight on b1, Black to move", ""),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "castling: everything allowed, White", ""),
    ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "castling: everything allowed, Black", ""),
    ("r3k2r/8/8/8/8/8/8/1R2K1R1 b kq - 0 1", "castling: rooks on b1 and g1 attack b8 and g8", ""),
    ("r3k2r/8/8/8/8/8/8/2R1KR2 b kq - 0 1", "castling: rooks on c1 and f1 attack c8 and f8", ""),
    ("r3k2r/8/8/8/8/8/8/3RK2R b Kkq - 0 1", "castling: rook attacks d8", ""),
    ("r3k2r/8/8/8/8/8/8/4K2R b Kkq - 0 1", "castling: nothing attacked", ""),
    ("r3k2r/8/8/8/1B6/8/8/4K3 b kq - 0 1", "castling: bishop attacks e7, not the path", ""),
    ("r3k2r/p6p/8/B7/1pp1p3/3b4/P6P/R3K2R w KQkq - 0 1", "castling: bishops and pawns", ""),
    ("1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1", "castling: one black rook moved", ""),
    ("r3k2r/8/8/8/8/8/6b1/R3K2R b KQkq - 0 1", "castling: Bxh1 takes White's O-O right", ""),
    ("r3k2r/6B1/8/8/8/8/8/R3K2R w KQkq - 0 1", "castling: Bxh8 takes Black's O-O right", ""),
    ("r3k2r/8/8/8/8/1n6/8/R3K2R b KQkq - 0 1", "castling: Nxa1 takes White's O-O-O right", ""),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "castling: Rxa8 and Rxh8 take rights both ways", 'depth 4; nodes "0 1 40 400 3000"; perft 4'),
    ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "castling: Black takes a rook, both lose rights", 'depth 4; perft 4'),
    ("r3k2r/8/8/8/8/8/8/R3K1R1 b Qkq - 0 1", "castling: out of nothing, into the g-file rook", ""),
    ("r3k2r/8/8/8/8/8/8/R2QK2R b KQkq - 0 1", "castling: the d-file queen stops O-O-O only", ""),
    # mates and stalemates
    ("8/8/8/8/8/2k5/1q6/K7 w - - 0 1", "mate: White is mated at the root", ""),
    ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "stalemate: at the root", ""),
    ("k7/8/1QK5/8/8/8/8/8 w - - 0 1", "stalemate: most queen moves stalemate, two mate", ""),
    ("6k1/5ppp/8/8/8/8/8/4R1K1 w - - 0 1", "mate: back rank in one", ""),
    ("6rk/6pp/8/6N1/8/8/8/7K w - - 0 1", "mate: smothered", ""),
    ("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", "mate: in two", 'depth 6; nodes "0 100 2000"; perft 3'),
    ("8/8/8/8/8/8/k7/4K2Q w - - 0 1", "mate: king and queen against king", 'depth 5; nodes "0 50 5000"; perft 3'),
    ("8/8/8/8/8/2k5/8/R3K3 w - - 0 1", "mate: king and rook against king", 'depth 6; nodes "0 50 5000"; perft 3'),
    ("8/8/8/8/4k3/8/8/2B1KB2 w - - 0 1", "mate: two bishops", 'depth 5; nodes "0 50 5000"; perft 3'),
    ("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", "mate: rook and bishop against the castled king", 'depth 5; perft 3'),
    ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "endgame: rook and castling", 'depth 6; perft 3'),
    # the most moves, the most pieces
    ("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1", "mobility: 218 legal moves", 'depth 2; nodes "0 1 300"; perft 2'),
    ("3Q4/1Q4Q1/4Q3/2Q4R/Q4Q2/3Q4/1Q4Rp/1K1BBNNk w - - 0 1", "mobility: another 218-move position", 'depth 2; nodes "0 1 300"; perft 2'),
    ("QQQQQQQQ/QRRBBNNK/8/8/8/8/qrrbbnnk/qqqqqqqq w - - 0 1", "pieces: nine queens a side", 'depth 1; perft 2'),
    ("qqqqqqqq/qrrbbnnk/8/8/8/8/QRRBBNNK/QQQQQQQQ b - - 0 1", "pieces: nine queens a side, facing", 'depth 1; perft 2'),
    ("7k/8/8/8/8/1QQQQ3/QQQQQ3/K7 b - - 0 1", "pieces: nine queens against a king", 'depth 3; nodes "0 1 300"; perft 3'),
    # insufficient material
    ("8/8/4k3/8/8/4K3/8/8 w - - 0 1", "insufficient: bare kings", 'depth 6; nodes "0 1 100"; perft 4'),
    ("8/8/4k3/8/8/3NK3/8/8 w - - 0 1", "insufficient: king and knight", 'depth 6; nodes "0 1 100"; perft 4'),
    ("8/8/4k3/8/8/3BK3/8/8 b - - 0 1", "insufficient: king and bishop", 'depth 6; nodes "0 1 100"; perft 4'),
    ("8/8/4k3/3b4/8/3NK3/8/8 w - - 0 1", "insufficient: one minor each (not insufficient), capture makes it", 'depth 5; perft 4'),
    ("8/8/4k3/8/8/2NNK3/8/8 w - - 0 1", "insufficient: two knights (not insufficient)", 'depth 5; perft 3'),
    ("8/8/4k3/8/8/2BBK3/8/8 w - - 0 1", "insufficient: two bishops (not insufficient)", 'depth 5; perft 3'),
    ("8/8/4k3/8/3p4/4K3/8/8 w - - 0 1", "insufficient: after capturing the last pawn", 'depth 6; perft 4'),
    ("8/8/4k3/8/3r4/4K3/8/8 w - - 0 1", "insufficient: after capturing the last rook", 'depth 6; perft 4'),
    ("8/8/4k3/8/3q4/4KN2/8/8 w - - 0 1", "insufficient: the king takes the queen", 'depth 5; perft 3'),
    # fifty-move rule
    ("7k/8/5KQ1/8/8/8/8/8 w - - 99 1", "fifty: mate on the hundredth ply counts", ""),
    ("7k/8/5K2/8/8/8/6Q1/8 w - - 98 1", "fifty: mate in two comes too late", 'depth 5; perft 3'),
    ("8/8/8/4k3/8/8/3QK3/8 w - - 99 120", "fifty: one ply from the limit", ""),
    ("8/8/8/4k3/8/8/3QK3/8 w - - 100 120", "fifty: the limit at the root (no draw at the root)", ""),
    ("8/8/8/4k3/8/8/3QK3/8 w - - 150 120", "fifty: past the limit", ""),
    ("8/8/8/4k3/8/8/3QK3/8 b - - 255 120", "fifty: clock 255", 'depth 3; perft 2'),
    ("8/8/8/4k3/8/8/3QK3/8 b - - 256 120", "fifty: clock 256 (above a byte)", 'depth 3; perft 2'),
    ("8/8/8/4k3/8/8/3QK3/8 b - - 65535 120", "fifty: the largest clock", 'depth 3; perft 2'),
    ("8/8/4k3/8/8/8/4P3/4K3 w - - 98 100", "fifty: a pawn move resets the clock", ""),
    ("6k1/6p1/8/8/8/8/8/R5K1 w - - 97 1", "fifty: a capture resets the clock", ""),
    ("4k3/8/8/8/8/8/R7/4K3 w - - 95 80", "fifty: rook against king", ""),
    ("6k1/5ppp/8/8/8/8/8/4R1K1 w - - 99 1", "fifty: back-rank mate on the hundredth ply", ""),
    # null move: side to move's non-pawn material around 330
    ("8/5p2/4k3/8/3K4/4N3/5P2/8 w - - 0 1", "null move: White has a knight (320)", 'depth 6; perft 3'),
    ("8/5p2/4k3/8/3K4/4B3/5P2/8 w - - 0 1", "null move: White has a bishop (330)", 'depth 6; perft 3'),
    ("8/5p2/4k3/8/3K4/R7/5P2/8 w - - 0 1", "null move: White has a rook (500)", 'depth 5; perft 3'),
    ("8/5p2/4k3/8/3K4/2N1N3/5P2/8 w - - 0 1", "null move: White has two knights (640)", 'depth 5; perft 3'),
    ("8/5p2/4k3/8/3K4/4n3/5P2/8 b - - 0 1", "null move: Black has a knight (320)", 'depth 6; perft 3'),
    ("8/5p2/4k3/8/3K4/7b/5P2/8 b - - 0 1", "null move: Black has a bishop (330)", 'depth 6; perft 3'),
    ("8/5p2/4k3/8/3K4/4r3/5P2/8 b - - 0 1", "null move: Black has a rook (500)", 'depth 5; perft 3'),
    ("8/5p2/4k3/8/3K4/4n3/5P2/8 w - - 0 1", "null move: White has pawns only, Black a knight", 'depth 6; perft 3'),
    ("8/8/p7/P1k5/8/1K6/2N5/8 w - - 0 1", "null move: zugzwang with a knight", 'depth 6; perft 4'),
    ("8/8/p7/P1k5/8/1K6/2B5/8 b - - 0 1", "null move: zugzwang with a bishop, Black to move", 'depth 6; perft 4'),
    ("8/8/1p6/1P1k4/8/2K5/8/7R w - - 0 1", "null move: zugzwang with a rook", 'depth 6; perft 3'),
    # quiescence reaching MAX_PLY is impossible; long capture chains are not
    ("1k1r3r/ppp2ppp/2nq1n2/3pp3/3PP3/2NQ1N2/PPP2PPP/1K1R3R w - - 0 1", "captures: long exchange chains on d5 and e5", 'depth 4; perft 3'),
    ("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3", "captures: Qxf7 mate", ""),
]

REPETITIONS = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8", "", "repetition: knights out and back twice"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8", "history none", "repetition: the same without history"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8", "history 3", "repetition: history cut short"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "g1f3 g8f6 f3g1 f6g8 g1f3", "history all", "repetition: one ply before the repetition, Black to move"),
    ("7k/8/8/8/8/1Q6/8/K7 w - - 0 1", "b3b2 h8g8 b2b3 g8h8", "", "repetition: the winning side must avoid it"),
    ("7k/8/8/8/8/1Q6/8/K7 w - - 0 1", "b3b2 h8g8 b2b3 g8h8", "clock 2", "repetition: the clock is shorter than the history"),
    ("7k/8/8/8/8/1Q6/8/K7 w - - 0 1", "b3b2 h8g8 b2b3 g8h8", "history all; clock 100", "repetition: clock 100 with the history"),
    ("6k1/5ppp/8/8/8/8/q4PPP/1Q4K1 w - - 0 1", "b1c1 a2a3 c1b1 a3a2 b1c1 a2a3 c1b1 a3a2", "", "repetition: queens shuffle twice"),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", "b4a4 h5h6 a4b4 h6h5 b4a4 h5h6 a4b4", "", "repetition: rook dance, Black to move"),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "a1b1 a8b8 b1a1 b8a8", "", "repetition: the rooks come back without rights (no repetition)"),
    ("4k3/8/8/8/8/8/8/R3K3 w - - 90 1", "a1a2 e8d8 a2a1 d8e8 a1a2 e8d8 a2a1 d8e8", "clock 98", "repetition: and the fifty-move rule"),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1d1 e8d8 d1e1 d8e8", "history all", "repetition: the kings come back without rights (no repetition)"),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1d1 e8d8 d1e1 d8e8 e1d1 e8d8 d1e1 d8e8", "history all", "repetition: the kings come back twice"),
    ("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", "e8d8 e1d1 d8e8 d1e1", "history all", "repetition: the en-passant right is gone on the way back"),
]


def clock_sweeps():
    """The fifty-move rule and the engine's clock byte (saturating at 255) around 100, 164
    and 255: a repetition with the game's whole history and a mate in one, at each clock."""
    out = []
    clocks = list(range(95, 106)) + [110, 120, 130, 140, 150, 163, 164, 165, 200, 254, 255, 256]
    for c in clocks:
        out.append(("7k/8/8/8/8/1Q6/8/K7 w - - 0 1", "b3b2 h8g8 b2b3 g8h8", f"history all; clock {c}",
                    f"clock {c}: a repetition within reach"))
    for c in range(95, 102):
        out.append(("6k1/5ppp/8/8/8/8/8/4R1K1 w - - 0 1", "", f"clock {c}", f"clock {c}: back-rank mate in one"))
    return out


def castling_combinations():
    out = []
    for side in "wb":
        for bits in range(16):
            rights = "".join(c for i, c in enumerate("KQkq") if bits >> i & 1) or "-"
            out.append((f"r3k2r/p6p/8/8/8/8/P6P/R3K2R {side} {rights} - 0 1",
                        f"castling rights: {rights}, {'White' if side == 'w' else 'Black'} to move",
                        'depth 3; nodes "0 200"; perft 3'))
    return out


def random_game_finds(seed=2024):
    """Positions from seeded random games: 1, 2 and 3 legal moves, mate and stalemate at the
    root, a mate and a stalemate one ply down."""
    rng = random.Random(seed)
    want = {"1 legal move": 4, "2 legal moves": 4, "3 legal moves": 4, "checkmated at the root": 3,
            "stalemated at the root": 3, "mate in one": 4, "stalemate in one": 4}
    found = []
    games = 0
    while any(want.values()) and games < 20000:
        games += 1
        board = chess.Board()
        for _ in range(rng.randrange(10, 200)):
            moves = list(board.legal_moves)
            if not moves:
                break
            captures = [m for m in moves if board.is_capture(m)]
            board.push(rng.choice(captures) if captures and rng.random() < 0.4 else rng.choice(moves))
        moves = list(board.legal_moves)
        kinds = []
        if board.is_checkmate():
            kinds.append("checkmated at the root")
        elif board.is_stalemate():
            kinds.append("stalemated at the root")
        elif len(moves) <= 3:
            kinds.append(f"{len(moves)} legal move{'s' if len(moves) > 1 else ''}")
        else:
            for m in moves:
                board.push(m)
                mate, stale = board.is_checkmate(), board.is_stalemate()
                board.pop()
                if mate:
                    kinds.append("mate in one")
                    break
                if stale:
                    kinds.append("stalemate in one")
                    break
        for k in kinds:
            if want.get(k, 0) > 0 and board.halfmove_clock < 100:
                want[k] -= 1
                found.append((board.fen(en_passant="fen"), f"random game: {k}", ""))
    return found


def main():
    print("# Rule corner cases for the Z80-against-native comparison (roms-src/tests/differential.rs,")
    print("# one test a line). Generated by make_edge_cases.py (python-chess validates every")
    print("# position); the expected results come from the native engine at test time.")
    print("# Operations: depth D = searches 1..=D, nodes \"N N@D ...\" = node-limited searches (depth 32 or D),")
    print("# perft D = perft 1..=D; moves / history / clock as in roms-src/src/differential.rs.")
    lines = []
    for fen, name, ops in HAND + castling_combinations() + random_game_finds():
        board = chess.Board(fen)
        assert board.is_valid(), (fen, board.status())
        lines.append(f'{fen}; id "{name}"; {ops or DEFAULT}')
    for fen, moves, extra, name in REPETITIONS + clock_sweeps():
        board = chess.Board(fen)
        for m in moves.split():
            board.push_uci(m)
        assert board.is_valid(), (fen, moves)
        moves = f'moves "{moves}"; ' if moves else ""
        extra = f"{extra}; " if extra else ""
        lines.append(f'{fen}; {moves}{extra}id "{name}"; {DEFAULT}')
    for line in lines:
        print(line)


if __name__ == "__main__":
    main()
