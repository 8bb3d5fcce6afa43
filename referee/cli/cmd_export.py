"""The `export-pgn` command: records (JSON Lines) to PGN-style text, game by game as they are read."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ..results.pgn import export_to
from ..results.store import RECORDS, RecordReader
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
    if not args.output:
        for _ in RecordReader(path):   # a bad line stops the export before a game is printed
            pass
        export_to(path, sys.stdout, args.event)
        sys.stdout.flush()
        return EXIT_OK
    target = Path(args.output)
    tmp = target.with_name(target.name + ".tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as out:
            export_to(path, out, args.event)
        os.replace(tmp, target)
    except OSError as exc:
        raise UsageError(f"export-pgn: cannot write {target}: {exc.strerror or exc}") from None
    finally:
        tmp.unlink(missing_ok=True)
    return EXIT_OK


COMMAND = Command("export-pgn", help="records (JSON Lines) -> PGN-style text",
                  description="Writes the games of a records.jsonl (or an output directory) as PGN.",
                  add_arguments=add_arguments, run=run)
