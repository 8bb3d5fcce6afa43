"""UCB1: which arm a flat Monte-Carlo search samples next."""

from __future__ import annotations

import math


def ucb1_pick(totals: list[float], visits: list[int], played: int, c: float) -> int:
    """Each arm once in order, then the best mean plus c * sqrt(ln N / n)."""
    if played < len(visits):
        return played
    log_n = math.log(played)
    return max(range(len(visits)), key=lambda j: totals[j] / visits[j] + c * math.sqrt(log_n / visits[j]))
