"""Bots as the referee's engine players: their EngineSpec and an engine pool that grows and shrinks
with the ladder (each game's stderr is kept by ladder/capture.py's ArenaPlayer).

* A version plays as engine `bot-vN`, run in its own directory, under the arena's sandbox and
  memory limit, at the arena's time control.
* ArenaPool is the referee's EnginePool with engines added and removed as versions enter and
  leave the ladder, and at most `idle_limit` idle processes kept (the least recently used quit
  first), so 200 bots do not mean 200 sleeping processes.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from referee.engines.player import EnginePlayer
from referee.engines.pool import EnginePool
from referee.engines.process import EngineSpec
from referee.formats.timecontrol import TimeControl

from ..config import Arena
from ..db.bots import VersionRow


def bot_dir(arena: Arena, row: VersionRow) -> Path:
    return arena.bots / row.bot / f"v{row.number}"


def bot_spec(arena: Arena, row: VersionRow, tc: TimeControl | None = None) -> EngineSpec:
    """How the referee runs this version."""
    config = arena.config
    return EngineSpec(name=row.engine_name, cmd=list(row.command), cwd=str(bot_dir(arena, row)),
                      tc=tc or config.time_control(), memory_mb=config.limits.memory_mb,
                      sandbox=None if config.sandbox == "none" else config.sandbox,
                      readable=list(config.readable))


class ArenaPool(EnginePool):
    """An EnginePool whose engines come and go, with a bound on idle processes."""

    def __init__(self, make_player: Callable[[EngineSpec], EnginePlayer], idle_limit: int,
                 on_event: Callable[[str], None] = lambda text: None):
        super().__init__([], make_player, on_event)
        self.idle_limit = max(2, idle_limit)
        self._order: list[EnginePlayer] = []   # idle players, least recently used first

    def add(self, spec: EngineSpec) -> None:
        self.specs[spec.name] = spec
        self.idle.setdefault(spec.name, [])

    async def remove(self, name: str) -> None:
        """The engine leaves: its idle processes quit (one in a game quits when released)."""
        self.specs.pop(name, None)
        for player in self.idle.pop(name, []):
            await self._drop(player)

    def acquire(self, name: str, cores: tuple[int, ...] = ()) -> EnginePlayer:
        player = super().acquire(name, cores)
        if player in self._order:
            self._order.remove(player)
        return player

    async def release(self, player: EnginePlayer) -> None:
        if player.name not in self.specs:    # removed while it played
            await self._drop(player)
            return
        await super().release(player)
        if player in self.idle.get(player.name, []):
            self._order.append(player)
        while len(self._order) > self.idle_limit:
            oldest = self._order[0]
            idle = self.idle.get(oldest.name, [])
            if oldest in idle:
                idle.remove(oldest)
            await self._drop(oldest)

    async def _drop(self, player: EnginePlayer) -> None:
        if player in self._order:
            self._order.remove(player)
        await player.quit()
        self._forget(player)

    def idle_count(self) -> int:
        return len(self._order)
