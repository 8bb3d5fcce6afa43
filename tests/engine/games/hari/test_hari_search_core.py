"""The C core of HARI's search (engine/games/hari/_search_core.c via search_core.py) against the Python it mirrors.

The core is a private model of the position for speed; these tests hold it to the Python
functions value for value (pieces, candidates, the packing race, the alpha-beta's move, value,
node count and principal variation), to the rules (every move it proposes is legal), and to the
engine's limits (time, nodes, stop)."""

from __future__ import annotations

import random
import threading
import time

import pytest

from engine.games.hari import _search_core as _core
from engine.games.hari import search as hari_search
from engine.games.hari import search_core as hari_native
from engine.games.hari.candidates import candidates
from engine.games.hari.race import contest_margin
from engine.games.hari.search import SEARCHER, plays_left
from engine.games.hari.settings import HariSettings
from engine.games.packing import NEIGHBOURS
from engine.search.alphabeta import AlphaBeta
from engine.search.context import SearchContext
from engine.search.limits import Limits
from engine.search.timeman import TimeManager
from protocol import game_from_position, new_game
from protocol.board import SEGMENTS, count_placements
from protocol.moves import PASS
from tests.engine.games.book_positions import book_positions


def _play_on(game, rng: random.Random):
    """One of the candidates, drawn near the front of the list."""
    moves = candidates(game, 10, 4, 24)
    return moves[min(len(moves) - 1, int(rng.expovariate(1 / 4)))]


POSITIONS = book_positions("hari", 120, seed=5, most_plies=24, play_on=_play_on)


def test_the_core_is_built():
    """The engine's HARI strength depends on it: a failed build must not pass unnoticed (needs a C compiler)."""
    assert hari_native.AVAILABLE


def test_segments_are_the_boards():
    assert _core.segments() == [(s.lo, s.hi, s.length, int(s.horizontal)) for s in SEGMENTS]


def test_race_and_candidates_equal_the_python_ones():
    seen_plays_left = set()
    for game in POSITIONS:
        seen_plays_left.add(plays_left(game))
        for color in (0, 1):
            assert hari_native.contest_margin(game, color) == contest_margin(game, color, upgrades=True)
        for per_length, scarce, slide_max, blocks, place_blocks in ((10, 4, 24, 0, 0), (16, 4, 24, 8, 16),
                                                                     (10, 12, 8, 4, 4), (6, 200, 40, 31, 63)):
            native = hari_native.candidates(game, per_length, scarce, slide_max, blocks, place_blocks)
            assert [str(m) for m in native] == [str(m) for m in candidates(game, per_length, scarce, slide_max, blocks,
                                                                           place_blocks)]
            for move in native:
                assert game.check_move(move) == move  # the rules accept every move the core proposes
    assert len(seen_plays_left) >= 10  # from the opening to the last plays


def _opponent_still_plays():
    """(position, the opponent's next length) of POSITIONS where the opponent has not passed."""
    for game in POSITIONS:
        opp = 1 - game.turn
        theirs = game.playable_lengths(opp)
        if opp not in game.passes and theirs:
            yield game, theirs[0]


def _added(game, fewer: tuple[int, ...], more: tuple[int, ...], most: int) -> list:
    """The candidates that the arguments `more` add after those of `fewer`: appended at the end, at
    most `most`, none repeating an earlier one."""
    plain = candidates(game, *fewer)
    wider = candidates(game, *more)
    assert wider[:len(plain)] == plain
    added = wider[len(plain):]
    assert len(added) <= most and not set(map(str, added)) & set(map(str, plain))
    return added


def test_blocks_take_room_from_the_opponents_next_piece():
    """Each block slides one own piece along its line and leaves the opponent's next length fewer
    placements than before; the one whose slide takes most comes first; none repeats a slide candidate."""
    found = 0
    for game, theirs in _opponent_still_plays():
        before = _placements(game, theirs)
        for move in _added(game, (10, 200, 24), (10, 200, 24, 8), 8):
            assert len(move.slides) == 1 and move.slides[0].end is not None and move.place is not None
            after = game.copy()
            after.play(move)
            assert _placements(after, theirs) < before
            found += 1
    assert found >= 20


def test_placement_blocks_take_the_most_room_from_the_opponents_next_piece():
    """Each placement block is a plain placement that leaves the opponent's next length fewer placements;
    they come ranked by the placements taken less a tenth of their free neighbours, none repeats an
    earlier candidate, and no plain placement left out ranks above the last one kept."""
    found = 0
    for game, theirs in _opponent_still_plays():
        blocks = _added(game, (10, 200, 24, 4), (10, 200, 24, 4, 6), 6)
        assert all(not move.slides and move.place is not None for move in blocks)
        ranks = [_block_rank(game, theirs, move) for move in blocks]
        assert all(r > -1.0 for r in ranks) and ranks == sorted(ranks, reverse=True)
        if len(blocks) == 6:
            kept = {str(m) for m in candidates(game, 10, 200, 24, 4, 6)}
            left_out = [m for m in game.legal_moves() if not m.slides and m.place is not None and str(m) not in kept]
            assert all(_block_rank(game, theirs, move) <= ranks[-1] for move in left_out)
        found += len(blocks)
    assert found >= 100


def _block_rank(game, theirs: int, move) -> float:
    """A placement's rank as a block: the opponent's placements of length `theirs` it takes, less a
    tenth of its free neighbours; -1 when it takes none."""
    after = game.copy()
    after.play(move)
    taken = _placements(game, theirs) - _placements(after, theirs)
    return taken - 0.1 * (NEIGHBOURS[move.place.index] & game.empty_cells()).bit_count() if taken > 0 else -1.0


def _placements(game, n: int) -> int:
    return count_placements(game.empty_cells(), [n])


def test_candidates_when_the_mover_must_pass():
    game = game_from_position("hari a5a9,b1b4,c1c3,f3f6,f7f9,g0g2,h0j0,h1h4,i1i5,i6i8/a1a4,b5b7,c5c8,d2d6,"
                              "e3e9,g5g7,h5h8,j3j6,j7j9 -/33 d l")
    assert hari_native.candidates(game, 10, 200, 24) == [PASS]


def _python_search(game, depth: int, scarce: int = 4, slide_max: int = 24, blocks: int = 0, place_blocks: int = 0):
    tm = TimeManager(Limits(depth=depth), threading.Event())
    ab = AlphaBeta(SearchContext(tm, None, HariSettings()),
                   lambda g, ply: candidates(g, 10, scarce, slide_max, blocks, place_blocks),
                   hari_search._evaluate, hari_search._terminal, hari_search.WIN)
    result = ab.iterate(game, candidates(game, 16, scarce, slide_max, blocks, place_blocks), depth)
    return str(result.move), result.value, tm.nodes, [str(m) for m in result.pv]


def _native_search(game, depth: int, table_bits: int, scarce: int = 4, slide_max: int = 24, blocks: int = 0,
                   place_blocks: int = 0):
    position = hari_native.position_tuple(game)
    root = _core.candidates(position, 16, scarce, slide_max, blocks, place_blocks)
    best, value, _, nodes, _, pv, _ = _core.search(position, root, 10, depth, table_bits, 0, 0.0, None, None, False,
                                                   scarce, slide_max, 0, blocks, place_blocks)
    return str(hari_native.to_move(best)), value, nodes, [str(hari_native.to_move(m)) for m in pv]


@pytest.mark.parametrize("scarce, slide_max, blocks, place_blocks",
                         [(4, 24, 0, 0), (200, 24, 0, 0), (200, 24, 8, 0), (200, 24, 4, 4)])
def test_the_alpha_beta_equals_the_python_one_without_a_table(scarce, slide_max, blocks, place_blocks):
    rng = random.Random(2)
    late = [g for g in POSITIONS if 3 <= plays_left(g) <= 9]
    for game in rng.sample(late, 8):
        depth = 3 if plays_left(game) > 5 else 4
        assert (_native_search(game, depth, 0, scarce, slide_max, blocks, place_blocks)
                == _python_search(game.copy(), depth, scarce, slide_max, blocks, place_blocks))


def test_the_table_changes_the_work_not_the_solved_value():
    for game in [g for g in POSITIONS if 2 <= plays_left(g) <= 4][:12]:
        depth = plays_left(game) + 2  # to the end of the game: exact values
        plain = _native_search(game, depth, 0)
        keyed = _native_search(game, depth, 16)
        assert keyed[1] == plain[1]
        assert keyed[2] <= plain[2]


def _run(game, limits: Limits, stop: threading.Event | None = None, seed: int = 1, overhead_ms: int = 15):
    tm = TimeManager(limits, stop or threading.Event(), overhead_ms=overhead_ms)
    ctx = SearchContext(tm, None, HariSettings())
    move, info = SEARCHER.choose(game.copy(), ctx, random.Random(seed))
    return move, info, tm


def test_node_and_depth_limits():
    game = POSITIONS[3]
    move, _, tm = _run(game, Limits(nodes=500))
    assert 500 <= tm.nodes <= 501 and game.check_move(move) == move
    _, info, _ = _run(game, Limits(depth=2))
    assert info.depth == 2


def test_movetime_and_stop_are_kept_while_the_core_searches():
    start = new_game("hari")  # 30 plays to go: never solved, the search runs until told
    began = time.perf_counter()
    move, _, _ = _run(start, Limits(movetime=120), overhead_ms=20)
    assert time.perf_counter() - began < 0.12 + 0.03
    assert start.check_move(move) == move
    stop = threading.Event()
    timer = threading.Timer(0.1, stop.set)  # set from another thread: the core must let it run
    timer.start()
    began = time.perf_counter()
    move, _, _ = _run(start, Limits(infinite=True), stop)
    timer.cancel()
    assert stop.is_set() and time.perf_counter() - began < 0.1 + 0.05
    assert start.check_move(move) == move


@pytest.mark.parametrize("position, error", [
    (([1, 2], [3], (0,) * 8, (0,) * 8, 0, 0, 0), TypeError),  # too few fields
    (([9999], [], (0,) * 8, (0,) * 8, 0, 0, 0, ()), ValueError),  # no such segment
    (([], [], (0,) * 5, (0,) * 8, 0, 0, 0, ()), ValueError),  # a hand has 8 counts
    ((list(range(40)), [], (0,) * 8, (0,) * 8, 0, 0, 0, ()), ValueError),  # more pieces than a set
    (([], [], (0, 0, 0, 7, 4, 3, 2, 1), (0,) * 8, 0, 0, 0, ()), ValueError),  # seven 3s: a set has five
    (([], [], (0,) * 8, (0,) * 8, 9, 0, 0, ()), ValueError),  # no length 9
    (([], [], (0,) * 8, (0,) * 8, 0, 0, 2, ()), ValueError),  # no third player
    (([], [], (0,) * 8, (0,) * 8, 0, 0, 0, (0, 5)), ValueError),
])
def test_bad_input_to_the_core_is_an_error_not_a_crash(position, error):
    with pytest.raises(error):
        _core.candidates(position, 10)


def test_bad_limits_to_the_core_are_errors_not_overflows():
    position = hari_native.position_tuple(new_game("hari"))
    for per_length in (0, 33, 10**6):
        with pytest.raises(ValueError, match="per_length"):
            _core.candidates(position, per_length)
    for blocks in (-1, 32):
        with pytest.raises(ValueError, match="blocks"):
            _core.candidates(position, 10, 4, 24, blocks)
    for place_blocks in (-1, 64):
        with pytest.raises(ValueError, match="place_blocks"):
            _core.candidates(position, 10, 4, 24, 0, place_blocks)
    root = _core.candidates(position, 16)
    with pytest.raises(ValueError, match="max_depth"):
        _core.search(position, root, 10, 500, 0, 0, 0.0, None, None)
    with pytest.raises(ValueError, match="root moves"):
        _core.search(position, [], 10, 2, 0, 0, 0.0, None, None)


@pytest.mark.parametrize("plays", [30, 7])
def test_without_the_core_the_python_search_still_plays(monkeypatch, plays):
    """Where the extension was not built, the searcher falls back to its Python searches."""
    monkeypatch.setattr(hari_native, "AVAILABLE", False)
    game = new_game("hari") if plays == 30 else next(g for g in POSITIONS if plays_left(g) == plays)
    move, info, tm = _run(game, Limits(nodes=300))
    assert game.check_move(move) == move and tm.nodes >= 300
    if plays <= HariSettings().endgame_plies:
        assert info.depth >= 1 and not info.rollouts  # the Python alpha-beta
    else:
        assert info.rollouts  # flat Monte Carlo


def test_the_seed_breaks_ties_its_own_way_and_a_seed_replays():
    """Leaf ties are broken by the engine's Seed: the same seed answers the same, and across seeds the
    answers vary in some positions (games from one opening are not all one game)."""
    varied = 0
    for game in POSITIONS[:30]:
        answers = set()
        for seed in range(5):
            first = _run(game, Limits(nodes=3000), seed=seed)
            again = _run(game, Limits(nodes=3000), seed=seed)
            assert str(first[0]) == str(again[0]) and first[2].nodes == again[2].nodes
            answers.add(str(first[0]))
        varied += len(answers) > 1
    assert varied >= 3


def test_multipv_lines_are_the_python_ones_and_the_first_is_the_answer():
    """MultiPV 3 without a table: the C core's three best root lines (values and PVs) are the Python
    alpha-beta's, each root move searched above the third best so far; the first is the move played."""
    rng = random.Random(5)
    late = [g for g in POSITIONS if 3 <= plays_left(g) <= 8]
    for game in rng.sample(late, 6):
        depth = 3
        position = hari_native.position_tuple(game)
        root = _core.candidates(position, 16, 4, 24, 0, 0)
        best, value, _, _, _, _, lines = _core.search(position, root, 10, depth, 0, 0, 0.0, None, None, False,
                                                      4, 24, 0, 0, 0, 3)
        native = [(v, [str(hari_native.to_move(m)) for m in pv]) for v, pv in lines]
        tm = TimeManager(Limits(depth=depth), threading.Event())
        ab = AlphaBeta(SearchContext(tm, None, HariSettings(), multipv=3),
                       lambda g, ply: candidates(g, 10, 4, 24, 0, 0), hari_search._evaluate, hari_search._terminal,
                       hari_search.WIN)
        ab.iterate(game.copy(), candidates(game, 16, 4, 24, 0, 0), depth)
        python = [(line.value, [str(m) for m in line.pv]) for line in ab.top]
        assert native == python
        assert len(native) == min(3, len(root)) and native[0][1][0] == str(hari_native.to_move(best))
        assert [v for v, _ in native] == sorted((v for v, _ in native), reverse=True)
