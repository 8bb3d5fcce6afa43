"""The Strategy interface: what the front end (engine/uci.py) asks of every way of choosing a move.

The front end owns the protocol, the clock and the threads; a strategy only
chooses. It gets a private copy of the game, the limits of this `go`, a stop
event to poll, a callback for `info` lines and a seeded random generator.
"""

import random
import threading
from collections.abc import Callable
from typing import Protocol

from engine.search.limits import Limits
from protocol.game import Game
from protocol.messages import Info
from protocol.moves import Move


class Strategy(Protocol):
    """Chooses one move.

    `game` is a private copy (push/pop freely), never over, with >= 1 legal move.
    Return within `limits`; poll `stop` at least every ~10 ms of work and return
    the best move so far promptly once it is set. With `limits.infinite` search
    until `stop`. `report(Info(...))` prints an `info` line (at most ~10 a second
    plus a final one). `rng` is seeded from the `Seed` option.
    """
    name: str
    def choose(self, game: Game, limits: Limits, stop: threading.Event,
               report: Callable[[Info], None], rng: random.Random) -> Move: ...

__all__ = ["Limits", "Strategy"]
