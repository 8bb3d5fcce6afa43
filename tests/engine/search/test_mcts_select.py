"""MCTS selection: looking only at the tried children and the first untried one picks what a
scan of the whole widened prefix picks (engine.search.mcts.MCTS._select)."""

from __future__ import annotations

import math
import random

import pytest

from engine.games.foundations.ordering import candidate_moves
from engine.games.foundations.search import FoundationsKnowledge
from engine.games.foundations.settings import FoundationsSettings
from engine.games.isaac.search import IsaacKnowledge
from engine.games.isaac.settings import IsaacSettings
from engine.search.mcts import MCTS, MCTSSettings
from protocol import game_from_position, new_game
from tests.support.search import context

FOUNDATIONS = FoundationsSettings()
ISAAC = IsaacSettings()


def _full_scan(tree: MCTS, node) -> int:
    """The PUCT choice over every child of the widened prefix (the definition)."""
    limit = tree._widening(node)
    sqrt_n = math.sqrt(node.visits + 1)
    fpu = max(0.0, (1.0 - node.q()) - tree.fpu_reduction) if node.visits else 0.5
    best_i, best_score = 0, -1e18
    for i in range(limit):
        child = node.children[i]
        q, n = (fpu, 0) if child is None or child.visits == 0 else (child.total / child.visits, child.visits)
        score = q + tree.c_puct * node.priors[i] * sqrt_n / (1 + n)
        if score > best_score:
            best_i, best_score = i, score
    return best_i


def _nodes(root):
    stack = [root]
    while stack:
        node = stack.pop()
        if node.children:
            yield node
            stack.extend(c for c in node.children if c is not None)


def _setups():
    foundations = FoundationsKnowledge(FOUNDATIONS)
    isaac = IsaacKnowledge(ISAAC)

    def root(game):
        return candidate_moves(game, FOUNDATIONS.prior_temperature, refined=FOUNDATIONS.refined)

    return [
        (new_game("foundations"), foundations, root, FOUNDATIONS),
        (game_from_position("foundations e0e6,f3j3,h5h7,g6g8,a7f7/b0b5,a1a6,c1c5,b9d9,g9i9 3334444556/"
                            "3334444557 d -"), foundations, root, FOUNDATIONS),
        (new_game("isaac"), isaac, isaac.candidates, ISAAC),
    ]


@pytest.mark.parametrize("setup", range(3))
def test_select_looks_at_the_tried_prefix_and_chooses_as_a_full_scan(setup):
    game, knowledge, candidates, settings = _setups()[setup]
    ctx = context(settings, infinite=True)
    tree = MCTS(game, knowledge, ctx, random.Random(4), settings.mcts, root_moves=candidates(game))
    checked = 0
    for _round in range(6):
        for _ in range(150):
            tree.simulate()
        for node in _nodes(tree.root):
            tried = [i for i, c in enumerate(node.children) if c is not None]
            assert tried == list(range(node.tried))  # the tried children are a prefix
            assert node.ordered
            assert tree._select(node) == _full_scan(tree, node)
            checked += 1
    assert checked > 500


def test_foundations_has_its_own_first_play_urgency_and_widening_and_isaac_its_own_exploration():
    """The game's settings reach the tree: an unvisited child of a visited node is worth its
    parent's value minus the game's reduction, and the prefix in play grows by the game's factor."""
    default = MCTSSettings()
    assert (ISAAC.mcts.c_puct, ISAAC.mcts.fpu_reduction) == (2.5, 0.0)
    assert ISAAC.mcts.widen_factor == default.widen_factor
    assert FOUNDATIONS.mcts.fpu_reduction != default.fpu_reduction
    assert FOUNDATIONS.mcts.widen_factor != default.widen_factor
    cases = [(new_game("foundations"), FoundationsKnowledge(FOUNDATIONS), FOUNDATIONS),
             (new_game("isaac"), IsaacKnowledge(ISAAC), ISAAC)]
    for game, knowledge, settings in cases:
        reduction, factor = settings.mcts.fpu_reduction, settings.mcts.widen_factor
        tree = MCTS(game, knowledge, context(settings, infinite=True), random.Random(5), settings.mcts,
                    root_moves=knowledge.candidates(game))
        assert (tree.fpu_reduction, tree.widen_factor) == (reduction, factor)
        checked = 0
        for _ in range(60):
            tree.simulate()
            root = tree.root
            assert tree._widening(root) == min(len(root.moves),
                                               default.widen_base + int(factor * root.visits ** default.widen_power))
            untried = root.tried
            if untried >= tree._widening(root) or not any(c is not None and c.visits for c in root.children[:untried]):
                continue  # no untried child in play (a small reduction tries them all soon), or none tried yet
            # an untried child scores its parent's value minus the reduction: with no prior it is chosen
            # exactly when that beats every tried child's mean (no exploration term without a prior); the
            # tried children's means are set just below and just above that value, so a reduction off by
            # 0.01 fails
            priors = root.priors
            root.priors = [0.0] * len(priors)
            tried = [c for c in root.children[:untried] if c is not None and c.visits]
            totals = [c.total for c in tried]
            fpu = max(0.0, (1.0 - root.q()) - reduction)
            assert 0.01 < fpu < 0.99
            for mean, untried_chosen in ((fpu - 0.01, True), (fpu + 0.01, False)):
                for child in tried:
                    child.total = mean * child.visits
                assert (tree._select(root) >= untried) == untried_chosen
            for child, total in zip(tried, totals):
                child.total = total
            root.priors = priors
            checked += 1
        assert checked  # the rule was met with an untried child in play
