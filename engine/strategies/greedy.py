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

Ties not settled above are broken uniformly at random by the generator seeded
from the Seed option, so greedy is reproducible but not one fixed game.
The pass/game-over cases never reach a strategy (the front end answers them).
"""

from __future__ import annotations

from protocol.board import VALUE, iter_placements
from protocol.messages import Info
from protocol.moves import HariMove, Place, Remove

POLL_EVERY = 256
"""Moves (or HARI slide sets) examined between two looks at the stop event."""


class GreedyStrategy:
    """Picks the move with the best immediate gain (see the module docstring)."""

    name = "greedy"

    def choose(self, game, limits, stop, report, rng):
        if game.name == "hari":
            move, examined = _hari_move(game, stop, rng)
        else:
            move, examined = _best_by_key(game, _key_for(game), stop, rng)
        report(Info(depth=1, nodes=examined, pv=[str(move)]))
        return move


def _key_for(game):
    """Higher is better: piece length (ISAAC placement), piece value (FOUNDATIONS),
    new score then lowest cells (ISAAC removal)."""
    if game.name == "foundations":
        return lambda m: (VALUE[m.segment.length],) if isinstance(m, Place) else (-1,)

    def isaac_key(move):
        if isinstance(move, Remove):
            return (move.score, -move.segment.lo, -move.segment.hi)
        if isinstance(move, Place):
            return (move.segment.length,)
        return (-1,)
    return isaac_key


def _best_by_key(game, key, stop, rng):
    """(move, moves examined): a uniformly random move among those with the highest key."""
    best_key, best, examined = None, [], 0
    for move in game.legal_moves():
        examined += 1
        k = key(move)
        if best_key is None or k > best_key:
            best_key, best = k, [move]
        elif k == best_key:
            best.append(move)
        if examined % POLL_EVERY == 0 and stop.is_set():
            break
    return rng.choice(best), examined


def _hari_move(game, stop, rng):
    """(move, slide sets examined) for HARI, using the game's slide-set API (no full move list)."""
    top = max(VALUE[n] for n in game.playable_lengths(game.turn))
    best = None  # (gain, -number of slides, slide_set, length or None for a discard)
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
    _, _, slide_set, length = best
    if length is None:
        discard = game.lengths_after(slide_set)[0]
        return HariMove(slide_set.slides, None, discard), examined
    places = list(iter_placements(slide_set.empty, length))
    return HariMove(slide_set.slides, rng.choice(places), 0), examined


def _best_play_after(allowed, slide_set):
    """(gain, -slides, slide_set, length|None) of the best play after `slide_set`, or None if none.

    `allowed`: the lengths the rules allow after it (HariGame.lengths_after), ascending."""
    lost = sum(s.start.value for s in slide_set.slides if s.end is None)
    if not allowed:
        return None
    for n in reversed(allowed):
        if next(iter_placements(slide_set.empty, n), None) is not None:
            return (VALUE[n] - lost, -len(slide_set.slides), slide_set, n)
    return (-lost, -len(slide_set.slides), slide_set, None)
