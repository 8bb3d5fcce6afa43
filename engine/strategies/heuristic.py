"""Strategy `heuristic`: what a thoughtful beginner plays, one ply deep, no playouts.

A sparring partner that actually plays the games (SPEC.md 9.7 quotes these rules):

- FOUNDATIONS: look only at the shortest piece allowed on the current level and
  the next length (a long piece early ends the level's ascending run); place it
  where, afterwards, the most of our own remaining hand still fits and the least
  of the opponent's does (space counted by packing the hands snugly in order),
  then snugly (fewest free neighbours).
- HARI: every playable length, placed on one of its snuggest spots, or one own
  piece slid to make room when that lets a scarce length in; each candidate is
  judged after the move by a race of both hands for the space left (each side in
  turn puts its next piece on its snuggest spot; engine/search/hari_eval.py):
  our board value minus the opponent's at its end. Shorter pieces given up count
  against a play by themselves (they drop out of the race); a discard is a last resort.
- ISAAC: placement: among the best placements by the line guess, the one whose
  position evaluates best for us (value placed, pieces, potential); scoring: the
  removal after which the scoring evaluation is best for us.
- Any other registered game: every legal move, judged by the measures
  (``Game.scores``) it leaves: ours minus the opponent's, the better way round
  as the game's registry entry says; a move that wins outright comes first.

Ties are broken by the generator seeded from the Seed option.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Any

from protocol import registry
from protocol.board import LENGTHS, hand_value, iter_placements
from protocol.foundations import FoundationsGame
from protocol.game import Game
from protocol.hari import HariGame
from protocol.isaac import IsaacGame
from protocol.messages import Info
from protocol.moves import PASS, HariMove

from .base import Limits

POLL_EVERY = 32
"""Candidates judged between two looks at the stop event."""
SNUG_PER_LENGTH = 8
"""HARI and FOUNDATIONS: placements per length judged fully (the snuggest ones)."""
ISAAC_TOP = 12
"""ISAAC: placements (best by the line guess) judged by the evaluation."""
WIN = 1e6
"""The value of a move that ends the game won (minus: lost)."""

Scored = list[tuple[float, Any]]
Ranker = Callable[[Any, random.Random, threading.Event | None], Scored]


class HeuristicStrategy:
    """One-ply evaluation with knowledge of space; see the module docstring."""

    name = "heuristic"

    def choose(self, game: Any, limits: Limits, stop: threading.Event,
               report: Callable[[Info], None], rng: random.Random) -> Any:
        scored = ranked_moves(game, rng, stop)
        move = scored[0][1]
        report(Info(depth=1, nodes=len(scored), pv=[str(move)]))
        return move


def ranked_moves(game: Any, rng: random.Random, stop: threading.Event | None = None) -> list[tuple[float, Any]]:
    """(score, move) best first for the side to move; never empty (PASS when nothing else)."""
    scored = _RANKERS.get(type(game), _by_measure)(game, rng, stop)
    if not scored:
        return [(0.0, next(iter(game.legal_moves()), PASS))]
    scored.sort(key=lambda kv: -kv[0])
    return scored


def _stopped(stop: threading.Event | None, count: int) -> bool:
    return stop is not None and count % POLL_EVERY == 0 and stop.is_set()


# -- HARI ------------------------------------------------------------------------

def _hari(game: Any, rng: random.Random, stop: threading.Event | None) -> list[tuple[float, Any]]:
    from engine.search import hari_search
    from engine.search.hari_eval import contest_margin
    from engine.search.space import NEIGHBOURS

    base = next(game.slide_sets(), None)
    if base is None:
        return [(0.0, PASS)]
    me, empty = game.turn, base.empty
    lengths = game.playable_lengths(me)
    hand = game.hand(me)
    moves: list[Any] = []
    counts: dict[int, int] = {}
    for n in lengths:
        spots = sorted(iter_placements(empty, n),
                       key=lambda seg: ((NEIGHBOURS[seg.index] & empty).bit_count(), rng.random()))
        counts[n] = len(spots)
        moves.extend(HariMove((), seg, 0) for seg in spots[:SNUG_PER_LENGTH])
    if not moves:
        moves.append(HariMove((), None, lengths[0]))
    opp_lengths = game.playable_lengths(1 - me)
    opp_next = [k for k in opp_lengths for _ in range(game.hand(1 - me)[k])][:4]
    moves.extend(m for _, m in hari_search._slide_candidates(game, me, empty, lengths, hand, counts, opp_next))
    scored: list[tuple[float, Any]] = []
    for i, move in enumerate(moves):
        if _stopped(stop, i) and scored:
            break
        game.push(move)
        try:
            value = float(contest_margin(game, me))
        finally:
            game.pop()
        scored.append((value + 0.01 * rng.random(), move))
    return scored


# -- FOUNDATIONS -------------------------------------------------------------------

def foundations_room(game: Any, color: int) -> float:
    """Value in `color`'s hand that no longer fits on its level (lower is better for `color`).

    Upper levels need two own supports; a beginner counts only free cells there too."""
    from engine.search.space import pack_value

    hand = game.hand(color)
    lengths = [n for n in LENGTHS if n >= game.min_length(color) for _ in range(hand[n])]
    free = game.free_cells(game.level(color))
    placed, _ = pack_value(free, lengths)
    return float(hand_value(hand) - placed)


def _foundations(game: Any, rng: random.Random, stop: threading.Event | None) -> list[tuple[float, Any]]:
    from engine.search.space import NEIGHBOURS

    moves = list(game.legal_moves())
    if not moves or moves[0] is PASS:
        return [(0.0, PASS)]
    me = game.turn
    shortest = min(m.segment.length for m in moves)
    allowed = sorted({m.segment.length for m in moves})[:2]
    groups: dict[tuple[int, int], list[tuple[float, Any]]] = {}
    free_by_level: dict[int, int] = {}
    for m in moves:
        if m.segment.length in allowed:
            free = free_by_level.get(m.level)
            if free is None:
                free = free_by_level[m.level] = game.free_cells(m.level)
            snug = (NEIGHBOURS[m.segment.index] & free).bit_count()
            groups.setdefault((m.segment.length, m.level), []).append((snug + rng.random(), m))
    chosen: list[tuple[float, Any]] = []
    for group in groups.values():
        group.sort(key=lambda kv: kv[0])
        chosen.extend(group[:SNUG_PER_LENGTH])
    scored: list[tuple[float, Any]] = []
    for i, (snug, move) in enumerate(chosen):
        if _stopped(stop, i) and scored:
            break
        game.push(move)
        try:
            value = foundations_room(game, 1 - me) - foundations_room(game, me)
        finally:
            game.pop()
        value -= 0.8 * (move.segment.length - shortest) + 0.05 * snug
        scored.append((value, move))
    return scored


# -- ISAAC -----------------------------------------------------------------------------

def _isaac(game: Any, rng: random.Random, stop: threading.Event | None) -> list[tuple[float, Any]]:
    from engine.search import isaac_knowledge as K

    me = game.turn
    if game.phase == "score":
        moves: list[Any] = list(K.removal_candidates(game, wide=True))
        if not moves:
            return [(0.0, PASS)]
        evaluate: Callable[[Any], float] = K.scoring_eval
    else:
        moves = [m for m, _ in K.placement_candidates(game)[:ISAAC_TOP]]
        evaluate = K.placement_eval
    scored: list[tuple[float, Any]] = []
    for i, move in enumerate(moves):
        if _stopped(stop, i) and scored:
            break
        game.push(move)
        try:
            if game.is_over():
                result = game.result()
                value = 0.0 if result.winner is None else (WIN if result.winner == me else -WIN)
            else:
                value = evaluate(game)
                if game.turn != me:
                    value = -value
        finally:
            game.pop()
        scored.append((value + 0.001 * rng.random(), move))
    return scored



# -- any other registered game ------------------------------------------------------------

def _by_measure(game: Any, rng: random.Random, stop: threading.Event | None) -> Scored:
    """Every legal move, valued by the measure margin it leaves (see the module docstring)."""
    me = game.turn
    sign = -1 if registry.entry(game.name).lower_score_wins else 1
    scored: Scored = []
    for i, move in enumerate(list(game.legal_moves())):
        if _stopped(stop, i) and scored:
            break
        game.push(move)
        try:
            result = game.result() if game.is_over() else None
            if result is not None and result.winner is not None:
                value = WIN if result.winner == me else -WIN
            else:
                scores = game.scores
                value = float(sign * (scores[me] - scores[1 - me]))
        finally:
            game.pop()
        scored.append((value + 0.001 * rng.random(), move))
    return scored


_RANKERS: dict[type[Game], Ranker] = {
    IsaacGame: _isaac,
    FoundationsGame: _foundations,
    HariGame: _hari,
}
"""The heuristic of each game the module docstring describes; other registered games use _by_measure."""
