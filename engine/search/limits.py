"""What one `go` allows: the clock, the move time, depth, nodes, infinite (SPEC 9.4).

The engine's options that shape every move alike (MoveOverhead, OwnBook, Skill Level) are not limits
of a `go`: the front end hands them to the strategy apart (engine/strategies/base.py, PlayOptions).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Limits:
    """What `go` allows for this move. Times in ms; None = not given."""

    time_left: int | None = None      # mover's clock
    increment: int = 0                # mover's increment
    movestogo: int | None = None
    movetime: int | None = None
    depth: int | None = None
    nodes: int | None = None
    infinite: bool = False
    started: float | None = None      # time.monotonic() when `go` arrived (the move's clock starts there)
