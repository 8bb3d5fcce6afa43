"""Builds the engine's own opening books (engine/books/, read by engine/book.py): long searches, offline.

    python -m engine.book_build --game foundations --nodes 200000 --jobs 2

A book holds the start position and the replies to every first move of length
REPLY_LENGTHS, each searched by `search` to a node limit with a fixed seed, so a rebuild
gives the same book.
"""

from __future__ import annotations

import argparse
import random
import sys
import threading
from multiprocessing import Pool
from pathlib import Path

from protocol import game_class, registry
from protocol.messages import Info
from protocol.moves import Place

from .book import book_path
from .strategies import Limits, make_strategy

BUILD_SEED = 1
"""The rng seed of a book's searches: with a node limit, a rebuild gives the same book."""
REPLY_LENGTHS = (3, 4)
"""The opponent's first moves a book answers: pieces of these lengths (a longer first piece
is rare and poor; against it the engine searches as usual)."""


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
    header = (f"# {game_name} opening book: python -m engine.book_build --game {game_name} "
              f"--nodes {nodes} (seed {BUILD_SEED}); <move> <position>  # search nodes and score")
    with Pool(jobs) as pool:
        lines = pool.map(_search_one, [(game_name, p, nodes) for p in positions])
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(header + "\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return len(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.book_build", description=__doc__.splitlines()[0])
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
