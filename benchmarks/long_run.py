"""A long run of the real referee, watched from outside: memory, speed and file sizes as games go by.

    python benchmarks/long_run.py [--games 100000] [--every 2000] [--game foundations]
                                  [--out DIR] [--cluster N] [--resume-check] [--keep]

Plays `isaac-referee match` between two `isaac-engine` random players (Seed 1 and 2,
--openings random:2, --concurrency 1), as a new user would, planned for 1,000 games more than
--games and interrupted (SIGINT, as Ctrl-C) once --games are recorded, and every --every games prints the
referee's resident memory (its own process: VmRSS of /proc), the games per second since the last
line, and the sizes of records.jsonl, games.pgn, report.html and checkpoint.json. At the end:
the memory growth from game 2,000 to game 12,000 (target < 10 MB), the least-squares slope of
memory against games after game 2,000 and what it gives at 1,000,000 games (target <= 100 MB of
growth), the same slope over the second half of a run of 20,000 games or more (the rate once the
process is warm: a Dask run's referee settles over its first ~10,000 games), and report.html's size
(target <= 2 MB).

--cluster N runs the games on a local Dask cluster (a scheduler and N workers of one thread each,
started here, all at the priority of this script) and also prints the largest worker's memory. The
workers run without Dask's own statistical profiler (DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED=False,
as docs/hosting.md advises for long runs): it keeps an hour of stack samples, which grows a worker by
several MB a minute for its first hour whatever the tasks do.
--resume-check then resumes a copy of the interrupted run twice, once with its checkpoint and once
without, and prints how long each takes from starting the command to its first `go` (target: a
100,000-game run starts playing within 5 s); each copy is then killed (SIGKILL) and removed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FILES = ("records.jsonl", "games.pgn", "report.html", "checkpoint.json")


def rss_mb(pid: int) -> float:
    """Resident memory of one process in MB (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def mb(path: Path) -> float:
    try:
        return path.stat().st_size / 1e6
    except OSError:
        return 0.0


class LineCounter:
    """Counts the lines of a growing file, reading only what was added."""

    def __init__(self, path: Path):
        self.path = path
        self.offset = 0
        self.lines = 0

    def count(self) -> int:
        try:
            with open(self.path, "rb") as fh:
                fh.seek(self.offset)
                data = fh.read()
        except OSError:
            return self.lines
        end = data.rfind(b"\n") + 1
        self.lines += data.count(b"\n", 0, end)
        self.offset += end
        return self.lines


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}


def referee_argv(out: Path, games: int, game: str, cluster: str | None, io_log: Path | None = None) -> list[str]:
    argv = [sys.executable, "-m", "referee", "match", "--game", game, "--games", str(games), "--concurrency", "1",
            "-engine", "name=A", f"cmd={sys.executable} -m engine", f"dir={REPO}", "option.Strategy=random",
            "option.Seed=1",
            "-engine", "name=B", f"cmd={sys.executable} -m engine", f"dir={REPO}", "option.Strategy=random",
            "option.Seed=2",
            "--tc", "60+1", "--openings", "random:2", "--seed", "5", "--out", str(out)]
    if cluster:
        argv += ["--cluster", cluster]
    if io_log is not None:
        argv += ["--io-log", str(io_log)]
    return argv


class Cluster:
    """A local Dask scheduler and workers (subprocesses), for --cluster."""

    def __init__(self, workers: int, tmp: Path):
        self.procs: list[subprocess.Popen[bytes]] = []
        scheduler_file = tmp / "scheduler.json"
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        self.procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host",
                                            "127.0.0.1", "--port", "0", "--scheduler-file", str(scheduler_file),
                                            "--no-dashboard"], env=env(), **quiet))  # type: ignore[call-overload]
        deadline = time.monotonic() + 60
        while not scheduler_file.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        self.address = json.loads(scheduler_file.read_text())["address"]
        for _ in range(workers):
            self.procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker",
                                                "--scheduler-file", str(scheduler_file), "--nthreads", "1",
                                                "--no-nanny", "--no-dashboard"],
                                               env={**env(), "ISAAC_REFEREE_WORKER_GAMES": "1",
                                                    "DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED": "False"},
                                               **quiet))  # type: ignore[call-overload]
        time.sleep(3)

    def worker_pids(self) -> list[int]:
        return [p.pid for p in self.procs[1:]]

    def close(self) -> None:
        for proc in reversed(self.procs):
            proc.send_signal(signal.SIGTERM)
        for proc in reversed(self.procs):
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def watch(args: argparse.Namespace, out: Path, cluster: Cluster | None) -> list[tuple[int, float]]:
    """Run the match, printing a line every --every games; (games, referee RSS MB) samples."""
    out.parent.mkdir(parents=True, exist_ok=True)
    log = open(out.parent / "referee.log", "w")
    proc = subprocess.Popen(referee_argv(out, args.games + 1000, args.game, cluster.address if cluster else None),
                            env=env(), cwd=REPO, stdout=log, stderr=subprocess.STDOUT)
    interrupted = False
    counter = LineCounter(out / "records.jsonl")
    samples: list[tuple[int, float]] = []
    t0 = last_t = time.monotonic()
    last_games, next_line = 0, args.every
    print(f"{'games':>8} {'min':>6} {'games/s':>8} {'RSS MB':>7}" + ("  worker MB" if cluster else "")
          + "".join(f" {name + ' MB':>17}" for name in FILES), flush=True)
    while True:
        finished = proc.poll() is not None
        games = counter.count()
        if games >= args.games and not interrupted:
            proc.send_signal(signal.SIGINT)          # as Ctrl-C: the run stops, its games saved
            interrupted = True
        if games >= next_line or (finished and games > last_games):
            now = time.monotonic()
            rss = rss_mb(proc.pid)
            if not finished:
                samples.append((games, rss))
            rate = (games - last_games) / max(now - last_t, 1e-9)
            workers = f"  {max((rss_mb(p) for p in cluster.worker_pids()), default=0):9.1f}" if cluster else ""
            print(f"{games:>8} {(now - t0) / 60:>6.1f} {rate:>8.1f} {rss:>7.1f}{workers}"
                  + "".join(f" {mb(out / name):>17.2f}" for name in FILES), flush=True)
            last_games, last_t = games, now
            while next_line <= games:
                next_line += args.every
        if finished:
            break
        time.sleep(0.5)
    log.close()
    if proc.returncode not in (0, 130):
        print(f"the referee exited with {proc.returncode}: see {out.parent / 'referee.log'}")
    return samples


def slope(samples: list[tuple[int, float]]) -> float:
    """MB per game, least squares."""
    n = len(samples)
    if n < 2:
        return 0.0
    mx = sum(g for g, _ in samples) / n
    my = sum(r for _, r in samples) / n
    den = sum((g - mx) ** 2 for g, _ in samples)
    return sum((g - mx) * (r - my) for g, r in samples) / den if den else 0.0


def memory_verdict(samples: list[tuple[int, float]]) -> None:
    after = [(g, r) for g, r in samples if g >= 2000]
    at = dict(samples)
    base = next((r for g, r in samples if g >= 2000), None)
    later = next((r for g, r in samples if g >= 12000), None)
    if base is not None and later is not None:
        print(f"RSS growth from game 2,000 to game 12,000: {later - base:+.1f} MB (target < 10 MB)")
    per_game = slope(after)
    print(f"RSS slope after game 2,000: {per_game * 1000:+.3f} MB per 1,000 games -> "
          f"{per_game * 1_000_000:+.1f} MB of growth by 1,000,000 games (target <= 100 MB); "
          f"RSS from {min(at.values(), default=0):.1f} to {max(at.values(), default=0):.1f} MB")
    last = max(at, default=0)
    tail = [(g, r) for g, r in samples if g >= last / 2]
    if last >= 20000 and len(tail) >= 3:
        warm = slope(tail)
        print(f"RSS slope over the second half (games {tail[0][0]:,} to {last:,}): {warm * 1000:+.3f} MB "
              f"per 1,000 games -> {warm * 1_000_000:+.1f} MB by 1,000,000 games (the rate once warm)")


def first_go_seconds(out: Path, use_checkpoint: bool) -> float:
    """Seconds from starting `--resume` on a copy of `out` to its first `go` (the copy is removed)."""
    copy = out.parent / ("resume-with" if use_checkpoint else "resume-without")
    shutil.rmtree(copy, ignore_errors=True)
    copy.mkdir()
    for name in ("config.json", "records.jsonl", "games.pgn", "checkpoint.json"):
        if (out / name).exists() and (use_checkpoint or name != "checkpoint.json"):
            shutil.copyfile(out / name, copy / name)
    io_log = copy.parent / f"{copy.name}.io.log"
    io_log.unlink(missing_ok=True)
    argv = [sys.executable, "-m", "referee", "match", "--out", str(copy), "--resume", "--io-log", str(io_log)]
    t0 = time.monotonic()
    proc = subprocess.Popen(argv, env=env(), cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seconds = float("nan")
    while proc.poll() is None and time.monotonic() - t0 < 600:
        try:
            if ": go" in io_log.read_text(errors="replace"):
                seconds = time.monotonic() - t0
                break
        except OSError:
            pass
        time.sleep(0.02)
    proc.kill()                  # its engines go with it (the referee's watchdog)
    proc.wait()
    shutil.rmtree(copy, ignore_errors=True)
    io_log.unlink(missing_ok=True)
    return seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--every", type=int, default=2000, help="a line every this many games (default 2000)")
    parser.add_argument("--game", default="foundations")
    parser.add_argument("--out", type=Path, help="run directory (default: a new temporary one)")
    parser.add_argument("--cluster", type=int, metavar="N", help="play on a local Dask cluster of N workers")
    parser.add_argument("--resume-check", action="store_true",
                        help="then time --resume of the run (with and without its checkpoint) to its first go")
    parser.add_argument("--keep", action="store_true", help="keep the run directory")
    args = parser.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="long-run-"))
    out = args.out or tmp / "run"
    cluster = Cluster(args.cluster, tmp) if args.cluster else None
    print(f"long run: {args.games} games of {args.game}, two random isaac-engine players, concurrency 1"
          + (f", on a local Dask cluster of {args.cluster} workers" if cluster else "") + f"; output in {out}")
    try:
        samples = watch(args, out, cluster)
    finally:
        if cluster is not None:
            cluster.close()
    memory_verdict(samples)
    print(f"report.html: {mb(out / 'report.html'):.2f} MB (target <= 2 MB); records.jsonl {mb(out / 'records.jsonl'):.1f} MB")
    if args.resume_check and not cluster:
        with_cp = first_go_seconds(out, use_checkpoint=True)
        without = first_go_seconds(out, use_checkpoint=False)
        print(f"--resume to the first go: {with_cp:.2f} s with checkpoint.json (target <= 5 s), "
              f"{without:.2f} s reading every record")
    if not args.keep and args.out is None:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
