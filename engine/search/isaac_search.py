"""ISAAC move choice: PUCT MCTS in the placement phase, alpha-beta in the scoring phase.

Placement (up to 600 moves a turn, about 25 turns to the scoring phase): MCTS
with progressive widening; priors from the placement guess of
isaac_knowledge (what a piece adds to the lines it touches). A leaf is valued
by placing on to the end of the placement phase (each side the longest of a
few random placements) and judging the scoring phase's start: the scoring
evaluation, with SCORING_TEMPO for the side that removes first. Who starts
the scoring phase is decided by the parity of the pieces placed, which a
static look at a placement position cannot see: in 1,000 games against
`heuristic` (main 0eec628, book, st=0.1) the search won 95% of the games in
which it removed first and 68% of the others (most of both within 10 points
of level by the static evaluation there). Once the tree itself reaches the
scoring phase the scoring evaluation takes over.

Scoring (a handful of worthwhile removals each turn, a race to 100):
iterative-deepening alpha-beta on the removal candidates (full score, blocks,
multiplier set-ups), exact at game ends, static evaluation at the horizon, with
a transposition table (alphabeta.py) keyed by IsaacGame.scoring_key: about 2.5x
fewer nodes to depth 6 on 60 scoring-phase starts, a ply deeper in 500 ms.

Measured and not kept (in-process, 100 ms, shipped book, 2026-11-25): placement
leaves valued by playing the scoring phase out greedily (each side the removal
with the highest new score) instead of the scoring evaluation at its start:
27.5% over 200 games against this search. The greedy race ignores blocks and
multipliers, which decide the scoring phase. Leaves valued by the mover's best
first removal (each judged by the scoring evaluation): 37.0% over 200.
Measured and not kept (2026-11-27): the placement playouts and the inner nodes' ordering
guesses in a C core (as FOUNDATIONS' leaves are; the same policy and scores, tested), about
twice the simulations in 100 ms: through the referee against this search (shipped book,
st=0.1, SPRT [0, 20], --seed 521) 135-141 after 276 games, pair-based Elo -7.5 (-47.6,
+32.3), stopped. ISAAC's placement search is not short of simulations (an earlier speed-up
of its playouts also scored 49.9% over 1,106 games against the search before it, README).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from protocol.game import Game
from protocol.isaac import IsaacGame
from protocol.messages import Info
from protocol.moves import PASS, Move, Place
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
"""Weight of potential in `evaluate` on a placement position (the one-ply `heuristic` keeps 0.3).

Until 451bb22 this valued the tree's placement leaves; those are now played on to the
scoring phase (placement_playout_value), and `evaluate` on a placement position only
values the `flatmc` partner's playouts cut short. The measurements that chose it:

In-process, 200 games a setting from the shipped book at 100 ms against `heuristic`:
weight 0 scored 69%, 0.3 (the old weight) 78.5%, 1.0 83.5%, 1.5 82%, 2.0 83%, 3.0 80%,
5.0 79%. Through the referee against the old search (0.3), shipped book,
st=0.1: SPRT H1 after 159 games, 61.0%. (Sharper priors, PRIOR_SCALE 1.5, did
as well on the book but lost the start position to `heuristic` as one colour.)
The `heuristic` partner keeps 0.3: it is a yardstick, not tuned along with the search."""
SCORING_TEMPO = 8.0
"""Evaluation points for removing first in the scoring phase (a race to 100), while both still remove.

In-process against `heuristic`, shipped book, 100 ms, 400 games each: leaves valued by a
static look at the placement position 84.0%; by placing on to the scoring phase, tempo 0
83.5% (200 games), tempo 8 89.0%. (Search only: the partners keep the tempo-free evaluation.)"""
PLAYOUT_SAMPLE = 3
"""A playout's placement is the longest of this many uniformly drawn legal placements
(value on the board is what scores; long pieces first, but not always the same spots).
In-process against 3, shipped book, 100 ms, 200 games each (2026-11-25): 2 scored 50.0%,
5 55.5% and 49.5% (two runs), 8 46.5%."""
REMOVAL_PRIOR_DECAY = 0.8
"""Prior of the i-th removal candidate (best guess first) is proportional to this ** i."""


def moves_left(game: IsaacGame) -> int:
    """Rough count of the moves the side to move still makes (for the clock)."""
    me = game.turn
    if game.phase is Phase.PLACE:
        return sum(game.hand(me)) // 2 + len(game.pieces(me)) // 2 + 8
    return max(1, len(game.pieces(me)) // 2 + 1)


def evaluate(game: IsaacGame, tempo: float = 0.0) -> float:
    """Static evaluation in points for the side to move (phase-specific); `tempo` for moving
    first in the scoring phase (the search uses SCORING_TEMPO, the partners none)."""
    snap = K.Snapshot(game)
    if snap.scoring:
        return K.scoring_eval(game, snap, tempo)
    return K.placement_eval(game, snap, SEARCH_W_POT)


def search_evaluate(game: IsaacGame) -> float:
    """The search's evaluation: `evaluate` with SCORING_TEMPO."""
    return evaluate(game, SCORING_TEMPO)


def playout_placement(game: IsaacGame, rng: random.Random) -> Move:
    """The longest of PLAYOUT_SAMPLE uniformly drawn legal placements, the first drawn of
    equal ones (a pass when none fits)."""
    best: Place | None = None
    for move in game.random_placements(rng, PLAYOUT_SAMPLE):
        if not isinstance(move, Place):
            return PASS
        if best is None or move.segment.length > best.segment.length:
            best = move
    assert best is not None  # PLAYOUT_SAMPLE >= 1
    return best


def placement_playout_value(game: IsaacGame, rng: random.Random, ctx: SearchContext) -> float:
    """Win chance of the side to move: place on to the scoring phase's start (playout_placement
    for both sides), then the search's evaluation there (where it stands, if told to stop).
    The game is restored."""
    me = game.turn
    pushed = 0
    try:
        while game.phase is Phase.PLACE:  # the placement phase never ends the game
            game.push(playout_placement(game, rng))
            pushed += 1
            ctx.tm.nodes += 1
            if ctx.tm.stopped():  # unwind at once: judged where it stands
                break
        p = logistic(search_evaluate(game) / POINT_SCALE)
        return p if game.turn == me else 1.0 - p
    finally:
        for _ in range(pushed):
            game.pop()


def terminal_points(game: IsaacGame, ply: int) -> float:
    """A finished game in points for the side to move, quicker wins scoring higher."""
    result = game.result()
    assert result is not None, "only finished games are valued this way"
    if result.winner is None:
        return 0.0
    won = result.winner == game.turn
    return (K.WIN_EVAL - ply) if won else -(K.WIN_EVAL - ply)


class IsaacKnowledge:
    """The MCTS view of ISAAC: priors from the move-ordering guess; leaves by a playout to the
    scoring phase (placement) or the scoring evaluation."""

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
        if game.phase is Phase.PLACE:
            return placement_playout_value(game, rng, ctx)
        return logistic(search_evaluate(game) / POINT_SCALE)

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
    ab = AlphaBeta(ctx, _ab_candidates, search_evaluate, terminal_points, K.WIN_EVAL, key=IsaacGame.scoring_key)
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
