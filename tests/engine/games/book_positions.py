"""Positions of a game for the tests of its C cores: a shipped book opening drawn at random, then played on.

The C cores are private models of the position; their tests hold them to the rules and to the Python they
mirror on many positions, from every part of a game. Each test file says how its positions go on from the
opening (its own playout policy, candidates near the front of the list, random moves) and which it keeps."""

from __future__ import annotations

import random
from collections.abc import Callable

from protocol import new_game
from protocol.game import Game
from protocol.moves import Move
from referee.matches.openings import read_opening_file, shipped_book


def _not_over(game: Game) -> bool:
    return not game.is_over()


def book_positions(game_name: str, count: int, seed: int, most_plies: int,
                   play_on: Callable[[Game, random.Random], Move],
                   goes_on: Callable[[Game], bool] = _not_over,
                   keep: Callable[[Game], bool] = _not_over) -> list[Game]:
    """`count` positions: each a shipped opening drawn at random, then a random number of plies below
    `most_plies` chosen by `play_on` while `goes_on` holds; those where `keep` holds, in the order found."""
    rng = random.Random(seed)
    openings = read_opening_file(game_name, str(shipped_book(game_name)))
    found: list[Game] = []
    while len(found) < count:
        game = new_game(game_name)
        for text in openings[rng.randrange(len(openings))].moves:
            game.push(game.parse_move(text))
        for _ in range(rng.randrange(0, most_plies)):
            if not goes_on(game):
                break
            game.push(play_on(game, rng))
        if keep(game):
            found.append(game)
    return found
