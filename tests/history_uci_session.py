#!/usr/bin/env python3
"""Plays one complete game through `kempelen uci` with python-chess: a historical profile
(chosen with `setoption name Profile`) against the full profile at a fixed depth, colours as
given, every move checked for legality and every move of the profile for its info (depth,
score, nodes, pv). Fixed depths or node budgets only, never the host's clock.

Usage: history_uci_session.py <kempelen-binary> <profile> <white|black> <limit>
       limit: depth=N or nodes=N for the historical profile
Prints 'RESULT <result> <termination> <plies>' at the end; exits non-zero on failure.
"""
import sys

import chess
import chess.engine

from uci_game import engines, play_out, result_line

MAX_PLIES = 400


def main():
    exe, profile, colour, limit_text = sys.argv[1:5]
    kind, value = limit_text.split("=")
    limit = chess.engine.Limit(**{kind: int(value)})
    with engines([exe, "uci"], [exe, "uci", "--profile", "full"]) as (historical, opponent):
        historical.configure({"Profile": profile})
        opponent.configure({"Hash": 4})
        hist_side = chess.WHITE if colour == "white" else chess.BLACK

        def move(board):
            if board.turn != hist_side:
                return opponent.play(board, chess.engine.Limit(depth=3), game="h")
            result = historical.play(board, limit, info=chess.engine.INFO_ALL, game="h")
            for key in ("depth", "score", "nodes", "pv"):
                if key not in result.info:
                    raise SystemExit(f"{profile}: no '{key}' in the info at ply {board.ply()}: {result.info}")
            if result.info["pv"][0] != result.move:
                raise SystemExit(f"{profile}: pv {result.info['pv']} does not start with {result.move}")
            return result

        board, outcome = play_out(move, MAX_PLIES)
        print(result_line(board, outcome))


if __name__ == "__main__":
    main()
