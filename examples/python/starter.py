#!/usr/bin/env python3
"""A starter engine for ISAAC, FOUNDATIONS and HARI: the protocol of SPEC.md section 9 in one file.

The rules all come from the project's ``protocol`` package (legal moves, move and position
parsing, the messages' wire format), so this file is only the conversation with a referee or GUI,
plus a placeholder player to replace with your own:

* a reader thread stamps each line as it arrives; the main thread obeys them in order and answers
  at once, so ``isready``, ``stop`` and ``quit`` work while the engine thinks;
* ``go`` thinks in a worker thread, within a budget taken from the clocks, and prints exactly
  one ``bestmove``: at the deadline a timer prints the best move so far, whatever the search does;
* ``position`` reads only the moves added since the last one (a referee sends the whole game);
* ``uci`` and ``isready`` warm the rules up, so the first timed move is as fast as any;
* a line it cannot obey gets one ``info string error: ...`` line and changes nothing.

Run it: ``python3 examples/python/starter.py``, then type ``uci``, ``position startpos``,
``go movetime 100``, ``quit``. Check it: ``isaac-referee check python3 examples/python/starter.py``.
"""

from __future__ import annotations

import importlib.util
import os
import queue
import random
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from pathlib import Path
from typing import BinaryIO


def _find_protocol() -> None:
    """Use the rules of the isaac-arena checkout this file sits in (examples/python/ of it), so the
    starter and the referee beside it agree; a copy of this file elsewhere uses the installed
    package. Without either, say what to do rather than print a traceback."""
    here = Path(__file__).resolve()
    if len(here.parents) > 2 and (here.parents[2] / "protocol" / "__init__.py").is_file():
        sys.path.insert(0, str(here.parents[2]))
    if importlib.util.find_spec("protocol") is None:
        sys.exit("starter.py needs isaac-arena's `protocol` package: pip install isaac-arena, or keep this "
                 "file in examples/python/ of a checkout; under sandbox=bwrap add readable=<path of protocol/>")


_find_protocol()

import protocol  # noqa: E402  (after the path is set)
from protocol.errors import ArenaError, IllegalMoveError, NotationError  # noqa: E402
from protocol.messages import (  # noqa: E402
    MAX_LINE,
    GoCommand,
    Info,
    OptionSpec,
    ProtocolError,
    format_bestmove,
    info_string,
    move_columns,
    parse_go,
    parse_position_command,
    parse_setoption,
    split_command,
)
from protocol.moves import Move  # noqa: E402

NAME = "isaac-arena Python starter 1.0"
RESERVE_MS = 50
"""Kept back from every budget: the referee times a move until it reads `bestmove`, so the pipe,
the start of the thread, a garbage collection and a busy machine's scheduling all count against us."""
MAX_SAMPLES = 400
"""The placeholder player stops looking after this many moves; more would not make it better."""
FIRST_DRAW_S = 0.01
"""What a uniform draw is assumed to cost in a game until one is timed: no draw is begun with less
time left than the slowest draw of the game's last search (at `go movetime 50` the budget is spent
before the first; in a big HARI position one draw costs 50 ms)."""
FIRST_LOOK = 200
"""Its first move is drawn from this many of the rules' first legal moves: cheap in every game, where
one uniform draw among all moves can cost 50 ms (a HARI position with a million moves, most of them
with slides)."""
OPTIONS = {spec.name.lower(): spec for spec in (
    OptionSpec("UCI_Variant", "combo", protocol.GAME_NAMES[0], vars=list(protocol.GAME_NAMES)),
    OptionSpec("Seed", "spin", "0", 0, 2**31 - 1),
)}


def warm_up() -> None:
    """Do once, before the first `go`, what is slow the first time in a fresh process: protocol builds
    its notation grammar and move tables on first use (the first FOUNDATIONS move read costs about
    100 ms), and that would be charged to the first timed move. Called on `uci` and `isready`,
    which have seconds to answer at start-up (SPEC 9.2), so the first `go` is as fast as any."""
    rng = random.Random(0)
    for name in protocol.GAME_NAMES:
        game = protocol.game_from_position(protocol.new_game(name).position())
        for _ in range(2):
            move = game.random_move(rng)
            if move is None:
                break
            game.play(str(move))
        margin(game, 0)
    parse_position_command("position startpos moves a0a2")
    parse_go("go p1time 1000 p2time 1000 p1inc 10 p2inc 10 movetime 100")


class Refused(Exception):
    """A line the engine cannot obey; the message says what was wrong and where."""


def budget_ms(go: GoCommand, color: int) -> float | None:
    """How long to think, in ms from the moment `go` arrived; None: until `stop` (go infinite).

    With a clock, an even share of what is left over the moves still to play (`movestogo`, else a
    guess of 20) plus most of the increment, never more than half of what is left: a player that
    runs out of time loses the game, whatever the position.
    """
    if go.infinite:
        return None
    if go.movetime is not None:
        return max(1.0, go.movetime - RESERVE_MS)
    left, increment = go.clock(color)
    if left is not None:
        share = left / (go.movestogo or 20) + 0.8 * increment
        return max(1.0, min(share, left / 2) - RESERVE_MS)
    if go.depth is not None or go.nodes is not None:
        return None                              # no time limit: the sample limit ends the search
    return 1000.0 - RESERVE_MS                   # a bare `go` thinks for a second (SPEC 9.4)


def margin(game: protocol.Game, color: int) -> int:
    """The game's own measure (Game.scores), `color`'s minus the opponent's, bigger is better for
    `color`: ISAAC score, FOUNDATIONS value left in hand (lower is better), HARI value on the board."""
    mine, theirs = game.scores[color], game.scores[1 - color]
    return theirs - mine if protocol.registry.entry(game.name).lower_score_wins else mine - theirs


class Search(threading.Thread):
    """Thinks about one position in its own thread; its `info` and `bestmove` are printed once.

    The placeholder player: it takes one of the rules' first legal moves at once, then draws random
    legal moves while there is time (protocol draws uniformly, even among HARI's hundreds of
    thousands) and keeps the one that leaves the best margin. Put your own search in `think`,
    keeping `self.best` up to date and looking at `self.out_of_time()` often.

    The answer does not wait for the search: a timer prints `self.best` at the deadline, and `stop`
    prints it at once, even when the search is in the middle of a long step (one uniform draw in a
    big HARI position takes 50 ms, more on a busy machine). The search ends at its next look at
    `self.stopped`, and its answer, if it comes later, is never printed: `answer` prints only once.
    """

    def __init__(self, game: protocol.Game, go: GoCommand, started: float, seed: int,
                 finish: Callable[[Search, list[str]], None], slowest: float = FIRST_DRAW_S) -> None:
        super().__init__(daemon=True)
        self.game, self.go, self.started, self.finish = game, go, started, finish
        self.slowest = slowest
        """The slowest uniform draw seen (of this search, or of the last one in this game)."""
        self.rng = random.Random(seed)
        self.stopped = threading.Event()
        budget = budget_ms(go, game.turn)
        self.deadline = None if budget is None else started + budget / 1000
        self.best: Move | None = None
        self.fallback = next(iter(game.legal_moves()))   # the rules' first legal move: found at once
        self.samples = 0
        self.ready = threading.Event()           # self.best is set
        self._answered = False
        self._once = threading.Lock()

    def out_of_time(self, ahead: float = 0.0) -> bool:
        """Stopped, or the deadline falls within `ahead` seconds: a step that cannot end in time is not
        begun (the timer would answer without it, and it would only take the CPU from the answer)."""
        return self.stopped.is_set() or (self.deadline is not None and time.monotonic() + ahead >= self.deadline)

    def think(self) -> None:
        """Sets self.best at once (so there is an answer however soon the time runs out), then
        improves it with uniform random draws until the sample limit, `stop` or the deadline."""
        color, limit = self.game.turn, self.go.nodes or MAX_SAMPLES
        self.best = self.rng.choice(list(islice(self.game.legal_moves(), FIRST_LOOK)))
        best_value, self.samples = self.value(self.best, color), 1
        self.ready.set()
        drawn = 0.0
        while self.samples < limit and not self.out_of_time(max(drawn, self.slowest)):
            started = time.monotonic()
            move = self.game.random_move(self.rng)
            assert move is not None, "Engine.go answers finished games itself"
            value = self.value(move, color)
            drawn = max(drawn, time.monotonic() - started)
            self.samples += 1
            if value >= best_value:          # among equals the latest uniform draw: a uniform choice
                self.best, best_value = move, value
        if drawn:
            self.slowest = drawn

    def value(self, move: Move, color: int) -> int:
        """The margin `move` leaves `color` at once."""
        self.game.push(move)
        value = margin(self.game, color)
        self.game.pop()
        return value

    def run(self) -> None:
        timer = None
        if self.deadline is not None:
            timer = threading.Timer(max(0.0, self.deadline - time.monotonic()), self.answer)
            timer.daemon = True
            timer.start()
        self.think()
        if self.go.infinite:                     # bestmove only after `stop`, however soon we are done
            self.stopped.wait()
        self.answer()
        if timer is not None:
            timer.cancel()

    def answer(self) -> None:
        """Print the best move so far, once, whoever calls first: the search when done, the timer
        at the deadline, or `stop`. The search stops looking."""
        # think's first move comes within a millisecond or two; on a machine too busy for that, the
        # rules' first legal move is played once half the reserve is spent
        latest = None if self.deadline is None else self.deadline + RESERVE_MS / 2000
        self.ready.wait(None if latest is None else max(0.0, latest - time.monotonic()))
        with self._once:
            if self._answered:
                return
            self._answered = True
        self.stopped.set()
        move = self.best if self.ready.is_set() and self.best is not None else self.fallback
        elapsed = int((time.monotonic() - self.started) * 1000)
        self.finish(self, [Info(depth=1, time=elapsed, nodes=self.samples, pv=[str(move)]).format(),
                           format_bestmove(move)])


class Engine:
    """The state the commands change: the game chosen, the position, the options, the search."""

    def __init__(self, out: BinaryIO) -> None:
        self.out = out
        self.lock = threading.Lock()             # one line at a time: lines never interleave
        self.variant = protocol.GAME_NAMES[0]
        self.game = protocol.new_game(self.variant)
        self.seed = 0
        self.rng = random.Random(self.seed)
        self.search: Search | None = None
        self.last_search: dict[str, Search] = {}
        """The last search of each game: what its slowest draw took is where the next one starts (FIRST_DRAW_S)."""
        self.warm = False
        self.reached: tuple[tuple[str, str | None], list[str]] | None = None
        """How self.game was reached by `position`: (variant, position string), moves; None after a reset."""

    def warm_up(self) -> None:
        if not self.warm:
            warm_up()
            self.warm = True

    def say(self, *lines: str) -> None:
        with self.lock:
            self._write(lines)

    def finish(self, search: Search, lines: list[str]) -> None:
        """A search's last lines. It stops counting as running in the same step as its `bestmove`
        is written, so the `go` a referee sends on reading that `bestmove` is never refused."""
        self.last_search[search.game.name] = search
        with self.lock:
            if self.search is search:
                self.search = None
            self._write(lines)

    def _write(self, lines: Iterable[str]) -> None:
        """Write whole lines and flush them: on a pipe Python buffers stdout, and a `bestmove` left
        in the buffer is a move the referee never reads (the game is lost on time)."""
        self.out.write("".join(line + "\n" for line in lines).encode())
        self.out.flush()

    def handle(self, line: str, arrived: float) -> bool:
        """Obey one line; False after `quit`. Anything refused becomes one error line."""
        word, _ = split_command(line)
        try:
            if not word:
                pass                             # empty lines are ignored
            elif word == "quit":
                return False
            elif word in COMMANDS:
                COMMANDS[word](self, line, arrived)
            else:
                raise Refused(f"unknown command {word!r} (column {line.find(word) + 1}); "
                              f"commands are {', '.join(['quit', *COMMANDS])}")
        except (Refused, ProtocolError, ArenaError) as exc:
            self.say(info_string(f"error: {exc}"))
        return True

    # -- the commands -----------------------------------------------------------------------
    def uci(self, line: str, arrived: float) -> None:
        self.warm_up()
        self.say(f"id name {NAME}")
        self.say("id author isaac-arena participants' kit")
        for spec in OPTIONS.values():
            self.say(spec.format())
        self.say("uciok")

    def isready(self, line: str, arrived: float) -> None:
        self.warm_up()                           # only the first time: then at once, even while a search runs
        self.say("readyok")

    def debug(self, line: str, arrived: float) -> None:
        """Accepted and ignored (SPEC 9.2)."""

    def setoption(self, line: str, arrived: float) -> None:
        option = parse_setoption(line)
        spec = OPTIONS.get(option.name.lower())
        if spec is None:
            raise Refused(f"unknown option {option.name!r}; options are {', '.join(s.name for s in OPTIONS.values())}")
        value = spec.coerce(option.value)        # ProtocolError naming what is allowed
        if spec.name == "UCI_Variant":
            self.variant = str(value)
            self.game, self.reached = protocol.new_game(self.variant), None   # choosing a game resets the position
        else:
            self.seed = int(value)
            self.rng = random.Random(self.seed)

    def ucinewgame(self, line: str, arrived: float) -> None:
        self.game, self.reached = protocol.new_game(self.variant), None
        self.rng = random.Random(self.seed)      # the same seed and commands give the same game

    def position(self, line: str, arrived: float) -> None:
        """Build the new position on the side and keep it only if every part is valid, so a
        rejected command leaves the previous position in place. A referee sends the whole game
        before every move: when it extends the position already reached, only the new moves are
        read (reading moves is most of the work a move costs a placeholder player)."""
        command = parse_position_command(line)
        done = self.reached
        if done is not None and done[0] == (self.variant, command.fen) and command.moves[:len(done[1])] == done[1]:
            game, first = self.game.copy(), len(done[1])
        elif command.fen is None:
            game, first = protocol.new_game(self.variant), 0
        else:
            try:
                game, first = protocol.game_from_position(command.fen), 0
            except NotationError as exc:
                column = line.find(command.fen) + exc.column
                raise Refused(f"position: bad position string at column {column}: {exc.message}") from None
            if game.name != self.variant:
                raise Refused(f"position: a {game.name} position, but UCI_Variant is {self.variant} "
                              f"(send setoption name UCI_Variant value {game.name} first)")
        for number, (text, column) in enumerate(zip(command.moves, move_columns(line)), 1):
            if number <= first:
                continue
            try:
                game.play(text)
            except NotationError as exc:
                raise Refused(f"position: move {number} {text!r} at column {column + exc.column - 1}: "
                              f"bad notation: {exc.message}") from None
            except IllegalMoveError as exc:
                raise Refused(f"position: move {number} {text!r} at column {column}: illegal: {exc.reason}") from None
        self.game, self.reached = game, ((self.variant, command.fen), list(command.moves))

    def go(self, line: str, arrived: float) -> None:
        go = parse_go(line)
        if self.search is not None:
            raise Refused("go: a search is running; send stop first")
        if go.perft is not None:                 # to test your own move generator against protocol's
            counts = self.game.perft_divide(go.perft) if go.perft > 0 else []
            for move, count in counts:
                self.say(f"{move}: {count}")
            self.say("")
            self.say(f"Nodes searched: {sum(c for _, c in counts) if go.perft > 0 else 1}")
            return
        outcome = self.game.result()
        if outcome is not None:                  # answered at once, even after go infinite
            self.say(info_string(f"game over: {outcome}"))
            self.say(format_bestmove(None))
            return
        moves = list(islice(self.game.legal_moves(), 2))
        if len(moves) == 1:                      # a forced move (pass) needs no thought
            self.say(format_bestmove(moves[0]))
            return
        last = self.last_search.get(self.variant)
        self.search = Search(self.game.copy(), go, arrived, self.rng.getrandbits(64), self.finish,
                             FIRST_DRAW_S if last is None else last.slowest)
        self.search.start()

    def stop(self, line: str, arrived: float) -> None:
        """Returns only after the search printed its `bestmove`, so a later `readyok` follows it."""
        search = self.search
        if search is not None:                   # nothing running: ignored in silence
            search.answer()

    def d(self, line: str, arrived: float) -> None:
        self.say(f"Position: {self.game.position()}")

    def moves(self, line: str, arrived: float) -> None:
        self.say(" ".join(["moves", *map(str, self.game.legal_moves())]))


COMMANDS: dict[str, Callable[[Engine, str, float], None]] = {
    "uci": Engine.uci, "isready": Engine.isready, "debug": Engine.debug, "setoption": Engine.setoption,
    "ucinewgame": Engine.ucinewgame, "position": Engine.position, "go": Engine.go, "stop": Engine.stop,
    "d": Engine.d, "moves": Engine.moves,
}


def lines(stream: BinaryIO) -> Iterator[str | None]:
    """Each input line without its line end (LF, or CR LF), read as UTF-8 where bytes that are not
    UTF-8 become U+FFFD (SPEC 9.1); None for a line over MAX_LINE bytes, read to its end and dropped."""
    while chunk := stream.readline(MAX_LINE + 2):
        if len(chunk.rstrip(b"\r\n")) > MAX_LINE:
            while not chunk.endswith(b"\n") and (chunk := stream.readline(MAX_LINE)):
                pass
            yield None
        else:
            yield chunk.rstrip(b"\n").removesuffix(b"\r").decode("utf-8", errors="replace")


def read_ahead(stream: BinaryIO) -> queue.Queue[tuple[float, str | None] | None]:
    """Input lines with the moment each arrived, read by a thread of their own, so the clock of a `go`
    starts when it came, not when the command loop was done with the `position` sent before it.
    At most 64 lines wait; further ones stay in the pipe. None ends the input."""
    arrivals: queue.Queue[tuple[float, str | None] | None] = queue.Queue(maxsize=64)

    def read() -> None:
        for line in lines(stream):
            arrivals.put((time.monotonic(), line))
        arrivals.put(None)

    threading.Thread(target=read, daemon=True).start()
    return arrivals


def main() -> None:
    """The command loop. On `quit` or the end of input the process ends at once with status 0:
    `os._exit`, because a normal interpreter exit with the reader thread still blocked on an open
    stdin dies with SIGABRT ("could not acquire lock for <stdin> at interpreter shutdown")."""
    engine = Engine(sys.stdout.buffer)
    arrivals = read_ahead(sys.stdin.buffer)
    while (item := arrivals.get()) is not None:
        arrived, line = item
        if line is None:
            engine.say(info_string(f"error: line longer than {MAX_LINE} bytes dropped; nothing of it was obeyed"))
        elif not engine.handle(line, arrived):
            break
    search = engine.search
    if search is not None:                       # quit, or the end of input: a search answers at once
        search.answer()
    with engine.lock:                            # no line half written
        engine.out.flush()
        os._exit(0)


if __name__ == "__main__":
    main()
