"""Typed errors: every rejection says what was wrong and where, and nothing else breaks."""

from __future__ import annotations


class ArenaError(Exception):
    """Base of every error isaac-arena raises on purpose."""


class NotationError(ArenaError, ValueError):
    """Text that is not valid move notation or position string.

    `column` is 1-based into `text`; `message` says what was expected there.
    """

    def __init__(self, text: str, column: int, message: str, what: str = "notation"):
        self.text = text
        self.column = column
        self.message = message
        self.what = what
        shown = text if len(text) <= 80 else text[:77] + "..."
        super().__init__(f"bad {what} {shown!r} at column {column}: {message}")


class PositionError(NotationError):
    """A position string that does not parse or describes an impossible position."""

    def __init__(self, text: str, column: int, message: str):
        super().__init__(text, column, message, what="position")


class IllegalMoveError(ArenaError, ValueError):
    """Well-formed notation for a move the rules do not allow here."""

    def __init__(self, move: str, reason: str):
        self.move = move
        self.reason = reason
        super().__init__(f"illegal move {move!r}: {reason}")


class GameOverError(IllegalMoveError):
    """A move was offered after the game had ended."""

    def __init__(self, move: str):
        super().__init__(move, "the game is over")
