"""HARI's step-by-step move entry (SPEC 9.11): slides one by one, then the play.

Named by HARI's registry entry (``step_expander``); the steps are joined by ','
(``d4d8>d5d9``, ``a0a2``: the move ``d4d8>d5d9,a0a2``). Each offered slide can
still be followed by a legal play. Legality is HariGame's (``check_move``,
``playable_lengths``, ``slide_ends``).
"""

from __future__ import annotations

from typing import cast

from protocol.board import ALL_CELLS, DARK, LENGTHS, LIGHT, VALUE, iter_placements
from protocol.game import Game
from protocol.moves import PASS, HariMove, Move, Slide
from protocol.steps import Step, StepAnswer, StepOption, after_complete, checked, segment

from .rules import HariGame, slide_ends


def hari_steps(game: Game, steps: list[Step]) -> StepAnswer:
    """The next steps of a HARI move: further slides that a play can follow, then every play."""
    hari = cast(HariGame, game)
    lengths = hari.playable_lengths(hari.turn)
    slides: list[Slide] = []
    for index, step in enumerate(steps):
        if ">" not in step.text:
            move = _play(hari, tuple(slides), step)
            after_complete(steps, index + 1)
            return StepAnswer(str(move), (), move)
        slide = _slide(step)
        if any(s.start is slide.start for s in slides):
            raise step.error(f"illegal: the piece on {slide.start} already slid this turn (each piece slides once)")
        slides.append(slide)
        if lengths:  # check the slides so far, followed by the most permissive play (a discard of the longest)
            found = checked(hari, HariMove(tuple(slides), None, lengths[-1]), step)
            assert isinstance(found, HariMove)
            slides = list(found.slides)
        else:
            checked(hari, HariMove(tuple(slides), None, 3), step)  # raises: the mover must pass
    if not lengths:
        return StepAnswer("", (StepOption("pass", True),))
    return StepAnswer(",".join(map(str, slides)), _options(hari, slides, lengths))


def _slide(step: Step) -> Slide:
    start_text, _, end_text = step.text.partition(">")
    start = segment(step, start_text)
    if end_text == "off":
        return Slide(start, None)
    return Slide(start, segment(step, end_text, len(start_text) + 1))


def _play(game: HariGame, slides: tuple[Slide, ...], step: Step) -> Move:
    text = step.text
    if text == "pass":
        if slides:
            raise step.error("pass cannot follow slides")
        return checked(game, PASS, step)
    if text.startswith("x"):
        if not text[1:].isdigit() or int(text[1:]) not in LENGTHS:
            raise step.error("bad notation: a discard is x and a length 3..7, e.g. x4", 1)
        return checked(game, HariMove(slides, None, int(text[1:])), step)
    return checked(game, HariMove(slides, segment(step, text), 0), step)


def _options(game: HariGame, slides: list[Slide], lengths: list[int]) -> tuple[StepOption, ...]:
    """Further slides that some play can still follow, then every play, in the rules' order."""
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


__all__ = ["hari_steps"]
