"""Runs the scheduled games concurrently on one asyncio loop, in memory that does not grow with them.

* Workers take games in schedule order from one iterator over the games not yet recorded; each
  game gets one engine process per side from the pool (referee/engines/pool.py), on the cores of the
  worker's game slot (referee/engines/cpu.py: each slot has its own cores when there are enough).
* Every finished record is appended to the store, fsync'ed, and its PGN appended to games.pgn,
  in a worker thread so a slow disk does not stall the loop (which would distort running
  clocks), before the next game of that worker starts; then it is counted (referee/matches/tracker.py:
  running counts, never a list of games) and handed to the live report.
* Every CHECKPOINT_EVERY games (a hundredth of the run in long ones), at a moment when every
  record written is counted, and when the run ends, the counts are saved with the point of records.jsonl they stand for
  (referee/results/checkpoint.py), so --resume need not read the run again.
* The long-lived objects of the run (modules, configuration, engines) are moved out of the
  garbage collector's sight once, before the games start (``gc.freeze``): a full collection then
  costs little however long the run, so none stops the loop while an engine is thinking (its
  answer would be read late and charged to its clock).
* SPRT (matches only) is checked after every game; once decided, no new game starts and the
  games already running finish and are recorded.
* Cancellation (Ctrl-C, SIGTERM) stops every worker; `close` then quits, terminates or kills
  every engine process the pool ever started. Unfinished games are not recorded, so
  ``--resume`` plays exactly them.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..engines.cpu import CorePlan, plan_cores
from ..engines.player import EnginePlayer
from ..engines.pool import EnginePool, PreflightFailed
from ..engines.process import EngineSpec
from ..formats.record import GameRecord
from ..results.checkpoint import checkpoint_due, checkpoint_text, write_checkpoint
from ..results.pgn import PgnLog
from ..results.ratings import preload as preload_ratings_fit
from ..results.report import LiveReport
from ..results.store import Store
from .game_runner import play_game
from .live import LiveGames
from .plan import RunPlan
from .progress import Progress
from .schedule import ScheduledGame
from .tracker import Tracker

__all__ = ["RunOutcome", "RunPlan", "Runner", "Tracker", "freeze_long_lived"]


def freeze_long_lived() -> None:
    """Move what the run keeps for its whole length out of the collector's sight (module
    docstring). The young generations are collected first, so that only objects already old
    enough to be kept are frozen."""
    gc.collect()
    gc.freeze()


@dataclass
class RunOutcome:
    played: int = 0
    stopped: str = "complete"   # 'complete', 'sprt H0', 'sprt H1', 'interrupted'


class Runner:
    def __init__(self, plan: RunPlan, store: Store, progress: Progress, tracker: Tracker,
                 io_log: Callable[[str], None] | None = None, pgn: PgnLog | None = None,
                 identity: dict[str, Any] | None = None):
        """`pgn`: games.pgn to append each game to (None: not written during the run); `identity`:
        the run's config identity, for its checkpoints (None: no checkpoint)."""
        self.plan = plan
        self.store = store
        self.progress = progress
        self.tracker = tracker
        self.io_log = io_log
        self.pgn = pgn
        self.identity = identity
        self.cores: CorePlan = plan_cores(plan.concurrency, plan.fair_cpu)
        self.pool = EnginePool(plan.engines, self._make_player, self._event)
        self.outcome = RunOutcome()
        self._todo: Iterator[ScheduledGame] = iter(())
        self._workers: list[asyncio.Task[None]] = []
        self._canceller: asyncio.Task[None] | None = None
        self._stopping = False
        self._writing = 0            # records being written, not yet counted
        self._checkpoints: asyncio.Future[None] | None = None
        self.pgn_failed: str | None = None
        """Why games.pgn stopped being written during the run (it is then rebuilt at the end)."""
        self.interrupted = False
        self.report = LiveReport(store.dir, tracker.tally, store.event, tracker.shown)
        self.live = LiveGames(store.dir)

    def _make_player(self, spec: EngineSpec) -> EnginePlayer:
        return EnginePlayer(spec, self.io_log, fair_cpu=self.plan.fair_cpu, **self.plan.player_options)

    def _event(self, text: str) -> None:
        self.store.event(text)
        self.progress.note(text)

    def pending(self) -> Iterator[ScheduledGame]:
        """The games not recorded yet, in schedule order (computed as they are taken)."""
        return (game for game in self.plan.schedule if not self.tracker.is_done(game.index))

    def pending_count(self) -> int:
        return len(self.plan.schedule) - self.tracker.recorded

    def engines_to_play(self) -> list[str]:
        """The engines that have games left (the schedule is scanned until all are found)."""
        wanted = {spec.name for spec in self.plan.engines}
        found: set[str] = set()
        for game in self.pending():
            found.update((game.dark, game.light))
            if found >= wanted:
                break
        return [spec.name for spec in self.plan.engines if spec.name in found]

    async def run(self) -> RunOutcome:
        """Play every pending game; however it ends, every engine process is shut down."""
        decision = self.tracker.sprt_decision()
        if decision:
            self.outcome.stopped = f"sprt {decision}"
            return self.outcome
        self._todo = self.pending()
        await self._play_all()
        if self.interrupted:
            self.outcome.stopped = "interrupted"
        for task in self._workers:
            error = None if task.cancelled() else task.exception()
            if error is not None:
                raise error
        return self.outcome

    async def _play_all(self) -> None:
        if self.plan.preflight and self.pending_count():
            await self._preflight()
        preload_ratings_fit()   # now, not in the report's thread while the games' clocks run
        freeze_long_lived()
        self._workers = [asyncio.create_task(self._worker(slot)) for slot in range(max(1, self.plan.concurrency))]
        try:
            await asyncio.wait(self._workers)
        except BaseException:          # the run itself was cancelled: stop the workers the hard way
            self.interrupt()
            await asyncio.wait(self._workers)
            raise
        finally:
            await self.pool.close()
            await asyncio.shield(self._final_checkpoint())
            await asyncio.shield(asyncio.to_thread(self.report.close))
            self.live.close()

    async def _preflight(self) -> None:
        """Every engine of the pending games started once; PreflightFailed lists all problems."""
        names = self.engines_to_play()
        try:
            problems = await self.pool.preflight(self.plan.game_type, names)
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

    async def _worker(self, slot: int) -> None:
        cores = self.cores.cores(slot)
        while not self._stopping:
            scheduled = next(self._todo, None)
            if scheduled is None:
                return
            record = await self._play(scheduled, cores)
            if self.interrupted and record.is_forfeit():
                # the shutdown itself may have caused this forfeit: replay the game on --resume
                self.store.event(f"game {record.game_id} not recorded: it ended by "
                                 f"{record.termination} during the interrupt")
                return
            await self._append(record)

    def _write(self, written: dict[str, Any]) -> int:
        """In a worker thread: the record made durable, then its PGN; where its line starts."""
        offset = self.store.append_at(written)
        if self.pgn is not None:
            try:
                self.pgn.append(written)
            except OSError as exc:
                self.pgn = None
                self.pgn_failed = str(exc)
        return offset

    async def _append(self, record: GameRecord) -> None:
        """Make the record durable, then count it; a cancellation waits for the write to finish."""
        written = record.to_json()
        self._writing += 1
        write = asyncio.ensure_future(asyncio.to_thread(self._write, written))
        cancelled = False
        while not write.done():
            try:
                await asyncio.shield(write)
            except asyncio.CancelledError:
                cancelled = True
        self._writing -= 1
        offset = write.result()
        self._finished(record, written, offset)
        if cancelled:
            raise asyncio.CancelledError

    async def _play(self, scheduled: ScheduledGame, cores: tuple[int, ...]) -> GameRecord:
        spec = self.plan.game_spec(scheduled)
        dark = self.pool.acquire(scheduled.dark, cores)
        light = self.pool.acquire(scheduled.light, cores)
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

    def _finished(self, record: GameRecord, written: dict[str, Any], offset: int | None) -> None:
        self.outcome.played += 1
        self.tracker.add(written, offset)
        self.report.game_finished()
        self.store.event(f"finished game {record.game_id}: {record.dark['name']} vs "
                         f"{record.light['name']} {record.result} ({record.termination}: {record.reason})")
        self.progress.game_finished(written)
        warning = self.tracker.tally.repeats.warning()
        if warning is not None:
            self.progress.warn_once("repeats", warning)
        if self._writing == 0 and checkpoint_due(self.tracker.since_checkpoint, self.tracker.recorded):
            self._checkpoint()
        decision = self.tracker.sprt_decision()
        match = self.tracker.match
        if decision and match is not None and not self._stopping:
            self._stopping = True
            self.outcome.stopped = f"sprt {decision}"
            self._event(f"SPRT accepted {decision} (LLR {match.llr():.2f}); "
                        f"no new games, running ones finish")

    # -- checkpoints --------------------------------------------------------------------------------
    def save_checkpoint(self, pgn_bytes: int | None) -> None:
        """After the run (no loop needed): the checkpoint again, with games.pgn's length as it is now
        (rebuilt from the records at the end)."""
        if self.identity is None:
            return
        try:
            write_checkpoint(self.store, checkpoint_text(self.identity, self.store.end(), self.tracker.tally.state(),
                                                         self.tracker.shown.offsets(), pgn_bytes))
        except OSError as exc:
            self.store.event(f"checkpoint not written: {exc}")

    def _checkpoint(self) -> None:
        """Save the counts now (on the loop, while every record written is counted); encoded and
        written in a thread, one at a time."""
        if self.identity is None or (self._checkpoints is not None and not self._checkpoints.done()):
            return
        state = self.tracker.tally.state()
        end = self.store.end()
        offsets = self.tracker.shown.offsets()
        pgn_bytes = self.pgn.bytes if self.pgn is not None else None
        self.tracker.since_checkpoint = 0
        identity = self.identity
        self._checkpoints = asyncio.ensure_future(asyncio.to_thread(
            lambda: write_checkpoint(self.store, checkpoint_text(identity, end, state, offsets, pgn_bytes))))

    async def _final_checkpoint(self) -> None:
        """The last checkpoint, once no game runs (its errors only cost a slower next --resume)."""
        if self._checkpoints is not None:
            await asyncio.gather(self._checkpoints, return_exceptions=True)
        if self.identity is None or self._writing:
            return
        self._checkpoints = None
        self._checkpoint()
        if self._checkpoints is not None:
            try:
                await self._checkpoints
            except OSError as exc:
                self.store.event(f"checkpoint not written: {exc}")
