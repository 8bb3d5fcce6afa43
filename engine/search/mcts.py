"""Monte-Carlo tree search with PUCT selection and progressive widening.

Made for huge branching factors: a node does not look at all its moves at
once. The game's knowledge gives each node a list of candidate moves, best
first, with prior probabilities; only the first ``k(N) = widen_base +
widen_factor * N ** widen_power`` of them (N = the node's visits) compete for
visits, so the tree grows deep along good moves and widens as it learns.

Selection maximises ``Q + c_puct * P * sqrt(N) / (1 + n)``; an unvisited
child's Q is its parent's Q minus ``fpu_reduction`` (the first-play urgency).
These numbers are an MCTSSettings, each game's own (its searcher's settings
hold one). A new leaf is valued by the knowledge's ``leaf_value`` (a static
evaluation, possibly after a short playout) as the probability that its side to
move wins; game ends are exact. A leaf's candidates are built at its second
visit, not its first (most leaves get only one; the search is the same, only
faster). Turns need not alternate (a player who passed is skipped), so each
edge keeps statistics for the player who made that move.

Units: a *node* (for `go nodes` and `info nodes`) is one position reached by a
push, in the tree or in a playout; a *visit* is one simulation (select,
expand, evaluate, back up). `info depth` is the length of the principal
variation (most-visited line), `seldepth` the deepest line the tree holds.
Determinism: all choices use the given rng and node counts, never the clock,
so a search limited by nodes (not time) is reproducible.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from operator import ge
from typing import Any, Generic, Protocol, TypeVar

from protocol.game import Game
from protocol.messages import Info
from protocol.moves import PASS, Move

from .context import SearchContext
from .winchance import proven_score, win_probability_to_cp

Scored = list[tuple[Move, float]]
"""Candidate moves with their prior weights, best first."""


@dataclass(frozen=True)
class MCTSSettings:
    """The tree's numbers (module docstring); each game's searcher holds its own."""

    c_puct: float = 1.4
    fpu_reduction: float = 0.2
    widen_base: int = 3
    widen_factor: float = 1.5
    widen_power: float = 0.5
    inner_max_children: int = 64
    """Candidates an inner node keeps (best prior first): progressive widening reaches
    3 + 1.5 * sqrt(N) of them, 64 only after ~1,600 visits to that node. The root keeps all."""

    def numbers(self) -> tuple[float, float, int, float, float, int]:
        """These numbers in the order the C trees read them (engine/search/native/_tree.h)."""
        return (self.c_puct, self.fpu_reduction, self.widen_base, self.widen_factor, self.widen_power,
                self.inner_max_children)


G = TypeVar("G", bound=Game, contravariant=True)
GameT = TypeVar("GameT", bound=Game)


class Node:
    """A position in the tree: its candidate moves, priors, children and statistics.

    `visits`/`total` are the statistics of the move that leads here, from the
    point of view of `mover`, the player who made it.
    """

    __slots__ = ("mover", "visits", "total", "moves", "priors", "children", "terminal", "exact", "outcome",
                 "tried", "ordered")

    def __init__(self, mover: int):
        self.mover = mover
        self.visits = 0
        self.total = 0.0
        self.moves: list[Move] | None = None
        self.priors: list[float] | None = None
        self.children: list[Node | None] | None = None
        self.terminal = False
        self.exact: float | None = None  # value for `mover` when the game ended here
        self.outcome = 0  # when the game ended here: 1 `mover` won, -1 lost, 0 a draw (a proven result)
        self.tried = 0  # children built so far (each was visited when it was built)
        self.ordered = False  # priors best first: the tried children are then the first `tried`

    def q(self) -> float:
        return self.total / self.visits if self.visits else 0.5


class Knowledge(Protocol[G]):
    """What MCTS asks of a game's knowledge.

    candidates(game): (move, prior) best first, priors >= 0 on any scale;
    leaf_value(game, rng, ctx): the probability that the side to move wins;
    terminal_value(game, color): 1 win, 0.5 draw, 0 loss for `color`;
    uses_playouts: whether leaf values come from playouts (reported as `rollouts`)."""

    @property
    def uses_playouts(self) -> bool: ...
    def candidates(self, game: G) -> Scored: ...
    def leaf_value(self, game: G, rng: random.Random, ctx: SearchContext[Any]) -> float: ...
    def terminal_value(self, game: G, color: int) -> float: ...


class MCTS(Generic[GameT]):
    """One search tree over `game` (mutated with push/pop during the search, restored after)."""

    def __init__(self, game: GameT, knowledge: Knowledge[GameT], ctx: SearchContext[Any], rng: random.Random,
                 settings: MCTSSettings, root_moves: Scored | None = None) -> None:
        self.game = game
        self.k = knowledge
        self.c_puct = settings.c_puct
        self.fpu_reduction = settings.fpu_reduction
        self.widen_base = settings.widen_base
        self.widen_factor = settings.widen_factor
        self.widen_power = settings.widen_power
        self.inner_max_children = settings.inner_max_children
        self.ctx = ctx
        self.rng = rng
        self.root = Node(mover=1 - game.turn)
        self.max_depth = 0
        self.simulations = 0
        if root_moves is not None:
            self._set_moves(self.root, root_moves)

    # -- expansion ----------------------------------------------------------------
    def _set_moves(self, node: Node, scored: Scored) -> None:
        if not scored:
            scored = [(PASS, 1.0)]
        if node is not self.root and len(scored) > self.inner_max_children:
            scored = scored[:self.inner_max_children]
        node.moves = [m for m, _ in scored]
        weights = [p if p > 0.0 else 0.0 for _, p in scored]  # max(0.0, p), NaN included, in one pass
        total = sum(weights)
        if total <= 0:
            node.priors = [1.0 / len(scored)] * len(scored)
        else:
            node.priors = [p / total for p in weights]
        node.children = [None] * len(scored)
        priors = node.priors
        node.ordered = all(map(ge, priors, priors[1:]))

    def _widening(self, node: Node) -> int:
        assert node.moves is not None
        return min(len(node.moves), self.widen_base + int(self.widen_factor * node.visits ** self.widen_power))

    def _select(self, node: Node) -> int:
        """Index of the child to descend into (PUCT over the widened prefix).

        With priors best first, untried children are tried in order (among them the first has
        the highest score), so the tried ones are a prefix and only the first untried one
        needs a score: the same choice, in a third of the time at a wide inner node."""
        limit = self._widening(node)
        if node.ordered and node.tried < limit:
            limit = node.tried + 1
        sqrt_n = math.sqrt(node.visits + 1)
        fpu = max(0.0, (1.0 - node.q()) - self.fpu_reduction) if node.visits else 0.5
        best_i, best_score = 0, -1e18
        c_puct = self.c_puct
        children, priors = node.children, node.priors
        assert children is not None and priors is not None
        for i in range(limit):
            child = children[i]
            if child is None or child.visits == 0:
                q, n = fpu, 0
            else:
                q, n = child.total / child.visits, child.visits
            score = q + c_puct * priors[i] * sqrt_n / (1 + n)
            if score > best_score:
                best_i, best_score = i, score
        return best_i

    # -- one simulation -------------------------------------------------------------
    def simulate(self) -> None:
        """Select down the tree, expand one leaf, evaluate it, back the value up."""
        game = self.game
        node = self.root
        path = [node]
        pushed = 0
        try:
            while True:
                if node.terminal:
                    assert node.exact is not None  # set with `terminal`
                    value_for = node.mover
                    value = node.exact
                    break
                if node.moves is None:
                    if game.is_over():
                        node.terminal = True
                        node.exact = self.k.terminal_value(game, node.mover)
                        node.outcome = _outcome(game, node.mover)
                        value_for, value = node.mover, node.exact
                        break
                    if node.visits == 0:
                        # A new leaf is only valued; its candidates wait for its second visit
                        # (most leaves never get one, and building candidates is a quarter of
                        # a simulation). Candidates do not depend on the rng: same search.
                        value = self.k.leaf_value(game, self.rng, self.ctx)
                        value_for = game.turn
                        break
                    self._set_moves(node, self.k.candidates(game))
                i = self._select(node)
                children, moves = node.children, node.moves
                assert children is not None and moves is not None  # set with `moves`
                child = children[i]
                mover = game.turn
                game.push(moves[i])
                pushed += 1
                self.ctx.tm.nodes += 1
                if child is None:
                    child = Node(mover)
                    children[i] = child
                    node.tried += 1
                node = child
                path.append(node)
        finally:
            for _ in range(pushed):
                game.pop()
        if len(path) - 1 > self.max_depth:
            self.max_depth = len(path) - 1
        for n in path:
            n.visits += 1
            n.total += value if n.mover == value_for else 1.0 - value
        self.simulations += 1

    # -- results ----------------------------------------------------------------
    def best_index(self) -> int:
        root = self.root
        best_i, best_key = 0, (-1, -1.0)
        for i, child in enumerate(root.children or []):
            if child is None:
                continue
            key = (child.visits, child.q())
            if key > best_key:
                best_i, best_key = i, key
        return best_i

    def best_move(self) -> Move:
        assert self.root.moves is not None
        return self.root.moves[self.best_index()]

    def principal_variation(self) -> list[Move]:
        pv: list[Move] = []
        node = self.root
        while node.children:
            best, best_visits = None, 0
            for i, child in enumerate(node.children):
                if child is not None and child.visits > best_visits:
                    best, best_visits = i, child.visits
            if best is None:
                break
            assert node.moves is not None
            pv.append(node.moves[best])
            next_node = node.children[best]
            assert next_node is not None
            node = next_node
        return pv

    def pv_depth_reached(self, depth: int) -> bool:
        """The most-visited line is `depth` plies long, or ends the game sooner."""
        node, plies = self.root, 0
        while plies < depth:
            if node.terminal:
                return True
            if not node.children:
                return False
            best, best_visits = None, 0
            for child in node.children:
                if child is not None and child.visits > best_visits:
                    best, best_visits = child, child.visits
            if best is None:
                return False
            node, plies = best, plies + 1
        return True

    def info(self) -> Info:
        """The search's current line and score: an estimate (the best child's mean), or a proven
        win when the best move ends the game won. Reads the tree only (another thread may ask)."""
        pv = self.principal_variation()
        root = self.root
        value = 0.5
        child = root.children[self.best_index()] if root.children else None
        if child is not None and child.visits:
            value = child.q()
        info = Info(depth=len(pv), seldepth=self.max_depth, visits=root.visits,
                    score_cp=win_probability_to_cp(value), pv=[str(m) for m in pv])
        if child is not None and child.terminal and child.outcome > 0:
            info.score_cp, info.wdl = proven_score(1)
        return info

    def run(self, should_stop: Callable[[], bool]) -> None:
        """Simulate until should_stop() (checked after every simulation)."""
        ctx = self.ctx
        ctx.snapshot = self.info
        while True:
            self.simulate()
            ctx.maybe_report()
            if should_stop():
                return


def _outcome(game: Game, color: int) -> int:
    """1 if `color` won the finished `game`, -1 if it lost, 0 for a draw."""
    result = game.result()
    assert result is not None, "only finished games have an outcome"
    return 0 if result.winner is None else (1 if result.winner == color else -1)


def run_mcts(game: GameT, knowledge: Knowledge[GameT], ctx: SearchContext[Any], rng: random.Random,
             root_moves: Scored, settings: MCTSSettings) -> tuple[Move, Info]:
    """Search from `game` until the limits say stop; (best move, final Info).

    Stops at the soft deadline, the node limit, `stop`, or (with `go depth d`)
    once the principal variation is d plies long or ends the game.
    """
    if len(root_moves) == 1:
        return root_moves[0][0], Info(depth=1, pv=[str(root_moves[0][0])])
    tree = MCTS(game, knowledge, ctx, rng, settings, root_moves=root_moves)
    tm = ctx.tm
    depth_limit = tm.depth_limit

    def should_stop() -> bool:
        if tm.soft_expired():
            return True
        if depth_limit is not None:
            return tree.pv_depth_reached(depth_limit)
        return False

    tree.run(should_stop)
    info = tree.info()
    if knowledge.uses_playouts:
        info.rollouts = tree.simulations
    return tree.best_move(), info
