"""Step-by-step move entry: the legal next steps of a partly entered move (SPEC 9.11).

A GUI that knows no rules builds a move one click at a time: HARI slides one by
one and then the play, an ISAAC removal and then its new score, any other move
in one step. ``next_steps(game, words)`` checks the steps entered so far and
answers every legal next step, marking those that complete a move. It is exact:
expanding the steps from the empty prefix yields exactly ``legal_moves()``,
every offered step leads to at least one legal move, and an answer is bounded
by the choices of one step (never their product). Legality is always the game
module's (``check_move``, HARI ``slide_ends``/``playable_lengths``, ISAAC
``removal_options``/``new_score_choices``); this module only walks it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import islice
from typing import TYPE_CHECKING, cast

from .board import ALL_CELLS, DARK, LENGTHS, LIGHT, VALUE, Segment, iter_placements
from .errors import GameOverError, IllegalMoveError, NotationError
from .game import Game
from .moves import PASS, HariMove, Move, Remove, Slide
from .notation import parse_segment

if TYPE_CHECKING:  # the game modules are imported by whoever built the game, not here
    from .hari import HariGame
    from .isaac import IsaacGame

JOINER = {"isaac": ":", "foundations": "", "hari": ","}
"""How a prefix and a completing option join into the move's notation, per game."""


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


def complete_move(game_name: str, prefix: str, option: str) -> str:
    """The move an option ending in `*` completes: the prefix and the option joined by the game's notation."""
    return option if not prefix else prefix + JOINER[game_name] + option


@dataclass
class _Step:
    word_index: int
    number: int
    offset: int
    text: str

    def error(self, message: str, offset: int = 0) -> StepError:
        return StepError(self.word_index, self.number, self.offset + offset, self.text, message)


def _split(game_name: str, words: Sequence[str]) -> list[_Step]:
    """The steps of `words`; a word may hold several joined as the prefix is written (`a,b` / `xc3c7:36`)."""
    sep = {"isaac": ":", "hari": ","}.get(game_name)
    steps: list[_Step] = []
    for i, word in enumerate(words):
        offset = 0
        for part in word.split(sep) if sep else [word]:
            step = _Step(i, len(steps) + 1, offset, part)
            if not part:
                raise step.error(f"empty step (a stray {sep!r})")
            steps.append(step)
            offset += len(part) + 1
    return steps


def next_steps(game: Game, words: Sequence[str]) -> StepAnswer:
    """Check the steps `words` entered so far in `game`'s position; answer the legal next steps.

    Raises StepError naming the first step that is malformed, illegal, or
    follows a completed move. The game is not changed.
    """
    steps = _split(game.name, words)
    if game.is_over():
        if steps:
            raise steps[0].error("the game is over; no step is legal")
        return StepAnswer("", ())
    if game.name == "hari":
        return _hari(cast("HariGame", game), steps)
    if game.name == "isaac":
        return _isaac(cast("IsaacGame", game), steps)
    return _single_step(game, steps)  # FOUNDATIONS, and any game whose moves are one word


def _checked(game: Game, move: Move, step: _Step) -> Move:
    """`game.check_move(move)`, its IllegalMoveError turned into this step's StepError."""
    try:
        return game.check_move(move)
    except GameOverError:
        raise step.error("the game is over") from None
    except IllegalMoveError as e:
        raise step.error(f"illegal: {e.reason}") from None


def _segment(step: _Step, text: str, offset: int = 0) -> Segment:
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


def _after_complete(steps: list[_Step], done: int) -> None:
    if len(steps) > done:
        raise steps[done].error("the move is already complete; no step may follow")


# -- FOUNDATIONS and ISAAC placements: one step per move -------------------------
def _single_step(game: Game, steps: list[_Step]) -> StepAnswer:
    if not steps:
        return StepAnswer("", tuple(StepOption(str(m), True) for m in game.legal_moves()))
    _after_complete(steps, 1)
    move = _parse_whole(game, steps[0])
    return StepAnswer(str(move), (), move)


def _parse_whole(game: Game, step: _Step) -> Move:
    from .notation import parse_move

    try:
        move = parse_move(game.name, step.text)
    except NotationError as e:
        raise step.error(f"bad notation: {e.message}", e.column - 1) from None
    return _checked(game, move, step)


# -- ISAAC: a placement, or a removal then its new score -----------------------
def _isaac(game: IsaacGame, steps: list[_Step]) -> StepAnswer:
    if game.phase == "place":
        return _single_step(game, steps)
    if not steps:
        removals = game.removal_options()
        if not removals:
            return StepAnswer("", (StepOption("pass", True),))
        return StepAnswer("", tuple(StepOption(f"x{seg.name}", False) for seg, _ in removals))
    first = steps[0]
    if first.text == "pass":
        _after_complete(steps, 1)
        return StepAnswer("pass", (), _checked(game, PASS, first))
    if not first.text.startswith("x"):
        raise first.error("bad notation: expected a removal (x and a segment, e.g. xc3c7) or pass")
    seg = _segment(first, first.text[1:], 1)
    score = game.scores[game.turn]
    _checked(game, Remove(seg, score), first)  # staying at the score is always allowed: this checks the piece
    prefix = f"x{seg.name}"
    if len(steps) == 1:
        return StepAnswer(prefix, tuple(StepOption(str(t), True) for t in game.new_score_choices(seg)))
    second = steps[1]
    _after_complete(steps, 2)
    if not second.text.isdigit():
        raise second.error("bad notation: expected the new score, a whole number")
    move = _checked(game, Remove(seg, int(second.text)), second)
    return StepAnswer(str(move), (), move)


# -- HARI: slides one by one, then the play -------------------------------------
def _hari(game: HariGame, steps: list[_Step]) -> StepAnswer:
    mover = game.turn
    lengths = game.playable_lengths(mover)
    slides: list[Slide] = []
    for index, step in enumerate(steps):
        if ">" not in step.text:
            move = _hari_play(game, tuple(slides), step)
            _after_complete(steps, index + 1)
            return StepAnswer(str(move), (), move)
        slide = _slide(step)
        if any(s.start is slide.start for s in slides):
            raise step.error(f"illegal: the piece on {slide.start} already slid this turn (each piece slides once)")
        slides.append(slide)
        if lengths:  # check the slides so far, followed by the most permissive play (a discard of the longest)
            checked = _checked(game, HariMove(tuple(slides), None, lengths[-1]), step)
            assert isinstance(checked, HariMove)
            slides = list(checked.slides)
        else:
            _checked(game, HariMove(tuple(slides), None, 3), step)  # raises: the mover must pass
    if not lengths:
        return StepAnswer("", (StepOption("pass", True),))
    return StepAnswer(",".join(map(str, slides)), _hari_options(game, slides, lengths))


def _slide(step: _Step) -> Slide:
    start_text, _, end_text = step.text.partition(">")
    start = _segment(step, start_text)
    if end_text == "off":
        return Slide(start, None)
    return Slide(start, _segment(step, end_text, len(start_text) + 1))


def _hari_play(game: HariGame, slides: tuple[Slide, ...], step: _Step) -> Move:
    text = step.text
    if text == "pass":
        if slides:
            raise step.error("pass cannot follow slides")
        return _checked(game, PASS, step)
    if text.startswith("x"):
        if not text[1:].isdigit() or int(text[1:]) not in LENGTHS:
            raise step.error("bad notation: a discard is x and a length 3..7, e.g. x4", 1)
        return _checked(game, HariMove(slides, None, int(text[1:])), step)
    return _checked(game, HariMove(slides, _segment(step, text), 0), step)


def _hari_options(game: HariGame, slides: list[Slide], lengths: list[int]) -> tuple[StepOption, ...]:
    """Further slides that some play can still follow, then every play, in the rules' order."""
    from .hari import slide_ends  # loaded already: `game` is a HARI game

    occupied = 0
    for color in (DARK, LIGHT):
        for seg in game.pieces(color):
            occupied |= seg.mask
    moved = {s.start for s in slides}
    value = sum(s.start.value for s in slides)
    for slide in slides:
        occupied ^= slide.start.mask
        if slide.end is not None:
            occupied |= slide.end.mask
    budget = VALUE[lengths[-1]]
    options: list[StepOption] = []
    for seg in game.pieces(game.turn):
        if seg in moved or value + seg.value > budget:
            continue
        for end in slide_ends(seg, occupied):
            options.append(StepOption(str(Slide(seg, end)), False))
    empty = ~occupied & ALL_CELLS
    for n in lengths:
        if VALUE[n] < value:
            continue
        options.append(StepOption(f"x{n}", True))
        options.extend(StepOption(seg.name, True) for seg in iter_placements(empty, n))
    return tuple(options)


# -- paged move lists ------------------------------------------------------------
def moves_page(game: Game, start: int, count: int) -> list[Move]:
    """Moves start .. start+count-1 of ``legal_moves()`` (0-based), without listing those before.

    HARI skips whole slide sets by their play counts, so a page deep in a
    million-move list costs one walk over the slide sets, not over the moves.
    """
    if count <= 0:
        return []
    hari = cast("HariGame", game)
    if game.name == "hari" and not game.is_over() and hari.playable_lengths(game.turn):
        page: list[Move] = []
        for slide_set in hari.slide_sets():
            if start >= slide_set.plays:
                start -= slide_set.plays
                continue
            for move in islice(hari.plays_after(slide_set), start, None):
                page.append(move)
                if len(page) == count:
                    return page
            start = 0
        return page
    return list(islice(game.legal_moves(), start, start + count))


__all__ = ["JOINER", "StepAnswer", "StepError", "StepOption", "complete_move", "moves_page", "next_steps"]
