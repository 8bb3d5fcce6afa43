"""Simulations a timed move buys: the median `visits` of `go movetime` over book positions, per checkout.

    python benchmarks/visits.py --game foundations --strategy search --repo /path/a --repo /path/b --rounds 3

Why: a tree search's strength at a fixed time follows the simulations it fits in (FOUNDATIONS: 3x the time is
worth about +250 Elo in self-play), and `isaac-engine bench` counts nodes of 2,000-node searches, too short to show
where a timed move spends its time. Each checkout's engine (`python -m engine` run in it) is asked, after `isready`,
for `go movetime MS` on the first `--positions` openings of the game's referee book, on its own CPU clock
(ISAAC_ENGINE_CLOCK=cpu: fair on a loaded machine); the first answer of a fresh engine is not counted. The
checkouts take turns, round by round, so a change in the machine's load falls on each alike. Prints each round's
median and the median of those rounds, and the ratio to the first checkout.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from referee.matches.openings import read_opening_file, shipped_book  # noqa: E402


def openings(game: str, count: int) -> list[str]:
    """The first `count` openings of the game's referee book (read and checked as matches read it), as `position`
    lines."""
    return [f"position {opening.describe()}" for opening in read_opening_file(game, str(shipped_book(game)))[:count]]


class Engine:
    """One engine process of a checkout, driven line by line."""

    def __init__(self, repo: Path, game: str, strategy: str) -> None:
        env = dict(os.environ, ISAAC_ENGINE_CLOCK="cpu")
        self.proc = subprocess.Popen([sys.executable, "-m", "engine"], cwd=repo, env=env, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.send("uci")
        self.until("uciok")
        self.send(f"setoption name UCI_Variant value {game}")
        self.send(f"setoption name Strategy value {strategy}")
        self.send("isready")
        self.until("readyok")

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix: str) -> list[str]:
        assert self.proc.stdout is not None
        seen = []
        for line in self.proc.stdout:
            seen.append(line.strip())
            if line.startswith(prefix):
                return seen
        raise RuntimeError(f"the engine ended before answering {prefix!r}")

    def visits(self, position: str, ms: int) -> int:
        self.send(position)
        self.send(f"go movetime {ms}")
        infos = [line for line in self.until("bestmove") if line.startswith("info") and " visits " in line]
        if not infos:
            raise RuntimeError(f"no `info ... visits` line for {position}")
        found = re.search(r" visits (\d+)", infos[-1])
        assert found is not None
        return int(found.group(1))

    def close(self) -> None:
        self.send("quit")
        self.proc.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--strategy", default="search")
    parser.add_argument("--repo", action="append", type=Path, help="a checkout (repeat to compare); default: this one")
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--ms", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    repos = args.repo or [REPO]
    positions = openings(args.game, args.positions)
    medians: dict[Path, list[float]] = {repo: [] for repo in repos}
    for round_ in range(args.rounds):
        for repo in repos:
            engine = Engine(repo, args.game, args.strategy)
            engine.visits(positions[0], args.ms)  # a fresh engine's first answer is not counted
            counts = [engine.visits(position, args.ms) for position in positions]
            engine.close()
            medians[repo].append(statistics.median(counts))
            print(f"round {round_ + 1} {repo}: median {statistics.median(counts):.0f} visits {counts}", flush=True)
    first = statistics.median(medians[repos[0]])
    for repo in repos:
        median = statistics.median(medians[repo])
        print(f"{args.game} {args.strategy} {repo}: {median:.0f} visits a {args.ms} ms move "
              f"(median of {args.rounds} rounds' medians over {len(positions)} positions), x{median / first:.2f}")


if __name__ == "__main__":
    main()
