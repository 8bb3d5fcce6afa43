"""Hosting costs: a two-worker Dask cluster against the local runner, and the sandbox's start-up cost.

    python benchmarks/hosting.py cluster [--game foundations] [--games 40] [--runs 3]
    python benchmarks/hosting.py sandbox [--starts 15]

cluster: the same match between two random engines (tests/engines/bad/good_random.py, answering at
once) played by the local runner (--concurrency 2) and on a Dask cluster of two worker processes
started here (`dask scheduler` and two `dask worker --nthreads 1`, ISAAC_REFEREE_WORKER_GAMES=1), on
this machine. Printed, medians over the runs:
  games/s   the games divided by the run's wall time (summary.json "seconds": preflight, connecting
            to the scheduler and submitting included);
  overhead  per move, from the records: (game duration - the engines' measured move times) / plies,
            which counts everything the referee does around a move on whichever machine plays it
            (move check, clocks, position command, pipes), plus game start and end spread over the moves.

sandbox: EnginePlayer.start() (spawn, uci/uciok, isready/readyok) of the same engine, with and
without sandbox=bwrap, each --starts times, alternating; the median of each and their difference.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from referee.cli import main as referee_main  # noqa: E402
from referee.engines.player import EnginePlayer  # noqa: E402
from referee.engines.process import EngineSpec  # noqa: E402

GOOD = REPO / "tests" / "engines" / "bad" / "good_random.py"


def run_match(out: Path, game: str, games: int, extra: list[str]) -> tuple[dict, list[dict]]:
    argv = ["match", "-engine", "name=a", f"cmd={sys.executable} {GOOD}", "option.Seed=1",
            "-engine", "name=b", f"cmd={sys.executable} {GOOD}", "option.Seed=2", "-each", "tc=30+0.3",
            "--game", game, "--games", str(games), "--out", str(out), "--json", *extra]
    stdout = io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(io.StringIO()):
        code = referee_main(argv)
    if code != 0:
        raise SystemExit(f"the match failed with exit code {code}")
    records = [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines() if line.strip()]
    return json.loads(stdout.getvalue()), records


def overhead_per_move_ms(records: list[dict]) -> float:
    plies = sum(len(r["moves"]) for r in records)
    engine_ms = sum(m["ms"] for r in records for m in r["moves"])
    wall_ms = sum(r["duration_s"] for r in records) * 1000
    return (wall_ms - engine_ms) / max(1, plies)


@contextlib.contextmanager
def two_workers(where: Path) -> Iterator[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""),
           "ISAAC_REFEREE_WORKER_GAMES": "1"}
    scheduler_file = where / "scheduler.json"
    procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                               "--port", "0", "--scheduler-file", str(scheduler_file), "--no-dashboard"],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    try:
        deadline = time.monotonic() + 60
        while not scheduler_file.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        for _ in range(2):
            procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", "--scheduler-file",
                                           str(scheduler_file), "--nthreads", "1", "--no-nanny", "--no-dashboard"],
                                          env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        from distributed import Client
        with Client(scheduler_file=str(scheduler_file), timeout="60s") as client:
            client.wait_for_workers(2, timeout=120)
            yield str(client.scheduler.address)
    finally:
        for proc in reversed(procs):
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def bench_cluster(args: argparse.Namespace) -> None:
    os.environ["PYTHONPATH"] = str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")
    rows: dict[str, list[tuple[float, float]]] = {"local (--concurrency 2)": [], "cluster (2 workers)": []}
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        with two_workers(base) as address:
            for run in range(args.runs):
                for label, extra in (("local (--concurrency 2)", ["--concurrency", "2"]),
                                     ("cluster (2 workers)", ["--cluster", address])):
                    out = base / f"{label.split()[0]}-{run}"
                    summary, records = run_match(out, args.game, args.games, extra)
                    rows[label].append((len(records) / summary["seconds"], overhead_per_move_ms(records)))
    print(f"{args.game}, {args.games} games between two random engines, {args.runs} runs (medians):")
    for label, values in rows.items():
        rates = [v[0] for v in values]
        overheads = [v[1] for v in values]
        print(f"  {label:<24} {statistics.median(rates):6.1f} games/s   overhead {statistics.median(overheads):5.2f} ms/move"
              f"   (runs: {', '.join(f'{r:.1f}' for r in rates)} games/s)")


async def time_start(spec: EngineSpec) -> float:
    player = EnginePlayer(spec)
    t0 = time.perf_counter()
    await player.start()
    took = time.perf_counter() - t0
    await player.quit()
    return took * 1000


def bench_sandbox(args: argparse.Namespace) -> None:
    from referee.engines.sandbox import SandboxError, check_available
    try:
        check_available("bwrap")
    except SandboxError as exc:
        raise SystemExit(str(exc)) from None
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "engine"
        home.mkdir()
        shutil.copy(GOOD, home)
        shutil.copytree(REPO / "protocol", home / "protocol", ignore=shutil.ignore_patterns("__pycache__"))
        cmd = [sys.executable, "good_random.py"]
        plain = EngineSpec("plain", cmd, cwd=str(home))
        boxed = EngineSpec("boxed", cmd, cwd=str(home), sandbox="bwrap")
        times: dict[str, list[float]] = {"plain": [], "bwrap": []}
        for _ in range(args.starts):
            times["plain"].append(asyncio.run(time_start(plain)))
            times["bwrap"].append(asyncio.run(time_start(boxed)))
    plain_ms, boxed_ms = statistics.median(times["plain"]), statistics.median(times["bwrap"])
    print(f"engine start (spawn, uci/uciok, isready/readyok), median of {args.starts}:")
    print(f"  plain          {plain_ms:7.1f} ms")
    print(f"  sandbox=bwrap  {boxed_ms:7.1f} ms")
    print(f"  overhead       {boxed_ms - plain_ms:7.1f} ms per engine start")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    cluster = sub.add_parser("cluster", help="local runner vs a two-worker Dask cluster on this machine")
    cluster.add_argument("--game", default="foundations", choices=("isaac", "foundations", "hari"))
    cluster.add_argument("--games", type=int, default=40)
    cluster.add_argument("--runs", type=int, default=3)
    sandbox = sub.add_parser("sandbox", help="engine start-up with and without sandbox=bwrap")
    sandbox.add_argument("--starts", type=int, default=15)
    args = parser.parse_args(argv)
    (bench_cluster if args.what == "cluster" else bench_sandbox)(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
