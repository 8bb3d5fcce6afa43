"""Bots as the referee's engine players: their EngineSpec, each game's stderr kept for its author, and
an engine pool that grows and shrinks with the ladder.

* A version plays as engine `bot-vN`, run in its own directory, under the arena's sandbox and
  memory limit, at the arena's time control.
* The referee keeps the head and tail of what an engine wrote to stderr over the process's whole
  life (for failure reports). An author wants each game's own: the first STDERR_HEAD and last
  STDERR_TAIL bytes written during that game. ArenaPlayer's process hands every stderr chunk to a
  per-game StderrCapture as well as to the referee's own keeper (the process's `stderr`).
* ArenaPool is the referee's EnginePool with engines added and removed as versions enter and
  leave the ladder, and at most `idle_limit` idle processes kept (the least recently used quit
  first), so 200 bots do not mean 200 sleeping processes.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from referee.engines.client import ProtocolClient
from referee.engines.player import EnginePlayer
from referee.engines.pool import EnginePool
from referee.engines.process import EngineSpec
from referee.engines.stderr import StderrKeeper
from referee.formats.timecontrol import TimeControl

from ..config import Arena
from ..db.bots import VersionRow

STDERR_HEAD = 1024
STDERR_TAIL = 2048


def bot_dir(arena: Arena, row: VersionRow) -> Path:
    return arena.bots / row.bot / f"v{row.number}"


def bot_spec(arena: Arena, row: VersionRow, tc: TimeControl | None = None) -> EngineSpec:
    """How the referee runs this version."""
    config = arena.config
    return EngineSpec(name=row.engine_name, cmd=list(row.command), cwd=str(bot_dir(arena, row)),
                      tc=tc or config.time_control(), memory_mb=config.limits.memory_mb,
                      sandbox=None if config.sandbox == "none" else config.sandbox,
                      readable=list(config.readable))


class StderrCapture:
    """The stderr one game produced: its first and last bytes, and how many there were (a fresh
    referee StderrKeeper for each game)."""

    def __init__(self) -> None:
        self.keeper = StderrKeeper(STDERR_HEAD, STDERR_TAIL)

    def begin(self) -> None:
        self.keeper = StderrKeeper(STDERR_HEAD, STDERR_TAIL)

    def feed(self, chunk: bytes) -> None:
        self.keeper.feed(chunk)

    @property
    def total(self) -> int:
        return self.keeper.total

    def texts(self) -> tuple[str, str, int]:
        """(head, tail, total bytes); the tail holds only what came after the head."""
        keeper = self.keeper
        after_head = keeper.total - len(keeper.head)
        tail = bytes(keeper.tail[-after_head:]) if after_head > 0 else b""
        return bytes(keeper.head).decode("utf-8", "replace"), tail.decode("utf-8", "replace"), keeper.total


class _TeeKeeper(StderrKeeper):
    """The process's own keeper (the referee's failure reports read it), which also hands every
    chunk to the game's capture."""

    def __init__(self, own: StderrKeeper, capture: StderrCapture):
        super().__init__(own.head_bytes, own.tail_bytes, own.on_line)
        self.capture = capture

    def feed(self, chunk: bytes) -> None:
        super().feed(chunk)
        self.capture.feed(chunk)


class _CapturingClient(ProtocolClient):
    def __init__(self, *args: object, capture: StderrCapture, **kwargs: object):
        super().__init__(*args, **kwargs)   # type: ignore[arg-type]
        self.capture = capture

    async def spawn(self) -> None:
        """The referee's spawn, then the process's stderr keeper teed into the capture (before the
        reader's first chunk: start() returns without yielding once its reader is made)."""
        await super().spawn()
        assert self.process is not None
        self.process.stderr = _TeeKeeper(self.process.stderr, self.capture)


class ArenaPlayer(EnginePlayer):
    """The referee's EnginePlayer whose process also keeps each game's stderr (`capture`)."""

    def __init__(self, spec: EngineSpec, **options: object):
        super().__init__(spec, None, **options)   # type: ignore[arg-type]
        self.capture = StderrCapture()
        self.client = _CapturingClient(spec, None, max_line=self.max_line, fair_cpu=str(options.get("fair_cpu", "off")),
                                       capture=self.capture)


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
