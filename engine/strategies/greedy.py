"""Strategy `greedy`: the best immediate gain by one simple evaluation per game, no look-ahead.

A sparring partner, predictable on purpose: the game's greedy rule (its engine parts' `sparring`:
engine/games/<game>/sparring.py says each; SPEC.md quotes them), or in a game without one the move
that leaves the mover's own measure (``Game.scores``) best at once, higher or lower as its registry
entry says (engine/games/generic.py).

Ties not settled by the rule are broken uniformly at random by the generator seeded from the Seed
option, so greedy is reproducible but not one fixed game. The pass/game-over cases never reach a
strategy (the front end answers them).
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable

from engine.games import sparring_for
from protocol.game import Game
from protocol.messages import Info
from protocol.moves import Move

from .base import PLAY_DEFAULTS, Limits, PlayOptions


class GreedyStrategy:
    """Picks the move with the best immediate gain (see the module docstring)."""

    name = "greedy"

    def choose(self, game: Game, limits: Limits, stop: threading.Event,
               report: Callable[[Info], None], rng: random.Random, options: PlayOptions = PLAY_DEFAULTS) -> Move:
        move, examined = sparring_for(game.name).greedy(game, stop, rng)
        report(Info(depth=1, nodes=examined, pv=[str(move)]))
        return move
