"""The engine's own opening book (option `OwnBook`): first moves chosen by long searches.

Why: at 100 ms a move FOUNDATIONS' search opens with a 3 in a corner, but the same
search given 200,000 nodes (about 2 s) opens with a 4 and answers with a 4. The
first move is the one the short search gets most wrong (its priors and playouts
put short pieces first), and the one a long search can afford to get right once,
offline. Each shipped book holds the start position and the replies to every
first move of length 3 or 4 (SPEC 9.3, OwnBook), searched by `search` itself.

Longer searches are not always better, so every extension is tested: the book's own
second move too (284 more positions, same searches) lost its SPRT [0, 30] from the start
position against this book, H0 after 79 games, -104 Elo (-190, -29): in the line
j0j3 a3a6 the 200,000-node h0h3 scored 19.5 of 40 as Dark where the 100 ms a0d0 scored
30.5 of 39. It was not kept (branch s26book2).

A book is a text file per game in engine/books/, one entry a line:

    <move> <position string>  # nodes <n> cp <score>

Positions are canonical position strings (protocol.position), so the order of the
moves that led there does not matter. Build or rebuild one with

    python -m engine.opening_book --game foundations --nodes 200000 --jobs 2
"""

from __future__ import annotations

import random
import sys
import threading
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from protocol import game_class, registry
from protocol.errors import IllegalMoveError, NotationError
from protocol.game import Game
from protocol.messages import Info
from protocol.moves import Move, Place

BOOK_DIR = Path(__file__).resolve().parent / "books"
BUILD_SEED = 1
"""The rng seed of a book's searches: with a node limit, a rebuild gives the same book."""
REPLY_LENGTHS = (3, 4)
"""The opponent's first moves a book answers: pieces of these lengths (a longer first piece
is rare and poor; against it the engine searches as usual)."""


def book_path(game_name: str) -> Path:
    return BOOK_DIR / f"{game_name}.txt"


class BookError(ValueError):
    """A line of a book file that cannot be used; its text says which line and why."""


def _lines(text: str) -> Iterator[tuple[int, str, str]]:
    """(line number, move text, position text) of each entry of a book file."""
    for number, raw in enumerate(text.splitlines(), 1):
        move_text, _, position = raw.split("#", 1)[0].strip().partition(" ")
        if move_text:
            yield number, move_text, position.strip()


def read_book(text: str) -> dict[str, str]:
    """{position string: move text} of a book file's lines, unchecked (loading stays
    well under a millisecond; book_move checks the move it uses)."""
    return {position: move_text for _, move_text, position in _lines(text) if position}


def check_book(text: str, game_name: str, source: str = "book") -> int:
    """Check every line of a book: a canonical position of the game and a legal move in it.
    The number of entries; raises BookError naming the first bad line."""
    cls = game_class(game_name)
    count = 0
    for number, move_text, position in _lines(text):
        try:
            game = cls.from_position(position)
            game.check_move(game.parse_move(move_text))
        except (NotationError, IllegalMoveError, ValueError) as exc:
            raise BookError(f"{source}, line {number}: {exc}") from exc
        if game.position() != position:
            raise BookError(f"{source}, line {number}: the position is not in canonical form "
                            f"(expected {game.position()!r})")
        count += 1
    return count


@cache
def load_book(game_name: str) -> dict[str, str]:
    """The shipped book of a game ({} when it has none)."""
    path = book_path(game_name)
    if not path.exists():
        return {}
    return read_book(path.read_text(encoding="utf-8"))


def book_move(game: Game) -> Move | None:
    """The book's move for this position, or None (no book, the position is not in it, or
    its move does not parse or is not legal there: the search then decides)."""
    book = load_book(game.name)
    text = book.get(game.position()) if book else None  # no position string for a game without a book
    if text is None:
        return None
    try:
        return game.check_move(game.parse_move(text))
    except (NotationError, IllegalMoveError):
        return None


def book_positions(game_name: str) -> list[str]:
    """The positions a book answers: the start, and the start after each first move of
    length REPLY_LENGTHS (the first move of the side to move second)."""
    start = game_class(game_name).start()
    positions = [start.position()]
    for move in start.legal_moves():
        if isinstance(move, Place) and move.segment.length in REPLY_LENGTHS:
            after = start.copy()
            after.push(move)
            positions.append(after.position())
    return positions


def _search_one(job: tuple[str, str, int]) -> str:
    """One book line: `search` on the position to the node limit."""
    from engine.strategies import Limits, make_strategy

    game_name, position, nodes = job
    game = game_class(game_name).from_position(position)
    infos: list[Info] = []
    move = make_strategy("search").choose(game, Limits(nodes=nodes), threading.Event(), infos.append,
                                          random.Random(BUILD_SEED))
    cp = infos[-1].score_cp if infos and infos[-1].score_cp is not None else 0
    return f"{move} {position}  # nodes {nodes} cp {cp:+d}"


def build(game_name: str, nodes: int, jobs: int, out: Path) -> int:
    """Search every book position and write the book; the number of entries."""
    positions = book_positions(game_name)
    header = (f"# {game_name} opening book: python -m engine.opening_book --game {game_name} "
              f"--nodes {nodes} (seed {BUILD_SEED}); <move> <position>  # search nodes and score")
    from multiprocessing import Pool

    with Pool(jobs) as pool:
        lines = pool.map(_search_one, [(game_name, p, nodes) for p in positions])
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(header + "\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return len(lines)


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m engine.opening_book", description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True, choices=registry.names())
    parser.add_argument("--nodes", type=int, default=200_000, help="search nodes per position")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, help="where to write (default: the shipped book)")
    args = parser.parse_args(argv)
    if args.nodes < 1 or args.jobs < 1:
        parser.error("--nodes and --jobs must be at least 1")
    count = build(args.game, args.nodes, args.jobs, args.out or book_path(args.game))
    print(f"{count} entries written to {args.out or book_path(args.game)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
