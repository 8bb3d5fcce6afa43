"""The referee's clocks: increments, margins, moves per session, fixed times, its own measurement,
and the `go` each side receives."""

from __future__ import annotations

import pytest

from protocol.board import DARK, LIGHT
from referee.formats.timecontrol import TimeControl
from referee.matches.clock import Clock, go_command


def test_clock_increment_margin_and_flag():
    clock = Clock(TimeControl.parse("1+0.1"))
    assert clock.allowed_ms() == 1000 and clock.deadline_s() == pytest.approx(1.05)
    assert clock.stop(300) == 300
    assert clock.remaining_ms == 800 and not clock.flagged
    clock.stop(840)                       # 40 ms over, inside the 50 ms margin
    assert not clock.flagged and clock.remaining_ms == 100
    clock.stop(200)
    assert clock.flagged and clock.overrun_ms(200) == 100


def test_clock_moves_per_session_and_movetime():
    clock = Clock(TimeControl.parse("2/10"))
    assert clock.movestogo == 2
    clock.stop(1000)
    assert clock.movestogo == 1
    clock.stop(1000)
    assert clock.movestogo == 2 and clock.remaining_ms == 18000
    fixed = Clock(TimeControl.parse("movetime=100 margin=10"))
    assert fixed.remaining_ms is None and fixed.deadline_s() == pytest.approx(0.11)
    assert Clock(TimeControl.parse("depth=3")).deadline_s() is None


def test_clock_measures_itself_with_monotonic_time():
    clock = Clock(TimeControl.parse("10"))
    clock.start()
    assert 0 <= clock.stop() < 1000


def test_go_command_carries_both_clocks_and_own_limits():
    dark, light = Clock(TimeControl.parse("10+0.1")), Clock(TimeControl.parse("5 depth=3"))
    assert go_command(dark, light, DARK).format() == "go p1time 10000 p2time 5000 p1inc 100"
    assert go_command(dark, light, LIGHT).format() == "go p1time 10000 p2time 5000 p1inc 100 depth 3"
    moves = Clock(TimeControl.parse("40/60"))
    assert "movestogo 40" in go_command(moves, light, DARK).format()
    untimed = Clock(TimeControl.parse("nodes=500"))
    assert go_command(untimed, dark, DARK).format() == "go nodes 500"
    assert go_command(Clock(TimeControl.parse("st=0.2")), dark, DARK).format() == "go movetime 200"
