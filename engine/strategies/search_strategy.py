"""Strategy `search`: the engine's real player (engine/search/, SPEC.md "Strategy search")."""

from __future__ import annotations


class SearchStrategy:
    """Searches the position within the `go` limits; see engine.search.driver."""

    name = "search"

    def choose(self, game, limits, stop, report, rng):
        from engine.search.driver import search  # heavy imports only when searching

        return search(game, limits, stop, report, rng)
