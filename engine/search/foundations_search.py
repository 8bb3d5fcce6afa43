"""FOUNDATIONS move choice: MCTS (engine/search/mcts.py) with knowledge of the game.

What matters in FOUNDATIONS is getting rid of value: every piece placed lowers
the hand, the long pieces most. A level takes pieces in non-decreasing
length, so the order of plays decides what still fits: the short pieces fill
gaps, the long ones need long runs (level 1) or two own supports the right
distance apart (upper levels), and a bridge on level 2 also takes the cells
under it away from everybody.

Priors (move ordering) prefer, for a placement: a short piece first (a long
piece early ends the level's sequence), a snug fit (few free neighbours, no
cells left that nothing can use), and taking placements away from the
opponent. Leaves are valued by playouts in which both sides follow a cheap
version of the same policy to the end of the game; the value blends
win/draw/loss with the margin of hand values.
"""

from __future__ import annotations

import math

from protocol.board import ALL_CELLS, DARK, LENGTHS, VALUE, count_placements, hand_value
from protocol.moves import PASS

from .context import logistic
from .mcts import MCTS
from .space import NEIGHBOURS, dead_cells, free_neighbours

PLAYOUT_PLIES = 40
PRIOR_TEMPERATURE = 1.0
MARGIN_SCALE = 8.0
WDL_WEIGHT = 0.7


def moves_left(game) -> int:
    return max(1, sum(game.hand(game.turn)) // 2 + 1)


def terminal_value(game, color: int) -> float:
    """1/0.5/0 blended with the hand-value margin, for `color` (the search's value of a game end)."""
    result = game.result()
    scores = result.scores
    margin = scores[1 - color] - scores[color]  # lower hand value is better
    wdl = 0.5 if result.winner is None else (1.0 if result.winner == color else 0.0)
    return WDL_WEIGHT * wdl + (1 - WDL_WEIGHT) * (0.5 + 0.5 * math.tanh(margin / MARGIN_SCALE))


class Levels:
    """Occupancy per level (index 1..) rebuilt from the public pieces() lists."""

    __slots__ = ("occ", "top")

    def __init__(self, game):
        occ = [0] * 12
        top = 1
        for color in (0, 1):
            for seg, level in game.pieces(color):
                occ[level] |= seg.mask
                if level > top:
                    top = level
        self.occ = occ
        self.top = top

    def free(self, level: int) -> int:
        """Cells a piece on `level` could use: empty there, under no higher piece."""
        blocked = 0
        for k in range(level, min(len(self.occ), self.top + 2)):
            blocked |= self.occ[k]
        return ALL_CELLS & ~blocked


def move_scores(game) -> list[tuple[object, float]]:
    """Every legal move with a prior weight (softmax of a heuristic score)."""
    moves = list(game.legal_moves())
    if not moves or moves[0] is PASS:
        return [(PASS, 1.0)]
    levels = Levels(game)
    me = game.turn
    opp = 1 - me
    shortest = min(m.segment.length for m in moves)
    opp_hand = game.hand(opp)
    opp_level = game.level(opp)
    opp_lengths = [n for n in LENGTHS if opp_hand[n] and n >= game.min_length(opp)]
    opp_free = levels.free(opp_level) if opp not in game.passes else 0
    free_cache: dict[int, int] = {}
    scored = []
    for m in moves:
        seg, level = m.segment, m.level
        free = free_cache.get(level)
        if free is None:
            free = free_cache[level] = levels.free(level)
        after = free & ~seg.mask
        score = -0.7 * (seg.length - shortest) + 0.35 * VALUE[seg.length]
        score -= 0.25 * free_neighbours(seg, free)
        score -= 0.15 * dead_cells(after, 3)
        if opp_lengths and opp_level == level and opp_free:
            # Taking the opponent's room for its next pieces.
            score += 0.02 * (count_placements(opp_free, opp_lengths[:1])
                             - count_placements(opp_free & ~seg.mask, opp_lengths[:1]))
        scored.append((m, score))
    top = max(s for _, s in scored)
    out = [(m, math.exp((s - top) / PRIOR_TEMPERATURE)) for m, s in scored]
    out.sort(key=lambda kv: -kv[1])
    return out


def playout_move(game, rng):
    """A cheap policy move: usually the shortest allowed piece, snugly placed."""
    it = game.legal_moves()
    first = next(it, None)
    if first is None or first is PASS:
        return first
    group = [first]
    other = []
    for m in it:
        if m.segment.length == first.segment.length and m.level == first.level:
            group.append(m)
        else:
            other.append(m)
    if other and rng.random() < 0.2:
        group = [m for m in other if m.segment.length == other[0].segment.length]
        if rng.random() < 0.5:
            pick = rng.choice(other)
            group = [m for m in other if m.segment.length == pick.segment.length and m.level == pick.level]
    levels = None
    best, best_key = None, 1e9
    sample = group if len(group) <= 12 else rng.sample(group, 12)
    for m in sample:
        if levels is None:
            levels = Levels(game)
            free = levels.free(m.level)
        key = (NEIGHBOURS[m.segment.index] & free).bit_count() + rng.random()
        if key < best_key:
            best, best_key = m, key
    return best


class FoundationsKnowledge:
    def candidates(self, game):
        return move_scores(game)

    def terminal_value(self, game, color):
        return terminal_value(game, color)

    def leaf_value(self, game, rng, ctx):
        """Play both sides to the end with the cheap policy; value for the side to move now."""
        me = game.turn
        pushed = 0
        try:
            while not game.is_over() and pushed < PLAYOUT_PLIES:
                move = playout_move(game, rng)
                game.push(move)
                pushed += 1
                ctx.tm.nodes += 1
                if ctx.tm.stopped():
                    break
            if game.is_over():
                return terminal_value(game, me)
            return static_value(game, me)
        finally:
            for _ in range(pushed):
                game.pop()


def static_value(game, color: int) -> float:
    """Win chance for `color` from the hand values alone (used when a playout is cut short)."""
    margin = hand_value(game.hand(1 - color)) - hand_value(game.hand(color))
    return logistic(margin / MARGIN_SCALE)


def choose(game, ctx, rng):
    root_moves = move_scores(game)
    if len(root_moves) == 1:
        return root_moves[0][0], None
    tree = MCTS(game, FoundationsKnowledge(), ctx, rng, root_moves=root_moves)
    tm = ctx.tm

    def should_stop() -> bool:
        if tm.soft_expired():
            return True
        if tm.depth_limit is not None and len(tree.principal_variation()) >= tm.depth_limit:
            return True
        return False

    tree.run(should_stop)
    return tree.best_move(), tree.info()
