"""FOUNDATIONS playouts: a cheap policy, on a game (``playout_move``) and fast on a scratch copy (``play_out``).

The policy: usually the shortest allowed piece, snugly placed; `deviate` of the time
the length (and level) of a uniformly drawn legal placement instead; the spot is the
snuggest of at most `sample` drawn placements of that length (a small sample keeps
the playouts varied). The search's leaves, the C core (engine/games/foundations/_search_core.c)
and the `flatmc` partner play it.

FOUNDATIONS' search is short of simulations, and most of a simulation is its playout.
``play_out`` plays the same policy as ``playout_move`` (the same distribution of moves;
the random draws come in another order), but on a protocol.games.foundations.scratch copy:
one call finds the shortest fitting length, only the placements drawn become segments,
and nothing is undone afterwards.
"""

from __future__ import annotations

import random

from engine.games.packing import NEIGHBOURS
from engine.search.timeman import TimeManager
from protocol.board import H_SEG, V_SEG, Segment, segments_from_starts
from protocol.game import uniform_index
from protocol.games.foundations.rules import FoundationsGame
from protocol.games.foundations.scratch import FoundationsScratch
from protocol.moves import PASS, Pass, Place

STOP_CHECK_PLIES = 8
"""The clock and the stop event are looked at every this many plies (8 plies take well under
a millisecond; a look costs about a tenth of a ply)."""


LIST_MAX = 24
"""draw_spots lists the start cells when there are at most this many, and otherwise draws
8-bit cell numbers until one hits a start (on average 256 / 25, about 10 tries, at most)."""


def draw_spots(h: int, v: int, n: int, k: int, rng: random.Random) -> list[Segment]:
    """`k` distinct placements of length `n` drawn uniformly from the start cells `h`
    (horizontal) and `v` (vertical); all of them, in order, when there are at most `k`.

    Drawn without listing the placements: a playout draws two of a hundred starts and builds
    only those two segments."""
    total = h.bit_count() + v.bit_count()
    if total <= k:
        return list(segments_from_starts(h, v, n))
    draw = rng.random
    if total <= LIST_MAX:
        cells = []
        while h:
            low = h & -h
            cells.append(low.bit_length() - 1)
            h ^= low
        while v:
            low = v & -v
            cells.append(low.bit_length() + 99)
            v ^= low
        for t in range(k):  # the first k steps of a Fisher-Yates shuffle
            j = t + int(draw() * (total - t))
            cells[t], cells[j] = cells[j], cells[t]
        picked = cells[:k]
    else:
        both = h | v << 100  # vertical starts as cells 100..199
        bits = rng.getrandbits
        picked = []
        while len(picked) < k:
            cell = bits(8)
            if cell < 200 and both >> cell & 1 and cell not in picked:
                picked.append(cell)
    hs, vs = H_SEG[n], V_SEG[n]
    return [hs[c] if c < 100 else vs[c - 100] for c in picked]


def play_out(scratch: FoundationsScratch, rng: random.Random, plies: int, tm: TimeManager,
             deviate: float, sample: int) -> int:
    """Play both sides on `scratch` until the game ends, `plies` are played or `tm` says stop;
    the number of plies played (passes included).

    Each move: the shortest length that fits; `deviate` of the time instead the length of a
    uniformly drawn legal placement; the spot is the snuggest (fewest free neighbours, ties
    at random) of at most `sample` drawn start cells of that length."""
    shortest, groups_from, free_cells, place = (scratch.shortest, scratch.groups_from,
                                                scratch.free_cells, scratch.place)
    draw = rng.random
    played = 0
    while played < plies:
        first = shortest()
        if first is None:
            if scratch.is_over():
                break
            scratch.pass_turn()
        else:
            level, n, h, v = first
            if draw() < deviate:
                every = groups_from(level, n)
                pick = uniform_index(rng, [gh.bit_count() + gv.bit_count() for _, gh, gv in every])
                assert pick is not None  # `first` holds at least one placement
                n, h, v = every[pick[0]]
            free = free_cells(level)
            drawn = draw_spots(h, v, n, sample, rng)
            best, best_key = drawn[0], 1e9
            for seg in drawn:
                key = (NEIGHBOURS[seg.index] & free).bit_count() + draw()
                if key < best_key:
                    best, best_key = seg, key
            place(best, level)
        played += 1
        if not played % STOP_CHECK_PLIES and tm.stopped():
            break
    return played


def playout_move(game: FoundationsGame, rng: random.Random, sample: int, deviate: float) -> Place | Pass | None:
    """The policy's move in `game` (module docstring); a pass when the mover cannot place,
    None when the game is over.

    Built from the rules' start bitboards (``shortest_group``, and ``placement_groups``
    when deviating): only the chosen placement becomes a Move."""
    first = game.shortest_group()
    if first is None:
        return None if game.is_over() else PASS
    group = first
    if rng.random() < deviate:
        every = list(game.placement_groups())
        pick = uniform_index(rng, [h.bit_count() + v.bit_count() for _, _, h, v in every])
        assert pick is not None  # `first` holds at least one placement
        group = every[pick[0]]
    level, n, h, v = group
    free = game.free_cells(level)
    spots = list(segments_from_starts(h, v, n))
    drawn = spots if len(spots) <= sample else rng.sample(spots, sample)
    best, best_key = drawn[0], 1e9
    for seg in drawn:
        key = (NEIGHBOURS[seg.index] & free).bit_count() + rng.random()
        if key < best_key:
            best, best_key = seg, key
    return Place(best, level)
