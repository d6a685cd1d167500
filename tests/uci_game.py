"""What the UCI session scripts share: a game played to its end through python-chess's UCI
client, every move checked for legality, and an infinite analysis stopped by the client.
No limit depends on the host's speed."""
import contextlib
import time

import chess
import chess.engine


@contextlib.contextmanager
def engines(*commands):
    """UCI engines started from `commands` (argument lists), quit when the block ends."""
    started = []
    try:
        for command in commands:
            started.append(chess.engine.SimpleEngine.popen_uci(command))
        yield started
    finally:
        for engine in started:
            engine.quit()


def play_out(move, max_plies):
    """Plays from the start position, `move(board)` (a python-chess play result) for every
    ply, until the game ends or `max_plies`; every move must be legal. Returns the board and
    the outcome; exits non-zero without one."""
    board = chess.Board()
    while board.outcome(claim_draw=True) is None and board.ply() < max_plies:
        result = move(board)
        if result.move not in board.legal_moves:
            raise SystemExit(f"illegal move {result.move} in {board.fen()}")
        board.push(result.move)
    outcome = board.outcome(claim_draw=True)
    if outcome is None:
        raise SystemExit(f"no result after {board.ply()} plies")
    return board, outcome


def stopped_analysis(engine):
    """An infinite analysis of the start position, stopped by the client after a moment; the
    move it returns must be legal."""
    with engine.analysis(chess.Board()) as analysis:
        time.sleep(0.3)
        analysis.stop()
        best = analysis.wait()
    if best.move is None or best.move not in chess.Board().legal_moves:
        raise SystemExit(f"analysis returned {best.move}")


def result_line(board, outcome, *before):
    """'RESULT [before...] <result> <termination> <plies>'."""
    fields = ["RESULT", *before, outcome.result(), outcome.termination.name, str(board.ply())]
    return " ".join(fields)
