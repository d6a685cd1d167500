"""Plays a historical program through `kempelen uci --program ADAPTOR` against the native
engine at depth 1 with python-chess, and prints the emulated time of each of the program's
moves. Arguments: kempelen, adaptor file (or, for one of Kempelen's own builds, its `kempelen
uci` options in one argument, e.g. "--cpu z80 --machine jupiter-3"), the program's colour (white or black), the most
plies to play, and optionally the program's depth (default 1, like the native engine's). Ends with `RESULT plies result game_over moves mean_seconds max_seconds`; a program that gives no move
(`bestmove 0000`) loses by forfeit (a FORFEIT line, then the RESULT with game_over True)."""
import sys

import chess.engine

from uci_game import program_game, seconds

exe, adaptor, colour, max_plies = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
program_depth = int(sys.argv[5]) if len(sys.argv) > 5 else 1
if adaptor.endswith(".toml"):
    command = [exe, "uci", "--program", adaptor]
else:
    command = [exe, "uci"] + adaptor.split()
program = chess.engine.SimpleEngine.popen_uci(command, timeout=600)
native = chess.engine.SimpleEngine.popen_uci([exe, "uci"])
ours_white = colour == "white"
try:
    board, times, forfeit = program_game(program, native, ours_white, program_depth, max_plies)
finally:
    program.quit()
    native.quit()
outcome = ("0-1" if ours_white else "1-0") if forfeit else board.result(claim_draw=True)
print("RESULT", board.ply(), outcome, forfeit or board.is_game_over(claim_draw=True),
      len(times), *seconds(times))
