"""How wide ISAAC's scoring-phase alpha-beta looks: the wide removal candidates to the ply the settings
name, the narrow ones deeper; wider inner plies cost nodes but leave the engine's answers legal."""

from __future__ import annotations

import dataclasses

import pytest

from engine.games.isaac import knowledge as K
from engine.games.isaac.search import _ab_candidates, choose_scoring, scoring_alpha_beta
from engine.games.isaac.settings import IsaacSettings
from protocol.games.isaac.rules import IsaacGame
from tests.engine.games.isaac.test_alphabeta_table import SCORING_STARTS, _random_scoring_starts
from tests.support.search import context

STARTS = SCORING_STARTS + _random_scoring_starts(4, seed=11)


@pytest.mark.parametrize("position", STARTS[:3])
def test_each_ply_gets_the_width_asked_for(position):
    game = IsaacGame.from_position(position)
    moves = _ab_candidates(wide_plies=2)
    assert list(moves(game, 1)) == K.removal_candidates(game, wide=True)
    assert list(moves(game, 2)) == K.removal_candidates(game, wide=True)
    assert list(moves(game, 3)) == K.removal_candidates(game, wide=False)


def test_the_wide_candidates_hold_the_narrow_ones():
    for position in STARTS:
        game = IsaacGame.from_position(position)
        assert set(K.removal_candidates(game, wide=False)) <= set(K.removal_candidates(game, wide=True))


def _nodes(position: str, wide_plies: int, depth: int) -> int:
    game = IsaacGame.from_position(position)
    settings = dataclasses.replace(IsaacSettings(), scoring_wide_plies=wide_plies)
    ctx = context(settings, depth=depth)
    ab = scoring_alpha_beta(ctx, keyed=False)
    ab.search_root(game, depth, K.removal_candidates(game, wide=True))
    assert game.position() == position
    return ctx.tm.nodes


def test_wide_inner_plies_look_at_more_positions():
    """The default (wide at every ply) searches a superset of the narrow-below-the-first-reply tree."""
    assert IsaacSettings().scoring_wide_plies >= 64
    narrow = sum(_nodes(p, 1, 4) for p in STARTS)
    wide = sum(_nodes(p, 64, 4) for p in STARTS)
    assert wide > narrow


@pytest.mark.parametrize("wide_plies", [1, 64])
def test_the_engine_plays_a_legal_scoring_move_at_either_width(wide_plies):
    settings = dataclasses.replace(IsaacSettings(), scoring_wide_plies=wide_plies)
    for position in STARTS[:3]:
        game = IsaacGame.from_position(position)
        move, info = choose_scoring(game, context(settings, depth=3))
        assert game.is_legal(move) and info.depth >= 1
