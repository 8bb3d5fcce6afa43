"""ISAAC's playout core in C, seen from Python: the position as the core reads it, its answers as moves.

The core (engine/games/isaac/_playout_core.c) holds its own bitboard model of the position, root
candidates and epsilon-greedy playouts to the end of the game (placement and scoring phase). Three
players use it: the `fastmc` sparring partner (FASTMC: flat Monte Carlo over the candidates, its move
vetted by ``check_move`` in engine/strategies/fast_mc.py), and ISAAC's search, whose placement leaves
are valued by its playouts (leaf) and whose C tree (engine/games/isaac/_tree_game.h over
engine/search/native/_tree.h, new_tree) runs in it. ``AVAILABLE`` is False where the extension could
not be compiled.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from engine.games.parts import CompiledPlayoutCore, NativePlayouts, PlayoutCore, compiled, narrowed
from engine.games.treemc import TreeMCSettings
from engine.search.ctree import TREE_NODES, TREE_SLOTS, CTree
from protocol.board import SEGMENTS
from protocol.game import Game
from protocol.games.isaac.rules import PLACE, IsaacGame
from protocol.moves import PASS, Move, Place, Remove

NativeMove = tuple[int, int]
"""(segment index, new score or -1 for a placement); (-1, -1) is a pass."""


class KeptTree(CTree, Protocol):
    """ISAAC's C tree, which can be kept between moves (engine/search/native/_tree.h's advance)."""

    def advance(self, position: tuple[object, ...], root: list[tuple[int, float]], seed: int) -> int: ...


class IsaacPlayouts(NativePlayouts[NativeMove], Protocol):
    """ISAAC's C core: the entry points of every playout core, and those of ISAAC's search."""

    def leaf(self, position: tuple[object, ...], params: Sequence[float], seed: int,
             count: int) -> tuple[float, int]: ...

    def guesses(self, position: tuple[object, ...], keep: int = ...) -> list[tuple[int, float]]:
        """(segment index, guess) for the placements, best first (the search's placement priors): all, or the
        best `keep` as a tree node keeps them."""
        ...

    def Tree(self, position: tuple[object, ...], root: Sequence[tuple[int, float]], mcts: tuple[object, ...],
             game: tuple[object, ...], seed: int, max_nodes: int, max_slots: int) -> KeptTree:
        """A search tree (engine/search/native/_tree.h) over ISAAC (_tree_game.h)."""
        ...


_core: IsaacPlayouts | None = compiled("engine.games.isaac._playout_core")
"""The C core; None where it was not compiled, and then fastmc plays flatmc's Python playouts instead."""

AVAILABLE = _core is not None


@dataclass(frozen=True)
class PlayoutSettings:
    """The playout policy and the root candidates of ISAAC's playout core (_playout_core.c's comment says how
    each is used): a yardstick's fixed numbers, varied by tuning (`fastmc:isaac.<field>=<value>`), and the
    policy of the search's leaf playouts (IsaacSettings.leaf_policy)."""

    eps_place: float = 0.1
    """Chance of a uniformly drawn placement instead of the greedy one."""
    sample: int = 4
    """Spots drawn for the greedy placement of the longest length that fits; the best is played."""
    feed: float = 0.5
    """Weight of the own-minus-opponent values along the lines a placement crosses."""
    spread: float = 1.0
    """Random jitter added to a spot's score (ties and near-ties at random)."""
    eps_remove: float = 0.1
    """Chance of a uniformly drawn removable piece instead of the greedy one."""
    give_up: float = 0.5
    """Weight of the points of the shorter own pieces a removal makes unremovable."""
    block: int = 5
    """Points a removal may leave unscored to put the counter on an opponent piece worth more."""
    margin_weight: float = 0.1
    """Share of a playout's value from the final score margin (the rest: win 1, loss 0)."""
    margin_scale: float = 20.0
    """Score points per tanh unit of that margin."""
    per_length: int = 6
    """Root placements: the best this many spots of each length in hand."""
    removals: int = 40
    """Root removals (piece and new score): at most this many, best guesses first."""
    deny: float = 0.0
    """Weight of the opponent's placements of its longest piece in hand that a placement takes away."""
    plan_block: float = 0.5
    """Planned new scores (any of the plan weights above 0): weight of an opponent piece's points the counter blocks."""
    plan_double: float = 0.5
    """... of a piece's points the counter doubles from its line (ours count for us, the opponent's against)."""
    plan_self: float = 0.5
    """... of an own piece's points the counter blocks."""
    ucb_c: float = 0.4
    """UCB1's exploration constant at the root."""

    def params(self) -> tuple[float, ...]:
        """The core's parameters, in its order (all fields but ucb_c, which the budget carries)."""
        return (self.eps_place, self.sample, self.feed, self.spread, self.eps_remove, self.give_up, self.block,
                self.margin_weight, self.margin_scale, self.per_length, self.removals, self.deny, self.plan_block,
                self.plan_double, self.plan_self)


DEFAULTS = PlayoutSettings()


def position_tuple(position: Game) -> tuple[object, ...]:
    """The position as the C core reads it (IsaacGame's public state)."""
    game = narrowed(position, IsaacGame, "ISAAC's playout core")
    scoring = int(game.phase == "score")
    return ([s.index for s in game.pieces(0)], [s.index for s in game.pieces(1)], game.hand(0), game.hand(1),
            game.turn, game.passes, scoring, *game.scores, game.longest_removed(0), game.longest_removed(1))


def to_move(native: NativeMove) -> Move:
    """A core move as a protocol move (not yet checked by the rules)."""
    seg, score = native
    if seg < 0:
        return PASS
    if score < 0:
        return PLACE[seg]
    return Remove(SEGMENTS[seg], score)


def leaf(game: IsaacGame, seed: int, count: int, settings: PlayoutSettings = DEFAULTS) -> tuple[float, int]:
    """The mean result of `count` playouts with the partner's policy from `game` for its side to move
    (1 a win, 0 a loss, blended a little with the margin), and the plies played: a tree's leaf value."""
    value, plies = core().leaf(position_tuple(game), settings.params(), seed, count)
    return float(value), int(plies)


def core() -> IsaacPlayouts:
    assert _core is not None, "the ISAAC playout core is not built"
    return _core


def moves_left(position: Game) -> int:
    """The moves the side to move still makes, roughly (for the clock): its placements to come
    (half its hand: the board fills) and its removals (half its pieces)."""
    game = narrowed(position, IsaacGame, "ISAAC's playout core")
    me = game.turn
    removals = max(1, len(game.pieces(me)) // 2 + 1)
    if game.phase == "score":
        return removals
    return int(sum(game.hand(me))) // 2 + len(game.pieces(me)) // 2 + 8


def tree_code(move: Move) -> int:
    """The tree's code of a move: a placement's segment index, -1 for a pass, NSEG + segment index x 1024 + new
    score for a removal (_tree_game.h)."""
    if move == PASS:
        return -1
    if isinstance(move, Place):
        return move.segment.index
    if isinstance(move, Remove):
        return len(SEGMENTS) + move.segment.index * 1024 + move.score
    raise ValueError(f"{move} is not an ISAAC move (a placement, a removal or a pass)")


def tree_move(code: int) -> Move:
    """The move of a tree's code (tree_code's inverse)."""
    if code < 0:
        return PASS
    if code < len(SEGMENTS):
        return PLACE[code]
    return Remove(SEGMENTS[(code - len(SEGMENTS)) // 1024], (code - len(SEGMENTS)) % 1024)


def new_tree(game: IsaacGame, root: Sequence[tuple[Move, float]], mcts: tuple[object, ...], prior_scale: float,
             playouts: int, settings: PlayoutSettings, removal_decay: float, seed: int, max_nodes: int = TREE_NODES,
             max_slots: int = TREE_SLOTS) -> KeptTree:
    """A C search tree from `game` (either phase), whose root has the candidates `root` (move, prior weight):
    `mcts` the tree's numbers (MCTSSettings.numbers), placement priors exp(guess / prior_scale), leaves the mean
    of `playouts` playouts with the policy `settings`; the scoring phase's nodes get the partner's removal
    candidates with priors removal_decay ** i, or (removal_decay 0) stay leaves."""
    numbers = (prior_scale, playouts, settings.params(), removal_decay)
    tree: KeptTree = core().Tree(position_tuple(game), [(tree_code(m), p) for m, p in root], mcts, numbers, seed,
                                 max_nodes, max_slots)
    return tree


def advance_tree(tree: KeptTree, game: IsaacGame, root: Sequence[tuple[Move, float]], seed: int) -> bool:
    """Moves a tree made by new_tree on to `game` if `game` is 1 to 4 plies below its root (our move and the reply),
    keeping what it searched there under the root candidates `root`, its generator seeded with `seed`. False (the
    tree unchanged) when `game` is not found there: make a new tree."""
    return tree.advance(position_tuple(game), [(tree_code(m), p) for m, p in root], seed) > 0


TREEMC = TreeMCSettings(root=DEFAULTS, inner=replace(DEFAULTS, per_length=4, removals=16), playouts=DEFAULTS)
"""The `treemc` partner's numbers in ISAAC: the root as `fastmc`'s (6 spots a length, 40 removals), the inner
nodes 4 spots a length and 16 removals, `fastmc`'s playouts."""

FASTMC: PlayoutCore | None = (CompiledPlayoutCore(DEFAULTS, _core, position_tuple, to_move, moves_left, TREEMC)
                              if _core is not None else None)
"""The core as `fastmc` and `treemc` drive it; None where it was not compiled."""
