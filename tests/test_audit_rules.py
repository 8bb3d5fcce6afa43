"""Audit: rules and notation defects found by probing edge cases (each test failed before its fix)."""

from __future__ import annotations

import pytest

from protocol.errors import PositionError
from protocol.foundations import FoundationsGame


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
