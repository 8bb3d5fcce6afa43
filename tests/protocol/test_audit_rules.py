"""Audit: rules and notation defects found by probing edge cases (each test failed before its fix)."""

from __future__ import annotations

import pytest

from protocol.errors import PositionError
from protocol.games.foundations.rules import FoundationsGame


@pytest.mark.parametrize("text, column", [
    ("foundations c3c7^0/- 33333444455667/333334444555667 l -", 13),
    ("foundations -/c3c7^0 333334444555667/33333444455667 d -", 15),
])
def test_foundations_position_level_0_rejected(text, column):
    # A piece on "level 0" was accepted and then silently dropped: the position
    # printed back without it, one piece short of a set.
    with pytest.raises(PositionError) as e:
        FoundationsGame.from_position(text)
    assert e.value.column == column
    assert "level" in e.value.message


# -- protocol messages ---------------------------------------------------------------

from protocol.messages import OptionSpec, ProtocolError, parse_go, parse_info  # noqa: E402


@pytest.mark.parametrize("line", [
    "go movetime ５００",       # full-width digits: Python's int() reads them
    "go depth 1_0",            # int() reads digit groups too
    "go nodes ٣",
    "go p1time 1000 p2time +5 ",
])
def test_go_numbers_are_ascii_digits(line):
    with pytest.raises(ProtocolError):
        parse_go(line)


@pytest.mark.parametrize("value", ["1_0", "５", "+7"])
def test_spin_values_are_ascii_digits(value):
    spec = OptionSpec("Seed", "spin", "0", min=0, max=100)
    with pytest.raises(ProtocolError):
        spec.coerce(value)


def test_info_score_mate_is_not_read_as_centipawns():
    # SPEC 9.5 defines only 'score cp'; 'score mate 3' was stored as cp 3.
    info = parse_info("info depth 3 score mate 3 pv a0a2")
    assert info.score_cp is None
    assert info.depth == 3 and info.pv == ["a0a2"]
