"""isaac-arena's shared language: rules of the three games, notation, position strings, protocol.

Import cost is kept low: game modules and the pyparsing grammar load on first use.
"""

from __future__ import annotations

from importlib import import_module

from .errors import ArenaError, IllegalMoveError, NotationError, PositionError
from .game import Game, Result

GAME_NAMES = ("isaac", "foundations", "hari")
_CLASSES = {
    "isaac": ("protocol.isaac", "IsaacGame"),
    "foundations": ("protocol.foundations", "FoundationsGame"),
    "hari": ("protocol.hari", "HariGame"),
}
RULES_VERSION = "1"
"""Bumped whenever a rules ruling changes; recorded in every game record."""


def game_class(name: str) -> type[Game]:
    """The Game subclass for 'isaac', 'foundations' or 'hari' (case-insensitive)."""
    key = name.strip().lower()
    if key not in _CLASSES:
        raise ValueError(f"unknown game {name!r}; expected one of {', '.join(GAME_NAMES)}")
    module, cls = _CLASSES[key]
    return getattr(import_module(module), cls)


def new_game(name: str) -> Game:
    """The start position of the named game."""
    return game_class(name).start()


def game_from_position(text: str) -> Game:
    """A position of whichever game the string's first field names."""
    first = text.strip().split(" ", 1)[0] if isinstance(text, str) else ""
    if first.lower() not in _CLASSES:
        raise PositionError(str(text)[:80], 1, "expected game (isaac, foundations or hari) and a space")
    return game_class(first).from_position(text)


__all__ = [
    "ArenaError", "IllegalMoveError", "NotationError", "PositionError", "Game", "Result",
    "GAME_NAMES", "RULES_VERSION", "game_class", "new_game", "game_from_position",
]
