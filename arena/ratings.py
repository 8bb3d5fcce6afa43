"""Ladder ratings: OpenSkill's Bradley-Terry model (Weng and Lin's Bayesian approximation), updated
after every game.

Why this one: each bot's skill is a normal belief (mu, sigma) that one game moves in closed form
(no refit of the season), so a new bot's wide sigma is what makes it play more and move fast,
and the ranking can use a conservative estimate. The Bradley-Terry variant is the logistic
model the referee's maximum-likelihood fit uses (hosting.md, Ratings), so the ladder and the
season's final standings speak of the same quantity. OpenSkill is maintained, MIT-licensed and
pure Python; TrueSkill is patented for commercial use and Glicko-2 updates in rating periods.

Shown: mu +- 3 sigma; ranked by mu - 3 sigma (a bot is placed where it stands with about 99.7%
confidence, so one lucky first game does not put a new bot on top). The model's tau (0.083 by
default) widens sigma a little before every game, so a bot that improves can still move.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from openskill.models import BradleyTerryFull

MODEL = BradleyTerryFull()
MU0: float = float(MODEL.mu)
SIGMA0: float = float(MODEL.sigma)
BETA: float = float(MODEL.beta)
SPARK_POINTS = 40
"""How many of a bot's latest conservative ratings the sparkline shows."""


@dataclass(frozen=True)
class Rating:
    mu: float = MU0
    sigma: float = SIGMA0

    @property
    def conservative(self) -> float:
        """mu - 3 sigma: what the leaderboard ranks by."""
        return self.mu - 3 * self.sigma


def rate(dark: Rating, light: Rating, result: str) -> tuple[Rating, Rating]:
    """Both ratings after one game ('1-0' Dark won, '0-1' Light won, '1/2-1/2')."""
    ranks: list[float] = {"1-0": [1.0, 2.0], "0-1": [2.0, 1.0], "1/2-1/2": [1.0, 1.0]}[result]
    (new_dark,), (new_light,) = MODEL.rate([[MODEL.rating(mu=dark.mu, sigma=dark.sigma)],
                                            [MODEL.rating(mu=light.mu, sigma=light.sigma)]], ranks=ranks)
    return Rating(float(new_dark.mu), float(new_dark.sigma)), Rating(float(new_light.mu), float(new_light.sigma))


def win_chance(a: Rating, b: Rating) -> float:
    """The model's chance that `a` beats `b` (for the pages: how even a pairing is)."""
    c = math.sqrt(2 * BETA ** 2 + a.sigma ** 2 + b.sigma ** 2)
    return 1 / (1 + math.exp(-(a.mu - b.mu) / c))


def spark_after(spark: list[float], rating: Rating) -> list[float]:
    """The sparkline's points with this rating's conservative value added (the latest kept)."""
    return [*spark, round(rating.conservative, 2)][-SPARK_POINTS:]
