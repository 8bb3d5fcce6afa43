"""ISAAC's step-by-step move entry (SPEC 9.11): a placement in one step, a removal then its new score.

Named by ISAAC's registry entry (``step_expander``); the steps are joined by ':'
(``xc3c7`` then ``36`` is the move ``xc3c7:36``). Legality is IsaacGame's
(``removal_options``, ``new_score_choices``, ``check_move``).
"""

from __future__ import annotations

from typing import cast

from protocol.game import Game
from protocol.moves import PASS, Remove
from protocol.state import Phase
from protocol.steps import Step, StepAnswer, StepOption, after_complete, checked, one_word_steps, segment

from .rules import IsaacGame


def isaac_steps(game: Game, steps: list[Step]) -> StepAnswer:
    """The next steps of an ISAAC move: placements are one word; a removal is `x<segment>` then the new score."""
    isaac = cast(IsaacGame, game)
    if isaac.phase == Phase.PLACE:
        return one_word_steps(isaac, steps)
    if not steps:
        removals = isaac.removal_options()
        if not removals:
            return StepAnswer("", (StepOption("pass", True),))
        return StepAnswer("", tuple(StepOption(f"x{seg.name}", False) for seg, _ in removals))
    first = steps[0]
    if first.text == "pass":
        after_complete(steps, 1)
        return StepAnswer("pass", (), checked(isaac, PASS, first))
    if not first.text.startswith("x"):
        raise first.error("bad notation: expected a removal (x and a segment, e.g. xc3c7) or pass")
    seg = segment(first, first.text[1:], 1)
    score = isaac.scores[isaac.turn]
    checked(isaac, Remove(seg, score), first)  # staying at the score is always allowed: this checks the piece
    prefix = f"x{seg.name}"
    if len(steps) == 1:
        return StepAnswer(prefix, tuple(StepOption(str(t), True) for t in isaac.new_score_choices(seg)))
    second = steps[1]
    after_complete(steps, 2)
    if not second.text.isdigit():
        raise second.error("bad notation: expected the new score, a whole number")
    move = checked(isaac, Remove(seg, int(second.text)), second)
    return StepAnswer(str(move), (), move)


__all__ = ["isaac_steps"]
