"""One engine as a player: the protocol conversation, with every way it can go wrong named.

The player speaks through the referee's one protocol client (referee.engines.client, which parses with
protocol.messages) and trusts nothing: it times each answer itself (the stamp taken when the
line was read), gives up at the deadline, probes a silent engine with `isready`, and turns
every misbehaviour into an EngineFailure whose `termination` is a Termination and whose
`detail` says exactly what happened.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from typing import Any

from protocol.messages import MAX_LINE, Info, OptionSpec, ProtocolError, SetOption

from ..formats.record import INFO_LINE_CHARS, INFO_LINES_KEPT, ForfeitedMove, InfoLine, info_to_dict
from ..formats.terminations import Termination
from .client import EngineGone, Gone, NoAnswer, ProtocolClient, TooLong, describe_exit, read_reply, short_text
from .process import EngineProcess, EngineSpec, Line, LineKind

__all__ = ["DEFAULT_MAX_MOVE_BYTES", "DEFAULT_MAX_MOVE_LINES", "EngineFailure", "EnginePlayer", "describe_exit"]

DEFAULT_MAX_MOVE_BYTES = 32 * 1024 * 1024
DEFAULT_MAX_MOVE_LINES = 200_000


class EngineFailure(Exception):
    """An engine broke the protocol or the rules of play; it forfeits the game."""

    def __init__(self, termination: Termination, detail: str, *, exit_code: int | None = None,
                 overrun_ms: int | None = None, elapsed_ms: int | None = None,
                 stderr_tail: str = "", move: str | None = None):
        self.termination = Termination(termination)
        self.detail = detail
        self.exit_code = exit_code
        self.overrun_ms = overrun_ms
        self.elapsed_ms = elapsed_ms
        self.stderr_tail = stderr_tail
        self.move = move
        self.forfeited_move: ForfeitedMove | None = None
        """What the referee saw of the `go` this happened in (EnginePlayer.forfeited_move); None outside a `go`."""
        super().__init__(f"{self.termination}: {detail}")


class EnginePlayer:
    """An engine process plus the protocol state: options it declared, the game it plays."""

    def __init__(self, spec: EngineSpec, io_log: Callable[[str], None] | None = None, *,
                 start_timeout: float = 10.0, ping_timeout: float = 5.0, stop_grace: float = 1.0,
                 probe_interval: float = 10.0, quit_grace: float = 1.0, term_grace: float = 1.0,
                 max_line: int = MAX_LINE, max_move_bytes: int = DEFAULT_MAX_MOVE_BYTES,
                 max_move_lines: int = DEFAULT_MAX_MOVE_LINES, fair_cpu: str = "off"):
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
        self.client = ProtocolClient(spec, io_log, max_line=max_line, fair_cpu=fair_cpu)
        self.failed: EngineFailure | None = None
        self.cores: tuple[int, ...] = ()
        """The cores this player's games run on (referee/engines/cpu.py); empty: wherever the OS puts it."""
        self._reading: _MoveReader | None = None   # the current (or last) `go`, for forfeited_move

    # -- state -------------------------------------------------------------------
    @property
    def process(self) -> EngineProcess | None:
        return self.client.process

    @property
    def id_name(self) -> str | None:
        return self.client.handshake.id_name

    @property
    def id_author(self) -> str | None:
        return self.client.handshake.id_author

    @property
    def options(self) -> dict[str, OptionSpec]:
        """The options the engine declared, by lower-case name."""
        return self.client.handshake.options

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.alive and self.failed is None

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    def stderr_tail(self) -> str:
        return self.client.stderr_tail()

    def use_cores(self, cores: tuple[int, ...]) -> None:
        """Play on `cores` from now on (a running engine is moved at once)."""
        if cores != self.cores:
            self.cores = cores
            if self.process is not None:
                self.process.place(cores)

    def _pause(self) -> None:
        """The engine's turn is over: it gets no CPU until the referee next speaks to it."""
        if self.process is not None:
            self.process.pause()

    # -- failures ----------------------------------------------------------------
    def _failure(self, termination: Termination, detail: str, **extra: Any) -> EngineFailure:
        failure = EngineFailure(termination, detail, stderr_tail=self.stderr_tail(), **extra)
        self.failed = failure
        return failure

    async def _gone(self, doing: str, line: Line | None = None, start: bool = False) -> EngineFailure:
        """The engine closed stdout or exited: crash (bad exit), disconnect (exit 0 or pipes closed)."""
        code = await self.client.exit_code(0.5)
        story = self.client.exit_story(code)
        parts = story[:1]
        if line is not None and line.kind == LineKind.EOF and line.text:
            parts.append(f"unterminated output {line.text!r} ignored")
        parts += story[1:]
        if start:
            when = "during start-up" if doing == "starting up" else f"during start-up while {doing}"
            return self._failure(Termination.START_FAILURE, f"exited {when} ({'; '.join(parts)})",
                                 exit_code=code)
        if code is None:
            return self._failure(Termination.DISCONNECT, f"closed its output while {doing} ({'; '.join(parts)})")
        if code == 0:
            return self._failure(Termination.DISCONNECT, f"exited while {doing} ({'; '.join(parts)})",
                                 exit_code=code)
        return self._failure(Termination.CRASH, f"crashed while {doing} ({'; '.join(parts)})", exit_code=code)

    async def _send(self, line: str, doing: str, start: bool = False, then: str | None = None) -> None:
        await self._send_all([line, *([then] if then else [])], doing, start)

    async def _send_all(self, lines: list[str], doing: str, start: bool = False, resume: bool = False) -> None:
        """Write the lines at once (then resume the paused engine); a closed pipe is the engine gone
        (crash, disconnect, start failure)."""
        try:
            await self.client.send(*lines, resume=resume)
        except EngineGone:
            raise await self._gone(doing, start=start) from None

    async def _read(self, timeout: float | None) -> Line | None:
        return await self.client.read(timeout)

    # -- start-up ------------------------------------------------------------------
    async def start(self) -> None:
        """Spawn, `uci` ... `uciok` within start_timeout, set the spec's options, `isready`."""
        self.failed = None
        try:
            await self.client.spawn()
        except (OSError, ValueError) as exc:
            raise self._failure(Termination.START_FAILURE, f"could not be started: {exc}") from None
        process = self.client.proc
        process.place(self.cores, whole_group=False)
        try:
            await self._handshake()
            await self._set_options()
            await self._ready(Termination.START_FAILURE, "starting up")
        except EngineFailure:
            await self.client.shutdown(0.1, 0.2)
            raise
        process.settle(self.cores)
        process.pause()

    async def _handshake(self) -> None:
        """`uci` -> `uciok`; a malformed option line only costs the engine that option."""
        try:
            await self.client.uci(self.start_timeout)
        except EngineGone:
            raise await self._gone("starting up", start=True) from None
        except NoAnswer:
            raise self._failure(Termination.START_FAILURE,
                                f"did not answer 'uci' with 'uciok' within {self.start_timeout:g} s") from None
        except Gone as exc:
            raise await self._gone("starting up", exc.line, start=True) from None
        except TooLong:
            raise self._failure(Termination.START_FAILURE,
                                f"printed a line longer than {self.max_line} bytes during start-up") from None

    async def _set_options(self) -> None:
        for name, value in self.spec.options.items():
            option = self.options.get(name.lower())
            if option is None:
                raise self._failure(Termination.START_FAILURE, f"has no option {name!r} (it declares: "
                                    f"{', '.join(o.name for o in self.options.values()) or 'none'})")
            try:
                option.coerce(value)
            except ProtocolError as exc:
                raise self._failure(Termination.START_FAILURE, f"rejects option value: {exc.message}") from None
            await self._send(SetOption(option.name, value).format(), "setting options", start=True)

    async def set_option(self, name: str, value: str) -> None:
        """`setoption` of an option the engine declared, between games (a new `Seed` before each game
        of a book's judgement). ValueError if it declares no such option or the value is out of its
        bounds (the caller checks `options` first); EngineFailure if the engine is gone."""
        option = self.options.get(name.lower())
        if option is None:
            raise ValueError(f"{self.name} declares no option {name!r}")
        try:
            option.coerce(value)
        except ProtocolError as exc:
            raise ValueError(f"{self.name}: {exc.message}") from None
        await self._send(SetOption(option.name, value).format(), "setting options")

    async def _ready(self, termination: Termination, doing: str, before: list[str] | None = None) -> None:
        """isready -> readyok within ping_timeout; an `info string error` on the way means a rejected command.
        `before`: lines sent in the same write, before `isready`, to a paused engine resumed after it."""
        start = termination == Termination.START_FAILURE
        await self._send_all([*(before or []), "isready"], doing, start=start, resume=before is not None)
        try:
            _, reply = await self.client.expect(lambda r: r.kind == "readyok" or r.is_error,
                                                self.ping_timeout, "'readyok'")
        except NoAnswer:
            raise self._failure(termination, f"did not answer 'isready' within {self.ping_timeout:g} s "
                                f"while {doing}") from None
        except Gone as exc:
            raise await self._gone(doing, exc.line, start=start) from None
        except TooLong:
            raise self._failure(Termination.MALFORMED_OUTPUT,
                                f"printed a line longer than {self.max_line} bytes while {doing}") from None
        if reply.is_error:
            raise self._failure(Termination.START_FAILURE,
                                f"rejected a command while {doing}: {short_text(reply.text, 200)}")

    # -- a game ----------------------------------------------------------------------
    async def new_game(self, game_type: str, seed: int | None = None) -> None:
        """`setoption name UCI_Variant value <game>`, the game's `Seed` (below), `ucinewgame`,
        `isready` -> readyok (else stall).

        `seed` goes to an engine that declares a `Seed` option, unless its own options set one:
        games between engines that draw their moves from a generator then differ from game to game."""
        if not self.alive:
            raise self._failure(Termination.START_FAILURE, "is not running (start() it first)")
        variant = self.options.get("uci_variant")
        if variant is None:
            raise self._failure(Termination.START_FAILURE,
                                "declares no UCI_Variant option, so it cannot be told the game")
        if variant.vars and game_type.lower() not in (v.lower() for v in variant.vars):
            raise self._failure(Termination.START_FAILURE,
                                f"does not play {game_type} (UCI_Variant is one of {', '.join(variant.vars)})")
        self.client.discard_pending()
        lines = [SetOption(variant.name, game_type).format()]
        seed_option = self.seed_option() if seed is not None else None
        if seed_option is not None and seed is not None:
            lines.append(SetOption(seed_option.name, str(seed_value(seed_option, seed))).format())
        self.client.proc.find_escaped()
        try:
            await self._ready(Termination.STALL, "starting a new game", before=[*lines, "ucinewgame"])
        finally:
            self._pause()

    def seed_option(self) -> OptionSpec | None:
        """The engine's `Seed` option, if it declares one (spin or string) and the host did not fix it."""
        option = self.options.get("seed")
        if option is None or option.type not in ("spin", "string"):
            return None
        if any(name.lower() == "seed" for name in self.spec.options):
            return None
        return option

    async def go(self, position_cmd: str, go_cmd: str, deadline_s: float | None, *,
                 allowed_ms: int | None = None) -> tuple[str, dict[str, Any] | None, int]:
        """Send the position and `go`; return (bestmove text, last info as dict, elapsed ms).

        `deadline_s` is the time after which the move is lost (margin included; None = no limit,
        then a silent engine is probed with `isready` every probe_interval). `allowed_ms` (the
        time without margin) only sharpens the overrun reported in a time forfeit."""
        self._reading = None
        if not self.alive:
            raise self._failure(Termination.DISCONNECT, "is not running")
        self.client.discard_pending()
        process = self.client.proc
        try:
            return await self._go(position_cmd, go_cmd, deadline_s, allowed_ms)
        finally:
            process.pause()

    async def _go(self, position_cmd: str, go_cmd: str, deadline_s: float | None,
                  allowed_ms: int | None) -> tuple[str, dict[str, Any] | None, int]:
        await self._send_all([position_cmd, go_cmd], "receiving the position and go", resume=True)
        t0 = time.monotonic()
        deadline = None if deadline_s is None else t0 + deadline_s
        allowed = allowed_ms if allowed_ms is not None else (0 if deadline_s is None else int(deadline_s * 1000))
        reading = self._reading = _MoveReader(self, t0, None if deadline_s is None else allowed)
        next_probe = t0 + self.probe_interval
        while True:
            now = time.monotonic()
            limit = deadline if deadline is not None else next_probe
            line = await self._read(max(0.0, limit - now))
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

    def forfeited_move(self, failure: EngineFailure) -> ForfeitedMove | None:
        """What the referee saw of the last `go` (its time, bestmove, last `info` lines), for the record
        of a game lost in it; None when the failure came before the `go` was sent."""
        if self._reading is None:
            return None
        return self._reading.evidence(failure.elapsed_ms, failure.move)

    def _time_forfeit(self, elapsed: int, allowed: int, move: str | None) -> EngineFailure:
        overrun = max(0, elapsed - allowed)
        answered = f"answered {move!r} after {elapsed} ms" if move else f"gave no move after {elapsed} ms"
        return self._failure(Termination.TIME_FORFEIT,
                             f"exceeded its time by {overrun} ms ({answered}; {allowed} ms allowed)",
                             overrun_ms=overrun, elapsed_ms=elapsed, move=move)

    async def _overtime(self, reading: _MoveReader, allowed: int) -> tuple[str, dict[str, Any] | None, int]:
        """Past the deadline the move is lost; one short window (stop_grace) tells slow from hung.

        `stop` and `isready` go out together: a bestmove in the window gives the exact overrun
        (time forfeit), `readyok` without a move is an engine that ignored `stop` (time forfeit),
        silence is a stall. The game never waits longer than the deadline plus that one window."""
        await self._send("stop", "being stopped", then="isready")
        grace_end = time.monotonic() + self.stop_grace
        while reading.move is None:
            line = await self._read(max(0.0, grace_end - time.monotonic()))
            if line is None:
                raise self._failure(Termination.STALL, f"ran out of time and did not answer 'stop' or 'isready' "
                                    f"within {self.stop_grace:g} s (silent for "
                                    f"{time.monotonic() - reading.t0:.1f} s since go)")
            if line.kind == LineKind.TEXT and line.text.strip() == "readyok":
                break
            await reading.take(line, "being stopped")
        if reading.move is not None:
            raise self._time_forfeit(reading.elapsed_ms, allowed, reading.move)
        raise self._time_forfeit(int(round((time.monotonic() - reading.t0) * 1000)), allowed, None)

    async def _probe(self, reading: _MoveReader, after_stop: bool = False) -> None:
        """`isready` to a silent engine: readyok means alive (keep waiting), silence means stall.
        A bestmove arriving meanwhile is taken."""
        await self._send("isready", "being asked isready")
        end = time.monotonic() + self.ping_timeout
        while True:
            line = await self._read(max(0.0, end - time.monotonic()))
            if line is None:
                what = "ran out of time and did not answer 'stop' or 'isready'" if after_stop \
                    else "did not answer 'isready' during its search"
                raise self._failure(Termination.STALL, f"{what} within {self.ping_timeout:g} s "
                                    f"(silent for {time.monotonic() - reading.t0:.1f} s since go)")
            if line.kind == LineKind.TEXT and line.text.strip() == "readyok":
                return
            await reading.take(line, "being asked isready")
            if reading.move is not None:
                return

    async def quit(self) -> None:
        """`quit`, then SIGTERM, then SIGKILL to the engine's whole process group; everything reaped.
        A stalled engine is hung: no `quit` grace, a short SIGTERM grace, so the next game need not wait."""
        if self.failed is not None and self.failed.termination == Termination.STALL:
            await self.client.shutdown(0.0, min(self.term_grace, 0.2))
        else:
            await self.client.shutdown(self.quit_grace, self.term_grace)


class _MoveReader:
    """Consumes the lines of one `go`: keeps the last info, enforces the volume cap, finds bestmove."""

    def __init__(self, player: EnginePlayer, t0: float, allowed_ms: int | None = None):
        self.player = player
        self.t0 = t0
        self.allowed_ms = allowed_ms
        self.info_lines: deque[InfoLine] = deque(maxlen=INFO_LINES_KEPT)
        self.info: Info | None = None
        self.string_info: Info | None = None
        self.move: str | None = None
        self.move_t = 0.0
        self.bytes = 0
        self.lines = 0

    @property
    def elapsed_ms(self) -> int:
        return self._ms(self.move_t)

    def _ms(self, t: float) -> int:
        """Milliseconds from `go` to the monotonic time `t`."""
        return max(0, int(round((t - self.t0) * 1000)))

    def evidence(self, elapsed_ms: int | None, move: str | None) -> ForfeitedMove:
        """This `go` as a record's forfeited_move: `elapsed_ms` if the failure measured it, else the
        time of the bestmove, else the time until now (when the referee gave up on the move)."""
        if elapsed_ms is None:
            elapsed_ms = self.elapsed_ms if self.move is not None else self._ms(time.monotonic())
        return ForfeitedMove(ms=elapsed_ms, allowed_ms=self.allowed_ms, move=self.move if move is None else move,
                             info=list(self.info_lines))

    async def take(self, line: Line, doing: str) -> None:
        player = self.player
        if line.kind in (LineKind.EOF, LineKind.EXIT):
            raise await player._gone(doing, line)
        if line.kind == LineKind.TOO_LONG:
            raise player._failure(Termination.MALFORMED_OUTPUT,
                                  f"printed a line longer than {player.max_line} bytes "
                                  f"while {doing} (it began {line.text[:40]!r})")
        self.bytes += len(line.text) + 1
        self.lines += 1
        if self.bytes > player.max_move_bytes or self.lines > player.max_move_lines:
            raise player._failure(Termination.MALFORMED_OUTPUT,
                                  f"flooded its output while {doing}: more than {player.max_move_lines} "
                                  f"lines or {player.max_move_bytes} bytes for one move")
        head = line.text.lstrip()[:8]
        if not (head.startswith("info") or head.startswith("bestmove")):
            return   # UCI: unknown output is ignored (and not worth parsing)
        if head.startswith("info"):   # kept as printed, unreadable ones too: they may tell why a move was lost
            self.info_lines.append(InfoLine(self._ms(line.t), line.text[:INFO_LINE_CHARS]))
        reply = read_reply(line)
        if reply.parsed is None:
            if reply.word == "bestmove" and reply.error is not None:
                raise player._failure(Termination.MALFORMED_OUTPUT,
                                      f"sent an unreadable bestmove line {line.text[:80]!r}: "
                                      f"{reply.error.message}")
            return   # a malformed info line costs the engine its info, not the game
        parsed = reply.parsed
        if parsed.kind == "info" and parsed.info is not None:
            if parsed.info.string is not None and parsed.info.depth is None and not parsed.info.pv:
                self.string_info = parsed.info
            else:
                self.info = parsed.info
        elif parsed.kind == "bestmove":
            self.move = parsed.move
            self.move_t = line.t
            if self.info is None:
                self.info = self.string_info


def seed_value(option: OptionSpec, seed: int) -> int:
    """`seed` brought into the option's declared range (min..max) by wrapping around."""
    low = option.min if option.min is not None else 0
    high = option.max if option.max is not None else 2**31 - 1
    if high < low:
        return low
    return low + seed % (high - low + 1)
