"""What the sparring partners `greedy` and `flatmc` play in ISAAC (SPEC 9.7), with their own fixed
numbers (a yardstick is not tuned along with the search).

- greedy: in the placement phase the longest piece that fits; in the scoring phase the removal
  giving the highest new score, among equal scores the piece with the lowest cells (lower end
  first, then upper end); ties not settled so at random.
- flatmc: uniformly random playouts (the generic policy); a playout cut short in the placement
  phase is valued by the evaluation of knowledge.py (potential weighed by POTENTIAL), as a win
  chance with POINT_SCALE points per logistic unit.
"""

from __future__ import annotations

import random
import threading

from engine.games.generic import Key, best_by_key, outcome
from engine.games.parts import Sparring, narrowed
from engine.search.winchance import logistic
from protocol.game import Game
from protocol.games.isaac.rules import IsaacGame
from protocol.moves import Move, Place, Remove

from . import knowledge

POINT_SCALE = 12.0
POTENTIAL = 1.5
"""ISAAC's evaluation of a placement position cut short weighs potential so."""


def greedy_key(move: Move) -> Key:
    """New score then lowest cells (removal); piece length (placement)."""
    if isinstance(move, Remove):
        return (move.score, -move.segment.lo, -move.segment.hi)
    if isinstance(move, Place):
        return (move.segment.length,)
    return (-1,)


def greedy_move(game: Game, stop: threading.Event, rng: random.Random) -> tuple[Move, int]:
    return best_by_key(game, greedy_key, stop, rng)


def playout_value(game: Game, color: int) -> float:
    """1 or 0 at a game end; else the evaluation's win chance for `color`."""
    isaac = narrowed(game, IsaacGame, "ISAAC's flatmc value")
    if isaac.is_over():
        return outcome(isaac, color)
    value = knowledge.evaluate(isaac, 0.0, POTENTIAL)
    return logistic((value if isaac.turn == color else -value) / POINT_SCALE)


SPARRING = Sparring(greedy=greedy_move, playout_value=playout_value)
