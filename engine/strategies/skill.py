"""`Skill Level` (SPEC 9.3): `search` played weaker on purpose, for people, in the UCI way.

Stockfish's option, with its range 0..20; 20 is full strength and changes nothing. Below 20 a move
is chosen in one of two ways, by a draw from the Seed generator (so a search under `go nodes`
gives the same moves again):

- with chance `weaker_chance(level)` (0.7 at level 0, falling by 0.05 a level to 0 at level 14
  and above): a move drawn uniformly from the best `candidate_count(level)` root candidates of the
  `heuristic` ranking (the one-ply judgement `flatmc` starts from: 6 at level 0 down to 2 at 13),
  at once and without searching: plausible moves, not the best;
- otherwise the search, stopped after `node_budget(level)` nodes (2,000 at level 0, doubling
  every two levels: 64,000 at 10, about 1.4 million at 19) or its time, whichever comes first.
"""

from __future__ import annotations

import dataclasses
import random
import threading
from collections.abc import Callable

from protocol.game import Game
from protocol.messages import Info
from protocol.moves import Move

from .base import FULL_SKILL, Limits

FULL = FULL_SKILL
"""The level at which nothing is weakened (the option's default and maximum)."""
NODES_AT_ZERO = 2000


def node_budget(level: int) -> int:
    """Nodes the search may spend below full strength."""
    return int(NODES_AT_ZERO * 2 ** (level / 2))


def weaker_chance(level: int) -> float:
    """How often a move is drawn from the first candidates instead of searched."""
    return max(0.0, (14 - level) * 0.05)


def candidate_count(level: int) -> int:
    """How many of the best-ranked root candidates such a move is drawn from."""
    return max(2, 2 + (14 - level) // 3)


def weaker_move(game: Game, level: int, rng: random.Random, stop: threading.Event,
                report: Callable[[Info], None]) -> Move | None:
    """The move drawn instead of searching, or None when this move is to be searched."""
    if level >= FULL or rng.random() >= weaker_chance(level):
        return None
    from .heuristic import ranked_moves

    ranked = ranked_moves(game, rng, stop)[:candidate_count(level)]
    move: Move = rng.choice(ranked)[1]
    report(Info(depth=1, nodes=len(ranked), pv=[str(move)], string=f"skill {level}: drawn from the best {len(ranked)}"))
    return move


def capped(limits: Limits, level: int) -> Limits:
    """The limits of a search at `level`: at most its node budget."""
    if level >= FULL:
        return limits
    budget = node_budget(level)
    return dataclasses.replace(limits, nodes=budget if limits.nodes is None else min(limits.nodes, budget))
