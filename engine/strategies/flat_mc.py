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

from engine.games import has_searcher, searcher_for
from engine.games.foundations import playout_policy as foundations_playout
from engine.games.foundations import value as foundations_value
from engine.games.hari import playout_policy as hari_playout
from engine.games.hari import value as hari_value
from engine.games.isaac import knowledge as isaac_knowledge
from engine.search.bandit import ucb1_pick
from engine.search.timeman import TimeManager
from engine.search.winchance import logistic
from protocol import registry
from protocol.game import Game
from protocol.games.foundations.rules import FoundationsGame
from protocol.games.hari.rules import HariGame
from protocol.games.isaac.rules import IsaacGame
from protocol.messages import Info
from protocol.moves import PASS, Move

from .base import Limits
from .heuristic import ranked_moves

ALL_MOVES_UP_TO = 24
CANDIDATES = 16
PLAYOUT_PLIES = 80
UCB_C = 0.4

# The partner's own numbers, fixed: a yardstick is not tuned along with the search.
HARI_SKIP = 0.1
"""HARI playouts: chance of the second-shortest length instead of the shortest."""
HARI_MARGIN_SCALE = 6.0
FOUNDATIONS_SAMPLE = 12
"""FOUNDATIONS playouts: the snuggest of this many drawn placements."""
FOUNDATIONS_DEVIATE = 0.2
FOUNDATIONS_MARGIN_SCALE = 8.0
WDL_WEIGHT = 0.7
"""A game end's value: this share win/draw/loss, the rest the margin (HARI, FOUNDATIONS)."""
ISAAC_POINT_SCALE = 12.0
ISAAC_POTENTIAL = 1.5
"""ISAAC's evaluation of a placement position cut short weighs potential so."""

Policy = Callable[[Game, random.Random], Move]
Valuer = Callable[[Game, int], float]
"""1/0.5/0 for a colour at a game end (margin blended in), or a static guess if cut short."""


def _random_policy(game: Game, rng: random.Random) -> Move:
    return game.random_move(rng) or PASS


def _hari_policy(game: Game, rng: random.Random) -> Move:
    assert isinstance(game, HariGame)
    return hari_playout.playout_move(game, rng, HARI_SKIP)


def _foundations_policy(game: Game, rng: random.Random) -> Move:
    assert isinstance(game, FoundationsGame)
    move = foundations_playout.playout_move(game, rng, FOUNDATIONS_SAMPLE, FOUNDATIONS_DEVIATE)
    assert move is not None, "a playout moves only in a game that is not over"
    return move


def _hari_value(game: Game, color: int) -> float:
    assert isinstance(game, HariGame)
    if game.is_over():
        return hari_value.terminal_value(game, color, WDL_WEIGHT, HARI_MARGIN_SCALE)
    return hari_value.static_value(game, color, HARI_MARGIN_SCALE)


def _foundations_value(game: Game, color: int) -> float:
    assert isinstance(game, FoundationsGame)
    if game.is_over():
        return foundations_value.terminal_value(game, color, WDL_WEIGHT, FOUNDATIONS_MARGIN_SCALE)
    return foundations_value.static_value(game, color, FOUNDATIONS_MARGIN_SCALE)


def _isaac_value(game: Game, color: int) -> float:
    assert isinstance(game, IsaacGame)
    if game.is_over():
        return _outcome_value(game, color)
    value = isaac_knowledge.evaluate(game, 0.0, ISAAC_POTENTIAL)
    return logistic((value if game.turn == color else -value) / ISAAC_POINT_SCALE)


def _outcome_value(game: Game, color: int) -> float:
    result = game.result()
    assert result is not None, "only finished games are valued this way"
    return 0.5 if result.winner is None else (1.0 if result.winner == color else 0.0)


def _measure_value(game: Game, color: int) -> float:
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
               report: Callable[[Info], None], rng: random.Random) -> Move:
        started = time.monotonic()
        tm = TimeManager(limits, stop, moves_left=_moves_left(game), start=started)
        moves = candidates(game, rng)
        if len(moves) == 1:
            report(Info(depth=1, nodes=1, pv=[str(moves[0])]))
            return moves[0]
        policy, valuer = _PLAYOUTS.get(type(game), _GENERIC)
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
        return max(1, int(sum(game.hand(game.turn))))
    return searcher_for(game.name).moves_left(game)
