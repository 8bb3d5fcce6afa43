"""Strategy `search`: the engine's real player (engine/search/, SPEC.md "Strategy search")."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable

from protocol.game import Game
from protocol.messages import Info
from protocol.moves import Move

from . import skill
from .base import Limits

WARM_UP_NODES = 200
"""Size of the throw-away search `prepare` runs, so that lazy tables are built before a timed `go`."""


class SearchStrategy:
    """Searches the position within the `go` limits; see engine.search.driver."""

    name = "search"

    def choose(self, game: Game, limits: Limits, stop: threading.Event,
               report: Callable[[Info], None], rng: random.Random) -> Move:
        started = time.monotonic()  # the clock runs from the arrival of `go` (limits.started) if known, else from here
        if limits.skill < skill.FULL and not limits.infinite:   # Skill Level: weaker on purpose
            weaker = skill.weaker_move(game, limits.skill, rng, stop, report)
            if weaker is not None:
                return weaker
            limits = skill.capped(limits, limits.skill)
        if limits.own_book and not limits.infinite:
            from engine.opening_book import book_move

            move = book_move(game)
            if move is not None:
                report(Info(pv=[str(move)], string="book move"))
                return move
        from engine.search.driver import search  # heavy imports only when searching

        return search(game, limits, stop, report, rng, started=started)

    def prepare(self, game: Game) -> None:
        """Import the searcher of `game`'s type and run a tiny search (once per game type)."""
        from engine.search.driver import search

        prepared: set[str] = getattr(self, "_prepared", set())
        if game.name in prepared or game.is_over():
            return
        from engine.opening_book import load_book

        load_book(game.name)
        search(game.copy(), Limits(nodes=WARM_UP_NODES), threading.Event(), None, random.Random(0))
        prepared.add(game.name)
        self._prepared = prepared
