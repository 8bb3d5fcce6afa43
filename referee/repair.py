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

from .store import RECORDS, StoreError, _fsync_dir, scan_records, write_atomic_bytes

REJECTED = "records.rejected.jsonl"


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
        lines += [f"  {problem}" for _, problem in self.moved[:20]]
        if len(self.moved) > 20:
            lines.append(f"  ... and {len(self.moved) - 20} more")
        return "\n".join(lines)


def records_path(target: str | Path) -> Path:
    """records.jsonl itself, or the one inside a run directory."""
    path = Path(target)
    path = path / RECORDS if path.is_dir() else path
    if not path.is_file():
        raise StoreError(f"no records file at {path}")
    return path


def repair(target: str | Path) -> RepairReport:
    """Move bad lines aside (see the module docstring); the report says how many and why."""
    path = records_path(target)
    rejected = path.with_name(REJECTED)
    lines, _, torn = scan_records(path)
    good: list[bytes] = []
    moved: list[tuple[int, str]] = []
    bad: list[bytes] = []
    for index, (number, raw, checked) in enumerate(lines):
        if not raw.strip():
            continue
        if isinstance(checked, str):
            last_torn = torn and index == len(lines) - 1
            moved.append((number, checked + (" (torn last line)" if last_torn else "")))
            bad.append(raw)
        else:
            good.append(raw)
    if moved:
        fd = os.open(rejected, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, b"".join(raw + b"\n" for raw in bad))
            os.fsync(fd)
        finally:
            os.close(fd)
        write_atomic_bytes(path, b"".join(raw + b"\n" for raw in good))
        _fsync_dir(path.parent)
    return RepairReport(path, rejected, len(good), moved)
