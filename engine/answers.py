"""Answers to the GUI commands `steps`, `state` and paged `moves` (SPEC 9.11).

Each is computed from the session's current position at once, like `d`, so a
GUI gets them also while a search runs. Bad input raises CommandError naming
the word and its column in the line as sent.
"""

from __future__ import annotations

import json
import re

from protocol.board import COLOR_LETTER, DARK, LIGHT, cell_name, hand_value
from protocol.game import Game
from protocol.messages import whole_number

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
    return "state " + json.dumps(state_fields(game), separators=(",", ":"))


def state_fields(game: Game) -> dict[str, object]:
    """The `state` object's fields (SPEC 9.11), read from the position string and the game's result.

    Provisional until protocol.state lands: the record gives hands, passes,
    phase and ISAAC scores; the counters and the measures follow SPEC 3-5.
    """
    from protocol.isaac import counter_cell_for
    from protocol.notation import parse_position

    text = game.position()
    rec = parse_position(text)
    result = game.result()
    counters: list[str | None] | None = None
    if rec.game == "isaac":
        assert rec.scores is not None
        scores = rec.scores
        cells = [counter_cell_for(c, rec.scores[c]) if rec.phase == "score" else None for c in (DARK, LIGHT)]
        counters = [None if c is None else cell_name(c) for c in cells]
    elif rec.game == "foundations":
        scores = (hand_value(rec.hands[DARK]), hand_value(rec.hands[LIGHT]))
    else:
        dark, light = (sum(e.segment.value for e in rec.pieces[c]) for c in (DARK, LIGHT))
        scores = (dark, light)
    return {
        "game": rec.game,
        "position": text,
        "over": result is not None,
        "turn": COLOR_LETTER[game.turn],
        "phase": rec.phase or "play",
        "scores": list(result.scores if result else scores),
        "hands": [[n for n, k in enumerate(rec.hands[c]) for _ in range(k)] for c in (DARK, LIGHT)],
        "passes": "".join(COLOR_LETTER[c] for c in rec.passes) or "-",
        "counters": counters,
        "result": result.text if result else None,
        "termination": _termination(rec.game, result.scores) if result else None,
        "reason": result.reason if result else None,
    }


def _termination(game: str, scores: tuple[int, int]) -> str:
    """How the rules ended the game: 'reached-100' (ISAAC) or 'both-passed'."""
    return "reached-100" if game == "isaac" and max(scores) >= 100 else "both-passed"
