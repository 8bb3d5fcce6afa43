"""Varied FOUNDATIONS games for tests that check a fast path against the rules, ply by ply."""

from __future__ import annotations

import random
from collections.abc import Iterator

from protocol import new_game
from protocol.board import segments_from_starts
from protocol.game import Game
from protocol.moves import Place


def varied_games(count: int, seed: int) -> Iterator[Game]:
    """The positions of `count` games, each yielded ply by ply, its end included: mostly the
    shortest piece (so that upper levels, bridges and passes happen), sometimes any legal move.
    The same game object is pushed on after each yield."""
    rng = random.Random(seed)
    for _ in range(count):
        game = new_game("foundations")
        while not game.is_over():
            yield game
            group = game.shortest_group()  # type: ignore[attr-defined]
            if group is None or rng.random() < 0.3:
                move = game.random_move(rng)
            else:
                level, n, h, v = group
                move = Place(rng.choice(list(segments_from_starts(h, v, n))), level)
            game.push(move)
        yield game
