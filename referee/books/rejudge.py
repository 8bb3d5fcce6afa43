"""Judging an existing book again with stronger play, and keeping the openings that come out even.

A book built with short searches can hold openings that stronger play decides: against a program
written apart from the project, half of the shipped HARI book's pairs split 1-1, one colour winning
both games. Re-judging plays every opening of a book as `pairs` game pairs (colours swapped) between
two engines (or one engine against itself) at a longer time control, each game with its own `Seed`
(referee/books/opening_games.py), and keeps an opening when Dark's share of its points is within
``max_gap`` of one half. The kept lines are written as they were, their earlier judgement kept in
the comment after the new one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..formats.record import GameRecord
from ..matches.openings import Opening, OpeningError, read_opening_lines
from .build import BookEntry
from .opening_games import GameJob, OpeningGames, derived_seed
from .opening_results import OpeningResult


@dataclass(frozen=True)
class BookLine:
    """One opening of a book file: where it is, its text before any comment, the comment, the opening."""

    number: int
    text: str
    comment: str
    opening: Opening


def read_book(game_type: str, path: str | Path) -> list[BookLine]:
    """Every opening of a book file (OpeningError naming the file, line and fault)."""
    lines = []
    for number, line, opening in read_opening_lines(game_type, str(path)):
        text, _, comment = line.partition("#")
        lines.append(BookLine(number, text.strip(), comment.strip(), opening))
    if not lines:
        raise OpeningError(f"{path}: no openings in the file (blank lines and # comments are skipped)")
    return lines


@dataclass(frozen=True)
class RejudgeSettings:
    seed: int = 1
    pairs: int = 2
    """Game pairs per opening."""
    max_gap: float = 0.25


def rejudge_jobs(settings: RejudgeSettings, book: list[BookLine], first: str, second: str) -> list[GameJob]:
    """Every game: opening by opening, pair by pair, `first` Dark in the first game of each pair."""
    jobs: list[GameJob] = []
    for index, line in enumerate(book):
        for pair in range(settings.pairs):
            for swapped in (False, True):
                game_id = len(jobs) + 1
                dark, light = (second, first) if swapped else (first, second)
                seeds = [derived_seed("rejudge", settings.seed, line.opening.describe(), pair, swapped, side)
                         for side in ("dark", "light")]
                jobs.append(GameJob(game_id, line.opening, dark, light, index * settings.pairs + pair + 1,
                                    seeds[0], seeds[1]))
    return jobs


@dataclass
class Rejudged:
    """The outcome: each opening's results (book order) and the lines kept."""

    results: list[OpeningResult]
    kept: list[BookEntry]


async def rejudge(settings: RejudgeSettings, book: list[BookLine], engines: OpeningGames,
                  on_opening: Callable[[int, OpeningResult], None] | None = None) -> Rejudged:
    """Play every opening's pairs; `on_opening(index, result)` as each opening's games are all done."""
    first, second = engines.engines[0].name, engines.engines[-1].name
    jobs = rejudge_jobs(settings, book, first, second)
    games_each = 2 * settings.pairs
    results = [OpeningResult(line.text) for line in book]
    played = [0] * len(book)

    def count(record: GameRecord) -> None:
        index = (record.game_id - 1) // games_each
        results[index].add(record.to_json())
        played[index] += 1
        if played[index] == games_each and on_opening is not None:
            on_opening(index, results[index])

    await engines.play(jobs, on_record=count)
    kept = []
    for line, result in zip(book, results, strict=True):
        if result.is_even(settings.max_gap):
            note = f"rejudged dark {result.dark_points:g}/{result.games} pairs {' '.join(result.pair_texts())}"
            kept.append(BookEntry(line.text, note + (f"; was {line.comment}" if line.comment else "")))
    return Rejudged(results, kept)
