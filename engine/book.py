"""The engine's own opening book (option `OwnBook`): first moves chosen by long searches.

Why: at 100 ms a move FOUNDATIONS' search opens with a 3 in a corner, but the same
search given 200,000 nodes (about 2 s) opens with a 4 and answers with a 4. The
first move is the one the short search gets most wrong (its priors and playouts
put short pieces first), and the one a long search can afford to get right once,
offline. Each shipped book holds the start position and the replies to every
first move of length 3 or 4 (SPEC 9.3, OwnBook), searched by `search` itself.

A book is a text file per game in engine/books/, one entry a line:

    <move> <position string>  # nodes <n> cp <score>

Positions are canonical position strings (protocol.position), so the order of the
moves that led there does not matter. Build or rebuild one with engine/book_build.py:

    python -m engine.book_build --game foundations --nodes 200000 --jobs 2
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path

from protocol import game_class
from protocol.errors import IllegalMoveError, NotationError
from protocol.game import Game
from protocol.moves import Move

BOOK_DIR = Path(__file__).resolve().parent / "books"


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
