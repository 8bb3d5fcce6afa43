"""Distributed runs on Dask: the same records and statistics as a local run, a killed worker costs a replay."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import distributed
import pytest

from referee.cli import main
from referee.formats.record import GameRecord
from referee.results.tally import engine_totals
from tests.support.paths import BAD_ENGINES, REPO

pytestmark = pytest.mark.cluster

BAD = BAD_ENGINES


@pytest.fixture
def env(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    monkeypatch.setenv("ISAAC_REFEREE_WORKER_GAMES", "1")


def engines(script: str, *extra: str) -> list[str]:
    out = []
    for seed, name in enumerate(("a", "b", "c"), 1):
        out += ["-engine", f"name={name}", f"cmd={sys.executable} {BAD / script} {' '.join(extra)}".strip(),
                f"option.Seed={seed}"]
    return out


def records_of(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines() if line.strip()]


def run(argv: list[str], capsys) -> dict:
    assert main(argv + ["--json"]) == 0
    return json.loads(capsys.readouterr().out)


def comparable(summary: dict) -> dict:
    keep = ("games_recorded", "terminations", "engines", "standings", "ratings", "crosstable", "encounters")
    return {k: summary[k] for k in keep}


def test_a_local_cluster_plays_the_same_games_as_the_local_runner(tmp_path, env, capsys):
    base = ["tournament", *engines("good_random.py"), "--game", "foundations", "--games", "2",
            "-each", "tc=20+0.2"]
    local = run(base + ["--out", str(tmp_path / "local"), "--concurrency", "1"], capsys)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        remote = run(base + ["--out", str(tmp_path / "cluster"), "--cluster", cluster.scheduler_address], capsys)
        # --resume works as today: cut the records to two games, the cluster plays the other four again
        stored = (tmp_path / "cluster" / "records.jsonl").read_text().splitlines(keepends=True)
        (tmp_path / "cluster" / "records.jsonl").write_text("".join(stored[:2]))
        resumed = run(["tournament", "--out", str(tmp_path / "cluster"), "--resume",
                       "--cluster", cluster.scheduler_address], capsys)
        # each run's records reader ended on its own last message: no get is left waiting on the
        # scheduler (it would take the next record put on that queue, and the record would be lost)
        names = list(cluster.scheduler.extensions["queues"].queues)
        with distributed.Client(cluster) as client:
            for name in names:
                distributed.Queue(name, client=client).put({"probe": name})
            assert len(names) == 2 and all(distributed.Queue(n, client=client).qsize() == 1 for n in names)
    assert comparable(remote) == comparable(local) == comparable(resumed)
    assert resumed["games_played_now"] == 4
    assert (tmp_path / "cluster" / "report.html").is_file()
    by_id = {r["game_id"]: r["moves"] for r in records_of(tmp_path / "local")}
    assert {r["game_id"]: r["moves"] and [m["move"] for m in r["moves"]] for r in records_of(tmp_path / "cluster")} \
        == {k: [m["move"] for m in v] for k, v in by_id.items()}


def test_preflight_runs_on_the_workers(tmp_path, env, capsys):
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        with pytest.raises(SystemExit) as exc:
            main(["match", "-engine", "name=ghost", "cmd=./nonexistent", "-engine", "name=b",
                  f"cmd={sys.executable} {BAD / 'good_random.py'}", "--out", str(tmp_path / "o"),
                  "--cluster", cluster.scheduler_address])
    assert exc.value.code == 2
    assert "on worker inproc://" in capsys.readouterr().err


def once_two_games_recorded(out: Path, act) -> threading.Thread:
    """A thread that calls `act` (until it returns True, for 60 s at most) once the run in `out` has
    recorded two games: a fault injected in the middle of a run."""
    def watch() -> None:
        end = time.monotonic() + 60
        while time.monotonic() < end:
            if (out / "records.jsonl").exists() and len(records_of(out)) >= 2 and act():
                return
            time.sleep(0.02)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread


def _children(pid: int) -> list[int]:
    """Child processes of `pid`, started from any of its threads (engines start in task threads)."""
    out = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children") as fh:
                out += [int(p) for p in fh.read().split()]
    except OSError:
        pass
    return out


def test_a_worker_killed_mid_game_costs_only_a_replay(tmp_path, env, capsys):
    scheduler_file = tmp_path / "scheduler.json"
    procs: list[subprocess.Popen] = []
    common = ["--no-dashboard"]
    try:
        procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host",
                                       "127.0.0.1", "--port", "0", "--scheduler-file", str(scheduler_file),
                                       *common], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        deadline = time.monotonic() + 30
        while not scheduler_file.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        for _ in range(2):
            procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", "--scheduler-file",
                                           str(scheduler_file), "--nthreads", "1", "--no-nanny", *common],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        with distributed.Client(scheduler_file=str(scheduler_file), timeout="30s") as client:
            client.wait_for_workers(2, timeout=60)
            address = client.scheduler.address
        out = tmp_path / "run"
        victim = procs[1]
        killed: list[int] = []

        def kill_mid_game() -> bool:
            if not _children(victim.pid):
                return False
            killed.extend(_children(victim.pid))
            victim.kill()
            return True

        killer = once_two_games_recorded(out, kill_mid_game)
        argv = ["tournament", *engines("slow_random.py", "15"), "--game", "foundations", "--games", "2",
                "--rounds", "2", "-each", "tc=30+0.3", "--out", str(out), "--cluster", address]
        summary = run(argv, capsys)
        killer.join(5)
        assert killed, "the worker was not caught in the middle of a game"
        records = records_of(out)
        ids = [r["game_id"] for r in records]
        assert sorted(ids) == list(range(12)) and len(ids) == len(set(ids)) == 12
        assert all(r["termination"] == "normal" for r in records)
        names = ["a", "b", "c"]
        games = [GameRecord.from_json(r) for r in records]
        assert summary["engines"] == [engine_totals(games, names)[n].to_json() for n in names]
        assert summary["games_recorded"] == 12 and summary["complete"]
    finally:
        for proc in reversed(procs):
            proc.kill()
            proc.wait()


def test_an_sprt_stop_on_a_cluster_records_every_game_that_finished(tmp_path, env, capsys, monkeypatch):
    """Once the SPRT decides, tasks start no new game and the submitter waits for the games running:
    every game a worker finished is recorded (none is cancelled away), and the run stops early."""
    import referee.matches.cluster as cluster_module

    finished: list[int] = []
    play = cluster_module.play_game

    async def counting_play(spec, dark, light, on_move=None):
        record = await play(spec, dark, light, on_move=on_move)
        finished.append(record.game_id)
        return record

    monkeypatch.setattr(cluster_module, "play_game", counting_play)
    out = tmp_path / "run"
    argv = ["match", "-engine", "name=good", f"cmd={sys.executable} {BAD / 'good_random.py'}",
            "-engine", "name=cheat", f"cmd={sys.executable} {BAD / 'illegal_move.py'}",
            "-each", "tc=20+0.2", "--games", "200", "--sprt", "0", "200", "0.05", "0.05", "--out", str(out)]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        summary = run(argv + ["--cluster", cluster.scheduler_address], capsys)
    ids = sorted(r["game_id"] for r in records_of(out))
    assert summary["stopped"] == "sprt H1" and summary["games_recorded"] == len(ids) < 200
    assert ids == sorted(finished)


def test_a_cluster_run_shows_its_games_in_progress_in_live_json(tmp_path, env, capsys, monkeypatch):
    from referee.matches.live import LiveGames

    shown: list[dict] = []
    show = LiveGames.show

    def keep(self, game):
        shown.append(game)
        show(self, game)

    monkeypatch.setattr(LiveGames, "show", keep)
    out = tmp_path / "run"
    argv = ["match", *engines("slow_random.py", "40")[:8], "--game", "hari", "--games", "2",
            "-each", "tc=20+0.2", "--out", str(out)]
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        run(argv + ["--cluster", cluster.scheduler_address], capsys)
    assert shown and {g["game_id"] for g in shown} <= {0, 1}
    assert any(len(g["moves"]) > 2 for g in shown)
    assert all(g["position"].startswith("hari ") for g in shown)
    assert json.loads((out / "live.json").read_text()) == {"games": []}


def test_a_scheduler_lost_mid_run_says_so_keeps_the_games_and_resumes(tmp_path, env, capsys):
    """The scheduler dies during the run: one clear line (no internal error), every finished game kept,
    and --resume on a new cluster plays only the rest."""
    scheduler_file = tmp_path / "scheduler.json"
    procs: list[subprocess.Popen] = []
    try:
        procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host",
                                       "127.0.0.1", "--port", "0", "--scheduler-file", str(scheduler_file),
                                       "--no-dashboard"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        deadline = time.monotonic() + 30
        while not scheduler_file.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", "--scheduler-file",
                                       str(scheduler_file), "--nthreads", "1", "--no-nanny", "--no-dashboard"],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        with distributed.Client(scheduler_file=str(scheduler_file), timeout="30s") as client:
            client.wait_for_workers(1, timeout=60)
            address = client.scheduler.address
        out = tmp_path / "run"

        def kill_scheduler() -> bool:
            procs[0].kill()
            return True

        killer = once_two_games_recorded(out, kill_scheduler)
        argv = ["tournament", *engines("slow_random.py", "5"), "--game", "foundations", "--games", "2",
                "--rounds", "2", "-each", "tc=30+0.3", "--out", str(out), "--cluster", address]
        with pytest.raises(SystemExit) as exc:
            main(argv)
        killer.join(5)
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert "lost the Dask scheduler" in err and "--resume" in err and "internal error" not in err
        kept = records_of(out)
        assert len(kept) >= 2 and len({r["game_id"] for r in kept}) == len(kept)
    finally:
        for proc in reversed(procs):
            proc.kill()
            proc.wait()
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        summary = run(["tournament", "--out", str(out), "--resume", "--cluster", cluster.scheduler_address], capsys)
    assert summary["games_recorded"] == 12 and summary["complete"]
    assert summary["games_played_now"] == 12 - len(kept)
    assert sorted(r["game_id"] for r in records_of(out)) == list(range(12))


class _FakeScheduler:
    def __init__(self, answers: bool) -> None:
        self.answers = answers

    async def identity(self) -> dict:
        if not self.answers:
            raise distributed.comm.core.CommClosedError("in <TCP (closed)>: Connection reset by peer")
        return {"type": "Scheduler"}


class _FakeClient:
    def __init__(self, status: str, answers: bool) -> None:
        self.status = status
        self.scheduler = _FakeScheduler(answers)


@pytest.mark.parametrize(("status", "answers", "gone"), [
    ("running", False, True),     # the client has not noticed yet: the scheduler does not answer
    ("running", True, False),     # an OSError from elsewhere (a task): not a lost scheduler
    ("connecting", True, True),
    ("closed", False, True),
])
def test_a_lost_scheduler_is_told_by_asking_it_not_by_the_clients_lagging_status(status, answers, gone):
    import asyncio

    from referee.matches.cluster import _scheduler_gone
    assert asyncio.run(_scheduler_gone(_FakeClient(status, answers))) is gone
