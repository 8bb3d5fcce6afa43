"""Each game's stderr, kept for the bot's author, wherever the game is played.

* The referee keeps the head and tail of what an engine wrote to stderr over the process's whole
  life (for failure reports). An author wants each game's own: the first STDERR_HEAD and last
  STDERR_TAIL bytes written during that game. ArenaPlayer's process hands every stderr chunk to a
  per-game StderrCapture as well as to the referee's own keeper (the process's `stderr`).
* On a Dask cluster the referee's pair task makes its players through StderrPairPlayers (the
  referee's PairPlayers hook): ArenaPlayers, and each game's captures sent back beside its record
  under STDERR_KEY, as [head, tail, total] for dark then light (None for a side that wrote
  nothing). The workers import this module, so it imports the referee alone (no database, no
  configuration).
"""

from __future__ import annotations

from typing import Any

from referee.engines.client import ProtocolClient
from referee.engines.player import EnginePlayer
from referee.engines.process import EngineSpec
from referee.engines.stderr import StderrKeeper
from referee.matches.cluster import PairPlayers

STDERR_HEAD = 1024
STDERR_TAIL = 2048
STDERR_KEY = "arena_stderr"
"""The key of a worker's message that holds the game's stderr (a record has no such key)."""

Captured = tuple[str, str, int] | None
"""A side's stderr during one game: (head, tail, total bytes), or None when it wrote nothing."""


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


def begin_game(*players: EnginePlayer) -> None:
    """Each ArenaPlayer's capture starts afresh (other players keep nothing)."""
    for player in players:
        if isinstance(player, ArenaPlayer):
            player.capture.begin()


def captured(player: EnginePlayer) -> Captured:
    """What the player wrote on stderr since begin_game, if anything."""
    if isinstance(player, ArenaPlayer) and player.capture.total:
        return player.capture.texts()
    return None


def from_message(value: Any) -> list[Captured]:
    """The [dark, light] captures of a worker's message (STDERR_KEY; a Dask Queue hands lists back as
    tuples); anything malformed is nothing."""
    if not isinstance(value, list | tuple) or len(value) != 2:
        return [None, None]
    out: list[Captured] = []
    for item in value:
        ok = (isinstance(item, list | tuple) and len(item) == 3 and isinstance(item[0], str)
              and isinstance(item[1], str) and isinstance(item[2], int) and item[2] > 0)
        out.append((item[0], item[1], item[2]) if ok else None)
    return out


class StderrPairPlayers(PairPlayers):
    """The referee's pair task, on a worker, with ArenaPlayers: each game's stderr goes back with it."""

    def make(self, spec: EngineSpec, player_options: dict[str, Any]) -> EnginePlayer:
        return ArenaPlayer(spec, **player_options)

    def game_starts(self, dark: EnginePlayer, light: EnginePlayer) -> None:
        begin_game(dark, light)

    def extras(self, dark: EnginePlayer, light: EnginePlayer) -> dict[str, Any]:
        return {STDERR_KEY: [list(c) if c is not None else None for c in (captured(dark), captured(light))]}
