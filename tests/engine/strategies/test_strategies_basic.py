"""The sparring strategies in-process: `random` is reproducible and uniform, `greedy` does what its
docstring (and SPEC.md) says, on hand-made positions and along seeded playouts."""

from __future__ import annotations

import random
import threading

import pytest

from engine.strategies import Limits, make_strategy
from protocol import GAME_NAMES, game_from_position, new_game
from protocol.board import VALUE
from protocol.moves import PASS, HariMove, Place, Remove


def choose(name: str, game, seed: int = 0):
    infos = []
    move = make_strategy(name).choose(game.copy(), Limits(), threading.Event(), infos.append,
                                      random.Random(seed))
    assert infos and infos[-1].pv == [str(move)]
    return move


def self_play(name: str, variant: str, seed: int) -> list[str]:
    """A whole game of the strategy against itself; every move must be legal."""
    game, rng, strategy, moves = new_game(variant), random.Random(seed), make_strategy(name), []
    while not game.is_over():
        legal = list(game.legal_moves())
        move = PASS if legal == [PASS] else strategy.choose(game.copy(), Limits(), threading.Event(),
                                                            lambda info: None, rng)
        moves.append(str(game.play(move)))
    return moves


# -- random -------------------------------------------------------------------------

@pytest.mark.parametrize("variant", GAME_NAMES)
def test_random_is_reproducible_with_the_seed(variant):
    assert self_play("random", variant, 3) == self_play("random", variant, 3)
    assert self_play("random", variant, 3) != self_play("random", variant, 4)


def test_random_covers_the_moves_uniformly():
    game = new_game("isaac")
    strategy, rng = make_strategy("random"), random.Random(1)
    counts: dict[str, int] = {}
    for _ in range(6000):
        move = str(strategy.choose(game, Limits(), threading.Event(), lambda info: None, rng))
        counts[move] = counts.get(move, 0) + 1
    assert len(counts) == 600  # 10 draws per move expected; missing one has chance ~600 * e^-10
    assert max(counts.values()) < 35


# -- greedy: ISAAC ------------------------------------------------------------------

def test_greedy_isaac_places_the_longest_piece_that_fits():
    assert choose("greedy", new_game("isaac")).segment.length == 7
    game = new_game("isaac")
    for text in ("a0a6", "b0b6"):  # both sevens placed: six is the longest left
        game.play(text)
    move = choose("greedy", game)
    assert isinstance(move, Place) and move.segment.length == 6


def test_greedy_isaac_removes_for_the_highest_score():
    # c2e2's row holds three other pieces (g0g3 at g2, a2a4 at a2, i1i5 at i2): 3 x value 1 = 3;
    # g0g3's column holds none: 0. Greedy removes c2e2 and moves its counter the whole way.
    game = game_from_position("isaac c2e2,g0g3/a2a4,i1i5 333444555667/333444455667 d - score 0/0")
    assert str(choose("greedy", game)) == "xc2e2:3"


@pytest.mark.parametrize("seed", range(4))
def test_greedy_isaac_scoring_follows_score_then_lowest_cells(seed):
    rng = random.Random(seed)
    game = new_game("isaac")
    checked = 0
    while not game.is_over():
        legal = list(game.legal_moves())
        removals = [m for m in legal if isinstance(m, Remove)]
        if removals:
            best = max(removals, key=lambda m: (m.score, -m.segment.lo, -m.segment.hi))
            assert choose("greedy", game, seed) == best
            checked += 1
        game.play(rng.choice(legal))
    assert checked > 0


# -- greedy: FOUNDATIONS ---------------------------------------------------------------

@pytest.mark.parametrize("seed", range(3))
def test_greedy_foundations_places_the_highest_value(seed):
    rng = random.Random(seed)
    game = new_game("foundations")
    while not game.is_over():
        legal = list(game.legal_moves())
        if legal != [PASS]:
            move = choose("greedy", game, seed)
            assert move in legal
            assert VALUE[move.segment.length] == max(VALUE[m.segment.length] for m in legal)
        game.play(rng.choice(legal))


# -- greedy: HARI ------------------------------------------------------------------------

def test_greedy_hari_places_the_seven_without_sliding():
    move = choose("greedy", new_game("hari"))
    assert isinstance(move, HariMove) and move.slides == () and move.place.length == 7
    game = new_game("hari")
    for text in ("a0a2", "j7j9", "c4c6", "h3h5"):  # Dark could slide now, but need not
        game.play(text)
    move = choose("greedy", game)
    assert move.slides == () and move.place is not None and move.place.length == 7


def test_greedy_hari_slides_off_only_to_place_a_higher_value():
    # Every row and column is blocked for a seven: a piece in files d..g of each row and in
    # ranks 3..6 of each column. Dark (only a seven left) can free a line only by sliding one of
    # its threes off the board (-1): placing the seven then gains 6 - 1 = 5 > 0 for a discard.
    game = game_from_position("hari a3c3,d3g3,e0e2,e4e6,h3j3/e7e9 7/7 d -")
    move = choose("greedy", game)
    assert game.is_legal(move)
    assert len(move.slides) == 1 and move.slides[0].end is None and move.slides[0].start.length == 3
    assert move.place is not None and move.place.length == 7


@pytest.mark.parametrize("variant", GAME_NAMES)
def test_greedy_plays_whole_games_legally(variant):
    moves = self_play("greedy", variant, 1)
    assert moves and self_play("greedy", variant, 1) == moves
