"""The check's use of the referee's protocol client: one engine, restarted when a check killed it,
every line seen by a raw-line hook, and every client error turned into a check failure."""

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
from ..engines.process import EngineSpec, Line, LineKind

CHECK_MAX_LINE = 16 * 1024 * 1024
"""`moves` and `go perft` output can be long (HARI has ~10^5 moves); the check allows it."""


class CheckFailed(Exception):
    """A check found the engine wrong; the message is the evidence."""


class Skipped(Exception):
    """An optional feature is absent."""


class CheckSession:
    """One engine process with the small vocabulary the checks need."""

    def __init__(self, spec: EngineSpec, timeout: float, start_timeout: float,
                 io_log: Callable[[str], None] | None):
        self.timeout = timeout
        self.start_timeout = start_timeout
        self.client = ProtocolClient(spec, io_log, max_line=CHECK_MAX_LINE, on_line=self._saw)
        self.handshake = Handshake()
        self.restarts = 0
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
            raise CheckFailed(await self._explain(exc)) from None

    async def ensure(self, options: dict[str, str]) -> None:
        """A running engine: restarted (and its options set again) if an earlier check killed it."""
        if self.alive:
            return
        if self.client.process is not None:
            await self.client.shutdown(0.2, 0.3)
            self.restarts += 1
        await self.start()
        for name, value in options.items():
            await self.send(SetOption(name, value).format())

    async def shutdown(self, quit_grace: float = 0.2, term_grace: float = 0.3) -> None:
        await self.client.shutdown(quit_grace, term_grace)

    async def send(self, line: str | bytes) -> None:
        """Send one line; bytes 0..255 pass through as one character each (for junk input)."""
        try:
            await self.client.send(line.decode("latin-1") if isinstance(line, bytes) else line)
        except EngineGone as exc:
            raise CheckFailed(await self._explain(exc)) from None

    async def _explain(self, exc: ClientError | EngineGone) -> str:
        """A client error as the evidence of a failed check."""
        if isinstance(exc, NoAnswer | TooLong):
            return str(exc) if isinstance(exc, NoAnswer) else f"printed a line longer than {exc.max_line} bytes"
        why = f"while waiting for {exc.waiting_for}" if isinstance(exc, Gone) else str(exc)
        parts = self.client.exit_story(await self.client.exit_code(0.5))
        return f"the engine is gone ({why}; {parts[0]})" + (f"; {parts[1]}" if len(parts) > 1 else "")

    async def expect(self, done: Callable[[Reply], bool], timeout: float,
                     waiting_for: str) -> tuple[list[Reply], Reply]:
        """Replies up to the first for which done(reply) holds, and that reply; CheckFailed otherwise."""
        try:
            return await self.client.expect(done, timeout, waiting_for)
        except ClientError as exc:
            raise CheckFailed(await self._explain(exc)) from None

    async def sync(self) -> list[Reply]:
        """isready -> readyok; the replies printed before readyok."""
        await self.send("isready")
        replies, _ = await self.expect(lambda r: r.kind == "readyok", self.timeout, "'readyok'")
        return replies

    async def bestmove(self, timeout: float) -> tuple[str, float]:
        """The move of the next bestmove line and when it arrived."""
        reply = await self.client_bestmove(timeout)
        if reply.parsed is None or reply.parsed.move is None:
            raise CheckFailed(f"malformed bestmove line: {reply.error}")
        return reply.parsed.move, reply.t

    async def client_bestmove(self, timeout: float) -> Reply:
        _, reply = await self.expect(lambda r: r.word == "bestmove", timeout, "'bestmove'")
        return reply

    async def wait_exit(self, timeout: float) -> int | None:
        return await self.client.exit_code(timeout)

    @property
    def pgid(self) -> int | None:
        return None if self.client.process is None else self.client.process.pgid
