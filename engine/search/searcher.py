"""What the driver asks of a game's searcher (engine/games/<game>/search.py)."""

from __future__ import annotations

import random
from typing import Protocol, TypeVar

from protocol.game import Game
from protocol.messages import Info
from protocol.moves import Move

from .context import SearchContext

S = TypeVar("S")


class Searcher(Protocol[S]):
    """Chooses a move of one game within the limits of a SearchContext.

    `defaults` are the settings the engine plays with; `settings_type` their class, so that
    a variant handed in from outside (a tuning script) is checked before a search uses it.
    `choose` returns the move (None: no opinion, the driver then plays the first legal move
    and says so) and its final Info; the driver checks the move with the rules.
    """

    @property
    def defaults(self) -> S: ...

    @property
    def settings_type(self) -> type[S]: ...

    def moves_left(self, game: Game) -> int:
        """Moves the side to move still makes, roughly: the clock shares its time over them."""
        ...

    def choose(self, game: Game, ctx: SearchContext[S], rng: random.Random) -> tuple[Move | None, Info | None]:
        ...
