"""Strategy `fastmc`: flat Monte Carlo in native code, the sparring partner for strength runs.

Each game's C core (engine/games/<game>/_playout_core.c, through engine/games/<game>/playout_core.py)
holds its own bitboard model of the position, prunes the root's moves to a few dozen
candidates, and shares thousands of playouts a move among them by UCB1; the playouts are
epsilon-greedy (SPEC.md 9.7 says what each game's policy does). This module gives the core
the time (engine/search/timeman.py's TimeManager: movetime, clock, nodes, depth, infinite),
polls `stop` through the core's progress calls, reports `info` lines (a playout mean is an
estimate: `score cp` within +-99, engine/search/winchance.py), and plays the most
visited candidate only after the rules vet it (``check_move``; a refused one gives way to
the next most visited, then to the first legal move).

Where a game's core was not compiled (no C compiler at install time), `fastmc` says so in
an `info string` and plays `flatmc`'s Python playouts instead: the same kind of player,
far fewer playouts.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Mapping
from importlib import import_module
from types import ModuleType
from typing import Any, NamedTuple

from engine.search.winchance import win_probability_to_cp
from protocol.errors import IllegalMoveError
from protocol.messages import Info
from protocol.moves import Move

from .base import Limits

PARTNER_GAMES = ("isaac", "foundations", "hari")
"""The games with a partner core (engine/games/<game>/playout_core.py)."""
PROGRESS_EVERY_S = 0.005
"""The core calls back this often: `stop`, the hard deadline and `info` lines are looked at then."""
WARM_UP_NODES = 300
"""`prepare` runs a search this big, so that a timed `go` pays no import or first-call cost."""


class Answer(NamedTuple):
    """What a core's search found: the root candidates with their playouts and summed values."""

    moves: list[Move]
    visits: list[int]
    totals: list[float]
    nodes: int
    playouts: int

    def order(self) -> list[int]:
        """Candidate indices, the answer first: most visits, then the higher mean."""
        return sorted(range(len(self.moves)), key=lambda i: (-self.visits[i], -self.mean(i), i))

    def mean(self, i: int) -> float:
        return self.totals[i] / self.visits[i] if self.visits[i] else 0.5


def partner_for(game: Any) -> ModuleType | None:
    """The game's partner module (engine/games/<name>/playout_core.py) if its core was built, else None."""
    try:
        module = import_module(f"engine.games.{game.name}.playout_core")
    except ModuleNotFoundError:
        return None
    return module if module.AVAILABLE else None


def run(partner: ModuleType, settings: Any, game: Any, budget: tuple[Any, ...]) -> Answer:
    """One search of `partner`'s core on `game` with `settings` (its PlayoutSettings) and `budget`
    (see engine/search/native/_flat_mc.h)."""
    native, visits, totals, nodes, playouts = partner.core().search(partner.position_tuple(game), settings.params(),
                                                                      budget)
    return Answer([partner.to_move(m) for m in native], visits, totals, nodes, playouts)


def partner_settings(changes: str) -> dict[str, object]:
    """{game: its partner's default PlayoutSettings with `changes` made}: `<game>.<field>=<value>,...` as for the
    search's settings (engine/games/tuning.py); ValueError naming what is wrong."""
    from engine.games.tuning import parse_changes

    defaults = {name: import_module(f"engine.games.{name}.playout_core").DEFAULTS for name in PARTNER_GAMES}
    return parse_changes(changes, defaults)


class FastMCStrategy:
    """UCB1 over a C core's root candidates, playouts in C; see the module docstring.

    `settings` maps a game's name to the PlayoutSettings its core plays with instead of the
    defaults (tuning scripts build variants this way; the engine plays the defaults)."""

    name = "fastmc"

    def __init__(self, settings: Mapping[str, object] | None = None) -> None:
        self.settings = dict(settings or {})
        self._prepared: set[str] = set()

    def _settings(self, partner: ModuleType, game: Any) -> Any:
        return self.settings.get(game.name, partner.DEFAULTS)

    def prepare(self, game: Any) -> None:
        """Load the game's core and search a little (once per game type), outside any timed `go`."""
        partner = partner_for(game)
        if partner is None or game.name in self._prepared or game.is_over():
            return
        settings = self._settings(partner, game)
        run(partner, settings, game, (0, settings.ucb_c, WARM_UP_NODES, 0, 0.0, None, 1.0))
        self._prepared.add(game.name)

    def choose(self, game: Any, limits: Limits, stop: threading.Event,
               report: Callable[[Info], None], rng: random.Random) -> Any:
        from engine.search.context import SearchContext
        from engine.search.timeman import TimeManager

        started = time.monotonic()
        partner = partner_for(game)
        if partner is None:
            return self._fallback(game, limits, stop, report, rng)
        settings = self._settings(partner, game)
        tm = TimeManager(limits, stop, moves_left=partner.moves_left(game), start=started)
        ctx = SearchContext(tm, report, None)  # no search settings: the partner keeps its own numbers
        arms = partner.core().candidates(partner.position_tuple(game), settings.params())
        if len(arms) == 1:
            move = partner.to_move(arms[0])
            report(Info(depth=1, nodes=0, rollouts=0, pv=[str(move)]))
            return self._vetted(game, [move], report)
        latest: dict[str, Info] = {}

        def progress(nodes: int, playouts: int, best: int, mean: float) -> bool:
            tm.nodes = nodes
            latest["info"] = Info(depth=1, rollouts=playouts, score_cp=win_probability_to_cp(mean),
                                  pv=[str(partner.to_move(arms[best]))])
            ctx.maybe_report()
            return tm.must_stop()

        ctx.snapshot = lambda: latest.get("info")
        deadline = tm.soft_deadline() or 0.0
        per_arm = limits.depth * len(arms) if limits.depth is not None and limits.depth > 0 else 0
        node_limit = max(1, limits.nodes) if limits.nodes is not None else 0
        budget = (rng.getrandbits(64), settings.ucb_c, node_limit, per_arm, deadline, progress,
                  PROGRESS_EVERY_S)
        answer = run(partner, settings, game, budget)
        tm.nodes = answer.nodes
        order = answer.order()
        best = order[0]
        ctx.final_report(Info(depth=1, rollouts=answer.playouts, score_cp=win_probability_to_cp(answer.mean(best)),
                              pv=[str(answer.moves[best])]))
        return self._vetted(game, [answer.moves[i] for i in order], report)

    @staticmethod
    def _vetted(game: Any, ranked: list[Move], report: Callable[[Info], None]) -> Any:
        """The first of `ranked` the rules accept (its canonical form); else the first legal move."""
        for move in ranked:
            try:
                return game.check_move(move)
            except IllegalMoveError as e:
                report(Info(string=f"fastmc: the core's move {move} is illegal ({e.reason}); trying the next"))
        fallback = next(iter(game.legal_moves()))
        report(Info(string=f"fastmc fell back to {fallback}"))
        return fallback

    @staticmethod
    def _fallback(game: Any, limits: Limits, stop: threading.Event, report: Callable[[Info], None],
                  rng: random.Random) -> Any:
        """No core for this game here: flatmc's Python playouts, said once a move."""
        from .flat_mc import FlatMCStrategy

        report(Info(string=f"fastmc: no C partner core for {game.name} here (not compiled, or none written); "
                           "playing flatmc's Python playouts"))
        return FlatMCStrategy().choose(game, limits, stop, report, rng)
