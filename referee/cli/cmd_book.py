"""The `book` command: build a balanced opening book for one game (referee/book.py).

The book goes to stdout unless `-o FILE` names a file; an existing file is never
overwritten without `--force` (the shipped books in referee/books/ are rebuilt only
by naming them with `-o ... --force`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from protocol import GAME_NAMES

from ..book import book_text, build_book
from .arguments import Options, int_at_least
from .command import EXIT_FAIL, EXIT_OK, Command, UsageError


def add_arguments(p: Options) -> None:
    p.add("--game", required=True, choices=GAME_NAMES, help="the game the book is for")
    p.add("--count", type=int_at_least(1), default=100, help="openings wanted (default 100)")
    p.add("--plies", type=int_at_least(1), default=4, help="plies per opening (default 4)")
    p.add("--seed", type=int, default=1, help="seed of the drawing policy (default 1)")
    p.add("--nodes", type=int_at_least(1), default=3000,
          help="nodes of the judging search per opening (default 3000)")
    p.add("--max-cp", type=int_at_least(0), default=20,
          help="keep openings judged within this many cp of even (default 20)")
    p.add("--games", type=int_at_least(0), default=16,
          help="self-play games of search per opening judged close to even; 0 skips them (default 16)")
    p.add("--selfplay-nodes", type=int_at_least(1), default=None,
          help="nodes a move in the self-play games (default: --nodes)")
    p.add("--max-gap", type=float, default=0.2,
          help="keep openings where Dark's share of the self-play points is within this of 1/2 (default 0.2)")
    p.add("--jobs", type=int_at_least(1), default=1, help="processes playing the self-play games (default 1)")
    p.add("-o", "--output", metavar="FILE",
          help="write the book to FILE (default, or '-': stdout); an existing FILE needs --force")
    p.add("--force", action="store_true", default=False, help="overwrite an existing -o FILE")


def run(args: argparse.Namespace) -> int:
    path = None if args.output in (None, "-") else Path(args.output)
    if path is not None and path.exists() and not args.force:
        raise UsageError(f"{path} exists; add --force to overwrite it (or write to stdout: omit -o)")

    def progress(kept: int, tried: int) -> None:
        print(f"\r{args.game}: {kept}/{args.count} kept of {tried} drawn", end="", file=sys.stderr, flush=True)

    if not 0 <= args.max_gap <= 0.5:
        raise UsageError(f"--max-gap {args.max_gap}: expected a share between 0 and 0.5")
    entries = build_book(args.game, args.count, args.plies, args.seed, args.nodes, args.max_cp, progress,
                         games=args.games, selfplay_nodes=args.selfplay_nodes, max_gap=args.max_gap,
                         jobs=args.jobs)
    print(file=sys.stderr)
    if not entries:
        balanced = f" and played within {args.max_gap:g} of even" if args.games else ""
        print(f"isaac-referee book: no opening of {args.game} was judged within {args.max_cp} cp{balanced}; "
              f"nothing written", file=sys.stderr)
        return EXIT_FAIL
    header = (f"isaac-referee book --game {args.game} --count {args.count} --plies {args.plies} "
              f"--seed {args.seed} --nodes {args.nodes} --max-cp {args.max_cp}")
    if args.games:
        header += f" --games {args.games} --selfplay-nodes {args.selfplay_nodes or args.nodes} --max-gap {args.max_gap:g}"
    text = book_text(args.game, entries, header)
    if path is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        print(f"{len(entries)} openings written to stdout", file=sys.stderr)
    else:
        path.write_text(text, encoding="utf-8")
        print(f"{path}: {len(entries)} openings", file=sys.stderr)
    return EXIT_OK


COMMAND = Command("book", help="build a balanced opening book for a game",
                  description="Draws openings from the heuristic player with some randomness, keeps those a "
                              "short search judges close to even and where search against itself scores "
                              "close to even, and writes them with both judgements.",
                  add_arguments=add_arguments, run=run)
