"""``isaac-svg`` (also ``python -m protocol.svg``): a position to SVG, or a recorded game to HTML.

    isaac-svg 'hari c3c7/- 33333444455667/333334444555667 l -' -o board.svg
    isaac-svg hari --moves c3c7 d2d6 --orientation light --highlight a0 a1
    isaac-svg --records referee-runs/match-1/records.jsonl --game-id 3 -o game3.html
    isaac-svg --records referee-runs/match-1 --game-id 3 --ply 12 -o game3-ply12.svg

A bare game name is its start position; ``--moves`` plays moves from the
position and marks the last. With ``--records`` (a records.jsonl or the run
directory holding it) the output is a self-contained HTML page stepping through
the whole game, or with ``--ply N`` the SVG of the game after N plies. Errors are one line on stderr, exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import NoReturn

from . import GAME_NAMES, game_from_position, new_game
from .board import DARK, LIGHT
from .errors import ArenaError
from .game import Game
from .moves import Move
from .svg import board_svg
from .svg_replay import game_page

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _Fail(message)


class _Fail(Exception):
    """A mistake in the command line or its input: one line, exit status 2."""


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="isaac-svg", allow_abbrev=False,
                description="Draw a position as SVG, or a recorded game as a self-contained HTML replay.")
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


def _read_record(path_text: str, game_id: str | None) -> dict[str, object]:
    path = Path(path_text)
    if path.is_dir():
        path = path / "records.jsonl"
    if not path.is_file():
        raise _Fail(f"no records file at {path}")
    if game_id is None:
        raise _Fail("--records needs --game-id (the game_id of the game to show)")
    ids = []
    for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError:
            continue                            # a torn last line, as the referee's own reader allows
        if not isinstance(record, dict) or "game_id" not in record:
            raise _Fail(f"{path}, line {number}: not a game record")
        if str(record["game_id"]) == game_id:
            return record
        ids.append(str(record["game_id"]))
    shown = ", ".join(ids[:10]) + (" ..." if len(ids) > 10 else "")
    raise _Fail(f"no game {game_id} in {path} (games: {shown or 'none'})")


def _record_ply(record: dict[str, object], ply: int) -> tuple[Game, Move | str | None]:
    """The recorded game after `ply` plies (opening included) and the move that led there."""
    moves = [str(m) for m in _items(record.get("opening"))]
    moves += [str(m.get("move", "")) if isinstance(m, dict) else "" for m in _items(record.get("moves"))]
    if not 0 <= ply <= len(moves):
        raise _Fail(f"--ply {ply} is outside the game: it has {len(moves)} plies (0 is the start)")
    game = game_from_position(str(record.get("start_position", "")))
    last: Move | str | None = None
    for text in moves[:ply]:
        last = game.play(text)
    return game, last


def _side_name(record: dict[str, object], side: str) -> str:
    value = record.get(side)
    return str(value.get("name", "?")) if isinstance(value, dict) else "?"


def _items(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def _render(args: argparse.Namespace) -> str:
    orientation = LIGHT if args.orientation == "light" else DARK
    if args.size is not None and args.size <= 0:
        raise _Fail(f"--size must be a positive number of pixels, not {args.size}")
    if args.records:
        if args.position or args.moves or args.last_move:
            raise _Fail("--records draws a recorded game; leave out the position, --moves and --last-move")
        record = _read_record(args.records, args.game_id)
        if args.ply is None:
            if args.highlight:
                raise _Fail("--highlight needs a single board: add --ply N")
            return game_page(record, orientation=orientation, size=args.size)
        game, last = _record_ply(record, args.ply)
        players: tuple[str, str] | None = (_side_name(record, "dark"), _side_name(record, "light"))
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
    try:
        args = build_parser().parse_args(argv)
        text = _render(args)
        if args.output:
            try:
                Path(args.output).write_text(text, encoding="utf-8")
            except OSError as exc:
                raise _Fail(f"cannot write {args.output}: {exc.strerror}") from None
        else:
            sys.stdout.write(text)
    except (_Fail, ArenaError, ValueError) as exc:
        print(f"isaac-svg: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
