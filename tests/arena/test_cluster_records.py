"""The ladder's records queue on a Dask scheduler (ladder/cluster.py): one reader a run key hands each
record to the pair waiting for its game, and ends without leaving a `get` waiting on the scheduler
(a left `get` would take the next record put on that queue, and it would be lost)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import distributed
import pytest

from arena.ladder.cluster import DaskPairs
from referee.matches.live import LiveGames

pytestmark = pytest.mark.cluster


async def _with_scheduler(body: Any) -> Any:
    async with distributed.Scheduler(host="127.0.0.1", port=0, dashboard_address=None) as scheduler:
        return await body(scheduler.address)


def test_records_reach_the_pair_waiting_for_their_game_and_the_reader_ends_cleanly(tmp_path: Path):
    async def body(address: str) -> tuple[list[Any], list[Any], int, bool]:
        pairs = DaskPairs(address, LiveGames(tmp_path), {})
        await pairs._client()
        key = "isaac-arena-test-1"
        mine: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        pairs._inboxes[7] = pairs._inboxes[8] = mine
        pairs._start_drain(key)          # its first get comes at once: the queue must exist by then
        async with distributed.Client(address, asynchronous=True) as worker_side:
            queue = await distributed.Queue(f"{key}-records", client=worker_side)
            for message in ({"game_id": 7, "result": "1-0"}, {"game_id": 99}, {"game_id": 8, "result": "0-1"}):
                await queue.put(message)
            got = [await asyncio.wait_for(mine.get(), 10) for _ in range(2)]
            task = pairs._drains[key][0]
            await pairs._end_drain(key)
            ended = task.done() and not task.cancelled()
            await queue.put({"game_id": 7})   # nobody reads now: it must stay on the queue
            left = await queue.qsize()
            leftover = [mine.get_nowait() for _ in range(mine.qsize())]
        await pairs.close()
        return got, leftover, left, ended

    got, leftover, left, ended = asyncio.run(_with_scheduler(body))
    assert got == [{"game_id": 7, "result": "1-0"}, {"game_id": 8, "result": "0-1"}]
    assert leftover == []                # game 99 had no pair waiting: dropped, not misdelivered
    assert ended                         # by its END_OF_RECORDS, not cancelled
    assert left == 1                     # no get of the reader left on the scheduler to take it


def test_closing_ends_every_reader(tmp_path: Path):
    async def body(address: str) -> tuple[bool, int]:
        pairs = DaskPairs(address, LiveGames(tmp_path), {})
        await pairs._client()
        for key in ("isaac-arena-test-1", "isaac-arena-test-2"):
            pairs._start_drain(key)
        tasks = [task for task, _ in pairs._drains.values()]
        await asyncio.sleep(0.2)
        await pairs.close()
        async with distributed.Client(address, asynchronous=True) as other:
            queue = await distributed.Queue("isaac-arena-test-2-records", client=other)
            await queue.put({"game_id": 1})
            left = await queue.qsize()
        return all(t.done() and not t.cancelled() for t in tasks), left

    ended, left = asyncio.run(_with_scheduler(body))
    assert ended and left == 1


async def _break_reader(pairs: DaskPairs, key: str) -> asyncio.Task[None]:
    """Put in the place of a key's reader one that ended as a broken connection ends it."""
    reader, records = pairs._drains[key]
    reader.cancel()

    async def broken() -> None:
        raise ConnectionResetError("the reader's connection broke")

    failed = asyncio.create_task(broken())
    await asyncio.gather(reader, failed, return_exceptions=True)
    pairs._drains[key] = (failed, records)
    return failed


def test_a_reader_whose_connection_broke_is_replaced_while_the_scheduler_answers(tmp_path: Path):
    async def body(address: str) -> tuple[bool, dict[str, Any], bool]:
        pairs = DaskPairs(address, LiveGames(tmp_path), {})
        client = await pairs._client()
        key = "isaac-arena-test-3"
        mine: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        pairs._inboxes[5] = mine
        pairs._start_drain(key)
        failed = await _break_reader(pairs, key)
        await pairs._mend_drain(key, client)
        replaced = pairs._drains[key][0] is not failed
        async with distributed.Client(address, asynchronous=True) as worker_side:
            queue = await distributed.Queue(f"{key}-records", client=worker_side)
            await queue.put({"game_id": 5, "result": "1-0"})
            got = await asyncio.wait_for(mine.get(), 10)
        await pairs._mend_drain(key, client)      # a working reader is left alone
        kept = pairs._drains[key][0] is not failed and not pairs._drains[key][0].done()
        await pairs.close()
        return replaced, got, kept

    replaced, got, kept = asyncio.run(_with_scheduler(body))
    assert replaced and kept
    assert got == {"game_id": 5, "result": "1-0"}


def test_a_broken_reader_with_the_scheduler_gone_raises_its_error(tmp_path: Path):
    async def body() -> str:
        async with distributed.Scheduler(host="127.0.0.1", port=0, dashboard_address=None) as scheduler:
            pairs = DaskPairs(scheduler.address, LiveGames(tmp_path), {})
            client = await pairs._client()
            key = "isaac-arena-test-4"
            pairs._start_drain(key)
            await asyncio.sleep(0.2)
        await _break_reader(pairs, key)   # the scheduler is closed; the reader's connection breaks with it
        try:
            await pairs._mend_drain(key, client)
        except OSError as exc:
            return str(exc)
        finally:
            pairs._lost = True
            await pairs.close()
        return "no error"

    assert asyncio.run(body()) == "the reader's connection broke"
