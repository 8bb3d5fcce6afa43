"""Strategy `heuristic`: what a thoughtful beginner plays, one ply deep, no playouts.

A sparring partner that actually plays the games (SPEC.md 9.7 quotes these rules; each
game's ranking lives with the game's knowledge, engine/games/<game>/ranking.py):

- FOUNDATIONS: look only at the shortest piece allowed on the current level and
  the next length (a long piece early ends the level's ascending run); place it
  where, afterwards, the most of our own remaining hand still fits and the least
  of the opponent's does (space counted by packing the hands snugly in order),
  then snugly (fewest free neighbours).
- HARI: every playable length, placed on one of its snuggest spots, or one own
  piece slid to make room when that lets a scarce length in; each candidate is
  judged after the move by a race of both hands for the space left (each side in
  turn puts its next piece on its snuggest spot; engine/games/hari/race.py):
  our board value minus the opponent's at its end. Shorter pieces given up count
  against a play by themselves (they drop out of the race); a discard is a last resort.
- ISAAC: placement: among the best placements by the line guess, the one whose
  position evaluates best for us (value placed, pieces, potential); scoring: the
  removal after which the scoring evaluation is best for us.
- Any other registered game: every legal move, judged by the measures
  (``Game.scores``) it leaves: ours minus the opponent's, the better way round
  as the game's registry entry says; a move that wins outright comes first.

Ties are broken by the generator seeded from the Seed option.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable

from engine.games.foundations import ranking as foundations_ranking
from engine.games.hari import ranking as hari_ranking
from engine.games.isaac import ranking as isaac_ranking
from protocol import registry
from protocol.game import Game
from protocol.games.foundations.rules import FoundationsGame
from protocol.games.hari.rules import HariGame
from protocol.games.isaac.rules import IsaacGame
from protocol.messages import Info
from protocol.moves import PASS, Move

from .base import Limits

POLL_EVERY = 32
"""Moves judged between two looks at the stop event (any other registered game)."""
WIN = 1e6
"""The value of a move that ends the game won (minus: lost)."""

Scored = list[tuple[float, Move]]


class HeuristicStrategy:
    """One-ply evaluation with knowledge of space; see the module docstring."""

    name = "heuristic"

    def choose(self, game: Game, limits: Limits, stop: threading.Event,
               report: Callable[[Info], None], rng: random.Random) -> Move:
        scored = ranked_moves(game, rng, stop)
        move = scored[0][1]
        report(Info(depth=1, nodes=len(scored), pv=[str(move)]))
        return move


def ranked_moves(game: Game, rng: random.Random, stop: threading.Event | None = None) -> Scored:
    """(score, move) best first for the side to move; never empty (PASS when nothing else)."""
    if isinstance(game, HariGame):
        scored = hari_ranking.ranked_moves(game, rng, stop)
    elif isinstance(game, FoundationsGame):
        scored = foundations_ranking.ranked_moves(game, rng, stop)
    elif isinstance(game, IsaacGame):
        scored = isaac_ranking.ranked_moves(game, rng, stop)
    else:
        scored = _by_measure(game, rng, stop)
    if not scored:
        return [(0.0, next(iter(game.legal_moves()), PASS))]
    scored.sort(key=lambda kv: -kv[0])
    return scored


def _by_measure(game: Game, rng: random.Random, stop: threading.Event | None) -> Scored:
    """Every legal move, valued by the measure margin it leaves (see the module docstring)."""
    me = game.turn
    sign = -1 if registry.entry(game.name).lower_score_wins else 1
    scored: Scored = []
    for i, move in enumerate(list(game.legal_moves())):
        if stop is not None and i % POLL_EVERY == 0 and stop.is_set() and scored:
            break
        game.push(move)
        try:
            result = game.result() if game.is_over() else None
            if result is not None and result.winner is not None:
                value = WIN if result.winner == me else -WIN
            else:
                scores = game.scores
                value = float(sign * (scores[me] - scores[1 - me]))
        finally:
            game.pop()
        scored.append((value + 0.001 * rng.random(), move))
    return scored
