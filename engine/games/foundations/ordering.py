"""FOUNDATIONS move ordering: every legal placement with a guess of its worth, turned into priors.

The guess prefers, for a placement: a short piece first (a long piece early ends
the level's sequence), a snug fit (few free neighbours, no cells left that nothing
can use), and taking placements away from the opponent. Every move gets the cheap
guess (length, value, snugness); the best few of the root's also pay for the cells
they leave useless and earn for the room they take from the opponent's next piece.
Inner tree nodes get the cheap guess alone, from the C core where it was built.
"""

from __future__ import annotations

import math
from operator import itemgetter

from engine.games.packing import NEIGHBOURS, dead_cells
from engine.search.mcts import Scored
from protocol.board import LENGTHS, VALUE, Segment, count_placements, segments_from_starts
from protocol.games.foundations.rules import FoundationsGame
from protocol.moves import PASS, Move, Place

from . import search_core


def candidate_moves(game: FoundationsGame, temperature: float, refined: int = 0, keep: int | None = None) -> Scored:
    """Every legal move with a prior weight (softmax of the guess at `temperature`), best first.

    The best `refined` of them also get the costlier terms (dead cells, the opponent's lost
    room). `keep` (with refined 0: the quick guesses of inner nodes) returns just the best
    `keep`, building no Move for the others, in the C core where it was built.
    """
    quick = refined == 0
    if quick and keep is not None and search_core.AVAILABLE:
        return search_core.ordered_moves(game, keep, temperature)  # the same, in C
    scored = cheap_guesses(game)
    scored.sort(key=itemgetter(0), reverse=True)  # stable: ties keep the rules' order
    if quick and keep is not None:
        del scored[keep:]
    if not scored:
        return [(PASS, 1.0)]
    entries: list[tuple[float, Move]] = [(score, Place(seg, level)) for score, seg, level in scored]
    if not quick:
        level = scored[0][2]  # every legal placement is on one level
        best = _refine(game, entries[:refined], {level: game.free_cells(level)})
        worst = min(score for score, _ in best)
        entries = best + [(min(score, worst - 0.01), m) for score, m in entries[refined:]]
        entries.sort(key=lambda kv: -kv[0])
    top = entries[0][0]
    return [(m, math.exp((s - top) / temperature)) for s, m in entries]


def cheap_guesses(game: FoundationsGame) -> list[tuple[float, Segment, int]]:
    """(score, segment, level) of every legal placement, in the rules' order (``placement_groups``):
    a short piece first (a long one ends the level's run), high value, few free neighbours."""
    scored: list[tuple[float, Segment, int]] = []
    shortest = None
    free = 0
    for level, n, h, v in game.placement_groups():
        if shortest is None:
            shortest = n
            free = game.free_cells(level)
        base = -0.7 * (n - shortest) + 0.35 * VALUE[n]
        for seg in segments_from_starts(h, v, n):
            scored.append((base - 0.25 * (NEIGHBOURS[seg.index] & free).bit_count(), seg, level))
    return scored


def _refine(game: FoundationsGame, entries: list[tuple[float, Move]],
            free_by_level: dict[int, int]) -> list[tuple[float, Move]]:
    """`entries` with the costlier terms added to their guesses."""
    opp = 1 - game.turn
    opp_hand = game.hand(opp)
    opp_level = game.level(opp)
    opp_next = [n for n in LENGTHS if opp_hand[n] and n >= game.min_length(opp)][:1]
    opp_alive = opp not in game.passes and opp_next
    opp_free = game.free_cells(opp_level) if opp_alive else 0
    opp_room = count_placements(opp_free, opp_next) if opp_alive else 0
    out: list[tuple[float, Move]] = []
    for score, m in entries:
        assert isinstance(m, Place)
        seg = m.segment
        after = free_by_level[m.level] & ~seg.mask
        score -= 0.15 * dead_cells(after, 3)
        if opp_alive and opp_level == m.level and opp_free & seg.mask:
            # Taking the opponent's room for its next piece.
            score += 0.02 * (opp_room - count_placements(opp_free & ~seg.mask, opp_next))
        out.append((score, m))
    return out
