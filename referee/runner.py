"""Runs the scheduled games concurrently on one asyncio loop.

* Workers take games in schedule order; each game gets one engine process per
  side from the EnginePool, which keeps idle processes between games (no start-up
  cost per game) and replaces a process that failed (crash, stall, ...) with a
  fresh one before that engine's next game.
* Every finished record is appended to the store (fsync'ed in a worker thread
  so a slow disk does not stall the loop, which would distort running clocks)
  before the next game of that worker starts.
* The records kept in memory (statistics, the live report) outlive the run: after
  every game they are moved out of the garbage collector's sight (``gc.freeze``).
  Otherwise full collections grow with the run (25-45 ms over 1,000 games between
  random engines), and a collection stops the loop while another game's engine is
  thinking: its answer is read late and charged to its clock. The live report's
  data is encoded piece by piece for the same reason (protocol/svg_replay.encode_data).
  Together they removed late-run time forfeits of 70-81 ms outside the engine's own
  clock (FOUNDATIONS at st=0.1: 1 and 2 in 1,000 games before, none after).
* SPRT (matches only) is checked after every game; once decided, no new game
  starts and the games already running finish and are recorded.
* Cancellation (Ctrl-C, SIGTERM) stops every worker; `close` then quits,
  terminates or kills every engine process the pool ever started. Unfinished
  games are not recorded, so ``--resume`` plays exactly them.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .engine_process import EngineSpec
from .game_runner import GameSpec, play_game
from .live import LiveGames
from .openings import OpeningBook
from .player import EnginePlayer
from .progress import Progress
from .record import GameRecord
from .report import LiveReport
from .schedule import ScheduledGame
from .stats import MatchStats, Sprt, engine_totals, side_names
from .store import Store
from .timecontrol import TimeControl


def freeze_long_lived() -> None:
    """Move what the run keeps (finished records, statistics) out of the collector's sight (module
    docstring). The young generations are collected first (well under a millisecond), so that
    only cycles already old enough to be kept are frozen with the records."""
    gc.collect(1)
    gc.freeze()


class EnginePool:
    """Engine processes by engine name: reused between games, replaced after a failure."""

    def __init__(self, specs: list[EngineSpec], make_player: Callable[[EngineSpec], EnginePlayer],
                 on_event: Callable[[str], None] = lambda text: None):
        self.specs = {spec.name: spec for spec in specs}
        self.make_player = make_player
        self.on_event = on_event
        self.idle: dict[str, list[EnginePlayer]] = {name: [] for name in self.specs}
        self.every: list[EnginePlayer] = []
        self.failed_last: dict[str, str] = {}

    def acquire(self, name: str) -> EnginePlayer:
        """An idle running process of engine `name`, or a new (not yet started) one.

        play_game starts a player that is not running, so a replacement is
        started just before the game it is needed for."""
        idle = self.idle[name]
        while idle:
            player = idle.pop()
            if player.alive:
                return player
        if name in self.failed_last:
            self.on_event(f"restarting {name} for its next game (last process: {self.failed_last.pop(name)})")
        player = self.make_player(self.specs[name])
        self.every.append(player)
        return player

    async def release(self, player: EnginePlayer) -> None:
        """Back to the idle list if healthy; otherwise make sure the process is gone."""
        if player.alive:
            self.idle[player.name].append(player)
            return
        if player.failed is not None:
            self.failed_last[player.name] = f"{player.failed.termination}: {player.failed.detail}"[:300]
        await player.quit()
        self._forget(player)

    def _forget(self, player: EnginePlayer) -> None:
        if player in self.every:
            self.every.remove(player)

    async def close(self) -> None:
        """Quit every engine process at once (quit, then SIGTERM, then SIGKILL each group)."""
        players, self.every = self.every, []
        for idle in self.idle.values():
            idle.clear()
        await asyncio.gather(*(p.quit() for p in players), return_exceptions=True)


@dataclass
class RunPlan:
    """Everything the runner needs; built by the CLI from arguments or a stored config."""

    mode: str                              # 'match' or 'tournament'
    game_type: str
    engines: list[EngineSpec]
    schedule: list[ScheduledGame]
    book: OpeningBook
    concurrency: int = 1
    sprt: Sprt | None = None
    max_plies: int = 1000
    player_options: dict[str, Any] = field(default_factory=dict)
    preflight: bool = False                # start every engine once before the first game (the CLI does)

    def game_spec(self, scheduled: ScheduledGame) -> GameSpec:
        by_name = {spec.name: spec for spec in self.engines}
        opening = self.book.get(scheduled.opening)
        return GameSpec(game_id=scheduled.index, game_type=self.game_type,
                        start_position=opening.start_position, opening=list(opening.moves),
                        dark_tc=_time_control(by_name[scheduled.dark]),
                        light_tc=_time_control(by_name[scheduled.light]),
                        pair=scheduled.pair, round=scheduled.round, max_plies=self.max_plies)


def _time_control(spec: EngineSpec) -> TimeControl:
    """The engine's time control (the configuration gives every engine one)."""
    if spec.tc is None:
        raise ValueError(f"engine {spec.name!r} has no time control")
    return spec.tc


class Tracker:
    """The running statistics of the records so far (loaded ones included)."""

    def __init__(self, plan: RunPlan, records: list[dict[str, Any]]):
        """`records` as stored (records.jsonl); each is read into a GameRecord for the statistics."""
        self.plan = plan
        self.names = [spec.name for spec in plan.engines]
        self.games: list[GameRecord] = []
        """The records, typed (what statistics read)."""
        self.records: list[dict[str, Any]] = []
        """The same records as written to records.jsonl (what PGN, ratings and the report read)."""
        self.totals = engine_totals([], self.names)
        self.match = (MatchStats(self.names[0], self.names[1], sprt=plan.sprt)
                      if plan.mode == "match" else None)
        for data in records:
            self.add(GameRecord.from_json(data), data)

    def add(self, record: GameRecord, written: dict[str, Any] | None = None) -> None:
        """Count one record (`written`: its JSON form, if at hand); constant time, so progress after
        every game stays cheap."""
        self.games.append(record)
        self.records.append(record.to_json() if written is None else written)
        for name in side_names(record):
            self.totals[name].add(record)
        if self.match is not None:
            self.match.add(record)

    def sprt_decision(self) -> str | None:
        return None if self.match is None else self.match.sprt_decision()

    def score_text(self) -> str:
        if self.match is not None:
            return self.match.headline()
        top = sorted(self.totals.values(), key=lambda e: (-e.total.points, -e.total.score, e.name))[:4]
        return "leaders: " + ", ".join(f"{e.name} {e.total.points:g}/{e.total.games}" for e in top)


@dataclass
class RunOutcome:
    played: int = 0
    stopped: str = "complete"   # 'complete', 'sprt H0', 'sprt H1', 'interrupted'


class Runner:
    def __init__(self, plan: RunPlan, store: Store, progress: Progress, tracker: Tracker,
                 io_log: Callable[[str], None] | None = None):
        self.plan = plan
        self.store = store
        self.progress = progress
        self.tracker = tracker
        self.io_log = io_log
        self.pool = EnginePool(plan.engines, self._make_player, self._event)
        self.outcome = RunOutcome()
        self._queue: list[ScheduledGame] = []
        self._workers: list[asyncio.Task[None]] = []
        self._canceller: asyncio.Task[None] | None = None
        self._stopping = False
        self.interrupted = False
        self.report = LiveReport(store.dir, tracker.records, store.event)
        self.live = LiveGames(store.dir)

    def _make_player(self, spec: EngineSpec) -> EnginePlayer:
        return EnginePlayer(spec, self.io_log, **self.plan.player_options)

    def _event(self, text: str) -> None:
        self.store.event(text)
        self.progress.note(text)

    def pending(self) -> list[ScheduledGame]:
        done = {record["game_id"] for record in self.tracker.records}
        return [game for game in self.plan.schedule if game.index not in done]

    async def run(self) -> RunOutcome:
        """Play every pending game; however it ends, every engine process is shut down."""
        decision = self.tracker.sprt_decision()
        if decision:
            self.outcome.stopped = f"sprt {decision}"
            return self.outcome
        self._queue = self.pending()
        if self.plan.preflight and self._queue:
            await self._preflight()
        freeze_long_lived()
        self._workers = [asyncio.create_task(self._worker()) for _ in range(max(1, self.plan.concurrency))]
        try:
            await asyncio.wait(self._workers)
        except BaseException:          # the run itself was cancelled: stop the workers the hard way
            self.interrupt()
            await asyncio.wait(self._workers)
            raise
        finally:
            await self.pool.close()
            await asyncio.shield(asyncio.to_thread(self.report.close))
            self.live.close()
        if self.interrupted:
            self.outcome.stopped = "interrupted"
        for task in self._workers:
            error = None if task.cancelled() else task.exception()
            if error is not None:
                raise error
        return self.outcome

    async def _preflight(self) -> None:
        """Every engine of the pending games started once; PreflightFailed lists all problems."""
        from .preflight import PreflightFailed, preflight
        names = [spec.name for spec in self.plan.engines
                 if any(spec.name in (g.dark, g.light) for g in self._queue)]
        try:
            problems = await preflight(self.pool, self.plan.game_type, names)
        except BaseException:
            await self.pool.close()
            raise
        if problems:
            await self.pool.close()
            raise PreflightFailed(problems)
        self.store.event(f"preflight: {len(names)} engines started and ready for {self.plan.game_type}")

    def interrupt(self) -> None:
        """Stop now (Ctrl-C): no new games, running games abandoned, finished records kept.

        Workers are cancelled again every 20 ms until they are done, because a
        cancellation that lands while a line arrives can be swallowed by
        asyncio.wait_for in Python 3.11."""
        self.interrupted = True
        self._stopping = True
        if self._canceller is None and self._workers:
            self._canceller = asyncio.create_task(self._cancel_until_done())

    async def _cancel_until_done(self) -> None:
        while any(not task.done() for task in self._workers):
            for task in self._workers:
                if not task.done():
                    task.cancel()
            await asyncio.sleep(0.02)

    async def _worker(self) -> None:
        while self._queue and not self._stopping:
            scheduled = self._queue.pop(0)
            record = await self._play(scheduled)
            if self.interrupted and record.is_forfeit():
                # the shutdown itself may have caused this forfeit: replay the game on --resume
                self.store.event(f"game {record.game_id} not recorded: it ended by "
                                 f"{record.termination} during the interrupt")
                return
            await self._append(record)

    async def _append(self, record: GameRecord) -> None:
        """Make the record durable, then count it; a cancellation waits for the write to finish."""
        written = record.to_json()
        write = asyncio.ensure_future(asyncio.to_thread(self.store.append, written))
        cancelled = False
        while not write.done():
            try:
                await asyncio.shield(write)
            except asyncio.CancelledError:
                cancelled = True
        write.result()
        self._finished(record, written)
        if cancelled:
            raise asyncio.CancelledError

    async def _play(self, scheduled: ScheduledGame) -> GameRecord:
        spec = self.plan.game_spec(scheduled)
        dark = self.pool.acquire(scheduled.dark)
        light = self.pool.acquire(scheduled.light)
        self.progress.game_started()
        self.live.started(spec.game_id, dark.name, light.name, spec)
        try:
            record = await play_game(spec, dark, light,
                                     on_move=lambda move, game: self.live.moved(spec.game_id, move, game))
        except BaseException:
            self.progress.game_abandoned()
            raise
        finally:
            self.live.finished(spec.game_id)
            await asyncio.shield(asyncio.gather(self.pool.release(dark), self.pool.release(light)))
        return record

    def _finished(self, record: GameRecord, written: dict[str, Any]) -> None:
        self.outcome.played += 1
        self.tracker.add(record, written)
        self.report.game_finished(written)
        self.store.event(f"finished game {record.game_id}: {record.dark['name']} vs "
                         f"{record.light['name']} {record.result} ({record.termination}: {record.reason})")
        self.progress.game_finished(written)
        freeze_long_lived()
        decision = self.tracker.sprt_decision()
        match = self.tracker.match
        if decision and match is not None and not self._stopping:
            self._stopping = True
            self.outcome.stopped = f"sprt {decision}"
            self._event(f"SPRT accepted {decision} (LLR {match.llr():.2f}); "
                        f"no new games, running ones finish")

