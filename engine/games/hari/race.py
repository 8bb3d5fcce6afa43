"""The packing race: HARI's evaluation, a cheap playout of both hands for the space left.

The board holds 100 cells and the two hands need 130: what decides HARI is
which of each side's remaining pieces still find room, and both sides take
room from the same cells. ``contest_margin`` plays that contest out cheaply:
from the position, the side to move first, each side in turn puts its next
playable piece (shortest first, the rules' ascending order) on its snuggest
spot in the cells still empty; a piece that no longer fits is skipped (it will
be discarded). The margin of board value at the end of that race is the
evaluation. It is a deterministic playout without slides, about 0.1 ms.

The search's race has ``upgrades``: a piece that fits nowhere may first slide
one own piece (``room_by_one_slide``), along its line, or off the board when the
piece played is worth more. HARI's end game is mostly such upgrades, and a race
that only skips there misjudges it. The `heuristic` partner's race has none.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.games.packing import first_fit
from protocol.board import (
    ALL_CELLS,
    LENGTHS,
    SEGMENTS,
    VALUE,
    Segment,
    placement_starts,
    segments_from_starts,
)
from protocol.games.hari.rules import HariGame, slide_ends, within_budget


def hand_queue(game: HariGame, color: int) -> list[int]:
    """`color`'s playable pieces in playing order (shortest first), one entry a piece."""
    hand = game.hand(color)
    return [n for n in game.playable_lengths(color) for _ in range(hand[n])]


def contest_margin(game: HariGame, color: int, empty: int | None = None, upgrades: bool = False) -> int:
    """Board value of `color` minus the opponent's after the packing race (module docstring).

    With `upgrades`, a piece that fits nowhere may first slide one own piece worth at most as
    much (SPEC 5's budget): along its line, or off the board when the piece is worth more."""
    if empty is None:
        empty = game.empty_cells()
    queues = (hand_queue(game, 0), hand_queue(game, 1))
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
    """Whether `piece` may slide to make room for a play of length n: within the rules' budget
    (protocol.games.hari.rules.within_budget), and worth strictly less than the play when it leaves the board
    (an upgrade; an even swap off the board only loses the piece)."""
    return within_budget(piece.value, n) and not (off and piece.value == VALUE[n])


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
