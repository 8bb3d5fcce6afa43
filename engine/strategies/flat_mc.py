"""Strategy `flatmc`: flat Monte Carlo, playouts per candidate move and no tree.

A sparring partner of a different kind from `search` (SPEC.md 9.7):

- candidates: every legal move when there are at most ALL_MOVES_UP_TO of them,
  else the best CANDIDATES by the `heuristic` strategy's one-ply judgement;
- each playout plays both sides on to the end of the game (at most
  PLAYOUT_PLIES plies) with a cheap policy: FOUNDATIONS and HARI the shortest
  allowed piece placed snugly (sometimes another length; HARI slides one piece
  when nothing fits), ISAAC and any other registered game uniformly random
  legal moves;
- playouts are shared out by UCB1 over the candidates (no statistics below the
  root); the answer is the candidate with the best mean result (a win 1, a draw
  1/2, blended a little with the final margin). A playout cut short is valued
  by the game's static guess; in a game without one, by who leads on the
  game's measure (1, 1/2 or 0).

It thinks for the whole time it is given (as `search` does), polls `stop`
between playouts, and is reproducible for a node limit and a Seed.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from typing import Any

from protocol import registry
from protocol.foundations import FoundationsGame
from protocol.game import Game
from protocol.hari import HariGame
from protocol.isaac import IsaacGame
from protocol.messages import Info
from protocol.moves import PASS

from .base import Limits

ALL_MOVES_UP_TO = 24
CANDIDATES = 16
PLAYOUT_PLIES = 80
UCB_C = 0.4


Policy = Callable[[Any, random.Random], Any]
Valuer = Callable[[Any, int], float]
"""1/0.5/0 for a colour at a game end (margin blended in), or a static guess if cut short."""


def _random_policy(game: Any, rng: random.Random) -> Any:
    return game.random_move(rng) or PASS


def _hari_policy(game: Any, rng: random.Random) -> Any:
    from engine.search.hari_search import playout_move
    return playout_move(game, rng)


def _foundations_policy(game: Any, rng: random.Random) -> Any:
    from engine.search.foundations_search import PARTNER_SAMPLE, playout_move
    return playout_move(game, rng, PARTNER_SAMPLE)


def _hari_value(game: Any, color: int) -> float:
    from engine.search import hari_search as H
    if game.is_over():
        return H.terminal_value(game, color)
    return float(H.HariKnowledge().static_value(game, color))


def _foundations_value(game: Any, color: int) -> float:
    from engine.search import foundations_search as F
    if game.is_over():
        return F.terminal_value(game, color, F.PARTNER_WDL_WEIGHT)
    return float(F.static_value(game, color))


def _isaac_value(game: Any, color: int) -> float:
    from engine.search.context import logistic
    if game.is_over():
        return _outcome_value(game, color)
    from engine.search.isaac_search import POINT_SCALE, evaluate
    value = evaluate(game)
    return logistic((value if game.turn == color else -value) / POINT_SCALE)


def _outcome_value(game: Any, color: int) -> float:
    result = game.result()
    return 0.5 if result.winner is None else (1.0 if result.winner == color else 0.0)


def _measure_value(game: Any, color: int) -> float:
    """Any other registered game: the outcome at a game end, else who leads by the game's measure."""
    if game.is_over():
        return _outcome_value(game, color)
    sign = -1 if registry.entry(game.name).lower_score_wins else 1
    margin = sign * (game.scores[color] - game.scores[1 - color])
    return 0.5 if margin == 0 else (1.0 if margin > 0 else 0.0)


_PLAYOUTS: dict[type[Game], tuple[Policy, Valuer]] = {
    IsaacGame: (_random_policy, _isaac_value),
    FoundationsGame: (_foundations_policy, _foundations_value),
    HariGame: (_hari_policy, _hari_value),
}
"""Each game's playout policy and end-of-playout value (module docstring); others: _GENERIC."""
_GENERIC: tuple[Policy, Valuer] = (_random_policy, _measure_value)


def _playout_policy(game: Any) -> Policy:
    return _PLAYOUTS.get(type(game), _GENERIC)[0]


def _final_value(game: Any, color: int) -> float:
    """1/0.5/0 for `color` at a game end (margin blended in), or a static guess if cut short."""
    return _PLAYOUTS.get(type(game), _GENERIC)[1](game, color)


def candidates(game: Any, rng: random.Random) -> list[Any]:
    """The moves flat MC shares its playouts over, best guess first."""
    from .heuristic import ranked_moves

    if game.count_legal_moves() <= ALL_MOVES_UP_TO:
        moves = list(game.legal_moves())
        if moves:
            return moves
    return [m for _, m in ranked_moves(game, rng)[:CANDIDATES]]


class FlatMCStrategy:
    """UCB1 over the root candidates, each valued by playouts to the end; see the module docstring."""

    name = "flatmc"

    def choose(self, game: Any, limits: Limits, stop: threading.Event,
               report: Callable[[Info], None], rng: random.Random) -> Any:
        from engine.search.context import ucb1_pick
        from engine.search.timeman import TimeManager

        started = time.monotonic()
        tm = TimeManager(limits, stop, moves_left=_moves_left(game), start=started)
        moves = candidates(game, rng)
        if len(moves) == 1:
            report(Info(depth=1, nodes=1, pv=[str(moves[0])]))
            return moves[0]
        policy = _playout_policy(game)
        me = game.turn
        visits = [0] * len(moves)
        totals = [0.0] * len(moves)
        played = 0
        while True:
            i = ucb1_pick(totals, visits, played, UCB_C)
            value = self._playout(game, moves[i], policy, me, rng, tm)
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
    def _playout(game: Any, move: Any, policy: Policy, me: int, rng: random.Random, tm: Any) -> float:
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
            return _final_value(game, me)
        finally:
            for _ in range(pushed):
                game.pop()


def _moves_left(game: Any) -> int:
    """The game's searcher's estimate for the clock; for a game without one, the pieces in hand."""
    from engine.search.driver import searcher_for

    try:
        searcher = searcher_for(game)
    except ValueError:
        return max(1, int(sum(game.hand(game.turn))))
    return int(searcher.moves_left(game))
