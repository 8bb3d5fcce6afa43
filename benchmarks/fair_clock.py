"""Fair clocks: an engine's nodes per move against a quiet opponent and against one that keeps every
core busy (tests/engines/hostile/cpu_hog.py: busy child processes from start-up to the end).

    python benchmarks/fair_clock.py [--game isaac] [--games 4] [--tc st=0.1] [--runs 3]
                                    [--fair-cpu auto|signals|off ...] [--escape]

Each run plays `isaac-referee match` between `search` (isaac-engine, its default strategy) and
the same random player twice: quiet (no children) and hog (one busy child per core, in its
process group; with --escape also a hog whose children leave it with setsid), at --concurrency 1.
The search engine's nodes per move come from the records (its last `info` before `bestmove`).
Printed per --fair-cpu mode: the median nodes per move against each opponent (median of the runs'
medians; runs alternate quiet and hog so a change in the machine's load hits both) and the
ratio hog / quiet. The target is at least 90% with the default --fair-cpu auto.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
HOG = REPO / "tests" / "engines" / "hostile" / "cpu_hog.py"
sys.path.insert(0, str(REPO))

import protocol  # noqa: E402


def opponents(escape: bool) -> dict[str, list[str]]:
    cores = str(os.cpu_count() or 1)
    out = {"quiet": [sys.executable, str(HOG), "0"], "hog": [sys.executable, str(HOG), cores, "group"]}
    if escape:
        out["escaping hog"] = [sys.executable, str(HOG), cores, "setsid"]
    return out


def search_nodes(records_path: Path, name: str = "search") -> list[int]:
    """Nodes of every move `name` made (the plies are attributed by replaying each game)."""
    nodes = []
    for line in records_path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        record = json.loads(line)
        game = protocol.game_from_position(record["start_position"])
        for ply in record["opening"]:
            game.play(ply)
        for move in record["moves"]:
            mover = record["dark"]["name"] if game.turn == 0 else record["light"]["name"]
            info = move.get("info") or {}
            if mover == name and isinstance(info.get("nodes"), int):
                nodes.append(info["nodes"])
            game.play(move["move"])
    return nodes


def one_run(game: str, games: int, tc: str, opponent: list[str], fair: str, seed: int) -> list[int]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run"
        argv = [sys.executable, "-m", "referee", "match", "--game", game, "--games", str(games),
                "--concurrency", "1", "--tc", tc, "--openings", "startpos", "--seed", str(seed),
                "--fair-cpu", fair, "--out", str(out),
                "-engine", "name=search", f"cmd={sys.executable} -m engine", f"dir={REPO}",
                "-engine", "name=opponent", "cmd=" + " ".join(opponent), f"dir={REPO}"]
        env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        done = subprocess.run(argv, env=env, cwd=REPO, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"the match failed ({done.returncode}): {done.stderr.strip()[-500:]}")
        return search_nodes(out / "records.jsonl")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=protocol.GAME_NAMES, default="isaac")
    parser.add_argument("--games", type=int, default=4, help="games per match (default 4)")
    parser.add_argument("--tc", default="st=0.1", help="time control (default st=0.1)")
    parser.add_argument("--runs", type=int, default=3, help="matches per opponent and mode (default 3)")
    parser.add_argument("--fair-cpu", nargs="+", default=["auto"], choices=("auto", "signals", "off"),
                        help="modes to measure (default auto; add off to see the unfair clock)")
    parser.add_argument("--escape", action="store_true", help="also a hog whose children leave its process group")
    args = parser.parse_args(argv)
    rivals = opponents(args.escape)
    print(f"fair clocks: search vs a random player, {args.game}, tc {args.tc}, {args.games} games a match, "
          f"{args.runs} runs, concurrency 1, {os.cpu_count()} cores; median nodes per move of search")
    for fair in args.fair_cpu:
        medians: dict[str, list[float]] = {name: [] for name in rivals}
        for run in range(args.runs):
            for name, command in rivals.items():
                nodes = one_run(args.game, args.games, args.tc, command, fair, seed=run + 1)
                medians[name].append(statistics.median(nodes) if nodes else 0.0)
        quiet = statistics.median(medians["quiet"])
        parts = []
        for name, values in medians.items():
            value = statistics.median(values)
            ratio = f" ({100 * value / quiet:.0f}% of quiet)" if name != "quiet" and quiet else ""
            runs = ", ".join(f"{v:.0f}" for v in values)
            parts.append(f"{name} {value:.0f}{ratio} [runs: {runs}]")
        print(f"--fair-cpu {fair}: " + "; ".join(parts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
