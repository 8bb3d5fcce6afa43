"""What a HARI game end, or a position judged by the board values alone, is worth to a side."""

from __future__ import annotations

import math

from engine.search.winchance import logistic
from protocol.board import VALUE
from protocol.games.hari.rules import HariGame


def terminal_value(game: HariGame, color: int, wdl_weight: float, margin_scale: float) -> float:
    """1/0.5/0 for `color` (share `wdl_weight`), blended with the board-value margin squashed by
    `margin_scale` (a bigger win is a safer one)."""
    result = game.result()
    assert result is not None, "only finished games are valued this way"
    scores = result.scores
    margin = scores[color] - scores[1 - color]
    wdl = 0.5 if result.winner is None else (1.0 if result.winner == color else 0.0)
    return wdl_weight * wdl + (1 - wdl_weight) * (0.5 + 0.5 * math.tanh(margin / margin_scale))


def static_value(game: HariGame, color: int, margin_scale: float) -> float:
    """Win chance for `color` from the board values alone (a playout cut short)."""
    margin = game.board_value(color) - game.board_value(1 - color)
    return logistic(margin / margin_scale)


def decided(game: HariGame) -> int | None:
    """1 if the side to move has won whatever both sides play from here, -1 if it has lost, None otherwise.

    A proof, not an estimate: a side's board value can only fall by its own slides (none is
    ever forced: a turn may slide nothing, and a discard is always possible), and can rise at
    most by the value of the pieces it may still play. So a side whose board value exceeds what
    the other holds on the board and may still play has won."""
    me = game.turn
    mine, theirs = game.board_value(me), game.board_value(1 - me)
    if mine > theirs + playable_value(game, 1 - me):
        return 1
    if theirs > mine + playable_value(game, me):
        return -1
    return None


def playable_value(game: HariGame, color: int) -> int:
    """The value of the pieces `color` may still play (its hand, no shorter than its last play)."""
    hand = game.hand(color)
    return sum(VALUE[n] * hand[n] for n in game.playable_lengths(color))
