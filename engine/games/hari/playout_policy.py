"""HARI playouts: both sides play their shortest piece snugly, and slide one own piece when nothing fits.

The policy (``playout_move``): the shortest playable piece on a snug spot (``skip`` of
the time the second-shortest length instead, giving up the shorter pieces); when
nothing fits, room made by one own slide (``slide_for_room``); else the shortest
piece's discard. The snug spot is packing.first_fit's (the top rows' snuggest), or with
`spread` packing.spread_fit's (the snuggest of about `spread` starts drawn anywhere, so
that the pieces do not pile up at the top). HARI's end game is mostly upgrades (slide a
4 off, put a 5 where it was): a playout that only discards there misjudges it, so the
search's playouts slide with `upgrades`.
"""

from __future__ import annotations

import random

from engine.games.packing import first_fit, spread_fit
from protocol.board import ALL_CELLS
from protocol.errors import IllegalMoveError
from protocol.games.hari.rules import HariGame, slide_ends, within_budget
from protocol.moves import PASS, HariMove, Move, Slide

from .race import touching, worth_sliding

SLIDE_TRIES = 24
"""(piece, end) options a playout's slide_for_room samples at most."""


def playout_move(game: HariGame, rng: random.Random, skip: float, upgrades: bool = False, spread: int = 0) -> Move:
    """The playout policy's move (module docstring)."""
    me = game.turn
    lengths = game.playable_lengths(me)
    if not lengths or game.is_over():  # no slide set at all: the mover must pass
        return PASS
    empty = game.empty_cells()
    if len(lengths) > 1 and rng.random() < skip:
        seg = spread_fit(empty, lengths[1], rng, spread) if spread else first_fit(empty, lengths[1])
        if seg is not None:
            return HariMove((), seg, 0)
    seg = spread_fit(empty, lengths[0], rng, spread) if spread else first_fit(empty, lengths[0])
    if seg is not None:
        return HariMove((), seg, 0)
    return slide_for_room(game, empty, lengths, rng, upgrades) or HariMove((), None, lengths[0])


def slide_for_room(game: HariGame, empty: int, lengths: list[int], rng: random.Random,
                   upgrades: bool = False) -> Move | None:
    """One own piece slid so that a playable length fits in the freed cells (SLIDE_TRIES
    (piece, end) options sampled at most); None if none.

    Without `upgrades` (the partners' playouts): along its line only, for the shortest
    length, a piece worth at most that length. With `upgrades` (the search's): also off
    the board when the piece played is worth more than the piece slid off, for every
    playable length, the shortest first, and a slide along the line before one off."""
    targets = lengths if upgrades else lengths[:1]
    occupied = ALL_CELLS & ~empty
    options = [(piece, end) for piece in game.pieces(game.turn) if within_budget(piece.value, targets[-1])
               for end in slide_ends(piece, occupied) if upgrades or end is not None]
    if len(options) > SLIDE_TRIES:
        options = rng.sample(options, SLIDE_TRIES)
    options.sort(key=lambda o: o[1] is None)  # along the line first: nothing is lost
    for n in targets:
        for piece, end in options:
            if not worth_sliding(piece, end is None, n):
                continue
            after = (empty | piece.mask) & ~(end.mask if end is not None else 0)
            seg = next(touching(after, n, piece), None)
            if seg is None:
                continue
            try:
                return game.check_move(HariMove((Slide(piece, end),), seg, 0))
            except IllegalMoveError:
                continue
    return None
