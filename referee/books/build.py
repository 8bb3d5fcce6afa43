"""Balanced opening books: openings drawn from a sensible policy, kept when engines play them even.

Uniformly random plies are poor openings in FOUNDATIONS and HARI: a side whose first piece is a 7
(or a 6) has wrecked its own ascending order, and the game pair then measures the opening, not the
engines. A book is built instead, through engine executables over the protocol (referee/books/opening_games.py):

1. draw `plies` moves, each one of the mover's placements of the shortest length it can place,
   uniformly (protocol/ alone decides what is legal; a seed makes the draw reproducible);
2. judge the position with the first engine under a short time control (default `nodes=3000`) and
   keep it only when its `score cp` for the side to move is within ``max_cp`` of even (an engine that
   reports no score leaves this to the games);
3. play `games` games from it (pairs, colours swapped; one engine against itself, or two engines),
   each engine given a `Seed` derived from the book's seed, the opening and the game, and keep the
   opening only when Dark's share of the points is within ``max_gap`` of one half. One search's
   score does not see everything that decides a game (in ISAAC, who will remove first);
4. drop repeats; write one opening per line with its judgements as a comment:
   ``c0c2 a9c9 h0j0 j7j9  # cp +6 dark 9/16``.

With a node-limited engine that plays the same moves for the same seed (the built-in one does),
the same command builds the same book on any machine and at any concurrency.

Shipped books (package data, ``referee/books/<game>.txt``, see referee.matches.openings.shipped_book) are
what ``--openings`` uses by default for FOUNDATIONS and HARI. referee/books/rejudge.py judges a book
again with stronger play.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from protocol import game_class
from protocol.game import Game
from protocol.moves import HariMove, Move, Place

from ..formats.record import GameRecord, dark_points
from ..formats.timecontrol import TimeControl
from ..matches.openings import Opening, shipped_book
from .opening_games import GameJob, OpeningGames, derived_seed
from .opening_results import OpeningResult

__all__ = ["BookEntry", "Built", "BuildSettings", "book_text", "build_book", "draw_line", "shipped_book"]

MAX_TRIES_PER_OPENING = 20
"""Drawn lines per opening wanted, at most, before the builder gives up."""

# -- the drawing policy ------------------------------------------------------------------------------

def placed_length(move: Move) -> int | None:
    """The length of the piece a move puts on the board from hand (a HARI move only without
    slides), None for any other move (a removal, a slide, a discard, a pass)."""
    if isinstance(move, Place):
        return move.segment.length
    if isinstance(move, HariMove) and not move.slides and move.place is not None:
        return move.place.length
    return None


def shortest_placements(game: Game) -> list[Move]:
    """The mover's legal placements of the shortest length it can place (every legal move if it
    can place nothing), in the rules' order."""
    moves = list(game.legal_moves())
    lengths = [placed_length(move) for move in moves]
    placed = [length for length in lengths if length is not None]
    if not placed:
        return moves
    shortest = min(placed)
    return [move for move, length in zip(moves, lengths, strict=True) if length == shortest]


def draw_line(game_type: str, plies: int, rng: random.Random) -> tuple[str, ...] | None:
    """`plies` moves from the start, each uniform among the mover's shortest placements;
    None if the game ended within them."""
    game = game_class(game_type).start()
    moves = []
    for _ in range(plies):
        if game.is_over():
            return None
        move = rng.choice(shortest_placements(game))
        game.push(move)
        moves.append(str(move))
    return None if game.is_over() else tuple(moves)


# -- the book file -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class BookEntry:
    """One line of a book: the opening as written (moves, or a position string with moves) and the
    judgements that kept it (a comment, which referee/matches/openings.py skips)."""

    opening: str
    comment: str = ""

    def line(self) -> str:
        return f"{self.opening}  # {self.comment}" if self.comment else self.opening


def book_text(game_type: str, entries: list[BookEntry], header: list[str]) -> str:
    """The book file's text: a commented header (its first line names the game and the command),
    then one opening per line."""
    lines = [f"# {game_type} opening book: {header[0]}"] + [f"# {text}" for text in header[1:]]
    lines += [entry.line() for entry in entries]
    return "\n".join(lines) + "\n"


# -- building ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class BuildSettings:
    """What `isaac-referee book` builds: how many openings of how many plies, and the two judgements."""

    game_type: str
    count: int
    plies: int
    seed: int
    judge_tc: TimeControl
    max_cp: int
    games: int = 16
    """Games played from each opening judged close to even (0: the score alone decides)."""
    max_gap: float = 0.2


def selfplay_jobs(settings: BuildSettings, opening: Opening, first: str, second: str) -> list[GameJob]:
    """The games of one opening: pairs with colours swapped, every game with its own seeds."""
    jobs = []
    for number in range(settings.games):
        pair, swapped = divmod(number, 2)
        dark, light = (second, first) if swapped else (first, second)
        seeds = [derived_seed("book", settings.seed, opening.describe(), number, side) for side in ("dark", "light")]
        jobs.append(GameJob(number, opening, dark, light, pair, seeds[0], seeds[1]))
    return jobs


def dark_points_of(records: list[GameRecord]) -> float:
    """Dark's points over finished games (a draw is a half)."""
    return sum(dark_points(record.result) for record in records)


def cannot_be_even(settings: BuildSettings, records: list[GameRecord]) -> bool:
    """Whether Dark's share will miss `max_gap` of one half whatever the games still to play give."""
    dark = dark_points_of(records)
    light = len(records) - dark
    bound = (0.5 + settings.max_gap) * settings.games + 1e-9
    return dark > bound or light > bound


@dataclass
class Built:
    """A built book and how it was found."""

    entries: list[BookEntry] = field(default_factory=list)
    drawn: int = 0
    """Distinct lines drawn."""
    scored_even: int = 0
    """Lines the first engine's score kept (then played, when games are asked for)."""
    games: int = 0
    repeats: int = 0
    """Games that repeated an earlier game of their opening move for move (opening_results.OpeningResult)."""

    def summary(self) -> str:
        text = (f"{self.drawn} distinct lines drawn, {self.scored_even} judged close to even by score, "
                f"{len(self.entries)} kept")
        if self.games:
            text += f"; {self.games} games played"
        if self.repeats:
            text += (f", {self.repeats} of them repeating an earlier game of their opening move for move "
                     f"(an engine that ignores its Seed at this time control)")
        return text


async def build_book(settings: BuildSettings, engines: OpeningGames,
                     progress: Callable[[int, int], None] | None = None) -> Built:
    """Up to `count` distinct openings, in the order drawn, that pass both judgements (fewer if
    `count` x MAX_TRIES_PER_OPENING draws do not find them). `progress(kept, drawn)` after each draw."""
    rng = random.Random(f"book/{settings.game_type}/{settings.seed}")
    first = engines.engines[0].name
    second = engines.engines[-1].name
    seen: set[tuple[str, ...]] = set()
    built = Built()
    for tries in range(settings.count * MAX_TRIES_PER_OPENING):
        if len(built.entries) >= settings.count:
            break
        moves = draw_line(settings.game_type, settings.plies, rng)
        if moves is not None and moves not in seen:
            seen.add(moves)
            built.drawn += 1
            entry = await judge_opening(settings, engines, Opening(None, moves), first, second, built)
            if entry is not None:
                built.entries.append(entry)
        if progress is not None:
            progress(len(built.entries), tries + 1)
    return built


async def judge_opening(settings: BuildSettings, engines: OpeningGames, opening: Opening,
                        first: str, second: str, built: Built) -> BookEntry | None:
    """The book line of an opening that passes both judgements, else None (counted in `built`)."""
    cp = await engines.judge(opening, settings.judge_tc, derived_seed("judge", settings.seed, opening.describe()))
    if cp is not None and abs(cp) > settings.max_cp:
        return None
    built.scored_even += 1
    notes = [f"cp {cp:+d}" if cp is not None else "cp none"]
    if settings.games:
        records = await engines.play(selfplay_jobs(settings, opening, first, second),
                                     stop=lambda done: cannot_be_even(settings, done))
        result = OpeningResult(opening.describe())
        for record in records:
            result.add(record.to_json())
        built.games += result.games
        built.repeats += result.repeats
        if len(records) < settings.games or not result.is_even(settings.max_gap):
            return None
        notes.append(f"dark {result.dark_points:g}/{result.games}")
    return BookEntry(" ".join(opening.moves), " ".join(notes))
