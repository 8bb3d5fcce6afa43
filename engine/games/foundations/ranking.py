"""A one-ply ranking of FOUNDATIONS moves by the room left afterwards: the `heuristic` partner's moves.

Only the shortest piece allowed on the current level and the next length are looked at
(a long piece early ends the level's ascending run); each is placed where, afterwards, the
most of our own remaining hand still fits and the least of the opponent's does (space
counted by packing the hands snugly in order), then snugly (fewest free neighbours).
Upper levels need two own supports; a beginner counts only free cells there too.
"""

from __future__ import annotations

import random
import threading

from engine.games.packing import NEIGHBOURS, pack_value
from engine.games.parts import Ranked, Ranking, narrowed
from protocol.board import LENGTHS, hand_value
from protocol.game import Game
from protocol.games.foundations.rules import FoundationsGame
from protocol.moves import PASS, Move, Place

PER_LENGTH = 8
"""Placements judged per (length, level) (the snuggest ones)."""
POLL_EVERY = 32
"""Moves judged between two looks at the stop event."""


def room_lost(game: FoundationsGame, color: int) -> float:
    """Value in `color`'s hand that no longer fits on its level (lower is better for `color`)."""
    hand = game.hand(color)
    lengths = [n for n in LENGTHS if n >= game.min_length(color) for _ in range(hand[n])]
    free = game.free_cells(game.level(color))
    placed, _ = pack_value(free, lengths)
    return float(hand_value(hand) - placed)


def ranked_moves(game: Game, rng: random.Random, stop: threading.Event | None = None) -> Ranked:
    """(score, move) best first; [(0, PASS)] when the mover must pass. With `stop` set, the
    moves judged so far."""
    return _ranked(narrowed(game, FoundationsGame, "FOUNDATIONS' ranking"), rng, stop)


RANKING: Ranking = ranked_moves
"""The `heuristic` partner's ranking, as GameParts.standard loads it."""


def _ranked(game: FoundationsGame, rng: random.Random, stop: threading.Event | None) -> list[tuple[float, Move]]:
    moves = list(game.legal_moves())
    if not moves or moves[0] is PASS:
        return [(0.0, PASS)]
    places = [m for m in moves if isinstance(m, Place)]
    me = game.turn
    shortest = min(m.segment.length for m in places)
    allowed = sorted({m.segment.length for m in places})[:2]
    groups: dict[tuple[int, int], list[tuple[float, Place]]] = {}
    free_by_level: dict[int, int] = {}
    for m in places:
        if m.segment.length in allowed:
            free = free_by_level.get(m.level)
            if free is None:
                free = free_by_level[m.level] = game.free_cells(m.level)
            snug = (NEIGHBOURS[m.segment.index] & free).bit_count()
            groups.setdefault((m.segment.length, m.level), []).append((snug + rng.random(), m))
    chosen: list[tuple[float, Place]] = []
    for group in groups.values():
        group.sort(key=lambda kv: kv[0])
        chosen.extend(group[:PER_LENGTH])
    scored: list[tuple[float, Move]] = []
    for i, (guess, move) in enumerate(chosen):
        if stop is not None and i % POLL_EVERY == 0 and stop.is_set() and scored:
            break
        game.push(move)
        try:
            value = room_lost(game, 1 - me) - room_lost(game, me)
        finally:
            game.pop()
        value -= 0.8 * (move.segment.length - shortest) + 0.05 * guess
        scored.append((value, move))
    scored.sort(key=lambda kv: -kv[0])
    return scored
