"""isaac-referee: matches, tournaments, conformance checks and PGN export.

    isaac-referee match -engine name=A cmd="python -m engine" option.Strategy=greedy \\
                        -engine name=B cmd="python -m engine" option.Strategy=random \\
                        -each tc=st=0.05 --game isaac --games 10 --openings random:4
    isaac-referee tournament --format round-robin --engines-file engines.toml --games 2 --rounds 3
    isaac-referee check python -m engine
    isaac-referee export-pgn referee-runs/match-20250101-120000

Exit codes: 0 done (all games played, or SPRT decided), 1 the check failed or
an output directory problem, 2 bad arguments, 130 interrupted (finished games
are saved; continue with --resume).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import sys
import time
from pathlib import Path

from protocol import GAME_NAMES

from . import config as cfg
from .engine_process import EngineSpec, kill_all_engines
from .openings import Opening, OpeningBook, OpeningError, parse_source
from .pgn import export_file, records_to_pgn
from .progress import Progress
from .runner import Runner, RunOutcome, RunPlan, Tracker
from .schedule import FORMATS, ScheduledGame, match_schedule, tournament_schedule
from .stats import Sprt, engine_totals, format_elo, standings, standings_table, termination_counts
from .store import PGN, RECORDS, SUMMARY, Store, StoreError

CONFIG_VERSION = 1
EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


class UsageError(Exception):
    """A mistake in the command line; printed as 'isaac-referee: error: ...' with exit code 2."""


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


# -- argument parsing -----------------------------------------------------------

def _int_at_least(minimum: int):
    """An argparse type: a whole number >= minimum, with a message saying which rule failed."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, not {value}")
        return value
    return parse


_positive_int = _int_at_least(1)
_non_negative_int = _int_at_least(0)


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, not {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, not {text}")
    return value


def _add_run_arguments(p: argparse.ArgumentParser, games_default: int, games_help: str) -> None:
    eng = p.add_argument_group("engines")
    eng.add_argument("-engine", dest="engine", action="append", nargs="+", metavar="KEY=VALUE", default=[],
                     help="one engine: name=, cmd=\"...\", dir=, arg=, option.<Name>=, tc=, memory_mb=, "
                          "cpu_seconds= (repeat -engine for each engine)")
    eng.add_argument("-each", dest="each", action="append", nargs="+", metavar="KEY=VALUE", default=[],
                     help="settings for every engine (tc=, option.<Name>=, dir=, ...); an engine's own settings win")
    eng.add_argument("--engines-file", metavar="TOML",
                     help="[engines.<name>] tables; -engine name=<name> picks one (all of them if no -engine)")
    game = p.add_argument_group("games")
    game.add_argument("--game", choices=GAME_NAMES, default="isaac", help="game type (default isaac)")
    game.add_argument("--games", type=_positive_int, default=games_default, help=games_help)
    game.add_argument("--tc", metavar="TC", help=f"time control for every engine without its own "
                      f"(default {cfg.DEFAULT_TC}): '10+0.1', '40/60', 'st=0.1', 'movetime=100', 'depth=4', "
                      f"'nodes=5000', parts combined with spaces, e.g. '5+0.05 margin=100'")
    game.add_argument("--margin", type=_non_negative_int, metavar="MS", help="time margin before a time forfeit, for every "
                      "engine (default 50 ms, or margin= in a tc)")
    game.add_argument("--openings", metavar="SOURCE", help="random:PLIES, or a file with one opening per line "
                      "(a move sequence, or a position string optionally followed by 'moves ...'); "
                      "default: the start position")
    game.add_argument("--seed", type=int, help="seed of random openings (default: random, stored for --resume)")
    game.add_argument("--max-plies", type=_positive_int, default=1000,
                      help="adjudicate a draw after this many engine plies (safety cap; default 1000)")
    game.add_argument("--sprt", nargs=4, type=float, metavar=("ELO0", "ELO1", "ALPHA", "BETA"),
                      help="match only: stop early once the SPRT of H0 elo0 vs H1 elo1 decides")
    run = p.add_argument_group("running")
    run.add_argument("--concurrency", type=_positive_int, default=None,
                     help=f"games at once (default max(1, cores - 1) = {default_concurrency()} here)")
    run.add_argument("--out", metavar="DIR", help="output directory (default referee-runs/<command>-<time>)")
    run.add_argument("--resume", action="store_true", help="continue the run stored in --out DIR "
                     "(engines may be omitted: they come from DIR/config.json)")
    run.add_argument("--json", action="store_true", help="print the summary as JSON on stdout "
                     "(progress goes to stderr)")
    run.add_argument("--io-log", metavar="FILE", help="append every line sent to and read from engines")
    lim = p.add_argument_group("engine limits")
    lim.add_argument("--memory-mb", type=_positive_int, help="address-space limit per engine process (MB)")
    lim.add_argument("--cpu-seconds", type=_positive_int, help="CPU-time limit per engine process (s)")
    lim.add_argument("--max-line", type=_positive_int, metavar="BYTES",
                     help="longest output line accepted from an engine (default 65536)")
    lim.add_argument("--max-move-bytes", type=_positive_int, metavar="BYTES",
                     help="output volume allowed per move (default 32 MiB)")
    lim.add_argument("--max-move-lines", type=_positive_int, metavar="N",
                     help="output lines allowed per move (default 200000)")
    lim.add_argument("--start-timeout", type=_positive_float, metavar="S", help="seconds to answer uciok (default 10)")
    lim.add_argument("--ping-timeout", type=_positive_float, metavar="S",
                     help="seconds to answer isready (default 5)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="isaac-referee", allow_abbrev=False,
                                     description="Matches and tournaments between engines for ISAAC, "
                                                 "FOUNDATIONS and HARI; every move is checked.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    match = sub.add_parser("match", allow_abbrev=False, help="two engines, games in pairs with colours swapped",
                           description="Two engines play --games games in pairs: the same opening twice, "
                                       "colours swapped.")
    _add_run_arguments(match, 10, "games in the match, played in pairs (default 10)")
    tour = sub.add_parser("tournament", allow_abbrev=False, help="round-robin or gauntlet",
                          description="Every encounter plays --games games per round, in pairs.")
    _add_run_arguments(tour, 2, "games per encounter per round, in pairs (default 2)")
    tour.add_argument("--format", choices=FORMATS, default="round-robin",
                      help="round-robin (everyone against everyone) or gauntlet (the first engine "
                           "against each other one); default round-robin")
    tour.add_argument("--rounds", type=_positive_int, default=1, help="rounds (default 1)")
    check = sub.add_parser("check", allow_abbrev=False, help="conformance test of one engine against SPEC.md",
                           description="Runs an engine through the protocol (handshake, each game, perft, stop, "
                                       "isready during search, bad input) and prints what passed and failed.")
    check.add_argument("--game", choices=GAME_NAMES, action="append", dest="games",
                       help="check only this game (repeatable; default all three)")
    check.add_argument("--dir", metavar="DIR", help="working directory of the engine")
    check.add_argument("--option", action="append", metavar="NAME=VALUE",
                       help="set an engine option for the whole check (repeatable), e.g. Strategy=random")
    check.add_argument("--io-log", metavar="FILE", help="append every line sent to and read from the engine")
    check.add_argument("--json", action="store_true", help="print the report as JSON")
    check.add_argument("engine_command", nargs=argparse.REMAINDER, metavar="ENGINE COMMAND...",
                       help="the command that starts the engine, e.g. python -m engine")
    export = sub.add_parser("export-pgn", allow_abbrev=False, help="records (JSON Lines) -> PGN-style text",
                            description="Writes the games of a records.jsonl (or an output directory) as PGN.")
    export.add_argument("records", metavar="RECORDS", help="records.jsonl, or the output directory holding it")
    export.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    export.add_argument("--event", default="isaac-referee", help="the Event tag (default isaac-referee)")
    return parser


# -- the run configuration ---------------------------------------------------------

def _player_options(args) -> dict:
    """EnginePlayer keyword arguments for the limits given on the command line."""
    names = {"max_line": "max_line", "max_move_bytes": "max_move_bytes", "max_move_lines": "max_move_lines",
             "start_timeout": "start_timeout", "ping_timeout": "ping_timeout"}
    return {key: getattr(args, attr) for attr, key in names.items() if getattr(args, attr, None) is not None}


def _schedule(identity: dict) -> list[ScheduledGame]:
    try:
        return _schedule_unchecked(identity)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _schedule_unchecked(identity: dict) -> list[ScheduledGame]:
    names = [e["name"] for e in identity["engines"]]
    if identity["command"] == "match":
        if len(names) != 2:
            raise UsageError(f"a match needs exactly 2 engines, got {len(names)}"
                             + (f" ({', '.join(names)})" if names else "")
                             + "; use 'tournament' for more")
        return match_schedule(names[0], names[1], identity["games"])
    return tournament_schedule(names, identity["format"], identity["games"], identity["rounds"])


def identity_from_args(args, engines: list[EngineSpec], seed: int) -> dict:
    """The configuration that defines the games; --resume must see the same one."""
    try:
        source = parse_source(args.openings)
    except OpeningError as exc:
        raise UsageError(str(exc)) from None
    identity = {
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


def resolve_openings(identity: dict, openings_arg: str | None, schedule: list[ScheduledGame]) -> list[Opening]:
    """Every opening the schedule uses, by index (stored in config.json so --resume never re-derives them)."""
    try:
        source = parse_source(openings_arg)
        book = OpeningBook(identity["game"], source, identity["seed"])
        needed = max((game.opening for game in schedule), default=-1) + 1
        if source.kind == "file":
            needed = min(needed, len(book))
        return [book.get(i) for i in range(max(needed, 1))]
    except OpeningError as exc:
        raise UsageError(str(exc)) from None


def differences(stored: dict, now: dict) -> list[str]:
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


_RESUME_SAME = ("game", "games", "seed", "max_plies", "rounds", "format")
_RESUME_PER_ENGINE = ("tc", "margin", "memory_mb", "cpu_seconds")


def explicit_options(argv: list[str] | None) -> set[str]:
    """Destinations of the options actually written on the command line (not defaults)."""
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                for sub_action in sub._actions:
                    if sub_action.dest != "help":
                        sub_action.default = argparse.SUPPRESS
    try:
        given = vars(parser.parse_args(argv))
    except SystemExit:
        return set()
    return set(given) - {"command"}


def _refuse_changed_options(args, identity: dict, out: Path) -> None:
    """Resuming from config.json alone: an option given now must agree with the stored run."""
    given = getattr(args, "explicit", set())
    diff = [f"--{d.replace('_', '-')}: stored {identity.get(d)!r}, now {getattr(args, d)!r}"
            for d in _RESUME_SAME if d in given and getattr(args, d) != identity.get(d)]
    if "openings" in given:
        try:
            now = parse_source(args.openings).identity()
        except OpeningError as exc:
            raise UsageError(str(exc)) from None
        if now != identity.get("openings"):
            diff.append(f"--openings: stored {identity.get('openings')!r}, now {now!r}")
    if "sprt" in given and args.sprt and Sprt(*args.sprt).to_json() != identity.get("sprt"):
        diff.append(f"--sprt: stored {identity.get('sprt')!r}, now {args.sprt!r}")
    per_engine = [f"--{d.replace('_', '-')}" for d in _RESUME_PER_ENGINE if d in given]
    if per_engine:
        diff.append(f"{', '.join(per_engine)} without engines: the stored engines' settings are used; "
                    "omit it, or give the engines too")
    if diff:
        raise StoreError(f"--resume: options differ from the run stored in {out}:\n  " + "\n  ".join(diff))


def _new_out_dir(command: str) -> Path:
    base = Path("referee-runs") / f"{command}-{time.strftime('%Y%m%d-%H%M%S')}"
    path, k = base, 1
    while path.exists():
        k += 1
        path = base.with_name(f"{base.name}-{k}")
    return path


def prepare(args) -> tuple[Store, dict, list[Opening], bool]:
    """(store, identity, openings, resumed) after the resume / fresh-start checks."""
    if args.resume and not args.out:
        raise UsageError("--resume needs --out DIR (the directory of the run to continue)")
    out = Path(args.out) if args.out else _new_out_dir(args.command)
    store = Store(out)
    stored = store.load_config()
    has_records = (out / RECORDS).exists() and (out / RECORDS).stat().st_size > 0
    if stored is None and has_records:
        raise StoreError(f"{out} holds {RECORDS} but no config.json, so the run cannot be identified; "
                         f"choose another --out")
    if stored is None and args.resume and not (args.engine or args.engines_file):
        raise StoreError(f"--resume: {out} holds no run to resume (no config.json there)")
    if stored is not None and not args.resume:
        raise StoreError(f"{out} already holds a run ({len(store.read_records())} games recorded); "
                         f"add --resume to continue it, or choose another --out")
    if stored is not None:
        if stored.get("version") != CONFIG_VERSION or "identity" not in stored:
            raise StoreError(f"{out}/config.json is not a run configuration this referee understands")
        identity = stored["identity"]
        if identity.get("command") != args.command:
            raise StoreError(f"{out} holds a {identity.get('command')}, not a {args.command}; "
                             f"resume it with 'isaac-referee {identity.get('command')} --out {out} --resume'")
        if not (args.engine or args.engines_file):
            _refuse_changed_options(args, identity, out)
        if args.engine or args.engines_file:
            engines = _engines_from_args(args)
            now = identity_from_args(args, engines, identity["seed"] if args.seed is None else args.seed)
            diff = differences(identity, now)
            if diff:
                raise StoreError(f"--resume: {out} holds a different configuration, refusing to mix two "
                                 f"matches:\n  " + "\n  ".join(diff)
                                 + "\n(omit the engines to resume the stored configuration as it is)")
        openings = [Opening.from_json(o) for o in stored.get("openings", [])]
        return store, identity, openings, True
    engines = _engines_from_args(args)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 2**31)
    identity = identity_from_args(args, engines, seed)
    schedule = _schedule(identity)
    openings = resolve_openings(identity, args.openings, schedule)
    store.save_config({"version": CONFIG_VERSION, "identity": identity,
                       "openings": [o.to_json() for o in openings],
                       "openings_source": args.openings, "created_at": time.strftime("%Y-%m-%dT%H:%M:%S")})
    return store, identity, openings, False


def _engines_from_args(args) -> list[EngineSpec]:
    try:
        engines = cfg.build_engines(args.engine, args.each, args.engines_file, tc=args.tc,
                                    memory_mb=args.memory_mb, cpu_seconds=args.cpu_seconds,
                                    margin_ms=args.margin)
    except cfg.ConfigError as exc:
        raise UsageError(str(exc)) from None
    if not engines:
        raise UsageError("no engines: give -engine name=... cmd=\"...\" (twice for a match) "
                         "or --engines-file FILE")
    return engines


def build_plan(args, identity: dict, openings: list[Opening]) -> RunPlan:
    schedule = _schedule(identity)
    engines = [EngineSpec.from_json(e) for e in identity["engines"]]
    sprt = Sprt(**identity["sprt"]) if identity.get("sprt") else None
    return RunPlan(mode=identity["command"], game_type=identity["game"], engines=engines, schedule=schedule,
                   book=OpeningBook.fixed(identity["game"], openings or [Opening(None)]),
                   concurrency=args.concurrency or default_concurrency(), sprt=sprt,
                   max_plies=identity.get("max_plies", 1000), player_options=_player_options(args))


# -- the summary -------------------------------------------------------------------

def build_summary(plan: RunPlan, tracker: Tracker, outcome: RunOutcome, out: Path, seconds: float) -> dict:
    names = [spec.name for spec in plan.engines]
    records = tracker.records
    summary = {
        "command": plan.mode, "game": plan.game_type, "out": str(out),
        "games_planned": len(plan.schedule), "games_recorded": len(records),
        "games_played_now": outcome.played, "stopped": outcome.stopped,
        "complete": len(records) >= len(plan.schedule) or outcome.stopped.startswith("sprt"),
        "seconds": round(seconds, 2), "terminations": termination_counts(records),
        "engines": [engine_totals(records, names)[name].to_json() for name in names],
        "standings": [e.name for e in standings(records, names)],
    }
    if tracker.match is not None:
        summary["match"] = tracker.match.to_json()
    return summary


def summary_text(plan: RunPlan, tracker: Tracker, summary: dict) -> str:
    names = [spec.name for spec in plan.engines]
    lines = [f"{summary['games_recorded']} of {summary['games_planned']} games recorded "
             f"({summary['stopped']}); {summary['games_played_now']} played in {summary['seconds']:.1f} s"]
    if tracker.match is not None:
        match = summary["match"]
        lines.append(tracker.match.headline())
        penta = match["pentanomial"]
        lines.append(f"game pairs (first engine scores 0, 1/2, 1, 3/2, 2): {penta}; pair-based Elo "
                     f"{_fmt(match['pentanomial_elo'])} ({_fmt(match['pentanomial_elo_low'])}, "
                     f"{_fmt(match['pentanomial_elo_high'])})")
        if "sprt" in match:
            s = match["sprt"]
            lines.append(f"SPRT H0 {s['elo0']:g} vs H1 {s['elo1']:g} (alpha {s['alpha']:g}, beta {s['beta']:g}): "
                         f"LLR {s['llr']:.2f} in ({s['lower']:.2f}, {s['upper']:.2f}) -> "
                         f"{s['decision'] or 'undecided'}")
    terms = ", ".join(f"{k} {v}" for k, v in summary["terminations"].items()) or "none"
    lines.append(f"terminations: {terms}")
    lines.append(standings_table(tracker.records, names))
    out = summary["out"]
    lines.append(f"records: {out}/{RECORDS}  pgn: {out}/{PGN}  summary: {out}/{SUMMARY}")
    return "\n".join(lines)


def _fmt(value) -> str:
    return value if isinstance(value, str) else format_elo(value)


# -- running -------------------------------------------------------------------------

def _io_logger(path: str | None):
    if not path:
        return None, None
    handle = open(path, "a", encoding="utf-8", buffering=1)
    t0 = time.monotonic()

    def log(text: str) -> None:
        handle.write(f"{time.monotonic() - t0:11.6f} {text}\n")
    return log, handle


async def _run_with_signals(runner: Runner) -> bool:
    """Run; True if stopped by SIGINT/SIGTERM. A second signal kills every engine at once."""
    loop = asyncio.get_running_loop()
    signals_seen: list[str] = []

    def on_signal(name: str) -> None:
        signals_seen.append(name)
        if len(signals_seen) == 1:
            runner.progress.note(f"{name}: stopping; finished games are saved, engines are shutting down "
                                 f"(again to kill them at once)")
            runner.interrupt()
        else:
            kill_all_engines()

    installed = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, on_signal, sig.name)
            installed.append(sig)
        except (NotImplementedError, RuntimeError):
            pass
    try:
        await runner.run()
    finally:
        for sig in installed:
            loop.remove_signal_handler(sig)
    return runner.interrupted


def run_games(args) -> int:
    store, identity, openings, resumed = prepare(args)
    plan = build_plan(args, identity, openings)
    records = store.read_records()
    known = {game.index for game in plan.schedule}
    records = [r for r in records if r["game_id"] in known]
    tracker = Tracker(plan, records)
    out_stream = sys.stderr if args.json else sys.stdout
    progress = Progress(len(plan.schedule), tracker.score_text, stream=out_stream)
    cut = store.open_for_append()
    io_log, io_handle = _io_logger(args.io_log)
    runner = Runner(plan, store, progress, tracker, io_log)
    pending = len(runner.pending())
    verb = "resuming" if resumed else "starting"
    store.event(f"{verb} {plan.mode} of {plan.game_type}: {len(plan.schedule)} games, {len(records)} recorded, "
                f"{pending} to play, concurrency {plan.concurrency}"
                + (f" (cut a torn last record of {cut} bytes)" if cut else ""))
    cores = default_concurrency() + 1
    if plan.concurrency > max(1, cores - 1):
        progress.note(f"warning: {plan.concurrency} games at once on {cores} cores may distort clocks")
    progress.begin(len(records), f"{verb} {plan.mode} ({plan.game_type}): {len(plan.schedule)} games"
                   f"{f', {len(records)} already recorded' if records else ''}; "
                   f"concurrency {plan.concurrency}; output in {store.dir}")
    t0 = time.monotonic()
    interrupted = False
    try:
        interrupted = asyncio.run(_run_with_signals(runner))
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if io_handle is not None:
            io_handle.close()
    if interrupted:
        runner.outcome.stopped = "interrupted"
        store.event(f"interrupted after {runner.outcome.played} games this run")
    summary = build_summary(plan, tracker, runner.outcome, store.dir, time.monotonic() - t0)
    store.write_text(SUMMARY, json.dumps(summary, indent=2) + "\n")
    store.write_text(PGN, records_to_pgn(tracker.records, f"isaac-referee {plan.mode}"))
    store.event(f"stopped: {runner.outcome.stopped}; {len(tracker.records)} of {len(plan.schedule)} recorded")
    store.close()
    progress.finish(summary_text(plan, tracker, summary))
    if interrupted:
        progress.note(f"interrupted: {len(tracker.records)} of {len(plan.schedule)} games are saved; continue with\n"
                      f"  isaac-referee {plan.mode} --out {store.dir} --resume")
    if args.json:
        print(json.dumps(summary, indent=2))
    return EXIT_INTERRUPTED if interrupted else EXIT_OK


def run_check(args) -> int:
    """Print the conformance report of one engine; exit 0 if it conforms, 1 if anything failed."""
    command = list(args.engine_command)
    if command and command[0] == "--":
        command = command[1:]
    if not command:
        raise UsageError("check needs the engine's command, e.g. isaac-referee check python -m engine")
    options = {}
    for text in args.option or []:
        name, sep, value = text.partition("=")
        if not sep or not name:
            raise UsageError(f"--option expects NAME=VALUE, not {text!r}")
        options[name] = value
    if args.dir is not None and not Path(args.dir).is_dir():
        raise UsageError(f"--dir {args.dir!r} is not a directory")
    from .check import run_check as check_engine  # loaded only for this command
    io_log, io_handle = _io_logger(args.io_log)
    try:
        report = check_engine(command, cwd=args.dir, options=options,
                              games=tuple(args.games or GAME_NAMES), io_log=io_log)
    finally:
        if io_handle is not None:
            io_handle.close()
    print(json.dumps(report.to_json(), indent=2) if args.json else report.render())
    return EXIT_OK if report.ok else EXIT_FAIL


def run_export(args) -> int:
    path = Path(args.records)
    if path.is_dir():
        path = path / RECORDS
    if not path.is_file():
        raise UsageError(f"export-pgn: no records file at {path}")
    text = export_file(str(path), args.event)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    args.explicit = explicit_options(argv if argv is not None else sys.argv[1:])
    try:
        if args.command in ("match", "tournament"):
            return run_games(args)
        if args.command == "check":
            return run_check(args)
        return run_export(args)
    except UsageError as exc:
        parser.exit(EXIT_USAGE, f"isaac-referee {args.command}: error: {exc}\n")
    except StoreError as exc:
        parser.exit(EXIT_FAIL, f"isaac-referee {args.command}: error: {exc}\n")
    except KeyboardInterrupt:     # before the games started or after they ended: nothing to save
        parser.exit(EXIT_INTERRUPTED, f"isaac-referee {args.command}: interrupted\n")
    return EXIT_FAIL
