"""HARI evaluation that knows contested space, and the candidate moves the alpha-beta search tries.

The board holds 100 cells and the two hands need 130: what decides HARI is
which of each side's remaining pieces still find room, and both sides take
room from the same cells. ``contest_margin`` plays that contest out cheaply:
from the position, the side to move first, each side in turn puts its next
playable piece (shortest first, the rules' ascending order) on its snuggest
spot in the cells still empty; a piece that no longer fits is skipped (it will
be discarded). The margin of board value at the end of that race is the
evaluation. It is a deterministic playout without slides, about 0.1 ms.

The end-game alpha-beta (hari_search.choose_endgame) races with ``upgrades``: a
piece that fits nowhere may first slide one own piece (``room_by_one_slide``),
along its line, or off the board when the piece played is worth more. HARI's
end game is mostly such upgrades, and a race that only skips there misjudges
it: in-process (100 ms, shipped book) the end game with upgrades scored 63.7%
and 61.8% (400 games each) against the same search without them. The
`heuristic` partner's race has no upgrades.

How good a judge the race is (2026-11-27, 2,378 end-game positions solved exactly by the
alpha-beta over its candidates): its sign gives the result (win, draw, loss) 96% of the time
with 3 plays left, 74% with 4, 65% with 5, 56% with 6. Tried and not kept as the end game's
leaf value (in-process, 100 ms, shipped book, 400 games each, against the race, all in Python):
a logistic model fitted to those results (the race with either side first, board and hand
margins; 67% right on held-out positions where the race is 60%): 43.2%, and its linear score
45.5%; the race averaged over both first movers: 42.0% (twice the cost for the same depth).
Races that place a piece where the side's next piece keeps the most room are right 1 to 4
points more often; not tried in play. What paid was depth: the same search in C (hari_native).

Measured (in-process, 100 ms a move, 2 random heuristic plies then play):
a one-ply player judging moves by this margin scored 9/10 against the same
player judging by each side's packing alone (the `heuristic` strategy, which
ignores that the space is shared) and 25/40 against ffbb6c3's MCTS search.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from protocol.board import (
    ALL_CELLS,
    LENGTHS,
    SEGMENTS,
    VALUE,
    Segment,
    iter_placements,
    placement_starts,
    segments_from_starts,
)
from protocol.hari import slide_ends
from protocol.moves import PASS, HariMove

from .space import NEIGHBOURS, first_fit

ROOT_PER_LENGTH = 10
"""Placements tried per playable length at the root (the snuggest)."""
INNER_PER_LENGTH = 5
"""Placements tried per playable length below the root."""


def _queue(game: Any, color: int) -> list[int]:
    hand = game.hand(color)
    return [n for n in game.playable_lengths(color) for _ in range(hand[n])]


def contest_margin(game: Any, color: int, empty: int | None = None, upgrades: bool = False) -> int:
    """Board value of `color` minus the opponent's after the packing race (module docstring).

    With `upgrades`, a piece that fits nowhere may first slide one own piece worth at most as
    much (SPEC 5's budget): along its line, or off the board when the piece is worth more."""
    if empty is None:
        empty = game.empty_cells()
    queues = (_queue(game, 0), _queue(game, 1))
    values: list[int] = [game.board_value(0), game.board_value(1)]
    own: list[list[Segment]] | None = [list(game.pieces(0)), list(game.pieces(1))] if upgrades else None
    at = [0, 0]
    active = [bool(queues[0]), bool(queues[1])]
    side = game.turn
    while active[0] or active[1]:
        if active[side]:
            queue = queues[side]
            i = at[side]
            while i < len(queue):
                n = queue[i]
                i += 1
                seg = first_fit(empty, n)
                if seg is not None:
                    empty &= ~seg.mask
                    values[side] += VALUE[n]
                    if own is not None:
                        own[side].append(seg)
                    break
                if own is not None:
                    room = room_by_one_slide(own[side], empty, n)
                    if room is not None:
                        piece, end, seg = room
                        own[side].remove(piece)
                        own[side].extend(s for s in (end, seg) if s is not None)
                        empty = (empty | piece.mask) & ~seg.mask & ~(end.mask if end is not None else 0)
                        values[side] += VALUE[n] - (piece.value if end is None else 0)
                        break
            else:
                active[side] = False
            at[side] = i
        side = 1 - side
    return values[color] - values[1 - color]


def _covers(seg: Segment, n: int) -> tuple[int, int]:
    """Start cells (horizontal, vertical) of the length-n runs that cover a cell of `seg`."""
    cover_h = cover_v = 0
    for k in range(n):
        cover_h |= seg.mask >> k
        cover_v |= seg.mask >> (10 * k)
    return cover_h, cover_v


COVERS = {n: [_covers(seg, n) for seg in SEGMENTS] for n in LENGTHS}
"""COVERS[n][seg.index]: _covers(seg, n), for the slides that make room."""


def touching(empty: int, n: int, piece: Segment) -> Iterator[Segment]:
    """Placements of length n in `empty` that cover at least one cell of `piece` (a piece just slid:
    of its cells only the freed ones can be in `empty`)."""
    h, v = placement_starts(empty, n)
    cover_h, cover_v = COVERS[n][piece.index]
    return segments_from_starts(h & cover_h, v & cover_v, n)


def _fits_touching(empty: int, n: int, piece: Segment) -> bool:
    """Whether some placement of length n in `empty` covers a cell of `piece` (touching() is not empty)."""
    h, v = placement_starts(empty, n)
    cover_h, cover_v = COVERS[n][piece.index]
    return bool(h & cover_h or v & cover_v)


def worth_sliding(piece: Segment, off: bool, n: int) -> bool:
    """Whether `piece` may slide to make room for a play of length n: worth at most the play (SPEC 5's
    budget), and strictly less when it leaves the board (an upgrade; an even swap only loses the piece)."""
    return piece.value < VALUE[n] if off else piece.value <= VALUE[n]


def room_by_one_slide(pieces: list[Segment], empty: int, n: int) -> tuple[Segment, Segment | None, Segment] | None:
    """(piece, its end or None for off the board, placement) of one slide among `pieces` after
    which length n fits in cells the piece freed, within SPEC 5's budget (the piece is worth at
    most the play); None when no single slide makes room. Along a line first (nothing is lost),
    then off the board when the play is worth more, the cheapest piece first."""
    occupied = ALL_CELLS & ~empty
    # Whatever the slide, the cells it frees lie in the piece's own cells: a piece with no room for n
    # even once lifted off the board (most of them) has no slide that makes room.
    movable = sorted((p for p in pieces if worth_sliding(p, False, n) and _fits_touching(empty | p.mask, n, p)),
                     key=lambda p: p.value)
    for off in (False, True):
        for piece in movable:
            if off and not worth_sliding(piece, True, n):
                break  # the rest are worth at least as much
            for end in slide_ends(piece, occupied):
                if (end is None) != off:
                    continue
                freed = (empty | piece.mask) & ~(end.mask if end is not None else 0)
                seg = next(touching(freed, n, piece), None)
                if seg is not None:
                    return piece, end, seg
    return None


def candidates(game: Any, root: bool, per_length: int | None = None) -> list[Any]:
    """Moves worth searching for the side to move, a good guess first; [PASS] when it must pass.

    Per playable length its snuggest placements (more at the root; `per_length` of them
    when given); the discard of the shortest piece; at the root also one own piece slid to
    make room for a length that has little or none (engine.search.hari_search._slide_candidates)."""
    base = next(game.slide_sets(), None)
    if base is None:
        return [PASS]
    me = game.turn
    empty = base.empty
    lengths = game.playable_lengths(me)
    hand = game.hand(me)
    keep = per_length if per_length is not None else ROOT_PER_LENGTH if root else INNER_PER_LENGTH
    scored: list[tuple[float, Any]] = []
    counts: dict[int, int] = {}
    killed = 0
    for n in lengths:
        spots = [((NEIGHBOURS[seg.index] & empty).bit_count(), seg.lo, seg) for seg in iter_placements(empty, n)]
        counts[n] = len(spots)
        spots.sort(key=lambda s: (s[0], s[1]))
        for snug, _, seg in spots[:keep]:
            scored.append((killed + 0.3 * snug - 0.5 * VALUE[n], HariMove((), seg, 0)))
        killed += VALUE[n] * hand[n]
    scored.sort(key=lambda kv: kv[0])
    moves = [m for _, m in scored]
    moves.append(HariMove((), None, lengths[0]))
    if root:
        from .hari_search import _slide_candidates
        opp = 1 - me
        opp_next = _queue(game, opp)[:4]
        moves.extend(move for _, move in _slide_candidates(game, me, empty, lengths, hand, counts, opp_next))
    return moves
