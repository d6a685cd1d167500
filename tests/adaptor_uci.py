"""Plays full games through `kempelen uci --program ADAPTOR` with python-chess: the adapted
program against the native engine, once with each colour, to a proper end of the game.
Depth limits only (no host time). Prints one RESULT line per game:
`RESULT colour result plies game_over mean_seconds`."""
import sys

from uci_game import engines, program_game, seconds

exe, adaptor = sys.argv[1], sys.argv[2]
for program_white in (True, False):
    with engines([exe, "uci", "--program", adaptor], [exe, "uci"]) as (program, native):
        board, times, _ = program_game(program, native, program_white, 2, 600)
    print("RESULT", "white" if program_white else "black", board.result(claim_draw=True),
          board.ply(), board.is_game_over(claim_draw=True), seconds(times)[0])
