"""Strategy `treemc` (engine/strategies/tree_mc.py over engine/search/native/_uct.h, SPEC 9.7): legal, timely,
reproducible, its tree kept between moves.

The partner plays whole games of every game with legal moves, thinks for the time it is given and stops
when told, repeats itself for a node limit and a seed, keeps the subtree of the position a game reaches
(and starts afresh where the tree does not have it), stays within a full tree's memory, refuses bad
numbers with a clear error, and plays fastmc (saying so) where a game has no tree."""

from __future__ import annotations

import random
import threading
import time
from dataclasses import replace

import pytest

from engine.games import playout_core_for
from engine.strategies import Limits, make_strategy
from engine.strategies.base import PLAY_DEFAULTS, PlayOptions
from engine.strategies.tree_mc import TreeMCStrategy
from protocol import new_game

GAMES = ("isaac", "foundations", "hari")


def _choose(strategy, game, limits: Limits, seed: int = 1, infos=None, options: PlayOptions = PLAY_DEFAULTS,
            stop: threading.Event | None = None):
    sink = infos if infos is not None else []
    return strategy.choose(game.copy(), limits, stop or threading.Event(), sink.append, random.Random(seed), options)


@pytest.mark.parametrize("name", GAMES)
def test_plays_legal_games_to_the_end(name):
    game, rng = new_game(name), random.Random(4)
    players = (make_strategy("treemc"), make_strategy("treemc"))
    while not game.is_over():
        if game.turn == 1 and rng.random() < 0.3:  # Light sometimes plays at random: positions outside its tree
            game.play(game.random_move(rng))
        else:
            move = _choose(players[game.turn], game, Limits(nodes=3000), seed=game.turn)
            assert game.is_legal(move)  # (HARI positions have up to a million legal moves: none listed)
            game.play(move)
    assert game.result() is not None


@pytest.mark.parametrize("name", GAMES)
def test_reproducible_for_a_node_limit_and_a_seed(name):
    answers = []
    for _ in range(2):
        infos: list = []
        game = new_game(name)
        move = _choose(TreeMCStrategy(), game, Limits(nodes=8000), seed=9, infos=infos)
        final = [i for i in infos if i.nodes is not None][-1]
        answers.append((move, final.nodes, final.rollouts, final.pv))
    assert answers[0] == answers[1]
    assert answers[0][1] >= 8000 and answers[0][2] > 0


@pytest.mark.parametrize("name", GAMES)
def test_keeps_the_subtree_of_the_position_reached(name):
    strategy, game = TreeMCStrategy(), new_game(name)
    infos: list = []
    move = _choose(strategy, game, Limits(nodes=30000), infos=infos)
    reply_line = [i for i in infos if i.pv][-1].pv
    assert reply_line[0] == str(move) and len(reply_line) >= 2
    game.play(move)
    game.play(reply_line[1])  # the reply the tree expected: its subtree has been searched
    infos.clear()
    _choose(strategy, game, Limits(nodes=1000), infos=infos)
    kept = [i.string for i in infos if i.string and "kept" in i.string]
    assert kept and int(kept[-1].split()[2]) > 0

    elsewhere = new_game(name)  # a position the tree never saw: a new tree
    elsewhere.play(str(elsewhere.random_move(random.Random(3))))
    elsewhere.play(str(elsewhere.random_move(random.Random(4))))
    infos.clear()
    _choose(strategy, elsewhere, Limits(nodes=1000), infos=infos)
    assert [i.string for i in infos if i.string and "kept" in i.string][-1] == "treemc kept 0 visits of its tree"


@pytest.mark.parametrize("name", GAMES)
def test_uses_its_movetime_and_reports_its_line(name):
    infos: list = []
    start = time.monotonic()
    move = _choose(TreeMCStrategy(), new_game(name), Limits(movetime=200, started=start), infos=infos,
                   options=PlayOptions(move_overhead=0))
    spent = time.monotonic() - start
    assert 0.15 < spent < 0.5
    last = [i for i in infos if i.pv][-1]
    assert last.pv[0] == str(move) and last.depth == len(last.pv) >= 1
    assert last.rollouts > 100 and last.nodes > last.rollouts  # a playout is many plies
    assert -99 <= last.score_cp <= 99  # an estimate, never a claimed proof


def test_stop_ends_an_infinite_search_at_once():
    stop = threading.Event()
    timer = threading.Timer(0.1, stop.set)
    timer.start()
    start = time.monotonic()
    _choose(TreeMCStrategy(), new_game("hari"), Limits(infinite=True), stop=stop)
    assert time.monotonic() - start < 0.4


def test_depth_ends_once_the_most_visited_line_is_that_long():
    infos: list = []
    _choose(TreeMCStrategy(), new_game("foundations"), Limits(depth=2), infos=infos)
    assert [i for i in infos if i.pv][-1].depth >= 2


def test_a_full_tree_stops_growing_and_still_answers():
    core = playout_core_for("hari")
    assert core is not None and core.tree_defaults is not None
    game = new_game("hari")
    from engine.games.hari import playout_core

    native = playout_core.core().UctTree(playout_core.position_tuple(game), core.tree_defaults.game_params(),
                                         core.tree_defaults.tree_params(), 5, 64, 4096)
    native.run(3000, 0.0, 0)
    nodes, slots = native.size()
    assert nodes <= 64 and slots <= 4096
    best, _pv, visits, *_ = native.info()
    assert best is not None and visits == 3000


def test_bad_numbers_are_refused_with_a_clear_error():
    core = playout_core_for("isaac")
    assert core is not None and core.tree_defaults is not None
    game = new_game("isaac")
    with pytest.raises(ValueError, match="c and fpu 0 to 100"):
        core.new_tree(game, replace(core.tree_defaults, c=-1.0), 1)
    with pytest.raises(ValueError, match="expand_visits 1 to 1000"):
        core.new_tree(game, replace(core.tree_defaults, expand_visits=0), 1)
    from engine.games.isaac import playout_core

    with pytest.raises(TypeError, match="tree settings: a tuple"):
        playout_core.core().UctTree(playout_core.position_tuple(game), core.tree_defaults.game_params(), [0.5, 1, 1],
                                    1, 64, 4096)
    with pytest.raises(TypeError, match="TreeMCSettings"):
        _choose(TreeMCStrategy({"isaac": core.defaults}), game, Limits(nodes=100))  # type: ignore[dict-item]


def test_plays_fastmc_where_a_game_has_no_tree(monkeypatch):
    core = playout_core_for("foundations")
    assert core is not None
    import engine.strategies.tree_mc as tree_mc

    monkeypatch.setattr(tree_mc, "playout_core_for", lambda name: None)
    infos: list = []
    game = new_game("foundations")
    move = _choose(TreeMCStrategy(), game, Limits(nodes=2000), infos=infos)
    assert move in set(game.legal_moves())
    assert any(i.string and "playing fastmc" in i.string for i in infos)
