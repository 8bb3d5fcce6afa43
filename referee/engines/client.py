"""The referee's one engine-protocol client: an engine process plus the parsing of what it says.

The player (games), the check (conformance) and the tests all talk to engines through this
client, so they read the handshake and every answer the same way, with protocol.messages
doing every parse. A raw-line hook sees each line as it is read (the check uses it to judge
every line an engine prints); what a caller does about a timeout, an exit or a malformed
line is its own business, so those come back as typed exceptions carrying the evidence.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from protocol.messages import MAX_LINE, EngineLine, OptionSpec, ProtocolError, parse_engine_line

from .process import EngineGone, EngineProcess, EngineSpec, Line, LineKind

__all__ = ["ClientError", "EngineGone", "Gone", "Handshake", "LineHook", "NoAnswer", "ProtocolClient",
           "Reply", "TooLong", "describe_exit", "short_text"]


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


def short_text(text: str, limit: int = 300) -> str:
    """Lines joined with ' | ', blank ones dropped, the end kept within `limit` (for stderr tails)."""
    text = " | ".join(part.strip() for part in text.strip().splitlines() if part.strip())
    return text if len(text) <= limit else "..." + text[-(limit - 3):]


@dataclass(frozen=True)
class Reply:
    """One stdout line of the engine as read (with its arrival time) and as protocol.messages parses it."""

    line: Line
    parsed: EngineLine | None          # None when the line is a malformed known message
    error: ProtocolError | None = None

    @property
    def text(self) -> str:
        return self.line.text.strip()

    @property
    def t(self) -> float:
        return self.line.t

    @property
    def kind(self) -> str:
        """The EngineLine kind (id, option, uciok, readyok, bestmove, info, other) or 'malformed'."""
        return "malformed" if self.parsed is None else self.parsed.kind

    @property
    def word(self) -> str:
        """The first word (what the line claims to be, even when malformed)."""
        return self.text.split(None, 1)[0] if self.text else ""

    @property
    def is_error(self) -> bool:
        """An `info string error...` line: the engine rejecting a command."""
        info = self.parsed.info if self.parsed is not None else None
        return info is not None and info.string is not None and info.string.startswith("error")


def read_reply(line: Line) -> Reply:
    """Parse one text line into a Reply (never raises)."""
    try:
        return Reply(line, parse_engine_line(line.text))
    except ProtocolError as exc:
        return Reply(line, None, exc)


LineHook = Callable[[Line], None]


class ClientError(Exception):
    """The engine did not give the answer waited for; subclasses say why."""


class NoAnswer(ClientError):
    """Nothing that ends the wait arrived within the timeout."""

    def __init__(self, waiting_for: str, timeout: float, replies: list[Reply]):
        self.waiting_for, self.timeout, self.replies = waiting_for, timeout, replies
        last = f"last output: {replies[-1].text[:80]!r}" if replies else "no output"
        super().__init__(f"timed out after {timeout:g} s waiting for {waiting_for} ({last})")


class Gone(ClientError):
    """The engine closed its output or exited while the client waited."""

    def __init__(self, waiting_for: str, line: Line | None):
        self.waiting_for, self.line = waiting_for, line
        super().__init__(f"the engine is gone while waiting for {waiting_for}")


class TooLong(ClientError):
    """The engine printed a line longer than the client accepts."""

    def __init__(self, waiting_for: str, line: Line, max_line: int):
        self.waiting_for, self.line, self.max_line = waiting_for, line, max_line
        super().__init__(f"printed a line longer than {max_line} bytes (it began {line.text[:40]!r})")


@dataclass
class Handshake:
    """What an engine declares between `uci` and `uciok`.

    A malformed `option` line costs the engine that option only (as in UCI GUIs); it is kept in
    `malformed` so the check can report it."""

    id_name: str | None = None
    id_author: str | None = None
    options: dict[str, OptionSpec] = field(default_factory=dict)     # by lower-case name
    malformed: list[ProtocolError] = field(default_factory=list)
    elapsed_ms: int = 0

    def take(self, reply: Reply) -> None:
        """Learn from one line read before `uciok`."""
        parsed = reply.parsed
        if parsed is None:
            if reply.error is not None:
                self.malformed.append(reply.error)
        elif parsed.kind == "id" and parsed.id_key == "name":
            self.id_name = parsed.id_value
        elif parsed.kind == "id" and parsed.id_key == "author":
            self.id_author = parsed.id_value
        elif parsed.kind == "option" and parsed.option is not None:
            self.options[parsed.option.name.lower()] = parsed.option

    def option(self, name: str) -> OptionSpec | None:
        return self.options.get(name.lower())


class ProtocolClient:
    """One engine process spoken to in the engine protocol."""

    def __init__(self, spec: EngineSpec, io_log: Callable[[str], None] | None = None, *,
                 max_line: int = MAX_LINE, on_line: LineHook | None = None, fair_cpu: str = "off"):
        self.spec = spec
        self.io_log = io_log
        self.max_line = max_line
        self.on_line = on_line
        self.fair_cpu = fair_cpu
        self.process: EngineProcess | None = None
        self.handshake = Handshake()

    # -- the process ------------------------------------------------------------------
    async def spawn(self) -> None:
        """Start the process (OSError / ValueError if it cannot be run at all)."""
        self.handshake = Handshake()
        self.process = EngineProcess(self.spec, self.io_log, max_line=self.max_line, fair_cpu=self.fair_cpu)
        await self.process.start()

    @property
    def proc(self) -> EngineProcess:
        if self.process is None:
            raise EngineGone("not started")
        return self.process

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.alive and not self.process.eof

    def stderr_tail(self) -> str:
        return "" if self.process is None else self.process.stderr_tail()

    async def exit_code(self, wait: float = 0.5) -> int | None:
        return None if self.process is None else await self.process.wait_exit(wait)

    def exit_story(self, code: int | None) -> list[str]:
        """How the engine ended, in parts: its exit (`code` from exit_code()), and its stderr tail if any."""
        parts = [describe_exit(code)]
        tail = self.stderr_tail()
        if tail:
            parts.append(f"stderr tail: {short_text(tail)}")
        return parts

    async def shutdown(self, quit_grace: float = 1.0, term_grace: float = 1.0) -> int | None:
        """`quit`, then SIGTERM, then SIGKILL to the process group; everything reaped."""
        return None if self.process is None else await self.process.shutdown(quit_grace, term_grace)

    # -- lines ------------------------------------------------------------------------
    async def send(self, *lines: str, resume: bool = False) -> None:
        """Write lines at once (then resume a paused engine); EngineGone if the engine no longer reads."""
        await self.proc.send(*lines, resume=resume)

    def discard_pending(self) -> list[Line]:
        """Drop output already waiting (stale lines from before the next command)."""
        stale = self.proc.discard_pending()
        if self.on_line is not None:
            for line in stale:
                self.on_line(line)
        return stale

    async def read(self, timeout: float | None) -> Line | None:
        """The next stdout event (text, too long, EOF, exit) or None after `timeout` s; the hook sees it."""
        line = await self.proc.read_line(timeout)
        if line is not None and self.on_line is not None and line.kind in (LineKind.TEXT, LineKind.TOO_LONG):
            self.on_line(line)
        return line

    async def expect(self, done: Callable[[Reply], bool], timeout: float,
                     waiting_for: str) -> tuple[list[Reply], Reply]:
        """Replies up to (not including) the first for which done(reply) holds, and that reply.

        NoAnswer after `timeout` s, Gone if the engine ends, TooLong for an overlong line."""
        deadline = time.monotonic() + timeout
        replies: list[Reply] = []
        while True:
            line = await self.read(max(0.0, deadline - time.monotonic()))
            if line is None:
                raise NoAnswer(waiting_for, timeout, replies)
            if line.kind in (LineKind.EOF, LineKind.EXIT):
                raise Gone(waiting_for, line)
            if line.kind == LineKind.TOO_LONG:
                raise TooLong(waiting_for, line, self.max_line)
            reply = read_reply(line)
            if done(reply):
                return replies, reply
            replies.append(reply)

    # -- conversations ------------------------------------------------------------------
    async def uci(self, timeout: float) -> Handshake:
        """`uci` ... `uciok`: the engine's id and options (kept in self.handshake)."""
        t0 = time.monotonic()
        await self.send("uci")
        replies, _ = await self.expect(lambda r: r.kind == "uciok", timeout, "'uci' to be answered by 'uciok'")
        handshake = Handshake(elapsed_ms=int((time.monotonic() - t0) * 1000))
        for reply in replies:
            handshake.take(reply)
        self.handshake = handshake
        return handshake

    async def isready(self, timeout: float) -> list[Reply]:
        """`isready` -> `readyok`; the replies printed before it (the answers to earlier commands)."""
        await self.send("isready")
        replies, _ = await self.expect(lambda r: r.kind == "readyok", timeout, "'readyok'")
        return replies

    async def bestmove(self, timeout: float) -> Reply:
        """The next `bestmove` line (earlier lines skipped); its reply may be malformed."""
        _, reply = await self.expect(lambda r: r.word == "bestmove", timeout, "'bestmove'")
        return reply
