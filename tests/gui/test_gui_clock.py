"""The page's clocks as players write them: `5+3` is 5 minutes and 3 s a move (lichess), the
referee's seconds only where they cannot be mistaken, and a short message for anything else."""

from __future__ import annotations

import pytest

from gui.clock import ClockError, clock_text, clock_words, parse_clock
from gui.config import DEFAULT_TC, build_config
from referee.engines.config import ConfigError


@pytest.mark.parametrize("typed, base_ms, inc_ms, words", [
    ("5+3", 300_000, 3000, "5 min + 3 s a move"),          # lichess: minutes + seconds
    ("0.5+0", 30_000, 0, "30 s"),                          # lichess's half minute
    ("10", 600_000, 0, "10 min"),
    ("1:30+2", 90_000, 2000, "1 min 30 s + 2 s a move"),   # minutes:seconds, as the referee writes it
    ("90s+2", 90_000, 2000, "1 min 30 s + 2 s a move"),    # seconds said
    ("5:00+3", 300_000, 3000, "5 min + 3 s a move"),
    ("3m+2", 180_000, 2000, "3 min + 2 s a move"),
])
def test_a_clock_counts_minutes_unless_it_says_seconds(typed, base_ms, inc_ms, words):
    tc = parse_clock(typed)
    assert (tc.base_ms, tc.inc_ms, tc.movetime_ms) == (base_ms, inc_ms, None)
    assert clock_words(tc) == words
    assert parse_clock(clock_text(tc)) == tc            # what the box shows reads back the same


@pytest.mark.parametrize("typed, words", [("untimed", "untimed"), ("inf", "untimed"), ("-", "untimed"),
                                          ("st=1", "1 s a move"), ("untimed depth=4", "untimed, depth 4")])
def test_untimed_and_the_referees_spelled_out_parts(typed, words):
    tc = parse_clock(typed)
    assert tc.base_ms is None and clock_words(tc) == words
    assert parse_clock(clock_text(tc)) == tc


@pytest.mark.parametrize("typed, said", [
    ("abc", "clock 'abc' not understood: write minutes + seconds a move, e.g. 5+3"),
    ("", "the clock is empty"),
    ("0+3", "must be more than 0"),
    ("5+3 5+3", "base given twice"),
    ("st=abc", "st needs a non-negative number of seconds"),
    ("foo=1", "unknown setting 'foo'"),
    (5, "the clock is text"),
])
def test_a_bad_clock_gets_one_short_sentence(typed, said):
    with pytest.raises(ClockError) as error:
        parse_clock(typed)
    text = str(error.value)
    assert said in text and len(text) < 130 and "\n" not in text
    assert "a time control is space-separated parts" not in text   # not the referee's grammar


def test_the_servers_default_and_its_tc_option_use_the_same_reading():
    assert parse_clock(DEFAULT_TC).base_ms == 300_000
    assert build_config([], [], None, None, [], "10+5").default_tc == "10+5"
    with pytest.raises(ConfigError, match="--tc: clock 'abc' not understood"):
        build_config([], [], None, None, [], "abc")
