"""Plays a historical program through `kempelen uci --program ADAPTOR` against the native
engine at depth 1 with python-chess, and prints the emulated time of each of the program's
moves. Arguments: kempelen, adaptor file (or, for one of Kempelen's own builds, its `kempelen
uci` options in one argument, e.g. "--cpu z80 --machine jupiter-3"), the program's colour (white or black), the most
plies to play, and optionally the program's depth (default 1, like the native engine's). Ends with `RESULT plies result game_over moves mean_seconds max_seconds`; a program that gives no move
(`bestmove 0000`) loses by forfeit (a FORFEIT line, then the RESULT with game_over True)."""
import sys

import chess
import chess.engine

exe, adaptor, colour, max_plies = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
program_depth = int(sys.argv[5]) if len(sys.argv) > 5 else 1
if adaptor.endswith(".toml"):
    command = [exe, "uci", "--program", adaptor]
else:
    command = [exe, "uci"] + adaptor.split()
program = chess.engine.SimpleEngine.popen_uci(command, timeout=600)
native = chess.engine.SimpleEngine.popen_uci([exe, "uci"])
ours_white = colour == "white"
board = chess.Board()
times = []
forfeit = False
while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
    ours = board.turn == (chess.WHITE if ours_white else chess.BLACK)
    engine = program if ours else native
    depth = program_depth if ours else 1
    result = engine.play(board, chess.engine.Limit(depth=depth), info=chess.engine.INFO_ALL)
    if ours and not result.move:
        # The program gives no move (`bestmove 0000`, the reason in an info string): it cannot
        # take the position (Microchess keeps one queen a side) and loses the game, as a
        # tournament scores it.
        print("FORFEIT", board.ply() + 1, board.fen(), result.info.get("string", ""), flush=True)
        forfeit = True
        break
    if result.move is None or result.move not in board.legal_moves:
        print("ILLEGAL", result.move, board.fen())
        program.quit()
        native.quit()
        sys.exit(1)
    if ours:
        t = result.info.get("time", 0.0)
        times.append(t)
        print("MOVE", board.ply() + 1, board.san(result.move), "%.3f" % t, flush=True)
    board.push(result.move)
program.quit()
native.quit()
outcome = ("0-1" if ours_white else "1-0") if forfeit else board.result(claim_draw=True)
print("RESULT", board.ply(), outcome, forfeit or board.is_game_over(claim_draw=True),
      len(times), "%.3f" % (sum(times) / max(len(times), 1)), "%.3f" % max(times or [0]))
