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
opponent. A leaf's value is half a static model of what playouts return
(engine/search/foundations_value.py: which of each side's pieces still fit, and
how much room they have) and half one playout in which both sides follow a cheap
version of the same policy to the end of the game; a game end's value blends
win/draw/loss with the margin of hand values.
"""

from __future__ import annotations

import math
import random
from operator import itemgetter
from typing import Any

from protocol.board import LENGTHS, VALUE, count_placements, hand_value, segments_from_starts
from protocol.game import uniform_index
from protocol.messages import Info
from protocol.moves import PASS, Move, Place

from . import foundations_native
from .context import SearchContext, logistic
from .foundations_playout import play_out
from .foundations_value import model_value
from .mcts import INNER_MAX_CHILDREN, PlayoutKnowledge, Scored, run_mcts
from .space import NEIGHBOURS, dead_cells

PLAYOUT_PLIES = 40
NATIVE = True
"""Value leaves and order inner nodes' moves in the C core (foundations_native) where it was
built; False: in Python."""
LEAF_MIX = 0.5
"""A leaf's value: this share from the static model (foundations_value.model_value), the rest
from one playout. In-process against the playouts alone (100 ms, shipped book, 400 games each):
0.5 scored 53.9% (+-4.1, --offset 44300), the model alone (1.0) 53.1% (+-4.4, --offset 44100),
and a playout of 6 plies then the model 52.0% (+-4.4, --offset 44500). Through the referee
(shipped book, st=0.1) the SPRT [0, 20] of 0.5 against 0 accepted H1 after 823 games: 53.9%,
pair-based Elo +27 (+6, +48). The model alone (1.0) against 0.5 in-process afterwards: 52.5%
(+-4.6, 400 games, --offset 44700), not clearly better."""
FPU_REDUCTION = 0.08
"""An unvisited move's value: its parent's minus this (mcts.FPU_REDUCTION, 0.2, for the other games)."""
WIDEN_FACTOR = 2.5
"""Progressive widening: an inner node's moves in play grow as 3 + this x sqrt(visits) (mcts: 1.5).
In-process (100 ms, shipped book, 400 games each, against 0.2 and 1.5): FPU reduction 0.08 scored 56.9%
(+-4.6, --offset 49000) and 0.35 45.1% (48000); widening 2.5 53.4% (+-4.2, 48500) and 1.0 47.1% (49500);
both 0.08 and 2.5 61.8% (+-4.0, 50000); 0.0 alone 57.4% (+-4.5, 50500), no better than 0.08;
after it, widening 4.0 against 2.5 48.4% (+-4.6, 51500) and C_PUCT 1.0 against 1.4 48.2% (+-4.5, 52000). Both let the
search try more of a node's moves sooner. Through the referee (shipped book, st=0.1) the SPRT [0, 20] of
0.08 and 2.5 against 0.2 and 1.5 accepted H1 after 493 games: 56.0%, pair-based Elo +43 (+14, +72)."""
PRIOR_TEMPERATURE = 1.0
MARGIN_SCALE = 8.0
WDL_WEIGHT = 0.95
"""Share of win/draw/loss in a game end's value (the rest: the hand-value margin). Wins are
what a match counts, and most games between good players end with both hands empty, decided
by the tiebreak at margin 0: in-process against flatmc (100 ms, book, 400 games each) 0.95
scored 85.4% and 1.0 84.3%, against 82.9% for 0.7 and 79.8% (200) for 0.5."""
PARTNER_WDL_WEIGHT = 0.7
"""The `flatmc` sparring partner's share (engine.strategies.flat_mc), kept as it was measured."""


def moves_left(game: Any) -> int:
    """Moves the side to move still makes, for the clock: one a piece, most pieces get placed."""
    return max(1, int(round(0.8 * sum(game.hand(game.turn)))) + 1)


def terminal_value(game: Any, color: int, wdl_weight: float | None = None) -> float:
    """1/0.5/0 blended with the hand-value margin, for `color` (the search's value of a game end;
    `wdl_weight` defaults to WDL_WEIGHT)."""
    result = game.result()
    return end_value(result.winner, result.scores, color, wdl_weight)


def end_value(winner: int | None, scores: tuple[int, int], color: int, wdl_weight: float | None = None) -> float:
    """terminal_value from a game end's winner and (Dark, Light) hand values."""
    share = WDL_WEIGHT if wdl_weight is None else wdl_weight
    margin = scores[1 - color] - scores[color]  # lower hand value is better
    wdl = 0.5 if winner is None else (1.0 if winner == color else 0.0)
    return share * wdl + (1 - share) * (0.5 + 0.5 * math.tanh(margin / MARGIN_SCALE))


REFINED = 16
"""Moves per node whose guess also counts dead cells and the opponent's lost room. Tried
2026-11-25 and not kept: these 16 also paid for by how much they shrink the opponent's
placements on its level and on the next (log(1 + count) before minus after, weights 1.5 and 4.0,
the direction a fit to 1 s searches' root visits gave): 47.5% (+-4.4) in-process against the
search without it (100 ms, shipped book, 400 games, --offset 45100)."""


QUICK_INNER = True
"""Inner tree nodes skip the refined guesses (cheaper expansions, more simulations)."""


def candidate_moves(game: Any, quick: bool = False, keep: int | None = None) -> Scored:
    """Every legal move with a prior weight (softmax of a heuristic score), best first.

    All moves get the cheap guess (length, value, snugness); unless `quick`, the best
    REFINED of them also pay for the cells they leave useless and earn for the room they
    take from the opponent's next piece. `keep` (quick guesses only) returns just the best
    `keep`, building no Move for the others (the tree keeps only that many at inner nodes).
    """
    if quick and keep is not None and NATIVE and foundations_native.AVAILABLE:
        return foundations_native.ordered_moves(game, keep, PRIOR_TEMPERATURE)  # the same, in C
    scored = _cheap_guesses(game)
    scored.sort(key=itemgetter(0), reverse=True)  # stable: ties keep the rules' order
    if quick and keep is not None:
        del scored[keep:]
    if not scored:
        return [(PASS, 1.0)]
    entries: list[list[Any]] = [[score, Place(seg, level)] for score, seg, level in scored]
    if not quick:
        level = scored[0][2]  # every legal placement is on one level
        _refine(game, entries[:REFINED], {level: game.free_cells(level)})
        worst = min(kv[0] for kv in entries[:REFINED])
        for kv in entries[REFINED:]:
            kv[0] = min(kv[0], worst - 0.01)
        entries.sort(key=lambda kv: -kv[0])
    top = entries[0][0]
    return [(m, math.exp((s - top) / PRIOR_TEMPERATURE)) for s, m in entries]


def _cheap_guesses(game: Any) -> list[tuple[float, Any, int]]:
    """(score, segment, level) of every legal placement, in the rules' order (``placement_groups``):
    a short piece first (a long one ends the level's run), high value, few free neighbours."""
    scored: list[tuple[float, Any, int]] = []
    shortest = None
    for level, n, h, v in game.placement_groups():
        if shortest is None:
            shortest = n
            free = game.free_cells(level)
        base = -0.7 * (n - shortest) + 0.35 * VALUE[n]
        for seg in segments_from_starts(h, v, n):
            scored.append((base - 0.25 * (NEIGHBOURS[seg.index] & free).bit_count(), seg, level))
    return scored


def _refine(game: Any, entries: list[list[Any]], free_by_level: dict[int, int]) -> None:
    """Add the costlier terms to the guesses in `entries` ([score, move] lists, updated in place)."""
    opp = 1 - game.turn
    opp_hand = game.hand(opp)
    opp_level = game.level(opp)
    opp_next = [n for n in LENGTHS if opp_hand[n] and n >= game.min_length(opp)][:1]
    opp_alive = opp not in game.passes and opp_next
    opp_free = game.free_cells(opp_level) if opp_alive else 0
    opp_room = count_placements(opp_free, opp_next) if opp_alive else 0
    for entry in entries:
        m = entry[1]
        seg = m.segment
        after = free_by_level[m.level] & ~seg.mask
        entry[0] -= 0.15 * dead_cells(after, 3)
        if opp_alive and opp_level == m.level and opp_free & seg.mask:
            # Taking the opponent's room for its next piece.
            entry[0] += 0.02 * (opp_room - count_placements(opp_free & ~seg.mask, opp_next))


DEVIATE = 0.2
"""Share of playout moves that play some other allowed length than the shortest. In-process
against 0.2 (100 ms, book, 400 games each, --offset 14000): 0.1 scored 53.1% (+-4.4), 0.35 42.0%
(+-4.1)."""
PLAYOUT_SAMPLE = 2
"""Placements drawn per playout move; the snuggest is played."""
PARTNER_SAMPLE = 12
"""The sample of the `flatmc` sparring partner's playouts (engine.strategies.flat_mc), kept
as it was measured: a yardstick is not tuned along with the search."""


def playout_move(game: Any, rng: random.Random, sample: int | None = None) -> Any:
    """A cheap policy move: usually the shortest allowed piece, snugly placed.

    DEVIATE of the time the length (and level) of a uniformly drawn legal placement
    instead; the spot is the snuggest of at most `sample` (default PLAYOUT_SAMPLE) drawn
    placements of that length. A small sample plays better: in-process, 200 games each
    against a sample of 12 (100 ms, book), samples of 1, 2 and 4 scored 56.8%, 57.5% and
    55.0%, so snugness matters less than varied playouts.

    Built from the rules' start bitboards (``shortest_group``, and ``placement_groups``
    when deviating): only the chosen placement becomes a Move."""
    first = game.shortest_group()
    if first is None:
        return None if game.is_over() else PASS
    group = first
    if rng.random() < DEVIATE:
        every = list(game.placement_groups())
        pick = uniform_index(rng, [h.bit_count() + v.bit_count() for _, _, h, v in every])
        assert pick is not None  # `first` holds at least one placement
        group = every[pick[0]]
    level, n, h, v = group
    free = game.free_cells(level)
    spots = list(segments_from_starts(h, v, n))
    size = PLAYOUT_SAMPLE if sample is None else sample
    drawn = spots if len(spots) <= size else rng.sample(spots, size)
    best, best_key = drawn[0], 1e9
    for seg in drawn:
        key = (NEIGHBOURS[seg.index] & free).bit_count() + rng.random()
        if key < best_key:
            best, best_key = seg, key
    return Place(best, level)


class FoundationsKnowledge(PlayoutKnowledge):
    playout_plies = PLAYOUT_PLIES

    @property
    def fpu_reduction(self) -> float:
        return FPU_REDUCTION

    @property
    def widen_factor(self) -> float:
        return WIDEN_FACTOR

    def candidates(self, game: Any) -> Scored:
        return candidate_moves(game, quick=QUICK_INNER, keep=INNER_MAX_CHILDREN)

    def terminal_value(self, game: Any, color: int) -> float:
        return terminal_value(game, color)

    def playout_move(self, game: Any, rng: random.Random) -> Move:
        move: Move = playout_move(game, rng)
        return move

    def leaf_value(self, game: Any, rng: random.Random, ctx: SearchContext) -> float:
        """LEAF_MIX x the static model (foundations_value) + the rest x one playout (this
        module's playout_move policy). Both in the C core where it was built (about 17 us a
        leaf); else the playout on a scratch copy by foundations_playout (about 210 us, 165
        on the game itself)."""
        me = game.turn
        if game.is_over():
            return terminal_value(game, me)
        if NATIVE and foundations_native.AVAILABLE:
            if LEAF_MIX >= 1:
                return foundations_native.model(game)
            leaf = foundations_native.leaf(game, rng, self.playout_plies, DEVIATE, PLAYOUT_SAMPLE)
            ctx.tm.nodes += leaf.plies
            if leaf.over:
                played = end_value(leaf.winner, leaf.scores, me)
            else:
                played = margin_value(leaf.scores[me], leaf.scores[1 - me])
            return LEAF_MIX * leaf.model + (1 - LEAF_MIX) * played
        scratch = game.scratch()
        model = model_value(scratch) if LEAF_MIX > 0 else 0.0  # read before the playout moves it on
        if LEAF_MIX >= 1:
            return model
        ctx.tm.nodes += play_out(scratch, rng, self.playout_plies, ctx.tm, DEVIATE, PLAYOUT_SAMPLE)
        if scratch.is_over():
            scores = scratch.hand_value(0), scratch.hand_value(1)
            played = end_value(scratch.winner(), scores, me)
        else:
            played = margin_value(scratch.hand_value(me), scratch.hand_value(1 - me))
        return LEAF_MIX * model + (1 - LEAF_MIX) * played

    def static_value(self, game: Any, color: int) -> float:
        return static_value(game, color)


def static_value(game: Any, color: int) -> float:
    """Win chance for `color` from the hand values alone (used when a playout is cut short)."""
    return margin_value(hand_value(game.hand(color)), hand_value(game.hand(1 - color)))


def margin_value(mine: int, theirs: int) -> float:
    """Win chance from the two hand values (lower is better), for static_value and the fast playout."""
    return logistic((theirs - mine) / MARGIN_SCALE)


def choose(game: Any, ctx: SearchContext, rng: random.Random) -> tuple[Move, Info]:
    return run_mcts(game, FoundationsKnowledge(), ctx, rng, candidate_moves(game))
