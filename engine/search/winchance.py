"""Win chances: a margin turned into a probability, and a probability into the `cp` score of SPEC 9."""

from __future__ import annotations

import math


def logistic(x: float) -> float:
    """1 / (1 + e^-x), saturated beyond +-40 (no overflow)."""
    if x > 40:
        return 1.0
    if x < -40:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def win_probability_to_cp(p: float) -> int:
    """Hundredths of a game point, side to move: 100 * (expected score won - lost) = 100 * (2p - 1)."""
    return int(round(100 * (2 * min(1.0, max(0.0, p)) - 1)))
