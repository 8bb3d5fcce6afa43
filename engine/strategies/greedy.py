"""Strategy `greedy`: the best immediate gain by one simple evaluation per game, no look-ahead.

A sparring partner, predictable on purpose; SPEC.md quotes these rules:

- ISAAC, placement phase: place the longest piece that fits.
- ISAAC, scoring phase: the removal giving the highest new score; among equal
  scores the piece with the lowest cells (lower end first, then upper end).
- FOUNDATIONS: place the piece of the highest value (3:1, 4:2, 5:3, 6:4, 7:6 points)
  among the legal placements, whatever its level.
- HARI: maximise (value of the piece placed) - (value of own pieces slid off the
  board); a discard places nothing (value 0). Slides are made only when they let
  a piece of higher value be placed than without them; among equal gains the
  fewest slides, then the first slide set in canonical order. A discard, when
  every play is a discard, discards the shortest piece allowed.

- Any other registered game: the move that leaves the mover's own measure
  (``Game.scores``) best at once, higher or lower as its registry entry says.

Ties not settled above are broken uniformly at random by the generator seeded
from the Seed option, so greedy is reproducible but not one fixed game.
The pass/game-over cases never reach a strategy (the front end answers them).
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable

from protocol import registry
from protocol.board import VALUE, iter_placements
from protocol.game import Game
from protocol.games.foundations.rules import FoundationsGame
from protocol.games.hari.rules import HariGame, SlideSet
from protocol.games.isaac.rules import IsaacGame
from protocol.messages import Info
from protocol.moves import PASS, HariMove, Move, Place, Remove

from .base import Limits

POLL_EVERY = 256
"""Moves (or HARI slide sets) examined between two looks at the stop event."""

Key = tuple[int, ...]
Picker = Callable[[Game, threading.Event, random.Random], tuple[Move, int]]
_Option = tuple[int, int, SlideSet, int | None]
"""HARI: (gain, -number of slides, slide set, length placed or None for a discard)."""


class GreedyStrategy:
    """Picks the move with the best immediate gain (see the module docstring)."""

    name = "greedy"

    def choose(self, game: Game, limits: Limits, stop: threading.Event,
               report: Callable[[Info], None], rng: random.Random) -> Move:
        pick = _PICKERS.get(type(game), _by_measure)
        move, examined = pick(game, stop, rng)
        report(Info(depth=1, nodes=examined, pv=[str(move)]))
        return move


def _isaac_key(move: Move) -> Key:
    """New score then lowest cells (removal); piece length (placement)."""
    if isinstance(move, Remove):
        return (move.score, -move.segment.lo, -move.segment.hi)
    if isinstance(move, Place):
        return (move.segment.length,)
    return (-1,)


def _foundations_key(move: Move) -> Key:
    """Value of the piece placed, whatever its level."""
    return (VALUE[move.segment.length],) if isinstance(move, Place) else (-1,)


def _by_measure(game: Game, stop: threading.Event, rng: random.Random) -> tuple[Move, int]:
    """Any other game: the move leaving the mover's measure best (its registry entry says which way)."""
    me = game.turn
    sign = -1 if registry.entry(game.name).lower_score_wins else 1

    def key(move: Move) -> Key:
        game.push(move)
        try:
            return (sign * game.scores[me],)
        finally:
            game.pop()
    return _best_by_key(game, key, stop, rng)


def _best_by_key(game: Game, key: Callable[[Move], Key], stop: threading.Event,
                 rng: random.Random) -> tuple[Move, int]:
    """(move, moves examined): a uniformly random move among those with the highest key."""
    best_key: Key | None = None
    best: list[Move] = []
    examined = 0
    for move in list(game.legal_moves()):
        examined += 1
        k = key(move)
        if best_key is None or k > best_key:
            best_key, best = k, [move]
        elif k == best_key:
            best.append(move)
        if examined % POLL_EVERY == 0 and stop.is_set():
            break
    return rng.choice(best), examined


def _hari_move(game: Game, stop: threading.Event, rng: random.Random) -> tuple[Move, int]:
    """(move, slide sets examined) for HARI, using the game's slide-set API (no full move list)."""
    assert isinstance(game, HariGame)
    playable = game.playable_lengths(game.turn)
    if not playable:  # nothing left that may be played (a longer piece was played): the rules' pass
        return PASS, 0
    top = max(VALUE[n] for n in playable)
    best: _Option | None = None
    examined = 0
    for slide_set in game.slide_sets():
        examined += 1
        option = _best_play_after(game.lengths_after(slide_set), slide_set)
        if option is not None and (best is None or option[:2] > best[:2]):
            best = option
        if examined == 1 and best is not None and best[0] == top:
            break  # no slide can beat placing the most valuable piece without slides
        if examined % POLL_EVERY == 0 and stop.is_set():
            break
    assert best is not None, "a player who need not pass has a play"
    _, _, slide_set, length = best
    if length is None:
        discard = game.lengths_after(slide_set)[0]
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


def _keyed(key: Callable[[Move], Key]) -> Picker:
    return lambda game, stop, rng: _best_by_key(game, key, stop, rng)


_PICKERS: dict[type[Game], Picker] = {
    IsaacGame: _keyed(_isaac_key),
    FoundationsGame: _keyed(_foundations_key),
    HariGame: _hari_move,
}
"""The greedy rule of each game SPEC.md quotes; other registered games fall back to _by_measure."""
