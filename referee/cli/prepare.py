"""Preparing a run from the command line: its engines, its identity, a fresh or a resumed run
directory, its schedule and openings, and the runner's plan.

The identity is the configuration that defines the games (engines, game, schedule, seed,
openings, limits that change play); ``--resume`` continues a run only under the same identity.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from pathlib import Path
from typing import Any

from ..engines import config as cfg
from ..engines.process import EngineSpec
from ..matches.openings import (
    CHECKED_OPENINGS,
    Opening,
    OpeningBook,
    OpeningError,
    OpeningSource,
    parse_source,
)
from ..matches.plan import RunPlan
from ..matches.schedule import Schedule, match_schedule, tournament_schedule
from ..results.sprt import Sprt
from ..results.store import RECORDS, Store, StoreError
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


CONFIG_VERSION = 1

# Options that must agree with the stored run when resuming from the directory alone.
RESUME_SAME = ("game", "games", "seed", "max_plies", "rounds", "format")
# Per-engine settings that cannot be applied without the engines themselves.
RESUME_PER_ENGINE = ("tc", "margin", "memory_mb", "cpu_seconds", "sandbox")


def identity_from_args(args: argparse.Namespace, engines: list[EngineSpec], seed: int) -> Identity:
    """The configuration that defines the games; --resume must see the same one."""
    try:
        source = parse_source(args.openings, args.game)
    except OpeningError as exc:
        raise UsageError(str(exc)) from None
    identity: Identity = {
        "command": args.command, "game": args.game, "games": args.games,
        "format": getattr(args, "format", None), "rounds": getattr(args, "rounds", 1),
        "engines": [spec.to_json() for spec in engines], "seed": seed, "openings": source.identity(),
        "max_plies": args.max_plies, "sprt": None,
    }
    if args.sprt:
        if args.command != "match":
            raise UsageError("--sprt works in a match (two engines), not in a tournament")
        try:
            identity["sprt"] = Sprt(*args.sprt).to_json()
        except ValueError as exc:
            raise UsageError(f"--sprt: {exc}") from None
    return identity


def differences(stored: Identity, now: Identity) -> list[str]:
    """Human-readable differences between two identities."""
    out = []
    for key in sorted(set(stored) | set(now)):
        a, b = stored.get(key), now.get(key)
        if key == "engines" and isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
            for i, (ea, eb) in enumerate(zip(a, b)):
                for field_name in sorted(set(ea) | set(eb)):
                    if ea.get(field_name) != eb.get(field_name):
                        out.append(f"engine #{i + 1} ({eb.get('name')}) {field_name}: stored "
                                   f"{ea.get(field_name)!r}, now {eb.get(field_name)!r}")
        elif a != b:
            out.append(f"{key}: stored {a!r}, now {b!r}")
    return out


def changed_options(args: argparse.Namespace, identity: Identity) -> list[str]:
    """Resuming from config.json alone: the options given now that disagree with the stored run."""
    given: set[str] = getattr(args, "explicit", set())
    diff = [f"--{d.replace('_', '-')}: stored {identity.get(d)!r}, now {getattr(args, d)!r}"
            for d in RESUME_SAME if d in given and getattr(args, d) != identity.get(d)]
    if "openings" in given:
        try:
            now = parse_source(args.openings, identity.get("game")).identity()
        except OpeningError as exc:
            raise UsageError(str(exc)) from None
        if now != identity.get("openings"):
            diff.append(f"--openings: stored {identity.get('openings')!r}, now {now!r}")
    if "sprt" in given and args.sprt and Sprt(*args.sprt).to_json() != identity.get("sprt"):
        diff.append(f"--sprt: stored {identity.get('sprt')!r}, now {args.sprt!r}")
    per_engine = [f"--{d.replace('_', '-')}" for d in RESUME_PER_ENGINE if d in given]
    if per_engine:
        diff.append(f"{', '.join(per_engine)} without engines: the stored engines' settings are used; "
                    "omit it, or give the engines too")
    return diff


def new_out_dir(command: str) -> Path:
    """referee-runs/<command>-<time>, with a suffix if that exists already."""
    base = Path("referee-runs") / f"{command}-{time.strftime('%Y%m%d-%H%M%S')}"
    path, k = base, 1
    while path.exists():
        k += 1
        path = base.with_name(f"{base.name}-{k}")
    return path


def prepare(args: argparse.Namespace) -> tuple[Store, Identity, OpeningBook, bool]:
    """(store, identity, opening book, resumed) after the resume / fresh-start checks."""
    if args.resume and not args.out:
        raise UsageError("--resume needs --out DIR (the directory of the run to continue)")
    out = Path(args.out) if args.out else new_out_dir(args.command)
    store = Store(out)
    stored = store.load_config()
    has_records = (out / RECORDS).exists() and (out / RECORDS).stat().st_size > 0
    engines_given = bool(args.engine or args.engines_file)
    if stored is None and has_records:
        raise StoreError(f"{out} holds {RECORDS} but no config.json, so the run cannot be identified; "
                         f"choose another --out")
    if stored is None and args.resume and not engines_given:
        raise StoreError(f"--resume: {out} holds no run to resume (no config.json there)")
    if stored is not None and not args.resume:
        raise StoreError(f"{out} already holds a run ({'games recorded in ' + RECORDS if has_records else 'no game recorded yet'}); "
                         f"add --resume to continue it, or choose another --out")
    if stored is not None:
        identity = _resumed_identity(args, stored, out, engines_given)
        openings = [Opening.from_json(o) for o in stored.get("openings", [])]
        check = stored.get("random_openings_check")
        return store, identity, opening_book(identity, openings, check if isinstance(check, dict) else None), True
    engines = engines_from_args(args)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 2**31)
    identity = identity_from_args(args, engines, seed)
    openings, check = resolve_openings(identity, args.openings, schedule(identity))
    config = {"version": CONFIG_VERSION, "identity": identity, "openings": [o.to_json() for o in openings],
              "openings_source": args.openings, "created_at": time.strftime("%Y-%m-%dT%H:%M:%S")}
    if check is not None:
        config["random_openings_check"] = check
    store.save_config(config)
    return store, identity, opening_book(identity, openings, None), False


def _resumed_identity(args: argparse.Namespace, stored: dict[str, object], out: Path,
                      engines_given: bool) -> Identity:
    """The stored identity, after checking that the command line agrees with it."""
    identity = stored.get("identity")
    if stored.get("version") != CONFIG_VERSION or not isinstance(identity, dict):
        raise StoreError(f"{out}/config.json is not a run configuration this referee understands")
    if identity.get("command") != args.command:
        raise StoreError(f"{out} holds a {identity.get('command')}, not a {args.command}; "
                         f"resume it with 'isaac-referee {identity.get('command')} --out {out} --resume'")
    if not engines_given:
        diff = changed_options(args, identity)
        if diff:
            raise StoreError(f"--resume: options differ from the run stored in {out}:\n  " + "\n  ".join(diff))
        return identity
    now = identity_from_args(args, engines_from_args(args), identity["seed"] if args.seed is None else args.seed)
    diff = differences(identity, now)
    if diff:
        raise StoreError(f"--resume: {out} holds a different configuration, refusing to mix two "
                         f"matches:\n  " + "\n  ".join(diff)
                         + "\n(omit the engines to resume the stored configuration as it is)")
    return identity
