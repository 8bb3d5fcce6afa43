"""Time management: how long one `go` may think, and when the search must stop.

The search asks two questions, many times a second:

- ``soft_expired()``: has the planned thinking time run out?  The search stops
  at its next convenient point (the end of a simulation or iteration).
- ``must_stop()``: stop *now*.  True when the `stop` event is set (stop, quit,
  end of input), the hard deadline has passed, or the node limit is reached.

Budget, in order of precedence (times in ms, all measured from the moment the
`go` line arrived on stdin, ``Limits.started``; when that is unknown, from the
moment the TimeManager is created):

- ``infinite``: no deadline; only `stop` ends the search.
- ``movetime``: use it all, minus the move overhead (the GUI/pipe latency the
  user declared: the MoveOverhead option) and a small safety margin.
- a clock (``time_left`` with ``increment`` and ``movestogo``): plan
  ``time_left / moves_to_go + 0.8 * increment`` where moves_to_go is
  ``movestogo`` if given, else the strategy's estimate of the moves it still
  has to make in this game; never plan more than a fixed share of the
  remaining clock, and keep the move overhead plus a safety margin in reserve
  so the clock can never fall: the hard deadline is at most
  ``time_left - overhead - margin``.
- nothing at all (a bare `go`): DEFAULT_MOVETIME_MS.
- ``depth`` / ``nodes`` alone: no deadline; the search ends at the limit.

On top of the move overhead, ``reserve_ms`` (from ``Lateness``) keeps back what the
engine itself recently overran its hard deadline by: a loaded machine makes the
last simulation, the unwinding and the answer slower, and the next moves then
stop earlier, until the overruns fade away.

Everything is computed from ``time.monotonic`` so wall-clock jumps do not matter.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from .limits import Limits

DEFAULT_MOVETIME_MS = 1000
"""Thinking time for a `go` that names no limit at all."""
DEFAULT_OVERHEAD_MS = 15
"""The MoveOverhead option's default: the latency of the answer's way to the GUI, kept in reserve."""
SAFETY_MS = 5
"""Kept in reserve on top of the move overhead: the time to unwind and print bestmove."""
CLOCK_SHARE = 0.25
"""Never plan more than this share of the remaining clock for one move."""
HARD_SHARE = 0.6
"""Never go past this share of the remaining clock, however unstable the search."""
HARD_FACTOR = 2.0
"""The hard deadline allows this multiple of the planned time (for unclear positions)."""
LATENESS_DECAY = 0.8
"""Each move keeps this share of the lateness remembered from earlier moves (a spike fades in ~10 moves)."""
LATENESS_CAP_MS = 40.0
"""Never reserve more than this for lateness (a stalled machine must not make the engine play blind)."""


@dataclass(frozen=True)
class Budget:
    """Planned (soft) and maximum (hard) thinking time in ms; None = unlimited."""

    soft_ms: float | None
    hard_ms: float | None


class Lateness:
    """How far recent searches ran past their hard deadline (ms), remembered with decay.

    One per process (LATENESS): lateness comes from the machine (load, scheduling),
    not from the game. ``record`` after each timed search; ``reserve_ms`` is what the
    next budget keeps back: the worst recent overrun, decayed by LATENESS_DECAY a move."""

    def __init__(self) -> None:
        self.late_ms = 0.0
        self._lock = threading.Lock()

    def record(self, overrun_ms: float) -> None:
        with self._lock:
            self.late_ms = min(LATENESS_CAP_MS, max(max(0.0, overrun_ms), self.late_ms * LATENESS_DECAY))

    def reserve_ms(self) -> float:
        return self.late_ms

    def reset(self) -> None:
        self.late_ms = 0.0


LATENESS = Lateness()


def plan_budget(limits: Limits, moves_left: int, reserve_ms: float = 0.0,
                overhead_ms: int = DEFAULT_OVERHEAD_MS) -> Budget:
    """The thinking time for one move under `limits`.

    `moves_left` is the caller's estimate of how many more moves the side to
    move will make in this game (used only with a clock and no movestogo).
    `overhead_ms` (the MoveOverhead option) and `reserve_ms` (Lateness.reserve_ms)
    are kept back.
    """
    overhead = max(0, overhead_ms or 0) + max(0.0, reserve_ms)
    if limits.infinite:
        return Budget(None, None)
    if limits.movetime is not None:
        # When the declared overhead eats most of movetime, still think a quarter of it.
        usable = max(limits.movetime - overhead - SAFETY_MS, limits.movetime / 4, 1.0)
        return Budget(usable, usable)
    if limits.time_left is not None:
        return _clock_budget(limits.time_left, limits.increment or 0, limits.movestogo,
                             moves_left, overhead)
    if limits.depth is not None or limits.nodes is not None:
        return Budget(None, None)
    return Budget(DEFAULT_MOVETIME_MS - overhead, DEFAULT_MOVETIME_MS - overhead)


def _clock_budget(time_left: int, increment: int, movestogo: int | None,
                  moves_left: int, overhead: float) -> Budget:
    """Split the remaining clock over the remaining moves, keeping a reserve."""
    reserve = overhead + SAFETY_MS + 0.02 * time_left
    available = max(1.0, time_left - reserve)
    to_go = max(1, movestogo if movestogo is not None else moves_left)
    # Only a GUI's `movestogo 1` (the clock is refilled after this move) may spend all of it:
    # the search's own estimate of moves left can be wrong, and passes still need the clock.
    last = movestogo == 1
    planned = available / to_go + 0.8 * increment
    if not last:
        planned = min(planned, CLOCK_SHARE * available + 0.8 * increment)
    hard_cap = available if last else HARD_SHARE * available + 0.8 * increment
    hard_cap = min(hard_cap, available)
    planned = max(1.0, min(planned, hard_cap))
    hard = max(planned, min(hard_cap, HARD_FACTOR * planned))
    return Budget(planned, hard)


class TimeManager:
    """Deadlines and limits of one search, polled by the search loop."""

    def __init__(self, limits: Limits, stop: threading.Event, moves_left: int = 20,
                 clock: Callable[[], float] = time.monotonic, start: float | None = None,
                 reserve_ms: float = 0.0, halt: threading.Event | None = None,
                 overhead_ms: int = DEFAULT_OVERHEAD_MS) -> None:
        """`start`: when the move's time began (clock() reading): the earlier of `start` and
        `limits.started` (the arrival of `go`), now if neither is given. `halt`: a second
        stop event (the driver's watchdog sets it when it answers without the search).
        `overhead_ms`: the MoveOverhead option."""
        self._clock = clock
        starts = [t for t in (start, limits.started) if t is not None]
        self.start = min(starts) if starts else clock()
        self.stop_event = stop
        self.halt = halt
        self.budget = plan_budget(limits, moves_left, reserve_ms, overhead_ms)
        self.node_limit = limits.nodes
        self.depth_limit = limits.depth
        self.nodes = 0
        self._soft = None if self.budget.soft_ms is None else self.start + self.budget.soft_ms / 1000
        self._hard = None if self.budget.hard_ms is None else self.start + self.budget.hard_ms / 1000

    def elapsed_ms(self) -> float:
        return (self._clock() - self.start) * 1000

    def stopped(self) -> bool:
        """The `stop` event or the hard deadline: unwind at once."""
        if self.stop_event.is_set() or (self.halt is not None and self.halt.is_set()):
            return True
        return self._hard is not None and self._clock() >= self._hard

    def must_stop(self) -> bool:
        """stopped() or the node limit reached."""
        if self.node_limit is not None and self.nodes >= self.node_limit:
            return True
        return self.stopped()

    def soft_expired(self) -> bool:
        """The planned time is used up (or must_stop()): finish at the next good point."""
        if self._soft is not None and self._clock() >= self._soft:
            return True
        return self.must_stop()

    def soft_fraction(self) -> float:
        """Share of the planned time used so far (0 when unlimited)."""
        if self.budget.soft_ms is None or self.budget.soft_ms <= 0:
            return 0.0
        return self.elapsed_ms() / self.budget.soft_ms

    def extend_soft(self, factor: float) -> None:
        """Allow more than the planned time when the search is unsure, never past the hard deadline."""
        if self._soft is None or self._hard is None or self.budget.soft_ms is None:
            return
        self._soft = min(self._hard, self.start + factor * self.budget.soft_ms / 1000)

    def time_limited(self) -> bool:
        return self._hard is not None

    def soft_deadline(self) -> float | None:
        """The clock() reading at which the planned time is used up; None if unlimited (for searches in C)."""
        return self._soft

    def hard_deadline(self) -> float | None:
        """The clock() reading at which the search must have stopped; None if unlimited."""
        return self._hard
