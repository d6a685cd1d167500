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

MAX_PLIES = 1000

# Limits per profile: small enough for a quick game, deterministic.
LIMITS = {
    "sargon": chess.engine.Limit(depth=2),
    "salomon": chess.engine.Limit(nodes=3000),
    "nimzo": chess.engine.Limit(depth=3),
}


def main():
    exe, profile = sys.argv[1], sys.argv[2]
    white = chess.engine.SimpleEngine.popen_uci([exe, "uci"])
    black = chess.engine.SimpleEngine.popen_uci([exe, "uci"])
    try:
        white.configure({"Profile": profile})
        black.configure({"Profile": "reference"})
        board = chess.Board()
        first_info = None
        while board.outcome(claim_draw=True) is None and board.ply() < MAX_PLIES:
            if board.turn == chess.WHITE:
                result = white.play(board, LIMITS[profile], info=chess.engine.INFO_ALL, game="g")
                if first_info is None and board.ply() > 0:
                    first_info = result.info
            else:
                result = black.play(board, chess.engine.Limit(depth=2), game="g")
            if result.move not in board.legal_moves:
                raise SystemExit(f"illegal move {result.move} in {board.fen()}")
            board.push(result.move)
        outcome = board.outcome(claim_draw=True)
        if outcome is None:
            raise SystemExit(f"no result after {board.ply()} plies")
        for key in ("depth", "score", "nodes", "pv"):
            if first_info is None or key not in first_info:
                raise SystemExit(f"info without {key}: {first_info}")
        print(f"RESULT {profile} {outcome.result()} {outcome.termination.name} {board.ply()}")
    finally:
        white.quit()
        black.quit()


if __name__ == "__main__":
    main()
