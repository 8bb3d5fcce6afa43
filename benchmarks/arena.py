"""The arena's targets, measured (docs/arena.md, docs/benchmarks.md). Each command prints its figures.

    python benchmarks/arena.py pages  [--bots 200] [--games 200000] [--database sqlite|postgres] [--requests 300]
    python benchmarks/arena.py load   [--bots 200] [--games 200000] [--clients 100] [--seconds 60] [--database ...]
                                      [--arena DIR]
    python benchmarks/arena.py rate   [--bots 4] [--games 400] [--game hari] [--runs 3]
    python benchmarks/arena.py memory [--games 100000] [--every 2000]
    python benchmarks/arena.py intake [--runs 3]

pages: an arena database filled with --bots playing versions and --games recorded games (pairs,
  records of a real game, head-to-head counts), served by `isaac-arena serve --no-ladder`; each page
  asked --requests times in turn on one keep-alive connection: median and 95th percentile of the
  leaderboard (HTML and JSON) and of a random bot's page (HTML and JSON); also the leaderboard's
  query alone, uncached, in this process.
load: the same database; --clients concurrent clients (asyncio, keep-alive) for --seconds, each
  asking in turn the leaderboard, its JSON, a random bot's page and its JSON, the next request at
  once (or after a pause of mean --think seconds, as people reading pages): requests, errors,
  median, 95th and 99th percentile, and the server's CPU time a request (what a change to the server
  saves, less disturbed by other jobs on the machine than the rates are). --arena DIR (SQLite): the arena in DIR, made and filled on first
  use and reused after, so runs to compare (two versions of the server) skip the filling.
rate: the same random players (tests/engines/bad/good_random.py) as an `isaac-referee tournament`
  (--concurrency 1) and as --bots bots of an arena (`--workers 1`, sandbox none): games per second
  of each over --games games, alternating, medians over --runs.
memory: an arena of two random players on the ladder for --games games; the server's resident
  memory every --every games, and its slope (MB per 1,000 games) after the first 2,000.
intake: a running arena with one random bot; the Python starter uploaded (POST /api/bots, sandbox
  bwrap): seconds until its first ladder game starts and until it is recorded, per run and median.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import zlib
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from sqlalchemy import func, insert, select  # noqa: E402

from arena.cli import main as arena_main  # noqa: E402
from arena.config import load_arena  # noqa: E402
from arena.db.database import migrate, open_database  # noqa: E402
from arena.db.pages import leaderboard  # noqa: E402
from arena.db.schema import authors, bots, encounters, games, pairs, records, versions  # noqa: E402
from arena.ratings import Rating, rate, spark_after  # noqa: E402
from tests.arena.bots import python_starter, random_bot, tar_gz  # noqa: E402

GOOD = REPO / "tests" / "engines" / "bad" / "good_random.py"


def quiet_main(*args: str) -> str:
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = arena_main(list(args))
    if code != 0:
        raise SystemExit(f"isaac-arena {' '.join(args)}: exit {code}")
    return out.getvalue()


def new_arena(where: Path, database: str | None = None, sandbox: str = "none", tc: str = "st=1",
              game: str = "hari") -> tuple[Path, str]:
    argv = ["init", str(where), "--game", game, "--tc", tc, "--sandbox", sandbox]
    if database:
        argv += ["--database", database]
    text = quiet_main(*argv)
    token = re.search(r"admin token .*: (\S+)", text)
    assert token is not None
    return where, token.group(1)


def template_record() -> dict[str, Any]:
    """A real HARI game between two random players, as the referee records it."""
    import protocol
    game = protocol.new_game("hari")
    rng = random.Random(5)
    moves = []
    while not game.is_over():
        move = game.random_move(rng)
        if move is None:
            break
        game.push(move)
        moves.append({"move": str(move), "ms": rng.randint(1, 9), "info": {"depth": 1, "nodes": 300}})
    result = game.result()
    return {"game_id": 0, "game_type": "hari", "rules_version": protocol.RULES_VERSION,
            "start_position": protocol.new_game("hari").position(), "opening": [],
            "dark": {"name": "a", "cmd": ["python3", "bot.py"], "cwd": "/srv/bots/a", "options": {}, "tc": "st=0.1"},
            "light": {"name": "b", "cmd": ["python3", "bot.py"], "cwd": "/srv/bots/b", "options": {}, "tc": "st=0.1"},
            "time_control": {"dark": "st=0.1", "light": "st=0.1"}, "moves": moves,
            "result": result.text if result else "1/2-1/2", "termination": "normal", "reason": "the rules end it",
            "final_scores": list(result.scores) if result else [], "final_position": game.position(), "pair": 0,
            "round": 1, "started_at": "2026-12-01T00:00:00+00:00", "duration_s": 1.5}


def fill(directory: Path, n_bots: int, n_games: int, seed: int = 1) -> list[str]:
    """The database of a season: n_bots playing versions, n_games recorded games. The bots' names."""
    engine = open_database(load_arena(directory).database_url())
    migrate(engine)
    rng = random.Random(seed)
    now = time.time()
    names = [f"bot{i:03d}" for i in range(n_bots)]
    with engine.begin() as db:
        db.execute(insert(authors), [{"name": f"author{i:03d}", "token_hash": f"{i:064x}", "is_admin": False,
                                       "created_at": now} for i in range(n_bots)])
        db.execute(insert(bots), [{"author_id": i + 1, "name": names[i], "created_at": now, "deleted": False}
                                  for i in range(n_bots)])
        db.execute(insert(versions), [{"bot_id": i + 1, "number": 1, "created_at": now, "status": "active",
                                       "reason": "playing", "archive": "x.tgz", "archive_sha256": "0" * 64,
                                       "command": "[]", "build_command": None, "build_log": "", "check_report": "",
                                       "activated_at": now, "mu": 25.0, "sigma": 8.33, "games": 0, "wins": 0,
                                       "draws": 0, "losses": 0, "failed_in_row": 0, "spark": "[]"}
                                      for i in range(n_bots)])
    template = template_record()
    strength = [rng.gauss(0, 1) for _ in range(n_bots)]
    state = {i + 1: {"r": Rating(), "g": 0, "w": 0, "d": 0, "l": 0, "spark": []} for i in range(n_bots)}
    head: dict[tuple[int, int], list[int]] = {}
    batch = 5000
    for start in range(0, n_games // 2, batch):
        pair_rows, game_rows, record_rows = [], [], []
        for pair_id in range(start + 1, min(n_games // 2, start + batch) + 1):
            a, b = rng.sample(range(1, n_bots + 1), 2)
            pair_rows.append({"id": pair_id, "game_type": "hari", "first": a, "second": b, "opening": 0, "games": 2,
                              "status": "done", "created_at": now, "finished_at": now})
            for k, (dark, light) in enumerate(((a, b), (b, a))):
                edge = strength[dark - 1] - strength[light - 1]
                result = "1-0" if rng.random() < 1 / (1 + 10 ** (-edge)) else "0-1"
                game_id = pair_id * 64 + k
                record = dict(template, game_id=game_id, pair=pair_id, result=result)
                game_rows.append({"id": game_id, "pair_id": pair_id, "game_type": "hari", "dark": dark, "light": light,
                                  "result": result, "termination": "normal", "reason": "the rules end it",
                                  "failed": None, "plies": len(template["moves"]), "finished_at": now, "duration": 1.5})
                record_rows.append({"game_id": game_id, "record": zlib.compress(json.dumps(record).encode(), 6)})
                rd, rl = rate(state[dark]["r"], state[light]["r"], result)
                for side, new, won in ((dark, rd, result == "1-0"), (light, rl, result == "0-1")):
                    s = state[side]
                    s["r"], s["g"] = new, s["g"] + 1
                    s["w" if won else "l"] += 1
                    s["spark"] = spark_after(s["spark"], new)
                head.setdefault((dark, light), [0, 0, 0])[0 if result == "1-0" else 2] += 1
                head.setdefault((light, dark), [0, 0, 0])[2 if result == "1-0" else 0] += 1
        with engine.begin() as db:
            db.execute(insert(pairs), pair_rows)
            db.execute(insert(games), game_rows)
            db.execute(insert(records), record_rows)
    from sqlalchemy import update
    with engine.begin() as db:
        for vid, s in state.items():
            db.execute(update(versions).where(versions.c.id == vid).values(
                mu=s["r"].mu, sigma=s["r"].sigma, games=s["g"], wins=s["w"], losses=s["l"], last_game_at=now,
                spark=json.dumps(s["spark"])))
        db.execute(insert(encounters), [{"version_id": a, "opponent_id": b, "wins": w, "draws": d, "losses": loss}
                                        for (a, b), (w, d, loss) in head.items()])
    engine.dispose()
    return names


class Server:
    def __init__(self, directory: Path, *args: str):
        self.log = directory / "serve.log"
        self.handle = open(self.log, "wb")
        self.proc = subprocess.Popen([sys.executable, "-m", "arena", "serve", str(directory), "--port", "0", *args],
                                     stdout=self.handle, stderr=self.handle, cwd=REPO, start_new_session=True,
                                     env={**os.environ, "PYTHONPATH": str(REPO)})
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", self.log.read_text(errors="replace"))
            if found:
                self.port = int(found.group(1))
                return
            if self.proc.poll() is not None:
                raise SystemExit(self.log.read_text())
            time.sleep(0.1)
        raise SystemExit("the server did not start")

    def rss_mb(self) -> float:
        with open(f"/proc/{self.proc.pid}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def cpu_s(self) -> float:
        """The server process's CPU time so far (user + system), in seconds."""
        with open(f"/proc/{self.proc.pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
        self.handle.close()


async def get(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, path: str) -> tuple[int, float]:
    """One GET on a keep-alive connection: (status, seconds)."""
    t0 = time.perf_counter()
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n".encode())
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = int(re.search(rb"(?i)content-length: (\d+)", head).group(1))   # type: ignore[union-attr]
    await reader.readexactly(length)
    return status, time.perf_counter() - t0


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def database_url(kind: str, where: Path) -> tuple[str | None, Any]:
    if kind == "sqlite":
        return None, None
    from tests.support.postgres import Server as Postgres
    from tests.support.postgres import server_bin
    bin_dir = server_bin()
    if bin_dir is None:
        raise SystemExit("no PostgreSQL server installed")
    server = Postgres(bin_dir)
    server.start()
    return server.new_database(), server


def cmd_pages(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as tmp:
        url, pg = database_url(args.database, Path(tmp))
        try:
            directory, _ = new_arena(Path(tmp) / "arena", url)
            t0 = time.monotonic()
            names = fill(directory, args.bots, args.games)
            print(f"{args.database}: {args.bots} bots, {args.games} games written in {time.monotonic() - t0:.0f} s")
            engine = open_database(load_arena(directory).database_url())
            times = []
            for _ in range(50):
                t = time.perf_counter()
                leaderboard(engine)
                times.append(time.perf_counter() - t)
            print(f"leaderboard query alone (uncached): median {pct(times, 0.5):.1f} ms, p95 {pct(times, 0.95):.1f} ms")
            server = Server(directory, "--no-ladder")
            try:
                rng = random.Random(2)

                async def run() -> None:
                    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
                    for label, paths in (("leaderboard page", lambda: "/"), ("leaderboard JSON", lambda: "/api/leaderboard"),
                                         ("bot page", lambda: f"/bots/{rng.choice(names)}"),
                                         ("bot JSON", lambda: f"/api/bots/{rng.choice(names)}")):
                        for _ in range(10):
                            await get(reader, writer, paths())
                        spent = []
                        for _ in range(args.requests):
                            status, seconds = await get(reader, writer, paths())
                            assert status == 200, (label, status)
                            spent.append(seconds)
                        print(f"{label:<17} median {pct(spent, 0.5):6.1f} ms  p95 {pct(spent, 0.95):6.1f} ms "
                              f"({args.requests} requests)")
                    writer.close()

                asyncio.run(run())
            finally:
                server.stop()
        finally:
            if pg is not None:
                pg.stop()


def kept_arena(directory: Path, n_bots: int, n_games: int) -> list[str]:
    """--arena: the arena in `directory`, made and filled the first time; its bots' names."""
    if not (directory / "arena.toml").exists():
        new_arena(directory)
        fill(directory, n_bots, n_games)
    engine = open_database(load_arena(directory).database_url())
    with engine.connect() as db:
        names = list(db.execute(select(bots.c.name).order_by(bots.c.id)).scalars())
    engine.dispose()
    return names


def cmd_load(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as tmp:
        url, pg = database_url(args.database, Path(tmp))
        try:
            if args.arena:
                directory = Path(args.arena).resolve()
                names = kept_arena(directory, args.bots, args.games)
            else:
                directory, _ = new_arena(Path(tmp) / "arena", url)
                names = fill(directory, args.bots, args.games)
            server = Server(directory, "--no-ladder")
            try:
                latencies: list[float] = []
                errors: list[str] = []

                async def client(n: int, end: float) -> None:
                    rng = random.Random(n)
                    paths = ["/", "/api/leaderboard", None, None]
                    try:
                        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
                    except OSError as exc:
                        errors.append(f"connect: {exc}")
                        return
                    i = n
                    while time.monotonic() < end:
                        path = paths[i % 4] or (f"/bots/{rng.choice(names)}" if i % 4 == 2 else f"/api/bots/{rng.choice(names)}")
                        i += 1
                        try:
                            status, seconds = await get(reader, writer, path)
                        except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
                            errors.append(f"{path}: {exc!r}")
                            return
                        if status != 200:
                            errors.append(f"{path}: {status}")
                        latencies.append(seconds)
                        if args.think:
                            await asyncio.sleep(rng.uniform(0, 2 * args.think))
                    writer.close()

                async def run() -> None:
                    end = time.monotonic() + args.seconds
                    await asyncio.gather(*(client(n, end) for n in range(args.clients)))

                t0, cpu0 = time.monotonic(), server.cpu_s()
                asyncio.run(run())
                spent, cpu = time.monotonic() - t0, server.cpu_s() - cpu0
                print(f"{args.database}: {args.clients} clients (think {args.think:g} s) for {spent:.0f} s: {len(latencies)} requests "
                      f"({len(latencies) / spent:.0f}/s), {len(errors)} errors; median {pct(latencies, 0.5):.0f} ms, "
                      f"p95 {pct(latencies, 0.95):.0f} ms, p99 {pct(latencies, 0.99):.0f} ms; server RSS {server.rss_mb():.0f} MB, "
                      f"server CPU {cpu:.1f} s ({1e6 * cpu / max(1, len(latencies)):.0f} us a request); "
                      f"load average {os.getloadavg()[0]:.1f}")
                for error in errors[:5]:
                    print("  error:", error)
            finally:
                server.stop()
        finally:
            if pg is not None:
                pg.stop()


def add_random_bots(directory: Path, count: int, tmp: Path) -> None:
    for i in range(count):
        quiet_main("author", "add", str(directory), f"author{i}")
        archive = tmp / f"r{i}.tgz"
        archive.write_bytes(tar_gz(random_bot(f"random{i}")))
        quiet_main("add", str(directory), str(archive), "--author", f"author{i}")


def referee_rate(tmp: Path, n: int, count: int, game: str) -> float:
    engines = []
    for i in range(n):
        engines += ["-engine", f"name=r{i}", f"cmd={sys.executable} {GOOD}", f"option.Seed={i + 1}"]
    pairs_each = max(1, count // (n * (n - 1)))
    out = tmp / f"referee-{time.monotonic_ns()}"
    done = subprocess.run([sys.executable, "-m", "referee", "tournament", *engines, "--game", game, "--games",
                           str(2 * pairs_each), "-each", "tc=st=1", "--concurrency", "1", "--out", str(out), "--json"],
                          capture_output=True, text=True, cwd=REPO)
    summary = json.loads(done.stdout)
    return float(summary["games_recorded"]) / float(summary["seconds"])


def arena_rate(tmp: Path, n: int, count: int, game: str) -> tuple[float, dict[str, int]]:
    """Games per second once every bot is checked and playing, over `count` games; their terminations."""
    directory, _ = new_arena(tmp / f"arena-{time.monotonic_ns()}", game=game)
    add_random_bots(directory, n, tmp)
    engine = open_database(load_arena(directory).database_url())
    server = Server(directory, "--workers", "1")
    try:
        while len(leaderboard(engine)) < n:   # the intake checks the bots one by one first
            time.sleep(0.2)
        since = time.time()
        while True:
            with engine.connect() as db:
                rows = db.execute(select(games.c.finished_at, games.c.termination).where(games.c.finished_at > since)
                                  .order_by(games.c.finished_at)).all()
            if len(rows) >= count + 2:
                break
            time.sleep(0.5)
    finally:
        server.stop()
    window = rows[2:count + 2]   # from the end of the second game on: every slot is busy
    ends: dict[str, int] = {}
    for row in window:
        ends[row.termination] = ends.get(row.termination, 0) + 1
    return (len(window) - 1) / (window[-1].finished_at - window[0].finished_at), ends


def cmd_rate(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as tmp:
        referee, arena = [], []
        for run in range(args.runs):
            referee.append(referee_rate(Path(tmp), args.bots, args.games, args.game))
            rate_, ends = arena_rate(Path(tmp), args.bots, args.games, args.game)
            arena.append(rate_)
            print(f"run {run + 1}: isaac-referee tournament {referee[-1]:.2f} games/s, arena ladder {arena[-1]:.2f} "
                  f"games/s (arena's games ended by {ends})", flush=True)
        r, a = statistics.median(referee), statistics.median(arena)
        print(f"{args.game}, {args.bots} random players, concurrency 1: referee {r:.2f} games/s, arena {a:.2f} "
              f"games/s (medians of {args.runs}): arena/referee {a / r:.1%}")


def cmd_memory(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as tmp:
        directory, _ = new_arena(Path(tmp) / "arena")
        add_random_bots(directory, 2, Path(tmp))
        engine = open_database(load_arena(directory).database_url())
        server = Server(directory, "--workers", "1")
        samples: list[tuple[int, float]] = []
        t0 = time.monotonic()
        try:
            mark = args.every
            while True:
                with engine.connect() as db:
                    count = int(db.execute(select(func.count()).select_from(games)).scalar_one())
                if count >= mark:
                    samples.append((count, server.rss_mb()))
                    print(f"{count:>7} games  RSS {samples[-1][1]:6.1f} MB  {count / (time.monotonic() - t0):.1f} games/s",
                          flush=True)
                    mark += args.every
                    if count >= args.games:
                        break
                time.sleep(1)
        finally:
            server.stop()
        later = [(g, m) for g, m in samples if g >= 2000]
        if len(later) >= 2:
            gx = statistics.mean(g for g, _ in later)
            mx = statistics.mean(m for _, m in later)
            slope = sum((g - gx) * (m - mx) for g, m in later) / sum((g - gx) ** 2 for g, _ in later)
            print(f"slope after game 2,000: {slope * 1000:+.3f} MB per 1,000 games; RSS {later[0][1]:.1f} -> "
                  f"{later[-1][1]:.1f} MB")


def cmd_intake(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as tmp:
        starts, firsts = [], []
        for run in range(args.runs):
            directory, _ = new_arena(Path(tmp) / f"arena{run}", sandbox="bwrap", tc="st=0.1")
            add_random_bots(directory, 1, Path(tmp))
            token = quiet_main("author", "add", str(directory), "starter").split("token ", 1)[1].split()[0]
            engine = open_database(load_arena(directory).database_url())
            server = Server(directory, "--workers", "1")
            try:
                while not leaderboard(engine):
                    time.sleep(0.2)
                data = tar_gz(python_starter())
                t0 = time.monotonic()
                request = urllib.request.Request(f"http://127.0.0.1:{server.port}/api/bots", data=data, method="POST",
                                                 headers={"Authorization": f"Bearer {token}"})
                with urllib.request.urlopen(request, timeout=60) as answer:
                    version_id = json.loads(answer.read())["version_id"]
                started = recorded = None
                while recorded is None and time.monotonic() - t0 < 180:
                    with engine.connect() as db:
                        if started is None and db.execute(select(func.count()).select_from(pairs).where(
                                (pairs.c.first == version_id) | (pairs.c.second == version_id))).scalar_one():
                            started = time.monotonic() - t0
                        if db.execute(select(func.count()).select_from(games).where(
                                (games.c.dark == version_id) | (games.c.light == version_id))).scalar_one():
                            recorded = time.monotonic() - t0
                    time.sleep(0.1)
            finally:
                server.stop()
            starts.append(started or float("inf"))
            firsts.append(recorded or float("inf"))
            print(f"run {run + 1}: first ladder game started {starts[-1]:.1f} s after the upload, recorded "
                  f"{firsts[-1]:.1f} s after")
        print(f"Python starter, sandbox bwrap: first game started {statistics.median(starts):.1f} s, recorded "
              f"{statistics.median(firsts):.1f} s after upload (medians of {args.runs})")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    for name, run in (("pages", cmd_pages), ("load", cmd_load)):
        s = sub.add_parser(name)
        s.add_argument("--bots", type=int, default=200)
        s.add_argument("--games", type=int, default=200_000)
        s.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
        s.add_argument("--requests", type=int, default=300)
        s.add_argument("--clients", type=int, default=100)
        s.add_argument("--seconds", type=float, default=60)
        s.add_argument("--think", type=float, default=0.0,
                       help="load: a client's mean pause between requests (0: at once, the hardest case)")
        s.add_argument("--arena", default="", help="load, SQLite: this arena directory, filled on first use, reused after")
        s.set_defaults(run=run)
    s = sub.add_parser("rate")
    s.add_argument("--bots", type=int, default=4)
    s.add_argument("--games", type=int, default=400)
    s.add_argument("--game", default="hari")
    s.add_argument("--runs", type=int, default=3)
    s.set_defaults(run=cmd_rate)
    s = sub.add_parser("memory")
    s.add_argument("--games", type=int, default=100_000)
    s.add_argument("--every", type=int, default=2000)
    s.set_defaults(run=cmd_memory)
    s = sub.add_parser("intake")
    s.add_argument("--runs", type=int, default=3)
    s.set_defaults(run=cmd_intake)
    args = p.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
