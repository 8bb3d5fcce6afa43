"""HARI's budget-sized widths (HariSettings.budget_tiers; the search core's budget_tier, SPEC 9.10): a search
that can expect few nodes narrows itself after its first iteration, one that can expect many does not, and
bad tiers are refused with a clear error."""

from __future__ import annotations

import pytest

from engine.games.hari import _search_core as _core
from engine.games.hari import search_core as hari_native
from engine.games.hari.settings import HariSettings
from protocol import new_game

BOOK_OPENING = "d5d7 d2f2 a2a4 h7h9 c8e8 e5e7".split()
TIERS = ((40.0, 48, 4, 2, 2), (100.0, 96, 8, 3, 3))


def _position():
    game = new_game("hari")
    for move in BOOK_OPENING:
        game.play(move)
    return hari_native.position_tuple(game)


def _iterations(node_limit: int, tiers) -> list[tuple[int, int]]:
    """(depth, nodes so far) after each complete iteration of a search limited to node_limit nodes."""
    position = _position()
    root = _core.candidates(position, 32, 200, 24, 8, 16)
    done: list[tuple[int, int]] = []
    _core.search(position, root, 16, 30, 18, node_limit, 0.0, None, lambda d, v, pv, n, lines: done.append((d, n)) or False,
                 False, 200, 24, 1, 4, 4, 1, 0.0, tiers)
    return done


def test_few_nodes_narrow_the_search_after_its_first_iteration():
    wide, narrow = _iterations(3000, None), _iterations(3000, TIERS)
    assert wide[0] == narrow[0]  # the first iteration is the same: every root move one ply deep
    assert len(wide) == 1  # 3,000 nodes do not finish depth 2 over ~200 root moves, 16 placements a length
    assert len(narrow) >= 2 and narrow[1][1] < 3000  # 48 root moves, 4 a length below: depth 2 finishes


def test_many_nodes_leave_the_widths_as_given():
    assert _iterations(30000, TIERS) == _iterations(30000, None)


def test_the_same_answer_for_the_same_budget():
    position = _position()
    root = _core.candidates(position, 32, 200, 24, 8, 16)
    answers = {_core.search(position, root, 16, 30, 18, 5000, 0.0, None, None, False, 200, 24, 1, 4, 4, 1, 0.0,
                            TIERS)[0] for _ in range(3)}
    assert len(answers) == 1


@pytest.mark.parametrize("tiers, message", [
    (((100.0, 48, 4, 2, 2), (40.0, 96, 8, 3, 3)), "ratios above 0 and rising"),
    (((0.0, 48, 4, 2, 2),), "ratios above 0 and rising"),
    (((40.0, 0, 4, 2, 2),), "keep at least 1"),
    (((40.0, 48, 40, 2, 2),), "per_length"),
    ((40.0, 48, 4, 2, 2), "a tier: a tuple"),
    (tuple((float(i + 1), 8, 4, 2, 2) for i in range(9)), "at most 8"),
])
def test_bad_tiers_are_refused(tiers, message):
    position = _position()
    root = _core.candidates(position, 16)
    with pytest.raises((ValueError, TypeError), match=message):
        _core.search(position, root, 10, 2, 0, 1000, 0.0, None, None, False, 4, 24, 0, 0, 0, 1, 0.0, tiers)


def test_the_settings_check_their_tiers():
    assert HariSettings(budget_tiers=()).budget_tiers == ()
    with pytest.raises(ValueError, match="budget_tiers"):
        HariSettings(budget_tiers=((100.0, 48, 4, 2, 2), (40.0, 96, 8, 3, 3)))
    with pytest.raises(ValueError, match="budget_tiers"):
        HariSettings(budget_tiers=((40.0, 48, 4, 2),))  # type: ignore[arg-type]
