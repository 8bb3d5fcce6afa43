"""FOUNDATIONS' search tree, leaf values and move ordering from the C core (engine/games/foundations/_search_core.c,
with engine/search/native/_tree.h), when it was built.

A leaf of FOUNDATIONS' tree is valued by the static model (value.model_value) and one
playout (playout.play_out), and an inner node's moves are ordered by ordering's cheap
guesses; the C core answers these many times faster, so the search runs more simulations
in its time. This module hands it a position and the model's weights (value.py's, the one
copy) and returns numbers; nothing it plays leaves the playout or the tree, whose moves come back as codes
(segment index * 16 + level, -1 for a pass) that the driver checks. ``AVAILABLE`` is False where
the extension could not be compiled (setup.py builds it as optional); the search then
values leaves in Python.
"""

from __future__ import annotations

import random
from types import ModuleType
from typing import NamedTuple

from engine.games.parts import compiled
from engine.search.ctree import TREE_NODES, TREE_SLOTS, CTree
from protocol.board import SEGMENTS
from protocol.games.foundations.rules import FoundationsGame
from protocol.moves import PASS, Move, Place

from .playout_core import position_tuple
from .settings import FoundationsSettings
from .value import BIAS, WEIGHTS

_core: ModuleType | None = compiled("engine.games.foundations._search_core")
"""The C core; None where it was not compiled, and then the Python playouts play instead."""

AVAILABLE = _core is not None



class Leaf(NamedTuple):
    """What the C core says of a leaf: the model's value (read before the playout), then the
    playout's plies, whether the game ended, both hand values and the winner (None: a draw or
    not over)."""

    model: float
    plies: int
    over: bool
    scores: tuple[int, int]
    winner: int | None


def leaf(game: FoundationsGame, rng: random.Random, plies: int, deviate: float, sample: int) -> Leaf:
    """The static model of `game` for its side to move and one playout of at most `plies` plies
    (playout.play_out's policy with `deviate` and `sample`), seeded from `rng`."""
    assert _core is not None
    model, played, over, dark, light, winner = _core.leaf(position_tuple(game), rng.getrandbits(64), plies,
                                                          deviate, sample, WEIGHTS, BIAS)
    return Leaf(model, played, bool(over), (dark, light), None if winner < 0 else winner)


_PLACES: list[Place | None] = [None] * (len(SEGMENTS) * 16)
"""Place moves by segment index * 16 + level, made once each (a frozen dataclass is slow to build)."""


def _place(code: int) -> Place:
    made = _PLACES[code] = Place(SEGMENTS[code >> 4], code & 15)
    return made


def ordered_moves(game: FoundationsGame, keep: int, temperature: float) -> list[tuple[Move, float]]:
    """The best `keep` of ordering.candidate_moves(game, temperature, keep=keep), computed by the C
    core: each placement with its prior exp((guess - best guess) / temperature); [(PASS, 1.0)]
    when the mover must pass."""
    assert _core is not None
    rows = _core.ordered(position_tuple(game), keep, temperature)
    if not rows:
        return [(PASS, 1.0)]
    return [(move_of(code), prior) for code, prior in rows]


def model(game: FoundationsGame) -> float:
    """value.model_value of `game`, computed by the C core."""
    assert _core is not None
    return float(_core.model(position_tuple(game), WEIGHTS, BIAS))


def playout(game: FoundationsGame, seed: int, plies: int, deviate: float, sample: int) -> list[tuple[int, int] | None]:
    """The moves of one C playout from `game`: (segment index, level), or None for a pass."""
    assert _core is not None
    return [None if m < 0 else (m >> 4, m & 15) for m in _core.playout(position_tuple(game), seed, plies,
                                                                          deviate, sample)]


def code_of(move: Move) -> int:
    """The C core's code of a FOUNDATIONS move: segment index * 16 + level, -1 for a pass."""
    if move == PASS:
        return -1
    if not isinstance(move, Place):
        raise ValueError(f"{move} is not a FOUNDATIONS move (a placement or a pass)")
    return move.segment.index * 16 + move.level


def move_of(code: int) -> Move:
    """The move of a C core code (code_of's inverse)."""
    return PASS if code < 0 else (_PLACES[code] or _place(code))


def tree_game(s: FoundationsSettings) -> tuple[object, ...]:
    """FOUNDATIONS' numbers of a C tree (engine/search/native/_tree.h), in its order: the priors' temperature and
    FoundationsKnowledge.leaf_value's."""
    return (s.prior_temperature, s.leaf_mix, s.playout_plies, s.deviate, s.playout_sample, s.wdl_weight,
            s.margin_scale, WEIGHTS, BIAS)


def new_tree(game: FoundationsGame, root: list[tuple[Move, float]], settings: FoundationsSettings, seed: int,
             max_nodes: int = TREE_NODES, max_slots: int = TREE_SLOTS) -> CTree:
    """A C search tree from `game` whose root has the candidates `root` (move, prior weight)."""
    assert _core is not None
    tree: CTree = _core.Tree(position_tuple(game), [(code_of(m), p) for m, p in root], settings.mcts.numbers(),
                            tree_game(settings), seed, max_nodes, max_slots)
    return tree
