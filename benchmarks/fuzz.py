"""The long fuzz run: every target of tests/support/fuzz_oracles.py, round after round, for a given time.

    python benchmarks/fuzz.py --seconds 600 [--targets move,records] [--out fuzz-cases]
    python benchmarks/fuzz.py --replay fuzz-cases/case-records-1234.json

Each round runs one target under hypothesis with a fresh seed and `--examples` examples. A
failure (a crash, a traceback, an oracle's AssertionError, a hang past `--hang` seconds) is
written as a case file: the target, the seed, hypothesis' shrunk falsifying example and the
traceback. `--replay` runs that target with that seed again, so the case reproduces. Prints, per
target, the examples tried and the failures found; exit status 1 when any failure was found.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import sys
import time
import traceback
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))


class Hang(Exception):
    """One example ran past the hang limit."""


def _alarm(signum: int, frame: Any) -> None:
    raise Hang("example ran past the hang limit")


def run_round(name: str, seed: int, examples: int, hang: float) -> tuple[int, str | None]:
    """(examples tried, failure text or None) of one hypothesis run of target `name`."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import seed as with_seed

    from tests.support.fuzz_oracles import TARGETS

    inputs, oracle = TARGETS[name]
    tried = 0

    @with_seed(seed)
    @settings(max_examples=examples, deadline=None, database=None, suppress_health_check=list(HealthCheck),
              print_blob=True)
    @given(inputs)
    def run(case: Any) -> None:
        nonlocal tried
        tried += 1
        signal.setitimer(signal.ITIMER_REAL, hang)
        try:
            oracle(case)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)

    try:
        run()
    except Exception:
        return tried, traceback.format_exc() + "".join(f"\n{n}" for n in getattr(sys.exc_info()[1], "__notes__", []))
    return tried, None


def main(argv: list[str] | None = None) -> int:
    from tests.support.fuzz_oracles import TARGETS
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=60.0, help="how long to run (default 60)")
    ap.add_argument("--targets", default=",".join(TARGETS), help=f"comma-separated, of: {', '.join(TARGETS)}")
    ap.add_argument("--examples", type=int, default=200, help="examples per round (default 200)")
    ap.add_argument("--hang", type=float, default=20.0, help="seconds one example may take (default 20)")
    ap.add_argument("--out", default="fuzz-cases", help="directory for case files (default fuzz-cases)")
    ap.add_argument("--seed", type=int, default=None, help="first seed (default: random)")
    ap.add_argument("--replay", metavar="CASE", help="run the target and seed of a case file again")
    args = ap.parse_args(argv)
    signal.signal(signal.SIGALRM, _alarm)
    if args.replay:
        case = json.loads(Path(args.replay).read_text(encoding="utf-8"))
        _, failure = run_round(case["target"], case["seed"], case["examples"], args.hang)
        print(failure or f"case {args.replay} no longer fails")
        return 1 if failure else 0
    names = [n for n in args.targets.split(",") if n]
    unknown = [n for n in names if n not in TARGETS]
    if unknown:
        ap.error(f"unknown target(s) {', '.join(unknown)}; targets are {', '.join(TARGETS)}")
    out = Path(args.out)
    rng = random.Random(args.seed)
    tried = dict.fromkeys(names, 0)
    failed = dict.fromkeys(names, 0)
    deadline = time.monotonic() + args.seconds
    k = 0
    while time.monotonic() < deadline:
        name = names[k % len(names)]
        k += 1
        seed = rng.randrange(2**32)
        count, failure = run_round(name, seed, args.examples, args.hang)
        tried[name] += count
        if failure:
            failed[name] += 1
            out.mkdir(parents=True, exist_ok=True)
            path = out / f"case-{name}-{seed}.json"
            path.write_text(json.dumps({"target": name, "seed": seed, "examples": args.examples,
                                        "failure": failure}, indent=2), encoding="utf-8")
            print(f"FAIL {name} seed {seed}: written to {path}", flush=True)
    print(f"{'target':<14} {'examples':>9} {'failures':>9}")
    for name in names:
        print(f"{name:<14} {tried[name]:>9} {failed[name]:>9}")
    return 1 if any(failed.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
