"""The analysis board of one browser tab: a line of moves, the position shown, an engine analysing it.

A line comes from the game being played, a game of a referee run, a pasted position string or a
link; the page moves through it ply by ply (`goto`), and moves entered on the board continue it
(a move other than the line's next one starts a new line from there). While analysis is on, an
engine of the server's list searches the position shown (`go infinite`, stopped after
ANALYSIS_SECONDS) with `MultiPV` lines where it declares the option (SPEC 9.3), and every `info`
goes to the page as an `analysis` message. The engines here are processes of their own, so
analysing never disturbs the game being played.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from referee.engines.config import ConfigError

from .board import board_svg_text
from .config import GuiConfig
from .entry import EntryError, MoveEntry
from .export import GameLine, export, now_text
from .link import EngineError, EngineLink, EngineLinks
from .page_input import move_list
from .rules import RulesError
from .thinking import ThinkingFeed

Send = Callable[[dict[str, Any]], Awaitable[None]]
RulesCall = Callable[..., Awaitable[Any]]
ANALYSIS_SECONDS = 60.0
"""A position is analysed this long at most (the machine is not kept busy for nothing)."""
MAX_LINES = 5
"""MultiPV offered by the page: 1 to this many lines."""
MULTIPV_OPTION = "MultiPV"
MAX_MOVES = 500
STOP_WAIT = 3.0
"""Seconds a stopped analysis may take to give its bestmove before its engine is restarted."""
STOP_RETRY = 0.3
"""Seconds between two `stop`s sent to an analysis that has not answered."""


class AnalysisError(ValueError):
    """A request the analysis board refuses; its text goes back to the page."""


class Analysis:
    """The analysis board: the line, the ply shown, the engine and its settings."""

    def __init__(self, config: GuiConfig, send: Send, rules_call: RulesCall):
        self.config = config
        self.send = send
        self.rules_call = rules_call
        self.entry = MoveEntry("analysis", rules_call, send)
        self.start: dict[str, Any] | None = None
        self.states: list[dict[str, Any]] = []
        self.moves: list[str] = []
        self.ply = 0
        self.sides: tuple[str, str] = ("?", "?")
        self.tc: str | None = None
        self.result: dict[str, Any] | None = None
        """How the source game ended when the GUI (not the rules) ended it; kept while the line is its own."""
        self.label = ""
        self.flipped = False
        self.engine: str | None = "search" if "search" in config.engines else next(iter(config.engines), None)
        self.lines = 1
        self.on = True
        self.links = EngineLinks(config.engine)
        self.task: asyncio.Task[None] | None = None
        self.searching: EngineLink | None = None
        self.generation = 0

    # -- the line -----------------------------------------------------------------------
    async def load(self, position: object, moves: object = None, ply: object = None, sides: object = None,
                   label: object = None, result: object = None, tc: object = None,
                   flipped: object = None) -> None:
        """A new line: `position` (a position string) and `moves` played from it; show `ply`."""
        if not isinstance(position, str) or not position.strip():
            raise AnalysisError("analysis needs a position string")
        line = move_list(moves, MAX_MOVES, AnalysisError)
        start = await self.rules_call("state", position)
        states: list[dict[str, Any]] = []
        for number, move in enumerate(line, 1):
            before = states[-1] if states else start
            try:
                states.append(await self.rules_call("play", before["position"], move))
            except RulesError as exc:
                raise AnalysisError(f"move {number} {move[:40]!r}: {exc}") from None
        await self._halt()
        self.start, self.states, self.moves = start, states, line
        self.sides = _sides(sides)
        self.label = str(label)[:120] if isinstance(label, str) else ""
        self.result = None if (states or [start])[-1].get("over") else _result(result)
        self.tc = str(tc)[:100] if isinstance(tc, str) else None
        self.flipped = bool(flipped)
        await self._send_line()
        await self.goto(len(line) if ply is None else ply)

    async def goto(self, ply: object) -> None:
        """Show the position after `ply` moves (0: the start) and analyse it."""
        if self.start is None:
            raise AnalysisError("nothing to analyse yet: open a game or a position")
        if isinstance(ply, bool) or not isinstance(ply, int):
            raise AnalysisError(f"ply is a whole number, not {str(ply)[:20]!r}")
        self.ply = max(0, min(len(self.moves), ply))
        await self._halt()
        state = self.state
        last = self.moves[self.ply - 1] if self.ply else None
        await self.send({"t": "analysis_position", "ply": self.ply, "state": state,
                         "svg": board_svg_text(state["position"], flipped=self.flipped, last_move=last),
                         "flipped": self.flipped, "result": self._result_at(self.ply)})
        if not state.get("over"):
            try:
                await self.entry.offer(state)
            except EntryError as exc:
                raise AnalysisError(str(exc)) from None
        await self._analyse()

    @property
    def state(self) -> dict[str, Any]:
        assert self.start is not None
        return self.states[self.ply - 1] if self.ply else self.start

    def _result_at(self, ply: int) -> dict[str, Any] | None:
        state = self.states[ply - 1] if ply else self.start
        assert state is not None
        if state.get("over"):
            return {"result": state.get("result"), "termination": state.get("termination"),
                    "reason": state.get("reason")}
        if ply == len(self.moves) and self.result is not None:
            return self.result
        return None

    async def _send_line(self) -> None:
        assert self.start is not None
        movers = [self.start.get("turn")] + [s.get("turn") for s in self.states[:-1]]
        await self.send({"t": "analysis_line", "start": self.start["position"], "game": self.start["game"],
                         "moves": list(self.moves), "movers": movers, "sides": list(self.sides),
                         "label": self.label, "tc": self.tc, "flipped": self.flipped})

    async def step(self, word: object) -> None:
        """A step entered on the analysis board; a complete move continues the line (or starts a new one)."""
        try:
            move = await self.entry.step(word)
        except EntryError as exc:
            raise AnalysisError(str(exc)) from None
        if move is None:
            return
        if self.ply < len(self.moves) and self.moves[self.ply] == move:
            await self.goto(self.ply + 1)
            return
        if self.ply >= MAX_MOVES:
            raise AnalysisError(f"a line holds at most {MAX_MOVES} moves")
        try:
            state = await self.rules_call("play", self.state["position"], move)
        except RulesError as exc:
            raise AnalysisError(str(exc)) from None
        del self.moves[self.ply:], self.states[self.ply:]
        self.moves.append(move)
        self.states.append(state)
        self.result = None
        if self.label and not self.label.endswith("(edited)"):
            self.label += " (edited)"
        await self._send_line()
        await self.goto(self.ply + 1)

    async def unstep(self) -> None:
        try:
            await self.entry.unstep()
        except EntryError as exc:
            raise AnalysisError(str(exc)) from None

    async def settings(self, engine: object = None, lines: object = None, on: object = None,
                       flipped: object = None) -> None:
        """The engine analysing, how many lines (MultiPV), analysis on or off, the board's side."""
        if engine not in (None, ""):
            try:
                self.engine = self.config.engine(engine).name
            except ConfigError as exc:
                raise AnalysisError(str(exc)) from None
        if lines not in (None, ""):
            if isinstance(lines, bool) or not isinstance(lines, int) or not 1 <= lines <= MAX_LINES:
                raise AnalysisError(f"lines: 1 to {MAX_LINES}, not {str(lines)[:20]!r}")
            self.lines = lines
        if on is not None:
            self.on = bool(on)
        redraw = flipped is not None and bool(flipped) != self.flipped
        if flipped is not None:
            self.flipped = bool(flipped)
        if self.start is not None:
            if redraw:
                await self._send_line()
                await self.goto(self.ply)
            else:
                await self._analyse()

    def export(self) -> dict[str, Any]:
        if self.start is None:
            raise AnalysisError("nothing to export yet: open a game or a position")
        line = GameLine(start=self.start, states=list(self.states), moves=list(self.moves), sides=self.sides,
                        tc=self.tc, result=self._result_at(len(self.moves)), started_at=now_text())
        return {"t": "export", "board": "analysis", **export(line, self.config.engines)}

    # -- the engine -----------------------------------------------------------------------
    async def _analyse(self) -> None:
        """(Re)start the analysis of the position shown, or say why there is none."""
        await self._halt_search()
        state = self.state
        generation = self.generation
        head = {"t": "analysis", "ply": self.ply, "serial": generation, "engine": self.engine,
                "side": state.get("turn"), "lines_asked": self.lines}
        if not self.on or self.engine is None or state.get("over"):
            await self.send({**head, "idle": "off" if not self.on or self.engine is None else "over", "lines": []})
            return
        try:
            link = await self.links.get(self.engine)
            await link.set_variant(state["game"])
            given = 1
            if link.player.options.get(MULTIPV_OPTION.lower()) is not None:
                await link.set_option(MULTIPV_OPTION, str(self.lines))
                given = self.lines
        except EngineError as exc:
            await self.send({**head, "idle": "error", "error": str(exc), "lines": []})
            return
        feed = ThinkingFeed(self.send, {**head, "lines_given": given}, lambda: generation == self.generation)
        self.searching = link
        self.task = asyncio.create_task(self._search(link, feed, state["position"], generation))

    async def _search(self, link: EngineLink, feed: ThinkingFeed, position: str, generation: int) -> None:
        try:
            await link.search(f"position fen {position}", "go infinite", feed.add, ANALYSIS_SECONDS)
        except EngineError as exc:
            if generation == self.generation:
                await self.send({**feed.head, "idle": "error", "error": str(exc), "lines": []})
            return
        finally:
            feed.close()
        await feed.final()

    async def _halt_search(self) -> None:
        """Stop the running analysis and wait for its bestmove (the engine is then free again)."""
        self.generation += 1
        task, link = self.task, self.searching
        self.task = self.searching = None
        if task is None or task.done():
            return
        if link is None or not link.searching:
            task.cancel()   # not started yet: it never sends its `go`
            await asyncio.wait({task})
            return
        loop = asyncio.get_running_loop()
        end = loop.time() + STOP_WAIT
        while not task.done() and loop.time() < end:
            await link.stop()   # again if need be: a `stop` that crossed the `go` on its way is lost
            await asyncio.wait({task}, timeout=STOP_RETRY)
        if not task.done():   # it did not stop: a fresh process next time
            task.cancel()
            self.links.forget(link)
            await link.close()

    async def _halt(self) -> None:
        self.entry.clear()
        await self._halt_search()

    async def close(self) -> None:
        await self._halt()
        await self.links.close()


def _sides(sides: object) -> tuple[str, str]:
    if isinstance(sides, list) and len(sides) == 2 and all(isinstance(s, str) for s in sides):
        return str(sides[0])[:40] or "?", str(sides[1])[:40] or "?"
    return "?", "?"



def _result(result: object) -> dict[str, Any] | None:
    """How the source game ended (a forfeit the rules cannot replay), checked; None if not given."""
    if not isinstance(result, dict) or result.get("result") not in ("1-0", "0-1", "1/2-1/2"):
        return None
    termination, reason = result.get("termination"), result.get("reason")
    return {"result": result["result"], "termination": str(termination)[:40] if termination else None,
            "reason": str(reason)[:300] if reason else ""}
