"""FOUNDATIONS' search tree in C (engine/search/native/_tree.h with _search_core.c's game part, search_core.new_tree,
engine/search/ctree.py).

The tree is engine/search/mcts.py's algorithm moved into C for speed. With leaves valued by the
static model alone (no playout, so no random numbers) both are deterministic, and they must
build the same tree: the same visits and means for every root move. The rest holds the C tree
to the rules (its lines are legal), to its limits (nodes, depth, deadlines, `stop`, memory) and
to its input checks."""

from __future__ import annotations

import random
import threading
import time
from dataclasses import replace

import pytest

from engine.games.foundations import _search_core as _core
from engine.games.foundations import search_core as native
from engine.games.foundations.ordering import candidate_moves
from engine.games.foundations.search import SEARCHER, FoundationsKnowledge
from engine.games.foundations.settings import FoundationsSettings
from engine.games.foundations.value import WEIGHTS
from engine.search.mcts import MCTS, MCTSSettings
from tests.engine.games.foundations.test_foundations_search_core import POSITIONS
from tests.support.search import context

SETTINGS = FoundationsSettings()
MODEL_LEAVES = replace(SETTINGS, leaf_mix=1.0)


def _root(game, settings=SETTINGS):
    return candidate_moves(game, settings.prior_temperature, refined=settings.refined)


def _searchable(count: int) -> list:
    return [g for g in POSITIONS if len(_root(g)) > 1][:count]


@pytest.mark.parametrize("settings", [MODEL_LEAVES,
                                      replace(MODEL_LEAVES, mcts=MCTSSettings(c_puct=0.7, fpu_reduction=0.3,
                                                                              widen_base=2, widen_factor=1.0,
                                                                              widen_power=0.6, inner_max_children=9))])
def test_the_c_tree_is_the_python_tree(settings):
    """Model-only leaves: the same visits and means for every root move, the same nodes counted."""
    for game in _searchable(6):
        root = _root(game, settings)
        tree = native.new_tree(game, root, settings, seed=1)
        assert tree.run(400, 0, 0.0, 0.0, 0) is False  # no limit ended it: all 400 ran
        ctx = context(settings, infinite=True)
        python = MCTS(game, FoundationsKnowledge(settings), ctx, random.Random(1), settings.mcts, root_moves=root)
        for _ in range(400):
            python.simulate()
        in_c = [(code, visits, mean) for code, _, visits, mean in tree.root()]
        in_python = [(native.code_of(m), child.visits if child else 0, child.q() if child and child.visits else None)
                     for m, child in zip(python.root.moves or [], python.root.children or [], strict=True)]
        assert in_c == in_python
        best, pv, visits, _, _, seldepth, simulations, nodes = tree.info()
        assert (visits, simulations, nodes, seldepth) == (400, 400, ctx.tm.nodes, python.max_depth)
        assert native.move_of(best) == python.best_move()
        assert [native.move_of(c) for c in pv] == python.principal_variation()


def test_a_search_in_c_is_reproducible_and_plays_legal_lines():
    for game in _searchable(4):
        answers = []
        for _ in range(2):
            ctx = context(SETTINGS, nodes=3000)
            move, info = SEARCHER.choose(game.copy(), ctx, random.Random(5))
            answers.append((move, info, ctx.tm.nodes))
        assert answers[0] == answers[1]
        move, info, nodes = answers[0]
        assert nodes >= 3000 and info.rollouts and info.rollouts > 1
        assert info.pv[0] == str(move)
        line = game.copy()
        for text in info.pv:
            line.push(line.check_move(line.parse_move(text)))  # raises on an illegal move


def test_the_root_visits_add_up():
    game = _searchable(1)[0]
    tree = native.new_tree(game, _root(game), SETTINGS, seed=3)
    tree.run(2500, 0, 0.0, 0.0, 0)
    children = tree.root()
    assert sum(visits for _, _, visits, _ in children) == tree.info()[2] == 2500
    assert sum(prior for _, prior, _, _ in children) == pytest.approx(1.0)
    assert all(mean is None or 0.0 <= mean <= 1.0 for _, _, _, mean in children)


def test_a_full_tree_stops_growing_and_goes_on_refining():
    game = _searchable(1)[0]
    root = _root(game)
    tree = native.new_tree(game, root, SETTINGS, seed=4, max_nodes=40, max_slots=len(root) + 100)
    tree.run(3000, 0, 0.0, 0.0, 0)
    nodes, slots = tree.size()
    assert nodes <= 40 and slots <= len(root) + 100
    best, _, visits, *_ = tree.info()
    assert visits == 3000
    game.check_move(native.move_of(best))


def test_the_tree_stops_at_its_limits():
    game = _searchable(1)[0]
    root = _root(game)
    tree = native.new_tree(game, root, SETTINGS, seed=5)
    assert tree.run(10**6, 5000, 0.0, 0.0, 0) is True
    nodes = tree.info()[7]
    assert 5000 <= nodes < 5000 + 60  # stopped after the simulation that reached the limit
    tree = native.new_tree(game, root, SETTINGS, seed=5)
    assert tree.run(10**6, 0, 0.0, 0.0, 4) is True
    assert len(tree.info()[1]) >= 4
    for soft, hard in ((time.monotonic() + 0.03, 0.0), (0.0, time.monotonic() + 0.03)):
        tree = native.new_tree(game, root, SETTINGS, seed=5)
        started = time.monotonic()
        assert tree.run(10**7, 0, soft, hard, 0) is True
        assert time.monotonic() - started < 1.0


def test_stop_ends_an_infinite_search_in_c():
    game = _searchable(1)[0]
    ctx = context(SETTINGS, infinite=True)
    timer = threading.Timer(0.05, ctx.tm.stop_event.set)
    timer.start()
    started = time.monotonic()
    move, info = SEARCHER.choose(game.copy(), ctx, random.Random(6))
    assert time.monotonic() - started < 2.0
    game.check_move(move)
    assert info.rollouts and info.rollouts > 10


def test_bad_input_to_the_tree_is_an_error_not_a_crash():
    game = _searchable(1)[0]
    position = native.position_tuple(game)
    mcts = SETTINGS.mcts.numbers()
    own = native.tree_game(SETTINGS)
    legal = [(native.code_of(m), p) for m, p in _root(game)]

    def tree(root=legal, numbers=mcts, game_numbers=own, max_nodes=100, max_slots=1000, at=position):
        return _core.Tree(at, root, numbers, game_numbers, 1, max_nodes, max_slots)

    with pytest.raises(ValueError, match="root candidate 1 \\(code 9999\\) is not a legal move"):
        tree(root=[legal[0], (9999, 1.0)])
    with pytest.raises(ValueError, match="is not a legal move"):
        tree(root=[(-1, 1.0)])  # a pass, where placements are legal
    with pytest.raises(ValueError, match="1 to 1000 candidates"):
        tree(root=[])
    with pytest.raises(TypeError):
        tree(root=[(1, "a")])
    for bad in ((-1.0,) + mcts[1:], mcts[:2] + (0,) + mcts[3:], mcts[:5] + (0,), mcts[:5] + (5000,),
                mcts[:1] + (float("nan"),) + mcts[2:]):
        with pytest.raises(ValueError, match="tree settings: c_puct"):
            tree(numbers=bad)
    for bad in ((0.0,) + own[1:], own[:1] + (1.5,) + own[2:], own[:5] + (2.0,) + own[6:], own[:6] + (0.0,) + own[7:]):
        with pytest.raises(ValueError, match="tree settings: temperature"):
            tree(game_numbers=bad)
    with pytest.raises(ValueError, match="plies"):
        tree(game_numbers=own[:2] + (-1,) + own[3:])
    with pytest.raises(ValueError, match="weights"):
        tree(game_numbers=own[:7] + (WEIGHTS[:3],) + own[8:])
    with pytest.raises(TypeError):
        tree(numbers=mcts[:5])
    with pytest.raises(TypeError, match="mcts settings: a tuple, not list"):
        tree(numbers=list(mcts))
    with pytest.raises(TypeError, match="tree settings: a tuple, not list"):
        tree(game_numbers=list(own))
    with pytest.raises(ValueError, match="at least 2 nodes"):
        tree(max_nodes=1)
    full = (0, 0, 0, 5, 4, 3, 2, 1)
    finished = (0, (0, 1), full, full, [], [], 1, 1, 0, 0)  # both passed at the start
    with pytest.raises(ValueError, match="over"):
        tree(at=finished)
    with pytest.raises(ValueError, match="not a FOUNDATIONS move"):
        native.code_of(object())  # type: ignore[arg-type]
