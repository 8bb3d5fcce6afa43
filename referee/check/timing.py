"""A timed `go` as a tournament times it, so the check predicts what a match will do.

The referee's stopwatch runs from writing `go` to reading `bestmove`; a move later than the time
allowed (the movetime, or the clock left) plus the margin loses the game. At that deadline the
referee sends `stop` and `isready` and waits one short window: a move in it is a loss on time,
silence a stall (the engine is killed). The check does the same and then, unlike a match, waits a
little longer for the late move, so the report can say how late it was.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..engines.hints import hint_for
from ..engines.player import STOP_GRACE_S
from ..formats.terminations import Termination
from ..formats.timecontrol import TimeControl
from .session import CheckFailed, CheckSession

MARGIN_MS = TimeControl().margin_ms
"""The referee's default margin before a move is lost on time."""


@dataclass(frozen=True)
class Budget:
    """What a `go` allows: the words sent, the time allowed (ms, margin aside) and the time control
    a tournament would write for it."""

    words: str
    allowed_ms: int
    tc: str

    @classmethod
    def movetime(cls, ms: int) -> Budget:
        return cls(f"movetime {ms}", ms, f"st={ms / 1000:g}")

    @classmethod
    def clock(cls, left_ms: int, inc_ms: int) -> Budget:
        """Both clocks at `left_ms` with `inc_ms` increments: the side to move has `left_ms`."""
        words = f"p1time {left_ms} p2time {left_ms} p1inc {inc_ms} p2inc {inc_ms}"
        return cls(words, left_ms, f"{left_ms / 1000:g}+{inc_ms / 1000:g}")


@dataclass
class TimedMove:
    move: str
    ms: int


class Late(CheckFailed):
    """A move a tournament would forfeit; `stalled` when it was not even there a window after the
    deadline: a tournament would have killed the engine, and its further moves in that game are
    not waited for."""

    def __init__(self, message: str, stalled: bool, hint: str | None, restart: bool = False):
        super().__init__(message, hint)
        self.stalled = stalled
        self.restart = restart
        """The engine's output cannot be trusted to be in step: the next check starts it afresh."""


async def timed_go(session: CheckSession, budget: Budget, patience: float) -> TimedMove:
    """Send `go <budget>` (the position already sent) and time the answer as the referee does.

    A move later than the time allowed plus the margin raises Late, after `stop` and `isready`
    were sent at the deadline; a late move is waited for up to `patience` seconds more, so the
    message can say how late it came, and the engine is in step again after it. Late.stalled when
    the engine stayed silent a window after the deadline; the caller restarts it when it cannot be
    trusted to be in step (no move at all, or `readyok` without the move)."""
    await session.send(f"go {budget.words}")
    t0 = time.monotonic()
    deadline = (budget.allowed_ms + MARGIN_MS) / 1000
    reply = await session.first_of(lambda r: r.word == "bestmove", deadline)
    if reply is not None:
        return TimedMove(session.move_of(reply), int((reply.t - t0) * 1000))
    await session.send("stop", "isready")
    allowed = (f"{budget.allowed_ms} ms allowed" if budget.tc.startswith("st=")
               else f"{budget.allowed_ms} ms left on its clock") + f" + {MARGIN_MS} ms margin"
    first = await session.first_of(lambda r: r.word == "bestmove" or r.kind == "readyok", STOP_GRACE_S)
    if first is not None and first.kind == "readyok":
        message = (f"would lose on time at {budget.tc}: no bestmove within {allowed}, and 'stop' brought none "
                   "('readyok' came without it)")
        raise Late(message, True, hint_for(Termination.TIME_FORFEIT, message), restart=True)
    late = first or await session.first_of(lambda r: r.word == "bestmove", patience)
    if late is None:
        message = (f"would lose at {budget.tc} by a stall: no bestmove within {allowed}, and no answer to "
                   f"'stop' and 'isready' in the {STOP_GRACE_S + patience:g} s after (a referee kills it "
                   f"{STOP_GRACE_S:g} s after the deadline)")
        raise Late(message, True, hint_for(Termination.STALL, message), restart=True)
    message = f"would lose on time at {budget.tc}: answered after {int((late.t - t0) * 1000)} ms ({allowed})"
    if first is None:
        message += (f"; silent for {STOP_GRACE_S:g} s after the deadline's 'stop' and 'isready', which a "
                    "referee records as a stall")
    await session.expect(lambda r: r.kind == "readyok", patience, "'readyok' (to the deadline's 'isready')")
    raise Late(message, first is None, hint_for(Termination.TIME_FORFEIT, message))
