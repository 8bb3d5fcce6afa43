"""The clocks of a game: the referee measures every move itself.

The referee never trusts an engine's own account of its time: `Clock` uses `time.monotonic`, and a
move that takes longer than the time left plus the margin loses on time. `go_command` tells the
mover both clocks, as the engine protocol's `go` does.
"""

from __future__ import annotations

import time

from protocol.messages import GoCommand

from ..formats.timecontrol import TimeControl


class Clock:
    """One player's clock for one game, measured with time.monotonic by the referee."""

    def __init__(self, tc: TimeControl):
        self.tc = tc
        self.remaining_ms: int | None = tc.base_ms
        self.moves_made = 0
        self.flagged = False
        self.last_elapsed_ms = 0
        self._started: float | None = None

    @property
    def movestogo(self) -> int | None:
        """Moves left before the next time session ('40/60'), else None."""
        if not self.tc.moves:
            return None
        return self.tc.moves - self.moves_made % self.tc.moves

    def allowed_ms(self) -> int | None:
        """Time the engine may use for this move before the margin; None = no time limit."""
        limits = [x for x in (self.remaining_ms, self.tc.movetime_ms) if x is not None]
        return min(limits) if limits else None

    def deadline_s(self) -> float | None:
        """Seconds the engine may take before it forfeits (allowed time + margin); None = no limit."""
        allowed = self.allowed_ms()
        return None if allowed is None else (allowed + self.tc.margin_ms) / 1000

    def start(self) -> None:
        self._started = time.monotonic()

    def stop(self, elapsed_ms: int | None = None) -> int:
        """End the move; `elapsed_ms` is the referee's own measurement if it has a finer one.
        Sets `flagged` if the move overran allowed time + margin. Adds the increment."""
        if elapsed_ms is None:
            if self._started is None:
                raise RuntimeError("Clock.stop() without start()")
            elapsed_ms = int(round((time.monotonic() - self._started) * 1000))
        self._started = None
        allowed = self.allowed_ms()
        if allowed is not None and elapsed_ms > allowed + self.tc.margin_ms:
            self.flagged = True
        self.last_elapsed_ms = elapsed_ms
        self.moves_made += 1
        if self.remaining_ms is not None:
            self.remaining_ms = max(0, self.remaining_ms - elapsed_ms) + self.tc.inc_ms
            if self.tc.moves and self.tc.base_ms is not None and self.moves_made % self.tc.moves == 0:
                self.remaining_ms += self.tc.base_ms
        return elapsed_ms

    def overrun_ms(self, elapsed_ms: int) -> int:
        """How far `elapsed_ms` went past the allowed time (0 if within it or untimed)."""
        allowed = self.allowed_ms()
        return 0 if allowed is None else max(0, elapsed_ms - allowed)


def go_command(dark: Clock, light: Clock, mover: int) -> GoCommand:
    """The `go` the mover receives: both clocks (p1 = Dark) and the mover's own per-move limits."""
    own = dark if mover == 0 else light
    cmd = GoCommand(
        p1time=dark.remaining_ms, p2time=light.remaining_ms,
        p1inc=dark.tc.inc_ms if dark.remaining_ms is not None and dark.tc.inc_ms else None,
        p2inc=light.tc.inc_ms if light.remaining_ms is not None and light.tc.inc_ms else None,
        movestogo=own.movestogo, movetime=own.tc.movetime_ms, depth=own.tc.depth, nodes=own.tc.nodes,
    )
    if own.remaining_ms is None:   # the mover has no clock: do not tell it about the other's
        cmd.p1time = cmd.p2time = cmd.p1inc = cmd.p2inc = None
    return cmd
