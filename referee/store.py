"""The output directory: configuration, one JSON line per finished game, events, summary.

Durability is the point. Each finished game is written as one line with a
single write, then flushed and fsync'ed before the referee moves on, so a
crash, SIGKILL or power cut loses at most games that had not finished. On
reading, a torn final line (the write that was interrupted) is ignored, and
before appending again it is cut off, so the file stays one record per line.

The configuration that defines the games (engines, game type, openings, seed,
schedule) is stored in ``config.json`` when a run starts; ``--resume`` compares
it with the new command line and refuses to continue a different match.
"""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path
from typing import IO, Any

CONFIG = "config.json"
RECORDS = "records.jsonl"
EVENTS = "events.log"
SUMMARY = "summary.json"
PGN = "games.pgn"


class StoreError(Exception):
    """The output directory cannot be used as asked (with what to do instead)."""


def _dir_problem(path: Path) -> str | None:
    if path.exists() and not path.is_file():
        return f"{path}: is a directory, expected a file" if path.is_dir() else f"{path}: is not a regular file"
    return None


def scan_records(path: str | Path) -> tuple[list[tuple[int, bytes, dict[str, Any] | str]], int, bool]:
    """Every line of a JSONL records file, checked: ([(line number, raw bytes, record or problem)],
    byte length of the whole-line prefix, whether the last line is unterminated (torn)).

    A valid record whose game_id an earlier line already holds is a problem too (the first stays).
    """
    path = Path(path)
    problem = _dir_problem(path)
    if problem:
        raise StoreError(problem)
    try:
        data = path.read_bytes() if path.exists() else b""
    except OSError as exc:
        raise StoreError(f"{path}: cannot be read ({exc.strerror})") from None
    lines = data.split(b"\n")
    torn = lines[-1] != b""
    whole_end = len(data) - len(lines[-1])
    if not torn:
        lines.pop()
    out: list[tuple[int, bytes, dict[str, Any] | str]] = []
    first_line: dict[int, int] = {}   # game_id -> line of its first record
    for number, raw in enumerate(lines, 1):
        checked = check_record_line(raw, f"{path}, line {number}") if raw.strip() else "empty line"
        if isinstance(checked, dict):
            # the runner appends each finished game once (the cluster submitter too, keyed by
            # game id), so a repeated game_id is corruption: which record counts is not ours to pick
            game_id = checked["game_id"]
            if game_id in first_line:
                checked = f"{path}, line {number}: game_id {game_id} already recorded at line {first_line[game_id]}"
            else:
                first_line[game_id] = number
        out.append((number, raw, checked))
    return out, whole_end, torn


def check_record_line(raw: bytes, where: str) -> dict[str, Any] | str:
    """The record of one line (validated against schema.RecordModel) or the problem, one sentence."""
    from .schema import RecordModel, SchemaError, validate
    try:
        record = json.loads(raw)
    except ValueError as exc:
        return f"{where}: not valid JSON ({exc})"
    if not isinstance(record, dict):
        return f"{where}: expected a JSON object (a game record), found {type(record).__name__}"
    try:
        validate(RecordModel, record, where)
    except SchemaError as exc:
        return str(exc)
    return record


def read_records_file(path: str | Path) -> tuple[list[dict[str, Any]], int]:
    """(records, byte length of the prefix to keep) of a JSONL file, every record validated.

    Only a torn last line (no newline after it: the write that was interrupted) that is not a
    valid record is left out; any other bad line, wherever it is, raises StoreError naming the
    file, line and field, and a repeated game_id raises naming both lines (`isaac-referee repair`
    moves such lines aside). Records are never changed or dropped silently.
    """
    lines, whole_end, torn = scan_records(path)
    records: list[dict[str, Any]] = []
    keep = whole_end
    for index, (_, raw, checked) in enumerate(lines):
        last = index == len(lines) - 1
        if not raw.strip():
            continue   # an empty line holds no record
        if isinstance(checked, str):
            if last and torn and isinstance(check_record_line(raw, ""), str):
                break   # the interrupted write (a whole record that repeats a game_id is not)
            raise StoreError(f"{checked}; run 'isaac-referee repair' on the directory to move bad "
                             f"lines aside, or fix that line")
        records.append(checked)
        if last and torn:
            keep = whole_end + len(raw)   # a whole record whose newline was lost: kept
    return records, keep


def _last_byte(path: Path) -> bytes:
    with open(path, "rb") as fh:
        fh.seek(-1, os.SEEK_END)
        return fh.read(1)


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_atomic(path: Path, text: str) -> None:
    """Replace a file's contents so a reader never sees half of it."""
    write_atomic_bytes(path, text.encode("utf-8"))


def write_atomic_bytes(path: Path, data: bytes) -> None:
    """Replace a file's contents with `data` so a reader never sees half of it."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


class Store:
    """One output directory. `append` is thread-safe (the runner fsyncs off the event loop)."""

    def __init__(self, out_dir: str | Path):
        self.dir = Path(out_dir)
        self._lock = threading.Lock()          # records (appended from a worker thread)
        self._events_lock = threading.Lock()   # separate: an fsync must not block the event loop's diary
        self._fd: int | None = None
        self._events: IO[str] | None = None

    # -- configuration ---------------------------------------------------------
    def path(self, name: str) -> Path:
        return self.dir / name

    def check_dir(self) -> None:
        """StoreError unless the output directory is a directory or does not exist yet."""
        if self.dir.exists() and not self.dir.is_dir():
            raise StoreError(f"--out {self.dir}: is a file, expected a directory (or a new name)")

    def load_config(self) -> dict[str, Any] | None:
        """config.json validated against schema.RunConfigModel; None when there is none."""
        from .schema import RunConfigModel, SchemaError, load_json
        self.check_dir()
        path = self.path(CONFIG)
        if not path.exists():
            return None
        try:
            data, _ = load_json(RunConfigModel, path)
        except SchemaError as exc:
            raise StoreError(str(exc)) from None
        return data

    def save_config(self, config: dict[str, Any]) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        write_atomic(self.path(CONFIG), json.dumps(config, indent=2, sort_keys=True) + "\n")
        _fsync_dir(self.dir)

    # -- records ---------------------------------------------------------------
    def read_records(self) -> list[dict[str, Any]]:
        records, _ = read_records_file(self.path(RECORDS))
        return records

    def open_for_append(self) -> int:
        """Open records.jsonl for appending after cutting off a torn final line; returns bytes cut."""
        self.dir.mkdir(parents=True, exist_ok=True)
        path = self.path(RECORDS)
        _, good_end = read_records_file(path)
        cut = 0
        if path.exists():
            size = path.stat().st_size
            cut = size - good_end
            if cut:
                os.truncate(path, good_end)
        self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        if good_end and _last_byte(path) != b"\n":
            os.write(self._fd, b"\n")   # a complete record whose newline was lost
        os.fsync(self._fd)
        _fsync_dir(self.dir)
        return cut

    def append(self, record: dict[str, Any]) -> None:
        """Write one record as one line and make it durable before returning."""
        if self._fd is None:
            raise StoreError("records file is not open for appending")
        data = (json.dumps(record, separators=(",", ":"), ensure_ascii=False) + "\n").encode("utf-8")
        with self._lock:
            view = memoryview(data)
            while view:
                written = os.write(self._fd, view)
                view = view[written:]
            os.fsync(self._fd)

    # -- events, summary, exports ----------------------------------------------------
    def event(self, text: str) -> None:
        """One timestamped line in events.log (flushed, not fsync'ed: it is a diary, not data)."""
        if self._events is None:
            self.dir.mkdir(parents=True, exist_ok=True)
            self._events = open(self.path(EVENTS), "a", encoding="utf-8", buffering=1)
        stamp = time.strftime("%Y-%m-%d %H:%M:%S")
        with self._events_lock:
            self._events.write(f"{stamp} {text}\n")

    def write_text(self, name: str, text: str) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        write_atomic(self.path(name), text)

    def close(self) -> None:
        """Close the files; waits for an append in progress (its record stays whole)."""
        with self._lock:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None
        with self._events_lock:
            if self._events is not None:
                self._events.close()
                self._events = None
