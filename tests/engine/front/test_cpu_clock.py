"""ISAAC_ENGINE_CLOCK=cpu (engine/cpu_clock.py): the engine keeps its time on its CPU clock, for benchmarks on a
loaded machine; anything but `cpu` or `wall` is refused."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from engine import cpu_clock
from tests.support.paths import REPO


def test_cpu_makes_the_monotonic_clock_the_process_time(monkeypatch):
    monkeypatch.setattr(time, "monotonic", time.monotonic)  # restored after the test
    monkeypatch.setenv(cpu_clock.ENVIRONMENT, "cpu")
    assert cpu_clock.use_cpu_clock_if_asked()
    assert time.monotonic is time.process_time


@pytest.mark.parametrize("value", ["", "wall"])
def test_the_wall_clock_by_default(monkeypatch, value):
    wall = time.monotonic
    monkeypatch.setenv(cpu_clock.ENVIRONMENT, value)
    assert not cpu_clock.use_cpu_clock_if_asked()
    assert time.monotonic is wall


def test_another_value_is_refused_naming_it(monkeypatch):
    monkeypatch.setenv(cpu_clock.ENVIRONMENT, "gpu")
    with pytest.raises(SystemExit, match="ISAAC_ENGINE_CLOCK='gpu': expected 'cpu' or 'wall'"):
        cpu_clock.use_cpu_clock_if_asked()


def test_an_engine_on_its_cpu_clock_thinks_its_movetime_of_cpu():
    env = dict(os.environ, ISAAC_ENGINE_CLOCK="cpu", PYTHONPATH=str(REPO))
    engine = subprocess.Popen([sys.executable, "-m", "engine"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, cwd=REPO, env=env, start_new_session=True)
    assert engine.stdin is not None and engine.stdout is not None
    engine.stdin.write("uci\nsetoption name UCI_Variant value hari\nisready\n")
    engine.stdin.flush()
    for line in engine.stdout:  # the set-up first: a `go`'s time starts when it arrives
        if line.startswith("readyok"):
            break
    engine.stdin.write("position startpos moves d5d7 d2f2\ngo movetime 150\n")
    engine.stdin.flush()
    lines = []
    for line in engine.stdout:
        lines.append(line.strip())
        if line.startswith("bestmove"):
            break
    engine.stdin.write("quit\n")
    engine.stdin.flush()
    engine.wait(timeout=10)
    times = [int(w.split()[w.split().index("time") + 1]) for w in lines if w.startswith("info") and " time " in w]
    assert lines[-1].startswith("bestmove ") and times
    assert 100 <= times[-1] <= 170  # the search's own account, in CPU ms: its budget, used
