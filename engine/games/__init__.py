"""What the engine knows of each game: one package per game, apart from each other and from the
generic search techniques in engine/search/.

A game's package holds its candidates, evaluation and playouts, its C cores with their Python
faces, its search settings and its searcher, and declares what the strategies may use of them in
one `GameParts` (engine/games/parts.py), PARTS in its __init__.py. PACKAGES below is the one
registry: a game's name and its package, one line a game. A game of protocol's registry with no
package here is played by its measure (engine/games/generic.py). Nothing is imported until a
strategy asks: a package's __init__ only declares loaders.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .generic import ranked_moves as ranked_by_measure
from .parts import GameParts, PlayoutCore, Ranking, Sparring

if TYPE_CHECKING:
    from engine.search.searcher import Searcher

PACKAGES: dict[str, str] = {
    "isaac": "engine.games.isaac",
    "foundations": "engine.games.foundations",
    "hari": "engine.games.hari",
}
"""Each game the engine has parts for, by its registry name (protocol/registry.py): its package."""

GENERIC = GameParts()
"""A game without a package: every strategy but `search` plays it by its measure."""


def register(name: str, package: str) -> None:
    """Declare the engine parts of a game added at run time (a test's game): `package` holds its PARTS."""
    PACKAGES[name] = package


def unregister(name: str) -> None:
    PACKAGES.pop(name, None)


def parts_for(game_name: str) -> GameParts:
    """The parts the named game's package declares (GENERIC without a package)."""
    package = PACKAGES.get(game_name)
    if package is None:
        return GENERIC
    parts = getattr(import_module(package), "PARTS", None)
    if not isinstance(parts, GameParts):
        raise TypeError(f"{package}: PARTS must be a GameParts (engine/games/parts.py)")
    return parts


def has_searcher(game_name: str) -> bool:
    return parts_for(game_name).searcher is not None


def searcher_names() -> list[str]:
    """The games `search` can play."""
    return [name for name in PACKAGES if has_searcher(name)]


def searcher_for(game_name: str) -> Searcher[Any]:
    """The searcher of the named game; ValueError naming the games that have one if it has none."""
    load = parts_for(game_name).searcher
    if load is None:
        raise ValueError(f"search: no searcher for game {game_name!r} "
                         f"(games with one: {', '.join(searcher_names())})")
    return load()


def ranking_for(game_name: str) -> Ranking:
    """The game's one-ply ranking, else the ranking by its measure."""
    load = parts_for(game_name).ranking
    return load() if load is not None else ranked_by_measure


def sparring_for(game_name: str) -> Sparring:
    """What greedy and flatmc play in the game (by its measure where it declares nothing)."""
    load = parts_for(game_name).sparring
    return load() if load is not None else Sparring()


def playout_core_for(game_name: str) -> PlayoutCore | None:
    """The game's C playout core; None where it has none or it was not compiled here."""
    load = parts_for(game_name).playout_core
    return load() if load is not None else None
