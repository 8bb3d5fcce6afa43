"""Distributed runs on Dask: game pairs as tasks on the workers of a Dask cluster.

The command that starts the run keeps everything that must not be shared: the run directory,
config.json, records.jsonl, the statistics and --resume. Workers only play games:

* Each game pair (the same opening twice, colours swapped) is one task. The task plays the games
  of the pair that are not yet recorded, and sends each finished record back at once through a
  Dask Queue; the submitting process appends it (fsync'ed, once: records are keyed by game id).
  The task's result (the same records) is a second delivery, so a record is never lost.
* A worker that dies mid-game makes the scheduler run the task again elsewhere; the task first
  reads the run's set of recorded games (a Dask Variable the submitter keeps current) and skips
  them, so the death costs only a replay of the game that was running.
* Each worker thread keeps its engines running between the pairs of one run (one start per
  engine, thread and run); at the end of the run the submitter has them killed (client.run).
* Each worker limits its own games at once (so clocks are honest on that machine): a
  process-wide semaphore of ``ISAAC_REFEREE_WORKER_GAMES`` slots (default max(1, cores - 1));
  start workers with ``--nthreads`` equal to it.
* Preflight runs on every worker (client.run), so a missing engine on one machine is found
  before the first game.

Dask is an extra (``pip install 'isaac-arena[cluster]'``), imported only here.
"""

from __future__ import annotations

import asyncio
import os
import threading
import uuid
from collections.abc import Callable
from typing import Any

from .engine_process import EngineSpec, kill_groups
from .game_runner import GameSpec, play_game
from .player import EnginePlayer
from .preflight import PreflightFailed, preflight
from .record import GameRecord
from .runner import EnginePool, Runner, RunOutcome
from .schedule import ScheduledGame

WORKER_GAMES_ENV = "ISAAC_REFEREE_WORKER_GAMES"


class ClusterError(Exception):
    """The cluster cannot be used (Dask missing, scheduler unreachable); said in one line."""


def _dask() -> Any:
    """The distributed package (an extra), typed loosely: its API is used in a few plain calls."""
    try:
        import distributed
    except ImportError:
        raise ClusterError("--cluster needs Dask: pip install 'isaac-arena[cluster]'") from None
    return distributed


def worker_games() -> int:
    """Games at once on this worker process: $ISAAC_REFEREE_WORKER_GAMES or max(1, cores - 1)."""
    text = os.environ.get(WORKER_GAMES_ENV, "")
    if text.strip():
        try:
            return max(1, int(text))
        except ValueError:
            pass
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, cores - 1)


_SLOTS: threading.BoundedSemaphore | None = None
_SLOTS_LOCK = threading.Lock()


def _slots() -> threading.BoundedSemaphore:
    global _SLOTS
    with _SLOTS_LOCK:
        if _SLOTS is None:
            _SLOTS = threading.BoundedSemaphore(worker_games())
        return _SLOTS


# -- on the worker ---------------------------------------------------------------

class _ThreadState:
    """One task thread's event loop and engine pool, kept between the tasks of one run.

    Engine processes belong to the loop that started them, so each worker thread keeps its own
    loop; keeping the pool too means an engine is started once per thread and run, not once per
    pair (start-up is most of a short game's cost)."""

    def __init__(self, run_key: str, engines: list[EngineSpec], player_options: dict[str, Any]) -> None:
        self.run_key = run_key
        self.loop = asyncio.new_event_loop()
        self.pool = EnginePool(engines, lambda spec: EnginePlayer(spec, None, **player_options))
        self.stale = False

    def close(self) -> None:
        """In the owning thread: shut the pool's engines down and close the loop."""
        try:
            self.loop.run_until_complete(self.pool.close())
        finally:
            self.loop.close()


_STATES: dict[int, _ThreadState] = {}
_STATES_LOCK = threading.Lock()


def _thread_state(run_key: str, engines: list[EngineSpec], player_options: dict[str, Any]) -> _ThreadState:
    me = threading.get_ident()
    with _STATES_LOCK:
        state = _STATES.get(me)
    if state is not None and (state.run_key != run_key or state.stale):
        state.close()
        state = None
    if state is None:
        state = _ThreadState(run_key, engines, player_options)
        with _STATES_LOCK:
            _STATES[me] = state
    return state


def release_run(run_key: str) -> int:
    """client.run target at the end of a run: kill the run's idle engines on this worker (their games
    are over); the owning thread closes its loop when it next runs a task. Returns how many."""
    groups = []
    with _STATES_LOCK:
        states = [s for s in _STATES.values() if s.run_key == run_key]
    for state in states:
        state.stale = True
        for player in list(state.pool.every):
            process = player.client.process
            if process is not None and process.pgid is not None:
                groups.append(process.pgid)
    kill_groups(groups)
    return len(groups)


async def _play_games(pool: EnginePool, games: list[tuple[GameSpec, str, str]],
                      publish: Callable[[dict[str, Any]], None]) -> list[dict[str, Any]]:
    records = []
    for spec, dark_name, light_name in games:
        dark, light = pool.acquire(dark_name), pool.acquire(light_name)
        try:
            record = (await play_game(spec, dark, light)).to_json()
        finally:
            await asyncio.shield(asyncio.gather(pool.release(dark), pool.release(light)))
        publish(record)
        records.append(record)
    return records


def play_pair_task(run_key: str, engines: list[EngineSpec], games: list[tuple[GameSpec, str, str]],
                   player_options: dict[str, Any]) -> list[dict[str, Any]]:
    """A Dask task: play the games of one pair not yet recorded; each record also goes to the queue."""
    dd = _dask()
    try:
        done = set(dd.Variable(f"{run_key}-done").get(timeout=30) or [])
    except Exception:             # the submitter is gone or slow: play everything, duplicates are dropped
        done = set()
    todo = [g for g in games if g[0].game_id not in done]
    if not todo:
        return []
    queue = dd.Queue(f"{run_key}-records")
    with _slots():
        state = _thread_state(run_key, engines, player_options)
        try:
            return state.loop.run_until_complete(_play_games(state.pool, todo, lambda record: queue.put(record)))
        except BaseException:
            state.stale = True        # a cancelled or failed task leaves no engine behind
            raise


async def preflight_on_worker(engines: list[EngineSpec], game_type: str, names: list[str],
                              player_options: dict[str, Any]) -> list[str]:
    """client.run target (runs on each worker's event loop): the preflight problems there."""
    pool = EnginePool(engines, lambda spec: EnginePlayer(spec, None, **player_options))
    try:
        return await preflight(pool, game_type, names)
    finally:
        await pool.close()


# -- on the submitting side ----------------------------------------------------------

def pairs_of(games: list[ScheduledGame]) -> list[list[ScheduledGame]]:
    """The pending games grouped by game pair (a game without a pair is a group of its own)."""
    groups: dict[tuple[Any, ...], list[ScheduledGame]] = {}
    for game in games:
        key = (game.round, game.pair) if game.pair is not None else ("single", game.index)
        groups.setdefault(key, []).append(game)
    return list(groups.values())


class ClusterRunner(Runner):
    """A Runner whose games are played by Dask workers; appending and statistics stay here."""

    def __init__(self, *args: Any, address: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.address = address
        self._done: set[int] = {record["game_id"] for record in self.tracker.records}
        self._wanted: set[int] = set()
        self._run_key: str | None = None

    async def run(self) -> RunOutcome:
        """Play every pending game on the cluster; Ctrl-C cancels the remaining tasks."""
        decision = self.tracker.sprt_decision()
        if decision:
            self.outcome.stopped = f"sprt {decision}"
            return self.outcome
        self._queue = self.pending()
        self._wanted = {g.index for g in self._queue}
        if not self._queue:
            return self.outcome
        body = asyncio.create_task(self._run_on_cluster())
        self._workers = [body]
        try:
            await asyncio.wait([body])
        finally:
            self.live.close()          # live.json: games in progress are on the workers, not shown
            await asyncio.shield(asyncio.to_thread(self.report.close))   # the live report.html
        if self.interrupted:
            self.outcome.stopped = "interrupted"
        elif body.exception() is not None:
            raise body.exception()    # type: ignore[misc]
        return self.outcome

    async def _run_on_cluster(self) -> None:
        dd = _dask()
        try:
            client = await dd.Client(self.address, asynchronous=True, timeout="10s")
        except (OSError, TimeoutError) as exc:
            raise ClusterError(f"--cluster {self.address}: cannot reach the Dask scheduler ({exc})") from None
        futures: list[Any] = []
        try:
            await self._cluster_preflight(client)
            run_key = self._run_key = f"isaac-referee-{uuid.uuid4().hex}"
            done_var = dd.Variable(f"{run_key}-done", client=client)
            await done_var.set(sorted(self._done))
            records = dd.Queue(f"{run_key}-records", client=client)
            player_options = dict(self.plan.player_options)
            for group in pairs_of(self._queue):
                games = [(self.plan.game_spec(g), g.dark, g.light) for g in group]
                futures.append(client.submit(play_pair_task, run_key, self.plan.engines, games, player_options,
                                             key=f"{run_key}-game-{group[0].index}", pure=False))
            self.store.event(f"cluster {self.address}: {len(futures)} game pairs submitted")
            drain = asyncio.create_task(self._drain(records, done_var))
            try:
                async for future in dd.as_completed(futures):
                    for record in await future:
                        await self._accept(record, done_var)
                    if self._stopping:
                        break
            finally:
                drain.cancel()
                await asyncio.gather(drain, return_exceptions=True)
        finally:
            await asyncio.shield(self._close_client(client, futures))

    async def _close_client(self, client: Any, futures: list[Any]) -> None:
        pending = [f for f in futures if not f.done()]
        try:
            if pending:
                await client.cancel(pending)
            if self._run_key is not None:
                await client.run(release_run, self._run_key, on_error="ignore")
        finally:
            await client.close()

    async def _cluster_preflight(self, client: Any) -> None:
        if not self.plan.preflight:
            return
        names = [spec.name for spec in self.plan.engines if any(spec.name in (g.dark, g.light) for g in self._queue)]
        found = await client.run(preflight_on_worker, self.plan.engines, self.plan.game_type, names,
                                 dict(self.plan.player_options))
        if not found:
            raise ClusterError(f"--cluster {self.address}: the scheduler has no workers")
        problems = [f"on worker {worker}: {problem}" for worker, listed in sorted(found.items())
                    for problem in listed]
        if problems:
            raise PreflightFailed(problems)
        self.store.event(f"preflight: {len(names)} engines ready on {len(found)} workers")

    async def _drain(self, records: Any, done_var: Any) -> None:
        """Records as the workers finish them (before their pair ends)."""
        while True:
            record = await records.get()
            await self._accept(record, done_var)

    async def _accept(self, record: dict[str, Any], done_var: Any) -> None:
        """Append a record once (by game id), count it, tell the workers it is done."""
        game_id = record.get("game_id")
        if not isinstance(game_id, int) or game_id in self._done or game_id not in self._wanted or self.interrupted:
            return
        self._done.add(game_id)
        await self._append(GameRecord.from_json(record))
        await done_var.set(sorted(self._done))
