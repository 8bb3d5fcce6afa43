"""FOUNDATIONS' static value model (engine/games/foundations/value.py): its features read the
rules' placements, and its value is a logistic of the difference between the two sides."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest

from engine.games.foundations.search import FoundationsKnowledge
from engine.games.foundations.settings import FoundationsSettings
from engine.games.foundations.value import BIAS, model_value, value_features
from protocol import new_game
from protocol.board import LENGTHS, VALUE
from tests.support.foundations_games import varied_games
from tests.support.search import context


def _positions(count: int, seed: int):
    """Positions of varied games, ends left out (the model values positions still in play)."""
    return (game for game in varied_games(count, seed) if not game.is_over())


def test_the_side_to_moves_features_count_the_rules_placements():
    seen = {"here": 0, "next": 0, "passed": 0}
    for game in _positions(40, seed=3):
        me = game.turn
        hand = game.hand(me)
        features = value_features(game.scratch(), me)
        hand_value, pieces, fits_here, fits_next, fits_nowhere, room_here, _, passed, level = features
        assert hand_value == sum(VALUE[n] * hand[n] for n in LENGTHS)
        assert pieces == sum(hand[n] for n in LENGTHS)
        assert level == game.level(me)
        groups = list(game.placement_groups())
        for side in game.passes:  # a side that has passed is never to move while the other plays on
            seen["passed"] += 1
            gone = value_features(game.scratch(), side)
            assert gone[7] == 1.0 and gone[2] == gone[3] == 0 and gone[4] == gone[0]
        assert passed == 0.0
        here = [(n, h, v) for lv, n, h, v in groups if lv == game.level(me)]
        if here:
            seen["here"] += 1
            assert fits_here == sum(VALUE[n] * hand[n] for n, _, _ in here)
            assert room_here == pytest.approx(math.log1p(sum((h.bit_count() + v.bit_count()) * hand[n]
                                                             for n, h, v in here)))
        else:
            assert fits_here == 0
            if groups:  # nothing fits on its level: the rules offer the next level, any length
                seen["next"] += 1
                assert fits_next == sum(VALUE[n] * hand[n] for _, n, _, _ in groups)
            assert fits_nowhere == hand_value - fits_next
    assert all(seen.values()), seen


def test_equal_sides_are_worth_the_side_to_moves_edge():
    assert model_value(new_game("foundations").scratch()) == pytest.approx(1 / (1 + math.exp(-BIAS)))


def test_the_value_is_one_difference_seen_from_either_side():
    """The logits for the side to move and for its opponent (the same position, the turn
    flipped) sum to twice the bias: what one side gains the other loses."""
    checked = 0
    for game in _positions(10, seed=5):
        sc = game.scratch()
        mine = model_value(sc)
        sc.turn = 1 - sc.turn
        theirs = model_value(sc)
        assert 0.0 <= mine <= 1.0
        if 1e-9 < mine < 1 - 1e-9 and 1e-9 < theirs < 1 - 1e-9:
            logit = math.log(mine / (1 - mine)) + math.log(theirs / (1 - theirs))
            assert logit == pytest.approx(2 * BIAS, abs=1e-6)
            checked += 1
    assert checked > 100


def test_a_leaf_is_the_model_and_the_playout_in_leaf_mixs_shares():
    game = new_game("foundations")
    for text in ("a0c0", "a9c9", "d0f0", "d9f9"):
        game.push(game.parse_move(text))
    model = model_value(game.scratch())

    def leaf(mix: float) -> float:
        settings = replace(FoundationsSettings(), leaf_mix=mix)
        return FoundationsKnowledge(settings).leaf_value(game, random.Random(1), context(settings, infinite=True))

    assert leaf(1.0) == model
    assert leaf(0.5) == pytest.approx(0.5 * model + 0.5 * leaf(0.0))
