"""Step-by-step move entry: the legal next steps of a partly entered move (SPEC 9.11).

A GUI that knows no rules builds a move one click at a time: HARI slides one by
one and then the play, an ISAAC removal and then its new score, any other move
in one step. ``next_steps(game, words)`` checks the steps entered so far and
answers every legal next step, marking those that complete a move. It is exact:
expanding the steps from the empty prefix yields exactly ``legal_moves()``,
every offered step leads to at least one legal move, and an answer is bounded
by the choices of one step (never their product).

This module knows no game. Each game's registry entry declares how its steps
join into notation (``step_joiner``) and which function expands them
(``step_expander``, e.g. protocol/games/hari/steps.py); a game that declares neither
has one-word moves, each legal move one completing step (``one_word_steps``).
Legality is always the game module's (``check_move`` and its own queries); the
expanders only walk it, with the helpers here (``Step``, ``checked``, ``segment``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from itertools import islice
from typing import cast

from . import registry
from .board import Segment
from .errors import GameOverError, IllegalMoveError, NotationError
from .game import Game
from .moves import Move
from .notation import parse_segment


@dataclass(frozen=True)
class StepOption:
    """One legal next step: its word, and whether choosing it completes a move."""

    word: str
    completes: bool

    def __str__(self) -> str:
        return self.word + ("*" if self.completes else "")


@dataclass(frozen=True)
class StepAnswer:
    """The canonical notation of the entered steps ('' if none), the next steps, and the move if complete."""

    prefix: str
    options: tuple[StepOption, ...]
    move: Move | None = None

    def line(self) -> str:
        """The protocol answer: `steps <prefix or -> <option> ...` (an option ending in `*` completes a move)."""
        return " ".join(["steps", self.prefix or "-", *map(str, self.options)])


class StepError(ValueError):
    """A step that cannot be entered: its index in the words given, the 0-based offset inside it, why."""

    def __init__(self, word_index: int, step: int, offset: int, text: str, message: str):
        super().__init__(f"step {step} {text!r}: {message}")
        self.word_index = word_index
        self.step = step
        self.offset = offset
        self.text = text
        self.message = message


@dataclass
class Step:
    """One entered step: the word it came from, its 1-based number, where it starts in the word, its text."""

    word_index: int
    number: int
    offset: int
    text: str

    def error(self, message: str, offset: int = 0) -> StepError:
        """A StepError at `offset` characters into this step."""
        return StepError(self.word_index, self.number, self.offset + offset, self.text, message)


StepExpander = Callable[[Game, list[Step]], StepAnswer]
"""A game's answer to its steps so far (called only while the game is not over)."""


def complete_move(game_name: str, prefix: str, option: str) -> str:
    """The move an option ending in `*` completes: the prefix and the option joined by the game's notation."""
    return option if not prefix else prefix + registry.entry(game_name).step_joiner + option


def next_steps(game: Game, words: Sequence[str]) -> StepAnswer:
    """Check the steps `words` entered so far in `game`'s position; answer the legal next steps.

    Raises StepError naming the first step that is malformed, illegal, or
    follows a completed move. The game is not changed.
    """
    entry = registry.entry(game.name)
    steps = _split(entry.step_joiner, words)
    if game.is_over():
        if steps:
            raise steps[0].error("the game is over; no step is legal")
        return StepAnswer("", ())
    return _expander(entry.step_expander)(game, steps)


@cache
def _expander(spec: str) -> StepExpander:
    """The function a registry entry's ``step_expander`` names ('module:function'; '' for one-word moves)."""
    if not spec:
        return one_word_steps
    module, _, function = spec.partition(":")
    return cast(StepExpander, getattr(import_module(module), function))


def _split(joiner: str, words: Sequence[str]) -> list[Step]:
    """The steps of `words`; a word may hold several joined as the prefix is written (`a,b` / `xc3c7:36`)."""
    steps: list[Step] = []
    for i, word in enumerate(words):
        offset = 0
        for part in word.split(joiner) if joiner else [word]:
            step = Step(i, len(steps) + 1, offset, part)
            if not part:
                raise step.error(f"empty step (a stray {joiner!r})")
            steps.append(step)
            offset += len(part) + 1
    return steps


# -- helpers for the games' step expanders ---------------------------------------
def checked(game: Game, move: Move, step: Step) -> Move:
    """`game.check_move(move)`, its IllegalMoveError turned into this step's StepError."""
    try:
        return game.check_move(move)
    except GameOverError:
        raise step.error("the game is over") from None
    except IllegalMoveError as e:
        raise step.error(f"illegal: {e.reason}") from None


def segment(step: Step, text: str, offset: int = 0) -> Segment:
    """A segment inside a step word (two cells such as c3c7, either end first)."""
    for i in range(4):
        ch = text[i:i + 1]
        if not ch or ch not in ("abcdefghij" if i % 2 == 0 else "0123456789"):
            what = "file a..j" if i % 2 == 0 else "rank 0..9"
            found = repr(ch) if ch else "end of step"
            raise step.error(f"bad notation: expected a segment (two cells, e.g. c3c7): {what}, found {found}",
                             offset + i)
    if len(text) > 4:
        raise step.error(f"bad notation: unexpected {text[4:]!r} after segment {text[:4]}", offset + 4)
    try:
        return parse_segment(text)
    except NotationError as e:
        raise step.error(f"bad notation: {e.message}", offset + e.column - 1) from None


def after_complete(steps: list[Step], done: int) -> None:
    """Refuse a step after the `done` steps that completed the move."""
    if len(steps) > done:
        raise steps[done].error("the move is already complete; no step may follow")


# -- the default: one step per move ----------------------------------------------
def one_word_steps(game: Game, steps: list[Step]) -> StepAnswer:
    """Moves entered in one word: every legal move is a completing step (FOUNDATIONS, ISAAC placements)."""
    if not steps:
        return StepAnswer("", tuple(StepOption(str(m), True) for m in game.legal_moves()))
    after_complete(steps, 1)
    move = _parse_whole(game, steps[0])
    return StepAnswer(str(move), (), move)


def _parse_whole(game: Game, step: Step) -> Move:
    from .notation import parse_move

    try:
        move = parse_move(game.name, step.text)
    except NotationError as e:
        raise step.error(f"bad notation: {e.message}", e.column - 1) from None
    return checked(game, move, step)


# -- paged move lists ------------------------------------------------------------
def moves_page(game: Game, start: int, count: int) -> list[Move]:
    """Moves start .. start+count-1 of ``legal_moves()`` (0-based), without listing those before
    where the game can skip them (``Game.legal_moves_from``)."""
    if count <= 0:
        return []
    return list(islice(game.legal_moves_from(start), count))


__all__ = ["Step", "StepAnswer", "StepError", "StepExpander", "StepOption", "after_complete", "checked",
           "complete_move", "moves_page", "next_steps", "one_word_steps", "segment"]
