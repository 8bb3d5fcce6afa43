"""`isaac-referee repair`: move the lines of records.jsonl that are not valid records aside.

The referee never drops or changes a record silently (`--resume` and `export-pgn` stop at the
first bad line). Repair is the explicit way out: every line that is not a valid record
(schema.RecordModel), torn last line included, and every later record of a game_id an earlier
line already holds, is appended to records.rejected.jsonl beside it, byte for byte, and
records.jsonl is rewritten atomically with the valid lines, in order.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .checkpoint import CHECKPOINT
from .store import RECORDS, StoreError, _fsync_dir, iter_lines

REJECTED = "records.rejected.jsonl"
MAX_LISTED = 20
"""Problems kept word for word for the report (the rest are counted)."""


@dataclass(frozen=True)
class RepairReport:
    records: Path
    rejected: Path
    kept: int
    moved: list[tuple[int, str]]   # (line number, problem)

    def text(self) -> str:
        if not self.moved:
            return f"{self.records}: nothing to repair; {self.kept} valid records"
        lines = [f"moved {len(self.moved)} bad line{'s' if len(self.moved) > 1 else ''} of {self.records} "
                 f"to {self.rejected}; {self.kept} valid records kept"]
        lines += [f"  {problem}" for _, problem in self.moved[:MAX_LISTED]]
        if len(self.moved) > MAX_LISTED:
            lines.append(f"  ... and {len(self.moved) - MAX_LISTED} more")
        return "\n".join(lines)


def records_path(target: str | Path) -> Path:
    """records.jsonl itself, or the one inside a run directory."""
    path = Path(target)
    path = path / RECORDS if path.is_dir() else path
    if not path.is_file():
        raise StoreError(f"no records file at {path}")
    return path


def repair(target: str | Path) -> RepairReport:
    """Move bad lines aside (see the module docstring); the report says how many and why.

    Two passes over the file, each a stream: the first finds the bad lines; only if there are any,
    the second writes the good ones to a new file (renamed over the old one) and the bad ones to
    records.rejected.jsonl. A checkpoint of the run no longer describes the file and is removed."""
    path = records_path(target)
    rejected = path.with_name(REJECTED)
    moved: list[tuple[int, str]] = []
    kept = 0
    for line in iter_lines(path):
        if not line.raw.strip():
            continue
        if isinstance(line.checked, str):
            if len(moved) < MAX_LISTED:
                moved.append((line.number, line.checked + (" (torn last line)" if line.torn else "")))
            else:
                moved.append((line.number, ""))
        else:
            kept += 1
    if not moved:
        return RepairReport(path, rejected, kept, moved)
    bad_lines = {number for number, _ in moved}
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as good, open(rejected, "ab") as bad:
        for line in iter_lines(path):
            if not line.raw.strip():
                continue
            (bad if line.number in bad_lines else good).write(line.raw + b"\n")
        bad.flush()
        os.fsync(bad.fileno())
        good.flush()
        os.fsync(good.fileno())
    os.replace(tmp, path)
    _fsync_dir(path.parent)
    (path.parent / CHECKPOINT).unlink(missing_ok=True)
    return RepairReport(path, rejected, kept, moved)
