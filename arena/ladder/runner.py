"""The ladder's loop: pick a pairing, play it as a game pair through the referee, record each game.

* `concurrency` slots run at once; each asks `choose_pair` (ladder/pairing.py) for two idle bots,
  writes the pair (so a restart knows it was in flight), plays its games (both colours, one
  opening of the game's book per two games), and records each game at once (db/results.py: one
  transaction with both ratings).
* The roster is the versions whose status is `active` in the database, looked at every
  ROSTER_INTERVAL seconds and whenever the intake or a page says it changed; a version that
  leaves (retired by a newer one, suspended, deleted) plays no more (its game in progress is not counted).
* A bot that forfeits `suspend_after` games in a row is suspended, with the reason for its author.
* On start, pairs left `running` by a killed server are played first: their recorded games are
  skipped, the others played again.
* Where the games are played is a PairPlayer: LocalPairs here (the referee's engine pool on this
  machine, fair cores per slot), ladder/cluster.py's DaskPairs on a Dask cluster.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from protocol import Game
from referee.engines.cpu import plan_cores
from referee.engines.process import EngineSpec
from referee.formats.record import GameRecord
from referee.matches.game_runner import GameSpec, play_game
from referee.matches.live import LiveGames
from referee.matches.schedule import game_seed

from ..config import Arena
from ..db import bots as bots_db
from ..db import results
from ..db.bots import VersionRow
from ..db.results import Pair, SideUpdate, StderrPart
from ..ratings import Rating, rate, spark_after
from .capture import ArenaPlayer, Captured, begin_game, captured
from .pairing import Contender, RecentPairings, choose_pair
from .players import ArenaPool, bot_spec

ROSTER_INTERVAL = 1.0
"""Seconds between two looks at which versions are active (changes made by other processes)."""

OnGame = Callable[[dict[str, Any], list[StderrPart]], Awaitable[bool]]
"""Told each finished game (its record and the stderr parts); False stops the pair."""


@dataclass
class PlannedGame:
    spec: GameSpec
    dark: VersionRow
    light: VersionRow


def stderr_parts(planned: PlannedGame, sides: list[Captured]) -> list[StderrPart]:
    """The game's stderr of each side that wrote any, to store for its version's author."""
    return [StderrPart(row.id, *side) for row, side in zip((planned.dark, planned.light), sides) if side is not None]


class PairPlayer(Protocol):
    async def play_pair(self, pair: Pair, games: list[PlannedGame], slot: int, on_game: OnGame) -> None: ...
    async def set_roster(self, specs: dict[str, EngineSpec]) -> None: ...
    async def close(self) -> None: ...


class LocalPairs:
    """Games played on this machine: the referee's engine pool, each slot on its own cores."""

    def __init__(self, concurrency: int, live: LiveGames, player_options: dict[str, Any], fair_cpu: str = "auto"):
        self.live = live
        self.cores = plan_cores(concurrency, fair_cpu)
        options = dict(player_options, fair_cpu=fair_cpu)
        self.pool = ArenaPool(lambda spec: ArenaPlayer(spec, **options), idle_limit=2 * concurrency + 2)

    async def set_roster(self, specs: dict[str, EngineSpec]) -> None:
        for name in [n for n in self.pool.specs if n not in specs]:
            await self.pool.remove(name)
        for spec in specs.values():
            if spec.name not in self.pool.specs:
                self.pool.add(spec)

    async def play_pair(self, pair: Pair, games: list[PlannedGame], slot: int, on_game: OnGame) -> None:
        cores = self.cores.cores(slot)
        for planned in games:
            spec = planned.spec
            dark = self.pool.acquire(planned.dark.engine_name, cores)
            light = self.pool.acquire(planned.light.engine_name, cores)
            begin_game(dark, light)
            self.live.started(spec.game_id, dark.name, light.name, spec)
            try:
                record = await play_game(spec, dark, light, on_move=self._mover(spec.game_id))
                parts = stderr_parts(planned, [captured(dark), captured(light)])
            finally:
                self.live.finished(spec.game_id)
                await asyncio.shield(asyncio.gather(self.pool.release(dark), self.pool.release(light)))
            if not await on_game(record.to_json(), parts):
                return

    def _mover(self, game_id: int) -> Callable[[str, Game], None]:
        return lambda move, game: self.live.moved(game_id, move, game)

    async def close(self) -> None:
        await self.pool.close()


class Ladder:
    """The never-ending competition over the active versions."""

    def __init__(self, arena: Arena, engine: Any, player: PairPlayer, *, concurrency: int,
                 log: Callable[[str], None] | None = None, rng: random.Random | None = None):
        self.arena = arena
        self.engine = engine
        self.player = player
        self.concurrency = max(1, concurrency)
        self.log = log or (lambda text: print(f"isaac-arena: {text}", file=sys.stderr, flush=True))
        self.rng = rng or random.Random()
        self.contenders: dict[int, Contender] = {}
        self.rows: dict[int, VersionRow] = {}
        self.recent = RecentPairings()
        self.replays: list[Pair] = []
        self.changed = asyncio.Event()
        self.stopping = False
        self.games_recorded = 0
        self.paused = False
        self._tasks: list[asyncio.Task[None]] = []
        self._books = {game: arena.book(game) for game in arena.config.games}
        self._pair_count = 0
        self._roster_event = asyncio.Event()
        self._closed: dict[int, bool] = {}
        """Pairs whose last game's transaction also marked them done."""

    # -- the roster -------------------------------------------------------------------------------
    async def refresh(self) -> None:
        """Take the active versions from the database: new ones join, those gone leave."""
        rows = await asyncio.to_thread(bots_db.versions_with_status, self.engine, bots_db.ACTIVE)
        now = time.time()
        active = {row.id: row for row in rows}
        changed = False
        for version_id in [v for v in self.contenders if v not in active]:
            del self.contenders[version_id]
            self.rows.pop(version_id, None)
            changed = True
        for row in rows:
            if row.id not in self.contenders:
                self.contenders[row.id] = Contender(row.id, row.bot_id, Rating(row.mu, row.sigma), row.games,
                                                    waiting_since=row.last_game_at or row.activated_at or now)
                self.rows[row.id] = row
                changed = True
        if changed:
            await self.player.set_roster({row.engine_name: bot_spec(self.arena, row) for row in self.rows.values()})
            self.changed.set()

    async def _roster_loop(self) -> None:
        while not self.stopping:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._roster_event.wait(), ROSTER_INTERVAL)
            self._roster_event.clear()
            await self.refresh()

    # -- running ----------------------------------------------------------------------------------
    async def run(self) -> None:
        """Play until stopped (cancel the task running this); raises what a slot could not handle."""
        await self.refresh()
        for pair in await asyncio.to_thread(results.unfinished_pairs, self.engine):
            if pair.first in self.contenders and pair.second in self.contenders:
                self.replays.append(pair)
            else:
                await asyncio.to_thread(results.finish_pair, self.engine, pair.id, True)
        if self.replays:
            self.log(f"{len(self.replays)} game pair(s) interrupted by the last stop: their games are played again")
        self._tasks = [asyncio.create_task(self._roster_loop())]
        self._tasks += [asyncio.create_task(self._slot(slot)) for slot in range(self.concurrency)]
        try:
            done, _ = await asyncio.wait(self._tasks, return_when=asyncio.FIRST_EXCEPTION)
            for task in done:
                if not task.cancelled() and task.exception() is not None:
                    raise task.exception()   # type: ignore[misc]
        finally:
            self.stopping = True
            for task in self._tasks:
                task.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)
            await self.player.close()

    def poke(self) -> None:
        """Look at the roster again now (called by the pages and the intake in this process)."""
        self._roster_event.set()

    async def _slot(self, slot: int) -> None:
        while not self.stopping:
            pair = self._next_pair_now()
            if pair is None:
                self.changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.changed.wait(), ROSTER_INTERVAL)
                continue
            await self._play(pair, slot)

    def _next_pair_now(self) -> Pair | tuple[Contender, Contender] | None:
        if self.paused:
            return None
        while self.replays:
            pair = self.replays.pop(0)
            first, second = self.contenders.get(pair.first), self.contenders.get(pair.second)
            if first is not None and second is not None and not first.busy and not second.busy:
                first.busy = second.busy = True
                return pair
        chosen = choose_pair(list(self.contenders.values()), self.recent, time.time(), self.rng)
        if chosen is None:
            return None
        first, second = chosen if self.rng.random() < 0.5 else (chosen[1], chosen[0])
        first.busy = second.busy = True
        return first, second

    async def _play(self, chosen: Pair | tuple[Contender, Contender], slot: int) -> None:
        if isinstance(chosen, Pair):
            pair = chosen
            done = await asyncio.to_thread(results.recorded_games, self.engine, pair)
        else:
            first, second = chosen
            pair = await asyncio.to_thread(self._new_pair, first, second)
            self.recent.add(first.version_id, second.version_id, len(self.contenders))
            done = set()
        involved = [self.contenders.get(pair.first), self.contenders.get(pair.second)]
        try:
            games = [g for g in self._plan(pair) if g.spec.game_id not in done]
            last = games[-1].spec.game_id if games else None
            await self.player.play_pair(pair, games, slot,
                                        lambda record, parts: self._record(pair, record, parts, last))
            if not self._closed.pop(pair.id, False):   # ended early, or nothing left to play
                await asyncio.to_thread(results.finish_pair, self.engine, pair.id)
        finally:
            now = time.time()
            for contender in involved:
                if contender is not None:
                    contender.busy = False
                    contender.waiting_since = now
            self.changed.set()

    def _new_pair(self, first: Contender, second: Contender) -> Pair:
        game_type = self.arena.config.games[self._pair_count % len(self.arena.config.games)]
        self._pair_count += 1
        book = self._books[game_type]
        opening = self.rng.randrange(len(book)) if len(book) else self.rng.randrange(1 << 30)
        return results.new_pair(self.engine, game_type, first.version_id, second.version_id, opening,
                                self.arena.config.ladder.games_per_pairing)

    def _plan(self, pair: Pair) -> list[PlannedGame]:
        first, second = self.rows.get(pair.first), self.rows.get(pair.second)
        if first is None or second is None:
            return []
        book = self._books[pair.game_type]
        tc = self.arena.config.time_control()
        planned = []
        for number in range(pair.games):
            dark, light = (first, second) if number % 2 == 0 else (second, first)
            opening = book.get(pair.opening + number // 2)
            game_id = pair.game_id(number)
            spec = GameSpec(game_id=game_id, game_type=pair.game_type, start_position=opening.start_position,
                            opening=list(opening.moves), dark_tc=tc, light_tc=tc, pair=pair.id, round=1,
                            max_plies=self.arena.config.limits.max_plies,
                            seed=game_seed(self.arena.config.ladder.seed, game_id))
            planned.append(PlannedGame(spec, dark, light))
        return planned

    async def _record(self, pair: Pair, record: dict[str, Any], parts: list[StderrPart], last: int | None) -> bool:
        """Count one finished game (ratings, suspension) and store it; whether the pair goes on."""
        dark_id = pair.first if (int(record["game_id"]) - pair.game_id(0)) % 2 == 0 else pair.second
        light_id = pair.second if dark_id == pair.first else pair.first
        dark, light = self.contenders.get(dark_id), self.contenders.get(light_id)
        dark_row, light_row = self.rows.get(dark_id), self.rows.get(light_id)
        if dark is None or light is None or dark_row is None or light_row is None:
            return False   # one side left the ladder while it played: this game is not counted
        game = GameRecord.from_json(record)
        new_dark, new_light = rate(dark.rating, light.rating, game.result)
        forfeited = game.winner if game.is_forfeit() else None
        loser = None if forfeited is None else 1 - forfeited
        updates = []
        for color, (contender, row, rating) in enumerate(((dark, dark_row, new_dark), (light, light_row, new_light))):
            failed = loser == color
            in_row = row.failed_in_row + 1 if failed else 0
            limit = self.arena.config.ladder.suspend_after
            reason = (f"suspended after {in_row} failed games in a row; the last: {game.termination}: "
                      f"{game.reason}"[:1000]) if failed and in_row >= limit else None
            points = 0.5 if game.winner is None else float(game.winner == color)
            updates.append(SideUpdate(contender.version_id, rating, points, failed, in_row,
                                      spark_after(row.spark, rating), reason))
        closing = record["game_id"] == last
        stored = await asyncio.to_thread(results.store_game, self.engine, pair, record, updates[0], updates[1], parts,
                                         closing)
        if not stored:
            return True   # recorded before (a replay): counted then
        if closing:
            self._closed[pair.id] = True
        self.games_recorded += 1
        for contender, row, update in ((dark, dark_row, updates[0]), (light, light_row, updates[1])):
            contender.rating = update.rating
            contender.games += 1
            self.rows[contender.version_id] = _counted(row, update)
            if update.suspend_reason is not None:
                self.log(f"{row.engine_name} {update.suspend_reason}")
                self.contenders.pop(contender.version_id, None)
                self.poke()
        return dark.version_id in self.contenders and light.version_id in self.contenders


def _counted(row: VersionRow, update: SideUpdate) -> VersionRow:
    return replace(row, mu=update.rating.mu, sigma=update.rating.sigma, games=row.games + 1,
                   wins=row.wins + int(update.points == 1), draws=row.draws + int(update.points == 0.5),
                   losses=row.losses + int(update.points == 0), failed_in_row=update.failed_in_row,
                   spark=update.spark)
