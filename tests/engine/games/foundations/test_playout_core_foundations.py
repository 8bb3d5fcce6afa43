"""FOUNDATIONS' `fastmc` core (engine/games/foundations/_playout_core.c): levels, held to the rules.

test_partner_cores.py holds every core to its contract; here the FOUNDATIONS-only parts:
positions on upper levels are covered, the greedy playout plays the shortest length that
fits on the level the rules allow, and the root keeps every length that fits."""

from __future__ import annotations

from dataclasses import replace

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
