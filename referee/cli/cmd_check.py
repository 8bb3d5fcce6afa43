"""The `check` command: the conformance report of one engine."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from protocol import GAME_NAMES

from ..engines.config import ConfigError, sandbox_paths
from ..engines.environment import bad_env_name
from ..engines.sandbox import SandboxError, check_available
from .arguments import Options, positive_float
from .command import EXIT_FAIL, EXIT_OK, Command, UsageError
from .iolog import io_logger


def add_arguments(p: Options) -> None:
    p.add("--game", choices=GAME_NAMES, action="append", dest="games",
          help="check only this game (repeatable; default all three)")
    p.add("--dir", metavar="DIR", help="working directory of the engine (its own directory under --sandbox)")
    p.add("--option", action="append", metavar="NAME=VALUE",
          help="set an engine option for the whole check (repeatable), e.g. Strategy=random")
    p.add("--env", action="append", metavar="NAME=VALUE",
          help="a variable of the engine's environment, which otherwise holds only PATH, HOME and "
               "LANG, as in a match (repeatable)")
    p.add("--sandbox", choices=("bwrap", "none"), default="none",
          help="run the engine under bubblewrap as a host would (needs --dir)")
    p.add("--readable", action="append", metavar="PATH", default=[],
          help="under --sandbox: one more path the engine may read (repeatable; relative to --dir)")
    p.add("--writable", action="append", metavar="PATH", default=[],
          help="under --sandbox: a path the engine may write (repeatable; relative to --dir)")
    p.add("--io-log", metavar="FILE", help="append every line sent to and read from the engine")
    p.add("--json", action="store_true", default=False, help="print the report as JSON")
    p.add("--timeout", type=positive_float, default=5.0, metavar="S",
          help="seconds to wait for each answer (default 5; perft and moves get 6 times as long)")
    p.add("engine_command", nargs=argparse.REMAINDER, metavar="ENGINE COMMAND...", default=[],
          help="the command that starts the engine, e.g. python -m engine")


def _pairs(texts: list[str] | None, flag: str) -> dict[str, str]:
    out = {}
    for text in texts or []:
        name, sep, value = text.partition("=")
        if not sep or not name:
            raise UsageError(f"{flag} expects NAME=VALUE, not {text!r}")
        out[name] = value
    return out


def run(args: argparse.Namespace) -> int:
    """Print the conformance report of one engine; exit 0 if the required tier passes, 1 if not."""
    command = list(args.engine_command)
    if command and command[0] == "--":
        command = command[1:]
    if not command:
        raise UsageError("check needs the engine's command, e.g. isaac-referee check python -m engine")
    options = _pairs(args.option, "--option")
    env = _pairs(args.env, "--env")
    if args.dir is not None and not Path(args.dir).is_dir():
        raise UsageError(f"--dir {args.dir!r} is not a directory")
    sandbox = None if args.sandbox == "none" else args.sandbox
    try:
        readable = sandbox_paths(args.readable, "readable", args.dir, "check")
        writable = sandbox_paths(args.writable, "writable", args.dir, "check")
        for name in env:
            problem = bad_env_name(name)
            if problem:
                raise ConfigError(f"--env: {problem}")
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    if sandbox is None and (readable or writable):
        raise UsageError("--readable and --writable only mean something with --sandbox bwrap")
    if sandbox is not None:
        if args.dir is None:
            raise UsageError("--sandbox bwrap needs --dir, the engine's own directory (the only one it sees)")
        try:
            check_available(sandbox)
        except SandboxError as exc:
            raise UsageError(str(exc)) from None
    from ..check import run_check  # loaded only for this command
    with io_logger(args.io_log) as io_log:
        report = run_check(command, cwd=args.dir, options=options, games=tuple(args.games or GAME_NAMES),
                           io_log=io_log, timeout=args.timeout, sandbox=sandbox, readable=readable,
                           writable=writable, env=env)
    print(json.dumps(report.to_json(), indent=2) if args.json else report.render())
    return EXIT_OK if report.ok else EXIT_FAIL


COMMAND = Command("check", help="conformance test of one engine against SPEC.md",
                  description="Runs an engine through the protocol and prints what passed and failed, "
                              "in two tiers: required (what a tournament needs, timed as a tournament "
                              "times it: handshake, UCI_Variant, legal moves in each game in time, the "
                              "first from a fresh process, isready, quit with exit status 0) and "
                              "recommended (id, error lines, d, moves, perft, stop and isready during a "
                              "search, state, steps), with a hint under each failure that has a usual "
                              "cause. Exit 0 when the required tier passes.",
                  add_arguments=add_arguments, run=run)
