"""Parse the command line, run the chosen command, turn its errors into one line and an exit code."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from ..store import StoreError
from .arguments import Parser
from .command import EXIT_FAIL, EXIT_INTERRUPTED, EXIT_USAGE, UsageError
from .commands import COMMANDS
from .spellings import SpellingError, translate


def build_parser() -> Parser:
    """The parser of every command in the table."""
    return Parser(COMMANDS)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        words = translate(argv if argv is not None else sys.argv[1:])
    except SpellingError as exc:
        parser.exit(EXIT_USAGE, f"isaac-referee: error: {exc}\n")
        raise   # not reached: exit raises SystemExit
    args = parser.parse(words)
    command = parser.commands[args.command]
    try:
        return command.run(args)
    except UsageError as exc:
        parser.exit(EXIT_USAGE, f"isaac-referee {args.command}: error: {exc}\n")
    except StoreError as exc:
        parser.exit(EXIT_FAIL, f"isaac-referee {args.command}: error: {exc}\n")
    except KeyboardInterrupt:     # before the games started or after they ended: nothing to save
        parser.exit(EXIT_INTERRUPTED, f"isaac-referee {args.command}: interrupted\n")
    return EXIT_FAIL
