"""The `book` command: build a balanced opening book (referee/books/build.py), or judge one again with
stronger play (`--rejudge BOOK`, referee/books/rejudge.py). Engines are executables spoken to over the
protocol, given as in a match (`-engine ...`); without one, the built-in `isaac-engine` plays itself.

The book goes to stdout unless `-o FILE` names a file; an existing file is never overwritten
without `--force` (the shipped books in referee/books/ are replaced only by naming them with
`-o ... --force`). A re-judgement's per-opening results go to stdout, or to stderr when the book
itself goes to stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import shlex
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TextIO, TypeVar

from protocol import GAME_NAMES

from ..books.build import BookEntry, BuildSettings, book_text, build_book
from ..books.opening_games import OpeningGames, OpeningGamesError
from ..books.opening_results import OpeningResult, opening_row, summary_line
from ..books.rejudge import BookLine, RejudgeSettings, read_book, rejudge
from ..engines import config as cfg
from ..engines.process import EngineSpec
from ..formats.record import GameRecord
from ..formats.timecontrol import TimeControl
from ..matches.openings import MAX_RANDOM_PLIES, OpeningError, shipped_book
from ..results.store import RECORDS, Store
from .arguments import Options, add_engine_arguments, count_int, int_at_least, non_negative_int
from .command import EXIT_FAIL, EXIT_OK, Command, UsageError
from .prepare import default_concurrency

BUILD_TC = "nodes=3000"
REJUDGE_TC = "nodes=30000"
BUILD_GAP, REJUDGE_GAP = 0.2, 0.25
BUILD_ONLY = ("count", "plies", "judge_tc", "max_cp", "games")
REJUDGE_ONLY = ("pairs",)
T = TypeVar("T")


def add_arguments(p: Options) -> None:
    p.add("--game", required=True, choices=GAME_NAMES, help="the game the book is for")
    eng = p.group("engines (as in a match; default: the built-in isaac-engine, Strategy search, against itself)")
    add_engine_arguments(eng, "an engine: name=, cmd=\"...\", dir=, option.<Name>=, tc=; once: it plays itself; "
                         "twice: the two play each other (the first judges the position when building)",
                         "settings for every engine (tc=, option.<Name>=, ...)")
    eng.add("--tc", metavar="TC", help=f"time control of the games for engines without their own tc= "
            f"(default {BUILD_TC} when building, {REJUDGE_TC} when re-judging)")
    eng.add("--concurrency", type=count_int,
            help=f"games at once (default max(1, cores - 1) = {default_concurrency()} here)")
    build = p.group("building a book")
    build.add("--count", type=count_int, default=100, help="openings wanted (default 100)")
    build.add("--plies", type=int_at_least(1, MAX_RANDOM_PLIES), default=4, help="plies per opening (default 4)")
    build.add("--judge-tc", metavar="TC", default=BUILD_TC,
              help=f"time control of the first engine's judgement of each drawn position (default {BUILD_TC})")
    build.add("--max-cp", type=int_at_least(0), default=20,
              help="keep openings the judgement scores within this many cp of even (default 20)")
    build.add("--games", type=int_at_least(0, 1_000_000), default=16,
              help="games from each opening judged close to even, in pairs; 0 skips them (default 16)")
    rejudge_group = p.group("re-judging a book")
    rejudge_group.add("--rejudge", metavar="BOOK", help="play every opening of BOOK (a file, or 'book' for "
                      "the game's shipped book) instead of building one")
    rejudge_group.add("--pairs", type=count_int, default=2,
                      help="game pairs per opening, colours swapped (default 2)")
    both = p.group("both")
    both.add("--seed", type=non_negative_int, default=1,
             help="seed of the drawing and of every game's Seed option (default 1)")
    both.add("--max-gap", type=float, help=f"keep openings where Dark's share of the points is within this "
             f"of 1/2 (default {BUILD_GAP:g} when building, {REJUDGE_GAP:g} when re-judging)")
    both.add("--out", metavar="DIR", help="also keep every game's record in DIR/records.jsonl (a new directory)")
    both.add("-o", "--output", metavar="FILE",
             help="write the book to FILE (default, or '-': stdout); an existing FILE needs --force")
    both.add("--force", action="store_true", default=False, help="overwrite an existing -o FILE")


def builtin_engine() -> list[str]:
    """The -engine words of the built-in engine: this Python running `engine`, Strategy search."""
    return ["name=search", f"cmd={shlex.join([sys.executable, '-m', 'engine'])}", "option.Strategy=search"]


def engines_from_args(args: argparse.Namespace, tc: str) -> list[EngineSpec]:
    if len(args.engine) > 2:
        raise UsageError(f"give one engine (it plays itself) or two, not {len(args.engine)}")
    try:
        return cfg.build_engines(args.engine or [builtin_engine()], args.each, None, tc=tc)
    except cfg.ConfigError as exc:
        raise UsageError(str(exc)) from None


def engine_text(spec: EngineSpec) -> str:
    """An engine for a book's header: name, command (this Python shown as 'python'), options, tc."""
    cmd = ["python" if word == sys.executable else word for word in spec.cmd]
    options = "".join(f" option.{name}={value}" for name, value in spec.options.items())
    return f"{spec.name}: {shlex.join(cmd)}{options} tc={spec.tc}"


def parse_tc(text: str, what: str) -> TimeControl:
    try:
        return TimeControl.parse(text)
    except ValueError as exc:
        raise UsageError(f"{what}: {exc}") from None


def check_mode(args: argparse.Namespace) -> None:
    """Options of the other mode are refused rather than ignored."""
    wrong, mode = (BUILD_ONLY, "build a book; leave it out with --rejudge") if args.rejudge \
        else (REJUDGE_ONLY, "only mean something with --rejudge BOOK")
    given = [name for name in wrong if name in args.explicit]
    if given:
        flags = ", ".join("--" + name.replace("_", "-") for name in given)
        raise UsageError(f"{flags} {mode}")
    if not 0 <= args.max_gap <= 0.5:
        raise UsageError(f"--max-gap {args.max_gap:g}: expected a share between 0 and 0.5")


def open_store(out: str | None) -> Store | None:
    """The --out directory's store, ready for appending; it must not hold records yet."""
    if out is None:
        return None
    store = Store(out)
    store.check_dir()
    if store.path(RECORDS).exists() and store.path(RECORDS).stat().st_size:
        raise UsageError(f"--out {out}: already holds {RECORDS}; give a new directory")
    store.open_for_append()
    return store


def keeper(store: Store | None) -> Callable[[GameRecord], None] | None:
    return None if store is None else (lambda record: store.append(record.to_json()))


async def with_engines(engines: OpeningGames, job: Awaitable[T]) -> T:
    """Run a job; however it ends, every engine process is shut down."""
    try:
        return await job
    finally:
        await engines.close()


def run(args: argparse.Namespace) -> int:
    path = None if args.output in (None, "-") else Path(args.output)
    if path is not None and path.exists() and not args.force:
        raise UsageError(f"{path} exists; add --force to overwrite it (or write to stdout: omit -o)")
    if path is not None and not path.parent.is_dir():
        raise UsageError(f"-o {path}: no directory {path.parent} to write it in")
    if args.max_gap is None:
        args.max_gap = REJUDGE_GAP if args.rejudge else BUILD_GAP
    check_mode(args)
    tc = args.tc or (REJUDGE_TC if args.rejudge else BUILD_TC)
    parse_tc(tc, "--tc")
    engines = engines_from_args(args, tc)
    book = read_rejudged_book(args) if args.rejudge else []
    store = open_store(args.out)
    try:
        play = OpeningGames(args.game, engines, args.concurrency or default_concurrency(), keep=keeper(store))
        try:
            if args.rejudge:
                entries, header = run_rejudge(args, book, play, engines,
                                              results_to=sys.stderr if path is None else sys.stdout)
            else:
                entries, header = run_build(args, play, engines)
        except OpeningGamesError as exc:
            raise UsageError(str(exc)) from None
    finally:
        if store is not None:
            store.close()
    if not entries:
        print(f"isaac-referee book: no opening of {args.game} came out even; nothing written", file=sys.stderr)
        return EXIT_FAIL
    text = book_text(args.game, entries, header)
    if path is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        print(f"{len(entries)} openings written to stdout", file=sys.stderr)
        return EXIT_OK
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        sys.stdout.write(text)
        raise UsageError(f"cannot write {path} ({exc.strerror or exc}); the book went to stdout instead") from None
    print(f"{path}: {len(entries)} openings", file=sys.stderr)
    return EXIT_OK


def book_source(args: argparse.Namespace) -> str:
    """The file --rejudge names ('book': the game's shipped book)."""
    return str(shipped_book(args.game)) if args.rejudge == "book" else str(args.rejudge)


def read_rejudged_book(args: argparse.Namespace) -> list[BookLine]:
    try:
        return read_book(args.game, book_source(args))
    except OpeningError as exc:
        raise UsageError(f"--rejudge {exc}") from None


def run_build(args: argparse.Namespace, play: OpeningGames,
              engines: list[EngineSpec]) -> tuple[list[BookEntry], list[str]]:
    settings = BuildSettings(args.game, args.count, args.plies, args.seed, parse_tc(args.judge_tc, "--judge-tc"),
                             args.max_cp, args.games, args.max_gap)

    def progress(kept: int, tried: int) -> None:
        print(f"\r{args.game}: {kept}/{args.count} kept of {tried} drawn", end="", file=sys.stderr, flush=True)

    built = asyncio.run(with_engines(play, build_book(settings, play, progress)))
    print(file=sys.stderr)
    print(built.summary(), file=sys.stderr)
    command = (f"isaac-referee book --game {args.game} --count {args.count} --plies {args.plies} --seed {args.seed} "
               f"--judge-tc {shlex.quote(args.judge_tc)} --max-cp {args.max_cp} --games {args.games} "
               f"--tc {shlex.quote(args.tc or BUILD_TC)} --max-gap {args.max_gap:g}")
    header = [command,
              "drawn: each ply one of the mover's placements of the shortest length it can place, uniformly",
              f"engines: {'; '.join(engine_text(spec) for spec in engines)}"
              + (" (against itself)" if len(engines) == 1 else ""),
              "one opening per line (moves from the start position); 'cp' is the first engine's score for the",
              f"side to move (judged at {args.judge_tc}, hundredths of a game point); 'dark P/N' Dark's points in",
              "N games from the opening"]
    return built.entries, header


def first_comment(path: str) -> str:
    """The first line of a book file without its '# ' (what built it), or 'no header'."""
    with open(path, encoding="utf-8", errors="replace") as handle:
        first = handle.readline().strip()
    return first.lstrip("#").strip() if first.startswith("#") else "no header"


def run_rejudge(args: argparse.Namespace, book: list[BookLine], play: OpeningGames, engines: list[EngineSpec],
                results_to: TextIO) -> tuple[list[BookEntry], list[str]]:
    source = book_source(args)
    settings = RejudgeSettings(args.seed, args.pairs, args.max_gap)
    one = engines[0].name if len(engines) == 2 else None
    print(f"re-judging {len(book)} openings of {source}: {settings.pairs} pair{'s' if settings.pairs > 1 else ''} each "
          f"({'; '.join(engine_text(spec) for spec in engines)}), keeping Dark's share within "
          f"{settings.max_gap:g} of 1/2", file=results_to, flush=True)

    def show(index: int, result: OpeningResult) -> None:
        verdict = "kept" if result.is_even(settings.max_gap) else "dropped"
        print(f"{opening_row(index + 1, result, one)}  {verdict}", file=results_to, flush=True)

    outcome = asyncio.run(with_engines(play, rejudge(settings, book, play, show)))
    print(summary_line(outcome.results) + f"; {len(outcome.kept)} of {len(book)} openings kept",
          file=results_to, flush=True)
    command = (f"isaac-referee book --game {args.game} --rejudge {shlex.quote(args.rejudge)} --pairs {args.pairs} "
               f"--seed {args.seed} --tc {shlex.quote(args.tc or REJUDGE_TC)} --max-gap {args.max_gap:g}")
    header = [command, f"from {source}: {first_comment(source)}",
              f"engines: {'; '.join(engine_text(spec) for spec in engines)}"
              + (" (against itself)" if len(engines) == 1 else ""),
              "one opening per line; 'rejudged dark P/N' is Dark's points in N games from it, 'pairs' each",
              "pair's games by the colour that won (D Dark, L Light, = draw), 'was' its judgement before"]
    return outcome.kept, header


COMMAND = Command("book", help="build a balanced opening book for a game, or re-judge one",
                  description="Draws openings (each ply one of the shortest placements, uniformly), keeps "
                              "those the first engine judges close to even and where the engines' games "
                              "from them come out close to even, and writes them with both judgements. "
                              "With --rejudge BOOK, plays every opening of BOOK as game pairs instead and "
                              "keeps those that come out even. Engines are given as in a match (-engine); "
                              "default: the built-in isaac-engine against itself.",
                  add_arguments=add_arguments, run=run)
