"""Strategy `fastmc`: flat Monte Carlo in native code, the sparring partner for strength runs.

Each game's C playout core (its engine parts' `playout_core`: engine/games/<game>/playout_core.py over
_playout_core.c) holds its own bitboard model of the position, prunes the root's moves to a few dozen
candidates, and shares thousands of playouts a move among them by UCB1; the playouts are
epsilon-greedy (SPEC.md 9.7 says what each game's policy does). This module gives the core
the time (engine/search/timeman.py's TimeManager: movetime, clock, nodes, depth, infinite),
polls `stop` through the core's progress calls, reports `info` lines (a playout mean is an
estimate: `score cp` within +-99, engine/search/winchance.py), and plays the most
visited candidate only after the rules vet it (``check_move``; a refused one gives way to
the next most visited, then to the first legal move).

Where a game's core was not compiled (no C compiler at install time), or the game has none,
`fastmc` says so in an `info string` and plays `flatmc`'s Python playouts instead: the same kind
of player, far fewer playouts.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Mapping

from engine.games import PACKAGES, parts_for, playout_core_for
from engine.games.parts import PlayoutCore, PlayoutSettings
from engine.search.winchance import win_probability_to_cp
from protocol.game import Game
from protocol.messages import Info
from protocol.moves import Move

from .base import PLAY_DEFAULTS, Limits, PlayOptions
from .core_partners import first_accepted, played_instead

PROGRESS_EVERY_S = 0.005
"""The core calls back this often: `stop`, the hard deadline and `info` lines are looked at then."""
WARM_UP_NODES = 300
"""`prepare` runs a search this big, so that a timed `go` pays no import or first-call cost."""


def playout_settings(changes: str) -> dict[str, object]:
    """{game: its playout core's default PlayoutSettings with `changes` made}: `<game>.<field>=<value>,...` as
    for the search's settings (engine/games/tuning.py); ValueError naming what is wrong."""
    from engine.games.tuning import parse_changes

    defaults: dict[str, object] = {}
    for name in PACKAGES:
        core = parts_for(name).playout_core
        found = core() if core is not None else None
        if found is not None:
            defaults[name] = found.defaults
    return parse_changes(changes, defaults)


class FastMCStrategy:
    """UCB1 over a C core's root candidates, playouts in C; see the module docstring.

    `settings` maps a game's name to the PlayoutSettings its core plays with instead of the
    defaults (tuning scripts build variants this way; the engine plays the defaults)."""

    name = "fastmc"

    def __init__(self, settings: Mapping[str, object] | None = None) -> None:
        self.settings = dict(settings or {})
        self._prepared: set[str] = set()

    def _settings(self, core: PlayoutCore, game: Game) -> PlayoutSettings:
        """The variant given for this game, else the core's defaults."""
        chosen = self.settings.get(game.name, core.defaults)
        if not isinstance(chosen, type(core.defaults)):
            raise TypeError(f"fastmc: {game.name}'s playout settings are {type(core.defaults).__name__}, "
                            f"not {type(chosen).__name__}")
        return chosen

    def prepare(self, game: Game) -> None:
        """Load the game's core and search a little (once per game type), outside any timed `go`."""
        core = playout_core_for(game.name)
        if core is None or game.name in self._prepared or game.is_over():
            return
        settings = self._settings(core, game)
        core.search(game, settings, (0, settings.ucb_c, WARM_UP_NODES, 0, 0.0, None, 1.0))
        self._prepared.add(game.name)

    def choose(self, game: Game, limits: Limits, stop: threading.Event,
               report: Callable[[Info], None], rng: random.Random, options: PlayOptions = PLAY_DEFAULTS) -> Move:
        from engine.search.context import SearchContext
        from engine.search.timeman import TimeManager

        started = time.monotonic()
        core = playout_core_for(game.name)
        if core is None:  # flatmc's Python playouts instead
            from .flat_mc import FlatMCStrategy

            return played_instead(FlatMCStrategy(), f"fastmc: no C playout core for {game.name} here (not compiled, or "
                                  "none written); playing flatmc's Python playouts", game, limits, stop, report, rng, options)
        settings = self._settings(core, game)
        tm = TimeManager(limits, stop, moves_left=core.moves_left(game), start=started,
                         overhead_ms=options.move_overhead)
        ctx = SearchContext(tm, report, None, options.multipv)  # no search settings: the partner keeps its own
        arms = core.candidates(game, settings)
        if len(arms) == 1:
            move = arms[0]
            report(Info(depth=1, nodes=0, rollouts=0, pv=[str(move)]))
            return first_accepted(game, [move], report, self.name)
        latest: dict[str, Info] = {}

        def progress(nodes: int, playouts: int, best: int, mean: float) -> bool:
            tm.nodes = nodes
            latest["info"] = Info(depth=1, rollouts=playouts, score_cp=win_probability_to_cp(mean),
                                  pv=[str(arms[best])])
            ctx.maybe_report()
            return tm.must_stop()

        ctx.snapshot = lambda: latest.get("info")
        deadline = tm.soft_deadline() or 0.0
        per_arm = limits.depth * len(arms) if limits.depth is not None and limits.depth > 0 else 0
        node_limit = max(1, limits.nodes) if limits.nodes is not None else 0
        budget = (rng.getrandbits(64), settings.ucb_c, node_limit, per_arm, deadline, progress,
                  PROGRESS_EVERY_S)
        answer = core.search(game, settings, budget)
        tm.nodes = answer.nodes
        order = answer.order()
        best = order[0]
        # MultiPV: the answer's candidates in its order, each with its playouts' mean (the core reports
        # only its best while it plays: the lines come with the last report)
        ctx.lines = lambda count: [Info(depth=1, visits=answer.visits[i], score_cp=win_probability_to_cp(answer.mean(i)),
                                        pv=[str(answer.moves[i])]) for i in order[:count] if answer.visits[i]]
        ctx.final_report(Info(depth=1, rollouts=answer.playouts, score_cp=win_probability_to_cp(answer.mean(best)),
                              pv=[str(answer.moves[best])]))
        return first_accepted(game, [answer.moves[i] for i in order], report, self.name)
