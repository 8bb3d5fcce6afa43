"""One browser's game: who plays each side, the clocks, the moves, and whose turn it is.

Positions are position strings; legality, results and move entry all come from the rules engine
(gui.rules). Engines are started on first use and kept until the browser leaves (`close`), which
ends every process group this table started. The browser names engines; names are checked
against the server's configuration (gui.config), so it cannot run anything else.

A new game waits: no clock runs and no engine thinks until the person makes the first move or
presses Start (`start`), so reading the page or choosing settings costs no time. A takeback
(`takeback`) undoes the person's last move and the replies after it.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import Any

from protocol import GAME_NAMES
from referee.engines.config import ConfigError
from referee.formats.record import info_to_dict
from referee.matches.clock import Clock

from .board import board_svg_text
from .clock import ClockError, clock_text, clock_words, parse_clock
from .config import HUMAN, GuiConfig
from .entry import EntryError, MoveEntry
from .export import GameLine, export, now_text
from .levels import CLOCK, DEFAULT_LEVEL, SKILL_OPTION, Level, go_for, level_of
from .link import EngineError, EngineLink, EngineLinks
from .page_input import move_list
from .rules import Rules, RulesError
from .thinking import ThinkingFeed

Send = Callable[[dict[str, Any]], Awaitable[None]]
SIDES = ("d", "l")
MAX_RESUMED_MOVES = 500
"""A resumed game (a page reloaded) may bring at most this many moves."""
MAX_CLOCK_MS = 2**31 - 1
RULE_ENDS = ("both-passed", "score-limit")
FORFEITS = ("time forfeit", "illegal move", "crash")
"""How the GUI ends a game itself (the referee's words, SPEC 10.2)."""


class TableError(ValueError):
    """A request the table refuses; its text goes back to the browser."""


class Table:
    """The game in front of one browser."""

    def __init__(self, config: GuiConfig, send: Send):
        self.config = config
        self.send = send
        self.links = EngineLinks(config.engine)
        self.rules_link = EngineLink(config.rules)
        self.rules = Rules(self.rules_link)
        self.rules_lock = asyncio.Lock()
        self.sides: list[str] = [HUMAN, "search" if "search" in config.engines else next(iter(config.engines))]
        self.control = parse_clock(config.default_tc)
        self.clocks = [Clock(self.control) for _ in SIDES]
        self.start_state: dict[str, Any] | None = None
        self.states: list[dict[str, Any]] = []
        self.moves: list[str] = []
        self.move_ms: list[int | None] = []
        self.move_info: list[dict[str, Any] | None] = []
        self.forfeit: dict[str, Any] | None = None
        self.started = False
        """False until the first move or Start: no clock runs, no engine thinks."""
        self.started_at = ""
        self.entry = MoveEntry("play", self.rules_call, send)
        self.turn_task: asyncio.Task[None] | None = None
        self.thinking: EngineLink | None = None
        self.generation = 0
        self.turn_started = 0.0
        self.closed = False
        self.level: Level | None = level_of(DEFAULT_LEVEL)
        self.game_no = 0
        """Counts the games of this table: the page drops thinking lines of an earlier game."""

    # -- engines -------------------------------------------------------------------
    async def rules_call(self, method: str, *args: Any) -> Any:
        """One question to the rules engine (restarted if it died); shared by every board of the tab."""
        async with self.rules_lock:
            if not self.rules_link.alive:
                self.rules_link = EngineLink(self.config.rules)
                self.rules = Rules(self.rules_link)
                await self.rules_link.start()
            return await getattr(self.rules, method)(*args)

    def engine_groups(self) -> list[int]:
        """Process groups of every engine this table runs (for tests and shutdown checks)."""
        links = [self.rules_link, *self.links.by_name.values()]
        return [link.pgid for link in links if link.pgid is not None]

    # -- state -----------------------------------------------------------------------
    @property
    def state(self) -> dict[str, Any]:
        if not self.states:
            raise TableError("no game yet: start one first")
        return self.states[-1]

    @property
    def over(self) -> bool:
        return self.forfeit is not None or bool(self.state.get("over"))

    @property
    def mover(self) -> int:
        return SIDES.index(self.state.get("turn", "d")) if self.state.get("turn") in SIDES else 0

    def result(self) -> dict[str, Any] | None:
        state = self.state
        return self.forfeit or ({"result": state.get("result"), "reason": state.get("reason"),
                                 "termination": state.get("termination")} if state.get("over") else None)

    def snapshot(self) -> dict[str, Any]:
        """What the browser draws: board, state, moves (and who made each), players, clocks, result."""
        state = self.state
        flipped = self.sides[0] != HUMAN and self.sides[1] == HUMAN
        last = self.moves[-1] if self.moves else None
        engine_to_move = not self.over and self.sides[self.mover] != HUMAN
        return {"t": "position", "game_no": self.game_no, "state": state,
                "svg": board_svg_text(state["position"], flipped=flipped, last_move=last),
                "moves": list(self.moves), "movers": [s.get("turn") for s in self.states[:len(self.moves)]],
                "notes": [_note(info) for info in self.move_info],
                "start": self.start_state["position"] if self.start_state else None,
                "sides": list(self.sides), "tc": clock_text(self.control), "tc_words": clock_words(self.control),
                "flipped": flipped, "result": self.result(),
                "level": CLOCK if self.level is None else self.level.number,
                "started": self.started, "thinking": self.started and engine_to_move,
                "can_takeback": self._takeback_ply() is not None, **self._clocks()}

    def _clocks(self) -> dict[str, Any]:
        running = None if self.over or not self.started else self.mover
        return {"clocks": [c.remaining_ms for c in self.clocks], "running": running}

    async def publish(self) -> None:
        await self.send(self.snapshot())

    def game_line(self) -> GameLine:
        """The game so far, for export (gui.export)."""
        if self.start_state is None:
            raise TableError("no game yet: start one first")
        return GameLine(start=self.start_state, states=self.states[1:], moves=list(self.moves),
                        sides=(self.sides[0], self.sides[1]), tc=str(self.control), ms=list(self.move_ms),
                        infos=list(self.move_info), result=self.result(), started_at=self.started_at)

    def export(self) -> dict[str, Any]:
        """The game as a record line (when finished) and as PGN."""
        return {"t": "export", "board": "play", **export(self.game_line(), self.config.engines)}

    # -- commands from the browser ----------------------------------------------------------
    async def new_game(self, game: object = None, dark: object = None, light: object = None,
                       tc: object = None, position: object = None, level: object = None,
                       moves: object = None, clocks: object = None, started: object = None,
                       result: object = None) -> None:
        """Start a game: `position` (a position string) or the start position of `game`. A page that
        was reloaded resumes its game: `moves` played from there, `clocks` the time each side had left,
        `started` whether its clocks were running, `result` how the GUI ended it (a forfeit)."""
        sides = [self._side(dark, 0), self._side(light, 1)]
        try:
            control = self.control if tc in (None, "") else parse_clock(tc)
        except ClockError as exc:
            raise TableError(str(exc)) from None
        chosen = self._level(level)
        resumed = move_list(moves, MAX_RESUMED_MOVES, TableError)
        remaining = _clock_values(clocks)
        forfeit = _forfeit_value(result)
        if position not in (None, ""):
            start = await self.rules_call("state", str(position))
        else:
            if game not in GAME_NAMES:
                raise TableError(f"unknown game {str(game)[:20]!r}; one of {', '.join(GAME_NAMES)}")
            start = await self.rules_call("start", game)
        states = [start]
        for number, move in enumerate(resumed, 1):
            try:
                states.append(await self.rules_call("play", states[-1]["position"], move))
            except RulesError as exc:
                raise TableError(f"resuming the game: move {number} {move[:40]!r}: {exc}") from None
        await self.halt()   # only now: a refused request leaves the game being played as it was
        for name in sides:
            if name != HUMAN:
                link = await self.links.get(name)
                link.variant = None   # a fresh game: ucinewgame
                await link.set_variant(start["game"])
        self.generation += 1
        self.game_no += 1
        self.sides, self.control, self.level = sides, control, chosen
        self.clocks = [Clock(control) for _ in SIDES]
        for index, clock in enumerate(self.clocks):
            clock.moves_made = sum(1 for s in states[:-1] if s.get("turn") == SIDES[index])
            if remaining[index] is not None and clock.remaining_ms is not None:
                clock.remaining_ms = remaining[index]
        self.start_state, self.states, self.moves = start, states, resumed
        self.move_ms, self.move_info = [None] * len(resumed), [None] * len(resumed)
        self.forfeit = None if states[-1].get("over") else forfeit
        self.started = bool(started) or self.forfeit is not None
        self.started_at = now_text()
        await self.publish()
        await self._next_turn()

    async def start(self) -> None:
        """Start the clocks (Start pressed): the side to move thinks, or the person's clock runs."""
        if self.over:
            raise TableError("the game is over: start a new game")
        if self.started:
            return
        self.started = True
        if self.sides[self.mover] == HUMAN:   # the move being entered stays as it is
            self._start_human_clock()
            await self.publish()
            await self.entry.resend()
        else:
            await self.publish()
            await self._next_turn()

    async def takeback(self) -> None:
        """Undo the person's last move and every reply after it; the person is to move again."""
        keep = self._takeback_ply()
        if keep is None:
            if HUMAN not in self.sides:
                raise TableError("a takeback is for a person playing: two engines play this game")
            if self.forfeit is not None:
                raise TableError(f"the game was lost ({self.forfeit['termination']}): start a new game")
            raise TableError("no move of yours to take back")
        await self.halt()
        for ply in range(keep, len(self.moves)):
            self.clocks[SIDES.index(self.states[ply]["turn"])].moves_made -= 1
        del self.states[keep + 1:], self.moves[keep:], self.move_ms[keep:], self.move_info[keep:]
        await self.publish()
        await self._next_turn()

    def _takeback_ply(self) -> int | None:
        """The ply of the person's last move (what a takeback goes back to), None if there is none."""
        if self.forfeit is not None or not self.states:
            return None
        for ply in range(len(self.moves) - 1, -1, -1):
            mover = self.states[ply].get("turn")
            if mover in SIDES and self.sides[SIDES.index(mover)] == HUMAN:
                return ply
        return None

    def _level(self, choice: object) -> Level | None:
        if choice in (None, ""):
            return self.level
        try:
            return level_of(choice)
        except ValueError as exc:
            raise TableError(str(exc)) from None

    async def set_level(self, choice: object) -> None:
        """The level of the engines from their next move on (a thinking engine keeps its own)."""
        self.level = self._level(choice)
        if self.states:
            await self.publish()
            await self.entry.resend()   # the page redraws the position: the move being entered stays

    def _side(self, name: object, index: int) -> str:
        if name in (None, ""):
            return self.sides[index]
        if name == HUMAN:
            return HUMAN
        try:
            return self.config.engine(name).name
        except ConfigError as exc:
            raise TableError(str(exc)) from None

    async def step(self, word: object) -> None:
        """The person picked one offered step; a step ending in `*` completes the move."""
        if self.over or self.sides[self.mover] != HUMAN or not self.entry.open:
            raise TableError("it is not your turn to enter a move")
        try:
            move = await self.entry.step(word)
        except EntryError as exc:
            raise TableError(str(exc)) from None
        if move is None:
            return
        elapsed = int((time.monotonic() - self.turn_started) * 1000)
        clock = self.clocks[self.mover]
        if self.started:
            clock.stop(elapsed)
            if clock.flagged:
                await self._forfeit(self.mover, "time forfeit", "ran out of time")
                return
        else:   # the first move is free: the clocks start with it
            clock.moves_made += 1
            self.started = True
        await self._apply(move, elapsed, None)

    async def unstep(self) -> None:
        """Take back the last entered step of the move being entered."""
        try:
            await self.entry.unstep()
        except EntryError as exc:
            raise TableError(str(exc)) from None

    async def stop(self) -> None:
        """Tell the thinking engine to move now."""
        if self.thinking is not None:
            await self.thinking.stop()

    async def setup(self, position: object) -> None:
        """A new game from a position string, same players and clock."""
        if not isinstance(position, str) or not position.strip():
            raise TableError("set up needs a position string")
        await self.new_game(position=position)

    async def halt(self) -> None:
        """End the current turn (a thinking engine is stopped, its move discarded)."""
        self.generation += 1
        task, self.turn_task = self.turn_task, None
        if task is not None and not task.done():
            if self.thinking is not None:
                await self.thinking.stop()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.thinking = None
        self.entry.clear()

    async def close(self) -> None:
        """The browser left: stop everything and end every engine process this table started."""
        self.closed = True
        await self.halt()
        await asyncio.gather(self.rules_link.close(), self.links.close(), return_exceptions=True)

    # -- turns ---------------------------------------------------------------------
    async def _next_turn(self) -> None:
        self.entry.clear()
        self.generation += 1
        old = self.turn_task
        if old is not None and not old.done() and old is not asyncio.current_task():
            old.cancel()   # the previous turn's flag timer
        if self.over or self.closed:
            return
        self.turn_started = time.monotonic()
        if self.sides[self.mover] == HUMAN:
            try:
                await self.entry.offer(self.state)
            except EntryError as exc:
                raise TableError(str(exc)) from None
            if self.started:
                self._start_human_clock()
        elif self.started:   # an engine to move in a game not started waits for Start
            self.clocks[self.mover].start()
            self.turn_task = asyncio.create_task(self._engine_turn(self.generation))

    def _start_human_clock(self) -> None:
        self.turn_started = time.monotonic()
        self.clocks[self.mover].start()
        self.turn_task = asyncio.create_task(self._human_flag(self.generation))

    async def _human_flag(self, generation: int) -> None:
        """The person's clock running out is a loss on time, as for an engine."""
        deadline = self.clocks[self.mover].deadline_s()
        if deadline is None:
            return
        await asyncio.sleep(deadline)
        if generation == self.generation and not self.over:
            await self._forfeit(self.mover, "time forfeit", "ran out of time")

    async def _engine_turn(self, generation: int) -> None:
        mover = self.mover
        name = self.sides[mover]
        link: EngineLink | None = None
        try:
            link = await self.links.get(name)
            await link.set_variant(self.state["game"])
            await self._set_skill(link)
            clock = self.clocks[mover]
            go = go_for(self.level, self.clocks[0], self.clocks[1], mover).format()
            feed = ThinkingFeed(self.send, {"t": "thinking", "game_no": self.game_no, "engine": name,
                                            "side": SIDES[mover], "ply": len(self.moves)},
                                lambda: generation == self.generation)
            self.thinking = link
            try:
                move, elapsed = await link.search(f"position fen {self.state['position']}", go, feed.add,
                                                  clock.deadline_s())
            finally:
                feed.close()
            self.thinking = None
            if generation != self.generation:
                return
            await feed.final()
            if move is None:
                await self._forfeit(mover, "time forfeit", "gave no move in time")
                return
            clock.stop(elapsed)
            if clock.flagged:
                await self._forfeit(mover, "time forfeit", f"took {elapsed} ms, over its time")
                return
            if move == "(none)":
                await self._forfeit(mover, "illegal move", "answered bestmove (none) in a game not over")
                return
            try:
                await self._apply(move, elapsed, info_to_dict(feed.last_info))
            except TableError as exc:
                await self._forfeit(mover, "illegal move", f"played {move}: {exc}")
        except EngineError as exc:
            if generation == self.generation:
                await self._forfeit(mover, "crash", str(exc))
        finally:
            if link is not None and self.thinking is link:
                self.thinking = None

    async def _set_skill(self, link: EngineLink) -> None:
        """The level's `Skill Level` (its default at full strength), to an engine that declares it."""
        spec = link.player.options.get(SKILL_OPTION.lower())
        if spec is None:
            return
        if self.level is None:
            value = link.option_default(SKILL_OPTION)
            if value is None:
                return
        else:
            skill = self.level.skill
            if spec.min is not None:
                skill = max(spec.min, skill)
            if spec.max is not None:
                skill = min(spec.max, skill)
            value = str(skill)
        await link.set_option(SKILL_OPTION, value)

    async def _apply(self, move: str, ms: int | None, info: dict[str, Any] | None) -> None:
        try:
            state = await self.rules_call("play", self.state["position"], move)
        except RulesError as exc:
            raise TableError(str(exc)) from None
        self.states.append(state)
        self.moves.append(move)
        self.move_ms.append(ms)
        self.move_info.append(info)
        await self.publish()
        await self._next_turn()

    async def _forfeit(self, side: int, termination: str, why: str) -> None:
        """The side loses by the GUI's ruling (time, an illegal move, a dead engine)."""
        who = ("Dark", "Light")[side]
        self.forfeit = {"result": "0-1" if side == 0 else "1-0", "termination": termination,
                        "reason": f"{who} ({self.sides[side]}) {why}"}
        self.generation += 1
        self.entry.clear()
        await self.publish()


NOTE_FIELDS = ("depth", "score_cp", "wdl", "nodes", "time", "string")


def _note(info: dict[str, Any] | None) -> dict[str, Any] | None:
    """What the move list shows of an engine's move (its last `info`, without the long PV)."""
    return None if not info else {k: info[k] for k in NOTE_FIELDS if k in info}


def _clock_values(clocks: object) -> list[int | None]:
    """Time left of each side of a resumed game (ms), None where not given."""
    if clocks in (None, ""):
        return [None, None]
    if (not isinstance(clocks, list) or len(clocks) != 2
            or not all(c is None or (isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= MAX_CLOCK_MS)
                       for c in clocks)):
        raise TableError(f"clocks: [dark ms, light ms], each a whole number 0 to {MAX_CLOCK_MS} or null")
    return list(clocks)


def _forfeit_value(result: object) -> dict[str, Any] | None:
    """How the GUI ended a resumed game (a forfeit: the rules cannot replay it), checked."""
    if result in (None, ""):
        return None
    if (not isinstance(result, dict) or result.get("result") not in ("1-0", "0-1")
            or result.get("termination") not in (*FORFEITS, *RULE_ENDS)
            or not isinstance(result.get("reason"), str) or len(result["reason"]) > 300):
        raise TableError("result: {result: 1-0 or 0-1, termination: a forfeit, reason: text}")
    if result["termination"] in RULE_ENDS:
        return None   # the rules say it again when the moves are replayed
    return {"result": result["result"], "termination": result["termination"], "reason": result["reason"]}
