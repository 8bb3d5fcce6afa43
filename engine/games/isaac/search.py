"""ISAAC's searcher: PUCT MCTS in the placement phase, alpha-beta in the scoring phase.

Placement (up to 600 moves a turn, about 25 turns to the scoring phase): MCTS
with progressive widening; priors from the placement guess of
engine/games/isaac/knowledge.py (what a piece adds to the lines it touches). A
leaf is valued by a few playouts to the end of the game in the `fastmc` partner's
C playout core (playout_core.py), whose policy plans the scoring phase's new scores: who starts
the scoring race, and how it is run, decide many games, which a static look at a
placement position cannot see. Where that core is built the whole tree runs in it
(engine/games/isaac/_tree_game.h: several times the simulations), on through the
scoring phase's removals (the partner's candidates, its playouts as leaves), and the
scoring phase's own moves are searched by that tree too (settings.tree_removals,
tree_scoring); the tree is kept from one move to the next (settings.reuse_tree: the reply's
subtree becomes the next root, as the treemc partner keeps its tree). Without that core (or with leaf_playout_mix below
1) a leaf is also valued by placing on to the end of the placement phase (each
side the longest of a few random placements) and judging the scoring phase's
start: the scoring evaluation, with a tempo for the side that removes first.
Once the tree itself reaches the scoring phase the scoring evaluation takes over.

Scoring without that core (a handful of worthwhile removals each turn, a race to 100):
iterative-deepening alpha-beta on the removal candidates (full score, blocks,
multiplier set-ups), exact at game ends, static evaluation at the horizon, with
a transposition table keyed by IsaacGame.scoring_key.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from engine.search.alphabeta import ABResult, AlphaBeta
from engine.search.context import SearchContext
from engine.search.ctree import run_tree
from engine.search.mcts import Scored, run_mcts
from engine.search.searcher import Searcher
from engine.search.winchance import logistic, proven_score, win_probability_to_cp
from protocol.game import Game
from protocol.games.isaac.rules import IsaacGame
from protocol.messages import Info
from protocol.moves import PASS, Move, Place
from protocol.state import Phase

from . import knowledge as K
from . import playout_core
from .settings import IsaacSettings


def evaluate(game: IsaacGame, settings: IsaacSettings) -> float:
    """The search's static evaluation in points for the side to move (knowledge.evaluate with
    the settings' tempo and potential weight)."""
    return K.evaluate(game, settings.scoring_tempo, settings.placement_potential)


def playout_placement(game: IsaacGame, rng: random.Random, sample: int) -> Move:
    """The longest of `sample` uniformly drawn legal placements, the first drawn of equal ones
    (a pass when none fits)."""
    best: Place | None = None
    for move in game.random_placements(rng, sample):
        if not isinstance(move, Place):
            return PASS
        if best is None or move.segment.length > best.segment.length:
            best = move
    assert best is not None  # sample >= 1
    return best


def placement_playout_value(game: IsaacGame, rng: random.Random, ctx: SearchContext[IsaacSettings]) -> float:
    """Win chance of the side to move: place on to the scoring phase's start (playout_placement
    for both sides), then the search's evaluation there (where it stands, if told to stop).
    The game is restored."""
    settings = ctx.settings
    me = game.turn
    pushed = 0
    try:
        while game.phase is Phase.PLACE:  # the placement phase never ends the game
            game.push(playout_placement(game, rng, settings.playout_sample))
            pushed += 1
            ctx.tm.nodes += 1
            if ctx.tm.stopped():  # unwind at once: judged where it stands
                break
        p = logistic(evaluate(game, settings) / settings.point_scale)
        return p if game.turn == me else 1.0 - p
    finally:
        for _ in range(pushed):
            game.pop()


def terminal_points(game: IsaacGame, ply: int) -> float:
    """A finished game in points for the side to move, quicker wins scoring higher."""
    result = game.result()
    assert result is not None, "only finished games are valued this way"
    if result.winner is None:
        return 0.0
    won = result.winner == game.turn
    return (K.WIN_EVAL - ply) if won else -(K.WIN_EVAL - ply)


def candidates(game: IsaacGame, settings: IsaacSettings) -> Scored:
    """Moves with priors, best first: the removals worth searching (decaying priors) or every
    placement (a softmax of the placement guess)."""
    if game.phase is Phase.SCORE:
        moves = K.removal_candidates(game, wide=True)
        if not moves:
            return [(PASS, 1.0)]
        return [(m, settings.removal_prior_decay ** i) for i, m in enumerate(moves)]
    scored = K.placement_candidates(game)
    top = scored[0][1]
    return [(m, math.exp((s - top) / settings.prior_scale)) for m, s in scored]


class IsaacKnowledge:
    """The MCTS view of ISAAC: priors from the move-ordering guess; leaves by a playout to the
    scoring phase (placement) or the scoring evaluation."""

    uses_playouts = False

    def __init__(self, settings: IsaacSettings) -> None:
        self.settings = settings

    def candidates(self, game: IsaacGame) -> Scored:
        return candidates(game, self.settings)

    def leaf_value(self, game: IsaacGame, rng: random.Random, ctx: SearchContext[IsaacSettings]) -> float:
        settings = self.settings
        if game.phase is not Phase.PLACE:
            return logistic(evaluate(game, settings) / settings.point_scale)
        if settings.leaf_playouts and playout_core.AVAILABLE:
            played, plies = playout_core.leaf(game, rng.getrandbits(64), settings.leaf_playouts, settings.leaf_policy)
            ctx.tm.nodes += plies
            mix = settings.leaf_playout_mix
            if mix >= 1:
                return played
            return mix * played + (1 - mix) * placement_playout_value(game, rng, ctx)
        return placement_playout_value(game, rng, ctx)

    def terminal_value(self, game: IsaacGame, color: int) -> float:
        result = game.result()
        assert result is not None, "only finished games are valued this way"
        if result.winner is None:
            return 0.5
        return 1.0 if result.winner == color else 0.0


def _ab_candidates(wide_plies: int) -> Callable[[IsaacGame, int], Sequence[Move]]:
    """The alpha-beta's moves at `ply` below the root: the wide removal candidates to `wide_plies`,
    the narrow ones deeper."""
    def moves(game: IsaacGame, ply: int) -> Sequence[Move]:
        if game.phase is Phase.SCORE:
            return K.removal_candidates(game, wide=ply <= wide_plies) or [PASS]
        return [m for m, _ in K.placement_candidates(game)]
    return moves


def scoring_alpha_beta(ctx: SearchContext[IsaacSettings], keyed: bool = True) -> AlphaBeta[IsaacGame]:
    """The scoring phase's alpha-beta under ctx's settings (`keyed`: with its transposition table)."""
    settings = ctx.settings
    return AlphaBeta(ctx, _ab_candidates(settings.scoring_wide_plies), lambda g: evaluate(g, settings),
                     terminal_points, K.WIN_EVAL, key=IsaacGame.scoring_key if keyed else None)


def choose_scoring(game: IsaacGame, ctx: SearchContext[IsaacSettings]) -> tuple[Move, Info]:
    """Iterative-deepening alpha-beta over the worthwhile removals."""
    settings = ctx.settings
    moves = K.removal_candidates(game, wide=True)
    if not moves:
        return PASS, Info(depth=0)
    if len(moves) == 1:
        return moves[0], Info(depth=1, pv=[str(moves[0])])

    def info_of(result: ABResult) -> Info:
        info = Info(depth=result.depth, score_cp=win_probability_to_cp(logistic(result.value / settings.point_scale)),
                    pv=[str(m) for m in result.pv])
        if result.proven:
            info.score_cp, info.wdl = proven_score(1)
        return info

    ab = scoring_alpha_beta(ctx)
    result = ab.iterate_reported(game, moves, ctx.tm.depth_limit or 64, info_of)
    return result.move, info_of(result)


KEEP_MAX_SLOTS = 1 << 21
"""A tree is kept for the next move only while its nodes hold at most this many candidates (about 80,000
simulations, a second's search): the next move copies the subtree it keeps within its own time (about 1 ms
after a 100 ms move, 5 ms after 100,000 simulations), and a long analysis's tree would cost a timed move too much."""


class IsaacSearcher:
    """ISAAC's searcher for the driver (engine/search/searcher.py)."""

    defaults = IsaacSettings()
    settings_type = IsaacSettings

    def __init__(self) -> None:
        self._kept: dict[IsaacSettings, playout_core.KeptTree] = {}
        """The C tree of the last search with each settings (settings.reuse_tree), taken by the next search with
        them while it runs: a search abandoned by the driver never shares its tree with the next one."""

    def moves_left(self, game: Game) -> int:
        """Rough count of the moves the side to move still makes (for the clock)."""
        isaac = _isaac(game)
        me = isaac.turn
        if isaac.phase is Phase.PLACE:
            return sum(isaac.hand(me)) // 2 + len(isaac.pieces(me)) // 2 + 8
        return max(1, len(isaac.pieces(me)) // 2 + 1)

    def choose(self, game: Game, ctx: SearchContext[IsaacSettings], rng: random.Random) -> tuple[Move, Info]:
        isaac = _isaac(game)
        settings = ctx.settings
        in_c = playout_core.AVAILABLE and settings.leaf_playouts and settings.leaf_playout_mix >= 1
        if isaac.phase is Phase.SCORE and not (in_c and settings.tree_scoring):
            return choose_scoring(isaac, ctx)
        knowledge = IsaacKnowledge(settings)
        root = knowledge.candidates(isaac)
        if in_c and len(root) > 1:
            decay = settings.removal_prior_decay if settings.tree_removals or settings.tree_scoring else 0.0
            seed = rng.getrandbits(64)
            tree = self._kept.pop(settings, None) if settings.reuse_tree else None
            if tree is None or not playout_core.advance_tree(tree, isaac, root, seed):
                tree = playout_core.new_tree(isaac, root, settings.mcts.numbers(), settings.prior_scale,
                                             settings.leaf_playouts, settings.leaf_policy, decay, seed)
            chosen = run_tree(tree, ctx, playout_core.tree_move, playouts=False)
            if settings.reuse_tree and tree.size()[1] <= KEEP_MAX_SLOTS:
                self._kept[settings] = tree
            return chosen
        return run_mcts(isaac, knowledge, ctx, rng, root, settings.mcts)


def _isaac(game: Game) -> IsaacGame:
    if not isinstance(game, IsaacGame):
        raise TypeError(f"ISAAC's searcher was given a {type(game).__name__}")
    return game


SEARCHER: Searcher[IsaacSettings] = IsaacSearcher()
"""The game's searcher, as GameParts.standard loads it."""
