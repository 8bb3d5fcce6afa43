"""Shared state of one search: the clock, the settings, node count and throttled `info` reporting.

With MultiPV above 1 a report is the searcher's best lines, one `info multipv k ...` each, best
first (SPEC 9.5): `lines(k)` gives them where the searcher keeps more than one; the move played is
line 1's."""

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

    def __init__(self, tm: TimeManager, report: Callable[[Info], None] | None, settings: S,
                 multipv: int = 1) -> None:
        self.tm = tm
        self.report = report
        self.settings = settings
        self.multipv = multipv
        self.snapshot: Callable[[], Info | None] | None = None
        self.lines: Callable[[int], list[Info]] | None = None
        """Given k, the searcher's k best lines, best first (its `snapshot` is the first); None where it
        has one line only."""
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
        """Send the current line (with MultiPV, lines) if the interval has passed since the last report."""
        if self.report is None or self.snapshot is None:
            return
        now = self.tm.elapsed_ms()
        if now - self._last_report_ms < REPORT_INTERVAL_MS:
            return
        lines = self._lines()
        if lines:
            self._last_report_ms = now
            self._send(lines)
            return
        info = self.snapshot()
        if info is None:
            return
        self._last_report_ms = now
        self.report(self._stamp(info))

    def final_report(self, info: Info) -> None:
        """The last report of the search (always sent): `info`, the move played, then (MultiPV) the next
        best lines that do not begin with that move."""
        if self.report is None:
            return
        lines = self._lines()
        if not lines:
            self.report(self._stamp(info))
            return
        first = info.pv[0] if info.pv else None
        self._send([info] + [line for line in lines if not line.pv or line.pv[0] != first][:self.multipv - 1])

    def _lines(self) -> list[Info]:
        """The searcher's best lines when more than one is asked for and it keeps them; else []."""
        if self.multipv <= 1 or self.lines is None:
            return []
        return [line for line in self.lines(self.multipv) if line is not None][:self.multipv]

    def _send(self, lines: list[Info]) -> None:
        assert self.report is not None
        for rank, line in enumerate(lines, 1):
            line.multipv = rank
            self.report(self._stamp(line))
