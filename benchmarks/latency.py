"""Start-up and first-move latency of fresh engines (the clock a referee sees).

    python benchmarks/latency.py [--runs N] [--movetime MS] [--isready] [--strategy S]
                                 [--cmd "python -m engine"]

For each game and each of N fresh engine processes: time from spawn to `uciok`,
then `setoption UCI_Variant`, (optionally `ucinewgame` + `isready`, as the
referee sends before a game), `position startpos moves <two plies>` and
`go movetime MS`; time from sending `go` to reading `bestmove`.
Prints the median and the worst of each, per game. A first move must answer
within movetime; start-up to uciok should stay under 150 ms.
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fresh_engine import OPENING_PLIES, first_move


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--movetime", type=int, default=100)
    parser.add_argument("--isready", action="store_true", help="send ucinewgame + isready before the position")
    parser.add_argument("--strategy", default="search")
    parser.add_argument("--cmd", default=f"{sys.executable} -m engine")
    parser.add_argument("--game", choices=(*OPENING_PLIES, "all"), default="all")
    args = parser.parse_args(argv)
    games = list(OPENING_PLIES) if args.game == "all" else [args.game]
    cmd = shlex.split(args.cmd)
    print(f"load average {os.getloadavg()[0]:.2f}; {args.runs} fresh engines per game; "
          f"{'with' if args.isready else 'without'} isready; go movetime {args.movetime}")
    for game in games:
        runs = [first_move(cmd, game, args.movetime, strategy=args.strategy, isready=args.isready)
                for _ in range(args.runs)]
        ups = [u for u, _ in runs]
        firsts = [f for _, f in runs]
        print(f"{game:12s} uciok median {statistics.median(ups):6.1f} ms (max {max(ups):6.1f})   "
              f"first go->bestmove median {statistics.median(firsts):6.1f} ms (max {max(firsts):6.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
