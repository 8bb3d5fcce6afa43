"""What a run is made of: its engines, its schedule, its openings and how it is played."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engines.process import EngineSpec
from ..formats.timecontrol import TimeControl
from ..results.sprt import Sprt
from .game_runner import GameSpec
from .openings import OpeningBook
from .schedule import ScheduledGame, game_seed


@dataclass
class RunPlan:
    """Everything the runner needs; built by the CLI from arguments or a stored config."""

    mode: str                              # 'match' or 'tournament'
    game_type: str
    engines: list[EngineSpec]
    schedule: Sequence[ScheduledGame]
    book: OpeningBook
    concurrency: int = 1
    sprt: Sprt | None = None
    max_plies: int = 1000
    player_options: dict[str, Any] = field(default_factory=dict)
    preflight: bool = False                # start every engine once before the first game (the CLI does)
    seed: int | None = None                # the run's seed: each game gets one drawn from it (schedule.game_seed)
    fair_cpu: str = "auto"                 # referee/engines/cpu.py: 'auto', 'signals' or 'off'

    def game_spec(self, scheduled: ScheduledGame) -> GameSpec:
        by_name = {spec.name: spec for spec in self.engines}
        opening = self.book.get(scheduled.opening)
        return GameSpec(game_id=scheduled.index, game_type=self.game_type,
                        start_position=opening.start_position, opening=list(opening.moves),
                        dark_tc=_time_control(by_name[scheduled.dark]),
                        light_tc=_time_control(by_name[scheduled.light]),
                        pair=scheduled.pair, round=scheduled.round, max_plies=self.max_plies,
                        seed=None if self.seed is None else game_seed(self.seed, scheduled.index))


def _time_control(spec: EngineSpec) -> TimeControl:
    """The engine's time control (the configuration gives every engine one)."""
    if spec.tc is None:
        raise ValueError(f"engine {spec.name!r} has no time control")
    return spec.tc
