"""A one-ply ranking of ISAAC moves by the evaluation after each: the `heuristic` partner's moves.

Placement: among the best placements by the line guess, the one whose position evaluates
best for us (value placed, pieces, potential); scoring: the removal after which the
scoring evaluation is best for us.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable

from engine.games.generic import judged
from engine.games.parts import Ranked, Ranking, narrowed
from protocol.game import Game
from protocol.games.isaac.rules import IsaacGame
from protocol.moves import PASS, Move
from protocol.state import Phase

from . import knowledge as K

TOP = 12
"""Placements (best by the line guess) judged by the evaluation."""
WIN = 1e6
"""The value of a move that ends the game won (minus: lost)."""


def ranked_moves(game: Game, rng: random.Random, stop: threading.Event | None = None) -> Ranked:
    """(score, move) best first; [(0, PASS)] when the mover must pass. With `stop` set, the
    moves judged so far."""
    return _ranked(narrowed(game, IsaacGame, "ISAAC's ranking"), rng, stop)


RANKING: Ranking = ranked_moves
"""The `heuristic` partner's ranking, as GameParts.standard loads it."""


def _ranked(game: IsaacGame, rng: random.Random, stop: threading.Event | None) -> list[tuple[float, Move]]:
    me = game.turn
    moves: list[Move]
    if game.phase is Phase.SCORE:
        moves = list(K.removal_candidates(game, wide=True))
        if not moves:
            return [(0.0, PASS)]
        evaluate: Callable[[IsaacGame], float] = K.scoring_eval
    else:
        moves = [m for m, _ in K.placement_candidates(game)[:TOP]]
        evaluate = K.placement_eval

    def value_after() -> float:
        if game.is_over():
            result = game.result()
            assert result is not None
            return 0.0 if result.winner is None else (WIN if result.winner == me else -WIN)
        value = evaluate(game)
        return value if game.turn == me else -value

    scored = judged(game, moves, value_after, rng, stop, 0.001)
    scored.sort(key=lambda kv: -kv[0])
    return scored
