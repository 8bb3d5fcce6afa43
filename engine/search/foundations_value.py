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
the two (foundations_search.LEAF_MIX). The rules' questions (can a side build on a
level, where does a length fit) are the scratch position's (protocol/).

Tried and not kept (2026-11-25): one row of weights per phase of the game (the
pieces left in both hands, four at a time: seven rows) fits the playout means
better (held-out R2 0.58 where one row has 0.52, on 10,459 positions; gradient
boosting over the same nine differences reaches 0.61, a small neural net 0.53),
but played worse: 46.8% (+-4.4) in-process over 400 games against one row
(book, 100 ms, --offset 47000). A closer fit to the playouts is not a better
judge of the position.
"""

from __future__ import annotations

import math

from protocol.board import LENGTHS, VALUE
from protocol.foundations_scratch import FoundationsScratch

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
    """`side`'s FEATURES in a protocol.foundations_scratch.FoundationsScratch (read only)."""
    hand = sc.hand[side]
    level = sc.level[side]
    minimum = sc.minlen[side]
    hand_value = sc.hand_value(side)
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
    return [hand_value, sum(hand[n] for n in LENGTHS), fits_here, fits_next, hand_value - fits,
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
