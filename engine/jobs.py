"""The work the engine does off the command loop: search (`go`), `go perft`, `moves`.

Each runs in the job thread so the loop keeps reading: `isready` is answered
at once and `stop`/`quit` are seen while the job runs. Every job works on its
own copy of the position, so a `position` command during a job cannot disturb it.
"""

from __future__ import annotations

import random
import sys
import threading
import traceback
from collections.abc import Callable
from typing import Any

from protocol.errors import IllegalMoveError
from protocol.game import Game
from protocol.messages import Info, format_bestmove, info_string

from .output import Output
from .strategies.base import Limits, PlayOptions, Strategy


def run_search(out: Output, root: Game, strategy: Strategy, limits: Limits, rng: random.Random,
               options: PlayOptions, stop: threading.Event) -> str:
    """Ask `strategy` for a move on a copy of `root` with the engine's `options`; returns the `bestmove` line.

    The job thread prints that line as it marks itself idle (JobThread), so a `go`
    sent the moment `bestmove` arrives is never refused as "already searching".

    A strategy that fails or returns an illegal move is reported in an
    `info string error` line and replaced by a legal move, so the GUI always
    gets a `bestmove`. With `go infinite` the answer waits for `stop`, as UCI requires.
    """
    def report(info: Info) -> None:
        out.send(info.format())

    name = getattr(strategy, "name", type(strategy).__name__)
    try:
        move = strategy.choose(root.copy(), limits, stop, report, rng, options)
        move = root.check_move(move)
    except IllegalMoveError as e:
        out.send(info_string(f"error: strategy {name} chose an illegal move {e.move!r}: {e.reason}; playing another"))
        move = next(iter(root.legal_moves()))
    except Exception as e:  # a strategy bug must not kill the engine or leave the GUI waiting
        traceback.print_exc(file=sys.stderr)
        out.send(info_string(f"error: strategy {name} failed ({type(e).__name__}: {e}); playing a random move"))
        fallback = root.random_move(rng)
        move = fallback if fallback is not None else next(iter(root.legal_moves()))
    if limits.infinite:
        stop.wait()
    return format_bestmove(move)


class _Stopped(Exception):
    """Raised inside the perft recursion when `stop` is set."""


def _count(game: Game, depth: int, stop: threading.Event) -> int:
    """perft(depth) that looks at `stop` at every inner node (a leaf costs at most ~1 ms to count)."""
    if stop.is_set():
        raise _Stopped
    if depth <= 0:
        return 1
    if depth == 1:
        return game.count_legal_moves()
    total = 0
    for move in list(game.legal_moves()):
        game.push(move)
        try:
            total += _count(game, depth - 1, stop)
        finally:
            game.pop()
    return total


def run_perft(out: Output, game: Game, depth: int, stop: threading.Event) -> None:
    """Stockfish's `go perft`: `<move>: <count>` per legal move, a blank line, `Nodes searched: <n>`.

    Each line is sent as soon as its root move is counted; answers to other
    commands (`readyok`) may come between the lines, never inside one. `stop`
    or `quit` end the count within milliseconds at any depth (the recursion
    checks the stop event at every inner node); the answer then ends with an
    `info string` saying so and no total.
    """
    total = 0
    moves = list(game.legal_moves()) if depth > 0 else []
    for done, move in enumerate(moves):
        game.push(move)
        try:
            count = _count(game, depth - 1, stop)
        except _Stopped:
            out.send(info_string(f"perft stopped after {done} of {len(moves)} moves; no total"))
            return
        finally:
            game.pop()
        total += count
        out.send(f"{move}: {count}")
    out.send_lines(["", f"Nodes searched: {total if depth > 0 else 1}"])


def run_moves(out: Output, game: Game, stop: threading.Event) -> None:
    """One line `moves m1 m2 ...`, streamed from the lazy generator (HARI has ~10^5 moves)."""
    with out.stream() as line:
        line.write("moves")
        for move in game.legal_moves():
            line.write(" ")
            line.write(str(move))


class JobThread:
    """One background job at a time, with its own stop event.

    A job function may return a last line (the `bestmove`). It is printed in
    the same critical section that marks the job idle, so whoever sees the job
    idle knows that line is already out: after `stop`, a later `readyok` can
    never overtake the `bestmove` (SPEC 9.6), and a `go` sent the moment the
    `bestmove` arrives is never refused as "already searching".
    """

    def __init__(self, out: Output) -> None:
        self.out = out
        self.thread: threading.Thread | None = None
        self.kind = ""
        self.stop = threading.Event()
        self._active = False
        self._lock = threading.Lock()

    @property
    def busy(self) -> bool:
        """True until the job has ended and its last line is printed."""
        with self._lock:
            return self._active

    def start(self, kind: str, target: Callable[..., str | None], *args: Any) -> None:
        """Run target(*args, stop) in a daemon thread (daemon: `quit` never waits on it for long)."""
        self.kind = kind
        self.stop = threading.Event()
        self._active = True
        self.thread = threading.Thread(target=self._guard, args=(target, *args, self.stop),
                                       name=f"engine-{kind}", daemon=True)
        self.thread.start()

    def _guard(self, target: Callable[..., str | None], *args: Any) -> None:
        last = None
        try:
            last = target(*args)
        except Exception as e:  # a bug in a job must cost one answer, not the engine
            traceback.print_exc(file=sys.stderr)
            last = info_string(f"error: {self.kind} failed ({type(e).__name__}: {e})")
        except BaseException:
            with self._lock:
                self._active = False
            raise
        with self._lock:
            self._active = False
            if last is not None:
                self.out.send(last)

    def halt(self, timeout: float | None) -> bool:
        """Set stop and wait up to `timeout` s for the job to end; True if it ended."""
        self.stop.set()
        return self.wait(timeout)

    def wait(self, timeout: float | None) -> bool:
        """Wait up to `timeout` s (None: for ever) for the job thread to end; True if it has."""
        if self.thread is not None:
            self.thread.join(timeout)
        return self.thread is None or not self.thread.is_alive()
