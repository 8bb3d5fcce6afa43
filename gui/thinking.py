"""An engine's `info` lines on their way to the page: what the thinking panel shows, and how often.

Each line of a MultiPV search (`info multipv k ...`, SPEC 9.5) is kept apart: the page is sent
the latest of each, best first, with the search's counts (nodes, time) from whichever came last."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from protocol.messages import Info

INFO_INTERVAL = 0.1
"""Seconds between two thinking updates sent to the browser (the latest always follows within it)."""

Send = Callable[[dict[str, Any]], Awaitable[None]]
LINE_FIELDS = ("depth", "seldepth", "score", "wdl", "pv")
"""Fields of one line of a MultiPV search; the others (nodes, time...) are the whole search's."""
COUNT_FIELDS = ("time", "nodes", "nps")


class ThinkingFeed:
    """An engine's `info` lines on their way to the page: at most one message per INFO_INTERVAL,
    and the latest always within it (a line followed by a long silence is not held back until
    the move), then one `final` message just before the move."""

    def __init__(self, send: Send, head: dict[str, Any], live: Callable[[], bool]):
        self.send, self.head, self.live = send, head, live
        self.latest: dict[str, Any] = {}
        self.lines: dict[int, dict[str, Any]] = {}
        self.last_info: Info | None = None
        """The last `info` of the main line (multipv 1), as the engine sent it (for the game's record)."""
        self.last_sent = 0.0
        self.timer: asyncio.Task[None] | None = None
        self.open = True

    async def add(self, info: Info) -> None:
        fields = _info_json(info)
        rank = info.multipv or 1
        line = {k: fields[k] for k in LINE_FIELDS if k in fields}
        if line:
            self.lines.setdefault(rank, {"multipv": rank}).update(line)
        if rank == 1:
            self.latest.update(fields)
            self.last_info = info
        else:
            self.latest.update({k: v for k, v in fields.items() if k in COUNT_FIELDS})
        wait = INFO_INTERVAL - (time.monotonic() - self.last_sent)
        if wait <= 0:
            await self._push()
        elif self.timer is None:
            self.timer = asyncio.create_task(self._later(wait))

    async def _later(self, wait: float) -> None:
        await asyncio.sleep(wait)
        self.timer = None
        await self._push()

    async def _push(self) -> None:
        if self.open and self.live():
            self.last_sent = time.monotonic()
            await self.send(self.message())

    def close(self) -> None:
        self.open = False
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    async def final(self) -> None:
        if self.latest and self.live():
            await self.send({**self.message(), "final": True})

    def message(self) -> dict[str, Any]:
        """The head, the main line's fields and counts, and every line best first (`lines`)."""
        return {**self.head, **self.latest, "lines": [self.lines[k] for k in sorted(self.lines)]}


def _info_json(info: Info) -> dict[str, Any]:
    """The fields of an info line the browser shows."""
    out: dict[str, Any] = {}
    for key in ("depth", "seldepth", "time", "nodes", "nps"):
        value = getattr(info, key)
        if value is not None:
            out[key] = value
    if info.score_cp is not None:
        out["score"] = info.score_cp
    if info.wdl is not None:
        out["wdl"] = list(info.wdl)
    if info.pv:
        out["pv"] = list(info.pv)
    if info.string is not None:
        out["string"] = info.string
    return out
