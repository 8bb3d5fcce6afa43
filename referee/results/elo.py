"""Elo from scores: the arithmetic every statistic of a run uses, with nothing about runs or records.

* A game score is 1 for a win, 1/2 for a draw, 0 for a loss.
* Elo is the logistic Elo difference: a score fraction s corresponds to
  ``-400 * log10(1/s - 1)``.
* The 95% interval is the normal approximation of the score's standard error,
  mapped through the same curve; per game (trinomial) or per game pair
  (pentanomial, which is tighter and more honest for paired openings, because
  the two games of a pair share an opening and are not independent).
* LOS (likelihood of superiority) is the usual ``Phi((W - L) / sqrt(W + L))``:
  draws carry no information about which engine is stronger.

The SPRT (sprt.py) and the ratings (ratings.py) build on these; the counts they read are tally.py's.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from statistics import NormalDist

Z95 = NormalDist().inv_cdf(0.975)
"""1.95996...: half-width of a two-sided 95% normal interval in standard errors."""

PAIR_SCORES = (0.0, 0.5, 1.0, 1.5, 2.0)
"""Points an engine can take from a game pair, indexing the pentanomial counts."""


def elo_from_score(score: float) -> float:
    """Logistic Elo difference for a score fraction; +-inf at 1 and 0."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    """Expected score fraction of the side that is `elo` stronger."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def mean_and_variance(values: Iterable[float], weights: Iterable[float]) -> tuple[float, float, float]:
    """(total weight, mean, population variance) of a weighted sample."""
    pairs = [(v, w) for v, w in zip(values, weights) if w > 0]
    total = sum(w for _, w in pairs)
    if total <= 0:
        return 0.0, 0.5, 0.0
    mean = sum(v * w for v, w in pairs) / total
    var = sum(w * (v - mean) ** 2 for v, w in pairs) / total
    return total, mean, var


def _interval(n: float, mean: float, var: float) -> tuple[float, float, float]:
    """(Elo, low, high) of a mean score with a 95% normal interval.

    When every sample is the same (4-0, all draws) the measured spread is zero
    and the normal interval would claim certainty; the Wilson interval of a
    proportion is used instead, which stays honest for small samples."""
    if n <= 0:
        return 0.0, -math.inf, math.inf
    if var <= 0:
        low, high = wilson_interval(mean, n)
        return elo_from_score(mean), elo_from_score(low), elo_from_score(high)
    half = Z95 * math.sqrt(var / n)
    return elo_from_score(mean), elo_from_score(mean - half), elo_from_score(mean + half)


def wilson_interval(p: float, n: float) -> tuple[float, float]:
    """95% Wilson score interval of a proportion p observed over n trials."""
    z2 = Z95 * Z95
    centre = p + z2 / (2 * n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return (centre - half) / (1 + z2 / n), (centre + half) / (1 + z2 / n)


def elo_interval(wins: int, draws: int, losses: int) -> tuple[float, float, float]:
    """(Elo, low, high) from game results, treating games as independent (trinomial)."""
    n, mean, var = mean_and_variance((1.0, 0.5, 0.0), (wins, draws, losses))
    return _interval(n, mean, var)


def elo_interval_pentanomial(counts: list[int]) -> tuple[float, float, float]:
    """(Elo, low, high) from pentanomial pair counts (pairs are the independent unit)."""
    n, mean, var = mean_and_variance([p / 2 for p in PAIR_SCORES], counts)
    return _interval(n, mean, var)


def los(wins: int, losses: int) -> float:
    """Likelihood of superiority: probability the first engine is the stronger, from W and L."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


def json_number(x: float) -> float | None:
    """A float for JSON: rounded, and None (null) for an infinity or NaN, which JSON cannot hold."""
    if math.isinf(x) or math.isnan(x):
        return None
    return round(x, 2) + 0.0   # + 0.0 turns -0.0 into 0.0
