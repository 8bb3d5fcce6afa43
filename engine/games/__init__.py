"""What the engine knows of each game: one package per game, apart from each other and from the
generic search techniques in engine/search/.

A game's package holds its candidates, evaluation and playouts, a native core with its Python
mirror where speed needs one, its search settings and its searcher (search.py: SEARCHER).
``searcher_for`` is the one registry of searchers; a searcher is imported when first asked for
(the engine starts without any), and an error inside it surfaces as that error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.search.searcher import Searcher


def _isaac() -> Searcher[Any]:
    from engine.games.isaac.search import SEARCHER
    return SEARCHER


def _foundations() -> Searcher[Any]:
    from engine.games.foundations.search import SEARCHER
    return SEARCHER


def _hari() -> Searcher[Any]:
    from engine.games.hari.search import SEARCHER
    return SEARCHER


SEARCHERS: dict[str, Callable[[], Searcher[Any]]] = {
    "isaac": _isaac,
    "foundations": _foundations,
    "hari": _hari,
}
"""Each game with a searcher, by its registry name (protocol/registry.py)."""


def has_searcher(game_name: str) -> bool:
    return game_name in SEARCHERS


def searcher_for(game_name: str) -> Searcher[Any]:
    """The searcher of the named game; ValueError naming the games that have one if it has none."""
    make = SEARCHERS.get(game_name)
    if make is None:
        raise ValueError(f"search: no searcher for game {game_name!r} (games with one: {', '.join(SEARCHERS)})")
    return make()
