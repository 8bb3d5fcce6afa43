"""Strategy `random`: a uniformly random legal move, reproducible with the Seed option.

Uniform over the legal moves as the rules count them (HARI: over every distinct
move, via the game's own `random_move`, which does not list them all).
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable

from protocol.game import Game
from protocol.messages import Info
from protocol.moves import Move

from .base import PLAY_DEFAULTS, Limits, PlayOptions


class RandomStrategy:
    """Sparring partner: no evaluation at all."""

    name = "random"

    def choose(self, game: Game, limits: Limits, stop: threading.Event,
               report: Callable[[Info], None], rng: random.Random, options: PlayOptions = PLAY_DEFAULTS) -> Move:
        move = game.random_move(rng)
        assert move is not None, "the front end never asks for a move in a game that is over"
        report(Info(depth=0, nodes=1, pv=[str(move)]))
        return move
