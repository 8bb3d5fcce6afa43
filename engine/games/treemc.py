"""The `treemc` sparring partner's part of a game's playout core: its numbers, and its C tree as a strategy
drives it (engine/search/native/_uct.h over the core's candidates and playouts, _playout_uct.h).

A game's playout core (engine/games/<game>/playout_core.py) declares its TreeMCSettings: which of the core's
parameters prune the root's candidates, which the inner nodes' (narrower: the tree goes deeper) and which
play the playouts. GameTree turns the game's positions into the core's and the core's moves into protocol
moves, so that engine/strategies/tree_mc.py knows no game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, NamedTuple, Protocol, TypeVar

from protocol.game import Game
from protocol.moves import Move

M = TypeVar("M")

TREE_NODES = 1 << 19
"""Nodes a tree may hold (32 bytes each): far more than a move of a few seconds makes; a full tree stops
growing and goes on refining by playouts."""
TREE_SLOTS = 1 << 20
"""Candidate moves its nodes may hold together (12 to 40 bytes each, by game)."""


class CoreSettings(Protocol):
    """A playout core's parameters (each game's frozen PlayoutSettings)."""

    def params(self) -> tuple[float, ...]: ...


@dataclass(frozen=True)
class TreeMCSettings:
    """The treemc partner's numbers in one game (SPEC 9.7): fixed, as a yardstick's are; tuning builds
    variants (`TreeMCStrategy({game: settings})`), nothing patches a module."""

    root: CoreSettings
    """The playout core's parameters that choose the root's candidates (as `fastmc`'s root)."""
    inner: CoreSettings
    """... those of the nodes below the root: fewer candidates, so that the tree goes deeper."""
    playouts: CoreSettings
    """... those of the playouts that value its leaves (the `fastmc` partner's policy)."""
    c: float = 0.5
    """UCB1's exploration constant (values in [0, 1])."""
    fpu: float = 1.1
    """The value an untried candidate counts as; above 1, every candidate is tried once, in the core's
    order, before any is tried twice."""
    expand_visits: int = 1
    """Visits a node has before it gets candidates (and children)."""

    def tree_params(self) -> tuple[float, float, int]:
        return (self.c, self.fpu, self.expand_visits)

    def game_params(self) -> tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]:
        return (self.root.params(), self.inner.params(), self.playouts.params())


class TreeInfo(NamedTuple):
    """Where a tree stands: its answer so far (None before any simulation), the most visited line, the root's
    visits, the answer's mean value for the side to move (0 to 1), simulations and plies since it was made
    or advanced, its deepest simulation and its nodes."""

    best: Move | None
    pv: list[Move]
    visits: int
    mean: float
    simulations: int
    plies: int
    seldepth: int
    nodes: int


class NativeTree(Protocol[M]):
    """A core's compiled UctTree (engine/search/native/_uct.h), whose moves are M."""

    def run(self, simulations: int, deadline: float, ply_limit: int) -> bool: ...
    def advance(self, position: tuple[object, ...]) -> int: ...
    def info(self) -> tuple[M | None, list[M], int, float, int, int, int, int]: ...
    def root(self) -> list[tuple[M, int, float | None]]: ...
    def size(self) -> tuple[int, int]: ...


NewNativeTree = Callable[[tuple[object, ...], tuple[tuple[float, ...], ...], tuple[float, float, int], int, int, int],
                         NativeTree[M]]
"""UctTree(position, game settings, tree settings, seed, max_nodes, max_slots)."""


@dataclass
class GameTree(Generic[M]):
    """A core's tree seen in protocol terms: positions in, moves out (moves not yet vetted by the rules)."""

    native: NativeTree[M]
    position: Callable[[Game], tuple[object, ...]]
    to_move: Callable[[M], Move]

    def advance(self, game: Game) -> int:
        """Make `game`'s position the root, keeping its subtree if the tree has it: the root visits kept."""
        return self.native.advance(self.position(game))

    def run(self, simulations: int, deadline: float, ply_limit: int) -> bool:
        """At most `simulations` more; True when the deadline (time.monotonic(); 0: none) or the plies since
        the tree was made or advanced (ply_limit; 0: none) ended them."""
        return self.native.run(simulations, deadline, ply_limit)

    def info(self) -> TreeInfo:
        best, pv, visits, mean, simulations, plies, seldepth, nodes = self.native.info()
        return TreeInfo(None if best is None else self.to_move(best), [self.to_move(m) for m in pv], visits, mean,
                        simulations, plies, seldepth, nodes)

    def ranked(self) -> list[Move]:
        """The root's candidates by visits, most first (ties: the higher mean, then the core's order)."""
        rows = self.native.root()
        order = sorted(range(len(rows)), key=lambda i: (-rows[i][1], -(rows[i][2] or 0.0), i))
        return [self.to_move(rows[i][0]) for i in order]

    def size(self) -> tuple[int, int]:
        """(nodes, candidate slots) the tree holds."""
        return self.native.size()


def new_tree(make: NewNativeTree[M], position: Callable[[Game], tuple[object, ...]], to_move: Callable[[M], Move],
             game: Game, settings: TreeMCSettings, seed: int) -> GameTree[M]:
    """A new tree at `game`'s position (ValueError from the core for numbers out of range)."""
    native = make(position(game), settings.game_params(), settings.tree_params(), seed, TREE_NODES, TREE_SLOTS)
    return GameTree(native, position, to_move)
