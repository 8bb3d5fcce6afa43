"""The Strategy interface: what the front end (engine/uci.py) asks of every way of choosing a move.

The front end owns the protocol, the clock and the threads; a strategy only
chooses. It gets a private copy of the game, the limits of this `go`, a stop
event to poll, a callback for `info` lines and a seeded random generator.
"""

import random
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from protocol.game import Game
from protocol.messages import Info
from protocol.moves import Move


@dataclass
class Limits:
    """What `go` allows for this move. Times in ms; None = not given."""
    time_left: int | None = None      # mover's clock
    increment: int = 0                # mover's increment
    movestogo: int | None = None
    movetime: int | None = None
    depth: int | None = None
    nodes: int | None = None
    infinite: bool = False
    move_overhead: int = 15           # MoveOverhead option, ms
    started: float | None = None      # time.monotonic() when `go` arrived (the move's clock starts there)
    own_book: bool = False            # OwnBook option: `search` may answer from engine/books (the engine sets it)
    skill: int = 20                   # Skill Level option: `search` below 20 is weaker on purpose (strategies/skill.py)


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
