"""The thinking panel's feed: throttled, yet the latest line always reaches the page soon."""

from __future__ import annotations

import asyncio
from typing import Any

from gui.thinking import INFO_INTERVAL, ThinkingFeed
from protocol.messages import Info


def test_a_burst_is_throttled_and_its_last_line_follows_within_the_interval():
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def run() -> None:
        feed = ThinkingFeed(send, {"t": "thinking"}, lambda: True)
        for depth in range(1, 6):             # a burst: the first goes at once, the rest wait
            await feed.add(Info(depth=depth, pv=[f"a{depth}c{depth}"]))
        assert [m["depth"] for m in sent] == [1]
        await asyncio.sleep(INFO_INTERVAL * 1.5)   # then silence: the latest is not held back
        assert [m["depth"] for m in sent] == [1, 5] and sent[-1]["pv"] == ["a5c5"]
        feed.close()
        await feed.final()
        assert sent[-1] == {"t": "thinking", "final": True, "depth": 5, "pv": ["a5c5"],
                            "lines": [{"multipv": 1, "depth": 5, "pv": ["a5c5"]}]}

    asyncio.run(run())


def test_nothing_is_sent_for_a_game_that_is_gone():
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def run() -> None:
        feed = ThinkingFeed(send, {"t": "thinking"}, lambda: False)
        await feed.add(Info(depth=1))
        await feed.final()

    asyncio.run(run())
    assert sent == []


def test_multipv_lines_are_kept_apart_best_first_and_the_main_line_is_the_first():
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def run() -> None:
        feed = ThinkingFeed(send, {"t": "analysis"}, lambda: True)
        await feed.add(Info(depth=3, multipv=2, score_cp=-5, pv=["b0b2"], nodes=900))
        await feed.add(Info(depth=3, multipv=1, score_cp=12, pv=["a0a2", "c0c2"], nodes=1000))
        await feed.add(Info(depth=3, multipv=3, score_cp=-20, pv=["d0d2"], nodes=1100, time=40))
        feed.close()
        await feed.final()

    asyncio.run(run())
    final = sent[-1]
    assert [line["multipv"] for line in final["lines"]] == [1, 2, 3]
    assert [line["score"] for line in final["lines"]] == [12, -5, -20]
    assert final["pv"] == ["a0a2", "c0c2"] and final["score"] == 12   # the main line's own fields
    assert final["nodes"] == 1100 and final["time"] == 40                # the search's counts: the latest
