"""What every subcommand shares: its table entry, the usage error and the exit codes."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass

from .arguments import Options

EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


class UsageError(Exception):
    """A mistake in the command line; printed as 'isaac-referee <command>: error: ...' with exit code 2."""


@dataclass(frozen=True)
class Command:
    """One subcommand: its name and help, how it declares its arguments, and what it runs.

    ``add_arguments`` receives an :class:`~referee.cli.arguments.Options` rather than the parser, so
    every default is kept apart from argparse; that is how ``args.explicit`` knows which options
    were written on the command line (``--resume`` compares only those with the stored run).
    """

    name: str
    help: str
    description: str
    add_arguments: Callable[[Options], None]
    run: Callable[[argparse.Namespace], int]
