"""Shared state of one search: limits, node count, and throttled `info` reporting."""

from __future__ import annotations

import math
from collections.abc import Callable

from protocol.messages import Info

from .timeman import TimeManager

REPORT_INTERVAL_MS = 100
"""At most ten `info` lines a second (plus the final one)."""


def win_probability_to_cp(p: float) -> int:
    """Hundredths of a game point, side to move: 100 * (expected score won - lost) = 100 * (2p - 1)."""
    return int(round(100 * (2 * min(1.0, max(0.0, p)) - 1)))


def logistic(x: float) -> float:
    if x > 40:
        return 1.0
    if x < -40:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def ucb1_pick(totals: list[float], visits: list[int], played: int, c: float) -> int:
    """The arm flat Monte Carlo samples next: each once in order, then the best mean plus c * sqrt(ln N / n)."""
    if played < len(visits):
        return played
    log_n = math.log(played)
    return max(range(len(visits)), key=lambda j: totals[j] / visits[j] + c * math.sqrt(log_n / visits[j]))


class SearchContext:
    """Time manager, depth limit and the `info` callback of one `choose` call.

    `snapshot` is a callable returning the current Info (depth, score, pv ...)
    without time fields; maybe_report() adds nodes/time/nps and sends it when
    the last report is at least REPORT_INTERVAL_MS old.
    """

    def __init__(self, tm: TimeManager, report: Callable[[Info], None] | None):
        self.tm = tm
        self.report = report
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
