"""The C core of FOUNDATIONS' leaves and ordering (engine/games/foundations/_search_core.c via search_core.py).

The core is a private model of the position for speed; these tests hold it to the rules
(every playout move it makes is legal on FoundationsGame, and its games end as the rules
end them), to the Python it mirrors (the static model and the move ordering, value for
value), to the playout policy (the shortest length, the snuggest spot, lengths drawn in
proportion when deviating), and to its input checks."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from engine.games.foundations import _search_core as _core
from engine.games.foundations import ordering
from engine.games.foundations import search_core as foundations_native
from engine.games.foundations.playout_policy import playout_move
from engine.games.foundations.search import SEARCHER, FoundationsKnowledge
from engine.games.foundations.settings import FoundationsSettings
from engine.games.foundations.value import BIAS, WEIGHTS, model_value
from engine.games.packing import NEIGHBOURS
from protocol import new_game
from protocol.board import SEGMENTS, segments_from_starts
from protocol.moves import PASS, Place
from tests.engine.games.book_positions import book_positions
from tests.support.search import context

SETTINGS = FoundationsSettings()


def _play_on(game, rng: random.Random):
    """A random move three times in ten, else the playout policy's."""
    return game.random_move(rng) if rng.random() < 0.3 else playout_move(game, rng, SETTINGS.playout_sample,
                                                                         SETTINGS.deviate)


POSITIONS = book_positions("foundations", 150, seed=7, most_plies=26, play_on=_play_on)


def _replay(game, moves) -> None:
    """Play the core's playout moves on the game, each vetted by the rules."""
    for move in moves:
        chosen = PASS if move is None else Place(SEGMENTS[move[0]], move[1])
        game.push(game.check_move(chosen))  # raises IllegalMoveError on an illegal move


def test_the_core_is_built():
    """FOUNDATIONS' strength depends on it: a failed build must not pass unnoticed (needs a C compiler)."""
    assert foundations_native.AVAILABLE


def test_segments_are_the_boards():
    assert _core.segments() == [(s.lo, s.hi, s.length, int(s.horizontal)) for s in SEGMENTS]


def test_the_model_equals_the_python_one():
    for game in POSITIONS:
        assert foundations_native.model(game) == model_value(game.scratch())


def test_move_ordering_equals_the_python_one(monkeypatch):
    """Moves and priors of the core's ordering, all of them and an inner node's best, exactly the Python ones."""
    for keep in (10_000, SETTINGS.mcts.inner_max_children, 5):
        for game in POSITIONS:
            with_core = ordering.candidate_moves(game, SETTINGS.prior_temperature, keep=keep)
            monkeypatch.setattr(foundations_native, "AVAILABLE", False)
            assert with_core == ordering.candidate_moves(game, SETTINGS.prior_temperature, keep=keep)
            monkeypatch.setattr(foundations_native, "AVAILABLE", True)


@pytest.mark.parametrize("deviate", [0.0, 0.2, 1.0])
def test_playouts_play_only_legal_moves_to_the_rules_end(deviate):
    for i, start in enumerate(POSITIONS[:60]):
        game = start.copy()
        moves = foundations_native.playout(game, seed=i, plies=200, deviate=deviate, sample=2)
        _replay(game, moves)
        assert game.is_over()
        leaf = foundations_native.leaf(start, random.Random(0), 200, deviate, 2)
        assert leaf.over and 0 < leaf.plies <= 200
        again = start.copy()
        seed = random.Random(0).getrandbits(64)
        _replay(again, foundations_native.playout(start, seed, 200, deviate, 2))
        result = again.result()
        assert (leaf.winner, leaf.scores) == (result.winner, result.scores)


def test_playouts_stop_at_the_ply_cap():
    game = new_game("foundations")
    assert len(foundations_native.playout(game, 1, 5, 0.2, 2)) == 5
    leaf = foundations_native.leaf(game, random.Random(1), 5, 0.2, 2)
    assert leaf.plies == 5 and not leaf.over and leaf.winner is None


def test_without_deviating_a_playout_plays_the_shortest_length_at_its_snuggest():
    """With the whole list as the sample, every move is a snuggest placement of the shortest length."""
    for i, start in enumerate(POSITIONS[:40]):
        game = start.copy()
        for move in foundations_native.playout(game, seed=i, plies=200, deviate=0.0, sample=200):
            group = game.shortest_group()
            if move is None:
                assert group is None
                game.push(PASS)
                continue
            level, n, h, v = group
            free = game.free_cells(level)
            snuggest = min((NEIGHBOURS[s.index] & free).bit_count() for s in segments_from_starts(h, v, n))
            seg = SEGMENTS[move[0]]
            assert (move[1], seg.length) == (level, n)
            assert (NEIGHBOURS[seg.index] & free).bit_count() == snuggest
            game.push(game.check_move(Place(seg, level)))


def test_deviating_draws_lengths_in_proportion_to_their_placements():
    game = new_game("foundations")
    for text in ("a0c0", "a9c9"):
        game.push(game.parse_move(text))
    counts = {n: h.bit_count() + v.bit_count() for _, n, h, v in game.placement_groups()}
    total = sum(counts.values())
    drawn = Counter(SEGMENTS[foundations_native.playout(game, seed, 1, 1.0, 2)[0][0]].length for seed in range(4000))
    for n, k in counts.items():
        assert drawn[n] / 4000 == pytest.approx(k / total, abs=0.03)


def test_the_search_values_leaves_with_the_core():
    """One leaf mixes leaf_mix of the model with a playout's result (the model alone at 1)."""
    game = POSITIONS[3]
    model_only = replace(SETTINGS, leaf_mix=1.0)
    ctx = context(model_only, infinite=True)
    assert FoundationsKnowledge(model_only).leaf_value(game, random.Random(1), ctx) == model_value(game.scratch())
    ctx = context(SETTINGS, infinite=True)
    value = FoundationsKnowledge(SETTINGS).leaf_value(game, random.Random(1), ctx)
    assert 0.0 <= value <= 1.0 and ctx.tm.nodes > 0


@pytest.mark.parametrize("native", [True, False])
def test_the_search_plays_legal_moves_with_and_without_the_core(monkeypatch, native):
    monkeypatch.setattr(foundations_native, "AVAILABLE", native)
    for game in POSITIONS[:3]:
        ctx = context(SETTINGS, nodes=400)
        move, info = SEARCHER.choose(game.copy(), ctx, random.Random(2))
        assert game.check_move(move) == move and ctx.tm.nodes >= 400


GOOD = (0, (), (0,) * 8, (0,) * 8, [], [], 1, 1, 0, 0)


def _with(**changes):
    fields = ["turn", "passes", "hand0", "hand1", "pieces0", "pieces1", "level0", "level1", "min0", "min1"]
    return tuple(changes.get(name, value) for name, value in zip(fields, GOOD, strict=True))


@pytest.mark.parametrize("position, error", [
    (GOOD[:5], TypeError),  # too few fields
    (_with(turn=2), ValueError),  # no third player
    (_with(passes=(0, 5)), ValueError),
    (_with(passes=(1, 1)), ValueError),  # a player passes once
    (_with(hand0=(0,) * 5), ValueError),  # a hand has 8 counts
    (_with(hand0=(0, 0, 0, 6, 4, 3, 2, 1)), ValueError),  # six 3s: a set has five
    (_with(pieces0=[9999 * 16 + 1]), ValueError),  # no such segment
    (_with(pieces0=[9]), ValueError),  # no level 9
    (_with(pieces0=[16]), ValueError),  # no level 0
    (_with(pieces0=[-3]), ValueError),
    (_with(pieces0=[2**40]), ValueError),  # out of range, not wrapped round
    (_with(pieces0=[(0, 1)]), TypeError),  # a piece is one number
    (_with(pieces0=[i * 16 + 1 for i in range(16)]), ValueError),  # more pieces than a set
    (_with(level1=0), ValueError),
    (_with(min0=8), ValueError),
])
def test_bad_input_to_the_core_is_an_error_not_a_crash(position, error):
    with pytest.raises(error):
        _core.model(position, WEIGHTS, BIAS)
    with pytest.raises(error):
        _core.ordered(position, 10, 1.0)


def test_bad_limits_to_the_core_are_errors():
    position = foundations_native.position_tuple(new_game("foundations"))
    for plies, deviate, sample in ((-1, 0.2, 2), (10**6, 0.2, 2), (10, 1.5, 2), (10, float("nan"), 2), (10, 0.2, 0)):
        with pytest.raises(ValueError, match="plies"):
            _core.playout(position, 1, plies, deviate, sample)
    with pytest.raises(ValueError, match="weights"):
        _core.model(position, WEIGHTS[:3], BIAS)
    for keep, temperature in ((0, 1.0), (10, 0.0), (10, float("nan"))):
        with pytest.raises(ValueError, match="temperature"):
            _core.ordered(position, keep, temperature)
