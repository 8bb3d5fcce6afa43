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

Where the C search core was built (search_core.py) the whole tree below the root's candidates runs
there (engine/search/native/_tree.h: the same algorithm, several times the simulations of a move);
elsewhere the Python MCTS with these leaves (FoundationsKnowledge).
"""

from __future__ import annotations

import random

from engine.search.context import SearchContext
from engine.search.ctree import run_tree
from engine.search.mcts import Scored, run_mcts
from engine.search.searcher import Searcher
from protocol.game import Game
from protocol.games.foundations.rules import FoundationsGame
from protocol.messages import Info
from protocol.moves import Move

from . import search_core
from .ordering import candidate_moves
from .playout_policy import play_out
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
        if search_core.AVAILABLE:
            if s.leaf_mix >= 1:
                return search_core.model(game)
            leaf = search_core.leaf(game, rng, s.playout_plies, s.deviate, s.playout_sample)
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
        if search_core.AVAILABLE and len(root) > 1:
            return run_tree(search_core.new_tree(game, root, s, rng.getrandbits(64)), ctx, search_core.move_of, playouts=True)
        return run_mcts(game, FoundationsKnowledge(s), ctx, rng, root, s.mcts)


SEARCHER: Searcher[FoundationsSettings] = FoundationsSearcher()
"""The game's searcher, as GameParts.standard loads it."""
