"""Bitboard placement helpers agree with a plain cell-by-cell count."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.board import (
    ALL_CELLS,
    LENGTHS,
    SEGMENTS,
    any_placement,
    count_placements,
    iter_placements,
    placement_starts,
)


def naive(empty, length):
    return [s for s in SEGMENTS if s.length == length and s.mask & empty == s.mask]


def test_empty_board_counts():
    assert count_placements(ALL_CELLS, LENGTHS) == 600
    assert [count_placements(ALL_CELLS, (n,)) for n in LENGTHS] == [160, 140, 120, 100, 80]


def test_no_wraparound_between_rows():
    empty = (1 << 8) | (1 << 9) | (1 << 10)  # i0 j0 a1: not a run
    assert count_placements(empty, (3,)) == 0
    assert not any_placement(empty, (3,))


@settings(max_examples=150, deadline=None)
@given(st.integers(0, ALL_CELLS), st.lists(st.sampled_from(LENGTHS), unique=True, min_size=1))
def test_counts_match_naive(empty, lengths):
    lengths = sorted(lengths)
    expected = [s for n in lengths for s in naive(empty, n)]
    assert count_placements(empty, lengths) == len(expected)
    assert any_placement(empty, lengths) == bool(expected)
    listed = [s for n in lengths for s in iter_placements(empty, n)]
    assert sorted(listed) == sorted(expected)


def test_dense_random_boards():
    rng = random.Random(7)
    for _ in range(200):
        empty = sum(1 << c for c in range(100) if rng.random() < 0.6)
        for n in LENGTHS:
            h, v = placement_starts(empty, n)
            assert h.bit_count() + v.bit_count() == len(naive(empty, n))
