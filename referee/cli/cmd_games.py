"""The `match` and `tournament` commands: prepare (or resume) a run, play it, summarise it."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

from protocol import GAME_NAMES

from .. import config as cfg
from ..cluster import ClusterError, ClusterRunner
from ..pgn import records_to_pgn
from ..preflight import PreflightFailed
from ..progress import Progress
from ..runner import Runner, Tracker
from ..schedule import FORMATS
from ..schema import MAX_CPU_SECONDS, MAX_MEMORY_MB
from ..store import CONFIG, PGN, RECORDS, SUMMARY, StoreError
from .arguments import Options, count_int, int_at_least, non_negative_int, positive_float, positive_int
from .command import EXIT_INTERRUPTED, EXIT_OK, Command, UsageError
from .iolog import io_logger
from .plan import build_plan, default_concurrency
from .resume import prepare
from .signals import run_with_signals
from .summary import build_summary, summary_text


def add_run_arguments(p: Options, games_default: int, games_help: str) -> None:
    """The options match and tournament share."""
    eng = p.group("engines")
    eng.add("-engine", dest="engine", action="append", nargs="+", metavar="KEY=VALUE", default=[],
            help="one engine: name=, cmd=\"...\", dir=, arg=, option.<Name>=, tc=, memory_mb=, "
                 "cpu_seconds= (repeat -engine for each engine)")
    eng.add("-each", dest="each", action="append", nargs="+", metavar="KEY=VALUE", default=[],
            help="settings for every engine (tc=, option.<Name>=, dir=, ...); an engine's own settings win")
    eng.add("--engines-file", metavar="TOML",
            help="[engines.<name>] tables; -engine name=<name> picks one (all of them if no -engine)")
    game = p.group("games")
    game.add("--game", choices=GAME_NAMES, default=GAME_NAMES[0], help=f"game type (default {GAME_NAMES[0]})")
    game.add("--games", type=count_int, default=games_default, help=games_help)
    game.add("--tc", metavar="TC", help=f"time control for every engine without its own "
             f"(default {cfg.DEFAULT_TC}): '10+0.1', '40/60', 'st=0.1', 'movetime=100', 'depth=4', "
             f"'nodes=5000', parts combined with spaces, e.g. '5+0.05 margin=100'")
    game.add("--margin", type=non_negative_int, metavar="MS", help="time margin before a time forfeit, for every "
             "engine (default 50 ms, or margin= in a tc)")
    game.add("--openings", metavar="SOURCE", help="book (the game's shipped balanced book), startpos, "
             "random:PLIES, or a file with one opening per line (a move sequence, or a position string "
             "optionally followed by 'moves ...'); default: book for foundations and hari, else startpos")
    game.add("--seed", type=non_negative_int, help="seed of random openings (default: random, stored for --resume)")
    game.add("--max-plies", type=count_int, default=1000,
             help="adjudicate a draw after this many engine plies (safety cap; default 1000)")
    game.add("--sprt", nargs=4, type=float, metavar=("ELO0", "ELO1", "ALPHA", "BETA"),
             help="match only: stop early once the SPRT of H0 elo0 vs H1 elo1 decides")
    run = p.group("running")
    run.add("--concurrency", type=count_int,
            help=f"games at once (default max(1, cores - 1) = {default_concurrency()} here)")
    run.add("--out", metavar="DIR", help="output directory (default referee-runs/<command>-<time>)")
    run.add("--resume", action="store_true", default=False, help="continue the run stored in --out DIR "
            "(engines may be omitted: they come from DIR/config.json)")
    run.add("--json", action="store_true", default=False, help="print the summary as JSON on stdout "
            "(progress goes to stderr)")
    run.add("--io-log", metavar="FILE", help="append every line sent to and read from engines")
    run.add("--cluster", metavar="tcp://HOST:PORT", help="play the game pairs on the workers of this Dask "
            "scheduler (pip install 'isaac-arena[cluster]'; docs/hosting.md); records stay here")
    run.add("--pgn-out", metavar="FILE", help="also write the games as PGN to FILE (cutechess -pgnout)")
    run.add("--anchor", metavar="ENGINE", help="ratings: this engine is rated 0 (default: the average is 0)")
    lim = p.group("engine limits")
    lim.add("--memory-mb", type=int_at_least(1, MAX_MEMORY_MB), help="address-space limit per engine process (MB)")
    lim.add("--cpu-seconds", type=int_at_least(1, MAX_CPU_SECONDS), help="CPU-time limit per engine process (s)")
    lim.add("--sandbox", choices=("bwrap", "none"), help="run every engine without its own sandbox= under "
            "bubblewrap (Linux): no network, own PID namespace, only its dir= visible (docs/hosting.md)")
    lim.add("--max-line", type=positive_int, metavar="BYTES",
            help="longest output line accepted from an engine (default 65536)")
    lim.add("--max-move-bytes", type=positive_int, metavar="BYTES",
            help="output volume allowed per move (default 32 MiB)")
    lim.add("--max-move-lines", type=positive_int, metavar="N",
            help="output lines allowed per move (default 200000)")
    lim.add("--start-timeout", type=positive_float, metavar="S", help="seconds to answer uciok (default 10)")
    lim.add("--ping-timeout", type=positive_float, metavar="S",
            help="seconds to answer isready (default 5)")


def add_match_arguments(p: Options) -> None:
    add_run_arguments(p, 10, "games in the match, played in pairs (default 10)")


def add_tournament_arguments(p: Options) -> None:
    add_run_arguments(p, 2, "games per encounter per round, in pairs (default 2)")
    p.add("--format", choices=FORMATS, default="round-robin",
          help="round-robin (everyone against everyone) or gauntlet (the first engine "
               "against each other one); default round-robin")
    p.add("--rounds", type=count_int, default=1, help="rounds (default 1)")


def run_games(args: argparse.Namespace) -> int:
    """Play (or continue) a match or tournament; exit 0 when done, 130 when interrupted."""
    store, identity, openings, resumed = prepare(args)
    plan = build_plan(args, identity, openings)
    if args.cluster and args.io_log:
        raise UsageError("--io-log cannot be used with --cluster: the engines talk to the workers")
    if args.anchor is not None and args.anchor not in [spec.name for spec in plan.engines]:
        raise UsageError(f"--anchor {args.anchor!r} is not one of the engines "
                         f"({', '.join(spec.name for spec in plan.engines)})")
    known = {game.index for game in plan.schedule}
    records = [r for r in store.read_records() if r["game_id"] in known]
    try:
        tracker = Tracker(plan, records)
    except (KeyError, TypeError, ValueError) as exc:
        raise StoreError(f"{store.dir}/{RECORDS} holds a record this referee cannot read: {exc}") from None
    out_stream = sys.stderr if args.json else sys.stdout
    progress = Progress(len(plan.schedule), tracker.score_text, stream=out_stream)
    cut = store.open_for_append()
    t0 = time.monotonic()
    interrupted = False
    with io_logger(args.io_log) as io_log:
        runner = (ClusterRunner(plan, store, progress, tracker, address=args.cluster) if args.cluster
                  else Runner(plan, store, progress, tracker, io_log))
        pending = len(runner.pending())
        verb = "resuming" if resumed else "starting"
        store.event(f"{verb} {plan.mode} of {plan.game_type}: {len(plan.schedule)} games, {len(records)} recorded, "
                    f"{pending} to play, concurrency {plan.concurrency}"
                    + (f" (cut a torn last record of {cut} bytes)" if cut else ""))
        if cut:
            progress.note(f"note: cut a torn (unterminated) last line of {cut} bytes from "
                          f"{store.path(RECORDS)}; its game is played again")
        cores = default_concurrency() + 1
        if plan.concurrency > max(1, cores - 1):
            progress.note(f"warning: {plan.concurrency} games at once on {cores} cores may distort clocks")
        progress.begin(len(records), f"{verb} {plan.mode} ({plan.game_type}): {len(plan.schedule)} games"
                       f"{f', {len(records)} already recorded' if records else ''}; "
                       f"{f'on the Dask cluster {args.cluster}' if args.cluster else f'concurrency {plan.concurrency}'}; "
                       f"output in {store.dir}")
        t0 = time.monotonic()
        try:
            interrupted = asyncio.run(run_with_signals(runner))
        except KeyboardInterrupt:
            interrupted = True
        except (PreflightFailed, ClusterError) as failed:
            message = failed.message() if isinstance(failed, PreflightFailed) else str(failed)
            store.event(message)
            store.close()
            if not resumed and not runner.outcome.played and not records:
                store.path(CONFIG).unlink(missing_ok=True)   # nothing was played: the --out DIR stays free
            raise UsageError(message) from None
    if interrupted:
        runner.outcome.stopped = "interrupted"
        store.event(f"interrupted after {runner.outcome.played} games this run")
    summary = build_summary(plan, tracker, runner.outcome, store.dir, time.monotonic() - t0, args.anchor)
    store.write_text(SUMMARY, json.dumps(summary, indent=2) + "\n")
    pgn = records_to_pgn(tracker.records, f"isaac-referee {plan.mode}")
    store.write_text(PGN, pgn)
    if args.pgn_out:
        try:
            Path(args.pgn_out).write_text(pgn, encoding="utf-8")
        except OSError as exc:
            progress.note(f"warning: --pgn-out {args.pgn_out}: {exc.strerror or exc}; the PGN is in {store.dir}/{PGN}")
    store.event(f"stopped: {runner.outcome.stopped}; {len(tracker.records)} of {len(plan.schedule)} recorded")
    store.close()
    progress.finish(summary_text(plan, tracker, summary))
    if interrupted:
        progress.note(f"interrupted: {len(tracker.records)} of {len(plan.schedule)} games are saved; continue with\n"
                      f"  isaac-referee {plan.mode} --out {store.dir} --resume")
    if args.json:
        print(json.dumps(summary, indent=2))
    return EXIT_INTERRUPTED if interrupted else EXIT_OK


MATCH = Command("match", help="two engines, games in pairs with colours swapped",
                description="Two engines play --games games in pairs: the same opening twice, colours swapped.",
                add_arguments=add_match_arguments, run=run_games)
TOURNAMENT = Command("tournament", help="round-robin or gauntlet",
                     description="Every encounter plays --games games per round, in pairs.",
                     add_arguments=add_tournament_arguments, run=run_games)
