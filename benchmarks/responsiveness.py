"""How fast the engine answers `stop` and `isready` while a job runs (issue 12 targets: < 100 ms).

    python benchmarks/responsiveness.py [--rounds N] [--engine "python -m engine"]

For each game it starts `go perft 30`, `go infinite` and `bench`, waits a little, then times
`isready` -> `readyok` and `stop` -> end of the job (`perft stopped ...`, `bestmove`, bench's
last line), from the moment the command is written to the moment the answer is read.
Prints the median and worst of each, in ms.
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import subprocess
import sys
import time

JOBS = {
    "go perft 30": lambda line: line.startswith("info string perft stopped") or line.startswith("Nodes searched"),
    "go infinite": lambda line: line.startswith("bestmove"),
    "bench nodes 100000": lambda line: line.startswith("info string bench Nodes/second")
    or line.startswith("info string bench bench stopped"),
}


class Engine:
    def __init__(self, cmd: list[str]) -> None:
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(self, line: str) -> float:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return time.perf_counter()

    def until(self, done) -> tuple[str, float]:
        assert self.proc.stdout is not None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit("engine closed its output")
            if done(line.rstrip("\n")):
                return line.rstrip("\n"), time.perf_counter()

    def close(self) -> None:
        self.send("quit")
        self.proc.wait(5)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--engine", default=f"{shlex.quote(sys.executable)} -m engine")
    ap.add_argument("--settle", type=float, default=0.3, help="seconds the job runs before the probes")
    args = ap.parse_args(argv)
    engine = Engine(shlex.split(args.engine))
    ready: dict[str, list[float]] = {}
    stop: dict[str, list[float]] = {}
    for game in ("isaac", "foundations", "hari"):
        engine.send(f"setoption name UCI_Variant value {game}")
        for job, finished in JOBS.items():
            key = f"{game:<11} {job}"
            for _ in range(args.rounds):
                engine.send(job)   # isready probe, then stop (untimed)
                time.sleep(args.settle)
                t0 = engine.send("isready")
                _, t1 = engine.until(lambda line: line == "readyok")
                engine.send("stop")
                engine.until(finished)
                engine.send(job)   # stop probe, nothing sent before it
                time.sleep(args.settle)
                t2 = engine.send("stop")
                _, t3 = engine.until(finished)
                ready.setdefault(key, []).append((t1 - t0) * 1000)
                stop.setdefault(key, []).append((t3 - t2) * 1000)
                engine.send("isready")
                engine.until(lambda line: line == "readyok")
    engine.close()
    print(f"{'game / job':<32} {'isready median':>15} {'worst':>7} {'stop median':>12} {'worst':>7}   (ms)")
    for key in ready:
        print(f"{key:<32} {statistics.median(ready[key]):>15.1f} {max(ready[key]):>7.1f} "
              f"{statistics.median(stop[key]):>12.1f} {max(stop[key]):>7.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
