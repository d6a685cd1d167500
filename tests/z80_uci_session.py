#!/usr/bin/env python3
"""Drives `kempelen uci --engine z80` through python-chess's UCI client: a full game of the Z80
build (time limits in emulated time at the ZX Spectrum's clock, some moves at a fixed node
count) against the native engine's full profile at a fixed depth, to a proper end, checking
every move is legal; then an infinite analysis stopped by the client and a fixed-time move.

Usage: z80_uci_session.py <kempelen-binary>
Prints 'RESULT <result> <termination> <plies>' at the end; exits non-zero on failure.
"""
import sys

import chess
import chess.engine

from uci_game import engines, play_out, result_line, stopped_analysis

MAX_PLIES = 400


def main():
    exe = sys.argv[1]
    z80_command = [exe, "uci", "--engine", "z80"]
    with engines(z80_command, [exe, "uci", "--profile", "full"]) as (z80, native):
        assert "Z80" in z80.id["name"], z80.id
        profile = z80.options["Profile"]
        assert profile.default == "reference" and list(profile.var) == ["reference"], profile
        native.configure({"Hash": 16})

        def move(board):
            if board.turn != chess.WHITE:
                return native.play(board, chess.engine.Limit(depth=4), game="z80")
            if board.ply() % 4 == 0:
                limit = chess.engine.Limit(nodes=300)
            else:
                # 30 s each on the clock, emulated at 3.5 MHz: about 1 s a move.
                limit = chess.engine.Limit(white_clock=30, black_clock=30)
            result = z80.play(board, limit, game="z80", info=chess.engine.INFO_ALL)
            if result.info.get("depth", 0) < 1:
                raise SystemExit(f"no completed iteration reported at ply {board.ply()}")
            return result

        board, outcome = play_out(move, MAX_PLIES)
        # Infinite analysis on the Z80, stopped by the client after a moment.
        stopped_analysis(z80)
        # Ten seconds of emulated time at 3.5 MHz, reported as such.
        result = z80.play(chess.Board(), chess.engine.Limit(time=10), info=chess.engine.INFO_ALL)
        if result.move not in chess.Board().legal_moves:
            raise SystemExit(f"movetime returned {result.move}")
        print(result_line(board, outcome))


if __name__ == "__main__":
    main()
