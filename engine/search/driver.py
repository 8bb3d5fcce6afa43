"""Runs a game's searcher within the limits of one `go`, watched, and reports.

A searcher (engine/search/searcher.py; each game's in engine/games/<game>/search.py,
found by engine.games.searcher_for) gives ``moves_left(game)`` (for the clock) and
``choose(game, ctx, rng) -> (move, Info)``. The driver owns the time manager
and the final `info` line, and checks the chosen move with the rules
(``check_move``) before returning it, so a search bug can never send an
illegal move: it would fall back to the first legal move and say so.

Time safety (a search under a deadline, `movetime` or a clock):

- the move's clock starts when the `go` line arrived on stdin (``Limits.started``);
- the searcher runs in a worker thread, watched: if it has not returned
  WATCHDOG_GRACE_MS after its hard deadline (one long step that does not look at the
  clock: building a node's candidates, a slow machine), the driver answers without
  it: the best move of the searcher's latest report (``ctx.snapshot``), else the
  first legal move. The worker is told to stop, its reports are dropped, and the
  next search waits for it (ORPHAN_JOIN_S at most) before starting;
- how late each search answered past its hard deadline is recorded
  (timeman.LATENESS) and kept in reserve by the next budgets.

Searches without a deadline (`nodes`, `depth`, `infinite`, the warm-up) run in the
calling thread, exactly as before: reproducible move for move.
"""

from __future__ import annotations

import gc
import random
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from protocol.game import Game
from protocol.messages import Info
from protocol.moves import PASS, Move

from .context import SearchContext
from .limits import Limits
from .searcher import Searcher
from .timeman import DEFAULT_OVERHEAD_MS, LATENESS, TimeManager

Report = Callable[[Info], None] | None
"""Where `info` lines go; None for a silent search (the warm-up)."""

WATCHDOG_GRACE_MS = 10.0
"""How long past its hard deadline a searcher may take before the driver answers without it."""
ORPHAN_JOIN_S = 0.05
"""How long a new search waits for an abandoned worker (told to stop) to end."""
_orphans: list[threading.Thread] = []


def search(game: Game, searcher: Searcher[Any], limits: Limits, stop: threading.Event, report: Report,
           rng: random.Random, started: float | None = None, settings: object | None = None,
           overhead_ms: int = DEFAULT_OVERHEAD_MS) -> Move:
    """The move `searcher` plays in `game` under `limits`, with `settings` (None: the searcher's
    defaults; else an instance of its settings_type, or TypeError), keeping `overhead_ms` (the
    MoveOverhead option) of the clock in reserve.

    The cyclic garbage collector is paused while searching: a search tree holds
    hundreds of thousands of small objects (and no cycles), and full collections
    of it cost 20-30 ms a move, enough to overrun a 100 ms movetime."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _search(game, searcher, _settings(searcher, settings), limits, stop, report, rng, started, overhead_ms)
    finally:
        if collecting:
            gc.enable()


def _settings(searcher: Searcher[Any], settings: object | None) -> object:
    if settings is None:
        return searcher.defaults
    if not isinstance(settings, searcher.settings_type):
        raise TypeError(f"search: settings {type(settings).__name__} given to a searcher that takes "
                        f"{searcher.settings_type.__name__}")
    return settings


def _search(game: Game, searcher: Searcher[Any], settings: object, limits: Limits, stop: threading.Event,
            report: Report, rng: random.Random, started: float | None, overhead_ms: int) -> Move:
    if game.is_over():  # the front end answers `bestmove (none)` itself; never search then
        raise ValueError("search: the game is over, there is no move to choose")
    _join_orphans()
    halt = threading.Event()
    tm = TimeManager(limits, stop, moves_left=searcher.moves_left(game), start=started,
                     reserve_ms=LATENESS.reserve_ms(), halt=halt, overhead_ms=overhead_ms)
    watched = tm.hard_deadline() is not None and not limits.infinite
    ctx: SearchContext[Any]
    if watched:
        gate = _Gate(report)
        ctx = SearchContext(tm, gate.send, settings)
        root = game.copy()  # the worker pushes and pops on `game`, and may outlive this call
        move, info, abandoned = _watched(game, root, searcher, ctx, rng, halt, gate)
        if abandoned:
            ctx = SearchContext(tm, report, settings)  # the worker's reports are cut off; ours go on
            if report is not None:
                report(Info(string=f"search answered without its searcher {tm.elapsed_ms():.0f} ms "
                                   f"after go (hard deadline {tm.budget.hard_ms:.0f} ms)"))
        game = root
    else:
        ctx = SearchContext(tm, report, settings)
        move, info = searcher.choose(game, ctx, rng)
    move = _checked(game, move, ctx)
    if limits.infinite:
        stop.wait()  # `go infinite` answers only after `stop`, even when the search is done
    if info is None:
        info = Info(depth=0)
    if not info.pv or info.pv[0] != str(move):
        info.pv = [str(move)]
    ctx.final_report(info)
    if watched:
        hard = tm.hard_deadline()
        assert hard is not None
        LATENESS.record((time.monotonic() - hard) * 1000)
    return move


class _Gate:
    """Passes `info` lines on until closed (an abandoned worker must not print after `bestmove`)."""

    def __init__(self, report: Report) -> None:
        self.report = report
        self.open = True
        self._lock = threading.Lock()

    def send(self, info: Info) -> None:
        with self._lock:
            if self.open and self.report is not None:
                self.report(info)

    def close(self) -> None:
        with self._lock:
            self.open = False


def _watched(game: Game, root: Game, searcher: Searcher[Any], ctx: SearchContext[Any], rng: random.Random,
             halt: threading.Event, gate: _Gate) -> tuple[Move | None, Info | None, bool]:
    """searcher.choose in a worker thread; past the hard deadline + grace, answer without it.

    Returns (move, info, abandoned); an abandoned search's move is its latest reported best
    (checked in `root`) or None."""
    result: list[tuple[Move | None, Info | None]] = []
    failure: list[BaseException] = []
    done = threading.Event()

    def work() -> None:
        try:
            result.append(searcher.choose(game, ctx, rng))
        except BaseException as exc:  # handed to the caller, as if choose ran here
            failure.append(exc)
        finally:
            done.set()

    worker = threading.Thread(target=work, name="engine-searcher", daemon=True)
    worker.start()
    hard = ctx.tm.hard_deadline()
    assert hard is not None
    limit = hard + WATCHDOG_GRACE_MS / 1000
    while not done.wait(max(0.0, limit - time.monotonic())):
        if time.monotonic() >= limit:
            break
    if done.is_set():
        if failure:
            raise failure[0]
        return result[0][0], result[0][1], False
    halt.set()
    gate.close()
    _orphans.append(worker)
    return _latest_best(root, ctx), None, True


def _latest_best(root: Game, ctx: SearchContext[Any]) -> Move | None:
    """The first move of the searcher's current report, if it has one and it is legal in `root`."""
    snapshot = ctx.snapshot
    if snapshot is None:
        return None
    try:  # read while the worker may still change its tree: anything odd means no answer
        info = snapshot()
        if info is not None and info.pv:
            return root.parse_move(info.pv[0])
    except Exception:
        return None
    return None


def _join_orphans() -> None:
    """Wait a little for workers abandoned by earlier searches (they were told to stop)."""
    deadline = time.monotonic() + ORPHAN_JOIN_S
    for worker in list(_orphans):
        worker.join(max(0.0, deadline - time.monotonic()))
        if not worker.is_alive():
            _orphans.remove(worker)


def _checked(game: Game, move: Move | None, ctx: SearchContext[Any]) -> Move:
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
