"""Answers to the GUI commands `steps`, `state` and paged `moves` (SPEC 9.11).

Each is computed from the session's current position at once, like `d`, so a
GUI gets them also while a search runs. Bad input raises CommandError naming
the word and its column in the line as sent.
"""

from __future__ import annotations

import json
import re

from protocol.game import Game
from protocol.messages import whole_number
from protocol.state import state_fields

from .session import CommandError

MAX_PAGE = 1000
"""Most moves one `moves from K max N` answers: 1000 HARI moves of at most 64 characters stay under MAX_LINE."""


def _words(line: str) -> list[tuple[str, int]]:
    """The words after the command word, each with its 1-based column."""
    return [(m.group(), m.start() + 1) for m in re.finditer(r"[^ \t]+", line)][1:]


def steps_answer(game: Game, line: str) -> str:
    """`steps <prefix> <option>...` for the steps on `line` (see protocol.steps)."""
    from protocol.steps import StepError, next_steps

    words = _words(line)
    try:
        answer = next_steps(game, [w for w, _ in words])
    except StepError as e:
        column = words[e.word_index][1] + e.offset
        raise CommandError(f"steps: step {e.step} {e.text!r} at column {column}: {e.message}") from None
    return answer.line()


def moves_page_answer(game: Game, line: str) -> str | None:
    """The answer to `moves count` or `moves from K max N`; None for a bare `moves` (streamed by a job)."""
    words = _words(line)
    if not words:
        return None
    if words[0][0] == "count":
        if len(words) > 1:
            raise CommandError(f"moves count: unexpected {words[1][0]!r} at column {words[1][1]}")
        return f"moves total {game.count_legal_moves()}"
    if words[0][0] != "from":
        raise CommandError(f"moves: expected nothing, 'count' or 'from <k> max <n>' at column {words[0][1]}, "
                           f"found {words[0][0]!r}")
    end = len(line.rstrip()) + 1
    start = _number(words, 1, "from", 0, end)
    if len(words) < 3 or words[2][0] != "max":
        where = words[2] if len(words) > 2 else ("end of line", end)
        raise CommandError(f"moves from {start}: expected 'max <n>' at column {where[1]}, found {where[0]!r}")
    count = _number(words, 3, "max", 1, end)
    if count > MAX_PAGE:
        raise CommandError(f"moves: max {count} at column {words[3][1]} is more than {MAX_PAGE}")
    if len(words) > 4:
        raise CommandError(f"moves: unexpected {words[4][0]!r} at column {words[4][1]}")
    from protocol.steps import moves_page

    return " ".join(["moves", *map(str, moves_page(game, start, count))])


def _number(words: list[tuple[str, int]], index: int, after: str, minimum: int, end: int) -> int:
    if index >= len(words):
        raise CommandError(f"moves: '{after}' needs a whole number at column {end}")
    word, column = words[index]
    try:
        value = whole_number(word)
    except ValueError:
        raise CommandError(f"moves: '{after}' needs a whole number at column {column}, not {word!r}") from None
    if value < minimum:
        raise CommandError(f"moves: '{after}' must be at least {minimum} at column {column}, not {value}")
    return value


def state_answer(game: Game, line: str) -> str:
    """`state <JSON>`: the position and its outcome in one machine-readable line."""
    words = _words(line)
    if words:
        raise CommandError(f"state takes no arguments; found {words[0][0]!r} at column {words[0][1]}")
    return "state " + json.dumps(state_fields(game.state()), separators=(",", ":"))
