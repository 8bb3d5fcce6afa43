"""isaac-arena's shared language: rules of the three games, notation, position strings, protocol.

Import cost is kept low: game modules and the pyparsing grammar load on first use.
The games themselves are declared once, in ``protocol.registry``.
"""

from __future__ import annotations

from . import registry
from .errors import ArenaError, IllegalMoveError, NotationError, PositionError
from .game import Game, Result
from .state import GameEnd, GameState, Outcome, Phase, Piece

__version__ = "0.1.0"
"""isaac-arena's version: the one place it is written (pyproject.toml reads it; every command's --version prints it)."""

RULES_VERSION = "1"
"""Bumped whenever a rules ruling changes; recorded in every game record."""


def __getattr__(name: str) -> tuple[str, ...]:
    """``GAME_NAMES``: the registered games' names, read from the registry when asked."""
    if name == "GAME_NAMES":
        return registry.names()
    raise AttributeError(f"module 'protocol' has no attribute {name!r}")


def game_class(name: str) -> type[Game]:
    """The Game subclass of a registered game name (case-insensitive); ValueError if unknown."""
    return registry.entry(name).game_class()


def new_game(name: str) -> Game:
    """The start position of the named game."""
    return game_class(name).start()


def game_from_position(text: str) -> Game:
    """A position of whichever game the string's first field names."""
    first = text.strip().split(" ", 1)[0] if isinstance(text, str) else ""
    found = registry.lookup(first) if first else None
    if found is None:
        games = ", ".join(registry.names())
        raise PositionError(str(text)[:80], 1, f"expected game ({games}) and a space")
    return found.game_class().from_position(text)


__all__ = [
    "ArenaError", "IllegalMoveError", "NotationError", "PositionError", "Game", "Result", "Outcome",
    "GameEnd", "GameState", "Phase", "Piece", "GAME_NAMES", "RULES_VERSION", "game_class", "new_game",
    "game_from_position",
]
