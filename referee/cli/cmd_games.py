"""The `match` and `tournament` commands: prepare (or resume) a run, play it, summarise it."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import sys
import time

from protocol import GAME_NAMES

from ..engines import config as cfg
from ..engines.cpu import FAIR_MODES
from ..engines.pool import PreflightFailed
from ..formats.schema import MAX_CPU_SECONDS, MAX_MEMORY_MB
from ..matches.cluster import ClusterError, ClusterRunner
from ..matches.progress import Progress
from ..matches.runner import Runner
from ..matches.schedule import FORMATS
from ..matches.tracker import Loaded, Tracker
from ..results.checkpoint import CHECKPOINT
from ..results.pgn import PgnLog, export_to
from ..results.store import CONFIG, PGN, RECORDS, SUMMARY, Store, StoreError
from .arguments import (
    Options,
    add_engine_arguments,
    count_int,
    int_at_least,
    non_negative_int,
    positive_float,
    positive_int,
)
from .command import EXIT_INTERRUPTED, EXIT_OK, Command, UsageError
from .iolog import io_logger
from .prepare import build_plan, default_concurrency, prepare
from .signals import run_with_signals
from .summary import build_summary, summary_text


def add_run_arguments(p: Options, games_default: int, games_help: str) -> None:
    """The options match and tournament share."""
    eng = p.group("engines")
    add_engine_arguments(eng, "one engine: name=, cmd=\"...\", dir=, arg=, option.<Name>=, tc=, memory_mb=, "
                              "cpu_seconds=, pause=no (it ponders) (repeat -engine for each engine)",
                         "settings for every engine (tc=, option.<Name>=, dir=, ...); an engine's own settings win")
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
    game.add("--seed", type=non_negative_int, help="seed of the run: random openings, and each game's own seed "
             "for engines that declare a Seed option (default: random, stored for --resume)")
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
    run.add("--fair-cpu", choices=FAIR_MODES, default="auto",
            help="auto (default): pause each engine while it waits for its turn (cgroup v2 freezer where "
                 "usable, else SIGSTOP/SIGCONT) and give each game its own cores; signals: the same without "
                 "cgroups; off: neither (docs/hosting.md)")
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
    store, identity, book, resumed = prepare(args)
    plan = build_plan(args, identity, book)
    if args.cluster and args.io_log:
        raise UsageError("--io-log cannot be used with --cluster: the engines talk to the workers")
    if args.anchor is not None and args.anchor not in [spec.name for spec in plan.engines]:
        raise UsageError(f"--anchor {args.anchor!r} is not one of the engines "
                         f"({', '.join(spec.name for spec in plan.engines)})")
    tracker = Tracker(plan)
    loaded = tracker.load(store, identity)
    out_stream = sys.stderr if args.json else sys.stdout
    progress = Progress(len(plan.schedule), tracker.score_text, stream=out_stream)
    cut = store.open_for_append(loaded.end)
    pgn = _open_pgn(store, plan.mode, tracker, loaded)
    recorded = tracker.recorded
    t0 = time.monotonic()
    interrupted = False
    with io_logger(args.io_log) as io_log:
        runner = (ClusterRunner(plan, store, progress, tracker, address=args.cluster, pgn=pgn, identity=identity)
                  if args.cluster else Runner(plan, store, progress, tracker, io_log, pgn=pgn, identity=identity))
        pending = runner.pending_count()
        verb = "resuming" if resumed else "starting"
        how = (f"; {loaded.read} read now, the rest from {CHECKPOINT}" if loaded.from_checkpoint else "")
        store.event(f"{verb} {plan.mode} of {plan.game_type}: {len(plan.schedule)} games, {recorded} recorded"
                    f"{how}, {pending} to play, concurrency {plan.concurrency}"
                    + (f" (cut a torn last record of {cut} bytes)" if cut else ""))
        if cut:
            progress.note(f"note: cut a torn (unterminated) last line of {cut} bytes from "
                          f"{store.path(RECORDS)}; its game is played again")
        if runner.cores.warning and not args.cluster:
            progress.note(f"warning: {runner.cores.warning}")
        progress.begin(recorded, f"{verb} {plan.mode} ({plan.game_type}): {len(plan.schedule)} games"
                       f"{f', {recorded} already recorded' if recorded else ''}; "
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
            if pgn is not None:
                pgn.close()
            if not resumed and not runner.outcome.played and not recorded:
                for name in (CONFIG, PGN, CHECKPOINT):   # nothing was played: the --out DIR stays free
                    store.path(name).unlink(missing_ok=True)
            raise UsageError(message) from None
    if pgn is not None:
        pgn.close()
    if interrupted:
        runner.outcome.stopped = "interrupted"
        store.event(f"interrupted after {runner.outcome.played} games this run")
    summary = build_summary(plan, tracker, runner.outcome, store.dir, time.monotonic() - t0, args.anchor)
    store.write_text(SUMMARY, json.dumps(summary, indent=2) + "\n")
    if runner.pgn is None and _rebuild_pgn(store, plan.mode, progress, runner.pgn_failed):
        runner.save_checkpoint(store.path(PGN).stat().st_size)
    if args.pgn_out:
        try:
            shutil.copyfile(store.path(PGN), args.pgn_out)
        except OSError as exc:
            progress.note(f"warning: --pgn-out {args.pgn_out}: {exc.strerror or exc}; the PGN is in {store.dir}/{PGN}")
    store.event(f"stopped: {runner.outcome.stopped}; {tracker.recorded} of {len(plan.schedule)} recorded")
    store.close()
    progress.finish(summary_text(plan, tracker, summary))
    if interrupted:
        progress.note(f"interrupted: {tracker.recorded} of {len(plan.schedule)} games are saved; continue with\n"
                      f"  isaac-referee {plan.mode} --out {store.dir} --resume")
    if args.json:
        print(json.dumps(summary, indent=2))
    return EXIT_INTERRUPTED if interrupted else EXIT_OK


def _open_pgn(store: Store, mode: str, tracker: Tracker, loaded: Loaded) -> PgnLog | None:
    """games.pgn to append the run's games to: new, or cut to the checkpoint's end and given the
    games recorded after it; None when it must be rebuilt from the records at the end instead."""
    event = f"isaac-referee {mode}"
    if not tracker.recorded:
        return PgnLog(store.path(PGN), event, 0)
    if loaded.pgn_bytes is None or loaded.checkpoint_end is None:
        return None
    if not store.path(PGN).exists() or store.path(PGN).stat().st_size < loaded.pgn_bytes:
        return None
    pgn = PgnLog(store.path(PGN), event, loaded.pgn_bytes)
    if loaded.read:
        try:
            for record in store.reader(loaded.checkpoint_end):
                pgn.append(record)
        except OSError:
            pgn.close()
            return None
    return pgn


def _rebuild_pgn(store: Store, mode: str, progress: Progress, why: str | None) -> bool:
    """games.pgn from records.jsonl (a stream), when it could not be kept up during the run: the run
    was resumed without a checkpoint to cut it to, or writing it failed. True when written."""
    path, tmp = store.path(PGN), store.path(PGN + ".tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as out:
            export_to(store.path(RECORDS), out, f"isaac-referee {mode}")
        os.replace(tmp, path)
        return True
    except (OSError, StoreError) as exc:
        progress.note(f"warning: {path} not written: {exc}" + (f" (during the run: {why})" if why else ""))
        return False


MATCH = Command("match", help="two engines, games in pairs with colours swapped",
                description="Two engines play --games games in pairs: the same opening twice, colours swapped.",
                add_arguments=add_match_arguments, run=run_games)
TOURNAMENT = Command("tournament", help="round-robin or gauntlet",
                     description="Every encounter plays --games games per round, in pairs.",
                     add_arguments=add_tournament_arguments, run=run_games)
