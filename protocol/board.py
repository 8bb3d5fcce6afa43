"""The ISAAC set and board shared by all three games, as integer bitboards.

A cell is an int 0..99: ``rank * 10 + file`` in Dark's frame (file a..j is
0..9 from Dark's left, rank 0 is Dark's near edge), so ``d4`` is 43, Dark's
ISAAC coordinate. A set of cells is a Python int with bit ``c`` set for cell c;
placements are found with shifts and ANDs, and counted with ``int.bit_count``
without building any list.

Every straight run of 3..7 cells on the board is one interned ``Segment``
(600 of them); moves and pieces refer to these objects, so equality and
hashing are cheap and there is one canonical spelling of each.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

DARK = 0
LIGHT = 1
COLORS = (DARK, LIGHT)
COLOR_LETTER = ("d", "l")
COLOR_NAME = ("Dark", "Light")

FILES = "abcdefghij"
SIZE = 10
ALL_CELLS = (1 << 100) - 1

LENGTHS = (3, 4, 5, 6, 7)
VALUE = {3: 1, 4: 2, 5: 3, 6: 4, 7: 6}
"""Value printed on a piece of each length."""
SET_COUNTS = {3: 5, 4: 4, 5: 3, 6: 2, 7: 1}
"""How many pieces of each length one player owns."""
SET_VALUE = sum(VALUE[n] * k for n, k in SET_COUNTS.items())  # 36

ROW_MASK = tuple(((1 << 10) - 1) << (10 * r) for r in range(10))
COL_MASK = tuple(sum(1 << (10 * r + f) for r in range(10)) for f in range(10))


def cell_name(cell: int) -> str:
    return FILES[cell % 10] + str(cell // 10)


def nth_cell(mask: int, n: int) -> int:
    """The cell of the n-th (0-based, lowest first) set bit of `mask`: picks the n-th move of a bitboard."""
    for _ in range(n):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def cells_of(mask: int) -> Iterator[int]:
    """Yield the cells of a bitboard, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class Segment:
    """One straight run of cells a piece can lie on; interned, compare by identity."""

    __slots__ = ("index", "lo", "hi", "length", "horizontal", "mask", "cells",
                 "name", "value", "line_mask", "line")

    def __init__(self, index: int, lo: int, length: int, horizontal: bool):
        step = 1 if horizontal else 10
        self.index = index
        self.lo = lo
        self.hi = lo + step * (length - 1)
        self.length = length
        self.horizontal = horizontal
        self.cells = tuple(lo + step * k for k in range(length))
        self.mask = sum(1 << c for c in self.cells)
        self.name = cell_name(self.lo) + cell_name(self.hi)
        self.value = VALUE[length]
        # The whole row (horizontal) or column (vertical) the piece lies on;
        # ``line`` numbers the 20 lines: rows 0..9, then columns 10..19.
        self.line = lo // 10 if horizontal else 10 + lo % 10
        self.line_mask = ROW_MASK[lo // 10] if horizontal else COL_MASK[lo % 10]

    def __repr__(self) -> str:
        return f"Segment({self.name})"

    def __str__(self) -> str:
        return self.name

    def __reduce__(self) -> tuple[Callable[[int, int], Segment | None], tuple[int, int]]:  # keeps interning
        return (segment_at, (self.lo, self.hi))

    def __lt__(self, other: Segment) -> bool:
        return (self.lo, self.hi) < (other.lo, other.hi)


LINE_MASK = ROW_MASK + COL_MASK

SEGMENTS: list[Segment] = []
H_SEG: dict[int, list[Segment]] = {}
"""H_SEG[length][start cell] -> horizontal segment starting there. Index it only with start
cells of H_START[length] (the others hold None, which the type leaves out: every lookup
comes from a start bitboard)."""
V_SEG: dict[int, list[Segment]] = {}
H_START: dict[int, int] = {}
"""Bitboard of cells where a horizontal piece of that length may start."""
V_START: dict[int, int] = {}
_BY_ENDS: dict[tuple[int, int], Segment] = {}

for _n in LENGTHS:
    H_SEG[_n] = [None] * 100  # type: ignore[list-item]  # see H_SEG
    V_SEG[_n] = [None] * 100  # type: ignore[list-item]
    H_START[_n] = 0
    V_START[_n] = 0
    for _c in range(100):
        if _c % 10 + _n <= SIZE:
            _s = Segment(len(SEGMENTS), _c, _n, True)
            SEGMENTS.append(_s)
            H_SEG[_n][_c] = _s
            H_START[_n] |= 1 << _c
            _BY_ENDS[(_s.lo, _s.hi)] = _s
        if _c // 10 + _n <= SIZE:
            _s = Segment(len(SEGMENTS), _c, _n, False)
            SEGMENTS.append(_s)
            V_SEG[_n][_c] = _s
            V_START[_n] |= 1 << _c
            _BY_ENDS[(_s.lo, _s.hi)] = _s
del _n, _c, _s


def segment_at(a: int, b: int) -> Segment | None:
    """The segment with end cells a and b (either order), or None if not a piece run."""
    if a > b:
        a, b = b, a
    return _BY_ENDS.get((a, b))


def placement_starts(empty: int, length: int) -> tuple[int, int]:
    """Start-cell bitboards (horizontal, vertical) of every run of `length` empty cells.

    Runs are built by doubling (runs of 2, then 4, then the length from two overlapping
    shorter runs): at most three shifts a direction where one cell at a time takes six.
    Rows wrap into the next row here; H_START and V_START keep only starts that fit."""
    h = empty & (empty >> 1)  # runs of 2
    v = empty & (empty >> 10)
    if length == 3:
        h &= empty >> 2
        v &= empty >> 20
    elif length == 4:
        h &= h >> 2
        v &= v >> 20
    else:
        h4 = h & (h >> 2)  # runs of 4
        v4 = v & (v >> 20)
        if length == 5:
            h, v = h4 & (empty >> 4), v4 & (empty >> 40)
        elif length == 6:
            h, v = h4 & (h >> 4), v4 & (v >> 40)
        else:  # 7: two runs of 4 overlapping by one cell
            h, v = h4 & (h4 >> 3), v4 & (v4 >> 30)
    return h & H_START[length], v & V_START[length]


def count_placements(empty: int, lengths: Sequence[int]) -> int:
    """How many ways pieces of the given lengths fit into `empty`, without listing them.

    `lengths` must be ascending; the AND chains are shared between lengths.
    """
    total = 0
    if not lengths:
        return 0
    h = v = empty
    k = 1
    for n in lengths:
        while k < n:
            h &= empty >> k
            v &= empty >> (10 * k)
            k += 1
        total += (h & H_START[n]).bit_count() + (v & V_START[n]).bit_count()
    return total


def iter_placements(empty: int, length: int) -> Iterator[Segment]:
    """Yield every segment of `length` lying wholly in `empty` (horizontal first)."""
    h, v = placement_starts(empty, length)
    return segments_from_starts(h, v, length)


def segments_from_starts(h: int, v: int, length: int) -> Iterator[Segment]:
    """The segments of `length` starting at the cells of `h` (horizontal) then `v` (vertical), lowest cell first:
    start bitboards (placement_starts and the games' own) turned into segments."""
    hs, vs = H_SEG[length], V_SEG[length]
    while h:
        low = h & -h
        yield hs[low.bit_length() - 1]
        h ^= low
    while v:
        low = v & -v
        yield vs[low.bit_length() - 1]
        v ^= low


def any_placement(empty: int, lengths: Sequence[int]) -> bool:
    """True if at least one piece of the given (ascending) lengths fits into `empty`."""
    if not lengths:
        return False
    h = v = empty
    k = 1
    for n in lengths:
        while k < n:
            h &= empty >> k
            v &= empty >> (10 * k)
            k += 1
        if h & H_START[n] or v & V_START[n]:
            return True
    return False


def hand_string(counts: Sequence[int]) -> str:
    """A hand as its piece lengths in ascending order, e.g. '333334444555667'; '-' if empty."""
    s = "".join(str(n) * counts[n] for n in LENGTHS)
    return s or "-"


def full_hand() -> list[int]:
    """Counts indexed by length (0..7) of a complete set."""
    counts = [0] * 8
    for n, k in SET_COUNTS.items():
        counts[n] = k
    return counts


def hand_value(counts: Sequence[int]) -> int:
    return sum(VALUE[n] * counts[n] for n in LENGTHS)
