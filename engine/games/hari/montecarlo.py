"""HARI by flat Monte Carlo: root candidates judged by playouts to the game's end.

The search plays this only where the C core of its alpha-beta was not built
(search.py), and then only until the end game. What limits a HARI player at short
times is the bias of its model of the rest of the game more than the number of
playouts, so the effort goes into the model:

- candidates: the race ranking's best K overall (ranking.py: every playable length on
  its snuggest spots and one own piece slid to make room, each judged by the packing
  race after it), plus the best PER_LENGTH of every length, so that jumping to a longer
  piece is always weighed;
- playouts: playout.playout_move with spread spots and upgrades (the shortest playable
  piece on the snuggest of a few spots drawn anywhere; the second-shortest some of the
  time; when nothing fits, one own piece slid to make room, off the board when the
  piece played is worth more);
- UCB1 over the candidates; the answer is the best mean result (a win 1, a draw 1/2,
  blended with the final margin as value.terminal_value does).
"""

from __future__ import annotations

import random

from engine.search.bandit import ucb1_pick
from engine.search.context import SearchContext
from engine.search.winchance import win_probability_to_cp
from protocol.games.hari.rules import HariGame
from protocol.messages import Info
from protocol.moves import HariMove, Move

from .playout_policy import playout_move
from .ranking import ranked_moves
from .settings import HariSettings, MonteCarloSettings
from .value import terminal_value


def root_candidates(game: HariGame, rng: random.Random, settings: MonteCarloSettings) -> list[Move]:
    """The ranking's best k, plus the best per_length of each played length (module docstring)."""
    ranked = [m for _, m in ranked_moves(game, rng)]
    chosen = ranked[:settings.k]
    seen = {str(m) for m in chosen}
    per: dict[int, int] = {}
    for m in chosen:
        n = _length(m)
        per[n] = per.get(n, 0) + 1
    for m in ranked[settings.k:]:
        n = _length(m)
        if per.get(n, 0) < settings.per_length and str(m) not in seen:
            chosen.append(m)
            seen.add(str(m))
            per[n] = per.get(n, 0) + 1
    return chosen


def _length(move: Move) -> int:
    return int(move.length) if isinstance(move, HariMove) else 0


def choose(game: HariGame, ctx: SearchContext[HariSettings], rng: random.Random) -> tuple[Move, Info]:
    """UCB1 over root_candidates, each valued by playouts to the end (module docstring)."""
    settings = ctx.settings
    mc = settings.montecarlo
    moves = root_candidates(game, rng, mc)
    if len(moves) == 1:
        return moves[0], Info(depth=1, pv=[str(moves[0])])
    me = game.turn
    visits = [0] * len(moves)
    totals = [0.0] * len(moves)
    tm = ctx.tm

    def best() -> int:
        return max((j for j in range(len(moves)) if visits[j]), key=lambda j: (totals[j] / visits[j], visits[j]),
                   default=0)

    def info() -> Info:
        i = best()
        p = totals[i] / visits[i] if visits[i] else 0.5
        return Info(depth=1, score_cp=win_probability_to_cp(p), rollouts=sum(visits), pv=[str(moves[i])])

    ctx.snapshot = info
    played = 0
    while True:
        i = ucb1_pick(totals, visits, played, mc.ucb_c)
        game.push(moves[i])
        pushed = 1
        try:
            while not game.is_over() and pushed < mc.playout_plies:
                game.push(playout_move(game, rng, mc.skip, True, mc.spread))
                pushed += 1
            value = terminal_value(game, me, settings.wdl_weight, settings.margin_scale) if game.is_over() else 0.5
        finally:
            for _ in range(pushed):
                game.pop()
        tm.nodes += pushed
        visits[i] += 1
        totals[i] += value
        played += 1
        ctx.maybe_report()
        if (played >= len(moves) and tm.soft_expired()) or tm.must_stop():
            break
        if tm.depth_limit is not None and played >= tm.depth_limit * len(moves):
            break
    return moves[best()], info()
