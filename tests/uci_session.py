#!/usr/bin/env python3
"""Drives `kempelen uci` through python-chess's UCI client: plays a full game, the full profile
(4,000 nodes a move) against the reference profile (fixed depth), until the game ends, and checks
every move is legal. Also runs an infinite analysis stopped by the client. No limit depends on
the host's speed.

Usage: uci_session.py <kempelen-binary>
Prints one line 'RESULT <result> <termination> <plies>' at the end; exits non-zero on failure.
"""
import sys

import chess
import chess.engine

from uci_game import engines, play_out, result_line, stopped_analysis

MAX_PLIES = 600


def main():
    exe = sys.argv[1]
    with engines([exe, "uci", "--profile", "full"], [exe, "uci"]) as (white, black):
        white.configure({"Hash": 16})
        black.configure({"Profile": "reference"})
        assert white.id["name"].startswith("Kempelen"), white.id

        def move(board):
            if board.turn == chess.WHITE:
                # A node limit, never the host's clock: the test must not depend on the
                # host's speed (it once failed under load, "white lost on time").
                return white.play(board, chess.engine.Limit(nodes=4000), game="session")
            return black.play(board, chess.engine.Limit(depth=3), game="session")

        board, outcome = play_out(move, MAX_PLIES)
        stopped_analysis(white)
        print(result_line(board, outcome))


if __name__ == "__main__":
    main()
