"""Plays full games through `kempelen uci --program ADAPTOR` with python-chess: the adapted
program against the native engine, once with each colour, to a proper end of the game.
Depth limits only (no host time). Prints one RESULT line per game."""
import sys

import chess
import chess.engine

exe, adaptor = sys.argv[1], sys.argv[2]
for program_white in (True, False):
    program = chess.engine.SimpleEngine.popen_uci([exe, "uci", "--program", adaptor])
    native = chess.engine.SimpleEngine.popen_uci([exe, "uci"])
    board = chess.Board()
    times = []
    while not board.is_game_over(claim_draw=True) and board.ply() < 600:
        ours = board.turn == (chess.WHITE if program_white else chess.BLACK)
        engine = program if ours else native
        limit = chess.engine.Limit(depth=2 if ours else 1)
        result = engine.play(board, limit, info=chess.engine.INFO_ALL)
        if result.move is None or result.move not in board.legal_moves:
            print("ILLEGAL", result.move, board.fen())
            program.quit()
            native.quit()
            sys.exit(1)
        if ours:
            times.append(result.info.get("time", 0.0))
        board.push(result.move)
    program.quit()
    native.quit()
    print("RESULT", "white" if program_white else "black", board.result(claim_draw=True),
          board.ply(), board.is_game_over(claim_draw=True), "%.3f" % (sum(times) / max(len(times), 1)))
