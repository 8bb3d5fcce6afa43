"""What the sparring partners `greedy` and `flatmc` play in HARI (SPEC 9.7), with their own fixed
numbers (a yardstick is not tuned along with the search).

- greedy: maximise (value of the piece placed) - (value of own pieces slid off the board); a
  discard places nothing (value 0). Slides are made only when they let a piece of higher value be
  placed than without them; among equal gains the fewest slides, then the first slide set in
  canonical order; the spot at random. A discard, when every play is a discard, discards the
  shortest piece allowed. It reads the game's slide sets, never the whole move list.
- flatmc: playouts play the shortest playable piece snugly, the second-shortest SKIP of the time,
  one own piece slid when nothing fits (playout_policy.py); a game end is worth WDL_WEIGHT
  win/draw/loss and the rest the board-value margin (MARGIN_SCALE points per tanh unit), a playout
  cut short the static guess of value.py.
"""

from __future__ import annotations

import random
import threading

from engine.games.parts import Sparring, narrowed
from protocol.board import VALUE, iter_placements
from protocol.game import Game
from protocol.games.hari.rules import HariGame, SlideSet
from protocol.moves import PASS, HariMove, Move

from . import playout_policy, value

POLL_EVERY = 256
"""Slide sets examined between two looks at the stop event."""
SKIP = 0.1
"""Playouts: chance of the second-shortest length instead of the shortest."""
MARGIN_SCALE = 6.0
WDL_WEIGHT = 0.7
"""A game end's value: this share win/draw/loss, the rest the margin."""

_Option = tuple[int, int, SlideSet, int | None]
"""(gain, -number of slides, slide set, length placed or None for a discard)."""


def greedy_move(game: Game, stop: threading.Event, rng: random.Random) -> tuple[Move, int]:
    """(move, slide sets examined), by the game's slide-set API (no full move list)."""
    hari = narrowed(game, HariGame, "HARI's greedy rule")
    playable = hari.playable_lengths(hari.turn)
    if not playable:  # nothing left that may be played (a longer piece was played): the rules' pass
        return PASS, 0
    top = max(VALUE[n] for n in playable)
    best: _Option | None = None
    examined = 0
    for slide_set in hari.slide_sets():
        examined += 1
        option = _best_play_after(hari.lengths_after(slide_set), slide_set)
        if option is not None and (best is None or option[:2] > best[:2]):
            best = option
        if examined == 1 and best is not None and best[0] == top:
            break  # no slide can beat placing the most valuable piece without slides
        if examined % POLL_EVERY == 0 and stop.is_set():
            break
    assert best is not None, "a player who need not pass has a play"
    _, _, slide_set, length = best
    if length is None:
        discard = hari.lengths_after(slide_set)[0]
        return HariMove(slide_set.slides, None, discard), examined
    places = list(iter_placements(slide_set.empty, length))
    return HariMove(slide_set.slides, rng.choice(places), 0), examined


def _best_play_after(allowed: list[int], slide_set: SlideSet) -> _Option | None:
    """The best play after `slide_set`, or None if none.

    `allowed`: the lengths the rules allow after it (HariGame.lengths_after), ascending."""
    lost = sum(s.start.value for s in slide_set.slides if s.end is None)
    if not allowed:
        return None
    for n in reversed(allowed):
        if next(iter_placements(slide_set.empty, n), None) is not None:
            return (VALUE[n] - lost, -len(slide_set.slides), slide_set, n)
    return (-lost, -len(slide_set.slides), slide_set, None)


def playout_move(game: Game, rng: random.Random) -> Move:
    return playout_policy.playout_move(narrowed(game, HariGame, "HARI's flatmc playouts"), rng, SKIP)


def playout_value(game: Game, color: int) -> float:
    """The end's value (win/draw/loss and margin), or the static guess of a playout cut short."""
    at = narrowed(game, HariGame, "HARI's flatmc value")
    ended = at.is_over()
    return value.terminal_value(at, color, WDL_WEIGHT, MARGIN_SCALE) if ended else value.static_value(at, color, MARGIN_SCALE)


SPARRING = Sparring(greedy=greedy_move, playout_policy=playout_move, playout_value=playout_value)
