"""The run's identity, and the checks that decide between a fresh run and a resumed one.

The identity is the configuration that defines the games (engines, game, schedule, seed,
openings, limits that change play); ``--resume`` continues a run only under the same identity.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from ..engine_process import EngineSpec
from ..openings import Opening, OpeningBook, OpeningError, parse_source
from ..stats import Sprt
from ..store import RECORDS, Store, StoreError
from .command import UsageError
from .plan import Identity, engines_from_args, opening_book, resolve_openings, schedule

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
