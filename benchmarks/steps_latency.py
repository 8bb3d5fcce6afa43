"""Latency of the `steps` command in the bench's HARI middle games (what a GUI click waits for).

    python benchmarks/steps_latency.py [--pipe] [--cmd "python -m engine"] [--limit N]

For every HARI position of engine/bench.py and protocol/bench.py other than the
start, every prefix a GUI sends is asked: none, each offered slide, and each
offered slide after each offered slide (two slides). Prints per position and
prefix kind the number of prefixes, median, 95th percentile and max latency in
ms, and the overall median and max, with the most CPU time one answer took in this
process (wall time on a loaded machine includes waiting for a core; with --pipe
the CPU column is the client's only). By default the answer is computed in
process (protocol.steps.next_steps and its line); with --pipe each prefix is
sent to a real engine subprocess and timed from the write to the answer line.
--limit caps the two-slide prefixes per position (0: all).
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.bench import BENCH_POSITIONS
from protocol import game_from_position
from protocol.bench import POSITIONS
from protocol.steps import next_steps


def hari_middle_games() -> list[str]:
    """The bench's HARI positions with pieces on the board (duplicates once)."""
    texts = [text for _, text, _ in POSITIONS] + list(BENCH_POSITIONS)
    out: list[str] = []
    for text in texts:
        if text.startswith("hari ") and not text.startswith("hari -/-") and text not in out:
            out.append(text)
    return out


def prefixes(position: str, limit: int) -> dict[str, list[list[str]]]:
    """The step prefixes a GUI sends, by kind: none, one slide, two slides."""
    game = game_from_position(position)
    slides = [o.word for o in next_steps(game, []).options if not o.completes]
    two: list[list[str]] = []
    for first in slides:
        for option in next_steps(game, [first]).options:
            if not option.completes:
                two.append([first, option.word])
    if limit:
        two = two[:: max(1, len(two) // limit)][:limit]
    return {"none": [[]], "one slide": [[s] for s in slides], "two slides": two}


def in_process(position: str) -> Callable[[list[str]], str]:
    game = game_from_position(position)
    return lambda words: next_steps(game, words).line()


class Piped:
    """A real engine: `steps ...` written to its stdin, the answer line read back."""

    def __init__(self, cmd: list[str]):
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def position(self, position: str) -> Callable[[list[str]], str]:
        self.send(f"setoption name UCI_Variant value hari\nposition fen {position}\nisready")
        self.read("readyok")
        return self.ask

    def send(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def read(self, prefix: str) -> str:
        assert self.proc.stdout is not None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("engine ended")
            if line.startswith(prefix):
                return line

    def ask(self, words: list[str]) -> str:
        self.send(" ".join(["steps", *words]))
        line = self.read("steps ")
        return line

    def close(self) -> None:
        self.send("quit")
        self.proc.wait(5)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="benchmarks/steps_latency.py", description=__doc__.splitlines()[0])
    parser.add_argument("--pipe", action="store_true", help="time a real engine subprocess (write to answer)")
    parser.add_argument("--cmd", default=f"{sys.executable} -m engine", help="engine command for --pipe")
    parser.add_argument("--limit", type=int, default=0, help="at most this many two-slide prefixes per position")
    args = parser.parse_args(argv)
    piped = Piped(shlex.split(args.cmd)) if args.pipe else None
    every: list[float] = []
    every_cpu: list[float] = []
    print(f"{'position':44} {'prefix':11} {'count':>6} {'median ms':>10} {'p95 ms':>8} {'max ms':>8} "
          f"{'max cpu ms':>10}")
    for position in hari_middle_games():
        answer = piped.position(position) if piped else in_process(position)
        for kind, words_list in prefixes(position, args.limit).items():
            times, cpu = [], []
            for words in words_list:
                c0, t0 = time.process_time(), time.perf_counter()
                line = answer(words)
                times.append((time.perf_counter() - t0) * 1000)
                cpu.append((time.process_time() - c0) * 1000)
                assert line.startswith("steps "), line
            if not times:
                continue
            every += times
            every_cpu += cpu
            p95 = sorted(times)[int(0.95 * (len(times) - 1))]
            print(f"{position[:44]:44} {kind:11} {len(times):6d} {statistics.median(times):10.2f} "
                  f"{p95:8.2f} {max(times):8.2f} {max(cpu):10.2f}", flush=True)
    if piped:
        piped.close()
    print(f"{'all':44} {'':11} {len(every):6d} {statistics.median(every):10.2f} {'':8} {max(every):8.2f} "
          f"{max(every_cpu):10.2f}")


if __name__ == "__main__":
    main()
