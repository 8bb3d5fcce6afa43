"""Perft speed of the rules core: `python -m protocol.bench [--runs N] [--game G]`.

Prints, for fixed positions of each game, the perft node count and nodes per
second (median over runs). Node counts are fixed by the rules, so a changed
count is a rules change; the time is this machine's. As in chess engines'
perft, the last ply is counted without being played (bulk counting).
"""

from __future__ import annotations

import argparse
import statistics
import time

from . import game_from_position, registry

START = "333334444555667/333334444555667"

POSITIONS = [
    # (label, position string, depth)
    ("ISAAC start", f"isaac -/- {START} d - place 0/0", 3),
    ("ISAAC placement, ply 10",
     "isaac b0f0,c5h5,e7g7,d8i8,e9i9/c3h3,a4a9,c4i4,g6j6,b9d9 3333444457/3333444555 d - place 0/0", 3),
    ("ISAAC scoring",
     "isaac c0c4,g0j0,d1d4,h1j1,h3j3,h4h6,b5b9,c5g5,a6a8,c6c9/a0a5,b0b2,e0e4,g1g3,h2j2,i4i6,j4j7,d6g6,"
     "e8g8,d9h9 667/4467 l - score 6/7", 5),
    ("FOUNDATIONS start", f"foundations -/- {START} d -", 3),
    ("FOUNDATIONS level 2",
     "foundations e1g1,c6c8,d6d8/b0h0,f4f7,f0f4^2 334444555667/333334445566 d -", 3),
    ("HARI start", f"hari -/- {START} d -", 2),
    ("HARI middle game, many slides",
     "hari c1e1,h1h3,i1i3,c3c5,j4j7,f9h9/j1j3,b2b4,g3g5,e6g6,d7g7,a8c8 444555667/444555667 d -", 1),
    ("HARI ply 4, depth 2",
     "hari d4f4,e7g7/c0c2,a4a6 3334444555667/3334444555667 d -", 2),
]


def run(game_filter: str | None, runs: int) -> None:
    total_nodes = 0
    total_time = 0.0
    print(f"{'position':34} {'depth':>5} {'nodes':>13} {'median ms':>10} {'nodes/s':>13}")
    for label, text, depth in POSITIONS:
        if game_filter and text.split(" ", 1)[0] != game_filter:
            continue
        times = []
        nodes = 0
        for _ in range(runs):
            game = game_from_position(text)
            t0 = time.perf_counter()
            nodes = game.perft(depth)
            times.append(time.perf_counter() - t0)
        med = statistics.median(times)
        total_nodes += nodes
        total_time += med
        print(f"{label:34} {depth:5d} {nodes:13,d} {med * 1000:10.1f} {nodes / med:13,.0f}", flush=True)
    if total_time:
        print(f"{'total':34} {'':5} {total_nodes:13,d} {total_time * 1000:10.1f} {total_nodes / total_time:13,.0f}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m protocol.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="repetitions per position; the median is printed")
    parser.add_argument("--game", choices=registry.names(), help="only this game's positions")
    args = parser.parse_args(argv)
    run(args.game, max(1, args.runs))


if __name__ == "__main__":
    main()
