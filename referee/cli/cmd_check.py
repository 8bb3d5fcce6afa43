"""The `check` command: the conformance report of one engine."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from protocol import GAME_NAMES

from .arguments import Options, positive_float
from .command import EXIT_FAIL, EXIT_OK, Command, UsageError
from .iolog import io_logger


def add_arguments(p: Options) -> None:
    p.add("--game", choices=GAME_NAMES, action="append", dest="games",
          help="check only this game (repeatable; default all three)")
    p.add("--dir", metavar="DIR", help="working directory of the engine")
    p.add("--option", action="append", metavar="NAME=VALUE",
          help="set an engine option for the whole check (repeatable), e.g. Strategy=random")
    p.add("--io-log", metavar="FILE", help="append every line sent to and read from the engine")
    p.add("--json", action="store_true", default=False, help="print the report as JSON")
    p.add("--timeout", type=positive_float, default=5.0, metavar="S",
          help="seconds to wait for each answer (default 5; perft and moves get 6 times as long)")
    p.add("engine_command", nargs=argparse.REMAINDER, metavar="ENGINE COMMAND...", default=[],
          help="the command that starts the engine, e.g. python -m engine")


def run(args: argparse.Namespace) -> int:
    """Print the conformance report of one engine; exit 0 if the required tier passes, 1 if not."""
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
    from ..check import run_check  # loaded only for this command
    with io_logger(args.io_log) as io_log:
        report = run_check(command, cwd=args.dir, options=options,
                           games=tuple(args.games or GAME_NAMES), io_log=io_log, timeout=args.timeout)
    print(json.dumps(report.to_json(), indent=2) if args.json else report.render())
    return EXIT_OK if report.ok else EXIT_FAIL


COMMAND = Command("check", help="conformance test of one engine against SPEC.md",
                  description="Runs an engine through the protocol and prints what passed and failed, "
                              "in two tiers: required (what a tournament needs: handshake, UCI_Variant, "
                              "legal moves in each game, isready, quit) and recommended (id, error lines, "
                              "d, moves, perft, stop and isready during a search, state, steps). "
                              "Exit 0 when the required tier passes.",
                  add_arguments=add_arguments, run=run)
