"""Varied positions of a game for the tests of the `fastmc` partner cores (engine/games/<game>/playout_core.py).

Games start from a shipped book opening (or, one time in four, the start position) and go on
for a random number of plies, each drawn at random or taken from one of the core's own
playouts, so that the positions reach every part of the game: ISAAC's scoring phase,
FOUNDATIONS' upper levels, HARI's end game where slides are played."""

from __future__ import annotations

import random
from importlib import import_module
from types import ModuleType
from typing import Any

from protocol import new_game
from protocol.game import Game
from referee.matches.openings import read_opening_file, shipped_book

PLIES = {"isaac": 70, "foundations": 34, "hari": 30}
"""Most plies played on from the opening: about a whole game."""


def partner(game_name: str) -> ModuleType:
    return import_module(f"engine.games.{game_name}.playout_core")


def replay(game: Game, module: ModuleType, natives: list[Any]) -> Game:
    """A copy of `game` with the core's moves played on it, each vetted by the rules (IllegalMoveError if not)."""
    copy = game.copy()
    for native in natives:
        copy.push(copy.check_move(module.to_move(native)))
    return copy


def varied_positions(game_name: str, count: int, seed: int, random_share: float = 0.3) -> list[Game]:
    """`count` positions where the game is not over (see the module docstring)."""
    rng = random.Random(seed)
    module = partner(game_name)
    openings = read_opening_file(game_name, str(shipped_book(game_name)))
    found: list[Game] = []
    while len(found) < count:
        game = new_game(game_name)
        if rng.random() < 0.75:
            for text in openings[rng.randrange(len(openings))].moves:
                game.push(game.parse_move(text))
        for _ in range(rng.randrange(0, PLIES[game_name])):
            if game.is_over():
                break
            if rng.random() < random_share:
                move = game.random_move(rng)
            else:
                natives, _, _ = module.core().playout(module.position_tuple(game), module.DEFAULTS.params(),
                                                      rng.getrandbits(64))
                move = module.to_move(natives[0])
            game.push(game.check_move(move))
        if not game.is_over():
            found.append(game)
    return found
