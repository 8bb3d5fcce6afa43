"""The command loop: read a line, do what it says, answer on stdout. Stockfish style, kept thin.

Parsing and formatting of protocol lines is protocol.messages' job; the
position lives in engine.session; long work (search, perft, moves, bench)
runs in the job thread of engine.jobs so the loop keeps reading.

Bad input of any kind gets exactly one line `info string error: <what, where>`
and changes nothing. Rules while a job runs (a `go` search, `go perft`, `moves` or `bench`):
- `isready`, `uci`, `d` are answered at once (between the lines of a perft, after
  the one long `moves` line); `stop` ends a search (its `bestmove` comes before
  `stop` returns, so a later `readyok` never overtakes it) or a perft or bench
  (within milliseconds at any depth); `quit` ends everything.
- `position`, `setoption`, `ucinewgame` are accepted and apply to the next `go`
  (the job works on its own copy of the position and its own strategy object).
- `go`, `go perft`, `moves`, `bench` during a search are refused with an error
  line (one search at a time); during a perft, moves or bench they wait for it
  to finish and then run, in order, as in Stockfish.
- `stop` with no job running is ignored silently (it often races a `bestmove`).
End of input stops a search at once, like `quit`, but lets a `go perft`,
`moves` or `bench` finish, so `echo "go perft 2" | isaac-engine` works.

A reader thread (engine/reader.py, stamped_lines) takes each line off stdin as soon as
it is complete and stamps it with its arrival time; the loop still obeys the lines one by
one, in order. A `go`'s clock starts at that stamp (Limits.started, SPEC 9.10), so the time a
`go` waits behind a slow `position` counts against the move.
"""

from __future__ import annotations

import gc
import re
import sys
import time
import traceback
from contextlib import closing
from typing import BinaryIO

from protocol.game import Game
from protocol.messages import (
    BLANKS,
    MAX_LINE,
    ProtocolError,
    format_bestmove,
    info_string,
    parse_go,
    parse_setoption,
    split_command,
)
from protocol.moves import PASS, Move

from . import __version__
from .jobs import JobThread, run_moves, run_perft, run_search
from .options import NO_SETTINGS, Options
from .output import Output
from .reader import TooLong, stamped_lines
from .session import CommandError, Session
from .strategies import make_strategy
from .strategies.base import Strategy

ENGINE_NAME = f"isaac-arena {__version__}"
ENGINE_AUTHOR = "isaac-arena developers"
QUIT_GRACE = 0.25
"""Seconds `quit`/EOF give a stopped search to print its `bestmove` before the process ends."""
STOP_WAIT = 2.0
"""Seconds `stop` waits for the search to answer before the loop reads on regardless."""


class Engine:
    """One engine session over an input and an Output."""

    def __init__(self, out: Output | None = None, freeze_gc: bool | None = None):
        """`freeze_gc` (default: when the engine owns the process, i.e. prints to stdout):
        gc.freeze after each one-off set-up (see _prepare)."""
        self.freeze_gc = out is None if freeze_gc is None else freeze_gc
        self.out = out or Output()
        self.options = Options()
        self.session = Session(self.options)
        self.job = JobThread(self.out)
        self.running = True
        self.read_at = time.monotonic()
        """When the line being handled arrived: a `go`'s clock starts there (Limits.started)."""
        self.commands = {
            "uci": self.cmd_uci, "isready": self.cmd_isready, "ucinewgame": self.cmd_ucinewgame,
            "setoption": self.cmd_setoption, "position": self.cmd_position, "go": self.cmd_go,
            "stop": self.cmd_stop, "quit": self.cmd_quit, "d": self.cmd_d, "moves": self.cmd_moves,
            "bench": self.cmd_bench, "debug": self.cmd_debug, "ponderhit": self.cmd_ponderhit,
            "steps": self.cmd_steps, "state": self.cmd_state,
        }

    # -- loop -------------------------------------------------------------------
    def run(self, stream: BinaryIO | None = None) -> int:
        """Serve commands until `quit` or end of input; returns the exit status."""
        with closing(stamped_lines(stream if stream is not None else sys.stdin.buffer)) as lines:
            for read_at, line in lines:
                if isinstance(line, TooLong):
                    self.error(f"line of {line.size} bytes is longer than the limit of {MAX_LINE}; ignored")
                else:
                    self.handle(line, read_at)
                if not self.running or self.out.closed:
                    break
            else:
                self.end_of_input()
        return 0

    def handle(self, line: str, read_at: float | None = None) -> None:
        """Do one command that arrived at `read_at` (time.monotonic(); None: now).

        Any failure becomes one error line."""
        self.read_at = time.monotonic() if read_at is None else read_at
        word, _ = split_command(line)
        if not word:
            return
        command = self.commands.get(word)
        try:
            if command is None:
                raise CommandError(f"unknown command {word!r} (column {line.find(word) + 1}); "
                                   f"commands are {', '.join(self.commands)}")
            command(line.rstrip(BLANKS))
        except (CommandError, ProtocolError) as e:
            self.error(str(e))
        except Exception as e:  # a bug must cost one answer, never the engine
            traceback.print_exc(file=sys.stderr)
            self.error(f"internal error in {word!r}: {type(e).__name__}: {e}")

    def error(self, text: str) -> None:
        """The one answer to a line the engine cannot obey (control characters shown escaped)."""
        shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
        self.out.send(info_string(f"error: {shown}"))

    def end_of_input(self) -> None:
        """Stdin closed: stop a search (like quit) but let counting jobs finish."""
        if self.job.busy and self.job.kind == "search":
            self.job.halt(QUIT_GRACE)
        else:
            self.job.wait(None)

    def claim_job_slot(self, command: str) -> None:
        """Make room for a new job: refused during a search, queued behind a perft/moves/bench."""
        if self.job.busy and self.job.kind == "search":
            raise CommandError(f"{command}: a search is running; send stop first")
        self.job.wait(None)

    # -- commands -----------------------------------------------------------------
    def cmd_uci(self, line: str) -> None:
        self.out.send_lines([f"id name {ENGINE_NAME}", f"id author {ENGINE_AUTHOR}",
                             *self.options.lines(), "uciok"])
        self._prepare(strategy=False)  # after uciok: the GUI's next command waits for it, the handshake does not

    def cmd_isready(self, line: str) -> None:
        if not self.job.busy:
            self._prepare()
        self.out.send("readyok")

    def cmd_ucinewgame(self, line: str) -> None:
        self.session.new_game()
        if not self.job.busy:
            self._prepare()

    def _prepare(self, strategy: bool = True) -> None:
        """One-off set-up (Session.prepare) outside any timed `go`; a failure only costs speed.

        Then the objects alive so far (modules, rules tables, the warm-up's leftovers)
        are moved out of the garbage collector's sight (gc.freeze): a collection that
        starts inside a timed `go` then scans only what the engine made since."""
        try:
            self.session.prepare(strategy)
        except Exception:
            traceback.print_exc(file=sys.stderr)
        if self.freeze_gc:
            gc.collect()
            gc.freeze()

    def cmd_debug(self, line: str) -> None:
        """UCI `debug on|off`: accepted; the engine has no extra debug output."""
        _, arg = split_command(line)
        if arg not in ("on", "off"):
            raise CommandError(f"debug: expected 'on' or 'off' at column {_column_after(line, 'debug')}, "
                               f"found {arg!r}")

    def cmd_ponderhit(self, line: str) -> None:
        raise CommandError("ponderhit: pondering is not supported")

    def cmd_setoption(self, line: str) -> None:
        command = parse_setoption(line)
        if command.name.lower() == "searchsettings" and command.value not in (None, NO_SETTINGS):
            from .strategies.search_strategy import search_settings  # the searchers load only when asked

            try:  # a variant the searchers cannot take is refused: the option keeps its value
                search_settings(command.value)
            except ValueError as bad:
                raise CommandError(f"setoption: SearchSettings: {bad}") from None
        name, value = self.options.set(line, command)
        if name == "UCI_Variant":
            self.session.set_variant(self.options.text("UCI_Variant"))
            if not self.job.busy:
                self._prepare(strategy=False)
        elif name == "Strategy":
            self.session.strategy = None
        elif name == "SearchSettings":
            self.session.strategy = None
        elif name == "Seed":
            self.session.new_rng()

    def cmd_position(self, line: str) -> None:
        self.session.set_position(line)

    def cmd_go(self, line: str) -> None:
        go = parse_go(line)
        self.claim_job_slot("go perft" if go.perft is not None else "go")
        game = self.session.game
        if go.perft is not None:
            self.job.start("perft", run_perft, self.out, game.copy(), go.perft)
            return
        if game.is_over():
            self.out.send_lines([info_string(f"game over: {game.result()}"), format_bestmove(None)])
            return
        first_two = _first_two(game)
        if first_two == [PASS]:
            self.out.send(format_bestmove(PASS))
            return
        strategy = self._strategy()
        limits = self.session.limits(go)
        limits.started = self.read_at
        self.job.start("search", run_search, self.out, game.copy(), strategy, limits, self.session.rng,
                       self.session.play_options())

    def _strategy(self) -> Strategy:
        """The session's strategy; if it cannot be made, say so and play random (a `go` gets a `bestmove`)."""
        try:
            return self.session.get_strategy()
        except Exception as e:
            traceback.print_exc(file=sys.stderr)
            self.error(f"go: strategy {self.options['Strategy']} is unavailable "
                       f"({type(e).__name__}: {e}); playing random")
            return make_strategy("random")

    def cmd_stop(self, line: str) -> None:
        if self.job.busy and self.job.kind in ("search", "perft", "bench"):
            if not self.job.halt(STOP_WAIT):
                self.error(f"stop: the {self.job.kind} did not end within {STOP_WAIT} s")

    def cmd_quit(self, line: str) -> None:
        self.job.halt(QUIT_GRACE)
        self.running = False

    def cmd_d(self, line: str) -> None:
        from .display import render
        self.out.send_lines(render(self.session.game))

    def cmd_moves(self, line: str) -> None:
        """A bare `moves` streams every move in a job; `moves count` / `moves from K max N` answer at once."""
        from .answers import moves_page_answer
        page = moves_page_answer(self.session.game, line)
        if page is not None:
            self.out.send(page)
            return
        self.claim_job_slot("moves")
        self.job.start("moves", run_moves, self.out, self.session.game.copy())

    def cmd_steps(self, line: str) -> None:
        """The legal next steps of a partly entered move (SPEC 9.11); answered at once, like `d`."""
        from .answers import steps_answer
        self.out.send(steps_answer(self.session.game, line))

    def cmd_state(self, line: str) -> None:
        """The position and its outcome as one JSON line (SPEC 9.11); answered at once, like `d`."""
        from .answers import state_answer
        self.out.send(state_answer(self.session.game, line))

    def cmd_bench(self, line: str) -> None:
        from .bench import parse_bench_args, run_bench
        words = [(m.group(), m.start() + 1) for m in re.finditer(r"[^ \t]+", line)][1:]
        settings = parse_bench_args([w for w, _ in words], [c for _, c in words])
        self.claim_job_slot("bench")
        self.job.start("bench", run_bench, self.out, settings)


def _first_two(game: Game) -> list[Move]:
    """Up to two legal moves (lazily: HARI has ~10^5); just [PASS] means a forced pass."""
    moves: list[Move] = []
    for move in game.legal_moves():
        moves.append(move)
        if len(moves) == 2:
            break
    return moves


def _column_after(line: str, word: str) -> int:
    """1-based column of the first non-blank after the command `word` (or just past the end)."""
    start = line.index(word) + len(word)
    rest = line[start:]
    return start + len(rest) - len(rest.lstrip(" \t")) + 1
