"""Sparring partners `heuristic` and `flatmc` (SPEC 9.7): legal, sensible, reproducible."""

from __future__ import annotations

import random
import threading

import pytest

from engine.strategies import STRATEGY_NAMES, Limits, make_strategy
from engine.strategies.base import PLAY_DEFAULTS, PlayOptions
from protocol import game_from_position, new_game
from protocol.moves import PASS, HariMove


def _choose(name: str, game, limits: Limits, seed: int = 1, options: PlayOptions = PLAY_DEFAULTS):
    return make_strategy(name).choose(game.copy(), limits, threading.Event(), lambda info: None,
                                      random.Random(seed), options)


def test_registry_names_the_new_partners():
    assert {"heuristic", "flatmc", "greedy", "random", "search"} <= set(STRATEGY_NAMES)


@pytest.mark.parametrize("game_name", ["isaac", "foundations", "hari"])
@pytest.mark.parametrize("name", ["heuristic", "flatmc"])
def test_partners_play_legal_games_to_the_end(game_name, name):
    game, rng = new_game(game_name), random.Random(5)
    for ply in range(400):
        if game.is_over():
            break
        if ply % 2:  # the other side plays randomly: more varied positions
            game.play(game.random_move(rng))
            continue
        game.play(_choose(name, game, Limits(depth=1)))  # flatmc: one playout per candidate
    assert game.is_over()


def test_foundations_heuristic_starts_with_a_short_piece():
    move = _choose("heuristic", new_game("foundations"), Limits())
    assert move.segment.length == 3


def test_hari_heuristic_places_rather_than_discards():
    move = _choose("heuristic", new_game("hari"), Limits())
    assert isinstance(move, HariMove) and move.place is not None and move.place.length <= 4


@pytest.mark.parametrize("game_name", ["foundations", "hari"])
def test_flatmc_is_reproducible_for_a_node_limit(game_name):
    game = new_game(game_name)
    game.play(_choose("heuristic", game, Limits()))
    first = _choose("flatmc", game, Limits(nodes=400), seed=3)
    assert first == _choose("flatmc", game, Limits(nodes=400), seed=3)


def test_flatmc_values_a_foundations_end_as_measured_whatever_the_search_weighs():
    """The partner is a yardstick: it keeps its own win/draw/loss share, not the search's settings'."""
    from engine.games.foundations.settings import FoundationsSettings
    from engine.games.foundations.sparring import playout_value as _foundations_value
    from engine.games.foundations.value import terminal_value

    rng = random.Random(3)
    while True:  # a random game to its end, until one ends with unequal hands
        game = new_game("foundations")
        while not game.is_over():
            game.push(game.random_move(rng))
        scores = game.result().scores
        if scores[0] != scores[1]:
            break
    partner = [_foundations_value(game, color) for color in (0, 1)]
    search = FoundationsSettings()
    searched = [terminal_value(game, color, search.wdl_weight, search.margin_scale) for color in (0, 1)]
    assert partner != searched
    winner = game.result().winner
    assert partner[winner] > 0.7 > partner[1 - winner]  # 70% on the result, 30% on the margin


FORCED_PASS = {
    "hari": "hari c0c2,b3h3,g6g8/e0i0,d8f8,g9i9 333444455566/333444455667 d -",
}
"""Positions whose side to move has no playable piece (Dark played its 7: its shorter pieces are dead)."""


@pytest.mark.parametrize("name", sorted(STRATEGY_NAMES))
@pytest.mark.parametrize("game_name", sorted(FORCED_PASS))
def test_every_strategy_passes_when_it_must(game_name, name):
    game = game_from_position(FORCED_PASS[game_name])
    assert list(game.legal_moves()) == [PASS]
    assert _choose(name, game, Limits(movetime=50), options=PlayOptions(move_overhead=0)) == PASS
