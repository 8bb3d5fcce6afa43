"""A game's state as plain values: what display, pictures, records and GUIs read.

``Game.state()`` returns one frozen ``GameState``, the same shape for every game,
so nothing outside the rules ever re-parses a position string to draw or record
a position. ``Outcome`` is how a finished game ended; ``Game.result()`` returns it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .board import COLOR_LETTER, COLOR_NAME, DARK, LIGHT, Segment, cell_name


class Phase(StrEnum):
    """Which part of the game is being played. ISAAC has two; the other games one."""

    PLACE = "place"
    """ISAAC: pieces go onto the board."""
    SCORE = "score"
    """ISAAC: pieces come off the board for points."""
    PLAY = "play"
    """FOUNDATIONS and HARI: the whole game."""


class GameEnd(StrEnum):
    """How the rules ended a game (not how it was decided: that is ``Outcome.reason``)."""

    SCORE_LIMIT = "score-limit"
    """A player's score reached the game's limit (ISAAC: 100) and the game ended at once."""
    BOTH_PASSED = "both-passed"
    """Both players passed: nothing more can be played (ISAAC scoring phase, FOUNDATIONS, HARI)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended.

    `winner` is DARK, LIGHT or None for a draw. `termination` says which rule
    ended it. `scores` is (Dark, Light) in the game's own measure: ISAAC score,
    FOUNDATIONS value left in hand (lower is better), HARI value on the board.
    `reason` is one human sentence saying why the winner won.
    """

    winner: int | None
    termination: GameEnd
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


@dataclass(frozen=True, slots=True)
class Piece:
    """One piece on the board: its owner, the cells it lies on, and its level (FOUNDATIONS; else 1)."""

    color: int
    segment: Segment
    level: int = 1

    @property
    def name(self) -> str:
        """The piece in position-string notation: 'c3c7', or 'c3c7^2' above level 1."""
        return self.segment.name if self.level == 1 else f"{self.segment.name}^{self.level}"

    def sort_key(self) -> tuple[int, int, int, int]:
        """Canonical order: Dark's pieces first, then by level, then by cells (lower end first)."""
        return self.color, self.level, self.segment.lo, self.segment.hi


Hand = tuple[int, ...]
"""Piece counts indexed by length 0..7 (entries 0..2 are always 0), as ``Game.hand`` returns."""


def hand_lengths(counts: Hand) -> tuple[int, ...]:
    """The lengths of the pieces in a hand of counts, ascending: (3, 3, 4, 7)."""
    return tuple(n for n, k in enumerate(counts) for _ in range(k))


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything about a position, as values; equal positions give equal states."""

    game: str
    """The registered game name ('isaac', 'foundations', 'hari')."""
    position: str
    """The canonical position string."""
    turn: int
    """DARK or LIGHT: who moves now (after a game's end: who would move)."""
    phase: Phase
    pieces: tuple[Piece, ...]
    """Every piece on the board, in canonical order (``Piece.sort_key``)."""
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    """(Dark, Light): the lengths of the pieces in hand, ascending."""
    passes: tuple[int, ...]
    """Who has passed in the current phase, first passer first."""
    scores: tuple[int, int]
    """(Dark, Light) in the game's measure (see ``Outcome``), also while the game runs."""
    counters: tuple[int | None, int | None] | None
    """ISAAC: the cells of (Dark, Light)'s counters (None: not on the board); None in other games."""
    outcome: Outcome | None
    """How the game ended, or None while it runs."""

    @property
    def over(self) -> bool:
        return self.outcome is not None


__all__ = ["GameEnd", "GameState", "Hand", "Outcome", "Phase", "Piece", "hand_lengths"]


def state_fields(state: GameState) -> dict[str, object]:
    """The fields of the engine protocol's `state` answer (SPEC 9.11): what a GUI that knows no rules
    reads of a position. The engine sends them; the GUI builds the same fields for replayed games."""
    outcome = state.outcome
    return {
        "game": state.game,
        "position": state.position,
        "over": outcome is not None,
        "turn": COLOR_LETTER[state.turn],
        "phase": str(state.phase),
        "scores": list(outcome.scores if outcome else state.scores),
        "hands": [list(state.hands[DARK]), list(state.hands[LIGHT])],
        "passes": "".join(COLOR_LETTER[c] for c in state.passes) or "-",
        "counters": None if state.counters is None else
                    [None if c is None else cell_name(c) for c in state.counters],
        "result": outcome.text if outcome else None,
        "termination": str(outcome.termination) if outcome else None,
        "reason": outcome.reason if outcome else None,
    }
