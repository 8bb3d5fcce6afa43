"""What the sparring partners over a game's C playout core, `fastmc` and `treemc`, do alike around the core.

A core holds its own model of the position, not the rules (engine/games/<game>/_playout_core.c): a move it
ranks first may still be refused, so a partner plays its core's answer only once ``check_move`` accepts it,
else its next best, and a legal move in the end. Where a game has no core here (not compiled, or none
written) the partner hands the move to a player that needs none, and says so."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable

from protocol.errors import IllegalMoveError
from protocol.game import Game
from protocol.messages import Info
from protocol.moves import Move

from .base import Limits, PlayOptions, Strategy


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


def played_instead(player: Strategy, why: str, game: Game, limits: Limits, stop: threading.Event,
                   report: Callable[[Info], None], rng: random.Random, options: PlayOptions) -> Move:
    """`player`'s move, `why` said first in an `info string` (once a move): a partner without its core here."""
    report(Info(string=why))
    return player.choose(game, limits, stop, report, rng, options)
