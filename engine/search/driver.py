"""Entry point of Strategy search: pick the game's searcher, run it within the limits, report.

Each game has a module exposing ``moves_left(game)`` (for the clock) and
``choose(game, ctx, rng) -> (move, Info)``. The driver owns the time manager
and the final `info` line, and checks the chosen move with the rules
(``check_move``) before returning it, so a search bug can never send an
illegal move: it would fall back to the first legal move and say so.
"""

from __future__ import annotations

import gc
import random
import sys
import threading
from collections.abc import Callable
from importlib import import_module
from typing import TYPE_CHECKING, Any

from protocol.game import Game
from protocol.messages import Info
from protocol.moves import PASS, Move

from .context import SearchContext
from .timeman import TimeManager

if TYPE_CHECKING:
    from engine.strategies.base import Limits

Report = Callable[[Info], None] | None
"""Where `info` lines go; None for a silent search (the warm-up)."""


def searcher_for(game: Any) -> Any:
    """The game's searcher module: engine/search/<game name>_search.py, by convention."""
    try:
        return import_module(f"engine.search.{game.name}_search")
    except ModuleNotFoundError:
        raise ValueError(f"search: no searcher for game {game.name!r} "
                         f"(engine/search/{game.name}_search.py)") from None


def search(game: Game, limits: Limits, stop: threading.Event, report: Report, rng: random.Random,
           started: float | None = None) -> Move:
    """The move Strategy search plays in `game` under `limits` (see engine.strategies.base).

    The cyclic garbage collector is paused while searching: a search tree holds
    hundreds of thousands of small objects (and no cycles), and full collections
    of it cost 20-30 ms a move, enough to overrun a 100 ms movetime."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _search(game, limits, stop, report, rng, started)
    finally:
        if collecting:
            gc.enable()


def _search(game: Game, limits: Limits, stop: threading.Event, report: Report, rng: random.Random,
            started: float | None) -> Move:
    if game.is_over():  # the front end answers `bestmove (none)` itself; never search then
        raise ValueError("search: the game is over, there is no move to choose")
    module = searcher_for(game)
    tm = TimeManager(limits, stop, moves_left=module.moves_left(game), start=started)
    ctx = SearchContext(tm, report)
    move, info = module.choose(game, ctx, rng)
    move = _checked(game, move, ctx)
    if limits.infinite:
        stop.wait()  # `go infinite` answers only after `stop`, even when the search is done
    if info is None:
        info = Info(depth=0)
    if not info.pv or info.pv[0] != str(move):
        info.pv = [str(move)]
    ctx.final_report(info)
    return move


def _checked(game: Game, move: Move | None, ctx: SearchContext) -> Move:
    """`move` in canonical form if legal; otherwise (a bug) the first legal move, with a warning."""
    if move is not None:
        try:
            return game.check_move(move)
        except Exception as exc:
            print(f"search: rejected its own move {move}: {exc} in {game.position()}", file=sys.stderr)
    fallback = next(game.legal_moves(), PASS)
    if ctx.report is not None:
        ctx.report(Info(string=f"search fell back to {fallback}"))
    return fallback
