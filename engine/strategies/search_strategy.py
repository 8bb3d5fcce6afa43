"""Strategy `search`: the engine's real player (engine/games/<game>/search.py under engine/search/driver.py;
SPEC.md "Strategy search").

A game whose engine parts have no searcher (a game registered in protocol/ only) is played by the
`heuristic` strategy (by the game's measure), said once a move in an `info string`."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Mapping

from engine.book import book_move, load_book
from engine.games import has_searcher, searcher_for
from engine.search.driver import search
from engine.search.timeman import DEFAULT_OVERHEAD_MS
from protocol.game import Game
from protocol.messages import Info
from protocol.moves import Move

from . import skill
from .base import FULL_SKILL, PLAY_DEFAULTS, Limits, PlayOptions
from .heuristic import HeuristicStrategy


def search_settings(changes: str) -> dict[str, object]:
    """The settings variant a SearchSettings text asks for (engine/games/tuning.py); ValueError if bad."""
    from engine.games.tuning import parse_changes  # the game searchers' defaults: imported when asked

    return parse_changes(changes)


WARM_UP_NODES = 200
"""Size of the throw-away search `prepare` runs, so that lazy tables are built before a timed `go`."""


class SearchStrategy:
    """Searches the position within the `go` limits with the game's searcher.

    `settings` maps a game's name to the settings its searcher plays with instead of its
    defaults (tuning scripts build variants this way); the engine plays the defaults."""

    name = "search"

    def __init__(self, settings: Mapping[str, object] | None = None) -> None:
        self.settings = dict(settings or {})
        self._prepared: set[str] = set()

    def choose(self, game: Game, limits: Limits, stop: threading.Event,
               report: Callable[[Info], None], rng: random.Random, options: PlayOptions = PLAY_DEFAULTS) -> Move:
        started = time.monotonic()  # the clock runs from the arrival of `go` (limits.started) if known, else from here
        if not has_searcher(game.name):
            report(Info(string=f"search: no searcher for {game.name}; playing heuristic"))
            return HeuristicStrategy().choose(game, limits, stop, report, rng, options)
        if options.skill < FULL_SKILL and not limits.infinite:   # Skill Level: weaker on purpose
            weaker = skill.weaker_move(game, options.skill, rng, stop, report)
            if weaker is not None:
                return weaker
            limits = skill.capped(limits, options.skill)
        if options.own_book and not limits.infinite:
            move = book_move(game)
            if move is not None:
                report(Info(pv=[str(move)], string="book move"))
                return move
        return self._search(game, limits, stop, report, rng, started, options.move_overhead)

    def _search(self, game: Game, limits: Limits, stop: threading.Event, report: Callable[[Info], None] | None,
                rng: random.Random, started: float | None = None, overhead_ms: int = DEFAULT_OVERHEAD_MS) -> Move:
        return search(game, searcher_for(game.name), limits, stop, report, rng, started=started,
                      settings=self.settings.get(game.name), overhead_ms=overhead_ms)

    def prepare(self, game: Game) -> None:
        """Import the searcher of `game`'s type and run a tiny search (once per game type)."""
        if game.name in self._prepared or game.is_over() or not has_searcher(game.name):
            return
        load_book(game.name)
        self._search(game.copy(), Limits(nodes=WARM_UP_NODES), threading.Event(), None, random.Random(0))
        self._prepared.add(game.name)
