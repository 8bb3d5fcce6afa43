"""What the sparring partners `greedy` and `flatmc` play in FOUNDATIONS (SPEC 9.7), with their own
fixed numbers (a yardstick is not tuned along with the search).

- greedy: the piece of the highest value (3:1, 4:2, 5:3, 6:4, 7:6 points) among the legal
  placements, whatever its level; ties at random.
- flatmc: playouts place the shortest allowed piece on the snuggest of SAMPLE drawn spots, another
  length DEVIATE of the time (playout_policy.py); a game end is worth WDL_WEIGHT win/draw/loss and
  the rest the hand-value margin (MARGIN_SCALE points per tanh unit), a playout cut short the
  static guess of value.py.
"""

from __future__ import annotations

import random
import threading

from engine.games.generic import Key, best_by_key
from engine.games.parts import Sparring, narrowed
from protocol.board import VALUE
from protocol.game import Game
from protocol.games.foundations.rules import FoundationsGame
from protocol.moves import Move, Place

from . import playout_policy, value

SAMPLE = 12
"""Playouts: the snuggest of this many drawn placements."""
DEVIATE = 0.2
MARGIN_SCALE = 8.0
WDL_WEIGHT = 0.7
"""A game end's value: this share win/draw/loss, the rest the margin."""


def greedy_key(move: Move) -> Key:
    """Value of the piece placed, whatever its level."""
    return (VALUE[move.segment.length],) if isinstance(move, Place) else (-1,)


def greedy_move(game: Game, stop: threading.Event, rng: random.Random) -> tuple[Move, int]:
    return best_by_key(game, greedy_key, stop, rng)


def playout_move(game: Game, rng: random.Random) -> Move:
    move = playout_policy.playout_move(narrowed(game, FoundationsGame, "FOUNDATIONS' flatmc playouts"), rng,
                                       SAMPLE, DEVIATE)
    assert move is not None, "a playout moves only in a game that is not over"
    return move


def playout_value(game: Game, color: int) -> float:
    """The end's value (win/draw/loss and margin), or the static guess of a playout cut short."""
    at = narrowed(game, FoundationsGame, "FOUNDATIONS' flatmc value")
    ended = at.is_over()
    return value.terminal_value(at, color, WDL_WEIGHT, MARGIN_SCALE) if ended else value.static_value(at, color, MARGIN_SCALE)


SPARRING = Sparring(greedy=greedy_move, playout_policy=playout_move, playout_value=playout_value)
