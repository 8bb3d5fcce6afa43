"""engine.games.packing: the snug-placement finders the playouts use."""

import random

from engine.games.packing import NEIGHBOURS, first_fit, spread_fit
from protocol.board import ALL_CELLS, iter_placements


def row_mask(rows: range) -> int:
    return sum(1 << (10 * r + f) for r in rows for f in range(10))


def test_spread_fit_finds_only_placements_in_the_empty_cells():
    rng = random.Random(1)
    empty = ALL_CELLS & ~row_mask(range(0, 3)) & ~(1 << 55) & ~(1 << 77)
    for n in (3, 4, 5, 6, 7):
        legal = set(iter_placements(empty, n))
        for _ in range(50):
            seg = spread_fit(empty, n, rng)
            assert seg in legal


def test_spread_fit_is_none_when_nothing_fits():
    rng = random.Random(2)
    assert spread_fit(0, 3, rng) is None
    checker = sum(1 << c for c in range(100) if (c // 10 + c % 10) % 2 == 0)  # no two empty cells touch
    assert spread_fit(checker, 3, rng) is None
    one_run = sum(1 << (40 + f) for f in range(5))  # a single run of 5 cells
    assert spread_fit(one_run, 6, rng) is None
    assert spread_fit(one_run, 5, rng) == next(iter_placements(one_run, 5))


def test_spread_fit_uses_the_whole_board_where_first_fit_keeps_to_the_top():
    """On an empty board first_fit answers in the top rows; spread_fit's answers reach the
    bottom half too, and at least six different rows in 200 draws."""
    rng = random.Random(3)
    top = first_fit(ALL_CELLS, 3)
    assert top is not None and top.lo < 30
    rows = {spread_fit(ALL_CELLS, 3, rng).lo // 10 for _ in range(200)}
    assert rows & {5, 6, 7, 8, 9}
    assert len(rows) >= 6


def test_spread_fit_prefers_snug_spots():
    """On an empty board the snuggest spots are in the corners; with a sample as large as the
    board (sample=1000, nothing thinned) spread_fit always finds one of them."""
    rng = random.Random(4)
    best = min((NEIGHBOURS[s.index] & ALL_CELLS).bit_count() for s in iter_placements(ALL_CELLS, 4))
    for _ in range(20):
        seg = spread_fit(ALL_CELLS, 4, rng, sample=1000)
        assert (NEIGHBOURS[seg.index] & ALL_CELLS).bit_count() == best
