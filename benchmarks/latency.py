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
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

OPENING_PLIES = {
    "isaac": "b2b6 j2j6",
    "foundations": "h3j3 f9i9",
    "hari": "h3j3 f9i9",
}


def _read_until(proc: subprocess.Popen, prefix: str) -> float:
    assert proc.stdout is not None
    while True:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"engine ended before {prefix!r}")
        if line.startswith(prefix):
            return time.perf_counter()


def one_run(cmd: list[str], game: str, movetime: int, isready: bool, strategy: str) -> tuple[float, float]:
    """(ms spawn -> uciok, ms go -> bestmove) of one fresh engine."""
    env = dict(os.environ)
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1, env=env)
    assert proc.stdin is not None
    try:
        proc.stdin.write("uci\n")
        proc.stdin.flush()
        uciok = (_read_until(proc, "uciok") - started) * 1000
        lines = [f"setoption name UCI_Variant value {game}", f"setoption name Strategy value {strategy}"]
        if isready:
            lines += ["ucinewgame", "isready"]
        proc.stdin.write("\n".join(lines) + "\n")
        proc.stdin.flush()
        if isready:
            _read_until(proc, "readyok")
        proc.stdin.write(f"position startpos moves {OPENING_PLIES[game]}\n")
        proc.stdin.flush()
        time.sleep(0.01)
        sent = time.perf_counter()
        proc.stdin.write(f"go movetime {movetime}\n")
        proc.stdin.flush()
        answered = (_read_until(proc, "bestmove") - sent) * 1000
        proc.stdin.write("quit\n")
        proc.stdin.flush()
    finally:
        proc.wait(timeout=10)
    return uciok, answered


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
        runs = [one_run(cmd, game, args.movetime, args.isready, args.strategy) for _ in range(args.runs)]
        ups = [u for u, _ in runs]
        firsts = [f for _, f in runs]
        print(f"{game:12s} uciok median {statistics.median(ups):6.1f} ms (max {max(ups):6.1f})   "
              f"first go->bestmove median {statistics.median(firsts):6.1f} ms (max {max(firsts):6.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
