"""The rules, asked of an engine: `state` for positions and results, `steps` for move entry.

The GUI keeps no rules of its own. A position is a position string; to play a move the rules
engine is given `position fen <string> moves <move>` and its `state` answer is the new position
(or its `info string error` says why the move is illegal). See SPEC section 9 for both commands.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from protocol import steps

from .link import EngineLink

ERROR_PREFIX = "info string error:"
POSITION_FEN = "position fen "
_COLUMN = re.compile(r"\bat column (\d+)")


class RulesError(ValueError):
    """The rules engine refused a position, move or step; the text is its own error line."""


@dataclass(frozen=True)
class Steps:
    """An answer to `steps`: the canonical notation of the entered steps and the legal next ones."""

    prefix: str
    options: tuple[str, ...]


def game_of(position: str) -> str:
    """The game tag (first word) of a position string."""
    words = position.split()
    if not words:
        raise RulesError("empty position string")
    return words[0].lower()


def complete_move(game: str, prefix: str, option: str) -> str:
    """The move an option ending in `*` completes: the prefix and the option joined by the game's
    notation (HARI slides and play by `,`, an ISAAC removal and its new score by `:`)."""
    return steps.complete_move(game, "" if prefix == "-" else prefix, option.rstrip("*"))


class Rules:
    """A rules engine behind a link; all calls are position strings in, answers out."""

    def __init__(self, link: EngineLink):
        self.link = link

    def _errors(self, lines: list[str]) -> list[str]:
        return [line[len(ERROR_PREFIX):].strip() for line in lines if line.startswith(ERROR_PREFIX)]

    async def _state(self, position_cmd: str, game: str, column_offset: int = 0) -> dict[str, Any]:
        """`state` after `position_cmd`; an error's column is moved back by `column_offset` (so that it
        counts in the text the user typed, not in the command around it)."""
        await self.link.set_variant(game)
        answer = await self.link.request(position_cmd, "state")
        errors = self._errors(answer)
        if errors:
            raise RulesError(_shift_column(errors[0], column_offset))
        states = _states(answer)
        if not states:
            raise RulesError(f"the rules engine gave no 'state' answer (got {answer[:3]})")
        return states[0]

    async def start(self, game: str) -> dict[str, Any]:
        """The state of `game`'s start position."""
        return await self._state("position startpos", game)

    async def state(self, position: str) -> dict[str, Any]:
        """The state of a position string as typed (RulesError if the engine rejects it, the error's
        column counted in `position` itself)."""
        if "\n" in position or "\r" in position:
            raise RulesError("a position string is one line")
        text = position.strip(" \t")
        leading = len(position) - len(position.lstrip(" \t"))
        return await self._state(POSITION_FEN + text, game_of(text), len(POSITION_FEN) - leading)

    async def after_each(self, position: str, moves: list[str]) -> list[dict[str, Any] | None]:
        """The state after each of `moves` played from `position` (one round trip for them all);
        None for a move the engine refused."""
        await self.link.set_variant(game_of(position))
        lines = []
        for move in moves:
            lines += [f"{POSITION_FEN}{_one_line(position)} moves {_one_line(move)}", "state"]
        answer = await self.link.request(*lines)
        out: list[dict[str, Any] | None] = []
        refused = False
        for line in answer:   # each move: one state line, after an error line if it was refused
            if line.startswith(ERROR_PREFIX):
                refused = True
            elif line.startswith("state "):
                out.append(None if refused else _states([line])[0])
                refused = False
        if len(out) != len(moves):
            raise RulesError(f"the rules engine answered {len(out)} of {len(moves)} states")
        return out

    async def play(self, position: str, move: str) -> dict[str, Any]:
        """The state after `move` (RulesError, with the rules' reason, if it is not legal)."""
        move = _one_line(move)
        if not move or " " in move:
            raise RulesError(f"not one move: {move[:40]!r}")
        return await self._state(f"position fen {_one_line(position)} moves {move}", game_of(position))

    async def steps(self, position: str, words: list[str]) -> Steps:
        """The legal next steps after the entered `words`."""
        await self.link.set_variant(game_of(position))
        answer = await self.link.request(f"position fen {_one_line(position)}",
                                         " ".join(["steps", *(_one_line(w) for w in words)]))
        errors = self._errors(answer)
        if errors:
            raise RulesError(errors[0])
        for line in answer:
            parts = line.split()
            if parts and parts[0] == "steps":
                return Steps(parts[1] if len(parts) > 1 else "-", tuple(parts[2:]))
        raise RulesError(f"the rules engine gave no 'steps' answer (got {answer[:3]})")


def _states(answer: list[str]) -> list[dict[str, Any]]:
    states = []
    for line in answer:
        if line.startswith("state "):
            try:
                state = json.loads(line[len("state "):])
            except ValueError:
                raise RulesError(f"unreadable state answer {line[:80]!r}") from None
            if not isinstance(state, dict) or "position" not in state:
                raise RulesError(f"state answer without a position: {line[:80]!r}")
            states.append(state)
    return states


def _shift_column(text: str, offset: int) -> str:
    """The error text with its first column moved back by `offset` (kept if that leaves the text)."""
    def shifted(match: re.Match[str]) -> str:
        column = int(match.group(1)) - offset
        return f"at column {column}" if column >= 1 else match.group(0)

    return _COLUMN.sub(shifted, text, count=1) if offset else text


def _one_line(text: str) -> str:
    """Text that cannot smuggle a second command into the engine's input."""
    return " ".join(str(text).split())
