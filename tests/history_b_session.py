#!/usr/bin/env python3
"""Drives `kempelen uci` through python-chess's UCI client: the historical profile named on the
command line (selected with `setoption name Profile value NAME`) plays a complete game as White
against the reference profile, both at fixed depth or node limits (never host time), and every
move is checked for legality. The first search's info line must carry depth, score, nodes and pv.

Usage: history_b_session.py <kempelen-binary> <profile>
Prints one line 'RESULT <profile> <result> <termination> <plies>'; exits non-zero on failure.
"""
import sys

import chess
import chess.engine

from uci_game import engines, play_out, result_line

MAX_PLIES = 1000

# Limits per profile: small enough for a quick game, deterministic.
LIMITS = {
    "sargon": chess.engine.Limit(depth=2),
    "salomon": chess.engine.Limit(nodes=3000),
    "nimzo": chess.engine.Limit(depth=3),
}


def main():
    exe, profile = sys.argv[1], sys.argv[2]
    with engines([exe, "uci"], [exe, "uci"]) as (white, black):
        white.configure({"Profile": profile})
        black.configure({"Profile": "reference"})
        first_info = []

        def move(board):
            if board.turn != chess.WHITE:
                return black.play(board, chess.engine.Limit(depth=2), game="g")
            result = white.play(board, LIMITS[profile], info=chess.engine.INFO_ALL, game="g")
            if not first_info and board.ply() > 0:
                first_info.append(result.info)
            return result

        board, outcome = play_out(move, MAX_PLIES)
        info = first_info[0] if first_info else None
        for key in ("depth", "score", "nodes", "pv"):
            if info is None or key not in info:
                raise SystemExit(f"info without {key}: {info}")
        print(result_line(board, outcome, profile))


if __name__ == "__main__":
    main()
