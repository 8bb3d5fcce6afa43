"""The `export-pgn` command: records (JSON Lines) to PGN-style text."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..pgn import export_file
from ..store import RECORDS
from .arguments import Options
from .command import EXIT_OK, Command, UsageError


def add_arguments(p: Options) -> None:
    p.add("records", metavar="RECORDS", help="records.jsonl, or the output directory holding it")
    p.add("-o", "--output", metavar="FILE", help="write here instead of stdout")
    p.add("--event", default="isaac-referee", help="the Event tag (default isaac-referee)")


def run(args: argparse.Namespace) -> int:
    path = Path(args.records)
    if path.is_dir():
        path = path / RECORDS
    if not path.is_file():
        raise UsageError(f"export-pgn: no records file at {path}")
    text = export_file(str(path), args.event)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return EXIT_OK


COMMAND = Command("export-pgn", help="records (JSON Lines) -> PGN-style text",
                  description="Writes the games of a records.jsonl (or an output directory) as PGN.",
                  add_arguments=add_arguments, run=run)
