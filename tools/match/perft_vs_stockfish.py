#!/usr/bin/env python3
"""Measures `kempelen perft` against Stockfish's `go perft` on the same positions in one run
(the target: Kempelen's perft 6 of the start position within 3x Stockfish's time).

Both count without a hash table; Stockfish is timed from sending `go perft` to its node total
(start-up excluded), Kempelen by its own `time_ms` (start-up excluded). Each measurement is
repeated and the fastest run kept, since other work on the machine only ever slows a run down.

Usage: python3 tools/match/perft_vs_stockfish.py [--depth 6] [--repeat 3] [--fen FEN]
"""
import argparse
import json
import os
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def stockfish_perft(exe, fen, depth):
    sf = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    sf.stdin.write("uci\nisready\n")
    sf.stdin.flush()
    while sf.stdout.readline().strip() != "readyok":
        pass
    sf.stdin.write(f"position fen {fen}\n")
    start = time.perf_counter()
    sf.stdin.write(f"go perft {depth}\n")
    sf.stdin.flush()
    while True:
        line = sf.stdout.readline()
        if line.startswith("Nodes searched:"):
            elapsed = time.perf_counter() - start
            nodes = int(line.split(":")[1])
            break
    sf.stdin.write("quit\n")
    sf.stdin.flush()
    sf.wait()
    return nodes, elapsed


def kempelen_perft(exe, fen, depth):
    out = subprocess.run([exe, "perft", "--depth", str(depth), "--fen", fen, "--json"],
                         check=True, capture_output=True, text=True).stdout
    v = json.loads(out)
    return v["nodes"], v["time_ms"] / 1000


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--depth", type=int, default=6)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--fen", default=START)
    p.add_argument("--kempelen", default=os.path.join(ROOT, "target", "release", "kempelen"))
    p.add_argument("--stockfish", default="/usr/games/stockfish")
    args = p.parse_args()
    sf = [stockfish_perft(args.stockfish, args.fen, args.depth) for _ in range(args.repeat)]
    kp = [kempelen_perft(args.kempelen, args.fen, args.depth) for _ in range(args.repeat)]
    sf_nodes, kp_nodes = sf[0][0], kp[0][0]
    if sf_nodes != kp_nodes:
        raise SystemExit(f"node counts differ: stockfish {sf_nodes}, kempelen {kp_nodes}")
    sf_best = min(t for _, t in sf)
    kp_best = min(t for _, t in kp)
    print(f"position {args.fen}, depth {args.depth}, {sf_nodes} nodes, best of {args.repeat}")
    print(f"stockfish go perft: {sf_best:.3f} s  ({sf_nodes / sf_best / 1e6:.1f} M nodes/s)")
    print(f"kempelen perft:     {kp_best:.3f} s  ({kp_nodes / kp_best / 1e6:.1f} M nodes/s)")
    print(f"ratio kempelen/stockfish: {kp_best / sf_best:.2f}  (load average {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
