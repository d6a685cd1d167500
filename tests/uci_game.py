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


def program_game(program, native, program_white, program_depth, max_plies):
    """Plays an adapted program (`program`, at look-ahead `program_depth`) against the native
    engine (`native`, at depth 1) from the start position, until the game ends or `max_plies`;
    every move must be legal. Prints a MOVE line with the emulated time of each of the
    program's moves. A program that gives no move (`bestmove 0000`, the reason in an info
    string) cannot take the position and loses the game, as a tournament scores it: a FORFEIT
    line, and the game ends there. Returns the board, the program's times and whether it
    forfeited."""
    board = chess.Board()
    times = []
    while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
        ours = board.turn == (chess.WHITE if program_white else chess.BLACK)
        engine = program if ours else native
        limit = chess.engine.Limit(depth=program_depth if ours else 1)
        result = engine.play(board, limit, info=chess.engine.INFO_ALL)
        if ours and not result.move:
            print("FORFEIT", board.ply() + 1, board.fen(), result.info.get("string", ""),
                  flush=True)
            return board, times, True
        if result.move is None or result.move not in board.legal_moves:
            raise SystemExit(f"ILLEGAL {result.move} {board.fen()}")
        if ours:
            t = result.info.get("time", 0.0)
            times.append(t)
            print("MOVE", board.ply() + 1, board.san(result.move), "%.3f" % t, flush=True)
        board.push(result.move)
    return board, times, False


def seconds(times):
    """The mean and the longest of `times`, each with three decimals."""
    return "%.3f" % (sum(times) / max(len(times), 1)), "%.3f" % max(times or [0])


def result_line(board, outcome, *before):
    """'RESULT [before...] <result> <termination> <plies>'."""
    fields = ["RESULT", *before, outcome.result(), outcome.termination.name, str(board.ply())]
    return " ".join(fields)
