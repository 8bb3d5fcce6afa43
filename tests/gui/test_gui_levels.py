"""The page's levels: each names a Skill Level and a time per move, never more than the clock allows."""

from __future__ import annotations

import pytest

from gui.levels import CLOCK, DEFAULT_LEVEL, LEVELS, go_for, level_movetime, level_of
from referee.formats.timecontrol import TimeControl
from referee.matches.clock import Clock


def clocks(tc: str) -> tuple[Clock, Clock]:
    return Clock(TimeControl.parse(tc)), Clock(TimeControl.parse(tc))


def test_levels_grow_in_skill_and_time_and_the_default_answers_within_a_second():
    assert [lv.number for lv in LEVELS] == list(range(1, 9))
    assert all(a.skill < b.skill and a.movetime_ms < b.movetime_ms for a, b in zip(LEVELS, LEVELS[1:], strict=False))
    assert LEVELS[-1].skill == 20 and LEVELS[0].skill == 0
    assert level_of(DEFAULT_LEVEL).movetime_ms <= 1000


def test_a_level_is_chosen_by_number_or_text_and_anything_else_is_refused():
    assert level_of(3) is level_of("3") is LEVELS[2]
    assert level_of(CLOCK) is None
    for bad in (0, 9, "x", True, 2.0, None, "03 "):
        with pytest.raises(ValueError, match="unknown level"):
            level_of(bad)


def test_a_level_thinks_its_time_unless_the_clock_is_short():
    level = level_of(6)                               # 1 s a move
    dark, light = clocks("60+1")
    assert go_for(level, dark, light, 0).format() == "go movetime 1000"
    dark.remaining_ms = 4000                          # 4 s left, 1 s increment: 0.4 s + 0.8 s
    assert level_movetime(level, dark) == 1000
    dark.remaining_ms = 1000                          # 1 s left: 0.1 s + 0.8 s, but never 60% of the clock
    assert level_movetime(level, dark) == 600
    dark, light = clocks("st=0.2")                    # a fixed time per move is a ceiling
    assert go_for(level, dark, light, 1).format() == "go movetime 200"
    dark, light = clocks("inf nodes=5000")            # an untimed game keeps its other limits
    assert go_for(level, dark, light, 0).format() == "go movetime 1000 nodes 5000"


def test_no_level_plays_by_the_clock():
    dark, light = clocks("60+1")
    assert go_for(None, dark, light, 1).format() == "go p1time 60000 p2time 60000 p1inc 1000 p2inc 1000"
