"""`isaac-arena`: make an arena, manage its authors and bots, serve it, end its season.

    isaac-arena init DIR --game hari [--tc st=0.1] [--sandbox bwrap|none] [--database URL]
    isaac-arena author add DIR NAME        # prints the author's token, once
    isaac-arena serve DIR [--port 8080] [--workers N | --cluster tcp://HOST:8786]
    isaac-arena submit URL TOKEN ARCHIVE   # an author, from anywhere
    isaac-arena add DIR --author NAME PATH # the host, a bot directory or archive on this machine
    isaac-arena standings DIR              # every ladder game, the referee's maximum-likelihood fit
    isaac-arena final DIR --top 8 --games 10
    isaac-arena export DIR OUT

Exit status: 0 done, 1 a refusal by the server, 2 bad input (arguments, arena.toml, database).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

import protocol
from protocol import GAME_NAMES

from ..config import CONFIG_NAME, ArenaConfigError, config_text, load_arena, parse_config
from ..db import authors as authors_db
from ..db import bots as bots_db
from ..db.database import DatabaseError, migrate, open_database
from ..intake.archive import ArchiveError
from ..intake.pipeline import SubmissionError, pack_directory, submit_archive
from .submit import SubmitError, submit


class Fail(Exception):
    """A command's refusal: its message and exit status."""

    def __init__(self, message: str, status: int = 2):
        super().__init__(message)
        self.status = status


def _open(directory: str) -> tuple[Any, Any]:
    try:
        arena = load_arena(directory)
        engine = open_database(arena.database_url())
        migrate(engine)
    except (ArenaConfigError, DatabaseError) as exc:
        raise Fail(str(exc)) from None
    return arena, engine


def cmd_init(args: argparse.Namespace) -> int:
    path = Path(args.dir)
    if (path / CONFIG_NAME).exists():
        raise Fail(f"{path} is an arena already ({CONFIG_NAME} exists)")
    games = [g.strip().lower() for part in args.game for g in part.split(",") if g.strip()]
    text = config_text(games, args.tc, args.sandbox, args.database or "sqlite:///arena.db", args.openings or "",
                       args.name or path.resolve().name)
    try:
        parse_config(text, f"{path / CONFIG_NAME}")
    except ArenaConfigError as exc:
        raise Fail(str(exc)) from None
    path.mkdir(parents=True, exist_ok=True)
    (path / CONFIG_NAME).write_text(text, encoding="utf-8")
    arena, engine = _open(args.dir)
    for sub in (arena.archives, arena.bots, arena.finals):
        sub.mkdir(exist_ok=True)
    _, token = authors_db.add_author(engine, authors_db.ADMIN, is_admin=True)
    print(f"made the arena {arena.dir} ({', '.join(games)}, {args.tc}, sandbox {args.sandbox})")
    print(f"the host's admin token (shown once; keep it): {token}")
    print(f"next: isaac-arena author add {args.dir} NAME, then isaac-arena serve {args.dir}")
    return 0


def cmd_author(args: argparse.Namespace) -> int:
    _, engine = _open(args.dir)
    try:
        if args.action == "add":
            author, token = authors_db.add_author(engine, args.name)
            print(f"author {author.name}: token {token}")
            print("(shown once: give it to the author; `isaac-arena author token` makes a new one)")
        elif args.action == "token":
            print(f"author {args.name}: new token {authors_db.new_token_for(engine, args.name)} (the old one no longer works)")
        else:
            for author in authors_db.list_authors(engine):
                print(f"{author.name}{' (admin)' if author.is_admin else ''}")
    except authors_db.AuthorError as exc:
        raise Fail(str(exc)) from None
    return 0


def cmd_add(args: argparse.Namespace) -> int:
    arena, engine = _open(args.dir)
    author = authors_db.author_by_name(engine, args.author)
    if author is None:
        raise Fail(f"no author called {args.author!r} (isaac-arena author add {args.dir} {args.author})")
    source = Path(args.path)
    try:
        data = pack_directory(source) if source.is_dir() else source.read_bytes()
    except OSError as exc:
        raise Fail(f"{source}: cannot be read: {exc.strerror or exc}") from None
    try:
        row = submit_archive(arena, engine, author.id, data)
    except (SubmissionError, ArchiveError) as exc:
        raise Fail(f"{source}: refused: {exc}", 1) from None
    print(f"{row.bot} v{row.number} queued; a running `isaac-arena serve` builds and checks it")
    return 0


def cmd_submit(args: argparse.Namespace) -> int:
    try:
        answer = submit(args.url, args.token, Path(args.archive))
    except SubmitError as exc:
        raise Fail(str(exc), exc.status) from None
    print(f"{answer['bot']} v{answer['version']}: {answer['status']} ({answer['reason']}); see {args.url.rstrip('/')}"
          f"{answer['page']}")
    return 0


def cmd_bot(args: argparse.Namespace) -> int:
    _, engine = _open(args.dir)
    try:
        if args.command == "suspend":
            bots_db.suspend(engine, args.bot, args.reason or "suspended by the host")
        elif args.command == "resume":
            bots_db.resume(engine, args.bot)
        else:
            bots_db.delete(engine, args.bot, 0, True)
    except bots_db.BotError as exc:
        raise Fail(str(exc), 1) from None
    print(f"{args.bot}: {args.command} done (a running server sees it within a second)")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from .serve import serve
    arena, engine = _open(args.dir)
    if args.workers is not None and args.workers < 1:
        raise Fail("--workers must be at least 1")
    concurrency = args.workers or arena.config.ladder.concurrency
    try:
        import uvicorn  # noqa: F401
    except ImportError:
        raise Fail("the web stack is not installed: pip install 'isaac-arena[arena]'") from None
    return serve(arena, engine, host=args.host, port=args.port, concurrency=concurrency, cluster=args.cluster,
                 allowed=args.allowed_host, ladder_on=not args.no_ladder)


def cmd_final(args: argparse.Namespace) -> int:
    from ..season.final import FinalError, run_final
    arena, engine = _open(args.dir)
    if not 2 <= args.top <= 64 or args.games < 2 or args.games % 2:
        raise Fail("--top must be 2..64 and --games an even number of at least 2")
    try:
        result = run_final(arena, engine, args.top, args.games, concurrency=args.concurrency, cluster=args.cluster,
                           log=lambda text: print(text, file=sys.stderr, flush=True))
    except FinalError as exc:
        raise Fail(str(exc), 1) from None
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print(f"final {result['id']}: {result['games']} games ({result['run_dir']})")
    for row in result["ranking"]:
        elo = "-" if row["elo"] is None else f"{row['elo']:+.1f} ({row['low']:+.1f}, {row['high']:+.1f})"
        print(f"{row['rank']:>3}  {row['bot']} v{row['version']}  Elo {elo}  {row['points']:g}/{row['games']}")
    return 0


def cmd_standings(args: argparse.Namespace) -> int:
    from ..season.standings import season_standings
    _, engine = _open(args.dir)
    data = season_standings(engine)
    if args.json:
        print(json.dumps(data, indent=1))
    else:
        fitted = data["ratings"]
        print(f"{data['games']} ladder games; {fitted['method']}, average 0")
        for rank, e in enumerate(fitted["engines"], 1):
            elo = "-" if e["elo"] is None else f"{e['elo']:+.1f} ({e['low']:+.1f}, {e['high']:+.1f})"
            print(f"{rank:>4}  {e['name']:<30}  Elo {elo:<26}  {e['points']:g}/{e['games']}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from ..season.export import export_season
    arena, engine = _open(args.dir)
    count = export_season(engine, Path(args.out), arena.config.name)
    print(f"{count} games written to {args.out}/records.jsonl and {args.out}/games.pgn "
          f"(isaac-referee report {args.out} draws report.html)")
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="isaac-arena", description="isaac-arena's standing competition for ISAAC, "
                                "FOUNDATIONS and HARI bots: authors submit bots over weeks, each is checked, "
                                "rated on a never-ending ladder and shown on web pages; a final round-robin ends "
                                "the season.", epilog="docs/arena.md tells more.")
    p.add_argument("-V", "--version", action="version", version=f"isaac-arena (isaac-arena) {protocol.__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    s = sub.add_parser("init", help="make an arena directory")
    s.add_argument("dir")
    s.add_argument("--game", action="append", required=True, help=f"the game ({', '.join(GAME_NAMES)}); "
                   "repeat or comma-separate for several")
    s.add_argument("--tc", default="st=0.1", help="time control (default st=0.1)")
    s.add_argument("--openings", help="book, startpos, random:PLIES or a file (default: each game's own)")
    s.add_argument("--sandbox", choices=("bwrap", "none"), default="bwrap", help="default bwrap")
    s.add_argument("--database", help="sqlite:///PATH (default arena.db in DIR) or postgresql://USER@HOST/DB")
    s.add_argument("--name", help="the arena's title on its pages (default: the directory's name)")
    s.set_defaults(run=cmd_init)
    s = sub.add_parser("author", help="add an author (prints their token), make a new token, list authors")
    s.add_argument("action", choices=("add", "token", "list"))
    s.add_argument("dir")
    s.add_argument("name", nargs="?")
    s.set_defaults(run=cmd_author)
    s = sub.add_parser("serve", help="the web service and the ladder")
    s.add_argument("dir")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=8080, help="default 8080; 0 picks a free port")
    s.add_argument("--workers", type=int, help="games at once on this machine (default: arena.toml's concurrency)")
    s.add_argument("--cluster", metavar="tcp://HOST:PORT", help="play the games on this Dask cluster")
    s.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                   help="a public host name the pages may be reached under (behind a reverse proxy)")
    s.add_argument("--no-ladder", action="store_true",
                   help="serve the pages and take submissions, but play no games (between seasons)")
    s.set_defaults(run=cmd_serve)
    s = sub.add_parser("submit", help="send a bot archive to an arena (an author's command)")
    s.add_argument("url")
    s.add_argument("token")
    s.add_argument("archive")
    s.set_defaults(run=cmd_submit)
    s = sub.add_parser("add", help="queue a bot from a directory or archive on this machine (the host's command)")
    s.add_argument("dir")
    s.add_argument("path")
    s.add_argument("--author", required=True)
    s.set_defaults(run=cmd_add)
    for name, text in (("suspend", "stop a bot playing"), ("resume", "let a suspended bot play again"),
                       ("delete", "remove a bot from the ladder and the pages")):
        s = sub.add_parser(name, help=text)
        s.add_argument("dir")
        s.add_argument("bot")
        if name == "suspend":
            s.add_argument("--reason")
        s.set_defaults(run=cmd_bot)
    s = sub.add_parser("final", help="the season's final round-robin among the top bots")
    s.add_argument("dir")
    s.add_argument("--top", type=int, default=8)
    s.add_argument("--games", type=int, default=10, help="games per encounter (even; default 10)")
    s.add_argument("--concurrency", type=int)
    s.add_argument("--cluster", metavar="tcp://HOST:PORT")
    s.add_argument("--json", action="store_true")
    s.set_defaults(run=cmd_final)
    s = sub.add_parser("standings", help="the season's maximum-likelihood standings over every ladder game")
    s.add_argument("dir")
    s.add_argument("--json", action="store_true")
    s.set_defaults(run=cmd_standings)
    s = sub.add_parser("export", help="the season as records.jsonl and games.pgn")
    s.add_argument("dir")
    s.add_argument("out")
    s.set_defaults(run=cmd_export)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command == "author" and args.action in ("add", "token") and not args.name:
        print("isaac-arena author: error: NAME is needed", file=sys.stderr)
        return 2
    try:
        return int(args.run(args))
    except Fail as exc:
        print(f"isaac-arena {args.command}: error: {exc}", file=sys.stderr)
        return exc.status
    except KeyboardInterrupt:
        return 130
    except Exception as exc:   # a bug: one line (the traceback with ISAAC_ARENA_DEBUG=1)
        if os.environ.get("ISAAC_ARENA_DEBUG"):
            raise
        print(f"isaac-arena {args.command}: internal error ({type(exc).__name__}: {exc}); this is a bug "
              f"(ISAAC_ARENA_DEBUG=1 shows where)", file=sys.stderr)
        return 1
