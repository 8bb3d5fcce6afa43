"""HARI move choice by flat Monte Carlo: root candidates judged by playouts to the game's end.

Since 2026-11-27 the search plays this only where the C core of its alpha-beta was not built
(hari_search.choose): that alpha-beta, at every move, scored 67.9% +- 3.2 against this flat
search with the Python end game (in-process, 100 ms, shipped book, 400 games).

Measured in-process (benchmarks/ab_inprocess.py, 100 ms a move, shipped HARI
book, 200 games each): the `flatmc` sparring partner (heuristic top 16, snug
playouts) beat 359c964's depth-2 alpha-beta over the packing race 64% (60
games), and doubling its time did not help it (47% at 200 ms vs 100 ms): what
limits a HARI player at these times is the bias of its model of the rest of the
game, not the number of playouts. This module therefore spends its effort on the
model:

- candidates: the `heuristic` ranking (every playable length on its snuggest
  spots and one own piece slid to make room, each judged by the packing race
  after it), the best K overall plus the best PER_LENGTH of every length, so
  that jumping to a longer piece is always weighed;
- playouts (``playout_move``): the shortest playable piece on the snuggest of
  SPREAD (3 to 6) spots drawn anywhere on the board (space.spread_fit). The
  snuggest of the top rows' spots, as the partners' playouts choose, piles the
  pieces up at the top: it scored 40% against a sample of 12-24 over 193 games,
  which scored 45% against a sample of 3-6 over 415 (SPRTs at 100 ms). In-process
  against 12-24, 200 games each: samples of 1-2 scored 56%, 3-6 61%, 6-12 55%,
  30-60 44%. The second-shortest length is played SKIP of the time; when
  nothing fits, one own piece slid to make room, along its line or off the
  board when the piece played is worth more. HARI's end game is mostly such
  upgrades (slide a 4 off, put a 5 where it was), and a playout that only
  discards there misjudges it: upgrade-aware playouts scored 72% (+-6) against
  the same search without them over 200 games;
- UCB1 over the candidates; the answer is the best mean result (a win 1, a draw
  1/2, blended with the final margin as in hari_search.terminal_value).

Measured and not kept (in-process, 100 ms, 2026-11-24): ffbb6c3's tree (MCTS)
with these playouts scored 39.2% against this flat search (200 book games);
playouts that never play a 3 while a longer piece fits scored 52.8% (400 book
games) and 51.0% (200 from the start position). Twice the time is worth little
here: 54.5% (+-6.2) over 200 book games against itself at 100 ms. From the start
position Dark scores about 61% when this search plays itself (200 games).

Also not kept (in-process, 100 ms, shipped book, 400 games each, 2026-11-25):
placements that take the opponent's last room for a length it holds, up to 3 for
each of the two shortest playable lengths, added to the candidates here and at the
end game's root: 52.5% (+-3.2) and 49.8% (+-3.3) against the search without them
(--offset 36000, 37000), and 67.6% against ffbb6c3's MCTS (`mcts`) where the search
without them scored 68.0% (--offset 38000); a first try without the "last room"
condition 50.4%. hari_search.WDL_WEIGHT 0.5 and 0.3 (a game end 50% or 30% by
win/draw/loss): 52.8% (+-2.8) and 52.2% (+-3.1) against 0.7, and 0.5 scored 67.8%
against `mcts` (same games as above: 68.0%). The end game's leaves with a fraction
of a point for the side with more room ((mine - theirs) / (mine + theirs + 1) times
0.5 or 0.95): 51.2% and 51.2%. Killer moves (two a ply) in the end game's
alpha-beta: 8-13% fewer nodes to a given depth (43 end-game positions), too few
for one more ply.
The answer the most played candidate (UCB1's choice), not the best mean: 50.4% (+-3.4) over 400
(--offset 46000, 2026-11-25).
Sequential halving at the root instead of UCB1 (the planned time cut into log2(k) equal slices, the
candidates sharing each evenly, the worse half by mean dropped after each): 51.1% (+-2.9) over 400
(--offset 47500); with it and K = 32, 50.2% (+-2.8) (--offset 47900), both against UCB1 with K = 16.
How the root shares its playouts is not what limits this search (2026-11-25).
Playouts stopped at 8 plays left and judged by the end game's packing race with upgrades
(hari_eval.contest_margin, blended as terminal_value blends a game end): 45.8% (+-3.1) over 400
(--offset 51000).
"""

from __future__ import annotations

import random
from typing import Any

from protocol.messages import Info
from protocol.moves import HariMove, Move

from .context import SearchContext, ucb1_pick, win_probability_to_cp
from .hari_search import playout_move as snug_move

K = 16
PER_LENGTH = 2
UCB_C = 0.4
PLAYOUT_PLIES = 80
SKIP = 0.25
"""Playouts: chance of playing the second-shortest length instead of the shortest (giving up the shortest).
Tried 2026-11-25 and not kept: 0.15 scored 53.8% and 54.5% in-process (100 ms, the 6-ply book, 400
games each; 0.05 48.6%, 0.35 46.5%), but through the referee (book, st=0.1) its SPRT [0, 20] stopped
undecided at 1,400 games, LLR -2.68: 50.4%, Elo +3.0 (-11.8, +17.7)."""
UPGRADES = True
"""Playouts: when nothing fits, a piece may also be slid off the board to make room for a piece worth more."""
SPREAD = 3
"""Playouts: the snug spot is looked for among about this many starts drawn anywhere (space.spread_fit),
not among the top rows' (0)."""


def playout_move(game: Any, rng: random.Random) -> Any:
    """The playout policy: the shortest playable piece on the snuggest of about SPREAD spots drawn
    anywhere on the board (the second-shortest SKIP of the time); when nothing fits, room made by
    one own slide, with upgrades if UPGRADES (hari_search.slide_for_room); else the shortest
    piece's discard."""
    return snug_move(game, rng, SKIP, UPGRADES, SPREAD)


def root_candidates(game: Any, rng: random.Random) -> list[Any]:
    """The heuristic's best K, plus the best PER_LENGTH of each played length (module docstring)."""
    from engine.strategies.heuristic import ranked_moves

    ranked = [m for _, m in ranked_moves(game, rng)]
    chosen = ranked[:K]
    seen = {str(m) for m in chosen}
    per: dict[int, int] = {}
    for m in chosen:
        n = _length(m)
        per[n] = per.get(n, 0) + 1
    for m in ranked[K:]:
        n = _length(m)
        if per.get(n, 0) < PER_LENGTH and str(m) not in seen:
            chosen.append(m)
            seen.add(str(m))
            per[n] = per.get(n, 0) + 1
    return chosen


def _length(move: Any) -> int:
    return int(move.length) if isinstance(move, HariMove) else 0


def choose(game: Any, ctx: SearchContext, rng: random.Random) -> tuple[Move, Info]:
    """UCB1 over root_candidates, each valued by playouts to the end (module docstring)."""
    from .hari_search import terminal_value

    moves = root_candidates(game, rng)
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
        i = ucb1_pick(totals, visits, played, UCB_C)
        game.push(moves[i])
        pushed = 1
        try:
            while not game.is_over() and pushed < PLAYOUT_PLIES:
                game.push(playout_move(game, rng))
                pushed += 1
            value = terminal_value(game, me) if game.is_over() else 0.5
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
