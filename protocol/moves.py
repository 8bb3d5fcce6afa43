"""Move objects of the three games; ``str(move)`` is its canonical notation (SPEC.md)."""

from __future__ import annotations

from dataclasses import dataclass

from .board import Segment


@dataclass(frozen=True, slots=True)
class Pass:
    """The only legal move when nothing else is: ``pass``."""

    def __str__(self) -> str:
        return "pass"


PASS = Pass()


@dataclass(frozen=True, slots=True)
class Place:
    """Put a piece from hand on `segment` (ISAAC placement, FOUNDATIONS on `level`)."""

    segment: Segment
    level: int = 1

    def __str__(self) -> str:
        if self.level == 1:
            return self.segment.name
        return f"{self.segment.name}^{self.level}"


@dataclass(frozen=True, slots=True)
class Remove:
    """ISAAC scoring: take `segment` off the board and move the counter to `score`."""

    segment: Segment
    score: int

    def __str__(self) -> str:
        return f"x{self.segment.name}:{self.score}"


@dataclass(frozen=True, slots=True)
class Slide:
    """HARI: move the piece on `start` along its length to `end` (None: off the board)."""

    start: Segment
    end: Segment | None

    def __str__(self) -> str:
        return f"{self.start.name}>{self.end.name if self.end else 'off'}"


@dataclass(frozen=True, slots=True)
class HariMove:
    """HARI turn: `slides` in a legal order, then place on `place` or discard length `discard`.

    Exactly one of `place` / `discard` is set. Moves produced by a game are
    canonical (slides in the order SPEC.md prescribes), so equal moves compare equal.
    """

    slides: tuple[Slide, ...]
    place: Segment | None = None
    discard: int = 0

    @property
    def length(self) -> int:
        return self.place.length if self.place else self.discard

    def __str__(self) -> str:
        play = self.place.name if self.place else f"x{self.discard}"
        if not self.slides:
            return play
        return ",".join(map(str, self.slides)) + "," + play


Move = Pass | Place | Remove | HariMove
