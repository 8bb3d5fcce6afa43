"""Positions to test an engine with, all from protocol/ and a seed, so every run asks the same."""

from __future__ import annotations

import random
from dataclasses import dataclass

import protocol
from protocol.moves import PASS, Move


@dataclass
class Positions:
    game_type: str
    plies: list[str]                 # a random game from the start, canonical moves
    mid: int                         # ply index of a mid-game position (at most max_moves legal moves)
    late: int                        # ply index of a later position small enough for perft 2
    forced_pass: str | None          # a position string where pass is the only legal move

    def game_at(self, ply: int) -> protocol.Game:
        game = protocol.new_game(self.game_type)
        for text in self.plies[:ply]:
            game.play(text)
        return game


def _random_move(game: protocol.Game, rng: random.Random) -> Move:
    """A uniform random legal move of a game that is not over."""
    move = game.random_move(rng)
    if move is None:
        raise ValueError("the game is over")
    return move


def _random_game(game_type: str, rng: random.Random) -> tuple[list[str], list[int]]:
    """A random game's plies and the number of legal moves before each."""
    game = protocol.new_game(game_type)
    plies, counts = [], []
    while not game.is_over():
        counts.append(game.count_legal_moves())
        move = _random_move(game, rng)
        game.push(move)
        plies.append(str(move))
    return plies, counts


def _nearest(indices: list[int], target: float, default: int) -> int:
    return min(indices, key=lambda i: abs(i - target)) if indices else default


def illegal_repeat(game_type: str) -> str:
    """A first move the opponent cannot repeat (a placement; in HARI the first move is a discard)."""
    game = protocol.new_game(game_type)
    for move in game.legal_moves():
        game.push(move)
        repeat_is_legal = game.is_legal(move)
        game.pop()
        if not repeat_is_legal:
            return str(move)
    raise ValueError(f"no {game_type} opening move is illegal when repeated")


def find_forced_pass(game_type: str, seed: int, attempts: int = 30) -> str | None:
    """A position string where pass is the only legal move, from seeded random games (None if none)."""
    for attempt in range(attempts):
        game = protocol.new_game(game_type)
        rng = random.Random(seed * 1000 + attempt)
        while not game.is_over():
            if game.count_legal_moves() == 1 and next(iter(game.legal_moves())) == PASS:
                return game.position()
            game.push(_random_move(game, rng))
    return None


def make_positions(game_type: str, seed: int, max_moves: int = 5000, perft2_moves: int = 300,
                   games: int = 40) -> Positions:
    """Positions from a seeded random game: one about 40% in (for go, moves, perft 1) and one about
    75% in with at most `perft2_moves` moves (for perft 2, which then stays quick for the engine and
    for protocol/ alike), both with a real choice (the late one followed by one too, in the game
    drawn); and a forced pass if one is found. Games where no
    position gets that small (HARI's mostly) are drawn again, up to `games` of them, from seeds
    derived from `seed`; failing that, the later half's position with the fewest moves is taken."""
    for attempt in range(games):
        plies, counts = _random_game(game_type, random.Random(seed if attempt == 0 else seed * 1000 + attempt))
        n = len(plies)
        small = [i for i in range(1, n - 1) if 2 <= counts[i] <= perft2_moves and counts[i + 1] >= 2]
        if small:
            break
    mid = _nearest([i for i in range(1, n) if 2 <= counts[i] <= max_moves], 0.4 * n, 0)
    if small:
        late = _nearest(small, 0.75 * n, 0)
    else:
        later = [i for i in range(n // 2, n) if counts[i] >= 2]
        late = min(later, key=lambda i: counts[i]) if later else mid
    return Positions(game_type, plies, mid, late, find_forced_pass(game_type, seed))


def fresh(game: protocol.Game) -> protocol.Game:
    """A newly parsed copy: every expectation is computed on untouched state, as the engine's is."""
    return protocol.game_from_position(game.position())
