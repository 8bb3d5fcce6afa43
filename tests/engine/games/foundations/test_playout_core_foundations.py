"""FOUNDATIONS' `fastmc` core (engine/games/foundations/_playout_core.c): levels, held to the rules.

test_partner_cores.py holds every core to its contract; here the FOUNDATIONS-only parts:
positions on upper levels are covered, the greedy playout plays the shortest length that
fits on the level the rules allow, and the root keeps every length that fits."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.games.foundations import playout_core as partner
from tests.support.playout_positions import varied_positions

POSITIONS = varied_positions("foundations", 150, seed=41)


def _params(**changes):
    return replace(partner.DEFAULTS, **changes).params()


def test_upper_levels_are_covered():
    assert sum(1 for g in POSITIONS if max(g.level(0), g.level(1)) >= 2) >= 30


def test_the_greedy_playout_plays_the_shortest_length_that_fits():
    greedy = _params(eps=0.0, skip=0.0)
    for i, game in enumerate(POSITIONS):
        natives, _, _ = partner.core().playout(partner.position_tuple(game), greedy, i)
        position = game.copy()
        for native in natives:
            move = position.check_move(partner.to_move(native))
            group = position.shortest_group()
            if group is not None:
                level, length, _, _ = group
                assert (move.level, move.segment.length) == (level, length), position.position()
            position.push(move)


def test_the_root_keeps_every_length_that_fits():
    for game in POSITIONS:
        moves = [partner.to_move(m) for m in partner.core().candidates(partner.position_tuple(game), partner.DEFAULTS.params())]
        lengths = {n for _, n, h, v in game.placement_groups() if h or v}
        assert {m.segment.length for m in moves if hasattr(m, "segment")} == lengths
        assert len(moves) <= max(partner.DEFAULTS.width, 2 * len(lengths))


def test_a_narrow_root_is_the_full_ranking_cut_as_the_contract_says():
    """With room for every placement the core ranks them all (best guess first); narrower, it offers each length's
    best two first, then the best of the rest, in that ranking's order: selected, not sorted, but the same moves."""
    ranked = 0
    for game in POSITIONS[:80]:
        position = partner.position_tuple(game)
        ranking = partner.core().candidates(position, _params(width=256))
        if len(ranking) == 256:
            continue  # more placements than the widest root: not the full ranking
        ranked += 1
        for width in (24, 12, 3):
            firsts, per = [], {}
            for native in ranking:
                length = partner.to_move(native).segment.length if native[0] >= 0 else 0
                if per.get(length, 0) < 2:
                    per[length] = per.get(length, 0) + 1
                    firsts.append(native)
            rest = [n for n in ranking if n not in firsts]
            expected = ranking if len(ranking) <= width else firsts + rest[:max(0, width - len(firsts))]
            assert partner.core().candidates(position, _params(width=width)) == expected, (game.position(), width)
    assert ranked >= 40


def test_a_parameter_out_of_its_range_is_named_with_its_range():
    with pytest.raises(ValueError, match=r"params: width must be 1 to 256, not 1000"):
        partner.core().candidates(partner.position_tuple(POSITIONS[0]), _params(width=1000))
