"""Fair clocks (referee/engines/cpu.py): an engine that keeps every core busy gets the CPU only on its turn,
its escaped children too (cgroup v2), each game runs on its own cores, and a referee killed outright
takes its engines with it (the watchdog)."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time

import pytest

from protocol.messages import PositionCommand
from referee.cli import main
from referee.engines import cpu
from referee.engines.cpu import CorePlan, cgroup_root, group_pids, plan_cores, usable_cores
from referee.engines.player import EnginePlayer
from referee.engines.process import EngineSpec
from referee.engines.sandbox import SandboxError, check_available
from tests.support.paths import BAD_ENGINES, HOSTILE_ENGINES, REPO
from tests.support.processes import processes_with, state, wait_until

pytestmark = pytest.mark.slow

HOG = HOSTILE_ENGINES / "cpu_hog.py"


def cpu_ticks(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", "rb") as fh:
                rest = fh.read().rsplit(b")", 1)[1].split()
            total += int(rest[11]) + int(rest[12])
        except (OSError, IndexError):
            pass
    return total


def hog(children: int = 2, mode: str = "group", **spec: object) -> EngineSpec:
    return EngineSpec(name="hog", cmd=[sys.executable, str(HOG), str(children), mode], cwd=str(REPO), **spec)  # type: ignore[arg-type]


def test_cores_are_split_between_game_slots_or_not_at_all():
    assert plan_cores(2, cores=[1, 2, 3, 4, 5]) == CorePlan(((1, 2), (3, 4)))
    assert plan_cores(1, cores=[1]) == CorePlan(((1,),))
    many = plan_cores(3, cores=[1, 2])
    assert many.slots == ((), (), ()) and "3 games at once but 2 free cores" in (many.warning or "")
    assert plan_cores(4, mode="off", cores=[1, 2, 3, 4, 5]).slots == ((),) * 4
    assert many.cores(5) == ()


@pytest.mark.parametrize("mode", ["signals", "auto"])
def test_a_waiting_engine_and_its_children_get_no_cpu(mode):
    async def scenario() -> None:
        player = EnginePlayer(hog(), fair_cpu=mode)
        await player.start()
        process = player.process
        assert process is not None and process.pgid is not None
        members = group_pids(process.pgid)
        assert len(members) == 3                                   # the engine and its two busy children
        assert wait_until(lambda: all(state(p) == "T" for p in members))
        before = cpu_ticks(members)
        await asyncio.sleep(0.6)
        assert cpu_ticks(members) - before <= 2                    # paused: no CPU at all
        try:
            await player.new_game("foundations", seed=7)
            assert wait_until(lambda: all(state(p) == "T" for p in members))
            move, _, _ = await player.go(PositionCommand(None, []).format(), "go movetime 300", 5.0)
            assert move and wait_until(lambda: all(state(p) == "T" for p in members))
        finally:
            await player.quit()
        assert wait_until(lambda: not any(state(p) not in ("", "Z") for p in members))

    asyncio.run(scenario())


def test_an_engine_that_ponders_is_never_paused():
    async def scenario() -> None:
        player = EnginePlayer(hog(pause=False), fair_cpu="auto")
        await player.start()
        assert player.process is not None and player.process.pgid is not None
        members = group_pids(player.process.pgid)
        await player.new_game("isaac")
        before = cpu_ticks(members)
        await asyncio.sleep(0.6)
        assert "T" not in {state(p) for p in members} and cpu_ticks(members) - before >= 10
        await player.quit()

    asyncio.run(scenario())


@pytest.mark.skipif(cgroup_root() is None, reason="cgroup v2 is not writable here (docs/hosting.md: not guaranteed)")
def test_children_that_leave_the_process_group_are_paused_with_the_engine():
    async def scenario() -> None:
        player = EnginePlayer(hog(2, "setsid"), fair_cpu="auto")
        await player.start()
        process = player.process
        assert process is not None and process.cpu is not None and process.cpu.cgroup is not None
        await player.new_game("hari")
        escaped = list(process.cpu.escaped)
        assert len(escaped) == 2 and all(os.getpgid(p) != process.pgid for p in escaped)
        assert wait_until(lambda: all(state(p) == "T" for p in escaped))
        before = cpu_ticks(escaped)
        await asyncio.sleep(0.6)
        assert cpu_ticks(escaped) - before <= 2
        cgroup = process.cpu.cgroup.path
        await player.quit()
        assert not cgroup.exists()   # quit waits for the killed members to die, then removes it
        assert wait_until(lambda: all(state(p) in ("", "Z") for p in escaped))

    asyncio.run(scenario())


@pytest.mark.skipif(cgroup_root() is None, reason="cgroup v2 is not writable here (docs/hosting.md: not guaranteed)")
def test_children_that_left_the_group_before_the_cgroup_was_made_are_adopted():
    """An engine that starts its setsid children in its first milliseconds, before the referee made its
    cgroup (a spawn can take 40 ms where the referee's process is large): they are found by descent."""
    engine = subprocess.Popen([sys.executable, str(HOG), "2", "setsid"], stdin=subprocess.PIPE,
                              stdout=subprocess.DEVNULL, start_new_session=True)
    try:
        def escaped_children() -> list[int]:
            found = [(pid, group) for pid, ppid, group, state in cpu.processes() if ppid == engine.pid and state != "Z"]
            return [pid for pid, _ in found] if len(found) == 2 and all(g != engine.pid for _, g in found) else []

        assert wait_until(lambda: bool(escaped_children()))
        children = escaped_children()
        control = cpu.CpuControl(engine.pid, "auto", True)
        assert control.cgroup is not None and control.cgroup.members() == [engine.pid]
        control.adopt_group()
        control.find_escaped()
        assert sorted(control.escaped) == sorted(children)
        assert sorted(control.cgroup.members()) == sorted([engine.pid, *children])
        path = control.cgroup.path
        asyncio.run(control.forget())
        assert not path.exists() and wait_until(lambda: all(state(p) in ("", "Z") for p in children))
    finally:
        engine.kill()
        engine.wait()


@pytest.mark.skipif(cgroup_root() is None, reason="cgroup v2 is not writable here (docs/hosting.md: not guaranteed)")
def test_a_cgroup_kept_while_a_member_lived_is_removed_when_a_later_engine_ends():
    root = cgroup_root()
    assert root is not None
    kept = root.engine(f"kept-{os.getpid()}")
    assert kept is not None
    sleeper = subprocess.Popen(["sleep", "30"])
    try:
        assert kept.add(sleeper.pid) and kept.populated()
        cpu._LEFT.append(kept)

        async def one_engine() -> None:
            player = EnginePlayer(hog(0), fair_cpu="auto")
            await player.start()
            await player.quit()

        asyncio.run(one_engine())
        assert kept.path.exists() and kept in cpu._LEFT   # a live member: kept, not killed
        sleeper.kill()
        sleeper.wait()
        assert wait_until(lambda: not kept.populated())
        asyncio.run(one_engine())
        assert not kept.path.exists() and kept not in cpu._LEFT
    finally:
        sleeper.kill()
        sleeper.wait()
        kept.kill()
        kept.remove()


@pytest.mark.skipif(len(usable_cores()) < 2, reason="one core: no core to give a game")
def test_an_engine_runs_on_its_game_cores_children_included():
    core = usable_cores()[-1]

    async def scenario() -> None:
        player = EnginePlayer(hog(2), fair_cpu="signals")
        player.use_cores((core,))
        await player.start()
        assert player.process is not None and player.process.pgid is not None
        for pid in group_pids(player.process.pgid):
            assert os.sched_getaffinity(pid) == {core}
        player.use_cores(())
        for pid in group_pids(player.process.pgid):
            assert os.sched_getaffinity(pid) == set(usable_cores())
        await player.quit()

    asyncio.run(scenario())


def test_a_referee_killed_outright_takes_its_paused_engines_with_it(tmp_path):
    """SIGKILL of the referee: no `quit`, no SIGTERM from it; its watchdog kills the engines, which a
    pause would otherwise keep stopped forever."""
    token = f"hogtoken{os.getpid()}"
    out = tmp_path / "run"
    argv = [sys.executable, "-m", "referee", "match", "--game", "foundations", "--games", "400",
            "--tc", "60+1", "--out", str(out),
            "-engine", "name=a", f"cmd={sys.executable} {HOG} 0 group {token}",
            "-engine", "name=b", f"cmd={sys.executable} {HOG} 0 group {token}"]
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    referee = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert wait_until(lambda: (out / "records.jsonl").exists() and (out / "records.jsonl").stat().st_size > 0, 60)
        engines = [p for p in processes_with(token, alive=True) if p != referee.pid]
        assert len(engines) == 2
        referee.kill()
        referee.wait()
        assert wait_until(lambda: all(state(p) in ("", "Z") for p in engines), 10), [state(p) for p in engines]
    finally:
        if referee.poll() is None:
            referee.kill()
        for pid in processes_with(token, alive=True):
            if pid != referee.pid:
                os.kill(pid, signal.SIGKILL)


def test_search_against_a_cpu_hog_the_hogs_children_stay_idle(tmp_path, capsys):
    """A match through the command line: the hog's busy children run only during the hog's own
    moves (a few ms), not during its opponent's (most of the game)."""
    out = tmp_path / "run"
    seen: dict[int, int] = {}
    stop = threading.Event()

    def watch() -> None:
        while not stop.is_set():
            for pid in processes_with(str(HOG), alive=True):
                seen[pid] = max(seen.get(pid, 0), cpu_ticks([pid]))
            time.sleep(0.05)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    t0 = time.monotonic()
    try:
        code = main(["match", "--game", "foundations", "--games", "2", "--tc", "10+0.5 margin=2000", "--out", str(out),
                     "--concurrency", "1", "--json",
                     "-engine", "name=slow", f"cmd={sys.executable} {BAD_ENGINES / 'slow_random.py'} 150",
                     "-engine", "name=hog", f"cmd={sys.executable} {HOG} 2 group"])
    finally:
        stop.set()
        watcher.join()
    seconds = time.monotonic() - t0
    summary = json.loads(capsys.readouterr().out)
    assert code == 0 and summary["terminations"] == {"normal": 2}
    busy = sum(seen.values()) / os.sysconf("SC_CLK_TCK")    # the hog and its two children, in CPU seconds
    assert busy < 0.25 * seconds, (busy, seconds, seen)


def test_fair_cpu_is_a_run_option(tmp_path, capsys):
    code = main(["match", "--game", "hari", "--games", "2", "--tc", "60+1", "--fair-cpu", "off", "--json",
                 "--out", str(tmp_path / "run"),
                 "-engine", "name=a", f"cmd={sys.executable} {BAD_ENGINES / 'good_random.py'}",
                 "-engine", "name=b", f"cmd={sys.executable} {BAD_ENGINES / 'good_random.py'}", "pause=no"])
    summary = json.loads(capsys.readouterr().out)
    assert code == 0 and summary["games_recorded"] == 2
    config = json.loads((tmp_path / "run" / "config.json").read_text())
    assert [e.get("pause", True) for e in config["identity"]["engines"]] == [True, False]


try:
    check_available("bwrap")
    BWRAP = True
except SandboxError:
    BWRAP = False


@pytest.mark.sandbox
@pytest.mark.skipif(not BWRAP and not os.environ.get("CI"), reason="bwrap unusable here")
def test_a_sandboxed_engine_is_paused_too(tmp_path):
    home = tmp_path / "hog"
    home.mkdir()
    shutil.copy(BAD_ENGINES / "good_random.py", home)
    shutil.copy(HOG, home)
    shutil.copytree(REPO / "protocol", home / "protocol", ignore=shutil.ignore_patterns("__pycache__"))

    async def scenario() -> None:
        spec = EngineSpec("hog", [sys.executable, "cpu_hog.py", "2", "group"], cwd=str(home), sandbox="bwrap")
        player = EnginePlayer(spec, fair_cpu="signals")
        await player.start()
        assert player.process is not None and player.process.pgid is not None
        members = group_pids(player.process.pgid)
        assert len(members) >= 4                       # bwrap, its child in the namespace, the engine, children
        await player.new_game("isaac")
        assert wait_until(lambda: all(state(p) == "T" for p in members))
        before = cpu_ticks(members)
        await asyncio.sleep(0.6)
        assert cpu_ticks(members) - before <= 2
        move, _, _ = await player.go(PositionCommand(None, []).format(), "go movetime 100", 5.0)
        assert move
        await player.quit()

    asyncio.run(scenario())

