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
3. play it out: `games` games of `search` against itself at ``selfplay_nodes``
   a move (each game's randomness seeded from the opening and the game's number),
   and keep it only when Dark's share of the points is within ``max_gap`` of one
   half. One search's score does not see everything that decides a game (in
   ISAAC, who will remove first): the book judged by score alone was won 64% by
   Dark when search played itself at 100 ms a move (1,589 games), 6 of its 40
   openings 85-98%, and its 3,000-node self-play agreed (65%, 320 games);
4. drop repeats; write one opening per line with its judgements as a comment:
   ``h3j3 f9i9 a0a2 b5b7  # cp +6 nodes 4000 dark 9/16``.

Shipped books (package data, ``referee/books/<game>.txt``) are what ``--openings``
uses by default for FOUNDATIONS and HARI (see referee.openings.default_source).
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from protocol import game_class
from protocol.game import Game

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
    dark_points: float | None = None
    """Dark's points in the self-play games (a draw is a half), None if none were played."""
    games: int = 0

    def line(self) -> str:
        text = f"{' '.join(self.moves)}  # cp {self.cp:+d} nodes {self.nodes}"
        if self.dark_points is not None:
            text += f" dark {self.dark_points:g}/{self.games}"
        return text


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


def position_after(game_type: str, moves: tuple[str, ...]) -> Game:
    """The position an opening reaches from the start (the judge and the self-play games start there)."""
    game = game_class(game_type).start()
    for move in moves:
        game.play(move)
    return game


def judge(game_type: str, moves: tuple[str, ...], nodes: int) -> int:
    """The short search's score of the position after `moves`, in cp for the side to move."""
    from engine.strategies import Limits, make_strategy
    from protocol.messages import Info

    game = position_after(game_type, moves)
    infos: list[Info] = []
    make_strategy("search").choose(game, Limits(nodes=nodes), threading.Event(), infos.append,
                                   random.Random(0))
    scored = [i.score_cp for i in infos if i.score_cp is not None]
    return scored[-1] if scored else 0


def selfplay_game(game_type: str, moves: tuple[str, ...], nodes: int, number: int) -> float:
    """Dark's points (1, 1/2 or 0) in one game of `search` against itself from `moves`, `nodes` a move.

    The randomness is seeded from the opening and `number`, so a book is rebuilt the same."""
    from engine.strategies import Limits, make_strategy

    game = position_after(game_type, moves)
    strategy = make_strategy("search")
    rng = random.Random(f"book-selfplay/{' '.join(moves)}/{number}")
    while not game.is_over():
        game.play(strategy.choose(game, Limits(nodes=nodes), threading.Event(), lambda _info: None, rng))
    outcome = game.result()
    winner = None if outcome is None else outcome.winner
    return 0.5 if winner is None else 1.0 - winner


def _selfplay_job(job: tuple[str, tuple[str, ...], int, int]) -> float:
    return selfplay_game(*job)


GameMap = Callable[..., Iterable[float]]
"""How the self-play games are run: the built-in `map`, or a process pool's."""


def dark_points(game_type: str, moves: tuple[str, ...], games: int, nodes: int, run: GameMap = map) -> float:
    """Dark's points over `games` self-play games from `moves` (selfplay_game)."""
    return sum(run(_selfplay_job, [(game_type, moves, nodes, k) for k in range(games)]))


def build_book(game_type: str, count: int, plies: int, seed: int, nodes: int, max_cp: int,
               progress: Callable[[int, int], None] | None = None, games: int = 0,
               selfplay_nodes: int | None = None, max_gap: float = 0.2, jobs: int = 1) -> list[BookEntry]:
    """Up to `count` distinct openings judged within `max_cp` of even and, when `games` > 0, where
    Dark's share of `games` self-play games is within `max_gap` of 1/2 (fewer if too few are found).
    `jobs` > 1 plays the self-play games in that many processes (the book is the same)."""
    rng = random.Random(f"book/{game_type}/{seed}")
    seen: set[tuple[str, ...]] = set()
    book: list[BookEntry] = []
    pool = ProcessPoolExecutor(jobs) if games and jobs > 1 else None
    run: GameMap = map if pool is None else pool.map
    try:
        for tries in range(count * MAX_TRIES_PER_OPENING):
            if len(book) >= count:
                break
            moves = draw_line(game_type, plies, rng)
            if moves is None or moves in seen:
                continue
            seen.add(moves)
            cp = judge(game_type, moves, nodes)
            if abs(cp) <= max_cp:
                if not games:
                    book.append(BookEntry(moves, cp, nodes))
                else:
                    points = dark_points(game_type, moves, games, selfplay_nodes or nodes, run)
                    if abs(points / games - 0.5) <= max_gap + 1e-9:
                        book.append(BookEntry(moves, cp, nodes, points, games))
            if progress is not None:
                progress(len(book), tries + 1)
    finally:
        if pool is not None:
            pool.shutdown()
    return book


def book_text(game_type: str, entries: list[BookEntry], header: str) -> str:
    """The book file's text: a commented header, then one opening per line."""
    lines = [f"# {game_type} opening book: {header}",
             "# one opening per line (moves from the start position); '# cp' is the judging search's",
             "# score for the side to move, in hundredths of a game point; 'dark P/N' Dark's points",
             "# in N games of search against itself from the opening"]
    lines += [entry.line() for entry in entries]
    return "\n".join(lines) + "\n"


def write_book(path: str | Path, game_type: str, entries: list[BookEntry], header: str) -> None:
    Path(path).write_text(book_text(game_type, entries, header), encoding="utf-8")
