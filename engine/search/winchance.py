"""Win chances and the score a search reports (SPEC 9.5).

A search's value is an estimate unless the result is proven over every legal reply: estimates
are reported as `score cp` between -99 and +99, whatever the search's own scale says; only a
proven result is `score cp 100` (a certain win), `-100` (a certain loss) or `0` with
`wdl 0 1000 0` (a certain draw), each with its `wdl`. A GUI reads +-100 as certain, so a bound
computed over a pruned list of candidates must never reach it.
"""

from __future__ import annotations

import math

ESTIMATE_LIMIT = 99
"""The largest |score cp| of an estimate: +-100 is kept for proven results."""


def logistic(x: float) -> float:
    """1 / (1 + e^-x), saturated beyond +-40 (no overflow)."""
    if x > 40:
        return 1.0
    if x < -40:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def win_probability_to_cp(p: float) -> int:
    """An estimate's score: 100 * (P(win) - P(loss)) for the side to move, within +-ESTIMATE_LIMIT."""
    cp = int(round(100 * (2 * min(1.0, max(0.0, p)) - 1)))
    return max(-ESTIMATE_LIMIT, min(ESTIMATE_LIMIT, cp))


def proven_score(result: int) -> tuple[int, tuple[int, int, int]]:
    """(score cp, wdl) of a proven result for the side to move: 1 a win, 0 a draw, -1 a loss."""
    if result > 0:
        return 100, (1000, 0, 0)
    if result < 0:
        return -100, (0, 0, 1000)
    return 0, (0, 1000, 0)
