"""The sequential probability ratio test (SPRT) of a match: when the games so far settle H0 or H1.

It is the generalized SPRT with a normal approximation (the method fastchess uses): for samples x_i
with empirical mean m and variance v, testing mean s0 (Elo elo0) against s1 (Elo elo1),
``LLR = N * (s1 - s0) * (2m - s0 - s1) / (2v)``. Samples are game pairs (x = pair points / 2) in a
paired match (only complete pairs count), games otherwise. Empty outcome classes get half an
observation (PSEUDO_COUNT) so a one-sided sample neither divides by zero nor decides after one game.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .elo import PAIR_SCORES, mean_and_variance, score_from_elo

PSEUDO_COUNT = 0.5
"""Half an observation stands in for an empty outcome class in the SPRT sample.

Without it a one-sided sample (every game won) has zero variance and the
approximation would decide after a single game; fastchess uses 1e-3, which
still decides after one pair. Half an observation keeps early decisions
sane (19 straight 2-0 pairs to accept H1 at Elo 10 with alpha = beta = 0.05)
and vanishes as the sample grows; it only touches classes nobody hit."""


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """(lower, upper) LLR bounds: accept H0 at or below lower, H1 at or above upper."""
    if not (0 < alpha < 1 and 0 < beta < 1):
        raise ValueError(f"SPRT alpha and beta must be between 0 and 1, not {alpha} and {beta}")
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def _gsprt_llr(values: tuple[float, ...], counts: list[float], elo0: float, elo1: float) -> float:
    """Normal-approximation GSPRT log-likelihood ratio for samples in [0, 1]."""
    if sum(counts) <= 0:
        return 0.0
    regular = [c if c > 0 else PSEUDO_COUNT for c in counts]
    n, mean, var = mean_and_variance(values, regular)
    if var <= 0:
        return 0.0
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)


def sprt_llr_trinomial(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """LLR of H1 (Elo elo1) against H0 (Elo elo0) from game results."""
    return _gsprt_llr((1.0, 0.5, 0.0), [wins, draws, losses], elo0, elo1)


def sprt_llr_pentanomial(counts: list[int], elo0: float, elo1: float) -> float:
    """LLR of H1 against H0 from pentanomial pair counts (index = pair points * 2)."""
    return _gsprt_llr(tuple(p / 2 for p in PAIR_SCORES), list(counts), elo0, elo1)


@dataclass(frozen=True)
class Sprt:
    """SPRT parameters: Elo of H0 and H1 (logistic), error rates alpha and beta."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if self.elo0 >= self.elo1:
            raise ValueError(f"SPRT needs elo0 < elo1, not {self.elo0} and {self.elo1}")
        sprt_bounds(self.alpha, self.beta)

    @property
    def bounds(self) -> tuple[float, float]:
        return sprt_bounds(self.alpha, self.beta)

    def decide(self, llr: float) -> str | None:
        """'H0', 'H1', or None while the test must go on."""
        lower, upper = self.bounds
        if llr >= upper:
            return "H1"
        if llr <= lower:
            return "H0"
        return None

    def to_json(self) -> dict[str, Any]:
        return {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta}
