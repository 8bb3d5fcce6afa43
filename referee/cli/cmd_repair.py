"""The `repair` command: move the bad lines of a records file aside (referee/results/repair.py)."""

from __future__ import annotations

import argparse

from ..results.repair import repair
from .arguments import Options
from .command import EXIT_OK, Command


def add_arguments(p: Options) -> None:
    p.add("records", metavar="RECORDS", help="records.jsonl, or the output directory holding it")


def run(args: argparse.Namespace) -> int:
    print(repair(args.records).text())
    return EXIT_OK


COMMAND = Command("repair", help="move records that are not valid aside (to records.rejected.jsonl)",
                  description="Moves every line of records.jsonl that is not a valid game record, byte for "
                              "byte, to records.rejected.jsonl beside it, keeps the valid records in order, "
                              "and says how many lines moved and why.",
                  add_arguments=add_arguments, run=run)
