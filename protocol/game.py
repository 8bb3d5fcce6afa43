"""The one interface every game implements; engine and referee use only this.

A ``Game`` is a mutable position with an undo stack, like a chess board:
``push(move)`` plays a legal move, ``pop()`` takes the last one back, and
``copy()`` gives an independent position. Moves come from ``legal_moves()``
(lazy: HARI can have hundreds of thousands) or from ``parse_move(text)``,
which checks notation and legality and raises a typed error naming the fault.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass

from .board import COLOR_LETTER, COLOR_NAME, DARK, LIGHT
from .errors import GameOverError, IllegalMoveError
from .moves import Move


@dataclass(frozen=True)
class Result:
    """How a finished game ended.

    `winner` is DARK, LIGHT or None for a draw. `scores` is (Dark, Light) in the
    game's own measure: ISAAC score, FOUNDATIONS value left in hand (lower is
    better), HARI value on the board. `reason` is one human sentence.
    """

    winner: int | None
    scores: tuple[int, int]
    reason: str

    @property
    def text(self) -> str:
        """'1-0' (Dark won), '0-1' (Light won) or '1/2-1/2'."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner == DARK else "0-1"

    def __str__(self) -> str:
        who = "draw" if self.winner is None else f"{COLOR_NAME[self.winner]} wins"
        return f"{self.text} ({who}, {self.scores[0]}-{self.scores[1]}: {self.reason})"


class Game(ABC):
    """A position of one of the three games, with its history since creation."""

    name: str = ""
    """'isaac', 'foundations' or 'hari': the UCI_Variant value and position-string tag."""

    # -- construction -------------------------------------------------------
    @classmethod
    @abstractmethod
    def start(cls) -> Game:
        """The start position."""

    @classmethod
    @abstractmethod
    def from_position(cls, text: str) -> Game:
        """Parse a position string (SPEC.md); raises PositionError naming the fault and column."""

    @abstractmethod
    def position(self) -> str:
        """The canonical position string; ``from_position(g.position())`` is equal to g."""

    @abstractmethod
    def copy(self) -> Game:
        """An independent position equal to this one (history not needed)."""

    # -- state --------------------------------------------------------------
    @property
    @abstractmethod
    def turn(self) -> int:
        """DARK or LIGHT: who moves now."""

    @abstractmethod
    def is_over(self) -> bool:
        """True when the rules end the game here."""

    @abstractmethod
    def result(self) -> Result | None:
        """The result if the game is over, else None."""

    # -- moves --------------------------------------------------------------
    @abstractmethod
    def legal_moves(self) -> Iterator[Move]:
        """Every legal move once, canonical, lazily. Empty when the game is over;
        exactly [PASS] when passing is the only move."""

    def count_legal_moves(self) -> int:
        """len(list(legal_moves())), computed without building moves where possible."""
        return sum(1 for _ in self.legal_moves())

    @abstractmethod
    def parse_move(self, text: str) -> Move:
        """Notation -> the canonical legal Move.

        Raises NotationError (bad text, with column) or IllegalMoveError (with the rule broken).
        """

    @abstractmethod
    def check_move(self, move: Move) -> Move:
        """Return the canonical form of `move` if legal here, else raise IllegalMoveError."""

    def is_legal(self, move: Move) -> bool:
        try:
            self.check_move(move)
        except IllegalMoveError:
            return False
        return True

    @abstractmethod
    def push(self, move: Move) -> None:
        """Play a move that ``check_move``/``legal_moves`` vouched for (not re-checked)."""

    @abstractmethod
    def pop(self) -> Move:
        """Undo the last pushed move and return it."""

    def play(self, text_or_move) -> Move:
        """Check and play a move given as notation or Move; returns the canonical Move."""
        if self.is_over():
            raise GameOverError(str(text_or_move))
        if isinstance(text_or_move, str):
            move = self.parse_move(text_or_move)
        else:
            move = self.check_move(text_or_move)
        self.push(move)
        return move

    def random_move(self, rng: random.Random) -> Move | None:
        """A uniformly random legal move (None if the game is over)."""
        moves = list(self.legal_moves())
        return rng.choice(moves) if moves else None

    # -- counting -----------------------------------------------------------
    def perft(self, depth: int) -> int:
        """Number of move sequences of `depth` plies (ended games are leaves)."""
        if depth <= 0:
            return 1
        if depth == 1:
            return self.count_legal_moves()
        total = 0
        for move in list(self.legal_moves()):
            self.push(move)
            total += self.perft(depth - 1)
            self.pop()
        return total

    def perft_divide(self, depth: int) -> list[tuple[Move, int]]:
        """(move, perft(depth-1) after it) for each legal move: Stockfish's `go perft`."""
        out = []
        for move in list(self.legal_moves()):
            self.push(move)
            out.append((move, self.perft(depth - 1)))
            self.pop()
        return out

    def __str__(self) -> str:
        return self.position()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self.position() == other.position()

    def __hash__(self) -> int:
        return hash(self.position())


def color_letter(color: int) -> str:
    return COLOR_LETTER[color]


def opponent(color: int) -> int:
    return LIGHT - color
