"""checkpoint.json: the run's counts at a point of records.jsonl, so --resume need not re-read it all.

Reading and validating every record of a 100,000-game run takes seconds (JSON and the schema,
about 40 us a record). The runner therefore saves, every CHECKPOINT_EVERY games and when the
run ends, what it has counted (referee/results/tally.py: standings, pairs, ratings inputs, repeats, the
recorded game ids) with the point of records.jsonl it stands for: bytes, lines and a blake2b of
those bytes. --resume hashes that prefix (about 1 GB/s) and, when it matches, takes the counts and
reads, strictly, only the records after it. Records stay the source of truth: a checkpoint that
does not match its records (a hand edit, a repair, a torn or foreign file, another run's
identity, a changed checkpoint) is set aside and every record is read again, so a bad line is
still refused with its file, line and field. The checkpoint also names the byte offsets of the
games the report shows (referee/results/report.py), so a resumed run's report has them without a full read.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .compact import from_base64, to_base64
from .store import RECORDS, RecordsEnd, Store, new_digest, write_atomic

CHECKPOINT = "checkpoint.json"
CHECKPOINT_VERSION = 1
CHECKPOINT_EVERY = 1000
"""Games between two checkpoints of a running run (and one when it ends)..."""
CHECKPOINT_SHARE = 100
"""...or a hundredth of the games recorded, when that is more: a checkpoint holds the table of
repeated-game hashes (about 16 bytes a game), so a million-game run writes one every 10,000 games."""


def checkpoint_due(since: int, recorded: int) -> bool:
    """Whether `since` games after the last checkpoint, with `recorded` in all, call for the next."""
    return since >= max(CHECKPOINT_EVERY, recorded // CHECKPOINT_SHARE)
HASH_CHUNK = 1 << 20


def identity_key(identity: dict[str, Any]) -> str:
    """A digest of the run's identity (config.json): a checkpoint belongs to one run."""
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()


def _seal(body: dict[str, Any]) -> str:
    return hashlib.blake2b(json.dumps(body, sort_keys=True).encode(), digest_size=16).hexdigest()


def checkpoint_text(identity: dict[str, Any], end: RecordsEnd, tally_state: dict[str, Any],
                    report_offsets: Iterable[int], pgn_bytes: int | None) -> str:
    """The checkpoint file's text, from a state taken on the loop at one moment (RunTally.state(),
    the end of records.jsonl and of games.pgn then; None: games.pgn is rebuilt at the end); the
    encoding may run in any thread."""
    tally = dict(tally_state)
    tally["done"] = to_base64(tally_state["done"])
    tally["repeats"] = {**tally_state["repeats"], "seen": to_base64(tally_state["repeats"]["seen"])}
    body = {"version": CHECKPOINT_VERSION, "identity": identity_key(identity),
            "records": {"bytes": end.bytes, "lines": end.lines, "blake2b": end.digest.hexdigest()},
            "tally": tally, "report_offsets": sorted(set(report_offsets)), "pgn_bytes": pgn_bytes}
    return json.dumps({**body, "seal": _seal(body)}, separators=(",", ":"))


def write_checkpoint(store: Store, text: str) -> None:
    write_atomic(store.path(CHECKPOINT), text)


def load_checkpoint(store: Store, identity: dict[str, Any]) -> tuple[dict[str, Any], RecordsEnd] | None:
    """(the checkpoint's data, the point of records.jsonl it stands for, with the digest of the bytes
    before it) when it is this run's, unchanged, and records.jsonl still begins with exactly what
    it counted; None otherwise (the caller then reads every record)."""
    path = store.path(CHECKPOINT)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("version") != CHECKPOINT_VERSION:
        return None
    seal = data.pop("seal", None)
    try:
        if seal != _seal(data) or data.get("identity") != identity_key(identity):
            return None
        records = data["records"]
        size, lines, expected = int(records["bytes"]), int(records["lines"]), str(records["blake2b"])
        if not isinstance(data["tally"], dict) or not isinstance(data["report_offsets"], list):
            return None
        data["tally"]["done"] = from_base64(data["tally"]["done"])
        data["tally"]["repeats"]["seen"] = from_base64(data["tally"]["repeats"]["seen"])
    except (KeyError, TypeError, ValueError):
        return None
    digest = _prefix_digest(store.path(RECORDS), size)
    if digest is None or digest.hexdigest() != expected:
        return None
    return data, RecordsEnd(size, lines, digest)


def _prefix_digest(path: Path, size: int) -> Any:
    """The blake2b of the first `size` bytes of a file, or None if it is shorter."""
    digest = new_digest()
    left = size
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        while left:
            chunk = os.read(fd, min(HASH_CHUNK, left))
            if not chunk:
                return None
            digest.update(chunk)
            left -= len(chunk)
    except OSError:
        return None
    finally:
        os.close(fd)
    return digest


def remove_checkpoint(store: Store) -> None:
    """Forget the checkpoint (records.jsonl changed under it: repair)."""
    try:
        store.path(CHECKPOINT).unlink()
    except OSError:
        pass
