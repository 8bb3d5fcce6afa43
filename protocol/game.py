"""The one interface every game implements; engine and referee use only this.

A ``Game`` is a mutable position with an undo stack, like a chess board:
``push(move)`` plays a legal move, ``pop()`` takes the last one back, and
``copy()`` gives an independent position. Moves come from ``legal_moves()``
(lazy: HARI can have hundreds of thousands) or from ``parse_move(text)``,
which checks notation and legality and raises a typed error naming the fault.
``state()`` gives the whole position as values (``protocol.state``), the same
shape for every game. Games are declared in ``protocol.registry``.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from itertools import islice
from typing import TYPE_CHECKING, Self

from .board import DARK, LIGHT
from .errors import GameOverError, IllegalMoveError
from .moves import Move
from .state import GameState, Hand, Outcome, Phase, Piece, hand_lengths

if TYPE_CHECKING:
    from .position import PositionRecord

Result = Outcome
"""The former name of ``Outcome``, kept for existing callers."""


class Game(ABC):
    """A position of one registered game, with its history since creation.

    Positions are mutable, so they compare equal by position but are not hashable:
    key dictionaries by ``position()``.

    Code meant for every game uses only the queries declared here (``board()``
    gives the pieces as ``Piece`` values with colour, segment and level).
    Subclasses add fast game-specific queries for their searches, such as
    ``pieces(color)`` (segments; FOUNDATIONS: (segment, level) pairs),
    ``IsaacGame.earned`` or ``HariGame.slide_sets``.
    """

    name: str = ""
    """The registered name: the UCI_Variant value and position-string tag."""

    # -- construction -------------------------------------------------------
    @classmethod
    def start(cls) -> Self:
        """The start position: a new game's state (a game whose constructor does not build it overrides this)."""
        return cls()

    @classmethod
    @abstractmethod
    def from_position(cls, text: str) -> Game:
        """Parse a position string (SPEC.md); raises PositionError naming the fault and column."""

    @classmethod
    def parse_position(cls, text: str) -> tuple[PositionRecord, list[list[int]]]:
        """What every game's ``from_position`` reads first: the string's content by the one grammar, with the
        checks all games share (tag, inventory, overlaps), and per colour the counts of pieces gone."""
        from .notation import parse_game_position  # the grammar loads on first use

        return parse_game_position(text, cls.name)

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

    @property
    def phase(self) -> Phase:
        """The part of the game being played; PLAY in games with one part."""
        return Phase.PLAY

    @property
    @abstractmethod
    def passes(self) -> tuple[int, ...]:
        """Who has passed in the current phase, first passer first."""

    @property
    @abstractmethod
    def scores(self) -> tuple[int, int]:
        """(Dark, Light) in the game's own measure, the one ``Outcome.scores`` reports."""

    @property
    def counters(self) -> tuple[int | None, int | None] | None:
        """Cells of the (Dark, Light) score counters in games that have them, else None."""
        return None

    @abstractmethod
    def hand(self, color: int) -> Hand:
        """Counts indexed by length 0..7 of `color`'s pieces in hand."""

    @abstractmethod
    def board(self) -> Iterator[Piece]:
        """Every piece on the board as a value (any order; ``state()`` sorts them)."""

    @abstractmethod
    def is_over(self) -> bool:
        """True when the rules end the game here."""

    @abstractmethod
    def result(self) -> Outcome | None:
        """How the game ended if it is over, else None."""

    def state(self) -> GameState:
        """The whole position as values: what display, pictures and records read."""
        return GameState(
            game=self.name,
            position=self.position(),
            turn=self.turn,
            phase=self.phase,
            pieces=tuple(sorted(self.board(), key=Piece.sort_key)),
            hands=(hand_lengths(self.hand(DARK)), hand_lengths(self.hand(LIGHT))),
            passes=self.passes,
            scores=self.scores,
            counters=self.counters,
            outcome=self.result(),
        )

    # -- moves --------------------------------------------------------------
    @abstractmethod
    def legal_moves(self) -> Iterator[Move]:
        """Every legal move once, canonical, lazily. Empty when the game is over;
        exactly [PASS] when passing is the only move."""

    def count_legal_moves(self) -> int:
        """len(list(legal_moves())), computed without building moves where possible."""
        return sum(1 for _ in self.legal_moves())

    def legal_moves_from(self, start: int) -> Iterator[Move]:
        """``legal_moves()`` from index `start` on (0-based), for paging long move lists.

        Games with huge move lists override this to skip whole groups of moves by
        counting them instead of building them."""
        return islice(self.legal_moves(), start, None)

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

    def play(self, text_or_move: str | Move) -> Move:
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
        """A uniformly random legal move (None if the game is over).

        Games with many moves override this to draw an index with ``uniform_index``
        and build only the move at that index."""
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

    __hash__ = None  # type: ignore[assignment]  # mutable: equal now, different after a push


def uniform_index(rng: random.Random, counts: Sequence[int]) -> tuple[int, int] | None:
    """A uniform pick among ``sum(counts)`` items kept in groups: (group, index in it).

    The uniform random move of every game: moves are counted per group (a
    bitboard of start cells, a slide set, a removable piece) without being
    built, one index below the total is drawn, and only that move is built.
    None when there is nothing to pick.
    """
    total = sum(counts)
    if not total:
        return None
    r = rng.randrange(total)
    for group, k in enumerate(counts):
        if r < k:
            return group, r
        r -= k
    raise AssertionError("unreachable: r < total")


__all__ = ["Game", "Result", "uniform_index"]
