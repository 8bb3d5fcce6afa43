"""Shared state of one search: the clock, the settings, node count and throttled `info` reporting."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from protocol.messages import Info

from .timeman import TimeManager

REPORT_INTERVAL_MS = 100
"""At most ten `info` lines a second (plus the final one)."""

S = TypeVar("S")
"""A game's search settings (a frozen dataclass of its searcher's parameters)."""


class SearchContext(Generic[S]):
    """Time manager, settings, depth limit and the `info` callback of one `choose` call.

    `settings` are the searcher's parameters for this search (tuning builds variants of
    them; nothing else changes a parameter). `snapshot` is a callable returning the
    current Info (depth, score, pv ...) without time fields; maybe_report() adds
    nodes/time/nps and sends it when the last report is at least REPORT_INTERVAL_MS old.
    """

    def __init__(self, tm: TimeManager, report: Callable[[Info], None] | None, settings: S) -> None:
        self.tm = tm
        self.report = report
        self.settings = settings
        self.snapshot: Callable[[], Info | None] | None = None
        self._last_report_ms = 0.0

    def depth_reached(self, depth: int) -> bool:
        limit = self.tm.depth_limit
        return limit is not None and depth >= limit

    def _stamp(self, info: Info) -> Info:
        ms = self.tm.elapsed_ms()
        info.nodes = self.tm.nodes
        info.time = int(ms)
        info.nps = int(self.tm.nodes * 1000 / ms) if ms > 0 else 0
        return info

    def maybe_report(self) -> None:
        """Send an info line if the interval has passed since the last one."""
        if self.report is None or self.snapshot is None:
            return
        now = self.tm.elapsed_ms()
        if now - self._last_report_ms < REPORT_INTERVAL_MS:
            return
        info = self.snapshot()
        if info is None:
            return
        self._last_report_ms = now
        self.report(self._stamp(info))

    def final_report(self, info: Info) -> None:
        """The last info line of the search (always sent)."""
        if self.report is not None:
            self.report(self._stamp(info))
