"""HARI's alpha-beta run by the C core (engine/games/hari/_search_core.c), when it was built.

The C core mirrors candidates.candidates, race.contest_margin (with upgrades) and the
alpha-beta of search.py about a hundred times faster, with a transposition table. This
module hands it a position, turns its answers back into protocol moves, and lets the rules
vet them: the driver plays a move only after ``check_move``. ``AVAILABLE`` is False where the
extension could not be compiled (setup.py builds it as optional); search.py then plays in
Python.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from types import ModuleType

from engine.games.parts import compiled
from engine.search.alphabeta import ABResult
from engine.search.context import SearchContext
from protocol.board import SEGMENTS
from protocol.games.hari.rules import HariGame
from protocol.messages import Info
from protocol.moves import PASS, HariMove, Move, Slide

from .playout_core import position_tuple
from .settings import HariSettings

_core: ModuleType | None = compiled("engine.games.hari._search_core")
"""The C core; None where it was not compiled, and then the Python alpha-beta plays instead."""

AVAILABLE = _core is not None

NativeMove = tuple[int, int, int, int]
"""(slid piece or -1, its end or -1 for off the board, placed segment or -1, length; 0 for a pass)."""


def to_move(native: Sequence[int]) -> Move:
    """A C move as a protocol move (not yet checked)."""
    start, end, place, length = native
    if length == 0:
        return PASS
    slides = (Slide(SEGMENTS[start], SEGMENTS[end] if end >= 0 else None),) if start >= 0 else ()
    if place >= 0:
        return HariMove(slides, SEGMENTS[place], 0)
    return HariMove(slides, None, length)


def candidates(game: HariGame, per_length: int, scarce: int, slide_max: int, blocks: int = 0,
               place_blocks: int = 0) -> list[Move]:
    """candidates.candidates(game, per_length, scarce, slide_max, blocks, place_blocks), computed by the C core."""
    assert _core is not None
    return [to_move(m) for m in _core.candidates(position_tuple(game), per_length, scarce, slide_max, blocks,
                                                 place_blocks)]


def contest_margin(game: HariGame, color: int) -> int:
    """race.contest_margin(game, color, upgrades=True), computed by the C core."""
    assert _core is not None
    return int(_core.contest_margin(position_tuple(game), color))


def _result(depth: int, value: float, pv: Sequence[Sequence[int]], complete: bool = True) -> ABResult:
    moves = [to_move(m) for m in pv]
    return ABResult(moves[0], value, depth, moves, complete)


def alpha_beta(game: HariGame, ctx: SearchContext[HariSettings], root_per_length: int, inner_per_length: int,
               max_depth: int, stop_when_decided: bool, info_of: Callable[[ABResult], Info],
               tie_seed: int = 0) -> ABResult:
    """Iterative-deepening alpha-beta to `max_depth` plies in the C core, within ctx's limits, with a
    transposition table of 2**table_bits entries (the settings'); `info_of` reports each iteration as
    the Python alpha-beta's would. A search over the only candidate is depth 0. A `tie_seed` (not 0)
    breaks ties between equal leaf values its own way (the engine's Seed makes its games vary). The
    settings' budget_tiers narrow the search after its first iteration where it can expect few nodes."""
    assert _core is not None
    settings = ctx.settings
    position = position_tuple(game)
    root = _core.candidates(position, root_per_length, settings.scarce, settings.slide_max, settings.blocks,
                            settings.place_blocks)
    if len(root) == 1:
        move = to_move(root[0])
        return ABResult(move, 0.0, 0, [move])
    tm = ctx.tm
    last: dict[str, Info | None] = {"info": None}
    top: list[tuple[int, list[tuple[float, list[NativeMove]]]]] = [(0, [])]
    start_nodes = tm.nodes

    def on_depth(depth: int, value: float, pv: list[NativeMove], nodes: int,
                 lines: list[tuple[float, list[NativeMove]]]) -> bool:
        tm.nodes = start_nodes + nodes
        last["info"] = info_of(_result(depth, value, pv))
        top[0] = (depth, lines)
        ctx.maybe_report()
        return tm.soft_expired() or ctx.depth_reached(depth)

    def should_stop(nodes: int) -> bool:
        """Between two iterations too, the counts go on and the last iteration's line is reported."""
        tm.nodes = start_nodes + nodes
        ctx.maybe_report()
        return tm.must_stop()

    ctx.snapshot = lambda: last["info"]
    ctx.lines = lambda count: [info_of(_result(top[0][0], v, line)) for v, line in top[0][1][:count]]
    hard, soft = tm.hard_deadline(), tm.soft_deadline()
    node_limit = max(1, tm.node_limit - tm.nodes) if tm.node_limit is not None else 0  # 0: none
    best, value, depth, nodes, complete, pv, lines = _core.search(
        position, root, inner_per_length, max_depth, settings.table_bits, node_limit,
        hard if hard is not None else 0.0, should_stop, on_depth, stop_when_decided, settings.scarce,
        settings.slide_max, tie_seed, settings.inner_blocks, settings.inner_place_blocks, max(1, min(ctx.multipv, 16)),
        soft if soft is not None else 0.0, settings.budget_tiers or None)
    tm.nodes = start_nodes + nodes
    if lines:
        top[0] = (depth, lines)
    if not math.isfinite(value):  # no iteration finished a single root move
        value = 0.0
    return _result(depth, value, pv or [best], bool(complete))
