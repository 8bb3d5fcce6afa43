"""Playing strengths of the page, as Lichess offers Stockfish's levels: 1 (weakest) to 8, or the clock.

A strength level is the engine's strength setting in the UCI way (`Skill Level`, SPEC 9.3: 0 to
20, sent only to an engine that declares the option) and a time per move (`go movetime`), never
more than the game's clock allows. `CLOCK` is no level at all: full strength, thinking by the
clock as the referee's engines do. The page calls these "strength" (FOUNDATIONS' board has levels
of its own). Each is labelled with how it scored against the `fastmc` partner at 100 ms a move,
measured by `benchmarks/gui_levels.py --strength` (docs/gui.md gives the run); MEASURED holds
those figures.
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


@dataclass(frozen=True)
class Strength:
    """A level's measured score against the yardstick: percent, with its 95% interval over game pairs."""

    score: float
    low: float
    high: float
    games: int


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
YARDSTICK = "fastmc at 0.1 s"
"""The opponent every level was measured against: Strategy fastmc, 100 ms a move."""
MEASURED: dict[int, dict[str, Strength]] = {
    1: {"isaac": Strength(3.8, 0.0, 7.8, 80), "foundations": Strength(7.5, 2.0, 13.0, 80), "hari": Strength(7.5, 2.0, 13.0, 80)},
    2: {"isaac": Strength(6.2, 1.1, 11.4, 80), "foundations": Strength(25.0, 15.2, 34.8, 80), "hari": Strength(20.6, 13.3, 28.0, 80)},
    3: {"isaac": Strength(21.2, 12.8, 29.7, 80), "foundations": Strength(45.0, 35.6, 54.4, 80), "hari": Strength(25.0, 16.5, 33.5, 80)},
    4: {"isaac": Strength(46.3, 35.6, 56.9, 80), "foundations": Strength(66.9, 56.4, 77.3, 80), "hari": Strength(61.9, 53.4, 70.4, 80)},
    5: {"isaac": Strength(73.8, 64.6, 82.9, 80), "foundations": Strength(89.4, 82.7, 96.1, 80), "hari": Strength(81.9, 72.1, 91.7, 80)},
    6: {"isaac": Strength(90.0, 81.2, 98.8, 40), "foundations": Strength(93.8, 86.9, 100.0, 40), "hari": Strength(100.0, 83.9, 100.0, 40)},
    7: {"isaac": Strength(97.5, 92.7, 100.0, 40), "foundations": Strength(90.0, 81.2, 98.8, 40), "hari": Strength(95.0, 90.6, 99.4, 40)},
    8: {"isaac": Strength(97.5, 92.7, 100.0, 40), "foundations": Strength(97.5, 92.7, 100.0, 40), "hari": Strength(98.8, 96.4, 100.0, 40)},
}
"""{level: {game: its score against YARDSTICK}}: two runs of `python benchmarks/gui_levels.py --strength 40`
(levels 6 to 8 with 20 games) pooled, 80 games per level and game (40 for levels 6 to 8); docs/gui.md
gives the runs and the table."""
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
    return [{"level": lv.number, "skill": lv.skill, "movetime_ms": lv.movetime_ms, "label": lv.label,
             "strength": {game: {"score": s.score, "low": s.low, "high": s.high, "games": s.games}
                          for game, s in MEASURED.get(lv.number, {}).items()}}
            for lv in LEVELS]
