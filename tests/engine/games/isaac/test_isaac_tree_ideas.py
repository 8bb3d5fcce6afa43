"""The C tree's optional knowledge (engine/games/isaac/_leaf_model.h, _placement_prior.h, _tree.h's all-moves-as-first):
off by default, each leaves the tree as it was; on, each does what its comment says."""

from __future__ import annotations

import math

import pytest

from engine.games.isaac import playout_core as partner
from engine.games.isaac import search as isaac_search
from engine.games.isaac.settings import IsaacSettings
from protocol import game_from_position
from protocol.board import SEGMENTS
from tests.engine.games.isaac.test_isaac_tree import LATE, POSITIONS

SETTINGS = IsaacSettings()
WEIGHTS = (2.0, 1.0, -1.0, -0.5, -0.3, 0.4, 0.4, 0.0, 0.5, 0.5, -0.2, -0.4, 0.2)


def _tree(game, seed=1, **numbers):
    return partner.new_tree(game, isaac_search.candidates(game, SETTINGS), SETTINGS.mcts.numbers(), SETTINGS.prior_scale,
                            SETTINGS.leaf_playouts, SETTINGS.leaf_policy, 0.8, seed, **numbers)


def _searched(tree, simulations=400):
    tree.run(simulations, 0, 0.0, 0.0, 0)
    return tree.root(), tree.info()


def test_the_leaf_features_of_a_known_position():
    # Dark: a0a2 (value 1; column a, which a9c9 touches and Dark's counter at a0 doubles; under that counter: 0.35 of
    # it) and c2c6 (value 3; column c, which a9c9 touches); Light: a9c9 (value 1; alone on rank 9); Light to move,
    # with one more piece in hand, all of which fit: potential Dark 0.35 x 2 x 1 + 3 = 3.7, Light 0.
    game = game_from_position("isaac a0a2,c2c6/a9c9 3333444455667/33334444555667 l - place 0/0")
    f = partner.leaf_features(game)
    filled = (3 + 5 + 3) / 100
    expected = [1.0, (1 - 4) / 10, (1 - 2) / 5, (0 - 3.7) / 20, (35 - 32) / 10, -1.0, -0.3 * filled,
                -0.185 * filled]
    assert f == pytest.approx(expected)


def test_the_fitted_prior_is_a_softmax_of_its_features_over_every_placement():
    for game in POSITIONS[:6]:
        position = partner.position_tuple(game)
        features = dict(partner.core().prior_features(position))
        legal = {m.segment.index for m in game.legal_moves()}
        assert set(features) == legal
        priors = partner.fitted_prior(game, WEIGHTS)
        assert [w for _, w in priors] == sorted((w for _, w in priors), reverse=True)
        assert priors[0][1] == 1.0
        best = max(sum(w * x for w, x in zip(WEIGHTS, f, strict=True)) for f in features.values())
        for move, weight in priors:
            z = sum(w * x for w, x in zip(WEIGHTS, features[move.segment.index], strict=True))
            assert weight == pytest.approx(math.exp(z - best))
        by_length = {SEGMENTS[s].length: f[3:8] for s, f in features.items()}
        assert all(f[n - 3] == 1.0 and sum(f) == 1.0 for n, f in by_length.items())


@pytest.mark.parametrize("numbers", [dict(static_mix=0.5, weights=(0.1,) * 8), dict(amaf=300.0),
                                     dict(prior=WEIGHTS)])
def test_each_idea_is_reproducible_legal_and_changes_the_search(numbers):
    game = POSITIONS[3]
    plain = _searched(_tree(game))
    first, second = _searched(_tree(game, **numbers)), _searched(_tree(game, **numbers))
    assert first == second
    assert first != plain
    line = game.copy()
    for code in first[1][1]:
        line.push(line.check_move(partner.tree_move(code)))


def test_off_they_leave_the_tree_as_it_was():
    for game in (POSITIONS[0], LATE):
        assert _searched(_tree(game)) == _searched(_tree(game, static_mix=0.0, weights=(5.0,) * 8, amaf=0.0, prior=()))


def test_a_leaf_model_alone_plays_no_playout():
    game = POSITIONS[1]
    tree = _tree(game, static_mix=1.0, weights=(0.0,) * 8)
    tree.run(200, 0, 0.0, 0.0, 0)
    info = tree.info()
    assert info[6] == 200 and info[7] < 200 * 4  # nodes: the tree's moves only, no playout's hundred plies a leaf
