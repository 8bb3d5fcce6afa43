"""Time safety of Strategy search (issue 9): the clock starts when the `go` line arrives, lateness
is kept in reserve, and a searcher stuck past its deadline is answered for by the driver."""

from __future__ import annotations

import io
import os
import random
import threading
import time
import types

import pytest

from engine.output import Output
from engine.reader import READ_AHEAD, TooLong, stamped_lines
from engine.search import driver
from engine.search.timeman import LATENESS, LATENESS_CAP_MS, SAFETY_MS, Lateness, TimeManager, plan_budget
from engine.strategies.base import Limits
from engine.uci import Engine
from protocol import new_game
from protocol.messages import MAX_LINE, Info


@pytest.fixture(autouse=True)
def _no_lateness_left_behind():
    """The stuck searchers here make the process-wide lateness large; later tests must not inherit it."""
    yield
    LATENESS.reset()


def test_the_clock_starts_at_limits_started_when_it_is_earlier():
    now = time.monotonic()
    tm = TimeManager(Limits(movetime=100, started=now - 0.040), threading.Event(), start=now, overhead_ms=30)
    assert tm.start == pytest.approx(now - 0.040)
    assert tm.elapsed_ms() >= 40
    assert tm.hard_deadline() == pytest.approx(now - 0.040 + (100 - 30 - SAFETY_MS) / 1000)
    assert TimeManager(Limits(movetime=100), threading.Event(), start=now).start == now


class _Recorder:
    """A strategy that keeps the Limits of each `go` and plays the first legal move."""

    name = "recorder"

    def __init__(self) -> None:
        self.limits: list[Limits] = []

    def choose(self, game, limits, stop, report, rng, options):
        self.limits.append(limits)
        return next(iter(game.legal_moves()))


SLOW_POSITION_S = 0.15
"""How long the `position` before a `go` takes to handle in the arrival test."""


def test_the_clock_of_go_starts_when_go_arrives_not_when_the_loop_gets_to_it(monkeypatch):
    """`go` arrives on the pipe while a slow `position` is being handled: its clock starts then."""
    read_end, write_end = os.pipe()
    feed = os.fdopen(write_end, "wb", buffering=0)
    buffer = io.BytesIO()
    engine = Engine(Output(buffer))
    recorder = _Recorder()
    monkeypatch.setattr(engine.session, "get_strategy", lambda: recorder)
    set_position = engine.session.set_position
    times: dict[str, float] = {}

    def slow_position(line: str) -> None:
        set_position(line)
        times["go sent"] = time.monotonic()
        feed.write(b"go movetime 100\n")
        time.sleep(SLOW_POSITION_S)
        times["position done"] = time.monotonic()
        feed.close()  # end of input once `go` is handled

    monkeypatch.setattr(engine.session, "set_position", slow_position)
    feed.write(b"position startpos moves h3j3 f9i9\n")
    with os.fdopen(read_end, "rb") as stream:
        engine.run(stream)
    engine.job.wait(5)
    [limits] = recorder.limits
    assert limits.movetime == 100
    assert limits.started is not None
    assert times["go sent"] <= limits.started < times["position done"]
    assert buffer.getvalue().decode().splitlines()[-1].startswith("bestmove ")


def test_a_go_handed_over_directly_starts_its_clock_then(monkeypatch):
    """Engine.handle without an arrival time (tests/inprocess_engine.py): the clock starts at the call."""
    engine = Engine(Output(io.BytesIO()))
    recorder = _Recorder()
    monkeypatch.setattr(engine.session, "get_strategy", lambda: recorder)
    time.sleep(0.02)  # the engine's creation is not the `go`'s arrival
    handed = time.monotonic()
    engine.handle("go movetime 100")
    engine.job.wait(5)
    assert handed <= recorder.limits[0].started <= time.monotonic()
    engine.handle("go movetime 100", read_at=handed - 1)
    engine.job.wait(5)
    assert recorder.limits[1].started == handed - 1


def test_stamped_lines_keep_order_and_arrival_times():
    text = b"isready\n" + b"x" * (MAX_LINE + 10) + b"\ngo movetime 5\r\n"
    before = time.monotonic()
    got = list(stamped_lines(io.BytesIO(text)))
    after = time.monotonic()
    stamps = [stamp for stamp, _ in got]
    assert before <= stamps[0] <= stamps[1] <= stamps[2] <= after
    assert got[0][1] == "isready" and got[2][1] == "go movetime 5"
    assert isinstance(got[1][1], TooLong) and got[1][1].size == MAX_LINE + 11


class _BreaksAfter:
    """An input whose reads fail once its lines are used up (a broken stdin)."""

    def __init__(self, *lines: bytes) -> None:
        self.lines = list(lines)

    def readline(self, size: int = -1) -> bytes:
        if self.lines:
            return self.lines.pop(0)
        raise OSError("input went away")


def test_a_read_error_reaches_the_loop_after_the_lines_before_it():
    got: list[str | TooLong] = []
    with pytest.raises(OSError, match="input went away"):
        for _, line in stamped_lines(_BreaksAfter(b"isready\n", b"go\n")):  # type: ignore[arg-type]
            got.append(line)
    assert got == ["isready", "go"]


def test_the_reader_thread_ends_with_the_loop_even_when_it_is_far_ahead():
    buffer = io.BytesIO()
    assert Engine(Output(buffer)).run(io.BytesIO(b"quit\n" + b"isready\n" * (10 * READ_AHEAD))) == 0
    deadline = time.monotonic() + 2
    while any(t.name == "engine-input" for t in threading.enumerate()) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not any(t.name == "engine-input" for t in threading.enumerate())
    assert buffer.getvalue() == b""  # nothing after `quit` is obeyed


def test_lateness_is_reserved_then_fades_and_is_capped():
    late = Lateness()
    base = plan_budget(Limits(movetime=100), 10, overhead_ms=30)
    late.record(-5)  # on time: nothing to keep
    assert late.reserve_ms() == 0
    late.record(12)
    assert plan_budget(Limits(movetime=100), 10, late.reserve_ms(), 30).hard_ms == base.hard_ms - 12
    for _ in range(20):
        late.record(0)
    assert late.reserve_ms() < 1
    late.record(1000)
    assert late.reserve_ms() == LATENESS_CAP_MS
    # never less than a quarter of movetime, whatever the reserve
    assert plan_budget(Limits(movetime=100), 10, 1000, 30).hard_ms == 25
    clock = plan_budget(Limits(time_left=1000, movestogo=1), 1, 0, 30)
    assert plan_budget(Limits(time_left=1000, movestogo=1), 1, 40, 30).hard_ms == clock.hard_ms - 40


def _stuck_searcher(seconds: float, pv: str | None, after: list[str]):
    """A searcher module whose choose reports `pv` and then works `seconds` without looking at the clock."""
    def choose(game, ctx, rng):
        if pv is not None:
            ctx.snapshot = lambda: Info(depth=1, pv=[pv])
        time.sleep(seconds)
        ctx.report(Info(string="late line"))  # must never be printed after the driver answered
        after.append("done")
        return (game.parse_move(pv) if pv else next(iter(game.legal_moves()))), None

    return types.SimpleNamespace(moves_left=lambda game: 10, choose=choose, defaults=None, settings_type=object)


@pytest.mark.parametrize("pv", ["a0a2", None])
def test_a_searcher_stuck_past_its_deadline_is_answered_for(monkeypatch, pv):
    game = new_game("hari")
    after: list[str] = []
    infos: list[Info] = []
    began = time.monotonic()
    move = driver.search(game, _stuck_searcher(0.6, pv, after), Limits(movetime=100),
                         threading.Event(), infos.append, random.Random(1), started=began, overhead_ms=30)
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
    infos: list[Info] = []
    move = driver.search(game, _stuck_searcher(0.0, "a0a2", []), Limits(movetime=100), threading.Event(),
                         infos.append, random.Random(1))
    assert move == game.parse_move("a0a2")
    assert not any("without its searcher" in (i.string or "") for i in infos)
    assert "late line" in [i.string for i in infos]


def test_node_limited_searches_stay_in_the_calling_thread(monkeypatch):
    game = new_game("isaac")
    threads: list[str] = []

    def choose(game, ctx, rng):
        threads.append(threading.current_thread().name)
        return next(iter(game.legal_moves())), None

    searcher = types.SimpleNamespace(moves_left=lambda game: 10, choose=choose, defaults=None, settings_type=object)
    driver.search(game, searcher, Limits(nodes=10), threading.Event(), None, random.Random(1))
    driver.search(game, searcher, Limits(movetime=50), threading.Event(), None, random.Random(1))
    assert threads == [threading.current_thread().name, "engine-searcher"]
