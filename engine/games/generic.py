"""How the engine plays a game it knows nothing about: by the game's measure (``Game.scores``).

Any registered game gets these parts for what its package does not declare (engine/games/parts.py):
greedy's move leaving the mover's measure best, a one-ply ranking by the measure margin a move leaves,
uniformly random playouts valued by who leads. The measure is better higher or lower as the game's
registry entry says (``lower_score_wins``). `best_by_key` is the one-ply choice the games' own greedy
rules share.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable

from protocol import registry
from protocol.game import Game
from protocol.moves import PASS, Move

POLL_EVERY = 256
"""Moves examined between two looks at the stop event (greedy)."""
RANK_POLL_EVERY = 32
"""Moves judged between two looks at the stop event (the ranking: each is pushed and valued)."""
WIN = 1e6
"""The ranking's value of a move that ends the game won (minus: lost)."""

Key = tuple[int, ...]


def _sign(game: Game) -> int:
    """+1 where a higher measure is better, -1 where lower is (the game's registry entry)."""
    return -1 if registry.entry(game.name).lower_score_wins else 1


def best_by_key(game: Game, key: Callable[[Move], Key], stop: threading.Event,
                rng: random.Random) -> tuple[Move, int]:
    """(move, moves examined): a uniformly random move among the legal moves with the highest key."""
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


def greedy_move(game: Game, stop: threading.Event, rng: random.Random) -> tuple[Move, int]:
    """The move leaving the mover's own measure best at once."""
    me = game.turn
    sign = _sign(game)

    def key(move: Move) -> Key:
        game.push(move)
        try:
            return (sign * game.scores[me],)
        finally:
            game.pop()
    return best_by_key(game, key, stop, rng)


def judged(game: Game, moves: list[Move], value_after: Callable[[], float], rng: random.Random,
           stop: threading.Event | None, jitter: float) -> list[tuple[float, Move]]:
    """(value_after() with the move played, plus `jitter` times a random draw to break ties, move) for each
    of `moves`, in their order; with `stop` set, those judged so far (at least one). The game is restored."""
    scored: list[tuple[float, Move]] = []
    for i, move in enumerate(moves):
        if stop is not None and i % RANK_POLL_EVERY == 0 and stop.is_set() and scored:
            break
        game.push(move)
        try:
            value = value_after()
        finally:
            game.pop()
        scored.append((value + jitter * rng.random(), move))
    return scored


def ranked_moves(game: Game, rng: random.Random, stop: threading.Event | None = None) -> list[tuple[float, Move]]:
    """Every legal move valued by the measure margin it leaves (ours minus the opponent's), a move that
    wins outright first; ties broken at random."""
    me = game.turn
    sign = _sign(game)

    def value_after() -> float:
        result = game.result() if game.is_over() else None
        if result is not None and result.winner is not None:
            return WIN if result.winner == me else -WIN
        scores = game.scores
        return float(sign * (scores[me] - scores[1 - me]))
    return judged(game, list(game.legal_moves()), value_after, rng, stop, 0.001)


def random_move(game: Game, rng: random.Random) -> Move:
    """A uniformly random legal move (the playouts of a game without a policy of its own)."""
    return game.random_move(rng) or PASS


def outcome(game: Game, color: int) -> float:
    """A finished game for `color`: 1 a win, 1/2 a draw, 0 a loss."""
    result = game.result()
    assert result is not None, "only finished games are valued this way"
    return 0.5 if result.winner is None else (1.0 if result.winner == color else 0.0)


def outcome_or_lead(game: Game, color: int) -> float:
    """The outcome at a game end, else who leads by the measure (1, 1/2 or 0)."""
    if game.is_over():
        return outcome(game, color)
    margin = _sign(game) * (game.scores[color] - game.scores[1 - color])
    return 0.5 if margin == 0 else (1.0 if margin > 0 else 0.0)


def moves_left(game: Game) -> int:
    """The moves the side to move still makes, roughly, in a game without a searcher: its pieces in hand."""
    return max(1, int(sum(game.hand(game.turn))))
