"""Iterative-deepening alpha-beta (negamax) over a game's candidate moves.

Used where the tree is small enough to look at every candidate: the ISAAC
scoring phase (few pieces, a handful of worthwhile new scores each) and
endgames. Turns need not alternate (a player who has passed is skipped), so a
child's value is negated only when the side to move changed.

Units: `depth` is plies of candidates searched before the static evaluation;
a `node` is one position reached by a push (and the root): the same unit the
MCTS counts. The search stops at once (SearchAborted) when the time manager
says so; the last completed depth's move is then the answer.

Given a `key` (a hashable summary of a position), a transposition table keeps
each position's value bound, depth and best move for the life of the AlphaBeta
object (the searches make one per move): a bound deep enough answers the node
at once, and the stored best move is searched first (so each iteration starts
from the last one's lines). The candidates of a keyed position are computed
once per object too, so a keyed search's `candidates(game, ply)` must give the
same list wherever the position is reached.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from protocol.game import Game
from protocol.messages import Info
from protocol.moves import PASS, Move

from .context import SearchContext

INF = float("inf")
EXACT, LOWER, UPPER = 0, 1, 2
"""Transposition-table bounds: the value is exact, at least (a cut-off), or at most (all moves failed low)."""

GameT = TypeVar("GameT", bound=Game)


class SearchAborted(Exception):
    """Raised inside the tree when the time, node limit or stop event ends the search."""


@dataclass
class ABResult:
    move: Move
    value: float
    depth: int
    pv: list[Move] = field(default_factory=list)
    complete: bool = True
    proven: bool = False
    """The value is a proven win: the move ends the game won. Any other value, a "win" or a
    "loss" included, is an estimate over the candidates searched, not over every legal reply."""


class AlphaBeta(Generic[GameT]):
    """Negamax with alpha-beta pruning on `candidates(game, ply)` and `evaluate(game)`.

    `evaluate` and `terminal` return values for the side to move of the given
    game; wins are large (the knowledge's WIN scale) and adjusted by ply so
    that a quicker win is preferred. The clock is looked at every `check_every`
    nodes (a game whose nodes are slow looks at every one).
    """

    def __init__(self, ctx: SearchContext[Any], candidates: Callable[[GameT, int], Sequence[Move]],
                 evaluate: Callable[[GameT], float], terminal: Callable[[GameT, int], float],
                 win_value: float, key: Callable[[GameT], Hashable] | None = None, check_every: int = 16) -> None:
        self.ctx = ctx
        self.check_every = check_every
        self.key = key
        self.table: dict[Hashable, tuple[int, float, int, Move | None]] = {}
        self.moves: dict[Hashable, Sequence[Move]] = {}
        self.candidates = candidates
        self.evaluate = evaluate
        self.terminal = terminal
        self.win_value = win_value
        self._tick = 0
        self.root_order: list[Move] = []
        self.partial: ABResult | None = None
        self.top: list[ABResult] = []
        """The best ctx.multipv root moves of the last complete iteration, best first, each with its
        exact value and line (MultiPV: the root keeps alpha at the k-th best, not the best)."""

    # -- one node ---------------------------------------------------------------
    def _count_node(self) -> None:
        ctx = self.ctx
        ctx.tm.nodes += 1
        self._tick += 1
        if self._tick >= self.check_every:
            self._tick = 0
            ctx.maybe_report()
            if ctx.tm.must_stop():
                raise SearchAborted

    def _to_table(self, value: float, ply: int) -> float:
        """Win values count plies from the root; the table keeps them counted from the node."""
        if value >= self.win_value / 2:
            return value + ply
        if value <= -self.win_value / 2:
            return value - ply
        return value

    def _from_table(self, value: float, ply: int) -> float:
        if value >= self.win_value / 2:
            return value - ply
        if value <= -self.win_value / 2:
            return value + ply
        return value

    def _candidates(self, game: GameT, ply: int, key: Hashable | None) -> Sequence[Move]:
        if key is None:
            return self.candidates(game, ply) or [PASS]
        moves = self.moves.get(key)
        if moves is None:
            moves = self.moves[key] = self.candidates(game, ply) or [PASS]
        return moves

    def _search(self, game: GameT, depth: int, alpha: float, beta: float, ply: int, pv: list[Move]) -> float:
        if game.is_over():
            pv.clear()
            return self.terminal(game, ply)
        if depth <= 0:
            pv.clear()
            return self.evaluate(game)
        key = self.key(game) if self.key is not None else None
        hint: Move | None = None
        if key is not None:
            entry = self.table.get(key)
            if entry is not None:
                e_depth, e_value, e_bound, hint = entry
                if e_depth >= depth:
                    value = self._from_table(e_value, ply)
                    if (e_bound == EXACT or (e_bound == LOWER and value >= beta)
                            or (e_bound == UPPER and value <= alpha)):
                        pv[:] = [hint] if hint is not None else []
                        return value
        alpha0 = alpha
        mover = game.turn
        moves = self._candidates(game, ply, key)
        if hint is not None and hint in moves and moves[0] != hint:
            moves = [hint] + [m for m in moves if m != hint]
        best = -INF
        best_move: Move | None = None
        child_pv: list[Move] = []
        for move in moves:
            game.push(move)
            try:
                self._count_node()
                if game.turn == mover:
                    value = self._search(game, depth - 1, alpha, beta, ply + 1, child_pv)
                else:
                    value = -self._search(game, depth - 1, -beta, -alpha, ply + 1, child_pv)
            finally:
                game.pop()
            if value > best:
                best = value
                best_move = move
                pv[:] = [move] + child_pv
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        if key is not None:
            bound = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
            self.table[key] = (depth, self._to_table(best, ply), bound, best_move)
        return best

    # -- root -------------------------------------------------------------------
    def search_root(self, game: GameT, depth: int, moves: Sequence[Move], alpha: float = -INF,
                    beta: float = INF) -> ABResult:
        """Search `moves` (ordered) to `depth`; returns the best with its value and PV. With MultiPV
        (ctx.multipv = k) each move is searched above the k-th best value so far (the best, for k = 1),
        so the k best get exact values and lines (`top`)."""
        mover = game.turn
        lines = max(1, self.ctx.multipv)
        top: list[ABResult] = []
        scored: list[tuple[float, Move]] = []
        child_pv: list[Move] = []
        self.partial = None
        for move in moves:
            floor = alpha if len(top) < lines else max(alpha, top[lines - 1].value)
            game.push(move)
            try:
                self._count_node()
                ends = game.is_over()
                if game.turn == mover:
                    value = self._search(game, depth - 1, floor, beta, 1, child_pv)
                else:
                    value = -self._search(game, depth - 1, -beta, -floor, 1, child_pv)
            finally:
                game.pop()
            scored.append((value, move))
            if len(top) < lines or value > top[-1].value:
                found = ABResult(move, value, depth, [move] + child_pv, complete=False,
                                 proven=ends and value >= self.win_value / 2)
                at = next((i for i, line in enumerate(top) if value > line.value), len(top))
                top.insert(at, found)
                del top[lines:]
            # Once the previous best move is searched to this depth, the best so far
            # is a sound answer even if the iteration is cut short.
            best = top[0]
            self.partial = ABResult(best.move, best.value, depth, list(best.pv), complete=False, proven=best.proven)
        for line in top:
            line.complete = True
        self.top = top
        best = top[0]
        # Next iteration searches the best first, the rest in this iteration's order.
        self.root_order = [best.move] + [m for _, m in scored if m is not best.move]
        return ABResult(best.move, best.value, depth, list(best.pv), proven=best.proven)

    def iterate(self, game: GameT, moves: Sequence[Move], max_depth: int,
                on_depth: Callable[[ABResult], None] | None = None) -> ABResult:
        """Iterative deepening until max_depth, the soft deadline, a stop or a proven win; the deepest
        complete result. A win or loss over the candidates does not stop it: it is not a proof."""
        result = ABResult(moves[0], 0.0, 0, [moves[0]], complete=False)
        order = list(moves)
        for depth in range(1, max_depth + 1):
            try:
                result = self.search_root(game, depth, order)
            except SearchAborted:
                if self.partial is not None:  # the previous best was searched first: a sound answer
                    result = self.partial
                result.complete = False
                break
            order = self.root_order
            if on_depth:
                on_depth(result)
            if result.proven:
                break
            if self.ctx.tm.soft_expired() or self.ctx.depth_reached(depth):
                break
        return result

    def iterate_reported(self, game: GameT, moves: Sequence[Move], max_depth: int,
                         info_of: Callable[[ABResult], Info]) -> ABResult:
        """`iterate` with the context's `info` lines kept up to date: each finished depth's result, written by
        `info_of`, is what the periodic report shows, and MultiPV's lines are the k best root moves (`top`)."""
        last: list[Info] = []

        def on_depth(result: ABResult) -> None:
            last[:] = [info_of(result)]
            self.ctx.maybe_report()

        self.ctx.snapshot = lambda: last[0] if last else None
        self.ctx.lines = lambda count: [info_of(line) for line in self.top[:count]]
        return self.iterate(game, moves, max_depth, on_depth)
