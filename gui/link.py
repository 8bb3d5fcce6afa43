"""One engine process seen from the GUI: start-up, request/answer, and a streamed search.

Start-up, options, new games and shutdown are the referee's own (referee.engines.player.EnginePlayer on
referee.engines.process.EngineProcess): each engine runs in its own process group and `quit`,
SIGTERM, SIGKILL end the whole group. What the referee does not need and a GUI does is here:
answers to GUI commands (`steps`, `state`) and every `info` line of a search as it arrives.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from protocol.messages import Info, ProtocolError, parse_engine_line
from referee.engines.player import EngineFailure, EnginePlayer
from referee.engines.process import EngineGone, EngineProcess, EngineSpec, Line

REQUEST_TIMEOUT = 15.0
"""Seconds a GUI command (`steps`, `state`) may take before the engine counts as hung."""


class EngineError(Exception):
    """The engine could not be started, stopped answering, or died; the text says which."""


class EngineLink:
    """An engine the GUI talks to; one at a time per link (callers hold `busy` order themselves)."""

    def __init__(self, spec: EngineSpec):
        self.spec = spec
        self.player = EnginePlayer(spec, start_timeout=10.0, ping_timeout=REQUEST_TIMEOUT)
        self.variant: str | None = None
        self.searching = False
        self.sent_options: dict[str, str] = {}

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def pgid(self) -> int | None:
        return self.player.pid

    @property
    def alive(self) -> bool:
        return self.player.alive

    def _process(self) -> EngineProcess:
        process = self.player.process
        if process is None or not self.player.alive:
            raise EngineError(f"engine {self.name} is not running")
        return process

    async def start(self) -> None:
        try:
            await self.player.start()
        except EngineFailure as exc:
            raise EngineError(f"engine {self.name}: {exc.detail}") from None

    async def set_variant(self, game: str) -> None:
        """`UCI_Variant` and `ucinewgame`, only when the game type changes."""
        if self.variant == game:
            return
        try:
            await self.player.new_game(game)
        except EngineFailure as exc:
            raise EngineError(f"engine {self.name}: {exc.detail}") from None
        self.variant = game

    def option_default(self, name: str) -> str | None:
        """The default of an option the engine declared (its `option` line), None if it has none."""
        spec = self.player.options.get(name.lower())
        return None if spec is None else str(spec.default)

    async def set_option(self, name: str, value: str) -> None:
        """`setoption` of a declared option, sent only when its value changes (ignored if undeclared)."""
        spec = self.player.options.get(name.lower())
        if spec is None or self.sent_options.get(spec.name) == value:
            return
        try:
            await self.player.set_option(spec.name, value)
        except ValueError as exc:
            raise EngineError(str(exc)) from None
        except EngineFailure as exc:
            raise EngineError(f"engine {self.name}: {exc.detail}") from None
        self.sent_options[spec.name] = value

    async def request(self, *lines: str, timeout: float = REQUEST_TIMEOUT) -> list[str]:
        """Send `lines` then `isready`; every line answered before `readyok` (errors included)."""
        process = self._process()
        process.discard_pending()
        try:
            await process.send(*lines, "isready")
        except EngineGone as exc:
            raise EngineError(f"engine {self.name}: {exc}") from None
        answer: list[str] = []
        deadline = time.monotonic() + timeout
        while True:
            line = await process.read_line(max(0.0, deadline - time.monotonic()))
            if line is None:
                raise EngineError(f"engine {self.name} did not answer {lines[-1].split()[0]!r} "
                                  f"within {timeout:g} s")
            if line.kind in (Line.EOF, Line.EXIT):
                raise EngineError(f"engine {self.name} exited ({self.player.stderr_tail()[-200:]})")
            if line.kind == Line.TOO_LONG:
                raise EngineError(f"engine {self.name} printed an over-long line")
            if line.text.strip() == "readyok":
                return answer
            answer.append(line.text)

    async def search(self, position_cmd: str, go_cmd: str, on_info: Callable[[Info], Awaitable[None]],
                     deadline_s: float | None, grace_s: float = 1.0) -> tuple[str | None, int]:
        """Run one `go`: every info goes to on_info; returns (bestmove or None if none came, elapsed ms).

        At the deadline `stop` is sent; without a move `grace_s` later the answer is None."""
        process = self._process()
        process.discard_pending()
        self.searching = True
        try:
            await process.send(position_cmd, go_cmd)
            t0 = time.monotonic()
            stop_at = None if deadline_s is None else t0 + deadline_s
            stopped = False
            while True:
                now = time.monotonic()
                wait = None if stop_at is None else max(0.0, stop_at - now)
                line = await process.read_line(wait)
                if line is None:
                    if stopped:
                        return None, int((time.monotonic() - t0) * 1000)
                    await process.send("stop")
                    stopped, stop_at = True, time.monotonic() + grace_s
                    continue
                if line.kind in (Line.EOF, Line.EXIT):
                    raise EngineError(f"engine {self.name} exited while thinking "
                                      f"({self.player.stderr_tail()[-200:]})")
                if line.kind != Line.TEXT:
                    continue
                try:
                    parsed = parse_engine_line(line.text)
                except ProtocolError:
                    continue   # a malformed info costs the engine that info
                if parsed.kind == "info" and parsed.info is not None:
                    await on_info(parsed.info)
                elif parsed.kind == "bestmove":
                    return parsed.move, int(round((line.t - t0) * 1000))
        except EngineGone as exc:
            raise EngineError(f"engine {self.name}: {exc}") from None
        finally:
            self.searching = False

    async def stop(self) -> None:
        """Ask a running search for its move now (ignored when not searching)."""
        if self.searching and self.player.process is not None:
            try:
                await self.player.process.send("stop")
            except EngineGone:
                pass

    async def close(self) -> None:
        """`quit`, then SIGTERM and SIGKILL to the engine's process group; everything reaped."""
        await self.player.quit()


class EngineLinks:
    """The engines one board talks to, by name: each started on first use and again if it died."""

    def __init__(self, spec_of: Callable[[str], EngineSpec]):
        self.spec_of = spec_of
        self.by_name: dict[str, EngineLink] = {}

    async def get(self, name: str) -> EngineLink:
        """The running engine called `name`."""
        link = self.by_name.get(name)
        if link is None or not link.alive:
            link = EngineLink(self.spec_of(name))
            self.by_name[name] = link
            await link.start()
        return link

    def forget(self, link: EngineLink) -> None:
        """The next `get` of its name starts a fresh process (the caller closes this one)."""
        self.by_name = {name: known for name, known in self.by_name.items() if known is not link}

    async def close(self) -> None:
        """End every engine process started here."""
        links, self.by_name = list(self.by_name.values()), {}
        await asyncio.gather(*(link.close() for link in links), return_exceptions=True)
