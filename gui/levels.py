"""Playing levels of the page, as Lichess offers Stockfish's: 1 (weakest) to 8, or the clock.

A level is the engine's strength setting in the UCI way (`Skill Level`, SPEC 9.3: 0 to 20, sent
only to an engine that declares the option) and a time per move (`go movetime`), never more than
the game's clock allows. `CLOCK` is no level at all: full strength, thinking by the clock as the
referee's engines do. docs/gui.md lists the table; benchmarks/gui_levels.py measures each level.
"""

from __future__ import annotations

from dataclasses import dataclass

from protocol.messages import GoCommand
from referee.matches.clock import Clock, go_command

SKILL_OPTION = "Skill Level"
"""The UCI option a level sets (Stockfish's name; SPEC 9.3)."""


@dataclass(frozen=True)
class Level:
    number: int
    skill: int
    """`Skill Level` sent to the engine: 0 (weakest) .. 20 (full strength)."""
    movetime_ms: int
    """Time per move, cut to what the clock allows."""

    @property
    def label(self) -> str:
        return f"{self.number} ({self.movetime_ms / 1000:g} s)"


LEVELS: tuple[Level, ...] = (
    Level(1, 0, 100),
    Level(2, 3, 150),
    Level(3, 6, 250),
    Level(4, 9, 400),
    Level(5, 12, 600),
    Level(6, 15, 1000),
    Level(7, 18, 2000),
    Level(8, 20, 4000),
)
DEFAULT_LEVEL = 5
CLOCK = "clock"
"""The choice 'no level': full strength, the engine manages its clock (the page's last entry)."""
CLOCK_SHARE = 0.1
"""A level never thinks longer than this share of the mover's clock plus 0.8 of its increment..."""
CLOCK_CAP = 0.6
"""...nor than this share of the clock itself (the increment comes after the move)."""
MIN_MOVETIME_MS = 10


def level_of(choice: object) -> Level | None:
    """The level a page's choice names (1..8), None for CLOCK; ValueError for anything else."""
    if choice == CLOCK:
        return None
    if isinstance(choice, str) and choice.isdigit():
        choice = int(choice)
    for level in LEVELS:
        if isinstance(choice, int) and not isinstance(choice, bool) and choice == level.number:
            return level
    raise ValueError(f"unknown level {str(choice)[:20]!r}; levels are 1 to {len(LEVELS)} or {CLOCK!r}")


def level_movetime(level: Level, own: Clock) -> int:
    """The level's time per move, cut to what the mover's clock (and a fixed time per move) allows."""
    movetime = float(level.movetime_ms)
    if own.remaining_ms is not None:
        by_clock = min(own.remaining_ms * CLOCK_SHARE + 0.8 * own.tc.inc_ms, own.remaining_ms * CLOCK_CAP)
        movetime = min(movetime, by_clock)
    if own.tc.movetime_ms is not None:
        movetime = min(movetime, own.tc.movetime_ms)
    return max(MIN_MOVETIME_MS, int(movetime))


def go_for(level: Level | None, dark: Clock, light: Clock, mover: int) -> GoCommand:
    """The `go` of the engine to move: by its level's time, or (no level) with both clocks."""
    if level is None:
        return go_command(dark, light, mover)
    own = dark if mover == 0 else light
    return GoCommand(movetime=level_movetime(level, own), depth=own.tc.depth, nodes=own.tc.nodes)


def levels_json() -> list[dict[str, object]]:
    """The levels as the page offers them (hello message)."""
    return [{"level": lv.number, "skill": lv.skill, "movetime_ms": lv.movetime_ms, "label": lv.label}
            for lv in LEVELS]
