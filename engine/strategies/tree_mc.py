"""Strategy `treemc`: UCT kept between moves over a C playout core, a sparring partner of the tree kind.

`fastmc` is a flat player: it shares its playouts among the root's candidates and looks no further. A
tree-search opponent plays another game (SPEC 9.7, issue 53): it sees replies to its moves and the
replies to those, and a strength figure against one kind of opponent says little about the other. Each
game's playout core (its engine parts' `playout_core`) holds the tree (engine/search/native/_uct.h): UCB1
over the core's pruned candidates (the root's as `fastmc`'s, narrower below), one of the core's
epsilon-greedy playouts to the end as each new node's value, and the tree kept from one move to the
next: at the next `go` the new position is looked for in it and its subtree searched on. This module
gives the tree the time (engine/search/timeman.py's TimeManager), looks at `stop` between short runs,
reports `info` lines (a mean of playouts is an estimate: `score cp` within +-99) and plays the most
visited root move once the rules vet it (``check_move``; a refused one gives way to the next).

Where a game's core was not compiled, or it has no tree, `treemc` says so in an `info string` and plays
`fastmc` (which plays `flatmc`'s Python playouts where no core was compiled).
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from engine.games import playout_core_for
from engine.games.parts import PlayoutCore
from engine.games.treemc import GameTree, TreeInfo, TreeMCSettings
from engine.search.winchance import win_probability_to_cp
from protocol.game import Game
from protocol.messages import Info
from protocol.moves import Move

from .base import PLAY_DEFAULTS, Limits, PlayOptions
from .core_partners import first_accepted, played_instead

RUN_SIMULATIONS = 32
"""Simulations between two looks at `stop` and the reports (a few ms at most in every game)."""
WARM_UP_SIMULATIONS = 50
"""`prepare` runs a tree this big, so that a timed `go` pays no import or first-call cost."""


class TreeMCStrategy:
    """UCT over a C core's candidates and playouts, its tree kept between moves; see the module docstring.

    `settings` maps a game's name to the TreeMCSettings its tree plays with instead of the core's defaults
    (tuning scripts build variants this way; the engine plays the defaults)."""

    name = "treemc"

    def __init__(self, settings: Mapping[str, TreeMCSettings] | None = None) -> None:
        self.settings = dict(settings or {})
        self._trees: dict[str, GameTree[Any]] = {}
        """The tree of each game type, kept between moves (a new engine strategy, at `ucinewgame`, starts afresh)."""

    def _settings(self, core: PlayoutCore, game: Game) -> TreeMCSettings | None:
        chosen = self.settings.get(game.name, core.tree_defaults)
        if chosen is not None and not isinstance(chosen, TreeMCSettings):
            raise TypeError(f"treemc: {game.name}'s tree settings are TreeMCSettings, not {type(chosen).__name__}")
        return chosen

    def prepare(self, game: Game) -> None:
        """Load the game's core and grow a small tree once, outside any timed `go`."""
        core = playout_core_for(game.name)
        settings = self._settings(core, game) if core is not None else None
        if core is None or settings is None or game.is_over():
            return
        core.new_tree(game, settings, 1).run(WARM_UP_SIMULATIONS, 0.0, 0)

    def choose(self, game: Game, limits: Limits, stop: threading.Event,
               report: Callable[[Info], None], rng: random.Random, options: PlayOptions = PLAY_DEFAULTS) -> Move:
        from engine.search.context import SearchContext
        from engine.search.timeman import TimeManager

        started = time.monotonic()
        core = playout_core_for(game.name)
        settings = self._settings(core, game) if core is not None else None
        if core is None or settings is None:
            from .fast_mc import FastMCStrategy

            return played_instead(FastMCStrategy(), f"treemc: no C playout core with a tree for {game.name} here (not "
                                  "compiled, or none written); playing fastmc", game, limits, stop, report, rng, options)
        tree, kept = self._tree(core, settings, game, rng)
        tm = TimeManager(limits, stop, moves_left=core.moves_left(game), start=started,
                         overhead_ms=options.move_overhead)
        ctx = SearchContext(tm, report, None)  # no search settings: the partner keeps its own numbers
        ctx.snapshot = lambda: _info(tree.info())
        deadline = tm.soft_deadline() or 0.0
        ply_limit = max(1, limits.nodes) if limits.nodes is not None else 0
        while True:
            limited = tree.run(RUN_SIMULATIONS, deadline, ply_limit)
            where = tree.info()
            tm.nodes = where.plies
            ctx.maybe_report()
            if limited or tm.must_stop() or _deep_enough(where, limits):
                break
        report(Info(string=f"treemc kept {kept} visits of its tree"))
        ctx.final_report(_info(tree.info()))  # the last line before bestmove: its line and score
        return first_accepted(game, tree.ranked(), report, self.name)

    def _tree(self, core: PlayoutCore, settings: TreeMCSettings, game: Game,
              rng: random.Random) -> tuple[GameTree[Any], int]:
        """The game type's tree advanced to `game`'s position (the root visits it kept), or a new one."""
        tree = self._trees.get(game.name)
        if tree is not None:
            return tree, tree.advance(game)
        tree = self._trees[game.name] = core.new_tree(game, settings, rng.getrandbits(64))
        return tree, 0


def _deep_enough(where: TreeInfo, limits: Limits) -> bool:
    """`go depth d`: the most visited line is d plies long."""
    return limits.depth is not None and len(where.pv) >= max(1, limits.depth)


def _info(where: TreeInfo) -> Info:
    return Info(depth=len(where.pv), seldepth=where.seldepth, visits=where.visits, rollouts=where.simulations,
                score_cp=win_probability_to_cp(where.mean), pv=[str(m) for m in where.pv])
