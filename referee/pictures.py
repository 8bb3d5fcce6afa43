"""``isaac-svg`` (also ``python -m referee.pictures``): a position as SVG, or a recorded game as HTML.

The pictures are protocol/svg.py's and protocol/svg_replay.py's, which only render; this command
lives with the referee because it reads the referee's game records, with the referee's own strict
reader (referee/results/store.py): a records file with a damaged line is refused, naming the line, rather
than half read. Errors are one line on stderr, exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, NoReturn

from protocol import GAME_NAMES, game_from_position, new_game
from protocol.board import DARK, LIGHT
from protocol.errors import ArenaError
from protocol.game import Game
from protocol.moves import Move
from protocol.svg import board_svg
from protocol.svg_replay import game_page

from .results.store import RECORDS, StoreError, read_records_file

PROG = "isaac-svg"
EXIT_USAGE = 2
USAGE_EXAMPLES = """\
examples:
  isaac-svg 'hari c3c7/- 33333444455667/333334444555667 l -' -o board.svg
  isaac-svg hari --moves c3c7 d2d6 --orientation light --highlight a0 a1 -o hari.svg
  isaac-svg --records referee-runs/match-1 --game-id 3 -o game3.html
  isaac-svg --records referee-runs/match-1/records.jsonl --game-id 3 --ply 12 -o game3-ply12.svg

A bare game name is its start position; --moves plays moves from the position and marks the
last. With --records (a run directory or its records.jsonl) and --game-id, the output is a
self-contained HTML page stepping through that game, or with --ply N the SVG of the game after
N plies (0 is the start; opening plies count). Output goes to standard output unless -o FILE.
"""


def package_version() -> str:
    """The installed isaac-arena's version ('unknown' when run from a tree that is not installed)."""
    try:
        return version("isaac-arena")
    except PackageNotFoundError:
        return "unknown"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _Fail(message)


class _Fail(Exception):
    """A mistake in the command line or its input: one line, exit status 2."""


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog=PROG, allow_abbrev=False, formatter_class=argparse.RawDescriptionHelpFormatter,
                description="isaac-svg draws an ISAAC, FOUNDATIONS or HARI position as SVG, or a game the "
                            "referee recorded as a self-contained HTML page that steps through it.",
                epilog=USAGE_EXAMPLES)
    p.add_argument("-V", "--version", action="version", version=f"{PROG} (isaac-arena) {package_version()}")
    p.add_argument("position", nargs="*", help="position string (SPEC 7; quote it) or a game name for its start")
    p.add_argument("--moves", nargs="+", default=[], metavar="MOVE", help="moves to play first; the last is marked")
    p.add_argument("--last-move", metavar="MOVE", help="mark this move (already played) as the last one")
    p.add_argument("--highlight", nargs="+", default=[], metavar="CELL", help="cells to highlight, e.g. c3 c4")
    p.add_argument("--orientation", choices=("dark", "light"), default="dark", help="whose near edge is at the bottom")
    p.add_argument("--size", type=int, help="height in pixels (default: natural size)")
    p.add_argument("--no-hands", action="store_true", help="leave out the side panel with the hands")
    p.add_argument("--no-coordinates", action="store_true", help="leave out the coordinates")
    p.add_argument("--records", metavar="PATH", help="records.jsonl of a run (or its directory): HTML replay")
    p.add_argument("--game-id", metavar="ID", help="the game of --records to show")
    p.add_argument("--ply", type=int, metavar="N",
                   help="with --records: the SVG of that game after N plies (0 = start) instead of the page")
    p.add_argument("-o", "--output", metavar="FILE", help="write here instead of standard output")
    return p


def _position(words: list[str]) -> Game:
    text = " ".join(words).strip()
    if not text:
        raise _Fail("give a position string (quoted) or a game name, or --records PATH --game-id ID")
    if text.lower() in GAME_NAMES:
        return new_game(text.lower())
    return game_from_position(text)


def find_record(path_text: str, game_id: str | None) -> dict[str, Any]:
    """The record of `game_id` in a run directory or records file, read by the referee's strict reader."""
    path = Path(path_text)
    if path.is_dir():
        path = path / RECORDS
    if not path.is_file():
        raise _Fail(f"no records file at {path}")
    if game_id is None:
        raise _Fail("--records needs --game-id (the game_id of the game to show)")
    records, _ = read_records_file(path)
    for record in records:
        if str(record["game_id"]) == game_id:
            return record
    ids = [str(record["game_id"]) for record in records]
    shown = ", ".join(ids[:10]) + (" ..." if len(ids) > 10 else "")
    raise _Fail(f"no game {game_id} in {path} (games: {shown or 'none'})")


def _record_ply(record: dict[str, Any], ply: int) -> tuple[Game, Move | str | None]:
    """The recorded game after `ply` plies (opening included) and the move that led there."""
    moves = [str(m) for m in record["opening"]] + [str(m["move"]) for m in record["moves"]]
    if not 0 <= ply <= len(moves):
        raise _Fail(f"--ply {ply} is outside the game: it has {len(moves)} plies (0 is the start)")
    game = game_from_position(str(record["start_position"]))
    last: Move | str | None = None
    for text in moves[:ply]:
        last = game.play(text)
    return game, last


def _render(args: argparse.Namespace) -> str:
    orientation = LIGHT if args.orientation == "light" else DARK
    if args.size is not None and args.size <= 0:
        raise _Fail(f"--size must be a positive number of pixels, not {args.size}")
    if args.records:
        if args.position or args.moves or args.last_move:
            raise _Fail("--records draws a recorded game; leave out the position, --moves and --last-move")
        record = find_record(args.records, args.game_id)
        if args.ply is None:
            if args.highlight:
                raise _Fail("--highlight needs a single board: add --ply N")
            return game_page(record, orientation=orientation, size=args.size)
        game, last = _record_ply(record, args.ply)
        players: tuple[str, str] | None = (str(record["dark"]["name"]), str(record["light"]["name"]))
    else:
        players = None
        if args.game_id is not None or args.ply is not None:
            raise _Fail("--game-id and --ply need --records PATH")
        game = _position(args.position)
        last = args.last_move
        for text in args.moves:
            last = game.play(text)
    return board_svg(game, size=args.size, orientation=orientation, last_move=last, highlights=args.highlight,
                     show_hands=not args.no_hands, coordinates=not args.no_coordinates, players=players) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Run isaac-svg; 0 when done (also after --help and --version), 2 after any error."""
    try:
        try:
            args = build_parser().parse_args(argv)
        except SystemExit as done:   # --help and --version print and exit 0
            return done.code if isinstance(done.code, int) else 0
        text = _render(args)
        if args.output:
            try:
                Path(args.output).write_text(text, encoding="utf-8")
            except OSError as exc:
                raise _Fail(f"cannot write {args.output}: {exc.strerror}") from None
        else:
            sys.stdout.write(text)
    except (_Fail, ArenaError, StoreError, ValueError) as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
