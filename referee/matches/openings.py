"""Openings: where each game pair starts, checked with protocol/ before any engine sees them.

An opening is a start position (None = the game's start position) plus a few
moves already played from it. The engines receive both in the `position`
command; the record keeps them apart from the moves the engines chose.

Sources:
* ``book`` -- the game's shipped balanced book (referee/books/<game>.txt, built by
  ``isaac-referee book``, see referee/books/build.py); the default for the games whose registry
  entry sets ``book_by_default`` (FOUNDATIONS and HARI), where the start position replays one
  game per colour between deterministic engines;
* ``startpos`` (or ``none``) -- the start position (the default for the other games);
* ``random:PLIES`` -- PLIES uniformly random legal plies from the start position,
  drawn from the match seed and the opening's index, so the same seed gives the
  same openings on every machine and on ``--resume``. An opening that would end
  the game is drawn again. They are drawn when a game needs them (a million-game
  run stores none of them); config.json keeps a digest of the first ones
  (``random_openings_check``) so a resume under rules that draw differently is refused.
* a file, one opening per line; blank lines and lines starting with ``#`` are
  skipped. A line is either a move sequence (``c3c7 a0a2 ...``, played from the
  start position) or a position string (its first word names the game),
  optionally followed by `` moves m1 m2 ...``.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from protocol import GAME_NAMES, game_class, registry
from protocol.errors import ArenaError
from protocol.game import Game
from protocol.messages import whole_number

BOOKS_DIR = Path(__file__).parent.parent / "books"
"""The shipped balanced books, one per game (package data, built by ``isaac-referee book``)."""
MAX_RANDOM_PLIES = 200
MAX_DRAWS = 50
"""How often a random opening is redrawn before giving up (it ended the game each time)."""
RANDOM_CACHE = 256
"""Random openings kept drawn (the games running share a few: a pair's two games use one)."""
CHECKED_OPENINGS = 16
"""How many of the first random openings config.json's digest covers."""


class OpeningError(ValueError):
    """An opening source that cannot be used, with the file, line and reason."""


@dataclass(frozen=True)
class Opening:
    start_position: str | None
    moves: tuple[str, ...] = field(default_factory=tuple)

    def to_json(self) -> dict[str, Any]:
        return {"start_position": self.start_position, "moves": list(self.moves)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Opening:
        return cls(data.get("start_position"), tuple(data.get("moves", ())))

    def describe(self) -> str:
        head = self.start_position or "startpos"
        return head + (" moves " + " ".join(self.moves) if self.moves else "")


@dataclass(frozen=True)
class OpeningSource:
    """What --openings said: kind 'none', 'random' (with plies) or 'file' (with path and content hash)."""

    kind: str
    plies: int = 0
    path: str | None = None
    sha256: str | None = None

    def identity(self) -> dict[str, Any]:
        """What must not change between a run and its resume."""
        if self.kind == "random":
            return {"kind": "random", "plies": self.plies}
        if self.kind == "file":
            return {"kind": "file", "sha256": self.sha256}
        return {"kind": "none"}


def shipped_book(game_type: str) -> Path:
    """Where the shipped book of a game lives."""
    return BOOKS_DIR / f"{game_type.lower()}.txt"


def book_by_default(game_type: str | None) -> bool:
    """Whether matches of this game start from its shipped balanced book unless --openings says otherwise."""
    found = registry.lookup(game_type) if game_type else None
    return found is not None and found.book_by_default


def parse_source(text: str | None, game_type: str | None = None) -> OpeningSource:
    """'random:8', 'book', a file path, 'startpos'/'none'; None is the game's default
    (the shipped book where the registry says book_by_default, else the start position)."""
    if text is None or not text.strip():
        text = "book" if book_by_default(game_type) else "startpos"
    if text.strip().lower() in ("none", "startpos"):
        return OpeningSource("none")
    if text.strip().lower() == "book":
        if game_type is None:
            raise OpeningError("--openings book needs the game (--game) to pick its book")
        text = str(shipped_book(game_type))
        if not Path(text).is_file():
            raise OpeningError(f"--openings book: no shipped book for {game_type} at {text}")
    if text.startswith("random:"):
        value = text[len("random:"):]
        try:
            plies = whole_number(value)   # ASCII digits only
        except ValueError:
            raise OpeningError(f"--openings random:PLIES needs a whole number of plies, not {value!r}") from None
        if not 0 <= plies <= MAX_RANDOM_PLIES:
            raise OpeningError(f"--openings random:PLIES must be 0..{MAX_RANDOM_PLIES}, not {plies}")
        return OpeningSource("random", plies=plies)
    path = Path(text)
    if not path.is_file():
        raise OpeningError(f"--openings: no such file {text!r} (expected random:PLIES or a file of openings)")
    data = path.read_bytes()
    return OpeningSource("file", path=str(path), sha256=hashlib.sha256(data).hexdigest())


def random_opening(game_type: str, plies: int, seed: int | str, index: int) -> Opening:
    """`plies` random legal moves from the start, reproducible from (seed, index)."""
    rng = random.Random(f"{seed}/{game_type}/{index}")
    cls = game_class(game_type)
    for _ in range(MAX_DRAWS):
        game = cls.start()
        moves = _random_plies(game, plies, rng)
        if moves is not None:
            return Opening(None, tuple(moves))
    raise OpeningError(f"could not draw {plies} random plies of {game_type} that leave the game open")


def _random_plies(game: Game, plies: int, rng: random.Random) -> list[str] | None:
    """Moves played, or None if the game ended within the opening."""
    moves = []
    for _ in range(plies):
        move = game.random_move(rng)
        if move is None:
            return None
        game.push(move)
        moves.append(str(move))
    return None if game.is_over() else moves


def parse_opening_line(game_type: str, line: str) -> Opening:
    """One file line -> Opening, with every move checked; raises ArenaError/ValueError naming the fault."""
    text = line.split("#", 1)[0].strip()  # a trailing '# ...' is a comment (books store their judgement there)
    first = text.split(None, 1)[0].lower()
    cls = game_class(game_type)
    if first in GAME_NAMES:
        position, _, rest = text.partition(" moves ")
        position = position.strip()
        if first != game_type:
            raise OpeningError(f"position is for {first}, but this is a {game_type} match")
        game = cls.from_position(position)
        start = game.position()
        move_texts = rest.split()
    else:
        game, start, move_texts = cls.start(), None, text.split()
    moves = []
    for word in move_texts:
        if game.is_over():
            raise OpeningError(f"move {word!r} comes after the game is over")
        moves.append(str(game.play(word)))
    if game.is_over():
        raise OpeningError("the opening ends the game")
    return Opening(start, tuple(moves))


def read_opening_lines(game_type: str, path: str) -> list[tuple[int, str, Opening]]:
    """(line number, line, opening) of every opening line of a file (comments and blank lines
    skipped), or OpeningError naming the file, line and fault."""
    try:
        lines = Path(path).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError as exc:
        raise OpeningError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    out = []
    for number, line in enumerate(lines, 1):
        if not line.split("#", 1)[0].strip():
            continue
        try:
            out.append((number, line, parse_opening_line(game_type, line)))
        except (ArenaError, ValueError) as exc:
            raise OpeningError(f"{path}, line {number}: {exc}") from None
    return out


def read_opening_file(game_type: str, path: str) -> list[Opening]:
    """Every opening of a file, or OpeningError naming the file, line and fault."""
    openings = [opening for _, _, opening in read_opening_lines(game_type, path)]
    if not openings:
        raise OpeningError(f"{path}: no openings in the file (blank lines and # comments are skipped)")
    return openings


class OpeningBook:
    """Gives the opening of each opening index; random openings are drawn on demand and cached."""

    def __init__(self, game_type: str, source: OpeningSource, seed: int | str):
        self.game_type = game_type
        self.source = source
        self.seed = seed
        self._file = (read_opening_file(game_type, source.path)
                      if source.kind == "file" and source.path is not None else [])
        self._cache: OrderedDict[int, Opening] = OrderedDict()

    @classmethod
    def fixed(cls, game_type: str, openings: list[Opening]) -> OpeningBook:
        """A book of given openings (as stored in config.json), used in order and cyclically."""
        book = cls(game_type, OpeningSource("none"), 0)
        book.source = OpeningSource("fixed")
        book._file = list(openings)
        return book

    def __len__(self) -> int:
        """Distinct openings before they repeat (0 = unbounded: random or start position)."""
        return len(self._file)

    def get(self, index: int) -> Opening:
        if self.source.kind == "none":
            return Opening(None)
        if self.source.kind in ("file", "fixed"):
            return self._file[index % len(self._file)]
        opening = self._cache.get(index)
        if opening is None:
            opening = self._cache[index] = random_opening(self.game_type, self.source.plies, self.seed, index)
            if len(self._cache) > RANDOM_CACHE:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(index)
        return opening

    def check(self, count: int) -> str:
        """A digest of the first `count` openings: the same on every machine that draws them alike."""
        text = json.dumps([self.get(i).to_json() for i in range(count)], sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()
