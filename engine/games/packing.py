"""Board-space features shared by the FOUNDATIONS and HARI knowledge (pure bitboard geometry).

These are evaluation features, not rules: how snugly a piece sits (its free
neighbours), which empty cells no piece of a given length can ever use (dead
space), and a fast estimate of how much of a hand still fits.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from protocol.board import ALL_CELLS, H_SEG, LENGTHS, SEGMENTS, V_SEG, VALUE, Segment, placement_starts


def _neighbours(seg: Segment) -> int:
    mask = 0
    for c in seg.cells:
        r, f = divmod(c, 10)
        if f > 0:
            mask |= 1 << (c - 1)
        if f < 9:
            mask |= 1 << (c + 1)
        if r > 0:
            mask |= 1 << (c - 10)
        if r < 9:
            mask |= 1 << (c + 10)
    return mask & ~seg.mask


NEIGHBOURS = [_neighbours(s) for s in SEGMENTS]
"""Cells orthogonally next to each segment (board edges are simply absent)."""
PERIMETER = [2 * s.length + 2 for s in SEGMENTS]


def free_neighbours(seg: Segment, empty: int) -> int:
    """Empty cells touching the piece: fewer means a snugger fit and less wasted space."""
    return (NEIGHBOURS[seg.index] & empty).bit_count()


def usable_cells(empty: int, length: int) -> int:
    """Empty cells that some placement of `length` could cover."""
    h, v = placement_starts(empty, length)
    covered = 0
    for k in range(length):
        covered |= (h << k) | (v << (10 * k))
    return covered & empty


def dead_cells(empty: int, length: int) -> int:
    """How many empty cells no piece of `length` can ever use (wasted for that player)."""
    return (empty & ~usable_cells(empty, length)).bit_count()


def first_fit(empty: int, n: int) -> Segment | None:
    """A snug placement of length n in `empty` (fewest free neighbours, first found), or None."""
    h, v = placement_starts(empty, n)
    best: Segment | None = None
    best_free = 99
    for bits, table in ((h, H_SEG[n]), (v, V_SEG[n])):
        scanned = 0
        while bits and scanned < 12:
            low = bits & -bits
            bits ^= low
            scanned += 1
            seg = table[low.bit_length() - 1]
            f = (NEIGHBOURS[seg.index] & empty).bit_count()
            if f < best_free:
                if not f:
                    return seg  # nothing can be snugger than no free neighbour
                best, best_free = seg, f
    return best


def spread_fit(empty: int, n: int, rng: random.Random, sample: int = 12) -> Segment | None:
    """A snug placement of length n among about `sample` starts drawn anywhere on the board
    (first_fit looks at the lowest cells only, so its pieces pile up in the top rows), or None.

    The starts are thinned by ANDing random 100-bit masks (each kept with chance 1/2**k), so
    nothing is listed first; ties between equally snug spots are broken at random."""
    h, v = placement_starts(empty, n)
    count = h.bit_count() + v.bit_count()
    if not count:
        return None
    k = 0
    while count > 2 * sample:
        count >>= 1
        k += 1
    if k:
        mask_h = mask_v = ALL_CELLS
        for _ in range(k):
            mask_h &= rng.getrandbits(100)
            mask_v &= rng.getrandbits(100)
        if h & mask_h or v & mask_v:
            h, v = h & mask_h, v & mask_v
    best: Segment | None = None
    best_key = 99.0
    for bits, table in ((h, H_SEG[n]), (v, V_SEG[n])):
        while bits:
            low = bits & -bits
            bits ^= low
            seg = table[low.bit_length() - 1]
            key = (NEIGHBOURS[seg.index] & empty).bit_count() + rng.random()
            if key < best_key:
                best, best_key = seg, key
    return best


def pack_value(empty: int, lengths: list[int]) -> tuple[int, int]:
    """(value, cells) of the pieces (given in playing order) that fit one after another,
    each put snugly; a cheap measure of how much of a hand the space can still take."""
    value = cells = 0
    for n in lengths:
        seg = first_fit(empty, n)
        if seg is None:
            continue
        empty &= ~seg.mask
        value += VALUE[n]
        cells += n
    return value, cells


def hand_lengths(hand: Sequence[int], minimum: int = 0) -> list[int]:
    """The hand as a list of lengths, ascending, only those >= minimum."""
    return [n for n in LENGTHS if n >= minimum for _ in range(hand[n])]


EMPTY_BOARD = ALL_CELLS

