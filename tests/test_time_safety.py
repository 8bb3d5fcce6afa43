"""Time safety of Strategy search (issue 9): the clock starts at the read of `go`, lateness is
kept in reserve, and a searcher stuck past its deadline is answered for by the driver."""

from __future__ import annotations

import io
import random
import threading
import time
import types

import pytest

from engine.output import Output
from engine.search import driver
from engine.search.timeman import LATENESS, LATENESS_CAP_MS, SAFETY_MS, Lateness, TimeManager, plan_budget
from engine.strategies.base import Limits
from engine.uci import Engine
from protocol import new_game
from protocol.messages import Info


@pytest.fixture(autouse=True)
def _no_lateness_left_behind():
    """The stuck searchers here make the process-wide lateness large; later tests must not inherit it."""
    yield
    LATENESS.reset()


def test_the_clock_starts_at_limits_started_when_it_is_earlier():
    now = time.monotonic()
    tm = TimeManager(Limits(movetime=100, move_overhead=30, started=now - 0.040), threading.Event(), start=now)
    assert tm.start == pytest.approx(now - 0.040)
    assert tm.elapsed_ms() >= 40
    assert tm.hard_deadline() == pytest.approx(now - 0.040 + (100 - 30 - SAFETY_MS) / 1000)
    assert TimeManager(Limits(movetime=100), threading.Event(), start=now).start == now


def test_engine_passes_the_read_time_of_go_to_the_search(monkeypatch):
    engine = Engine(Output(io.BytesIO()))
    started: list[Limits] = []
    monkeypatch.setattr(engine.job, "start", lambda kind, target, out, game, strategy, limits, rng:
                        started.append(limits))
    ticks = iter([100.0, 200.0, 300.0])
    monkeypatch.setattr("engine.uci.time", types.SimpleNamespace(monotonic=lambda: next(ticks)))
    engine.run(io.BytesIO(b"position startpos moves h3j3 f9i9\ngo movetime 100\n"))
    assert [limits.started for limits in started] == [200.0]  # the second line read, not a later moment


def test_lateness_is_reserved_then_fades_and_is_capped():
    late = Lateness()
    base = plan_budget(Limits(movetime=100, move_overhead=30), 10)
    late.record(-5)  # on time: nothing to keep
    assert late.reserve_ms() == 0
    late.record(12)
    assert plan_budget(Limits(movetime=100, move_overhead=30), 10, late.reserve_ms()).hard_ms == base.hard_ms - 12
    for _ in range(20):
        late.record(0)
    assert late.reserve_ms() < 1
    late.record(1000)
    assert late.reserve_ms() == LATENESS_CAP_MS
    # never less than a quarter of movetime, whatever the reserve
    assert plan_budget(Limits(movetime=100, move_overhead=30), 10, 1000).hard_ms == 25
    clock = plan_budget(Limits(time_left=1000, move_overhead=30), 1, 0)
    assert plan_budget(Limits(time_left=1000, move_overhead=30), 1, 40).hard_ms == clock.hard_ms - 40


def _stuck_searcher(seconds: float, pv: str | None, after: list[str]):
    """A searcher module whose choose reports `pv` and then works `seconds` without looking at the clock."""
    def choose(game, ctx, rng):
        if pv is not None:
            ctx.snapshot = lambda: Info(depth=1, pv=[pv])
        time.sleep(seconds)
        ctx.report(Info(string="late line"))  # must never be printed after the driver answered
        after.append("done")
        return (game.parse_move(pv) if pv else next(iter(game.legal_moves()))), None

    return types.SimpleNamespace(moves_left=lambda game: 10, choose=choose)


@pytest.mark.parametrize("pv", ["a0a2", None])
def test_a_searcher_stuck_past_its_deadline_is_answered_for(monkeypatch, pv):
    game = new_game("hari")
    after: list[str] = []
    monkeypatch.setattr(driver, "searcher_for", lambda game: _stuck_searcher(0.6, pv, after))
    infos: list[Info] = []
    began = time.monotonic()
    move = driver.search(game, Limits(movetime=100, move_overhead=30), threading.Event(), infos.append,
                         random.Random(1), started=began)
    took = time.monotonic() - began
    assert took < 0.4  # 65 ms of budget + 10 ms of grace; generous for a loaded machine
    expected = game.parse_move(pv) if pv else next(iter(game.legal_moves()))
    assert move == expected
    assert any("answered without its searcher" in (i.string or "") for i in infos)
    assert infos[-1].pv == [str(expected)]
    count = len(infos)
    driver._join_orphans()
    for worker in list(driver._orphans):
        worker.join(2)
    driver._join_orphans()
    assert after == ["done"] and len(infos) == count  # the worker's late line was dropped
    assert not driver._orphans


def test_a_searcher_on_time_is_not_disturbed(monkeypatch):
    game = new_game("hari")
    monkeypatch.setattr(driver, "searcher_for", lambda game: _stuck_searcher(0.0, "a0a2", []))
    infos: list[Info] = []
    move = driver.search(game, Limits(movetime=100), threading.Event(), infos.append, random.Random(1))
    assert move == game.parse_move("a0a2")
    assert not any("without its searcher" in (i.string or "") for i in infos)
    assert "late line" in [i.string for i in infos]


def test_node_limited_searches_stay_in_the_calling_thread(monkeypatch):
    game = new_game("isaac")
    threads: list[str] = []

    def choose(game, ctx, rng):
        threads.append(threading.current_thread().name)
        return next(iter(game.legal_moves())), None

    monkeypatch.setattr(driver, "searcher_for",
                        lambda game: types.SimpleNamespace(moves_left=lambda game: 10, choose=choose))
    driver.search(game, Limits(nodes=10), threading.Event(), None, random.Random(1))
    driver.search(game, Limits(movetime=50), threading.Event(), None, random.Random(1))
    assert threads == [threading.current_thread().name, "engine-searcher"]
