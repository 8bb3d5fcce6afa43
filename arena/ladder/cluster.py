"""The ladder's games on a Dask cluster, through the referee's own task (referee.cluster.play_pair_task).

Each game pair is one task, as in `isaac-referee tournament --cluster`: a worker plays the pair's
games with the referee's engine pool, game slots and fair clocks, and sends each record back on a
Dask Queue as the game ends; the task's result repeats them (a record is stored once: its game id
is the database's key). The referee keys a worker's engine processes by a run key; the arena's key
changes whenever the roster changes (a version enters or leaves), so the workers always know the
engines they are asked to play, and the engines of an old key are released once its tasks end.

Records come back through one Dask Queue a run key, read by one long `get` (a drain) that hands
each record to the pair waiting for it. A `get` cancelled from this side stays waiting on the
scheduler and takes the next record put (lost to everyone), so none is ever cancelled: a drain
ends when its key is released, by a last message of its own (END_OF_RECORDS) put on its queue.

Each game's stderr comes back too: the task makes its players through ladder/capture.py's
StderrPairPlayers, which sends the game's head and tail of each side beside its record; it is
stored as a local game's is. A lost scheduler makes the ladder stop with ClusterError: the server
ends with a message, the pairs in flight stay `running` and are played again by the next start.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import uuid
from collections.abc import Iterator
from typing import Any

from referee.engines.process import EngineSpec
from referee.matches.cluster import (
    END_OF_RECORDS,
    ClusterError,
    _dask,
    _scheduler_gone,
    end_drain,
    play_pair_task,
    release_run,
)
from referee.matches.live import LiveGames

from ..db.results import Pair
from .capture import STDERR_KEY, StderrPairPlayers, from_message
from .runner import OnGame, PlannedGame, stderr_parts


class DaskPairs:
    """Game pairs as tasks on a Dask cluster."""

    def __init__(self, address: str, live: LiveGames, player_options: dict[str, Any], fair_cpu: str = "auto"):
        self.address = address
        self.live = live
        self.options = dict(player_options, fair_cpu=fair_cpu)
        self.session = uuid.uuid4().hex[:12]
        self.generation = 0
        self.specs: list[EngineSpec] = []
        self.client: Any = None
        self._keys: dict[str, int] = {}   # run key -> tasks in flight
        self._drains: dict[str, tuple[asyncio.Task[None], Any]] = {}   # run key -> (its reader, its records queue)
        self._inboxes: dict[int, asyncio.Queue[dict[str, Any]]] = {}   # game id -> its pair's records
        self._lock = asyncio.Lock()
        self._lost = False
        """The scheduler is gone: nothing to release on the workers (asking would wait out Dask's timeouts)."""

    @property
    def run_key(self) -> str:
        return f"isaac-arena-{self.session}-{self.generation}"

    async def _client(self) -> Any:
        if self.client is None:
            dd = _dask()
            try:
                self.client = await dd.Client(self.address, asynchronous=True, timeout="10s")
            except (OSError, TimeoutError) as exc:
                raise ClusterError(f"--cluster {self.address}: cannot reach the Dask scheduler ({exc})") from None
        return self.client

    async def set_roster(self, specs: dict[str, EngineSpec]) -> None:
        async with self._lock:
            self.specs = list(specs.values())
            self.generation += 1
            client = await self._client()
            await _dask().Variable(f"{self.run_key}-done", client=client).set([])
            client.subscribe_topic(f"{self.run_key}-live", self._live_event)
            self._keys.setdefault(self.run_key, 0)
            await self._release_idle_keys()

    def _live_event(self, event: Any) -> None:
        """A worker's game in progress, or its end (the referee's live events): shown on /live."""
        try:
            _, message = event
            if "finished" in message:
                self.live.finished(int(message["finished"]))
            elif "game" in message:
                self.live.show(message["game"])
        except (TypeError, ValueError, KeyError):
            pass

    async def _release_idle_keys(self) -> None:
        for key in [k for k, n in self._keys.items() if n == 0 and k != self.run_key]:
            del self._keys[key]
            self.client.unsubscribe_topic(f"{key}-live")
            try:
                await self._end_drain(key)
                await self.client.run(release_run, key, on_error="ignore")
            except OSError:
                pass

    def _start_drain(self, key: str) -> None:
        if key not in self._drains:
            records = _dask().Queue(f"{key}-records", client=self.client)
            self._drains[key] = (asyncio.create_task(self._drain(records)), records)

    async def _drain(self, records: Any) -> None:
        """Read a key's records queue until END_OF_RECORDS: each record to the inbox of the pair playing
        its game (a record nobody waits for is dropped: its pair takes it from the task's result)."""
        await records   # created on the scheduler before the first get
        while True:
            message = await records.get()
            if message == END_OF_RECORDS:
                return
            game_id = message.get("game_id") if isinstance(message, dict) else None
            inbox = self._inboxes.get(game_id) if isinstance(game_id, int) else None
            if inbox is not None:
                inbox.put_nowait(message)

    async def _mend_drain(self, key: str, client: Any) -> None:
        """A key's reader whose connection to the scheduler broke (OSError): that error again if the scheduler
        is gone, else a new reader (the pairs waiting go on; their records also come with their tasks' results)."""
        reader = self._drains[key][0] if key in self._drains else None
        failed = reader.exception() if reader is not None and reader.done() and not reader.cancelled() else None
        if isinstance(failed, OSError):
            if await _scheduler_gone(client):
                raise failed
            del self._drains[key]
            self._start_drain(key)

    async def _end_drain(self, key: str) -> None:
        drain = self._drains.pop(key, None)
        if drain is not None:
            await end_drain(*drain, reachable=not self._lost)

    async def play_pair(self, pair: Pair, games: list[PlannedGame], slot: int, on_game: OnGame) -> None:
        if not games:
            return
        client = await self._client()
        key, specs = self.run_key, list(self.specs)
        task_games = [(g.spec, g.dark.engine_name, g.light.engine_name) for g in games]
        wanted = {g.spec.game_id: g for g in games}
        inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        for game_id in wanted:
            self._inboxes[game_id] = inbox
        self._keys[key] = self._keys.get(key, 0) + 1
        self._start_drain(key)
        future = client.submit(play_pair_task, key, specs, task_games, self.options, StderrPairPlayers(),
                               key=f"{key}-pair-{pair.id}-{uuid.uuid4().hex[:6]}", pure=False)
        seen: set[int] = set()
        going = True
        try:
            while wanted.keys() - seen and not future.done():
                await self._mend_drain(key, client)
                try:
                    record = await asyncio.wait_for(inbox.get(), timeout=1.0)   # a local queue: safe to cancel
                except TimeoutError:
                    continue
                going = await self._take(record, wanted, seen, on_game) and going
            result = await future
            for record in result:
                going = await self._take(record, wanted, seen, on_game) and going
        except (OSError, asyncio.CancelledError, concurrent.futures.CancelledError) as exc:
            # the client cancels the futures once it gives up on the scheduler (concurrent.futures' kind)
            if isinstance(exc, asyncio.CancelledError) or not await _scheduler_gone(client):
                raise
            self._lost = True
            why = " ".join(str(exc).split())[:200] or type(exc).__name__   # one line: Dask's own text has two
            raise ClusterError(f"--cluster {self.address}: lost the Dask scheduler ({why}); "
                               f"finished games are recorded: start the server again once the cluster is up") from None
        finally:
            self._keys[key] -= 1
            for game_id in wanted:
                self._inboxes.pop(game_id, None)

    async def _take(self, message: dict[str, Any], wanted: dict[int, PlannedGame], seen: set[int],
                    on_game: OnGame) -> bool:
        """A worker's message (the game's record, and its stderr under STDERR_KEY), counted once."""
        record = dict(message)
        sides = from_message(record.pop(STDERR_KEY, None))
        game_id = record.get("game_id")
        if not isinstance(game_id, int) or game_id not in wanted or game_id in seen:
            return True
        seen.add(game_id)
        self.live.finished(game_id)
        return await on_game(record, stderr_parts(wanted[game_id], sides))

    async def close(self) -> None:
        if self.client is None:
            return
        try:
            for key in list(self._drains):
                await self._end_drain(key)
            for key in [] if self._lost else list(self._keys):
                await self.client.run(release_run, key, on_error="ignore")
        except OSError:
            pass
        finally:
            with _quiet_client_log(self._lost):
                await self.client.close(timeout=10)
            self.client = None


@contextlib.contextmanager
def _quiet_client_log(quiet: bool) -> Iterator[None]:
    """With the scheduler gone, the Dask client is still trying to reconnect when it is closed, and
    logs that attempt's cancellation as an error with a traceback: not news (the server has said in
    one line that the scheduler is lost), so its log is held back while it closes."""
    logger = logging.getLogger("distributed.client")
    level = logger.level
    if quiet:
        logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)
