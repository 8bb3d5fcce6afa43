"""isaac-referee: matches, tournaments, conformance checks and PGN export.

    isaac-referee match -engine name=A cmd="python -m engine" option.Strategy=greedy \\
                        -engine name=B cmd="python -m engine" option.Strategy=random \\
                        -each tc=st=0.05 --game isaac --games 10 --openings random:4
    isaac-referee tournament --format round-robin --engines-file engines.toml --games 2 --rounds 3
    isaac-referee check python -m engine
    isaac-referee export-pgn referee-runs/match-20250101-120000

Exit codes: 0 done (all games played, or SPRT decided), 1 the check failed or
an output directory problem, 2 bad arguments, 130 interrupted (finished games
are saved; continue with --resume).

Layout: ``dispatch`` (the table of subcommands, one ``cmd_*`` module each, and main), ``command``
(what a subcommand is), ``arguments`` (how it declares options, argument types), ``parser`` (the
parser, --help, --version), ``prepare`` (a run's engines, identity, directory, openings and plan,
fresh or resumed), ``summary``, ``signals``, ``iolog``, ``spellings``.
"""

from __future__ import annotations

from .command import EXIT_FAIL, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, Command, UsageError
from .dispatch import build_parser, main
from .prepare import default_concurrency

__all__ = ["EXIT_FAIL", "EXIT_INTERRUPTED", "EXIT_OK", "EXIT_USAGE", "Command", "UsageError",
           "build_parser", "default_concurrency", "main"]
