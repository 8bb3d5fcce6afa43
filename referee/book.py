"""Balanced opening books: openings a sensible player could reach, kept only when close to even.

Uniformly random plies are poor openings in FOUNDATIONS and HARI: a side whose
first piece is a 7 (or a 6) has wrecked its own ascending order, and the game
pair then measures the opening, not the engines. A book is built instead:

1. draw a few plies from a sensible policy: the engine's `heuristic` strategy
   ranks the moves and one of its TOP best is taken at random (a fixed seed makes
   the book reproducible);
2. judge the position with a short node-limited `search` (deterministic for a
   node count); keep it only when the score is within ``max_cp`` of even
   (score in hundredths of a game point for the side to move, SPEC 9);
3. drop repeats; write one opening per line with its judgement as a comment:
   ``h3j3 f9i9 a0a2 b5b7  # cp +6 nodes 4000``.

Shipped books (package data, ``referee/books/<game>.txt``) are what ``--openings``
uses by default for FOUNDATIONS and HARI (see referee.openings.default_source).
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from protocol import game_class

TOP = 3
"""The policy takes one of the heuristic's TOP best moves, uniformly."""
MAX_TRIES_PER_OPENING = 20
"""Drawn lines per opening wanted, at most, before the builder gives up."""

BOOKS_DIR = Path(__file__).with_name("books")


def shipped_book(game_type: str) -> Path:
    """Where the shipped book of a game lives (package data)."""
    return BOOKS_DIR / f"{game_type}.txt"


@dataclass(frozen=True)
class BookEntry:
    moves: tuple[str, ...]
    cp: int
    nodes: int

    def line(self) -> str:
        return f"{' '.join(self.moves)}  # cp {self.cp:+d} nodes {self.nodes}"


def draw_line(game_type: str, plies: int, rng: random.Random) -> tuple[str, ...] | None:
    """`plies` moves of the heuristic policy with randomness, or None if the game ended."""
    from engine.strategies.heuristic import ranked_moves

    game = game_class(game_type).start()
    moves = []
    for _ in range(plies):
        if game.is_over():
            return None
        ranked = ranked_moves(game, rng)[:TOP]
        move = rng.choice(ranked)[1]
        moves.append(str(game.play(move)))
    return None if game.is_over() else tuple(moves)


def judge(game_type: str, moves: tuple[str, ...], nodes: int) -> int:
    """The short search's score of the position after `moves`, in cp for the side to move."""
    from engine.strategies import Limits, make_strategy
    from protocol.messages import Info

    game = game_class(game_type).start()
    for move in moves:
        game.play(move)
    infos: list[Info] = []
    make_strategy("search").choose(game, Limits(nodes=nodes), threading.Event(), infos.append,
                                   random.Random(0))
    scored = [i.score_cp for i in infos if i.score_cp is not None]
    return scored[-1] if scored else 0


def build_book(game_type: str, count: int, plies: int, seed: int, nodes: int, max_cp: int,
               progress: Callable[[int, int], None] | None = None) -> list[BookEntry]:
    """Up to `count` distinct openings judged within `max_cp` of even (fewer if too few are found)."""
    rng = random.Random(f"book/{game_type}/{seed}")
    seen: set[tuple[str, ...]] = set()
    book: list[BookEntry] = []
    for tries in range(count * MAX_TRIES_PER_OPENING):
        if len(book) >= count:
            break
        moves = draw_line(game_type, plies, rng)
        if moves is None or moves in seen:
            continue
        seen.add(moves)
        cp = judge(game_type, moves, nodes)
        if abs(cp) <= max_cp:
            book.append(BookEntry(moves, cp, nodes))
        if progress is not None:
            progress(len(book), tries + 1)
    return book


def book_text(game_type: str, entries: list[BookEntry], header: str) -> str:
    """The book file's text: a commented header, then one opening per line."""
    lines = [f"# {game_type} opening book: {header}",
             "# one opening per line (moves from the start position); '# cp' is the judging search's",
             "# score for the side to move, in hundredths of a game point"]
    lines += [entry.line() for entry in entries]
    return "\n".join(lines) + "\n"


def write_book(path: str | Path, game_type: str, entries: list[BookEntry], header: str) -> None:
    Path(path).write_text(book_text(game_type, entries, header), encoding="utf-8")
