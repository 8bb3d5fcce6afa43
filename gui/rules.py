"""The rules, asked of an engine: `state` for positions and results, `steps` for move entry.

The GUI keeps no rules of its own. A position is a position string; to play a move the rules
engine is given `position fen <string> moves <move>` and its `state` answer is the new position
(or its `info string error` says why the move is illegal). See SPEC section 9 for both commands.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from protocol import steps

from .link import EngineLink

ERROR_PREFIX = "info string error:"


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

    async def _state(self, position_cmd: str, game: str) -> dict[str, Any]:
        await self.link.set_variant(game)
        answer = await self.link.request(position_cmd, "state")
        errors = self._errors(answer)
        if errors:
            raise RulesError(errors[0])
        for line in answer:
            if line.startswith("state "):
                try:
                    state = json.loads(line[len("state "):])
                except ValueError:
                    raise RulesError(f"unreadable state answer {line[:80]!r}") from None
                if not isinstance(state, dict) or "position" not in state:
                    raise RulesError(f"state answer without a position: {line[:80]!r}")
                return state
        raise RulesError(f"the rules engine gave no 'state' answer (got {answer[:3]})")

    async def start(self, game: str) -> dict[str, Any]:
        """The state of `game`'s start position."""
        return await self._state("position startpos", game)

    async def state(self, position: str) -> dict[str, Any]:
        """The state of a position string (RulesError if the engine rejects it)."""
        return await self._state(f"position fen {_one_line(position)}", game_of(position))

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


def _one_line(text: str) -> str:
    """Text that cannot smuggle a second command into the engine's input."""
    return " ".join(str(text).split())
