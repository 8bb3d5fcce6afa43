"""One engine as a player: the protocol conversation, with every way it can go wrong named.

The player speaks through protocol.messages only and trusts nothing: it times each answer
itself (the stamp taken when the line was read), gives up at the deadline, probes a silent
engine with `isready`, and turns every misbehaviour into an EngineFailure whose
`termination` is one of record.TERMINATIONS and whose `detail` says exactly what happened.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable

from protocol.messages import MAX_LINE, OptionSpec, ProtocolError, SetOption, parse_engine_line

from .engine_process import EngineGone, EngineProcess, EngineSpec, Line
from .record import info_to_dict

DEFAULT_MAX_MOVE_BYTES = 32 * 1024 * 1024
DEFAULT_MAX_MOVE_LINES = 200_000


class EngineFailure(Exception):
    """An engine broke the protocol or the rules of play; it forfeits the game."""

    def __init__(self, termination: str, detail: str, *, exit_code: int | None = None,
                 overrun_ms: int | None = None, elapsed_ms: int | None = None,
                 stderr_tail: str = "", move: str | None = None):
        self.termination = termination
        self.detail = detail
        self.exit_code = exit_code
        self.overrun_ms = overrun_ms
        self.elapsed_ms = elapsed_ms
        self.stderr_tail = stderr_tail
        self.move = move
        super().__init__(f"{termination}: {detail}")


def describe_exit(code: int | None) -> str:
    """'exit code 3', 'killed by signal 11 (SIGSEGV)' or 'still running'."""
    if code is None:
        return "still running"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = "unknown signal"
        return f"killed by signal {-code} ({name})"
    return f"exit code {code}"


def _short(text: str, limit: int = 300) -> str:
    text = " | ".join(part.strip() for part in text.strip().splitlines() if part.strip())
    return text if len(text) <= limit else "..." + text[-(limit - 3):]


class EnginePlayer:
    """An engine process plus the protocol state: options it declared, the game it plays."""

    def __init__(self, spec: EngineSpec, io_log: Callable[[str], None] | None = None, *,
                 start_timeout: float = 10.0, ping_timeout: float = 5.0, stop_grace: float = 1.0,
                 probe_interval: float = 10.0, quit_grace: float = 1.0, term_grace: float = 1.0,
                 max_line: int = MAX_LINE, max_move_bytes: int = DEFAULT_MAX_MOVE_BYTES,
                 max_move_lines: int = DEFAULT_MAX_MOVE_LINES):
        self.spec = spec
        self.name = spec.name
        self.io_log = io_log
        self.start_timeout = start_timeout
        self.ping_timeout = ping_timeout
        self.stop_grace = stop_grace
        self.probe_interval = probe_interval
        self.quit_grace = quit_grace
        self.term_grace = term_grace
        self.max_line = max_line
        self.max_move_bytes = max_move_bytes
        self.max_move_lines = max_move_lines
        self.process: EngineProcess | None = None
        self.id_name: str | None = None
        self.id_author: str | None = None
        self.options: dict[str, OptionSpec] = {}
        self.failed: EngineFailure | None = None

    # -- state -------------------------------------------------------------------
    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.alive and self.failed is None

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    def stderr_tail(self) -> str:
        return "" if self.process is None else self.process.stderr_tail()

    # -- failures ----------------------------------------------------------------
    def _failure(self, termination: str, detail: str, **extra) -> EngineFailure:
        failure = EngineFailure(termination, detail, stderr_tail=self.stderr_tail(), **extra)
        self.failed = failure
        return failure

    async def _gone(self, doing: str, line: Line | None = None, start: bool = False) -> EngineFailure:
        """The engine closed stdout or exited: crash (bad exit), disconnect (exit 0 or pipes closed)."""
        code = await self.process.wait_exit(0.5)
        tail = self.stderr_tail()
        parts = [describe_exit(code)]
        if line is not None and line.kind == Line.EOF and line.text:
            parts.append(f"unterminated output {line.text!r} ignored")
        if tail:
            parts.append(f"stderr tail: {_short(tail)}")
        if start:
            when = "during start-up" if doing == "starting up" else f"during start-up while {doing}"
            return self._failure("start failure", f"exited {when} ({'; '.join(parts)})",
                                 exit_code=code)
        if code is None:
            return self._failure("disconnect", f"closed its output while {doing} ({'; '.join(parts)})")
        if code == 0:
            return self._failure("disconnect", f"exited while {doing} ({'; '.join(parts)})", exit_code=code)
        return self._failure("crash", f"crashed while {doing} ({'; '.join(parts)})", exit_code=code)

    async def _send(self, line: str, doing: str, start: bool = False, then: str | None = None) -> None:
        try:
            await self.process.send(line, *([then] if then else []))
        except EngineGone:
            raise await self._gone(doing, start=start) from None

    # -- start-up ------------------------------------------------------------------
    async def start(self) -> None:
        """Spawn, `uci` ... `uciok` within start_timeout, set the spec's options, `isready`."""
        self.failed = None
        self.options = {}
        self.process = EngineProcess(self.spec, self.io_log, max_line=self.max_line)
        try:
            await self.process.start()
        except (OSError, ValueError) as exc:
            raise self._failure("start failure", f"could not be started: {exc}") from None
        try:
            await self._handshake()
            await self._set_options()
            await self._ready("start failure", "starting up")
        except EngineFailure:
            await self.process.shutdown(0.1, 0.2)
            raise

    async def _handshake(self) -> None:
        await self._send("uci", "starting up", start=True)
        deadline = time.monotonic() + self.start_timeout
        while True:
            line = await self.process.read_line(max(0.0, deadline - time.monotonic()))
            if line is None:
                raise self._failure("start failure", f"did not answer 'uci' with 'uciok' within {self.start_timeout:g} s")
            if line.kind in (Line.EOF, Line.EXIT):
                raise await self._gone("starting up", line, start=True)
            if line.kind == Line.TOO_LONG:
                raise self._failure("start failure", f"printed a line longer than {self.max_line} bytes during start-up")
            try:
                parsed = parse_engine_line(line.text)
            except ProtocolError:
                continue   # a malformed option line only costs the engine that option
            if parsed.kind == "uciok":
                return
            if parsed.kind == "id" and parsed.id_key == "name":
                self.id_name = parsed.id_value
            elif parsed.kind == "id" and parsed.id_key == "author":
                self.id_author = parsed.id_value
            elif parsed.kind == "option" and parsed.option is not None:
                self.options[parsed.option.name.lower()] = parsed.option

    async def _set_options(self) -> None:
        for name, value in self.spec.options.items():
            option = self.options.get(name.lower())
            if option is None:
                raise self._failure("start failure", f"has no option {name!r} (it declares: "
                                    f"{', '.join(o.name for o in self.options.values()) or 'none'})")
            try:
                option.coerce(value)
            except ProtocolError as exc:
                raise self._failure("start failure", f"rejects option value: {exc.message}") from None
            await self._send(SetOption(option.name, value).format(), "setting options", start=True)

    async def _ready(self, termination: str, doing: str) -> None:
        """isready -> readyok within ping_timeout; an `info string error` on the way means a rejected command."""
        await self._send("isready", doing, start=termination == "start failure")
        deadline = time.monotonic() + self.ping_timeout
        while True:
            line = await self.process.read_line(max(0.0, deadline - time.monotonic()))
            if line is None:
                raise self._failure(termination, f"did not answer 'isready' within {self.ping_timeout:g} s while {doing}")
            if line.kind in (Line.EOF, Line.EXIT):
                raise await self._gone(doing, line, start=termination == "start failure")
            if line.kind == Line.TOO_LONG:
                raise self._failure("malformed output", f"printed a line longer than {self.max_line} bytes while {doing}")
            if line.text.strip() == "readyok":
                return
            if line.text.startswith("info string error"):
                raise self._failure("start failure", f"rejected a command while {doing}: {_short(line.text, 200)}")

    # -- a game ----------------------------------------------------------------------
    async def new_game(self, game_type: str) -> None:
        """`setoption name UCI_Variant value <game>`, `ucinewgame`, `isready` -> readyok (else stall)."""
        if not self.alive:
            raise self._failure("start failure", "is not running (start() it first)")
        variant = self.options.get("uci_variant")
        if variant is None:
            raise self._failure("start failure", "declares no UCI_Variant option, so it cannot be told the game")
        if variant.vars and game_type.lower() not in (v.lower() for v in variant.vars):
            raise self._failure("start failure", f"does not play {game_type} (UCI_Variant is one of {', '.join(variant.vars)})")
        self.process.discard_pending()
        await self._send(SetOption(variant.name, game_type).format(), "starting a new game")
        await self._send("ucinewgame", "starting a new game")
        await self._ready("stall", "starting a new game")

    async def go(self, position_cmd: str, go_cmd: str, deadline_s: float | None, *,
                 allowed_ms: int | None = None) -> tuple[str, dict | None, int]:
        """Send the position and `go`; return (bestmove text, last info as dict, elapsed ms).

        `deadline_s` is the time after which the move is lost (margin included; None = no limit,
        then a silent engine is probed with `isready` every probe_interval). `allowed_ms` (the
        time without margin) only sharpens the overrun reported in a time forfeit."""
        if not self.alive:
            raise self._failure("disconnect", "is not running")
        proc = self.process
        proc.discard_pending()
        await self._send(position_cmd, "receiving the position and go", then=go_cmd)
        t0 = time.monotonic()
        deadline = None if deadline_s is None else t0 + deadline_s
        allowed = allowed_ms if allowed_ms is not None else (None if deadline_s is None else int(deadline_s * 1000))
        reading = _MoveReader(self, t0)
        next_probe = None if deadline is not None else t0 + self.probe_interval
        while True:
            now = time.monotonic()
            limit = deadline if deadline is not None else next_probe
            line = await proc.read_line(max(0.0, limit - now))
            if line is None:
                if deadline is not None:
                    return await self._overtime(reading, allowed)
                await self._probe(reading)
                if reading.move is not None:
                    break
                next_probe = time.monotonic() + self.probe_interval
                continue
            await reading.take(line, "thinking")
            if reading.move is not None:
                break
        elapsed = reading.elapsed_ms
        if deadline is not None and reading.move_t > deadline:
            raise self._time_forfeit(elapsed, allowed, reading.move)
        return reading.move, info_to_dict(reading.info), elapsed

    def _time_forfeit(self, elapsed: int, allowed: int, move: str | None) -> EngineFailure:
        overrun = max(0, elapsed - allowed)
        answered = f"answered {move!r} after {elapsed} ms" if move else f"gave no move after {elapsed} ms"
        return self._failure("time forfeit", f"exceeded its time by {overrun} ms ({answered}; {allowed} ms allowed)",
                             overrun_ms=overrun, elapsed_ms=elapsed, move=move)

    async def _overtime(self, reading: _MoveReader, allowed: int):
        """Past the deadline: `stop`, a grace for the move, then `isready` to tell slow from hung."""
        await self._send("stop", "being stopped")
        grace_end = time.monotonic() + self.stop_grace
        while reading.move is None:
            line = await self.process.read_line(max(0.0, grace_end - time.monotonic()))
            if line is None:
                break
            await reading.take(line, "being stopped")
        if reading.move is not None:
            raise self._time_forfeit(reading.elapsed_ms, allowed, reading.move)
        elapsed = int(round((time.monotonic() - reading.t0) * 1000))
        await self._probe(reading, after_stop=True)
        if reading.move is not None:
            raise self._time_forfeit(reading.elapsed_ms, allowed, reading.move)
        raise self._time_forfeit(elapsed, allowed, None)

    async def _probe(self, reading: _MoveReader, after_stop: bool = False) -> None:
        """`isready` to a silent engine: readyok means alive (keep waiting), silence means stall.
        A bestmove arriving meanwhile is taken."""
        await self._send("isready", "being asked isready")
        end = time.monotonic() + self.ping_timeout
        while True:
            line = await self.process.read_line(max(0.0, end - time.monotonic()))
            if line is None:
                what = "ran out of time and did not answer 'stop' or 'isready'" if after_stop \
                    else "did not answer 'isready' during its search"
                raise self._failure("stall", f"{what} within {self.ping_timeout:g} s "
                                    f"(silent for {time.monotonic() - reading.t0:.1f} s since go)")
            if line.kind == Line.TEXT and line.text.strip() == "readyok":
                return
            await reading.take(line, "being asked isready")
            if reading.move is not None:
                return

    async def quit(self) -> None:
        """`quit`, then SIGTERM, then SIGKILL to the engine's whole process group; everything reaped."""
        if self.process is not None:
            await self.process.shutdown(self.quit_grace, self.term_grace)


class _MoveReader:
    """Consumes the lines of one `go`: keeps the last info, enforces the volume cap, finds bestmove."""

    def __init__(self, player: EnginePlayer, t0: float):
        self.player = player
        self.t0 = t0
        self.info = None
        self.string_info = None
        self.move: str | None = None
        self.move_t = 0.0
        self.bytes = 0
        self.lines = 0

    @property
    def elapsed_ms(self) -> int:
        return int(round((self.move_t - self.t0) * 1000))

    async def take(self, line: Line, doing: str) -> None:
        player = self.player
        if line.kind in (Line.EOF, Line.EXIT):
            raise await player._gone(doing, line)
        if line.kind == Line.TOO_LONG:
            raise player._failure("malformed output", f"printed a line longer than {player.max_line} bytes "
                                  f"while {doing} (it began {line.text[:40]!r})")
        self.bytes += len(line.text) + 1
        self.lines += 1
        if self.bytes > player.max_move_bytes or self.lines > player.max_move_lines:
            raise player._failure("malformed output", f"flooded its output while {doing}: more than "
                                  f"{player.max_move_lines} lines or {player.max_move_bytes} bytes for one move")
        text = line.text
        head = text.lstrip()[:8]
        if not (head.startswith("info") or head.startswith("bestmove")):
            return   # UCI: unknown output is ignored
        try:
            parsed = parse_engine_line(text)
        except ProtocolError as exc:
            if head.startswith("bestmove"):
                raise player._failure("malformed output", f"sent an unreadable bestmove line {text[:80]!r}: "
                                      f"{exc.message}") from None
            return   # a malformed info line costs the engine its info, not the game
        if parsed.kind == "info":
            if parsed.info.string is not None and parsed.info.depth is None and not parsed.info.pv:
                self.string_info = parsed.info
            else:
                self.info = parsed.info
        elif parsed.kind == "bestmove":
            self.move = parsed.move
            self.move_t = line.t
            if self.info is None:
                self.info = self.string_info
