"""FOUNDATIONS static value: a logistic model of what a playout from the position would return.

One playout is a noisy judge (its result's variance about the mean of many is 0.17 on
positions from self-play), and a tree search values thousands of leaves a move. This
model reads what decides the playouts' results from the position alone: each side's
hand (value and pieces), which of its lengths still fit (on its current level, in its
order, or on the next), how much room they have, its level and whether it has passed.
Fitted (benchmarks/fit_foundations_value.py, its defaults) to the mean of 64 playouts
on 8,302 positions from 350 self-play games: mean squared error 0.043 on held-out
positions where one playout's is 0.14, at about 23 us a position where a playout
takes about 100 us. It is biased where one playout is not, so the search averages
the two (FoundationsSettings.leaf_mix). The rules' questions (can a side build on a
level, where does a length fit) are the scratch position's (protocol/).

Also here: what a game end, or a position judged by the hand values alone, is worth
to a side (the search's and the partners' playouts end with these).
"""

from __future__ import annotations

import math

from engine.search.winchance import logistic
from protocol.board import LENGTHS, VALUE, hand_value
from protocol.games.foundations.rules import FoundationsGame
from protocol.games.foundations.scratch import FoundationsScratch

FEATURES = ("hand value", "pieces in hand", "value that fits on the level", "value that fits on the next level",
            "value that fits nowhere", "log(1 + placements on the level)", "log(1 + placements on the next level)",
            "has passed", "level")
"""One side's features (value_features), in WEIGHTS' order."""
WEIGHTS = (-0.1885, -0.4989, -0.0378, -0.0018, -0.1856, 0.8201, 0.0104, 0.3106, -2.6851)
"""Logit weights of the side to move's features minus the opponent's (fitted, see the module docstring)."""
BIAS = 0.2958
"""The side to move's edge: its logit when both sides' features are equal."""


def _count(starts: tuple[int, int]) -> int:
    return starts[0].bit_count() + starts[1].bit_count()


def value_features(sc: FoundationsScratch, side: int) -> list[float]:
    """`side`'s FEATURES in a protocol.games.foundations.scratch.FoundationsScratch (read only)."""
    hand = sc.hand[side]
    level = sc.level[side]
    minimum = sc.minlen[side]
    in_hand = sc.hand_value(side)
    fits_here = fits_next = fits = 0
    room_here = room_next = 0
    passed = side in sc.passed
    if not passed:
        here_ok = sc.buildable(side, level)
        next_ok = sc.buildable(side, level + 1)
        free_here = sc.free_cells(level) if here_ok else 0
        free_next = sc.free_cells(level + 1) if next_ok else 0
        for n in LENGTHS:
            k = hand[n]
            if not k:
                continue
            here = _count(sc.starts(side, level, n, free_here)) if here_ok and n >= minimum else 0
            above = _count(sc.starts(side, level + 1, n, free_next)) if next_ok else 0
            room_here += here * k
            room_next += above * k
            if here:
                fits_here += VALUE[n] * k
            if above:
                fits_next += VALUE[n] * k
            if here or above:
                fits += VALUE[n] * k
    return [in_hand, sum(hand[n] for n in LENGTHS), fits_here, fits_next, in_hand - fits,
            math.log1p(room_here), math.log1p(room_next), float(passed), level]


def model_value(sc: FoundationsScratch) -> float:
    """The chance that the side to move of scratch position `sc` wins, by the model."""
    me = sc.turn
    mine, theirs = value_features(sc, me), value_features(sc, 1 - me)
    x = BIAS + sum(w * (a - b) for w, a, b in zip(WEIGHTS, mine, theirs, strict=True))
    if x > 30:
        return 1.0
    if x < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def end_value(winner: int | None, scores: tuple[int, int], color: int, wdl_weight: float, margin_scale: float) -> float:
    """A game end for `color`: 1/0.5/0 (share `wdl_weight`) blended with the margin of the
    (Dark, Light) hand values `scores` (lower is better), squashed by `margin_scale`."""
    margin = scores[1 - color] - scores[color]
    wdl = 0.5 if winner is None else (1.0 if winner == color else 0.0)
    return wdl_weight * wdl + (1 - wdl_weight) * (0.5 + 0.5 * math.tanh(margin / margin_scale))


def terminal_value(game: FoundationsGame, color: int, wdl_weight: float, margin_scale: float) -> float:
    """end_value of the finished `game` for `color`."""
    result = game.result()
    assert result is not None, "only finished games are valued this way"
    return end_value(result.winner, result.scores, color, wdl_weight, margin_scale)


def margin_value(mine: int, theirs: int, margin_scale: float) -> float:
    """Win chance from the two hand values (lower is better): a playout cut short."""
    return logistic((theirs - mine) / margin_scale)


def static_value(game: FoundationsGame, color: int, margin_scale: float) -> float:
    """Win chance for `color` from the hand values alone (margin_value of the position)."""
    return margin_value(hand_value(game.hand(color)), hand_value(game.hand(1 - color)), margin_scale)
