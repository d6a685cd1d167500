#!/usr/bin/env python3
"""Drives `kempelen uci` through python-chess's UCI client: plays a full game, the full profile
(4,000 nodes a move) against the reference profile (fixed depth), until the game ends, and checks
every move is legal. Also runs an infinite analysis stopped by the client. No limit depends on
the host's speed.

Usage: uci_session.py <kempelen-binary>
Prints one line 'RESULT <result> <termination> <plies>' at the end; exits non-zero on failure.
"""
import sys
import time

import chess
import chess.engine

MAX_PLIES = 600


def main():
    exe = sys.argv[1]
    white = chess.engine.SimpleEngine.popen_uci([exe, "uci", "--profile", "full"])
    black = chess.engine.SimpleEngine.popen_uci([exe, "uci"])
    try:
        white.configure({"Hash": 16})
        black.configure({"Profile": "reference"})
        assert white.id["name"].startswith("Kempelen"), white.id
        board = chess.Board()
        while board.outcome(claim_draw=True) is None and board.ply() < MAX_PLIES:
            if board.turn == chess.WHITE:
                # A node limit, never the host's clock: the test must not depend on the
                # host's speed (it once failed under load, "white lost on time").
                result = white.play(board, chess.engine.Limit(nodes=4000), game="session")
            else:
                result = black.play(board, chess.engine.Limit(depth=3), game="session")
            if result.move not in board.legal_moves:
                raise SystemExit(f"illegal move {result.move} in {board.fen()}")
            board.push(result.move)
        outcome = board.outcome(claim_draw=True)
        if outcome is None:
            raise SystemExit(f"no result after {board.ply()} plies")
        # Infinite analysis, stopped by the client after a moment.
        with white.analysis(chess.Board()) as analysis:
            time.sleep(0.3)
            analysis.stop()
            best = analysis.wait()
        if best.move is None or best.move not in chess.Board().legal_moves:
            raise SystemExit(f"analysis returned {best.move}")
        print(f"RESULT {outcome.result()} {outcome.termination.name} {board.ply()}")
    finally:
        white.quit()
        black.quit()


if __name__ == "__main__":
    main()
