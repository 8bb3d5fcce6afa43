"""Distributed runs on Dask: game pairs as tasks on the workers of a Dask cluster.

The command that starts the run keeps everything that must not be shared: the run directory,
config.json, records.jsonl, games.pgn, the statistics, live.json and --resume. Workers only play:

* Each game pair (the same opening twice, colours swapped) is one task. The task plays the games
  of the pair that are not yet recorded, and sends each finished record back at once through a
  Dask Queue; the submitting process appends it (fsync'ed, once: records are keyed by game id).
  The task's result (the same records) is a second delivery, so a record is never lost.
  The queue is read by one `get` at a time that is never cancelled (a cancelled `get` stays
  waiting on the scheduler and takes the next record put): the reader ends on END_OF_RECORDS,
  a message the submitter puts on the queue itself.
* Tasks are submitted a window at a time (twice the workers' threads), the next pair as one
  finishes, so neither side ever holds the whole schedule: a million-game run costs the submitter,
  the scheduler and the workers what a thousand-game one does.
* A worker that dies mid-game makes the scheduler run the task again elsewhere; the task first
  reads which games of the pairs in flight are recorded (a Dask Variable the submitter keeps
  current, holding only those) and skips them, so the death costs only a replay of the game
  that was running.
* live.json: a task publishes the game it plays (players, moves, position) as a Dask event at most
  every LIVE_INTERVAL_S, and when the game ends; the submitter writes them to live.json as a
  local run does, so `isaac-gui --runs` follows a cluster run too.
* SPRT: once it decides, the submitter sets a Dask Event; a task checks it before each game, so
  no new game starts, while the games already running finish and are recorded (the submitter
  waits for the tasks in flight).
* Each worker thread keeps its engines running between the pairs of one run (one start per
  engine, thread and run); at the end of the run the submitter has them killed (client.run).
* Each worker limits its own games at once (so clocks are honest on that machine): a
  process-wide pool of ``ISAAC_REFEREE_WORKER_GAMES`` game slots (default max(1, cores - 1)),
  each with its own cores (referee/engines/cpu.py); start workers with ``--nthreads`` equal to it.
  Engines are paused while they wait for their turn, as in a local run.
* Preflight runs on every worker (client.run), so a missing engine on one machine is found
  before the first game.
* What a task makes its engine players with, and what it sends back beside each record, is a
  PairPlayers (the referee's own: plain players, the record alone); the arena passes its own to
  send each game's stderr to the bot's author.

Dask is an extra (``pip install 'isaac-arena[cluster]'``), imported only here.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import queue
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import protocol

from ..engines.cpu import plan_cores, usable_cores
from ..engines.player import EnginePlayer
from ..engines.pool import EnginePool, PreflightFailed
from ..engines.process import EngineSpec, kill_groups
from ..formats.record import GameRecord
from . import native_heap
from .game_runner import GameSpec, play_game, setup_position
from .runner import Runner, RunOutcome
from .schedule import ScheduledGame

WORKER_GAMES_ENV = "ISAAC_REFEREE_WORKER_GAMES"
END_OF_RECORDS = {"end_of_records": True}
"""The last message on a run's records queue, put by the submitter to end the task reading it."""
LIVE_INTERVAL_S = 0.25
"""A game in progress is published at most this often (and when it ends)."""


class ClusterError(Exception):
    """The cluster cannot be used (Dask missing, scheduler unreachable); said in one line."""


async def _scheduler_gone(client: Any) -> bool:
    """Whether the scheduler is unreachable. The client's own status lags: a closed connection can
    surface (as an OSError from a gather) while it still says "running", so ask the scheduler."""
    if client.status != "running":
        return True
    try:
        await asyncio.wait_for(client.scheduler.identity(), timeout=5)
    except Exception:   # any failure to answer means it is gone
        return True
    return False


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
    return max(1, len(usable_cores()) - 1)


_SLOTS: queue.Queue[int] | None = None
_SLOTS_LOCK = threading.Lock()


@contextmanager
def _slot() -> Iterator[int]:
    """One of this worker's game slots, waited for; its number picks its cores."""
    global _SLOTS
    with _SLOTS_LOCK:
        if _SLOTS is None:
            _SLOTS = queue.Queue()
            for slot in range(worker_games()):
                _SLOTS.put(slot)
        slots = _SLOTS
    slot = slots.get()
    try:
        yield slot
    finally:
        slots.put(slot)


# -- on the worker ---------------------------------------------------------------

class PairPlayers:
    """How a pair task makes its engine players, and what it sends back with each game's record.

    The referee's own makes plain EnginePlayers and sends the record alone. A subclass (a class in
    an importable module: Dask pickles it by reference, so the workers import it) may make players
    that keep more, and add it to each game's message under keys a record does not use."""

    def make(self, spec: EngineSpec, player_options: dict[str, Any]) -> EnginePlayer:
        return EnginePlayer(spec, None, **player_options)

    def game_starts(self, dark: EnginePlayer, light: EnginePlayer) -> None:
        """Before each game, with the two players acquired for it."""

    def extras(self, dark: EnginePlayer, light: EnginePlayer) -> dict[str, Any]:
        """After each game: what goes back beside its record (merged into the record's message)."""
        return {}


class _ThreadState:
    """One task thread's event loop and engine pool, kept between the tasks of one run.

    Engine processes belong to the loop that started them, so each worker thread keeps its own
    loop; keeping the pool too means an engine is started once per thread and run, not once per
    pair (start-up is most of a short game's cost)."""

    def __init__(self, run_key: str, engines: list[EngineSpec], player_options: dict[str, Any],
                 players: PairPlayers) -> None:
        self.run_key = run_key
        self.loop = asyncio.new_event_loop()
        self.pool = EnginePool(engines, lambda spec: players.make(spec, player_options))
        self.stale = False

    def close(self) -> None:
        """In the owning thread: shut the pool's engines down and close the loop."""
        try:
            self.loop.run_until_complete(self.pool.close())
        finally:
            self.loop.close()


_STATES: dict[int, _ThreadState] = {}
_STATES_LOCK = threading.Lock()


def _thread_state(run_key: str, engines: list[EngineSpec], player_options: dict[str, Any],
                  players: PairPlayers) -> _ThreadState:
    me = threading.get_ident()
    with _STATES_LOCK:
        state = _STATES.get(me)
    if state is not None and (state.run_key != run_key or state.stale):
        state.close()
        state = None
    if state is None:
        state = _ThreadState(run_key, engines, player_options, players)
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


class LivePublisher:
    """The game a task plays, sent to the submitter as Dask events ({topic}: see module docstring)."""

    def __init__(self, send: Callable[[dict[str, Any]], None], interval: float = LIVE_INTERVAL_S):
        self.send = send
        self.interval = interval
        self.game: dict[str, Any] | None = None
        self.position: protocol.Game | None = None
        self._last = 0.0

    def started(self, spec: GameSpec, dark: str, light: str) -> None:
        try:
            game, opening = setup_position(spec)
        except ValueError:
            self.game = None
            return
        start = spec.start_position or protocol.new_game(spec.game_type).position()
        self.game = {"game_id": spec.game_id, "dark": dark, "light": light, "start_position": start,
                     "moves": list(opening), "position": game.position()}
        self.position = None
        self._publish()

    def moved(self, move: str, game: protocol.Game) -> None:
        if self.game is None:
            return
        self.game["moves"].append(move)
        self.position = game
        if time.monotonic() - self._last >= self.interval:
            self._publish()

    def finished(self) -> None:
        if self.game is not None:
            self._send({"finished": self.game["game_id"]})
        self.game = None

    def _publish(self) -> None:
        assert self.game is not None
        if self.position is not None:
            self.game["position"] = self.position.position()
        self._last = time.monotonic()
        self._send({"game": {**self.game, "moves": list(self.game["moves"])}})

    def _send(self, message: dict[str, Any]) -> None:
        try:
            self.send(message)
        except Exception:            # a view, not data: a lost event costs nothing
            pass


async def _play_games(pool: EnginePool, games: list[tuple[GameSpec, str, str]], cores: tuple[int, ...],
                      publish: Callable[[dict[str, Any]], None], live: LivePublisher,
                      stopped: Callable[[], bool], players: PairPlayers) -> list[dict[str, Any]]:
    records = []
    for spec, dark_name, light_name in games:
        if stopped():
            break
        dark, light = pool.acquire(dark_name, cores), pool.acquire(light_name, cores)
        players.game_starts(dark, light)
        live.started(spec, dark_name, light_name)
        try:
            record = (await play_game(spec, dark, light, on_move=live.moved)).to_json()
            record.update(players.extras(dark, light))
        finally:
            live.finished()
            await asyncio.shield(asyncio.gather(pool.release(dark), pool.release(light)))
        publish(record)
        records.append(record)
    return records


def play_pair_task(run_key: str, engines: list[EngineSpec], games: list[tuple[GameSpec, str, str]],
                   player_options: dict[str, Any], players: PairPlayers | None = None) -> list[dict[str, Any]]:
    """A Dask task: play the games of one pair not yet recorded; each record also goes to the queue."""
    players = players or PairPlayers()
    dd = _dask()
    try:
        done = set(dd.Variable(f"{run_key}-done").get(timeout=30) or [])
    except Exception:             # the submitter is gone or slow: play everything, duplicates are dropped
        done = set()
    todo = [g for g in games if g[0].game_id not in done]
    stop = dd.Event(f"{run_key}-stop")
    if not todo or stop.is_set():
        return []
    queue_ = dd.Queue(f"{run_key}-records")
    worker = dd.get_worker()
    live = LivePublisher(lambda message: worker.log_event(f"{run_key}-live", message))
    with _slot() as slot:
        cores = plan_cores(worker_games(), str(player_options.get("fair_cpu", "auto"))).cores(slot)
        state = _thread_state(run_key, engines, player_options, players)
        try:
            return state.loop.run_until_complete(_play_games(state.pool, todo, cores, queue_.put, live,
                                                             stop.is_set, players))
        except BaseException:
            state.stale = True        # a cancelled or failed task leaves no engine behind
            raise


async def preflight_on_worker(engines: list[EngineSpec], game_type: str, names: list[str],
                              player_options: dict[str, Any]) -> list[str]:
    """client.run target (runs on each worker's event loop): the preflight problems there."""
    pool = EnginePool(engines, lambda spec: EnginePlayer(spec, None, **player_options))
    try:
        return await pool.preflight(game_type, names)
    finally:
        await pool.close()


# -- on the submitting side ----------------------------------------------------------

async def end_drain(drain: asyncio.Task[None], records: Any, *, reachable: bool = True, timeout: float = 2) -> None:
    """Stop the task reading a records queue by putting END_OF_RECORDS on it (a cancelled get would
    stay on the scheduler); cancelled if that cannot be done, or at once where the scheduler is known
    to be gone (`reachable` False: its get went with it, and a put would only wait out the timeout)."""
    try:
        if reachable and not drain.done():
            await asyncio.wait_for(records.put(END_OF_RECORDS), timeout)
            await asyncio.wait_for(asyncio.shield(drain), timeout)
    except Exception:   # any failure to end it cleanly: it is cancelled below
        pass
    finally:
        drain.cancel()
        await asyncio.gather(drain, return_exceptions=True)


def pair_groups(games: Iterable[ScheduledGame]) -> Iterator[list[ScheduledGame]]:
    """The games grouped by game pair (the two games of a pair are adjacent in the schedule; a game
    without a partner pending is a group of its own), as they come."""
    group: list[ScheduledGame] = []
    for game in games:
        if group and (group[-1].round, group[-1].pair) != (game.round, game.pair):
            yield group
            group = []
        group.append(game)
    if group:
        yield group


def pairs_of(games: list[ScheduledGame]) -> list[list[ScheduledGame]]:
    """The pending games grouped by game pair (a game without a pair is a group of its own)."""
    return list(pair_groups(games))


class ClusterRunner(Runner):
    """A Runner whose games are played by Dask workers; appending and statistics stay here."""

    def __init__(self, *args: Any, address: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.address = address
        self._in_flight: dict[Any, list[int]] = {}    # future -> its game ids
        self._recorded_in_flight: set[int] = set()
        self._run_key: str | None = None
        self._finished_live: deque[int] = deque(maxlen=256)
        native_heap.keep_level()    # before the Dask client's threads start (referee/matches/native_heap.py)

    async def run(self) -> RunOutcome:
        """Play every pending game on the cluster; Ctrl-C cancels the remaining tasks."""
        decision = self.tracker.sprt_decision()
        if decision:
            self.outcome.stopped = f"sprt {decision}"
            return self.outcome
        if not self.pending_count():
            return self.outcome
        body = asyncio.create_task(self._run_on_cluster())
        self._workers = [body]
        try:
            await asyncio.wait([body])
        finally:
            await asyncio.shield(self._final_checkpoint())
            self.live.close()
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
        try:
            threads = await self._cluster_preflight(client)
            run_key = self._run_key = f"isaac-referee-{uuid.uuid4().hex}"
            done_var = dd.Variable(f"{run_key}-done", client=client)
            await done_var.set([])
            stop = dd.Event(f"{run_key}-stop", client=client)
            records = await dd.Queue(f"{run_key}-records", client=client)   # created before the first get
            client.subscribe_topic(f"{run_key}-live", self._live_event)
            options = dict(self.plan.player_options, fair_cpu=self.plan.fair_cpu)
            groups = pair_groups(self.pending())
            window = max(4, 2 * threads)
            completed = dd.as_completed([], loop=client.loop, with_results=False)

            def submit_next() -> bool:
                group = next(groups, None)
                if group is None:
                    return False
                games = [(self.plan.game_spec(g), g.dark, g.light) for g in group]
                future = client.submit(play_pair_task, run_key, self.plan.engines, games, options,
                                       key=f"{run_key}-game-{group[0].index}", pure=False)
                self._in_flight[future] = [g.index for g in group]
                completed.add(future)
                return True

            while len(self._in_flight) < window and submit_next():
                pass
            self.store.event(f"cluster {self.address}: game pairs submitted {window} at a time "
                             f"({threads} worker threads)")
            drain = asyncio.create_task(self._drain(records, done_var))
            stop_sent = False
            try:
                async for future in completed:
                    for record in await future:
                        await self._accept(record, done_var)
                    self._task_done(future)
                    await done_var.set(sorted(self._recorded_in_flight))
                    if self._stopping:
                        if not stop_sent:
                            await stop.set()      # tasks in flight start no new game; running ones finish
                            stop_sent = True
                        continue
                    submit_next()
            finally:
                await end_drain(drain, records)
        except (OSError, asyncio.CancelledError, concurrent.futures.CancelledError) as exc:
            if self.interrupted or not await _scheduler_gone(client):
                raise
            raise ClusterError(self._lost(exc)) from None   # the scheduler went away mid-run
        finally:
            await asyncio.shield(self._close_client(client, list(self._in_flight)))

    def _checkpoint(self) -> None:
        super()._checkpoint()
        native_heap.trim()

    def _lost(self, exc: BaseException) -> str:
        """What to say when the scheduler is gone: what was kept, how to go on."""
        cause = str(exc).strip() or type(exc).__name__
        return (f"--cluster {self.address}: lost the Dask scheduler in the middle of the run ({cause[:200]}); "
                f"the {self.outcome.played} games finished this run are recorded in {self.store.dir}: continue "
                f"with --resume --cluster ADDRESS once a scheduler and workers are up")

    def _task_done(self, future: Any) -> None:
        for game_id in self._in_flight.pop(future, []):
            self._recorded_in_flight.discard(game_id)
            self._live_finished(game_id)

    async def _close_client(self, client: Any, futures: list[Any]) -> None:
        pending = [f for f in futures if not f.done()]
        try:
            if self._run_key is not None:
                client.unsubscribe_topic(f"{self._run_key}-live")
            if pending:
                await client.cancel(pending)
            if self._run_key is not None:
                await client.run(release_run, self._run_key, on_error="ignore")
        except OSError:
            pass   # the scheduler is gone: nothing is left to cancel or release there
        finally:
            await client.close(timeout=10)

    async def _cluster_preflight(self, client: Any) -> int:
        """Preflight on every worker; the number of worker threads."""
        names = self.engines_to_play()
        options = dict(self.plan.player_options, fair_cpu=self.plan.fair_cpu)
        if self.plan.preflight:
            found = await client.run(preflight_on_worker, self.plan.engines, self.plan.game_type, names, options)
            if not found:
                raise ClusterError(f"--cluster {self.address}: the scheduler has no workers")
            problems = [f"on worker {worker}: {problem}" for worker, listed in sorted(found.items())
                        for problem in listed]
            if problems:
                raise PreflightFailed(problems)
            self.store.event(f"preflight: {len(names)} engines ready on {len(found)} workers")
        threads = await client.nthreads()
        return max(1, sum(int(n) for n in threads.values()))

    async def _drain(self, records: Any, done_var: Any) -> None:
        """Records as the workers finish them (before their pair ends)."""
        while True:
            record = await records.get()
            if record == END_OF_RECORDS:
                return
            await self._accept(record, done_var)

    async def _accept(self, record: dict[str, Any], done_var: Any) -> None:
        """Append a record once (by game id), count it, tell the workers it is done."""
        game_id = record.get("game_id")
        if (not isinstance(game_id, int) or game_id in self._recorded_in_flight or self.tracker.is_done(game_id)
                or self.interrupted or not any(game_id in ids for ids in self._in_flight.values())):
            return
        self._recorded_in_flight.add(game_id)   # before the write: the second delivery of it waits for nothing
        self._live_finished(game_id)
        await self._append(GameRecord.from_json(record))
        await done_var.set(sorted(self._recorded_in_flight))

    # -- live.json -------------------------------------------------------------------------------------
    def _live_event(self, event: Any) -> None:
        """A Dask event from a task (on this loop): a game in progress, or its end."""
        try:
            _, message = event
            if "finished" in message:
                self._live_finished(int(message["finished"]))
            elif "game" in message:
                game = message["game"]
                if int(game["game_id"]) not in self._finished_live and not self.tracker.is_done(int(game["game_id"])):
                    self.live.show(game)
        except (TypeError, ValueError, KeyError):
            pass

    def _live_finished(self, game_id: int) -> None:
        self._finished_live.append(game_id)
        self.live.finished(game_id)
