"""The table of subcommands; parse the command line, run the chosen command, turn its errors into
one line and an exit code.

A new subcommand is one module (``cmd_<name>.py`` defining a :class:`~referee.cli.command.Command`)
and one entry in COMMANDS.

Exit codes (docs/referee.md): 0 done; 1 a check failed or an internal error; 2 bad input (command
line, engines file, time control, run directory, records, config.json); 130 interrupted. No
Python traceback reaches the user unless `--debug` is given (anywhere on the command line).
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Sequence

from ..engines.config import ConfigError
from ..formats.schema import SchemaError
from ..results.store import StoreError
from . import cmd_book, cmd_check, cmd_export, cmd_games, cmd_repair, cmd_report
from .command import EXIT_FAIL, EXIT_INTERRUPTED, EXIT_USAGE, Command, UsageError
from .parser import Parser
from .spellings import SpellingError, translate

DEBUG_FLAG = "--debug"

COMMANDS: tuple[Command, ...] = (
    cmd_games.MATCH,
    cmd_games.TOURNAMENT,
    cmd_check.COMMAND,
    cmd_export.COMMAND,
    cmd_report.COMMAND,
    cmd_book.COMMAND,
    cmd_repair.COMMAND,
)


def build_parser() -> Parser:
    """The parser of every command in the table."""
    return Parser(COMMANDS)


def main(argv: Sequence[str] | None = None) -> int:
    words = list(argv if argv is not None else sys.argv[1:])
    debug = DEBUG_FLAG in words
    words = [w for w in words if w != DEBUG_FLAG]
    parser = build_parser()
    try:
        words = translate(words)
    except SpellingError as exc:
        parser.exit(EXIT_USAGE, f"isaac-referee: error: {exc}\n")
        raise   # not reached: exit raises SystemExit
    args = parser.parse(words)
    command = parser.commands[args.command]
    prefix = f"isaac-referee {args.command}: error: "
    try:
        return command.run(args)
    except (UsageError, StoreError, ConfigError, SchemaError) as exc:
        _trace(debug)
        parser.exit(EXIT_USAGE, prefix + _one_block(exc) + "\n")
    except KeyboardInterrupt:     # before the games started or after they ended: nothing to save
        parser.exit(EXIT_INTERRUPTED, f"isaac-referee {args.command}: interrupted\n")
    except Exception as exc:      # a bug: one line, the traceback only with --debug
        _trace(debug)
        hint = "" if debug else f" (run again with {DEBUG_FLAG} for the traceback)"
        parser.exit(EXIT_FAIL, f"isaac-referee {args.command}: internal error: "
                               f"{type(exc).__name__}: {_one_block(exc)}{hint}\n")
    return EXIT_FAIL


def _trace(debug: bool) -> None:
    if debug:
        traceback.print_exc(file=sys.stderr)


def _one_block(exc: BaseException) -> str:
    """The error text with control characters shown escaped (a file's bytes can hold anything)."""
    text = str(exc)
    return "".join(c if c.isprintable() or c == "\n" else repr(c)[1:-1] for c in text)
