"""Strategy `heuristic`: what a thoughtful beginner plays, one ply deep, no playouts.

A sparring partner that actually plays the games: the best move of the game's one-ply ranking
(its engine parts' `ranking`: engine/games/<game>/ranking.py says what each judges; SPEC.md 9.7
quotes them). A game without one: every legal move judged by the measure (``Game.scores``) it
leaves, ours minus the opponent's, a move that wins outright first (engine/games/generic.py).
Ties are broken by the generator seeded from the Seed option.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable

from engine.games import ranking_for
from engine.games.parts import Ranked
from protocol.game import Game
from protocol.messages import Info
from protocol.moves import PASS, Move

from .base import PLAY_DEFAULTS, Limits, PlayOptions


class HeuristicStrategy:
    """One-ply evaluation with knowledge of space; see the module docstring."""

    name = "heuristic"

    def choose(self, game: Game, limits: Limits, stop: threading.Event,
               report: Callable[[Info], None], rng: random.Random, options: PlayOptions = PLAY_DEFAULTS) -> Move:
        scored = ranked_moves(game, rng, stop)
        move = scored[0][1]
        report(Info(depth=1, nodes=len(scored), pv=[str(move)]))
        return move


def ranked_moves(game: Game, rng: random.Random, stop: threading.Event | None = None) -> Ranked:
    """(score, move) best first for the side to move, by the game's ranking (engine/games/<game>/ranking.py)
    or its measure; never empty (PASS when nothing else)."""
    scored = ranking_for(game.name)(game, rng, stop)
    if not scored:
        return [(0.0, next(iter(game.legal_moves()), PASS))]
    scored.sort(key=lambda kv: -kv[0])
    return scored
