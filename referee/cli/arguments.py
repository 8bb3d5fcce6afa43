"""How a subcommand declares its options, and the argument types they use.

Every option is declared with ``argparse.SUPPRESS`` as its argparse default and its real default
kept in :class:`Options`; after parsing (referee/cli/parser.py), the attributes argparse set are
exactly the options written on the command line (``args.explicit``), and the defaults are filled
in afterwards.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Sequence
from typing import Any


class Options:
    """The arguments of one subcommand: add them here, with their defaults."""

    def __init__(self, parser: argparse.ArgumentParser) -> None:
        self.parser = parser
        self.defaults: dict[str, Any] = {}

    def group(self, title: str) -> ArgumentGroup:
        """A titled section of the help, adding to this same set of options."""
        return ArgumentGroup(self, self.parser.add_argument_group(title))

    def add(self, *flags: str, default: Any = None, **kwargs: Any) -> None:
        """``add_argument`` with the default kept here (never pass ``default`` to argparse)."""
        self._add(self.parser, flags, default, kwargs)

    def _add(self, target: Any, flags: Sequence[str], default: Any, kwargs: dict[str, Any]) -> None:
        action = target.add_argument(*flags, default=argparse.SUPPRESS, **kwargs)
        self.defaults[action.dest] = default


class ArgumentGroup:
    """A help section of an :class:`Options`."""

    def __init__(self, options: Options, group: argparse._ArgumentGroup) -> None:
        self._options = options
        self._group = group

    def add(self, *flags: str, default: Any = None, **kwargs: Any) -> None:
        self._options._add(self._group, flags, default, kwargs)


def add_engine_arguments(group: ArgumentGroup, engine_help: str, each_help: str) -> None:
    """-engine and -each (cutechess-cli's spellings), as every command that runs engines declares them."""
    group.add("-engine", dest="engine", action="append", nargs="+", metavar="KEY=VALUE", default=[],
              help=engine_help)
    group.add("-each", dest="each", action="append", nargs="+", metavar="KEY=VALUE", default=[], help=each_help)


def int_at_least(minimum: int, maximum: int = 2**63 - 1) -> Callable[[str], int]:
    """An argparse type: a whole number in minimum..maximum (ASCII digits), saying which rule failed."""
    def parse(text: str) -> int:
        if not re.fullmatch(r"-?[0-9]{1,25}", text):
            raise argparse.ArgumentTypeError(f"expected a whole number (ASCII digits), not {text[:40]!r}")
        value = int(text)
        if not minimum <= value <= maximum:
            raise argparse.ArgumentTypeError(f"must be in {minimum}..{maximum}, not {value}")
        return value
    return parse


positive_int = int_at_least(1)
non_negative_int = int_at_least(0)
count_int = int_at_least(1, 1_000_000)
"""Games, rounds, games at once: more would only exhaust memory before the first game."""


def positive_float(text: str) -> float:
    """An argparse type: a number > 0."""
    if not re.fullmatch(r"[0-9]{1,15}(\.[0-9]{1,15})?", text):
        raise argparse.ArgumentTypeError(f"expected a number (ASCII digits, e.g. 2.5), not {text[:40]!r}")
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, not {text}")
    return value
