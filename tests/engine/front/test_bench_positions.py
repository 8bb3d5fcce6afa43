"""The benchmark positions stay valid, canonical positions of their games."""

import pytest

from protocol import game_from_position
from protocol.bench import POSITIONS


@pytest.mark.parametrize("label,text,depth", POSITIONS, ids=[p[0] for p in POSITIONS])
def test_bench_position_is_canonical_and_playable(label, text, depth):
    game = game_from_position(text)
    assert game.position() == text
    assert not game.is_over() and game.count_legal_moves() > 0
