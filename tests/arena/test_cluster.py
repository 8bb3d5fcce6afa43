"""`isaac-arena serve --cluster`: the ladder's game pairs played by Dask workers through the referee's
task, each game's stderr carried back for its bot's author; a lost scheduler ends the server cleanly
(exit 2, one line, every finished game kept) and the next start on a new cluster goes on, the
interrupted pairs played again."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import distributed
import pytest
from sqlalchemy import func, select

from arena.config import load_arena
from arena.db.database import open_database
from arena.db.schema import games, versions
from tests.arena.bots import crasher_bot, random_bot, tar_gz, write
from tests.arena.conftest import add_author, in_process, make_arena
from tests.arena.test_server import request, wait_for

pytestmark = [pytest.mark.cluster, pytest.mark.slow]


def start_cluster(tmp_path: Path, name: str) -> tuple[list[subprocess.Popen[bytes]], str]:
    scheduler_file = tmp_path / f"{name}.json"
    with open(tmp_path / f"{name}-scheduler.log", "ab") as log:  # the child keeps its own handle
        procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                   "--port", "0", "--scheduler-file", str(scheduler_file), "--no-dashboard"],
                                  stdout=subprocess.DEVNULL, stderr=log)]
    deadline = time.monotonic() + 60
    while not scheduler_file.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    with open(tmp_path / f"{name}-worker.log", "ab") as log:
        procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", "--scheduler-file",
                                       str(scheduler_file), "--nthreads", "1", "--no-nanny", "--no-dashboard"],
                                      stdout=subprocess.DEVNULL, stderr=log,
                                      env={**os.environ, "ISAAC_REFEREE_WORKER_GAMES": "1"}))
    with distributed.Client(scheduler_file=str(scheduler_file), timeout="30s") as client:
        client.wait_for_workers(1, timeout=60)
        address = client.scheduler.address
    return procs, address


def wait_or_show(what: Any, tmp_path: Path, server: Any, timeout: float = 180) -> None:
    """wait_for, and on a timeout the server's, the schedulers' and the workers' logs (why it hung)."""
    try:
        wait_for(what, timeout)
    except AssertionError:
        logs = {"serve": server.text()} | {p.name: p.read_text(errors="replace") for p in sorted(tmp_path.glob("*.log"))}
        raise AssertionError("timed out; the logs:\n" + "\n".join(f"--- {name}\n{text[-4000:]}"
                                                                  for name, text in logs.items())) from None


def stop(procs: list[subprocess.Popen[bytes]]) -> None:
    for proc in reversed(procs):
        proc.kill()
        proc.wait()


def test_the_ladder_on_dask_keeps_each_games_stderr_and_survives_a_lost_scheduler(tmp_path, serve):
    # a crashing bot loses every game: it must not be suspended before the test ends
    directory, _ = make_arena(tmp_path / "arena", edits={"suspend_after = 10 ": "suspend_after = 1000 "})
    tokens = {}
    for name, files in (("one", random_bot("one")), ("two", crasher_bot("two"))):
        tokens[name] = add_author(directory, name)
        assert in_process("add", str(directory), str(write(tmp_path / f"{name}.tgz", tar_gz(files))),
                          "--author", name)[0] == 0
    engine = open_database(load_arena(directory).database_url())

    def recorded() -> int:
        with engine.connect() as db:
            return int(db.execute(select(func.count()).select_from(games)).scalar_one())

    procs, address = start_cluster(tmp_path, "first")
    try:
        server = serve(directory, "--cluster", address)
        wait_or_show(lambda: recorded() >= 2, tmp_path, server)
        # the crasher's author sees what it wrote in a game a worker played; the other author does not
        with engine.connect() as db:
            game_id = int(db.execute(select(games.c.id).order_by(games.c.id)).scalars().first())
        status, seen, _ = request(server, f"/api/me/games/{game_id}/stderr", token=tokens["two"])
        assert status == 200 and [part["bot"] for part in seen["stderr"]] == ["two"], seen
        assert "crasher gives up: ZeroDivisionError" in seen["stderr"][0]["head"]
        status, other, _ = request(server, f"/api/me/games/{game_id}/stderr", token=tokens["one"])
        assert status == 200 and other["stderr"] == []
        stop(procs)
        procs = []
        deadline = time.monotonic() + 90
        while server.proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        assert server.proc.returncode == 2, server.text()[-2000:]
        said = [line for line in server.text().splitlines() if "lost the Dask scheduler" in line]
        assert said and all("finished games are recorded" in line for line in said), said   # whole on one line
        assert "Traceback" not in server.text()
        kept = recorded()
        assert kept >= 2
        server.handle.close()
        procs, address = start_cluster(tmp_path, "second")
        server.args = ("--cluster", address)
        server.start()
        wait_or_show(lambda: recorded() >= kept + 2, tmp_path, server)
        assert server.stop() == 0
    finally:
        stop(procs)
    with engine.connect() as db:
        counted = int(db.execute(select(func.sum(versions.c.games))).scalar_one())
    assert counted == 2 * recorded()
