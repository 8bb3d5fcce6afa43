"""FOUNDATIONS' searcher: MCTS (engine/search/mcts.py) with knowledge of the game.

What matters in FOUNDATIONS is getting rid of value: every piece placed lowers
the hand, the long pieces most. A level takes pieces in non-decreasing
length, so the order of plays decides what still fits: the short pieces fill
gaps, the long ones need long runs (level 1) or two own supports the right
distance apart (upper levels), and a bridge on level 2 also takes the cells
under it away from everybody.

Priors come from the move ordering (ordering.py). A leaf's value is part static
model of what playouts return (value.py: which of each side's pieces still fit, and
how much room they have) and part one playout in which both sides follow a cheap
version of the same policy to the end of the game (playout.py). A game end's value
blends win/draw/loss with the margin of hand values.

Where the C core was built (native.py) the whole tree below the root's candidates runs
there (search_in_c: the same algorithm, several times the simulations of a move);
elsewhere the Python MCTS with these leaves (FoundationsKnowledge).
"""

from __future__ import annotations

import random

from engine.search.context import SearchContext
from engine.search.mcts import Scored, run_mcts
from engine.search.winchance import proven_score, win_probability_to_cp
from protocol.foundations import FoundationsGame
from protocol.game import Game
from protocol.messages import Info
from protocol.moves import Move

from . import native
from .ordering import candidate_moves
from .playout import play_out
from .settings import FoundationsSettings
from .value import end_value, margin_value, model_value, terminal_value


class FoundationsKnowledge:
    """The MCTS view of FOUNDATIONS (module docstring)."""

    uses_playouts = True

    def __init__(self, settings: FoundationsSettings) -> None:
        self.settings = settings

    def candidates(self, game: FoundationsGame) -> Scored:
        s = self.settings
        return candidate_moves(game, s.prior_temperature, keep=s.mcts.inner_max_children)

    def terminal_value(self, game: FoundationsGame, color: int) -> float:
        return terminal_value(game, color, self.settings.wdl_weight, self.settings.margin_scale)

    def leaf_value(self, game: FoundationsGame, rng: random.Random, ctx: SearchContext[FoundationsSettings]) -> float:
        """leaf_mix x the static model + the rest x one playout. Both in the C core where it was
        built (about 17 us a leaf); else the playout on a scratch copy (about 210 us)."""
        s = self.settings
        me = game.turn
        if game.is_over():
            return self.terminal_value(game, me)
        if native.AVAILABLE:
            if s.leaf_mix >= 1:
                return native.model(game)
            leaf = native.leaf(game, rng, s.playout_plies, s.deviate, s.playout_sample)
            ctx.tm.nodes += leaf.plies
            if leaf.over:
                played = end_value(leaf.winner, leaf.scores, me, s.wdl_weight, s.margin_scale)
            else:
                played = margin_value(leaf.scores[me], leaf.scores[1 - me], s.margin_scale)
            return s.leaf_mix * leaf.model + (1 - s.leaf_mix) * played
        scratch = game.scratch()
        model = model_value(scratch) if s.leaf_mix > 0 else 0.0  # read before the playout moves it on
        if s.leaf_mix >= 1:
            return model
        ctx.tm.nodes += play_out(scratch, rng, s.playout_plies, ctx.tm, s.deviate, s.playout_sample)
        if scratch.is_over():
            scores = scratch.hand_value(0), scratch.hand_value(1)
            played = end_value(scratch.winner(), scores, me, s.wdl_weight, s.margin_scale)
        else:
            played = margin_value(scratch.hand_value(me), scratch.hand_value(1 - me), s.margin_scale)
        return s.leaf_mix * model + (1 - s.leaf_mix) * played


class FoundationsSearcher:
    """FOUNDATIONS' searcher for the driver (engine/search/searcher.py)."""

    defaults = FoundationsSettings()
    settings_type = FoundationsSettings

    def moves_left(self, game: Game) -> int:
        """Moves the side to move still makes, for the clock: one a piece, most pieces get placed."""
        return max(1, int(round(0.8 * sum(game.hand(game.turn)))) + 1)

    def choose(self, game: Game, ctx: SearchContext[FoundationsSettings], rng: random.Random) -> tuple[Move, Info]:
        if not isinstance(game, FoundationsGame):
            raise TypeError(f"FOUNDATIONS' searcher was given a {type(game).__name__}")
        s = ctx.settings
        root = candidate_moves(game, s.prior_temperature, refined=s.refined)
        if native.AVAILABLE and len(root) > 1:
            return search_in_c(game, root, ctx, rng)
        return run_mcts(game, FoundationsKnowledge(s), ctx, rng, root, s.mcts)


RUN_SIMULATIONS = 64
"""Simulations of the C tree between two looks at the clock's soft limit, `stop` and the reports (a few ms)."""


def search_in_c(game: FoundationsGame, root: Scored, ctx: SearchContext[FoundationsSettings],
                rng: random.Random) -> tuple[Move, Info]:
    """run_mcts's search with the whole tree in the C core (_tree.h): the same algorithm and limits, several
    times the simulations. Runs in short slices; between them the limits are checked and reports sent."""
    tree = native.new_tree(game, root, ctx.settings, rng.getrandbits(64))
    tm = ctx.tm
    start_nodes = tm.nodes
    node_limit = max(1, tm.node_limit - start_nodes) if tm.node_limit is not None else 0
    soft, hard = tm.soft_deadline() or 0.0, tm.hard_deadline() or 0.0
    depth = tm.depth_limit or 0

    def info() -> Info:
        best, pv, visits, mean, proven, seldepth, simulations, nodes = tree.info()
        out = Info(depth=len(pv), seldepth=seldepth, visits=visits, rollouts=simulations,
                   score_cp=win_probability_to_cp(mean), pv=[str(native.move_of(c)) for c in pv])
        if proven:
            out.score_cp, out.wdl = proven_score(1)
        return out

    ctx.snapshot = info
    while True:
        limited = tree.run(RUN_SIMULATIONS, node_limit, soft, hard, depth)
        tm.nodes = start_nodes + tree.info()[7]
        ctx.maybe_report()
        if limited or tm.soft_expired():
            break
    best = tree.info()[0]
    assert best is not None, "a search ran at least one simulation"
    return native.move_of(best), info()


SEARCHER = FoundationsSearcher()
