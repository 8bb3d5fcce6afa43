"""HARI's `fastmc` sparring partner: the position as its C core reads it, its answers as moves.

The core (engine/games/hari/_partner.c) runs flat Monte Carlo on its own bitboard model of
the position: UCB1 over pruned root candidates (snug placements per length, the shortest
piece's discard, one own piece slid to make room), epsilon-greedy playouts to the end of
the game (slides where the policy needs them: upgrades when nothing fits). This module
hands it a position and the policy's parameters and turns its moves back into protocol
moves; the strategy (engine/strategies/fast_mc.py) has the chosen one vetted by
``check_move``. ``AVAILABLE`` is False where the extension could not be compiled.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any

from protocol.board import SEGMENTS
from protocol.moves import PASS, HariMove, Move, Slide

_core: ModuleType | None
try:
    from engine.games.hari import _partner as _core
except ImportError:  # not compiled here: fastmc plays flatmc's Python playouts instead
    _core = None

AVAILABLE = _core is not None

# The playout policy and the root's width, in the C core's order (its module comment says how
# each is used); module constants so that benchmarks/ab_inprocess.py can try other values.
EPS = 0.05
"""Chance of a uniformly drawn playable length on a uniformly drawn spot instead of the greedy play."""
PLAY3 = 0.2
"""Chance of playing a 3 when it is the shortest playable length and a longer one fits."""
JUMP = 0.15
"""Chance of the next length that fits instead of the shortest."""
SAMPLE = 6
"""Spots drawn for the greedy placement; the snuggest is played."""
MARGIN_WEIGHT = 0.2
"""Share of a playout's value from the final board-value margin (the rest: win 1, draw 1/2, loss 0)."""
MARGIN_SCALE = 6.0
"""Board-value points per tanh unit of that margin."""
PER_LENGTH = 200
"""Root placements: the snuggest this many spots of each playable length."""
SLIDES = 64
"""Root slide moves (one own piece slid to make room for a scarce length): at most this many."""
SCARCE = 200
"""A length with fewer placements than this is scarce: the root tries sliding to make room for it."""
SPREAD = 1.0
"""Random jitter added to a spot's free-neighbour count (ties and near-ties at random)."""
UPGRADE = 1.0
"""1: when no playable length fits, a playout slides one own piece to make room (0: it discards)."""
UCB_C = 0.4
"""UCB1's exploration constant at the root."""

NativeMove = tuple[int, int, tuple[tuple[int, int], ...]]
"""(placed segment or -1 for a discard, length (0: a pass), ((slid piece, its end or -1 for off), ...))."""


def params() -> tuple[float, ...]:
    return (EPS, PLAY3, JUMP, SAMPLE, MARGIN_WEIGHT, MARGIN_SCALE, PER_LENGTH, SLIDES, SCARCE, SPREAD, UPGRADE)


def position_tuple(game: Any) -> tuple[Any, ...]:
    """The position as the C core reads it (HariGame's public state)."""
    return ([s.index for s in game.pieces(0)], [s.index for s in game.pieces(1)], game.hand(0), game.hand(1),
            game.min_length(0), game.min_length(1), game.turn, game.passes)


def to_move(native: Sequence[Any]) -> Move:
    """A core move as a protocol move (not yet checked by the rules)."""
    place, length, slides = native
    if length == 0:
        return PASS
    moves = tuple(Slide(SEGMENTS[start], SEGMENTS[end] if end >= 0 else None) for start, end in slides)
    if place >= 0:
        return HariMove(moves, SEGMENTS[place], 0)
    return HariMove(moves, None, length)


def core() -> ModuleType:
    assert _core is not None, "the HARI partner core is not built"
    return _core


def moves_left(game: Any) -> int:
    """The plays the side to move still has, roughly (for the clock): about two thirds of its
    playable pieces (short ones are often skipped)."""
    me = game.turn
    hand = game.hand(me)
    return max(1, int(sum(hand[n] for n in game.playable_lengths(me))) * 2 // 3)
