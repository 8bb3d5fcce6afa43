"""Who plays whom next on the ladder: a pure choice, tested on its own.

* **The bot that plays next** is the idle bot that has waited longest, its wait weighted by its
  uncertainty (1 + 2 sigma / SIGMA0: a new bot counts its wait three times), and a bot that has
  never played goes first. Every idle bot's claim grows with its wait, so none waits long: about
  as many pairings as there are bots at most, twice that for the most certain ones.
* **Its opponent** is drawn among the other idle bots with weights that favour close ratings
  (the chance of an upset, as the rating model sees it: exp(-d^2 / 2c^2) with c^2 = 2 beta^2 +
  both sigmas squared, so uncertain bots are close to everybody and get picked more) and that
  fall with each recent pairing of the two (1 / (1 + n)^2 over the last pairings), with the
  last opponent all but excluded while there is another: no endless rematch of one pair.
* A bot plays one game pair at a time; with every other bot busy the slot waits.
"""

from __future__ import annotations

import math
import random
from collections import Counter, deque
from dataclasses import dataclass

from ..ratings import BETA, SIGMA0, Rating

RECENT_FACTOR = 3
"""The rematch memory: the last RECENT_FACTOR x (number of bots) pairings."""
LAST_OPPONENT_WEIGHT = 0.02


@dataclass
class Contender:
    """A bot version that may play: its rating, games, since when it waits, whether it plays now."""

    version_id: int
    bot_id: int
    rating: Rating
    games: int
    waiting_since: float
    busy: bool = False


class RecentPairings:
    """The latest pairings, to weigh rematches down; memory bounded by the number of bots."""

    def __init__(self) -> None:
        self.recent: deque[tuple[int, int]] = deque()
        self.counts: Counter[tuple[int, int]] = Counter()
        self.last_opponent: dict[int, int] = {}

    @staticmethod
    def key(a: int, b: int) -> tuple[int, int]:
        return (a, b) if a < b else (b, a)

    def add(self, a: int, b: int, bots: int) -> None:
        key = self.key(a, b)
        self.recent.append(key)
        self.counts[key] += 1
        self.last_opponent[a], self.last_opponent[b] = b, a
        limit = max(4, RECENT_FACTOR * bots)
        while len(self.recent) > limit:
            old = self.recent.popleft()
            self.counts[old] -= 1
            if self.counts[old] <= 0:
                del self.counts[old]

    def count(self, a: int, b: int) -> int:
        return self.counts.get(self.key(a, b), 0)


def claim(c: Contender, now: float) -> tuple[int, float]:
    """How strongly a bot claims the next pairing (higher first): never played, then weighted wait."""
    wait = max(0.0, now - c.waiting_since)
    return (1 if c.games == 0 else 0, wait * (1 + 2 * c.rating.sigma / SIGMA0))


def closeness(a: Rating, b: Rating) -> float:
    c2 = 2 * BETA ** 2 + a.sigma ** 2 + b.sigma ** 2
    return math.exp(-((a.mu - b.mu) ** 2) / (2 * c2))


def opponent_weight(focal: Contender, other: Contender, recent: RecentPairings, others: int) -> float:
    weight = closeness(focal.rating, other.rating) / (1 + recent.count(focal.version_id, other.version_id)) ** 2
    if others > 1 and recent.last_opponent.get(focal.version_id) == other.version_id:
        weight *= LAST_OPPONENT_WEIGHT
    return max(weight, 1e-12)


def choose_pair(contenders: list[Contender], recent: RecentPairings, now: float,
                rng: random.Random) -> tuple[Contender, Contender] | None:
    """The next pairing (the waiting bot first), or None when no two idle bots of different authors'
    bots can play."""
    idle = [c for c in contenders if not c.busy]
    if len(idle) < 2:
        return None
    ranked = sorted(idle, key=lambda c: claim(c, now), reverse=True)
    for focal in ranked:
        others = [c for c in idle if c.version_id != focal.version_id and c.bot_id != focal.bot_id]
        if not others:
            continue
        weights = [opponent_weight(focal, o, recent, len(others)) for o in others]
        return focal, rng.choices(others, weights=weights, k=1)[0]
    return None
