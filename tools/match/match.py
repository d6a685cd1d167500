#!/usr/bin/env python3
"""Plays Kempelen (UCI) against Fairymax (xboard/CECP) and reports W/D/L, score and an Elo
estimate with a 95 % error margin.

Each opening from the EPD file is played twice with colours swapped. The script keeps both
clocks itself (base + increment, Fischer): an engine whose clock runs out loses on time.
Games are played `--concurrency` at a time, each with fresh engine processes.

Example (the issue's match, 100 games at 10 s + 0.1 s, two games at a time):
    cargo build --release
    python3 tools/match/match.py --games 100 --tc 10+0.1 --concurrency 2 --pgn match.pgn
"""
import argparse
import concurrent.futures
import math
import os
import sys
import threading
import time

import chess
import chess.engine
import chess.pgn

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=100, help="number of games (even: colour pairs)")
    p.add_argument("--tc", default="10+0.1", help="time control: base seconds + increment seconds")
    p.add_argument("--concurrency", type=int, default=2, help="games played at the same time")
    p.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "kempelen"),
                   help="kempelen binary (runs as '<binary> uci')")
    p.add_argument("--profile", default="full", choices=["full", "reference"])
    p.add_argument("--hash", type=int, default=64, help="Kempelen's Hash option (MB)")
    p.add_argument("--opponent", default="/usr/games/fairymax", help="xboard engine command")
    p.add_argument("--openings", default=os.path.join(HERE, "openings.epd"))
    p.add_argument("--pgn", help="write the games to this PGN file")
    p.add_argument("--max-plies", type=int, default=400, help="adjudicate a draw after this many plies")
    return p.parse_args()


def load_openings(path):
    """(board after the opening moves, name) per EPD line; the moves come from the c0 field and
    are checked against the EPD position."""
    out = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            position, ops = chess.Board.from_epd(line)
            board = chess.Board()
            for san in ops.get("c0", "").split():
                board.push_san(san)
            if board.epd() != position.epd():
                raise SystemExit(f"{path}:{number}: the c0 moves do not lead to the EPD position")
            out.append((board, ops.get("id", "?")))
    return out


class _SetboardShim(dict):
    """Fairymax announces setboard=0 (it uses 'edit'), which python-chess refuses at start-up.
    Games here always start from the standard position and replay the opening as moves, so
    python-chess never sends setboard; the shim only lets the handshake pass."""

    def get(self, key, default=None):
        if key == "setboard":
            return 1
        return super().get(key, default)


class FairymaxProtocol(chess.engine.XBoardProtocol):
    def __init__(self):
        super().__init__()
        self.features = _SetboardShim(self.features)


class Player:
    def __init__(self, name, engine):
        self.name = name
        self.engine = engine


def open_kempelen(args):
    eng = chess.engine.SimpleEngine.popen_uci([args.engine, "uci", "--profile", args.profile])
    eng.configure({"Hash": args.hash})
    return Player("Kempelen " + args.profile, eng)


def open_opponent(args):
    eng = chess.engine.SimpleEngine.popen(FairymaxProtocol, args.opponent)
    return Player(os.path.basename(args.opponent), eng)


def play_game(args, opening, opening_name, kempelen_white, base, inc, round_no):
    k = open_kempelen(args)
    o = open_opponent(args)
    players = {chess.WHITE: k if kempelen_white else o, chess.BLACK: o if kempelen_white else k}
    board = opening.copy()
    clocks = {chess.WHITE: base, chess.BLACK: base}
    termination = None
    winner = None
    illegal = None
    try:
        while True:
            outcome = board.outcome(claim_draw=True)
            if outcome is not None:
                winner = outcome.winner
                termination = outcome.termination.name.lower()
                break
            if board.ply() >= args.max_plies:
                termination = "max plies (adjudicated draw)"
                break
            side = board.turn
            limit = chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
                                       white_inc=inc, black_inc=inc)
            start = time.monotonic()
            try:
                result = players[side].engine.play(board, limit, game=round_no)
            except chess.engine.EngineError as e:
                illegal = f"{players[side].name}: {e}"
                winner = not side
                termination = "engine error"
                break
            clocks[side] -= time.monotonic() - start
            if clocks[side] < 0:
                winner = not side
                termination = "time forfeit"
                break
            clocks[side] += inc
            if result.move is None or result.move not in board.legal_moves:
                illegal = f"{players[side].name} played illegal move {result.move}"
                winner = not side
                termination = "illegal move"
                break
            board.push(result.move)
    finally:
        for p in (k, o):
            try:
                p.engine.quit()
            except Exception:
                pass
    game = chess.pgn.Game.from_board(board)
    game.headers["Event"] = f"Kempelen vs {o.name} {args.tc}"
    game.headers["Round"] = str(round_no)
    game.headers["White"] = players[chess.WHITE].name
    game.headers["Black"] = players[chess.BLACK].name
    game.headers["Opening"] = opening_name
    game.headers["Termination"] = termination or "?"
    game.headers["Result"] = "1-0" if winner is chess.WHITE else "0-1" if winner is chess.BLACK else "1/2-1/2"
    if winner is None:
        kempelen_score = 0.5
    else:
        kempelen_score = 1.0 if (winner == chess.WHITE) == kempelen_white else 0.0
    return kempelen_score, game, termination, illegal


def elo(score):
    """Elo difference for an expected score; +-inf at 100 % / 0 %."""
    if score >= 1:
        return math.inf
    if score <= 0:
        return -math.inf
    return -400 * math.log10(1 / score - 1)


def main():
    args = parse_args()
    base_s, inc_s = args.tc.split("+")
    base, inc = float(base_s), float(inc_s)
    openings = load_openings(args.openings)
    jobs = []
    for i in range(args.games):
        opening, name = openings[(i // 2) % len(openings)]
        jobs.append((opening, name, i % 2 == 0, i + 1))
    results = []
    lock = threading.Lock()
    pgn_file = open(args.pgn, "w") if args.pgn else None
    started = time.time()
    load_before = os.getloadavg()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.concurrency) as pool:
        futures = [pool.submit(play_game, args, op, name, kw, base, inc, rnd) for op, name, kw, rnd in jobs]
        for fut in concurrent.futures.as_completed(futures):
            score, game, termination, illegal = fut.result()
            with lock:
                results.append(score)
                w = results.count(1.0)
                d = results.count(0.5)
                l = results.count(0.0)
                print(f"game {game.headers['Round']:>3} {game.headers['White']} - {game.headers['Black']}: "
                      f"{game.headers['Result']} ({termination}){'  ' + illegal if illegal else ''}   "
                      f"[Kempelen +{w} ={d} -{l}]", flush=True)
                if pgn_file:
                    print(game, file=pgn_file, end="\n\n", flush=True)
    n = len(results)
    w, d, l = results.count(1.0), results.count(0.5), results.count(0.0)
    mean = sum(results) / n
    var = sum((x - mean) ** 2 for x in results) / n
    margin = 1.96 * math.sqrt(var / n)
    lo, hi = elo(mean - margin), elo(mean + margin)
    print()
    print(f"Kempelen ({args.profile}) vs {os.path.basename(args.opponent)}, {n} games at {args.tc}, "
          f"concurrency {args.concurrency}")
    print(f"W/D/L: {w}/{d}/{l}   score {100 * mean:.1f} %   Elo {elo(mean):+.0f} "
          f"(95 %: {lo:+.0f} .. {hi:+.0f})")
    print(f"wall time {time.time() - started:.0f} s, load average before {load_before[0]:.2f}, "
          f"after {os.getloadavg()[0]:.2f}")
    if pgn_file:
        pgn_file.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
