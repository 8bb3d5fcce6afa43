"""The last word of the rules on a move a C core chose: the sparring partners `fastmc` and `treemc` play
their core's answer only once ``check_move`` accepts it.

A core holds its own model of the position, not the rules (engine/games/<game>/_playout_core.c): a move it
ranks first may still be refused. The partner then plays its next best, and a legal move in the end."""

from __future__ import annotations

from collections.abc import Callable

from protocol.errors import IllegalMoveError
from protocol.game import Game
from protocol.messages import Info
from protocol.moves import Move


def first_accepted(game: Game, ranked: list[Move], report: Callable[[Info], None], who: str) -> Move:
    """The first of `ranked` the rules accept (its canonical form); else the first legal move. Each refusal,
    and the fall-back, is said in an `info string` that names the strategy `who`."""
    for move in ranked:
        try:
            return game.check_move(move)
        except IllegalMoveError as e:
            report(Info(string=f"{who}: the core's move {move} is illegal ({e.reason}); trying the next"))
    fallback = next(iter(game.legal_moves()))
    report(Info(string=f"{who} fell back to {fallback}"))
    return fallback
