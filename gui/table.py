"""One browser's game: who plays each side, the clocks, the moves, and whose turn it is.

Positions are position strings; legality, results and move entry all come from the rules engine
(gui.rules). Engines are started on first use and kept until the browser leaves (`close`), which
ends every process group this table started. The browser names engines; names are checked
against the server's configuration (gui.config), so it cannot run anything else.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

from protocol import GAME_NAMES
from referee.engines.config import ConfigError
from referee.formats.timecontrol import TimeControl
from referee.matches.clock import Clock

from .board import board_svg_text
from .config import HUMAN, GuiConfig
from .levels import CLOCK, DEFAULT_LEVEL, SKILL_OPTION, Level, go_for, level_of
from .link import EngineError, EngineLink
from .rules import Rules, RulesError, Steps, complete_move
from .thinking import ThinkingFeed

Send = Callable[[dict[str, Any]], Awaitable[None]]
SIDES = ("d", "l")
CELL = re.compile(r"[a-j][0-9]")
MAX_RESUMED_MOVES = 500
"""A resumed game (a page reloaded) may bring at most this many moves."""
MAX_CLOCK_MS = 2**31 - 1


class TableError(ValueError):
    """A request the table refuses; its text goes back to the browser."""


class Table:
    """The game in front of one browser."""

    def __init__(self, config: GuiConfig, send: Send):
        self.config = config
        self.send = send
        self.links: dict[str, EngineLink] = {}
        self.rules_link = EngineLink(config.rules)
        self.rules = Rules(self.rules_link)
        self.rules_lock = asyncio.Lock()
        self.sides: list[str] = [HUMAN, "search" if "search" in config.engines else next(iter(config.engines))]
        self.tc_text = config.default_tc
        self.clocks = [Clock(TimeControl.parse(self.tc_text)) for _ in SIDES]
        self.start_state: dict[str, Any] | None = None
        self.states: list[dict[str, Any]] = []
        self.moves: list[str] = []
        self.forfeit: dict[str, Any] | None = None
        self.steps: list[str] = []
        self.options: Steps | None = None
        self.turn_task: asyncio.Task[None] | None = None
        self.thinking: EngineLink | None = None
        self.generation = 0
        self.turn_started = 0.0
        self.closed = False
        self.level: Level | None = level_of(DEFAULT_LEVEL)
        self.game_no = 0
        """Counts the games of this table: the page drops thinking lines of an earlier game."""
        self.targets: dict[str, str] = {}

    # -- engines -------------------------------------------------------------------
    async def _link(self, name: str) -> EngineLink:
        link = self.links.get(name)
        if link is None or not link.alive:
            link = EngineLink(self.config.engine(name))
            self.links[name] = link
            await link.start()
        return link

    async def _rules_call(self, method: str, *args: Any) -> Any:
        async with self.rules_lock:
            if not self.rules_link.alive:
                self.rules_link = EngineLink(self.config.rules)
                self.rules = Rules(self.rules_link)
                await self.rules_link.start()
            return await getattr(self.rules, method)(*args)

    def engine_groups(self) -> list[int]:
        """Process groups of every engine this table runs (for tests and shutdown checks)."""
        links = [self.rules_link, *self.links.values()]
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

    def snapshot(self) -> dict[str, Any]:
        """What the browser draws: board, state, moves (and who made each), players, clocks, result."""
        state = self.state
        flipped = self.sides[0] != HUMAN and self.sides[1] == HUMAN
        last = self.moves[-1] if self.moves else None
        result = self.forfeit or ({"result": state.get("result"), "reason": state.get("reason"),
                                   "termination": state.get("termination")} if state.get("over") else None)
        return {"t": "position", "game_no": self.game_no, "state": state,
                "svg": board_svg_text(state["position"], flipped=flipped, last_move=last),
                "moves": list(self.moves), "movers": [s.get("turn") for s in self.states[:len(self.moves)]],
                "start": self.start_state["position"] if self.start_state else None,
                "sides": list(self.sides), "tc": self.tc_text, "flipped": flipped, "result": result,
                "level": CLOCK if self.level is None else self.level.number,
                "thinking": not self.over and self.sides[self.mover] != HUMAN, **self._clocks()}

    def _clocks(self) -> dict[str, Any]:
        running = None if self.over else self.mover
        return {"clocks": [c.remaining_ms for c in self.clocks], "running": running}

    async def publish(self) -> None:
        await self.send(self.snapshot())

    # -- commands from the browser ----------------------------------------------------------
    async def new_game(self, game: object = None, dark: object = None, light: object = None,
                       tc: object = None, position: object = None, level: object = None,
                       moves: object = None, clocks: object = None) -> None:
        """Start a game: `position` (a position string) or the start position of `game`. A page that
        was reloaded resumes its game: `moves` played from there, `clocks` the time each side had left."""
        sides = [self._side(dark, 0), self._side(light, 1)]
        tc_text = self.tc_text if tc in (None, "") else str(tc)
        try:
            control = TimeControl.parse(tc_text)
        except ValueError as exc:
            raise TableError(f"time control: {exc}") from None
        chosen = self._level(level)
        resumed = _move_list(moves)
        remaining = _clock_values(clocks)
        if position not in (None, ""):
            start = await self._rules_call("state", str(position))
        else:
            if game not in GAME_NAMES:
                raise TableError(f"unknown game {str(game)[:20]!r}; one of {', '.join(GAME_NAMES)}")
            start = await self._rules_call("start", game)
        states = [start]
        for number, move in enumerate(resumed, 1):
            try:
                states.append(await self._rules_call("play", states[-1]["position"], move))
            except RulesError as exc:
                raise TableError(f"resuming the game: move {number} {move[:40]!r}: {exc}") from None
        await self.halt()   # only now: a refused request leaves the game being played as it was
        for name in sides:
            if name != HUMAN:
                link = await self._link(name)
                link.variant = None   # a fresh game: ucinewgame
                await link.set_variant(start["game"])
        self.generation += 1
        self.game_no += 1
        self.sides, self.tc_text, self.level = sides, tc_text, chosen
        self.clocks = [Clock(control) for _ in SIDES]
        for index, clock in enumerate(self.clocks):
            clock.moves_made = sum(1 for s in states[:-1] if s.get("turn") == SIDES[index])
            if remaining[index] is not None and clock.remaining_ms is not None:
                clock.remaining_ms = remaining[index]
        self.start_state, self.states, self.moves, self.forfeit = start, states, resumed, None
        await self.publish()
        await self._next_turn()

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
            await self._send_steps()   # the page redraws the position: the move being entered stays

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
        if self.over or self.sides[self.mover] != HUMAN or self.options is None:
            raise TableError("it is not your turn to enter a move")
        if not isinstance(word, str) or word not in self.options.options:
            raise TableError(f"{str(word)[:40]!r} is not one of the steps offered")
        if word.endswith("*"):
            move = complete_move(self.state["game"], self.options.prefix, word)
            clock = self.clocks[self.mover]
            clock.stop(int((time.monotonic() - self.turn_started) * 1000))
            if clock.flagged:
                await self._forfeit(self.mover, "time forfeit", "ran out of time")
                return
            await self._apply(move)
        else:
            self.steps.append(word)
            await self._offer_steps()

    async def unstep(self) -> None:
        """Take back the last entered step of the move being entered."""
        if self.steps:
            self.steps.pop()
            await self._offer_steps()

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
        self.options, self.steps, self.targets = None, [], {}

    async def close(self) -> None:
        """The browser left: stop everything and end every engine process this table started."""
        self.closed = True
        await self.halt()
        links = [self.rules_link, *self.links.values()]
        self.links = {}
        await asyncio.gather(*(link.close() for link in links), return_exceptions=True)

    # -- turns ---------------------------------------------------------------------
    async def _next_turn(self) -> None:
        self.options, self.steps, self.targets = None, [], {}
        self.generation += 1
        old = self.turn_task
        if old is not None and not old.done() and old is not asyncio.current_task():
            old.cancel()   # the previous turn's flag timer
        if self.over or self.closed:
            return
        self.turn_started = time.monotonic()
        self.clocks[self.mover].start()
        generation = self.generation
        if self.sides[self.mover] == HUMAN:
            await self._offer_steps()
            self.turn_task = asyncio.create_task(self._human_flag(generation))
        else:
            self.turn_task = asyncio.create_task(self._engine_turn(generation))

    async def _offer_steps(self) -> None:
        try:
            self.options = await self._rules_call("steps", self.state["position"], list(self.steps))
            self.targets = await self._counter_targets(self.options)
        except RulesError as exc:
            self.steps.pop() if self.steps else None
            raise TableError(f"steps: {exc}") from None
        await self._send_steps()

    async def _send_steps(self) -> None:
        if self.options is not None:
            await self.send({"t": "steps", "steps": list(self.steps), "prefix": self.options.prefix,
                             "options": list(self.options.options), "targets": self.targets})

    async def _counter_targets(self, offered: Steps) -> dict[str, str]:
        """{option: cell} for options that complete a move by moving the mover's counter (ISAAC's new
        score after a removal): the cell the counter stands on after the move, as the rules engine's
        `state` says, so the page can offer the cell itself. Empty for every other kind of step."""
        counters = self.state.get("counters")
        if not counters or offered.prefix == "-":
            return {}
        scores = [o for o in offered.options if o.endswith("*") and o != "pass*" and not CELL.search(o)]
        if not scores:
            return {}
        game = self.state["game"]
        after = await self._rules_call("after_each", self.state["position"],
                                       [complete_move(game, offered.prefix, o) for o in scores])
        mover = self.mover
        targets = {}
        for option, state in zip(scores, after, strict=True):
            cells = state.get("counters") if state else None
            if isinstance(cells, list) and len(cells) == 2 and isinstance(cells[mover], str):
                targets[option] = cells[mover]
        return targets

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
            link = await self._link(name)
            await link.set_variant(self.state["game"])
            await self._set_skill(link)
            clock = self.clocks[mover]
            go = go_for(self.level, self.clocks[0], self.clocks[1], mover).format()
            feed = ThinkingFeed(self.send, {"t": "thinking", "game_no": self.game_no, "engine": name,
                                            "side": SIDES[mover]}, lambda: generation == self.generation)
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
                await self._apply(move)
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

    async def _apply(self, move: str) -> None:
        try:
            state = await self._rules_call("play", self.state["position"], move)
        except RulesError as exc:
            raise TableError(str(exc)) from None
        self.states.append(state)
        self.moves.append(move)
        await self.publish()
        await self._next_turn()

    async def _forfeit(self, side: int, termination: str, why: str) -> None:
        """The side loses by the GUI's ruling (time, an illegal move, a dead engine)."""
        who = ("Dark", "Light")[side]
        self.forfeit = {"result": "0-1" if side == 0 else "1-0", "termination": termination,
                        "reason": f"{who} ({self.sides[side]}) {why}"}
        self.generation += 1
        self.options = None
        await self.publish()


def _move_list(moves: object) -> list[str]:
    """The moves of a resumed game, checked to be a list of short strings."""
    if moves in (None, ""):
        return []
    if not isinstance(moves, list) or len(moves) > MAX_RESUMED_MOVES:
        raise TableError(f"moves: a list of at most {MAX_RESUMED_MOVES} moves")
    if not all(isinstance(m, str) and 0 < len(m) <= 200 for m in moves):
        raise TableError("moves: each move is a string of notation")
    return list(moves)


def _clock_values(clocks: object) -> list[int | None]:
    """Time left of each side of a resumed game (ms), None where not given."""
    if clocks in (None, ""):
        return [None, None]
    if (not isinstance(clocks, list) or len(clocks) != 2
            or not all(c is None or (isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= MAX_CLOCK_MS)
                       for c in clocks)):
        raise TableError(f"clocks: [dark ms, light ms], each a whole number 0 to {MAX_CLOCK_MS} or null")
    return list(clocks)
