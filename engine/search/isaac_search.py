"""ISAAC move choice: alpha-beta in the scoring phase, evaluation-guided search in placement."""

from __future__ import annotations

from protocol.messages import Info
from protocol.moves import PASS

from . import isaac_knowledge as K
from .alphabeta import AlphaBeta, ABResult
from .context import logistic, win_probability_to_cp

POINT_SCALE = 12.0
"""Evaluation points per logistic unit: a 12-point lead is a ~73% expected score."""


def moves_left(game) -> int:
    """Rough count of the moves the side to move still makes (for the clock)."""
    me = game.turn
    if game.phase == "place":
        return sum(game.hand(me)) // 2 + len(game.pieces(me)) // 2 + 8
    return max(1, len(game.pieces(me)) // 2 + 1)


def terminal_value(game, ply: int) -> float:
    result = game.result()
    if result.winner is None:
        return 0.0
    won = result.winner == game.turn
    return (K.WIN_EVAL - ply) if won else -(K.WIN_EVAL - ply)


def evaluate(game) -> float:
    snap = K.Snapshot(game)
    if snap.scoring:
        return K.scoring_eval(game, snap)
    return K.placement_eval(game, snap)


def candidates(game, ply: int) -> list:
    if game.phase == "score":
        moves = K.removal_candidates(game, wide=ply <= 1)
        return moves or [PASS]
    return [m for m, _ in K.placement_candidates(game)]


def info_from(result: ABResult, depth: int) -> Info:
    p = logistic(result.value / POINT_SCALE)
    return Info(depth=depth, score_cp=win_probability_to_cp(p),
                pv=[str(m) for m in result.pv])


def choose_scoring(game, ctx, rng):
    """Iterative-deepening alpha-beta over the worthwhile removals."""
    moves = K.removal_candidates(game, wide=True)
    if not moves:
        return PASS, Info(depth=0)
    if len(moves) == 1:
        return moves[0], Info(depth=1, pv=[str(moves[0])])
    ab = AlphaBeta(ctx, candidates, evaluate, terminal_value, K.WIN_EVAL)
    last = {"info": None}

    def on_depth(res: ABResult) -> None:
        last["info"] = info_from(res, res.depth)
        ctx.maybe_report()

    ctx.snapshot = lambda: last["info"]
    max_depth = ctx.tm.depth_limit or 64
    result = ab.iterate(game, moves, max_depth, on_depth)
    return result.move, info_from(result, result.depth)


def choose_placement(game, ctx, rng):
    """One ply: every legal placement scored by the static evaluation (placeholder)."""
    best, best_value = None, -K.WIN_EVAL * 2
    mover = game.turn
    for move, _ in K.placement_candidates(game):
        if move is PASS:
            return PASS, Info(depth=0)
        game.push(move)
        ctx.tm.nodes += 1
        value = evaluate(game)
        if game.turn != mover:
            value = -value
        game.pop()
        if value > best_value:
            best, best_value = move, value
    return best, Info(depth=1, score_cp=win_probability_to_cp(logistic(best_value / POINT_SCALE)),
                      pv=[str(best)])


def choose(game, ctx, rng):
    if game.phase == "score":
        return choose_scoring(game, ctx, rng)
    return choose_placement(game, ctx, rng)
