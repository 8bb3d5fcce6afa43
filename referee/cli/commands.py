"""The table of subcommands. A new subcommand is one module (``cmd_<name>.py`` defining a
:class:`~referee.cli.command.Command`) and one entry here."""

from __future__ import annotations

from . import cmd_book, cmd_check, cmd_export, cmd_games, cmd_repair, cmd_report
from .command import Command

COMMANDS: tuple[Command, ...] = (
    cmd_games.MATCH,
    cmd_games.TOURNAMENT,
    cmd_check.COMMAND,
    cmd_export.COMMAND,
    cmd_report.COMMAND,
    cmd_book.COMMAND,
    cmd_repair.COMMAND,
)
