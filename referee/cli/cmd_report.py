"""The `report` command: (re)build report.html of a run directory from its records."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..results.report import build_report
from ..results.store import RECORDS, StoreError
from .arguments import Options
from .command import EXIT_OK, Command, UsageError


def add_arguments(p: Options) -> None:
    p.add("run_dir", metavar="DIR", help="the run's output directory (holding records.jsonl)")


def run(args: argparse.Namespace) -> int:
    run_dir = Path(args.run_dir)
    if not (run_dir / RECORDS).is_file():
        raise UsageError(f"no {RECORDS} in {run_dir}")
    try:
        path = build_report(run_dir)
    except (StoreError, OSError) as exc:
        raise UsageError(str(exc)) from None
    print(path)
    return EXIT_OK


COMMAND = Command("report", help="(re)build report.html of a run directory",
                  description="Writes DIR/report.html: standings, crosstable, terminations and every game "
                              "replayable move by move (one self-contained file, no network needed).",
                  add_arguments=add_arguments, run=run)
