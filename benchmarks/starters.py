"""The starters of examples/ against the built-in `random`: time losses and crashes, per starter, game and
time control, counted by the referee.

    PYTHONPATH=. python benchmarks/starters.py [--games 1000] [--starter python,c,js,rust]
        [--game isaac,foundations,hari] [--tc st=0.1] [--tc st=0.05] [--concurrency 1] [--seed 1] [--out DIR]

For each starter, game and time control, one `python -m referee match` of N games (pairs, colours
swapped; the default openings: ISAAC's start, the shipped books of FOUNDATIONS and HARI) against
`python -m engine` with Strategy=random, the referee's default margin (50 ms). The compiled starters are
built first into a temporary directory (C with gcc, Rust with cargo). From the records it prints, per
run: the starter's score, its time losses, crashes and other forfeits (with the first reason of each
kind), the opponent's forfeits, the median, 99th percentile and maximum of the starter's move times as
the referee measured them, the wall time and the 1-minute load average before and after. A starter
is correct as shipped when it has no forfeit at all. Exit status 1 if any starter forfeited a game.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import protocol

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"
GAMES = ("isaac", "foundations", "hari")
STARTERS = ("python", "c", "js", "rust")


def build(starter: str, into: Path) -> list[str]:
    """The command that runs `starter`, building it into `into` first if it is compiled."""
    if starter == "python":
        return [sys.executable, str(EXAMPLES / "python" / "starter.py")]
    if starter == "js":
        return ["node", str(EXAMPLES / "js" / "starter.js")]
    if starter == "c":
        binary = into / "c-starter"
        sources = sorted(str(p) for p in (EXAMPLES / "c").glob("*.c"))
        subprocess.run(["gcc", "-O2", "-std=c11", "-o", str(binary), *sources], check=True)
        return [str(binary)]
    target = into / "rust-target"
    subprocess.run(["cargo", "build", "--release", "--quiet", "--manifest-path", str(EXAMPLES / "rust" / "Cargo.toml")],
                   check=True, env={**os.environ, "CARGO_TARGET_DIR": str(target)})
    return [str(target / "release" / "isaac-starter")]


def run_match(cmd: list[str], game: str, tc: str, games: int, seed: int, concurrency: int, out: Path) -> float:
    """One match through the referee's command line; its wall time in seconds."""
    started = time.monotonic()
    argv = [sys.executable, "-m", "referee", "match", "--game", game, "--games", str(games), "--seed", str(seed),
            "--concurrency", str(concurrency), "--out", str(out),
            "-engine", "name=starter", "cmd=" + " ".join(cmd), "option.Seed=1",
            "-engine", "name=random", f"cmd={sys.executable} -m engine", "option.Strategy=random",
            "-each", f"tc={tc}"]
    subprocess.run(argv, cwd=REPO, check=True, stdout=subprocess.DEVNULL)
    return time.monotonic() - started


def percentile(values: list[int], share: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0


def starter_times(record: dict, colour: int) -> list[int]:
    """The referee's times of `colour`'s moves (replayed: after a pass one side moves on its own)."""
    game = protocol.game_from_position(record["start_position"])
    for ply in record["opening"]:
        game.play(ply)
    times = []
    for move in record["moves"]:
        if game.turn == colour:
            times.append(move["ms"])
        game.play(move["move"])
    return times


def tally(records: list[dict]) -> dict:
    """The starter's points, forfeits by termination (with a reason each), the opponent's forfeits, and
    the starter's move times."""
    points = 0.0
    forfeits: Counter[str] = Counter()
    reasons: dict[str, str] = {}
    opponent: Counter[str] = Counter()
    times: list[int] = []
    for record in records:
        side = "dark" if record["dark"]["name"] == "starter" else "light"
        won = {"1-0": "dark", "0-1": "light"}.get(record["result"])
        points += 1.0 if won == side else 0.5 if won is None else 0.0
        times += starter_times(record, 0 if side == "dark" else 1)
        if record["termination"] not in ("normal", "adjudication"):
            if won == side:
                opponent[record["termination"]] += 1
            else:
                forfeits[record["termination"]] += 1
                reasons.setdefault(record["termination"], record["reason"])
    return {"games": len(records), "points": points, "forfeits": forfeits, "reasons": reasons,
            "opponent": opponent, "times": times}


def report(starter: str, game: str, tc: str, seconds: float, loads: tuple[float, float], result: dict) -> str:
    games, forfeits, times = result["games"], result["forfeits"], result["times"]
    others = sum(n for kind, n in forfeits.items() if kind not in ("time forfeit", "crash"))
    line = (f"{starter:6} {game:11} {tc:8} {games:5} games  score {100 * result['points'] / max(1, games):5.1f}%  "
            f"time losses {forfeits['time forfeit']}  crashes {forfeits['crash']}  other forfeits {others}  "
            f"opponent's forfeits {sum(result['opponent'].values())}  "
            f"move ms p50 {statistics.median(times) if times else 0:.0f} p99 {percentile(times, 0.99)} "
            f"max {max(times, default=0)}  ({seconds:.0f} s, load {loads[0]:.1f} -> {loads[1]:.1f})")
    return line + "".join(f"\n    {kind}: {reason}" for kind, reason in result["reasons"].items())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--starter", default=",".join(STARTERS))
    parser.add_argument("--game", default=",".join(GAMES))
    parser.add_argument("--tc", action="append", help="time control (repeatable; default st=0.1 and st=0.05)")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, help="keep the run directories here (default: a temporary directory)")
    args = parser.parse_args()
    tcs = args.tc or ["st=0.1", "st=0.05"]
    starters = [s for s in args.starter.split(",") if s]
    unknown = [s for s in starters if s not in STARTERS] + [g for g in args.game.split(",") if g not in GAMES]
    if unknown:
        parser.error(f"unknown starter or game: {', '.join(unknown)}")
    work = Path(tempfile.mkdtemp(prefix="starters-bench-"))
    out = args.out or work
    print(f"{args.games} games per run against random, --concurrency {args.concurrency}, seed {args.seed}; "
          f"{os.cpu_count()} cores", flush=True)
    lost = 0
    try:
        for starter in starters:
            cmd = build(starter, work)
            for game in args.game.split(","):
                for tc in tcs:
                    run_dir = out / f"{starter}-{game}-{tc.replace('=', '')}"
                    shutil.rmtree(run_dir, ignore_errors=True)
                    before = os.getloadavg()[0]
                    seconds = run_match(cmd, game, tc, args.games, args.seed, args.concurrency, run_dir)
                    records = [json.loads(line) for line in (run_dir / "records.jsonl").read_text().splitlines()]
                    result = tally(records)
                    lost += sum(result["forfeits"].values())
                    print(report(starter, game, tc, seconds, (before, os.getloadavg()[0]), result), flush=True)
    finally:   # the builds (and the runs, unless --out keeps them elsewhere)
        shutil.rmtree(work, ignore_errors=True)
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
