"""The check's use of the referee's protocol client: one engine, started afresh for each game or
restarted when a check killed it, every line seen by a raw-line hook, and every client error turned
into a check failure with the usual cause as a hint."""

from __future__ import annotations

from collections.abc import Callable

from protocol.messages import OptionSpec, ProtocolError, SetOption

from ..engines.client import (
    ClientError,
    EngineGone,
    Gone,
    Handshake,
    NoAnswer,
    ProtocolClient,
    Reply,
    TooLong,
    read_reply,
)
from ..engines.hints import hint_for
from ..engines.process import EngineSpec, Line, LineKind
from ..formats.terminations import Termination

CHECK_MAX_LINE = 16 * 1024 * 1024
"""`moves` and `go perft` output can be long (HARI has ~10^5 moves); the check allows it."""


class CheckFailed(Exception):
    """A check found the engine wrong; the message is the evidence, the hint the usual cause."""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.hint = hint


class Skipped(Exception):
    """An optional feature is absent, or a check could not be asked (the message says which)."""


class CheckSession:
    """One engine process with the small vocabulary the checks need."""

    def __init__(self, spec: EngineSpec, timeout: float, start_timeout: float,
                 io_log: Callable[[str], None] | None):
        self.timeout = timeout
        self.start_timeout = start_timeout
        self.client = ProtocolClient(spec, io_log, max_line=CHECK_MAX_LINE, on_line=self._saw)
        self.handshake = Handshake()
        self.restarts = 0
        self._killed = False
        self.malformed: list[ProtocolError] = []     # known messages that did not parse, whole check

    def _saw(self, line: Line) -> None:
        """The raw-line hook: every line the engine prints is judged, whatever the check waits for."""
        if line.kind == LineKind.TEXT:
            reply = read_reply(line)
            if reply.error is not None:
                self.malformed.append(reply.error)

    @property
    def alive(self) -> bool:
        return self.client.alive

    @property
    def options(self) -> dict[str, OptionSpec]:
        return self.handshake.options

    async def start(self) -> None:
        try:
            await self.client.spawn()
        except (OSError, ValueError) as exc:
            raise CheckFailed(f"could not be started: {exc}") from None
        try:
            self.handshake = await self.client.uci(self.start_timeout)
        except (ClientError, EngineGone) as exc:
            raise await self._failure(exc, start=True) from None

    async def _start_with(self, options: dict[str, str]) -> None:
        await self.start()
        for name, value in options.items():
            await self.send(SetOption(name, value).format())

    async def ensure(self, options: dict[str, str]) -> None:
        """A running engine: restarted (and its options set again) if an earlier check killed it."""
        if self.alive:
            return
        if self.client.process is not None:
            await self.client.shutdown(0.2, 0.3)
            self.restarts += not self._killed
        self._killed = False
        await self._start_with(options)

    async def fresh(self, options: dict[str, str]) -> None:
        """A new process (its options set), as a tournament starts one: its first move is timed too.
        Not a restart: the old process is told `quit` and ended."""
        if self.client.process is not None:
            await self.client.shutdown(0.5, 0.5)
        await self._start_with(options)

    async def kill(self) -> None:
        """End a process that cannot be trusted to be in step (the next check restarts it, as a
        tournament restarts a killed engine; not counted as a restart after dying)."""
        await self.client.shutdown(0.0, 0.2)
        self._killed = True

    async def shutdown(self, quit_grace: float = 0.2, term_grace: float = 0.3) -> None:
        await self.client.shutdown(quit_grace, term_grace)

    async def send(self, *lines: str | bytes) -> None:
        """Send lines at once; bytes 0..255 pass through as one character each (for junk input)."""
        try:
            await self.client.send(*(line.decode("latin-1") if isinstance(line, bytes) else line for line in lines))
        except EngineGone as exc:
            raise await self._failure(exc) from None

    async def _failure(self, exc: ClientError | EngineGone, start: bool = False) -> CheckFailed:
        """A client error as the evidence of a failed check, with the usual cause as a hint."""
        if isinstance(exc, TooLong):
            message = f"printed a line longer than {exc.max_line} bytes"
            return CheckFailed(message, hint_for(Termination.MALFORMED_OUTPUT, message))
        if isinstance(exc, NoAnswer):
            kind = Termination.START_FAILURE if start else Termination.STALL
            return CheckFailed(str(exc), hint_for(kind, str(exc)))
        why = f"while waiting for {exc.waiting_for}" if isinstance(exc, Gone) else str(exc)
        code = await self.client.exit_code(0.5)
        parts = self.client.exit_story(code)
        message = f"the engine is gone ({why}; {parts[0]})" + (f"; {parts[1]}" if len(parts) > 1 else "")
        kind = Termination.START_FAILURE if start else Termination.CRASH if code else Termination.DISCONNECT
        return CheckFailed(message, hint_for(kind, message, stderr=len(parts) > 1))

    async def expect(self, done: Callable[[Reply], bool], timeout: float,
                     waiting_for: str) -> tuple[list[Reply], Reply]:
        """Replies up to the first for which done(reply) holds, and that reply; CheckFailed otherwise."""
        try:
            return await self.client.expect(done, timeout, waiting_for)
        except ClientError as exc:
            raise await self._failure(exc) from None

    async def first_of(self, done: Callable[[Reply], bool], timeout: float) -> Reply | None:
        """The first reply for which done(reply) holds within `timeout` s (others are skipped), or None."""
        try:
            _, reply = await self.client.expect(done, timeout, "an answer")
        except NoAnswer:
            return None
        except ClientError as exc:
            raise await self._failure(exc) from None
        return reply

    async def sync(self) -> list[Reply]:
        """isready -> readyok; the replies printed before readyok."""
        await self.send("isready")
        replies, _ = await self.expect(lambda r: r.kind == "readyok", self.timeout, "'readyok'")
        return replies

    @staticmethod
    def move_of(reply: Reply) -> str:
        """The move of a bestmove line; CheckFailed if the line is not a readable bestmove."""
        if reply.parsed is None or reply.parsed.move is None:
            message = f"unreadable bestmove line {reply.text[:80]!r}: {reply.error}"
            raise CheckFailed(message, hint_for(Termination.MALFORMED_OUTPUT, message))
        return reply.parsed.move

    async def bestmove(self, timeout: float) -> tuple[str, float]:
        """The move of the next bestmove line and when it arrived."""
        _, reply = await self.expect(lambda r: r.word == "bestmove", timeout, "'bestmove'")
        return self.move_of(reply), reply.t

    async def wait_exit(self, timeout: float) -> int | None:
        return await self.client.exit_code(timeout)

    def exit_story(self, code: int | None) -> list[str]:
        return self.client.exit_story(code)

    @property
    def pgid(self) -> int | None:
        return None if self.client.process is None else self.client.process.pgid
