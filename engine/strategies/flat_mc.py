"""Strategy `flatmc`: flat Monte Carlo, playouts per candidate move and no tree.

A sparring partner of a different kind from `search` (SPEC.md 9.7):

- candidates: every legal move when there are at most ALL_MOVES_UP_TO of them,
  else the best CANDIDATES by the `heuristic` strategy's one-ply judgement;
- each playout plays both sides on to the end of the game (at most
  PLAYOUT_PLIES plies) with the game's cheap policy (its engine parts' `sparring`:
  engine/games/<game>/sparring.py; uniformly random legal moves in a game without one);
- playouts are shared out by UCB1 over the candidates (no statistics below the
  root); the answer is the candidate with the best mean result (a win 1, a draw
  1/2, blended a little with the final margin where the game says so). A playout
  cut short is valued by the game's static guess; in a game without one, by who
  leads on the game's measure (1, 1/2 or 0).

It thinks for the whole time it is given (as `search` does), polls `stop`
between playouts, and is reproducible for a node limit and a Seed.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable

from engine.games import has_searcher, searcher_for, sparring_for
from engine.games.generic import moves_left as moves_left_by_hand
from engine.games.parts import Policy, Valuer
from engine.search.bandit import ucb1_pick
from engine.search.timeman import TimeManager
from protocol.game import Game
from protocol.messages import Info
from protocol.moves import Move

from .base import PLAY_DEFAULTS, Limits, PlayOptions
from .heuristic import ranked_moves

ALL_MOVES_UP_TO = 24
CANDIDATES = 16
PLAYOUT_PLIES = 80
UCB_C = 0.4


def candidates(game: Game, rng: random.Random) -> list[Move]:
    """The moves flat MC shares its playouts over, best guess first."""
    if game.count_legal_moves() <= ALL_MOVES_UP_TO:
        moves = list(game.legal_moves())
        if moves:
            return moves
    return [m for _, m in ranked_moves(game, rng)[:CANDIDATES]]


class FlatMCStrategy:
    """UCB1 over the root candidates, each valued by playouts to the end; see the module docstring."""

    name = "flatmc"

    def choose(self, game: Game, limits: Limits, stop: threading.Event,
               report: Callable[[Info], None], rng: random.Random, options: PlayOptions = PLAY_DEFAULTS) -> Move:
        started = time.monotonic()
        tm = TimeManager(limits, stop, moves_left=_moves_left(game), start=started, overhead_ms=options.move_overhead)
        moves = candidates(game, rng)
        if len(moves) == 1:
            report(Info(depth=1, nodes=1, pv=[str(moves[0])]))
            return moves[0]
        sparring = sparring_for(game.name)
        policy, valuer = sparring.playout_policy, sparring.playout_value
        me = game.turn
        visits = [0] * len(moves)
        totals = [0.0] * len(moves)
        played = 0
        while True:
            i = ucb1_pick(totals, visits, played, UCB_C)
            value = self._playout(game, moves[i], policy, valuer, me, rng, tm)
            visits[i] += 1
            totals[i] += value
            played += 1
            if (played >= len(moves) and tm.soft_expired()) or tm.must_stop():
                break
            if limits.depth is not None and played >= limits.depth * len(moves):
                break
        best = max((j for j in range(len(moves)) if visits[j]),
                   key=lambda j: (totals[j] / visits[j], visits[j]))
        report(Info(depth=1, nodes=tm.nodes, rollouts=played, pv=[str(moves[best])]))
        return moves[best]

    @staticmethod
    def _playout(game: Game, move: Move, policy: Policy, valuer: Valuer, me: int, rng: random.Random,
                 tm: TimeManager) -> float:
        pushed = 0
        try:
            game.push(move)
            pushed += 1
            tm.nodes += 1
            while not game.is_over() and pushed < PLAYOUT_PLIES:
                game.push(policy(game, rng))
                pushed += 1
                tm.nodes += 1
                if tm.stopped():  # out of time: the static guess values the playout cut short
                    break
            return valuer(game, me)
        finally:
            for _ in range(pushed):
                game.pop()


def _moves_left(game: Game) -> int:
    """The game's searcher's estimate for the clock; for a game without one, the pieces in hand."""
    if not has_searcher(game.name):
        return moves_left_by_hand(game)
    return searcher_for(game.name).moves_left(game)
