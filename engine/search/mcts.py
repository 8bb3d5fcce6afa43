"""Monte-Carlo tree search with PUCT selection and progressive widening.

Made for huge branching factors: a node does not look at all its moves at
once. The game's knowledge gives each node a list of candidate moves, best
first, with prior probabilities; only the first ``k(N) = WIDEN_BASE +
WIDEN_FACTOR * N ** WIDEN_POWER`` of them (N = the node's visits) compete for
visits, so the tree grows deep along good moves and widens as it learns.

Selection maximises ``Q + C_PUCT * P * sqrt(N) / (1 + n)``; an unvisited
child's Q is its parent's Q minus FPU_REDUCTION. A game's knowledge may set its
own ``fpu_reduction`` and ``widen_factor`` (FOUNDATIONS does). A new leaf is valued by the
knowledge's ``leaf_value`` (a static evaluation, possibly after a short
playout) as the probability that its side to move wins; game ends are exact.
A leaf's candidates are built at its second visit, not its first (most leaves
get only one; the search is the same, only faster).
Turns need not alternate (a player who passed is skipped), so each edge keeps
statistics for the player who made that move.

Units: a *node* (for `go nodes` and `info nodes`) is one position reached by a
push, in the tree or in a playout; a *visit* is one simulation (select,
expand, evaluate, back up). `info depth` is the length of the principal
variation (most-visited line), `seldepth` the deepest line the tree holds.
Determinism: all choices use the given rng and node counts, never the clock,
so a search limited by nodes (not time) is reproducible.

Tried in FOUNDATIONS at 100 ms a move and not kept (2026-11-24):
- keeping the last tree between moves: the node for the new position held a
  median of 31 visits, against about 720 simulations a search (4%), and scored
  84.5% against `flatmc` in-process (200 games, book) where the search without
  it scored 85.2%;
- all-moves-as-first (RAVE) statistics, blended with weight a / (a + n + a * n):
  23% fewer simulations a second; 52.3% over 600 games in-process against the
  search without them, but through the referee (shipped book, st=0.1) the SPRT
  [0, 30] accepted H0 after 339 games: -12 Elo (-47, +23);
- a larger exploration constant for FOUNDATIONS alone (2.5 instead of 1.4):
  in-process 2.0 and 3.0 each scored 56.2% (+-4.3) over 400 games against 1.4
  (book, --offset 12000; 0.9 scored 46.2%, and 1.4 against itself 49.5%), but
  through the referee (shipped book, st=0.1) the SPRT [0, 30] of 2.5 accepted H0
  after 387 games: -9 Elo (-42, +24). (That build also drew a playout's two spots
  without listing the others: the same search, about 2% faster in all.)
- an exact end-game solver first (2026-11-25): alpha-beta to the game's end,
  win/draw/loss only, a null window just under a win, tried when both hands held at
  most 10 pieces, given 3,000 nodes (about 15 ms), a proven win played at once:
  in-process 46.5% (+-4.8) over 300 games against the search without it (new
  book, 100 ms, --offset 5000). A proven win is one the MCTS mostly finds too, and
  the attempts that run out of budget cost time where the MCTS needs it.
- an end-game alpha-beta instead of the MCTS (2026-11-25) when both hands held at most
  8 pieces: the 12 best quick guesses a ply, leaves valued by the hand margin: 29.9%
  (+-4.3) over 400 games in-process against the search without it (--offset 30000).
  Over 12 candidates a ply it "proves" wins that the opponent's other moves refute.
- sharper or flatter priors (foundations_search.PRIOR_TEMPERATURE 0.6 and 1.7, against
  1.0): 45.0% (+-4.6) and 51.2% (+-4.5), 400 games each (--offset 31000); ties between
  equally good guesses broken by a hash of the spot and the free cells, not the rules'
  order (horizontal first): 50.7% (+-4.2), 400 (--offset 41000); a game end with equal
  hands valued by the margin of points on the deciding level (the tiebreak), not 0:
  48.5% (+-4.7), 400 (--offset 34000); the answer the best mean among the moves with
  at least 60% of the most visits, not the most visited: 49.5% (+-4.3), 400 (--offset 43000).

Simulations are what FOUNDATIONS' search lacks most: in-process the same search
with 300 ms scored 79.8% (+-4.9) over 200 book games against itself with 100 ms,
and through the referee st=0.3 scored 81 of 100 against st=0.1. Trimming the
playout (spots drawn without listing the others, the clock looked at every 8
plies: the same search, 6% faster at a fixed node count, about 3% more nodes at
movetime 100) was too small a step to show: its SPRT [-20, 10] (shipped book,
st=0.1) accepted H0 after 621 games, -19 Elo (-45, +7), and it was not merged.
Rebuilt instead on a scratch copy (engine/search/foundations_playout.py, the same
policy), FOUNDATIONS playouts take about 35% less time, and the engine makes
about 1.3x the nodes at movetime 100 (1.2x under the referee's load). Its SPRT
[-10, 20] against the search before it (shipped book, st=0.1) accepted H1 after
1,097 games: 51.8%, pair-based Elo +13 (-5, +31): more simulations are worth
less here than three times the time suggested.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from operator import ge
from typing import Any, Protocol

from protocol.game import Game
from protocol.messages import Info
from protocol.moves import PASS, Move

from .context import SearchContext, win_probability_to_cp

Scored = list[tuple[Move, float]]
"""Candidate moves with their prior weights, best first."""

C_PUCT = 1.4
FPU_REDUCTION = 0.2
WIDEN_BASE = 3
WIDEN_FACTOR = 1.5
WIDEN_POWER = 0.5
INNER_MAX_CHILDREN = 64
"""Candidates an inner node keeps (best prior first): progressive widening reaches
3 + 1.5 * sqrt(N) of them, 64 only after ~1,600 visits to that node. The root keeps all."""


class Node:
    """A position in the tree: its candidate moves, priors, children and statistics.

    `visits`/`total` are the statistics of the move that leads here, from the
    point of view of `mover`, the player who made it.
    """

    __slots__ = ("mover", "visits", "total", "moves", "priors", "children", "terminal", "exact", "tried",
                 "ordered")

    def __init__(self, mover: int):
        self.mover = mover
        self.visits = 0
        self.total = 0.0
        self.moves: list[Move] | None = None
        self.priors: list[float] | None = None
        self.children: list[Node | None] | None = None
        self.terminal = False
        self.exact: float | None = None  # value for `mover` when the game ended here
        self.tried = 0  # children built so far (each was visited when it was built)
        self.ordered = False  # priors best first: the tried children are then the first `tried`

    def q(self) -> float:
        return self.total / self.visits if self.visits else 0.5


class PlayoutKnowledge:
    """Knowledge whose leaves are valued by playing on with a cheap policy (FOUNDATIONS, HARI).

    Subclasses give candidates, terminal_value, playout_move(game, rng) and
    static_value(game, color) for a playout cut short by the ply cap or a stop.
    """

    uses_playouts = True
    playout_plies = 40

    def candidates(self, game: Any) -> Scored:
        raise NotImplementedError

    def terminal_value(self, game: Any, color: int) -> float:
        raise NotImplementedError

    def playout_move(self, game: Any, rng: random.Random) -> Move:
        raise NotImplementedError

    def static_value(self, game: Any, color: int) -> float:
        raise NotImplementedError

    def leaf_value(self, game: Any, rng: random.Random, ctx: SearchContext) -> float:
        """Play both sides on; value for the side to move now. The game is restored."""
        me = game.turn
        pushed = 0
        try:
            while not game.is_over() and pushed < self.playout_plies:
                game.push(self.playout_move(game, rng))
                pushed += 1
                ctx.tm.nodes += 1
                if ctx.tm.stopped():
                    break
            if game.is_over():
                return self.terminal_value(game, me)
            return self.static_value(game, me)
        finally:
            for _ in range(pushed):
                game.pop()


class Knowledge(Protocol):
    """What MCTS asks of a game's knowledge (see MCTS)."""

    def candidates(self, game: Any) -> Scored: ...
    def leaf_value(self, game: Any, rng: random.Random, ctx: SearchContext) -> float: ...
    def terminal_value(self, game: Any, color: int) -> float: ...


class MCTS:
    """One search tree over `game` (mutated with push/pop during the search, restored after).

    knowledge must provide:
      candidates(game) -> list[(move, prior)]  (best first; priors >= 0, any scale)
      leaf_value(game, rng, ctx) -> float       (probability the side to move wins)
      terminal_value(game, color) -> float      (1 win, 0.5 draw, 0 loss for `color`)
    """

    def __init__(self, game: Game, knowledge: Knowledge, ctx: SearchContext, rng: random.Random,
                 root_moves: Scored | None = None) -> None:
        self.game = game
        self.k = knowledge
        self.fpu_reduction: float = getattr(knowledge, "fpu_reduction", FPU_REDUCTION)
        self.widen_factor: float = getattr(knowledge, "widen_factor", WIDEN_FACTOR)
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
        if node is not self.root and len(scored) > INNER_MAX_CHILDREN:
            scored = scored[:INNER_MAX_CHILDREN]
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
        return min(len(node.moves), WIDEN_BASE + int(self.widen_factor * node.visits ** WIDEN_POWER))

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
        children, priors = node.children, node.priors
        assert children is not None and priors is not None
        for i in range(limit):
            child = children[i]
            if child is None or child.visits == 0:
                q, n = fpu, 0
            else:
                q, n = child.total / child.visits, child.visits
            score = q + C_PUCT * priors[i] * sqrt_n / (1 + n)
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
        pv = self.principal_variation()
        root = self.root
        value = 0.5
        if root.children:
            child = root.children[self.best_index()]
            if child is not None and child.visits:
                value = child.q()
        return Info(depth=len(pv), seldepth=self.max_depth, visits=root.visits,
                    score_cp=win_probability_to_cp(value), pv=[str(m) for m in pv])

    def run(self, should_stop: Callable[[], bool]) -> None:
        """Simulate until should_stop() (checked after every simulation)."""
        ctx = self.ctx
        ctx.snapshot = self.info
        while True:
            self.simulate()
            ctx.maybe_report()
            if should_stop():
                return


def run_mcts(game: Game, knowledge: Knowledge, ctx: SearchContext, rng: random.Random,
             root_moves: Scored) -> tuple[Move, Info]:
    """Search from `game` until the limits say stop; (best move, final Info).

    Stops at the soft deadline, the node limit, `stop`, or (with `go depth d`)
    once the principal variation is d plies long or ends the game.
    """
    if len(root_moves) == 1:
        return root_moves[0][0], Info(depth=1, pv=[str(root_moves[0][0])])
    tree = MCTS(game, knowledge, ctx, rng, root_moves=root_moves)
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
    if getattr(knowledge, "uses_playouts", False):
        info.rollouts = tree.simulations
    return tree.best_move(), info
