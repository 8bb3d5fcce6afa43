"""Engines judging and playing given openings, for opening books (referee/books/build.py, referee/books/rejudge.py).

Everything goes through the referee's own machinery: an EnginePool keeps one process per side
between games, play_game referees every game (each move checked by protocol/, forfeits recorded),
and EnginePlayer speaks the protocol. What this adds is a seed per game: before each game (and
each judgement) the `Seed` option, where the engine declares one, is set to a number derived from
the book's seed, the opening and the game, so a node-limited engine plays the same games on every
machine and at any concurrency, and no two games of an opening repeat each other.

An engine that cannot be started, or fails while judging, stops the whole job (OpeningGamesError):
a book judged by an engine that is not running would be no judgement. A game an engine loses by a
forfeit is recorded as the match would record it.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from protocol.messages import PositionCommand

from ..engines.player import EngineFailure, EnginePlayer
from ..engines.pool import EnginePool
from ..engines.process import EngineSpec
from ..formats.record import GameRecord
from ..formats.timecontrol import TimeControl
from ..matches.clock import Clock, go_command
from ..matches.game_runner import GameSpec, play_game, setup_position
from ..matches.openings import Opening

SEED_OPTION = "Seed"
SEED_LIMIT = 2**31 - 1
"""Seeds are drawn in 0..SEED_LIMIT (and folded into a smaller range an engine declares)."""


class OpeningGamesError(Exception):
    """An engine could not take part (did not start, or failed while judging): the job stops."""


def derived_seed(*parts: object) -> int:
    """A seed in 0..SEED_LIMIT from text parts, the same on every machine (no salted hash())."""
    digest = hashlib.sha256("/".join(map(str, parts)).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % (SEED_LIMIT + 1)


@dataclass(frozen=True)
class GameJob:
    """One game to play: its number, opening, the engines by colour, its pair and each side's seed."""

    game_id: int
    opening: Opening
    dark: str
    light: str
    pair: int
    dark_seed: int
    light_seed: int


class OpeningGames:
    """The engines of a book job, their processes, and the games they play."""

    def __init__(self, game_type: str, engines: Sequence[EngineSpec], concurrency: int = 1,
                 player_options: dict[str, Any] | None = None,
                 keep: Callable[[GameRecord], None] | None = None):
        """`keep(record)` is given every finished game, in a worker thread (it may write and fsync a
        file without stalling the other games' clocks)."""
        if not engines:
            raise ValueError("no engines")
        self.game_type = game_type
        self.engines = list(engines)
        self.concurrency = max(1, concurrency)
        self.player_options = dict(player_options or {})
        self.keep = keep
        self.pool = EnginePool(self.engines, self._make_player)

    def _make_player(self, spec: EngineSpec) -> EnginePlayer:
        return EnginePlayer(spec, **self.player_options)

    def tc(self, name: str) -> TimeControl:
        spec = self.pool.specs[name]
        if spec.tc is None:
            raise ValueError(f"engine {name!r} has no time control")
        return spec.tc

    async def close(self) -> None:
        """Quit every engine process (quit, then SIGTERM, then SIGKILL)."""
        await self.pool.close()

    async def _prepare(self, player: EnginePlayer, seed: int, doing: str) -> None:
        """Start the player if it is not running, then give it this game's seed."""
        try:
            if not player.alive:
                await player.start()
            option = player.options.get(SEED_OPTION.lower())
            if option is not None and option.type == "spin":
                low = option.min if option.min is not None else 0
                high = option.max if option.max is not None else SEED_LIMIT
                if high >= low:
                    await player.set_option(option.name, str(low + seed % (high - low + 1)))
        except EngineFailure as failure:
            await player.quit()
            raise OpeningGamesError(f"engine {player.name} failed {doing}: {failure.detail}") from None

    # -- judging -------------------------------------------------------------------------------------
    async def judge(self, opening: Opening, tc: TimeControl, seed: int) -> int | None:
        """The first engine's score (`score cp` of its last `info`, for the side to move) of the
        position an opening reaches, searched under `tc`; None if it reported no score."""
        name = self.engines[0].name
        game, moves = setup_position(GameSpec(0, self.game_type, opening.start_position, list(opening.moves),
                                              tc, tc))
        player = self.pool.acquire(name)
        try:
            doing = f"while judging {opening.describe()}"
            await self._prepare(player, seed, doing)
            clock = Clock(tc)
            try:
                await player.new_game(self.game_type)
                _, info, _ = await player.go(PositionCommand(opening.start_position, moves).format(),
                                             go_command(clock, clock, game.turn).format(), clock.deadline_s(),
                                             allowed_ms=clock.allowed_ms())
            except EngineFailure as failure:
                await player.quit()
                raise OpeningGamesError(f"engine {name} failed {doing}: {failure.detail}") from None
        finally:
            await asyncio.shield(self.pool.release(player))
        score = None if info is None else info.get("score_cp")
        return score if isinstance(score, int) else None

    # -- games -----------------------------------------------------------------------------------------
    async def play(self, jobs: Sequence[GameJob], stop: Callable[[list[GameRecord]], bool] | None = None,
                   on_record: Callable[[GameRecord], None] | None = None) -> list[GameRecord]:
        """Play the jobs, `concurrency` at once, taken in order; the records in the jobs' order.

        `stop(records so far)` is asked before each new game starts: True plays no more (the games
        already running finish and are returned). `on_record(record)` is told each finished game,
        after `keep` has kept it."""
        queue = deque(jobs)
        done: dict[int, GameRecord] = {}

        async def worker() -> None:
            while queue and not (stop is not None and stop(list(done.values()))):
                job = queue.popleft()
                record = done[job.game_id] = await self._play_one(job)
                if on_record is not None:
                    on_record(record)

        try:
            async with asyncio.TaskGroup() as group:
                for _ in range(min(self.concurrency, len(jobs))):
                    group.create_task(worker())
        except ExceptionGroup as failed:
            raise _first(failed) from None
        return [done[job.game_id] for job in jobs if job.game_id in done]

    async def _play_one(self, job: GameJob) -> GameRecord:
        spec = GameSpec(game_id=job.game_id, game_type=self.game_type, start_position=job.opening.start_position,
                        opening=list(job.opening.moves), dark_tc=self.tc(job.dark), light_tc=self.tc(job.light),
                        pair=job.pair)
        dark, light = self.pool.acquire(job.dark), self.pool.acquire(job.light)
        try:
            doing = f"before game {job.game_id}"
            await self._prepare(dark, job.dark_seed, doing)
            await self._prepare(light, job.light_seed, doing)
            record = await play_game(spec, dark, light)
        finally:
            await asyncio.shield(asyncio.gather(self.pool.release(dark), self.pool.release(light)))
        if self.keep is not None:
            await asyncio.shield(asyncio.to_thread(self.keep, record))
        return record


def _first(group: BaseExceptionGroup[BaseException]) -> BaseException:
    """The first exception of a task group's failure, out of any nested groups."""
    error: BaseException = group.exceptions[0]
    return _first(error) if isinstance(error, BaseExceptionGroup) else error
