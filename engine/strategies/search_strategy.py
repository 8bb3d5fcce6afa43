"""Strategy `search`: the engine's real player (engine/search/, SPEC.md "Strategy search")."""

from __future__ import annotations

import time


class SearchStrategy:
    """Searches the position within the `go` limits; see engine.search.driver."""

    name = "search"

    def choose(self, game, limits, stop, report, rng):
        started = time.monotonic()  # the clock runs from the call, import included
        from engine.search.driver import search  # heavy imports only when searching

        return search(game, limits, stop, report, rng, started=started)
