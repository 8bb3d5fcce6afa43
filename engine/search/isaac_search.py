"""ISAAC move choice: PUCT MCTS in the placement phase, alpha-beta in the scoring phase.

Placement (up to 600 moves a turn, about 25 turns to the scoring phase): MCTS
with progressive widening; priors from the placement guess of
isaac_knowledge (what a piece adds to the lines it touches), leaves valued by
the static evaluation (value placed, pieces, potential weighted SEARCH_W_POT),
logistic in points. Once the tree reaches the scoring phase the scoring
evaluation takes over.

Scoring (a handful of worthwhile removals each turn, a race to 100):
iterative-deepening alpha-beta on the removal candidates (full score, blocks,
multiplier set-ups), exact at game ends, static evaluation at the horizon.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from protocol.game import Game
from protocol.isaac import IsaacGame
from protocol.messages import Info
from protocol.moves import PASS, Move
from protocol.state import Phase

from . import isaac_knowledge as K
from .alphabeta import ABResult, AlphaBeta
from .context import SearchContext, logistic, win_probability_to_cp
from .mcts import run_mcts

POINT_SCALE = 12.0
"""Evaluation points per logistic unit: a 12-point lead is a ~73% expected score."""
PRIOR_SCALE = 3.0
"""Placement guess points per e-fold of prior probability."""
SEARCH_W_POT = 1.5
"""Weight of potential in the placement evaluation of the tree's leaves (the one-ply `heuristic` keeps 0.3).

In-process, 200 games a setting from the shipped book at 100 ms against `heuristic`:
weight 0 scored 69%, 0.3 (the old weight) 78.5%, 1.0 83.5%, 1.5 82%, 2.0 83%, 3.0 80%,
5.0 79%. Through the referee against the old search (0.3), shipped book,
st=0.1: SPRT H1 after 159 games, 61.0%. (Sharper priors, PRIOR_SCALE 1.5, did
as well on the book but lost the start position to `heuristic` as one colour.)
The `heuristic` partner keeps 0.3: it is a yardstick, not tuned along with the search."""
REMOVAL_PRIOR_DECAY = 0.8
"""Prior of the i-th removal candidate (best guess first) is proportional to this ** i."""


def moves_left(game: IsaacGame) -> int:
    """Rough count of the moves the side to move still makes (for the clock)."""
    me = game.turn
    if game.phase is Phase.PLACE:
        return sum(game.hand(me)) // 2 + len(game.pieces(me)) // 2 + 8
    return max(1, len(game.pieces(me)) // 2 + 1)


def evaluate(game: IsaacGame) -> float:
    """Static evaluation in points for the side to move (phase-specific)."""
    snap = K.Snapshot(game)
    if snap.scoring:
        return K.scoring_eval(game, snap)
    return K.placement_eval(game, snap, SEARCH_W_POT)


def terminal_points(game: IsaacGame, ply: int) -> float:
    """A finished game in points for the side to move, quicker wins scoring higher."""
    result = game.result()
    assert result is not None, "only finished games are valued this way"
    if result.winner is None:
        return 0.0
    won = result.winner == game.turn
    return (K.WIN_EVAL - ply) if won else -(K.WIN_EVAL - ply)


class IsaacKnowledge:
    """The MCTS view of ISAAC: priors from the move-ordering guess, leaves by static evaluation."""

    uses_playouts = False

    def candidates(self, game: IsaacGame) -> list[tuple[Move, float]]:
        if game.phase is Phase.SCORE:
            moves = K.removal_candidates(game, wide=True)
            if not moves:
                return [(PASS, 1.0)]
            return [(m, REMOVAL_PRIOR_DECAY ** i) for i, m in enumerate(moves)]
        scored = K.placement_candidates(game)
        top = scored[0][1]
        return [(m, math.exp((s - top) / PRIOR_SCALE)) for m, s in scored]

    def leaf_value(self, game: IsaacGame, rng: random.Random, ctx: SearchContext) -> float:
        return logistic(evaluate(game) / POINT_SCALE)

    def terminal_value(self, game: IsaacGame, color: int) -> float:
        result = game.result()
        assert result is not None, "only finished games are valued this way"
        if result.winner is None:
            return 0.5
        return 1.0 if result.winner == color else 0.0


def _ab_candidates(game: IsaacGame, ply: int) -> Sequence[Move]:
    if game.phase is Phase.SCORE:
        return K.removal_candidates(game, wide=ply <= 1) or [PASS]
    return [m for m, _ in K.placement_candidates(game)]


def _info(result: ABResult) -> Info:
    p = logistic(result.value / POINT_SCALE)
    return Info(depth=result.depth, score_cp=win_probability_to_cp(p), pv=[str(m) for m in result.pv])


def choose_scoring(game: IsaacGame, ctx: SearchContext, rng: random.Random) -> tuple[Move, Info]:
    """Iterative-deepening alpha-beta over the worthwhile removals."""
    moves = K.removal_candidates(game, wide=True)
    if not moves:
        return PASS, Info(depth=0)
    if len(moves) == 1:
        return moves[0], Info(depth=1, pv=[str(moves[0])])
    ab = AlphaBeta(ctx, _ab_candidates, evaluate, terminal_points, K.WIN_EVAL)
    last: dict[str, Info | None] = {"info": None}

    def on_depth(res: ABResult) -> None:
        last["info"] = _info(res)
        ctx.maybe_report()

    ctx.snapshot = lambda: last["info"]
    result = ab.iterate(game, moves, ctx.tm.depth_limit or 64, on_depth)
    return result.move, _info(result)


def choose(game: Game, ctx: SearchContext, rng: random.Random) -> tuple[Move, Info | None]:
    assert isinstance(game, IsaacGame)
    if game.phase is Phase.SCORE:
        return choose_scoring(game, ctx, rng)
    knowledge = IsaacKnowledge()
    chosen: tuple[Move, Info | None] = run_mcts(game, knowledge, ctx, rng, knowledge.candidates(game))
    return chosen
