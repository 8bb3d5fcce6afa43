"""From the command line and the stored identity to engines, schedule, openings and the run plan."""

from __future__ import annotations

import argparse
import os
from typing import Any

from .. import config as cfg
from ..engine_process import EngineSpec
from ..openings import CHECKED_OPENINGS, Opening, OpeningBook, OpeningError, OpeningSource, parse_source
from ..runner import RunPlan
from ..schedule import Schedule, match_schedule, tournament_schedule
from ..stats import Sprt
from .command import UsageError

Identity = dict[str, Any]


def default_concurrency() -> int:
    """Games at once that the machine holds without distorting clocks.

    Engines do not ponder, so a game keeps about one core busy (the side to
    move); one core is left for the referee itself and the OS, so clocks measure
    thinking, not waiting for a CPU: max(1, usable cores - 1).
    """
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, cores - 1)


def player_options(args: argparse.Namespace) -> dict[str, Any]:
    """EnginePlayer keyword arguments for the limits given on the command line."""
    names = ("max_line", "max_move_bytes", "max_move_lines", "start_timeout", "ping_timeout")
    return {name: getattr(args, name) for name in names if getattr(args, name, None) is not None}


def engines_from_args(args: argparse.Namespace) -> list[EngineSpec]:
    """The engines of -engine / -each / --engines-file, with the run-wide limits."""
    try:
        engines = cfg.build_engines(args.engine, args.each, args.engines_file, tc=args.tc,
                                    memory_mb=args.memory_mb, cpu_seconds=args.cpu_seconds,
                                    margin_ms=args.margin, sandbox=args.sandbox)
    except cfg.ConfigError as exc:
        raise UsageError(str(exc)) from None
    if not engines:
        raise UsageError("no engines: give -engine name=... cmd=\"...\" (twice for a match) "
                         "or --engines-file FILE")
    return engines


def schedule(identity: Identity) -> Schedule:
    """The games of the run, in order."""
    names = [e["name"] for e in identity["engines"]]
    if identity["command"] == "match":
        if len(names) != 2:
            raise UsageError(f"a match needs exactly 2 engines, got {len(names)}"
                             + (f" ({', '.join(names)})" if names else "")
                             + "; use 'tournament' for more")
        try:
            return match_schedule(names[0], names[1], identity["games"])
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    try:
        return tournament_schedule(names, identity["format"], identity["games"], identity["rounds"])
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def resolve_openings(identity: Identity, openings_arg: str | None,
                     games: Schedule) -> tuple[list[Opening], dict[str, Any] | None]:
    """What config.json keeps of the openings: (every opening the schedule uses, by index, so
    --resume never re-derives them; None) for a file or the start position, or ([], a digest of the
    first ones) for random openings, which are drawn when a game needs them."""
    try:
        source = parse_source(openings_arg, identity["game"])
        book = OpeningBook(identity["game"], source, identity["seed"])
        if source.kind == "random":
            count = min(CHECKED_OPENINGS, games.openings_used())
            return [], {"count": count, "sha256": book.check(count)}
        if source.kind == "none":
            return [Opening(None)], None
        needed = min(games.openings_used(), len(book))
        return [book.get(i) for i in range(max(needed, 1))], None
    except OpeningError as exc:
        raise UsageError(str(exc)) from None


def opening_book(identity: Identity, openings: list[Opening], random_check: dict[str, Any] | None) -> OpeningBook:
    """The book of a prepared run: the stored openings, or the random ones drawn as stored."""
    source = identity.get("openings") or {}
    if source.get("kind") != "random" or openings:
        return OpeningBook.fixed(identity["game"], openings or [Opening(None)])
    book = OpeningBook(identity["game"], OpeningSource("random", plies=int(source.get("plies", 0))),
                       identity["seed"])
    if random_check is not None:
        count = int(random_check.get("count", 0))
        try:
            same = book.check(count) == random_check.get("sha256")
        except OpeningError as exc:
            raise UsageError(f"random openings: {exc}") from None
        if not same:
            raise UsageError("the random openings this referee draws from the run's seed differ from the run's "
                             "own (the rules or the generator changed since): resuming would mix two sets "
                             "of openings; start a new run")
    return book


def build_plan(args: argparse.Namespace, identity: Identity, book: OpeningBook) -> RunPlan:
    """The runner's plan for a prepared run."""
    engines = [EngineSpec.from_json(e) for e in identity["engines"]]
    sprt = Sprt(**identity["sprt"]) if identity.get("sprt") else None
    return RunPlan(mode=identity["command"], game_type=identity["game"], engines=engines,
                   schedule=schedule(identity), book=book,
                   concurrency=args.concurrency or default_concurrency(), sprt=sprt,
                   max_plies=identity.get("max_plies", 1000), player_options=player_options(args),
                   preflight=True, seed=identity.get("seed"), fair_cpu=args.fair_cpu)
