"""FOUNDATIONS' placement geometry on bitboards, shared by FoundationsGame and its scratch copies.

One place for the rule that a piece on level k >= 2 rests with both ends on two
different own pieces of level k-1 (SPEC ruling 1), so that the game and the
playouts' scratch positions (protocol.games.foundations.scratch) cannot disagree.
"""

from __future__ import annotations

from collections.abc import Sequence

from protocol.board import H_START, LENGTHS, SEGMENTS, V_START, Segment

MAX_LEVEL = 8
"""Highest reachable level: a level-k piece needs two own pieces on every level
below it, and 2 * 7 + 1 = 15 pieces is a whole set."""


def _same_piece_starts() -> list[list[int]]:
    """SAME[segment.index][n]: start cells of length-n runs with both ends on that segment.

    A placement whose ends both rest on one piece is illegal; these masks let
    the generator remove such starts with one AND per supporting piece.
    """
    table = []
    for seg in SEGMENTS:
        step = 1 if seg.horizontal else 10
        row = [0] * 8
        for n in LENGTHS:
            if n <= seg.length:
                row[n] = seg.mask & (seg.mask >> (step * (n - 1)))
        table.append(row)
    return table


SAME = _same_piece_starts()


def upper_starts(own_below: int, pieces_below: Sequence[Segment], n: int, free: int) -> tuple[int, int]:
    """Start bitboards (horizontal, vertical) of the legal length-n placements on a level >= 2
    whose free cells are `free`, for a player whose pieces on the level below cover
    `own_below` and are `pieces_below`: both ends on own cells, the two ends on different
    pieces, every cell free."""
    ends = free & own_below
    d = n - 1
    h = ends & (ends >> d) & H_START[n]
    v = ends & (ends >> (10 * d)) & V_START[n]
    if not (h or v):
        return 0, 0
    for j in range(1, d):
        h &= free >> j
        v &= free >> (10 * j)
    if h or v:
        for s in pieces_below:
            if s.length >= n:
                if s.horizontal:
                    h &= ~SAME[s.index][n]
                else:
                    v &= ~SAME[s.index][n]
    return h, v


def deciding_level(pieces: Sequence[Sequence[Sequence[Segment]]], top: int) -> tuple[int, int, int] | None:
    """The tiebreak of equal hands (SPEC ruling 5): the highest level whose points differ, as
    (level, Dark's points, Light's points); None when every level is equal (a draw).
    `pieces[colour][level]` lists each player's pieces by level, up to `top`."""
    for k in range(top, 0, -1):
        dark = sum(s.value for s in pieces[0][k])
        light = sum(s.value for s in pieces[1][k])
        if dark != light:
            return k, dark, light
    return None
