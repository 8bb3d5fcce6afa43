"""The Strategy interface: what the front end (engine/uci.py) asks of every way of choosing a move.

The front end owns the protocol, the clock and the threads; a strategy only
chooses. It gets a private copy of the game, the limits of this `go`, a stop
event to poll, a callback for `info` lines, a seeded random generator and the
options it plays by (PlayOptions).
"""

import random
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from engine.search.limits import Limits
from engine.search.timeman import DEFAULT_OVERHEAD_MS
from protocol.game import Game
from protocol.messages import Info
from protocol.moves import Move

FULL_SKILL = 20
"""The Skill Level at which nothing is weakened (the option's default and maximum, Stockfish's range)."""


@dataclass(frozen=True)
class PlayOptions:
    """The engine's options that shape every move alike (SPEC 9.3), apart from what one `go` allows
    (Limits): the front end reads them from `setoption` and hands them to each `choose`."""

    move_overhead: int = DEFAULT_OVERHEAD_MS
    """MoveOverhead, ms: the answer's way to the GUI, kept off the clock's budget."""
    own_book: bool = False
    """OwnBook: `search` may answer from the engine's opening book (the engine's option says true)."""
    skill: int = FULL_SKILL
    """Skill Level: `search` below FULL_SKILL is weaker on purpose (strategies/skill.py)."""


PLAY_DEFAULTS = PlayOptions()


class Strategy(Protocol):
    """Chooses one move.

    `game` is a private copy (push/pop freely), never over, with >= 1 legal move.
    Return within `limits`; poll `stop` at least every ~10 ms of work and return
    the best move so far promptly once it is set. With `limits.infinite` search
    until `stop`. `report(Info(...))` prints an `info` line (at most ~10 a second
    plus a final one). `rng` is seeded from the `Seed` option; `options` are the
    engine's options of SPEC 9.3 that every strategy may read (time: MoveOverhead).
    """
    name: str
    def choose(self, game: Game, limits: Limits, stop: threading.Event,
               report: Callable[[Info], None], rng: random.Random,
               options: PlayOptions = PLAY_DEFAULTS) -> Move: ...

__all__ = ["Limits", "PLAY_DEFAULTS", "PlayOptions", "Strategy"]
