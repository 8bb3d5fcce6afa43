"""The `book` command: build a balanced opening book for one game (referee/book.py)."""

from __future__ import annotations

import argparse
import sys

from protocol import GAME_NAMES

from ..book import build_book, shipped_book, write_book
from .arguments import Options, int_at_least
from .command import EXIT_FAIL, EXIT_OK, Command


def add_arguments(p: Options) -> None:
    p.add("--game", required=True, choices=GAME_NAMES, help="the game the book is for")
    p.add("--count", type=int_at_least(1), default=100, help="openings wanted (default 100)")
    p.add("--plies", type=int_at_least(1), default=4, help="plies per opening (default 4)")
    p.add("--seed", type=int, default=1, help="seed of the drawing policy (default 1)")
    p.add("--nodes", type=int_at_least(1), default=3000,
          help="nodes of the judging search per opening (default 3000)")
    p.add("--max-cp", type=int_at_least(0), default=20,
          help="keep openings judged within this many cp of even (default 20)")
    p.add("-o", "--output", metavar="FILE",
          help="where to write the book (default: the shipped book referee/books/<game>.txt)")


def run(args: argparse.Namespace) -> int:
    path = args.output or str(shipped_book(args.game))

    def progress(kept: int, tried: int) -> None:
        print(f"\r{args.game}: {kept}/{args.count} kept of {tried} drawn", end="", file=sys.stderr, flush=True)

    entries = build_book(args.game, args.count, args.plies, args.seed, args.nodes, args.max_cp, progress)
    print(file=sys.stderr)
    if not entries:
        print(f"isaac-referee book: no opening of {args.game} was judged within {args.max_cp} cp; "
              f"nothing written", file=sys.stderr)
        return EXIT_FAIL
    header = (f"isaac-referee book --game {args.game} --count {args.count} --plies {args.plies} "
              f"--seed {args.seed} --nodes {args.nodes} --max-cp {args.max_cp}")
    write_book(path, args.game, entries, header)
    print(f"{path}: {len(entries)} openings")
    return EXIT_OK


COMMAND = Command("book", help="build a balanced opening book for a game",
                  description="Draws openings from the heuristic player with some randomness, keeps those a "
                              "short search judges close to even, and writes them with their evaluation.",
                  add_arguments=add_arguments, run=run)
