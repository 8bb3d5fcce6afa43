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

import hashlib
import json
import os
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, NoReturn

from ..formats.schema import RecordModel, RunConfigModel, SchemaError, load_json, validate
from .compact import GameIdSet

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


@dataclass(frozen=True)
class Line:
    """One line of a records file: its number, bytes (newline excluded), where it starts, and the
    record read from it or the problem with it (one sentence naming the file, line and field)."""

    number: int
    raw: bytes
    offset: int
    checked: dict[str, Any] | str
    torn: bool = False
    """The last line of the file, without its newline (the write a crash cut)."""


def iter_lines(path: str | Path, start: int = 0, first_line: int = 1,
               seen: GameIdSet | None = None) -> Iterator[Line]:
    """Every line of a JSONL records file from byte `start` on, each checked, in constant memory.

    A valid record whose game_id an earlier line holds (in `seen` too, if given) is a problem:
    the runner appends each finished game once (the cluster submitter too, keyed by game id), so a
    repeated game_id is corruption, and which record counts is not ours to pick."""
    path = Path(path)
    problem = _dir_problem(path)
    if problem:
        raise StoreError(problem)
    seen = GameIdSet() if seen is None else seen
    first_at: dict[int, int] = {}   # game_id -> line, for the message (only ids seen in this pass)
    try:
        handle = open(path, "rb") if path.exists() else None
    except OSError as exc:
        raise StoreError(f"{path}: cannot be read ({exc.strerror})") from None
    if handle is None:
        return
    with handle:
        try:
            handle.seek(start)
            offset, number = start, first_line - 1
            for data in handle:
                number += 1
                torn = not data.endswith(b"\n")
                raw = data if torn else data[:-1]
                if not raw.strip():
                    checked: dict[str, Any] | str = "empty line"
                else:
                    checked = check_record_line(raw, f"{path}, line {number}")
                if isinstance(checked, dict):
                    game_id = checked["game_id"]
                    if not seen.add(game_id):
                        first = first_at.get(game_id) or _first_line_of(path, game_id, offset)
                        where = f" at line {first}" if first else " earlier"
                        checked = f"{path}, line {number}: game_id {game_id} already recorded{where}"
                    else:
                        first_at[game_id] = number
                yield Line(number, raw, offset, checked, torn)
                offset += len(data)
        except OSError as exc:
            raise StoreError(f"{path}: cannot be read ({exc.strerror})") from None


def _first_line_of(path: Path, game_id: int, before: int) -> int | None:
    """The line of the first record of `game_id` in the first `before` bytes (for the message about a
    repeated game id whose first record came before the part read now: a checkpoint covered it)."""
    try:
        with open(path, "rb") as handle:
            offset = 0
            for number, data in enumerate(handle, 1):
                if offset >= before:
                    return None
                offset += len(data)
                try:
                    record = json.loads(data)
                except ValueError:
                    continue
                if isinstance(record, dict) and record.get("game_id") == game_id:
                    return number
    except OSError:
        return None
    return None


def scan_records(path: str | Path) -> tuple[list[tuple[int, bytes, dict[str, Any] | str]], int, bool]:
    """Every line of a JSONL records file, checked: ([(line number, raw bytes, record or problem)],
    byte length of the whole-line prefix, whether the last line is unterminated (torn)).

    A valid record whose game_id an earlier line already holds is a problem too (the first stays).
    Holds the whole file: for large files use iter_lines.
    """
    lines = list(iter_lines(path))
    torn = bool(lines) and lines[-1].torn
    whole_end = lines[-1].offset if torn else (lines[-1].offset + len(lines[-1].raw) + 1 if lines else 0)
    return [(line.number, line.raw, line.checked) for line in lines], whole_end, torn


def check_record_line(raw: bytes, where: str) -> dict[str, Any] | str:
    """The record of one line (validated against schema.RecordModel) or the problem, one sentence."""
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


class RecordReader:
    """The valid records of a records file, read as a stream, strictly.

    Only a torn last line (no newline after it: the write that was interrupted) that is not a
    valid record is left out; any other bad line, wherever it is, raises StoreError naming the
    file, line and field, and a repeated game_id raises naming both lines (`isaac-referee repair`
    moves such lines aside). Records are never changed or dropped silently. After the iteration,
    `keep` is the byte length of the prefix to keep (what open_for_append cuts to), `lines` the
    number of lines read and `seen` the game ids."""

    def __init__(self, path: str | Path, start: int = 0, first_line: int = 1, seen: GameIdSet | None = None):
        self.path = Path(path)
        self.start = start
        self.first_line = first_line
        self.seen = GameIdSet() if seen is None else seen
        self.keep = start
        self.lines = first_line - 1
        self.last_offset = start
        """Where the line of the record last yielded starts."""
        self.digest: Any = None
        """A blake2b of the bytes read (from `start`), when `hashing` is set before iterating."""
        self.hashing: Any = None

    def __iter__(self) -> Iterator[dict[str, Any]]:
        hashing = self.hashing
        for line in iter_lines(self.path, self.start, self.first_line, self.seen):
            if line.torn:
                if isinstance(line.checked, str):
                    if isinstance(check_record_line(line.raw, ""), str):
                        return   # the interrupted write (a whole record that repeats a game_id is not)
                    self._refuse(line.checked)
                self.keep = line.offset + len(line.raw)   # a whole record whose newline was lost: kept
                self.lines = line.number
                self.last_offset = line.offset
                if hashing is not None:
                    hashing.update(line.raw + b"\n")   # as the file will read once the newline is put back
                yield line.checked
                return
            self.keep = line.offset + len(line.raw) + 1
            self.lines = line.number
            if hashing is not None:
                hashing.update(line.raw + b"\n")
            if not line.raw.strip():
                continue   # an empty line holds no record
            if isinstance(line.checked, str):
                self._refuse(line.checked)
            self.last_offset = line.offset
            yield line.checked

    @staticmethod
    def _refuse(problem: str) -> NoReturn:
        raise StoreError(f"{problem}; run 'isaac-referee repair' on the directory to move bad "
                         f"lines aside, or fix that line")


def read_records_file(path: str | Path) -> tuple[list[dict[str, Any]], int]:
    """(records, byte length of the prefix to keep) of a JSONL file, every record validated
    (RecordReader's rules). Holds every record: for large files iterate a RecordReader."""
    reader = RecordReader(path)
    records = list(reader)
    return records, reader.keep


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


def write_atomic_bytes(path: Path, data: bytes, *, durable: bool = False) -> None:
    """Replace a file's contents with `data` so a reader never sees half of it; `durable` also syncs
    the directory, so the file is still there after a power cut once this returns."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    if durable:
        _fsync_dir(path.parent)


def new_digest() -> Any:
    """The hash a checkpoint keeps of records.jsonl (blake2b: about 1 GB/s)."""
    return hashlib.blake2b(digest_size=32)


@dataclass(frozen=True)
class RecordsEnd:
    """A point in records.jsonl: bytes before it, whole lines before it, and a running blake2b of
    those bytes (hashlib object: copy it before updating)."""

    bytes: int
    lines: int
    digest: Any


def reader_end(reader: RecordReader) -> RecordsEnd:
    """Where a RecordReader that went through its file stopped (the prefix to keep)."""
    return RecordsEnd(reader.keep, reader.lines, reader.hashing)


class Store:
    """One output directory. `append` is thread-safe (the runner fsyncs off the event loop)."""

    def __init__(self, out_dir: str | Path):
        self.dir = Path(out_dir)
        self._lock = threading.Lock()          # records (appended from a worker thread)
        self._events_lock = threading.Lock()   # separate: an fsync must not block the event loop's diary
        self._fd: int | None = None
        self._events: IO[str] | None = None
        self._end = RecordsEnd(0, 0, new_digest())

    # -- configuration ---------------------------------------------------------
    def path(self, name: str) -> Path:
        return self.dir / name

    def check_dir(self) -> None:
        """StoreError unless the output directory is a directory or does not exist yet."""
        if self.dir.exists() and not self.dir.is_dir():
            raise StoreError(f"--out {self.dir}: is a file, expected a directory (or a new name)")

    def load_config(self) -> dict[str, Any] | None:
        """config.json validated against schema.RunConfigModel; None when there is none."""
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
        """Every record (held in memory): for a run of any size use `reader()`."""
        records, _ = read_records_file(self.path(RECORDS))
        return records

    def reader(self, start: RecordsEnd | None = None, seen: GameIdSet | None = None) -> RecordReader:
        """A stream of the records (from `start`, a checkpoint's end, if given) that also hashes the
        bytes it reads, so `open_for_append(reader.end())` can go on from where it stopped."""
        begin = start if start is not None else RecordsEnd(0, 0, new_digest())
        reader = RecordReader(self.path(RECORDS), begin.bytes, begin.lines + 1, seen)
        reader.hashing = begin.digest.copy()
        return reader

    def open_for_append(self, end: RecordsEnd | None = None) -> int:
        """Open records.jsonl for appending after cutting off what follows the last whole record
        (`end`, from a reader that went through the file; read here if not given); returns bytes cut."""
        self.dir.mkdir(parents=True, exist_ok=True)
        path = self.path(RECORDS)
        if end is None:
            reader = self.reader()
            for _ in reader:
                pass
            end = reader_end(reader)
        cut = 0
        if path.exists():
            size = path.stat().st_size
            cut = max(0, size - end.bytes)
            if cut:
                os.truncate(path, end.bytes)
        self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        if end.bytes and _last_byte(path) != b"\n":
            os.write(self._fd, b"\n")   # a complete record whose newline was lost
            end = RecordsEnd(end.bytes + 1, end.lines, end.digest)
        os.fsync(self._fd)
        _fsync_dir(self.dir)
        self._end = RecordsEnd(end.bytes, end.lines, end.digest.copy())
        return cut

    def append(self, record: dict[str, Any]) -> None:
        """Write one record as one line and make it durable before returning."""
        self.append_at(record)

    def append_at(self, record: dict[str, Any]) -> int:
        """`append`, returning where the record's line starts in the file."""
        if self._fd is None:
            raise StoreError("records file is not open for appending")
        data = (json.dumps(record, separators=(",", ":"), ensure_ascii=False) + "\n").encode("utf-8")
        with self._lock:
            view = memoryview(data)
            while view:
                written = os.write(self._fd, view)
                view = view[written:]
            os.fsync(self._fd)
            digest = self._end.digest
            digest.update(data)
            start = self._end.bytes
            self._end = RecordsEnd(start + len(data), self._end.lines + 1, digest)
            return start

    def end(self) -> RecordsEnd:
        """Where records.jsonl ends now: bytes, lines and the digest of all of it (a copy)."""
        with self._lock:
            return RecordsEnd(self._end.bytes, self._end.lines, self._end.digest.copy())

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
