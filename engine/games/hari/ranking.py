"""A one-ply ranking of HARI moves by the packing race after each: the `heuristic` partner's moves,
and the Monte-Carlo search's root candidates.

Every playable length on its snuggest spots (ties at random), or one own piece slid to make
room when that lets a scarce length in (candidates.py); each judged after the move by the race
of both hands for the space left (race.contest_margin, no upgrades): our board value minus the
opponent's at its end. Shorter pieces given up count against a play by themselves (they drop
out of the race); a discard is a last resort.
"""

from __future__ import annotations

import random
import threading

from engine.games.generic import judged
from engine.games.parts import Ranked, Ranking, narrowed
from protocol.game import Game
from protocol.games.hari.rules import HariGame
from protocol.moves import PASS, HariMove, Move

from .candidates import slide_candidates, snug_spots
from .race import contest_margin, hand_queue

PER_LENGTH = 8
"""Placements judged per length (the snuggest ones)."""
SCARCE = 4
"""A length with fewer placements than this is worth a slide candidate."""
SLIDES = 24
"""Slide candidates judged at most."""


def ranked_moves(game: Game, rng: random.Random, stop: threading.Event | None = None) -> Ranked:
    """(race margin, move) of the candidates, best first; [(0, PASS)] when the mover must pass.
    With `stop` set, the moves judged so far."""
    return _ranked(narrowed(game, HariGame, "HARI's ranking"), rng, stop)


RANKING: Ranking = ranked_moves
"""The `heuristic` partner's ranking, as GameParts.standard loads it."""


def _ranked(game: HariGame, rng: random.Random, stop: threading.Event | None) -> list[tuple[float, Move]]:
    base = next(game.slide_sets(), None)
    if base is None:
        return [(0.0, PASS)]
    me, empty = game.turn, base.empty
    lengths = game.playable_lengths(me)
    moves: list[Move] = []
    counts: dict[int, int] = {}
    for n in lengths:
        spots = sorted(snug_spots(empty, n), key=lambda s: (s[0], rng.random()))
        counts[n] = len(spots)
        moves.extend(HariMove((), seg, 0) for _, seg in spots[:PER_LENGTH])
    if not moves:
        moves.append(HariMove((), None, lengths[0]))
    opp_next = hand_queue(game, 1 - me)[:4]
    moves.extend(m for _, m in slide_candidates(game, empty, counts, opp_next, SCARCE, SLIDES))
    scored = judged(game, moves, lambda: float(contest_margin(game, me)), rng, stop, 0.01)
    scored.sort(key=lambda kv: -kv[0])
    return scored
