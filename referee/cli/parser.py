"""The isaac-referee parser: the table of commands turned into argparse, with what a newcomer sees
first (``--help``: what the command is, how to use it, exit codes; ``--version``)."""

from __future__ import annotations

import argparse
import copy
from collections.abc import Sequence
from typing import Any

import protocol

from .arguments import Options
from .command import Command

PROG = "isaac-referee"
DESCRIPTION = """\
isaac-referee is isaac-arena's referee for ISAAC, FOUNDATIONS and HARI: matches and tournaments
between engine executables (any language that speaks SPEC.md section 9), every move checked by the
rules, clocks kept by the referee, statistics, ratings, records, a report, --resume, sandboxes and
Dask clusters; and a conformance check of one engine."""
EPILOG = """examples:
  isaac-referee match -engine name=A cmd="isaac-engine" option.Strategy=search \\
                      -engine name=B cmd="isaac-engine" option.Strategy=greedy \\
                      -each tc=st=0.1 --game foundations --games 100
  isaac-referee tournament --engines-file engines.toml --games 2 --rounds 3
  isaac-referee check ./mybot                       is my engine ready for a tournament?
  isaac-referee match --out referee-runs/match-1 --resume
  isaac-referee report referee-runs/match-1         (re)build report.html
  isaac-referee COMMAND --help                      the options of one command

exit codes: 0 done (all games played, or SPRT decided), 1 a check failed or an internal error,
2 bad arguments or input, 130 interrupted (finished games are saved; continue with --resume).
Documentation: docs/referee.md (usage), docs/hosting.md (competitions), SPEC.md section 10."""


def version() -> str:
    """What --version prints, as isaac-engine says it: the one version of isaac-arena (protocol's)."""
    return f"{PROG} (isaac-arena) {protocol.__version__}"


class Parser:
    """The isaac-referee parser for a table of commands."""

    def __init__(self, commands: Sequence[Command]) -> None:
        self.commands = {command.name: command for command in commands}
        self.argparser = argparse.ArgumentParser(
            prog=PROG, allow_abbrev=False, description=DESCRIPTION, epilog=EPILOG,
            formatter_class=argparse.RawDescriptionHelpFormatter)
        self.argparser.add_argument("-V", "--version", action="version", version=version())
        sub = self.argparser.add_subparsers(dest="command", required=True, metavar="COMMAND")
        self.defaults: dict[str, dict[str, Any]] = {}
        for command in commands:
            parser = sub.add_parser(command.name, allow_abbrev=False, help=command.help,
                                    description=command.description)
            options = Options(parser)
            command.add_arguments(options)
            self.defaults[command.name] = options.defaults

    def parse(self, argv: Sequence[str] | None) -> argparse.Namespace:
        """Parsed arguments with defaults filled in; ``explicit`` holds the options actually given."""
        args = self.argparser.parse_args(argv)
        given = vars(args)
        args.explicit = set(given) - {"command"}
        for dest, default in self.defaults[args.command].items():
            given.setdefault(dest, copy.copy(default))
        return args

    def exit(self, status: int, message: str) -> None:
        self.argparser.exit(status, message)
