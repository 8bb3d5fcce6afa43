"""The move being entered on one board, step by step: what the person entered and what may follow.

Both boards of the page enter moves this way (the game being played and the analysis board).
The rules engine answers `steps` (SPEC 9.11); the page is sent the entered steps, the canonical
prefix, the offered next steps, and for ISAAC's new scores the cell the mover's counter goes to.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

from .rules import RulesError, Steps, complete_move

CELL = re.compile(r"[a-j][0-9]")
RulesCall = Callable[..., Awaitable[Any]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


class EntryError(ValueError):
    """A step the board refuses; its text goes back to the page."""


class MoveEntry:
    """Steps entered on one board (`board`: the name the page knows it by) in one position."""

    def __init__(self, board: str, rules_call: RulesCall, send: Send):
        self.board = board
        self.rules_call = rules_call
        self.send = send
        self.steps: list[str] = []
        self.options: Steps | None = None
        self.targets: dict[str, str] = {}
        self.state: dict[str, Any] | None = None

    @property
    def open(self) -> bool:
        return self.options is not None

    def clear(self) -> None:
        """Nothing to enter (not the person's turn, or a new position)."""
        self.steps, self.options, self.targets, self.state = [], None, {}, None

    async def offer(self, state: dict[str, Any]) -> None:
        """The person may enter a move in `state` (the rules engine's state answer): ask the first steps."""
        self.clear()
        self.state = state
        await self._ask()

    async def step(self, word: object) -> str | None:
        """Enter one offered step; the completed move if the step completes one (else None, and the
        next steps are sent)."""
        if self.options is None or self.state is None:
            raise EntryError("no move is being entered on this board")
        if not isinstance(word, str) or word not in self.options.options:
            raise EntryError(f"{str(word)[:40]!r} is not one of the steps offered")
        if word.endswith("*"):
            return complete_move(self.state["game"], self.options.prefix, word)
        self.steps.append(word)
        await self._ask()
        return None

    async def unstep(self) -> None:
        """Take back the last entered step."""
        if self.steps and self.state is not None:
            self.steps.pop()
            await self._ask()

    async def _ask(self) -> None:
        assert self.state is not None
        try:
            self.options = await self.rules_call("steps", self.state["position"], list(self.steps))
            self.targets = await self._counter_targets(self.options)
        except RulesError as exc:
            self.steps.pop() if self.steps else None
            raise EntryError(f"steps: {exc}") from None
        await self.resend()

    async def resend(self) -> None:
        """Send the move being entered again (the page redrew its board)."""
        if self.options is not None:
            await self.send({"t": "steps", "board": self.board, "steps": list(self.steps),
                             "prefix": self.options.prefix, "options": list(self.options.options),
                             "targets": self.targets})

    async def _counter_targets(self, offered: Steps) -> dict[str, str]:
        """{option: cell} for options that complete a move by moving the mover's counter (ISAAC's new
        score after a removal): the cell the counter stands on after the move, as the rules engine's
        `state` says, so the page can offer the cell itself. Empty for every other kind of step."""
        assert self.state is not None
        counters = self.state.get("counters")
        if not counters or offered.prefix == "-":
            return {}
        scores = [o for o in offered.options if o.endswith("*") and o != "pass*" and not CELL.search(o)]
        if not scores:
            return {}
        game = self.state["game"]
        after = await self.rules_call("after_each", self.state["position"],
                                      [complete_move(game, offered.prefix, o) for o in scores])
        mover = 0 if self.state.get("turn") == "d" else 1
        targets = {}
        for option, state in zip(scores, after, strict=True):
            cells = state.get("counters") if state else None
            if isinstance(cells, list) and len(cells) == 2 and isinstance(cells[mover], str):
                targets[option] = cells[mover]
        return targets
