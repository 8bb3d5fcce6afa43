"""kill -9 of `isaac-arena serve` at any moment loses no finished game and no submission: on restart the
games in flight are played again, the counts stay consistent with the games, and no bot process is
left running."""

from __future__ import annotations

import os
import random
import signal
import time
from pathlib import Path

import pytest
from sqlalchemy import func, select

from arena.config import load_arena
from arena.db.database import open_database
from arena.db.schema import games, pairs, versions
from tests.arena.bots import random_bot, tar_gz, write
from tests.arena.conftest import add_author, in_process, make_arena
from tests.arena.test_server import request, wait_for

pytestmark = pytest.mark.slow


def counts(engine) -> tuple[int, int, int]:
    with engine.connect() as db:
        played = db.execute(select(func.count()).select_from(games)).scalar_one()
        counted = db.execute(select(func.coalesce(func.sum(versions.c.games), 0))).scalar_one()
        running = db.execute(select(func.count()).select_from(pairs).where(pairs.c.status == "running")).scalar_one()
    return int(played), int(counted), int(running)


def bot_processes(under: Path) -> list[int]:
    """Processes whose working directory is inside the arena's bots/ (the bots' own)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.readlink(f"/proc/{entry}/cwd").startswith(str(under)):
                    found.append(int(entry))
            except OSError:
                pass
    return found


def test_kill_9_at_any_moment_loses_no_game_and_no_submission(tmp_path, serve):
    directory, _ = make_arena(tmp_path / "arena", edits={"games_per_pairing = 2": "games_per_pairing = 4"})
    token = add_author(directory, "alice")
    for name in ("r1", "r2", "r3"):
        assert in_process("author", "add", str(directory), f"{name}-author")[0] == 0
        assert in_process("add", str(directory), str(write(tmp_path / f"{name}.tgz", tar_gz(random_bot(name)))),
                          "--author", f"{name}-author")[0] == 0
    engine = open_database(load_arena(directory).database_url())
    rng = random.Random(7)
    seen = 0
    server = serve(directory)
    wait_for(lambda: counts(engine)[0] >= 4, 120)
    late = None
    for round_ in range(2):
        time.sleep(rng.uniform(0.2, 1.5))
        if round_ == 0:   # a submission accepted just before a kill is not lost (its check, if the second
            # kill cuts it, runs again after: the wait for it overlaps the second round)
            status, body, _ = request(server, "/api/bots", method="POST", data=tar_gz(random_bot("late")), token=token)
            assert status == 202, body
            late = body["version_id"]
        os.kill(server.proc.pid, signal.SIGKILL)
        server.proc.wait()
        played, counted, _ = counts(engine)
        assert played >= seen, "a recorded game was lost"
        assert counted == 2 * played, "the bots' counts are those of the recorded games"
        seen = played
        # the referee's watchdog ends the engines of a killed server
        wait_for(lambda: bot_processes(directory / "bots") == [], 10)
        server.handle.close()
        server.start()
        wait_for(lambda at_least=seen + 2: counts(engine)[0] >= at_least, 120)
    wait_for(lambda: request(server, "/api/bots/late")[1].get("versions", [{}])[0].get("status") == "active", 120)
    assert late is not None
    assert "interrupted by the last stop: their games are played again" in server.text()
    assert server.stop() == 0
    played, counted, running = counts(engine)
    assert counted == 2 * played
    with engine.connect() as db:
        ids = list(db.execute(select(games.c.id)).scalars())
    assert len(ids) == len(set(ids)) == played
    assert bot_processes(directory / "bots") == []
