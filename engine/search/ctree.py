"""Runs a search tree in C (engine/search/native/_tree.h, a game core's `Tree`) within one search's limits.

The tree is mcts.py's algorithm with the whole simulation in C. It runs in short slices of
RUN_SIMULATIONS simulations, each stopping at once at the node limit, a deadline or the depth
limit; between slices the `stop` event is looked at, the node count handed to the time manager
and the reports sent, as run_mcts does after every simulation. The GIL stays held during a slice
(a few ms), so the driver's watchdog may read the tree's latest line (ctx.snapshot) between two.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from protocol.messages import Info
from protocol.moves import Move

from .context import SearchContext
from .winchance import proven_score, win_probability_to_cp

TREE_NODES = 1 << 20
"""Nodes a tree may hold (32 bytes each): reached after some 30 s of one search; the tree then stops
growing and keeps refining its values."""
TREE_SLOTS = 1 << 22
"""Candidate moves its nodes may hold together (16 bytes each)."""

RUN_SIMULATIONS = 64
"""Simulations between two looks at `stop` and the reports (a few ms in every game)."""


class CTree(Protocol):
    """What run_tree asks of a core's Tree (engine/search/native/_tree.h documents each)."""

    def run(self, simulations: int, node_limit: int, soft_deadline: float, hard_deadline: float,
            depth_limit: int) -> bool: ...
    def info(self) -> tuple[int | None, list[int], int, float, int, int, int, int]: ...
    def root(self) -> list[tuple[int, float, int, float | None]]: ...
    def size(self) -> tuple[int, int]: ...


def tree_info(tree: CTree, move_of: Callable[[int], Move], playouts: bool) -> Info:
    """The tree's current line and score, as mcts.MCTS.info gives them (`playouts`: report rollouts)."""
    _, pv, visits, mean, proven, seldepth, simulations, _ = tree.info()
    info = Info(depth=len(pv), seldepth=seldepth, visits=visits, score_cp=win_probability_to_cp(mean),
                pv=[str(move_of(code)) for code in pv])
    if playouts:
        info.rollouts = simulations
    if proven:
        info.score_cp, info.wdl = proven_score(1)
    return info


def run_tree(tree: CTree, ctx: SearchContext[Any], move_of: Callable[[int], Move],
             playouts: bool) -> tuple[Move, Info]:
    """Simulate until ctx's limits say stop; (the most visited root move, the final Info), as run_mcts."""
    tm = ctx.tm
    start_nodes = tm.nodes
    node_limit = max(1, tm.node_limit - start_nodes) if tm.node_limit is not None else 0
    soft, hard = tm.soft_deadline() or 0.0, tm.hard_deadline() or 0.0
    depth = tm.depth_limit or 0
    ctx.snapshot = lambda: tree_info(tree, move_of, playouts)
    while True:
        limited = tree.run(RUN_SIMULATIONS, node_limit, soft, hard, depth)
        tm.nodes = start_nodes + tree.info()[7]
        ctx.maybe_report()
        if limited or tm.soft_expired():
            break
    best = tree.info()[0]
    assert best is not None, "a tree runs at least one simulation"
    return move_of(best), tree_info(tree, move_of, playouts)
