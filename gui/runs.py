"""Run directories of the referee, read for replay and for following a match live.

Only directories given on the server's command line (`--runs`) and their immediate
subdirectories are offered; the browser picks a run by the name listed here, never by path.
A record's positions are rebuilt with protocol/ from its start position and moves (the record
format is SPEC 10.4). records.jsonl is read as a stream, strictly (referee/results/store.py), and only
what was appended since the last look is read again (``RunReader``): a run of any length costs a
bounded amount of memory, and a live run's new games cost only themselves. The games listed are
the latest MAX_LISTED_GAMES; any game can be replayed.
"""

from __future__ import annotations

import json
import os
from collections import OrderedDict, deque
from pathlib import Path
from typing import Any

from protocol import game_from_position
from protocol.errors import ArenaError
from protocol.state import state_fields
from referee.matches.live import LIVE
from referee.results.store import CONFIG, RECORDS, SUMMARY, RecordReader, StoreError, check_record_line
from referee.results.tally import EngineTotals, RunTally, ranked

from .board import board_svg_text

MAX_LISTED_GAMES = 500
"""The latest games listed in the Runs tab (the standings count every game)."""
CACHED_RUNS = 8
TAIL_CHECK = 4096
"""Bytes before the point read so far that must be unchanged for the file to be read on from there."""


class RunError(ValueError):
    """A run or game the server cannot show; said for the browser."""


def is_run(path: Path) -> bool:
    return (path / RECORDS).exists() or (path / CONFIG).exists()


def find_runs(roots: list[Path]) -> dict[str, Path]:
    """{name: directory} of every run under the configured roots, newest first."""
    found: list[tuple[float, str, Path]] = []
    for root in roots:
        candidates = [root] if is_run(root) else sorted(p for p in root.iterdir() if p.is_dir() and is_run(p))
        for path in candidates:
            name = path.name if path != root or len(roots) == 1 else f"{root.name}"
            stamp = max((p.stat().st_mtime for p in (path / RECORDS, path / CONFIG) if p.exists()), default=0.0)
            found.append((stamp, name, path))
    found.sort(key=lambda item: (-item[0], item[1]))
    runs: dict[str, Path] = {}
    for _, name, path in found:
        unique, n = name, 2
        while unique in runs:
            unique, n = f"{name} ({n})", n + 1
        runs[unique] = path
    return runs


def records_signature(path: Path) -> tuple[int, float]:
    """(size, mtime) of a run's records, summary and live games: changes with every move seen."""
    size, mtime = 0, 0.0
    for name in (RECORDS, SUMMARY, LIVE):
        file = path / name
        if file.exists():
            stat = file.stat()
            size, mtime = size + stat.st_size, max(mtime, stat.st_mtime)
    return size, mtime


class RunReader:
    """One run's records.jsonl as read so far: counts, the latest games, where reading stopped.

    The file is read on from where the last look stopped, unless it shrank, was replaced (another
    inode) or its bytes just before that point changed: then it is read again from the start."""

    def __init__(self, path: Path):
        self.path = path
        self._reset()

    def _reset(self) -> None:
        self.tally = RunTally([])
        self.rows: deque[dict[str, Any]] = deque(maxlen=MAX_LISTED_GAMES)
        self.last: dict[str, Any] | None = None
        self.first_type: str | None = None
        self.offset = 0
        self.lines = 0
        self.inode: tuple[int, int] | None = None
        self.tail = b""

    def refresh(self) -> None:
        """Read what was appended (StoreError, with the file, line and field, for a bad line)."""
        file = self.path / RECORDS
        try:
            stat = file.stat()
        except OSError:
            self._reset()
            return
        if (self.inode != (stat.st_dev, stat.st_ino) or stat.st_size < self.offset
                or self._tail_at(self.offset) != self.tail):
            self._reset()
            self.inode = (stat.st_dev, stat.st_ino)
        reader = RecordReader(file, self.offset, self.lines + 1, self.tally.done)
        try:
            for record in reader:
                self._take(record, reader.last_offset)
        except StoreError:
            self._reset()
            raise
        self.offset, self.lines = reader.keep, reader.lines
        self.tail = self._tail_at(self.offset)

    def _take(self, record: dict[str, Any], offset: int) -> None:
        self.tally.add(record)
        self.rows.append({"game_id": record["game_id"], "dark": record["dark"]["name"],
                          "light": record["light"]["name"], "result": record.get("result"),
                          "termination": record.get("termination"), "reason": record.get("reason", ""),
                          "plies": len(record.get("opening", [])) + len(record.get("moves", [])),
                          "offset": offset})
        self.last = record
        if self.first_type is None:
            self.first_type = record.get("game_type")

    def _tail_at(self, offset: int) -> bytes:
        if offset <= 0:
            return b""
        try:
            with open(self.path / RECORDS, "rb") as fh:
                fh.seek(max(0, offset - TAIL_CHECK))
                return fh.read(min(offset, TAIL_CHECK))
        except OSError:
            return b""

    def record(self, game_id: object) -> dict[str, Any] | None:
        """One game's record: at its known place if it is listed, else found by reading the file."""
        for row in self.rows:
            if row["game_id"] == game_id:
                found = _record_at(self.path / RECORDS, row["offset"])
                if found is not None and found.get("game_id") == game_id:
                    return found
        for record in RecordReader(self.path / RECORDS):
            if record["game_id"] == game_id:
                return record
        return None


_READERS: OrderedDict[Path, RunReader] = OrderedDict()


def _reader(path: Path) -> RunReader:
    """The run's reader, brought up to date (RunError for a records file that cannot be read)."""
    key = Path(os.path.realpath(path))
    reader = _READERS.pop(key, None) or RunReader(key)
    _READERS[key] = reader
    while len(_READERS) > CACHED_RUNS:
        _READERS.popitem(last=False)
    try:
        reader.refresh()
    except StoreError as exc:
        raise RunError(str(exc)) from None
    return reader


def _record_at(file: Path, offset: int) -> dict[str, Any] | None:
    try:
        with open(file, "rb") as fh:
            fh.seek(offset)
            raw = fh.readline().rstrip(b"\n")
    except OSError:
        return None
    checked = check_record_line(raw, f"{file}, byte {offset}")
    return checked if isinstance(checked, dict) else None


def run_summary(name: str, path: Path) -> dict[str, Any]:
    """Standings, the latest games and the latest board of a run, for the browser."""
    reader = _reader(path)
    config: dict[str, Any] = {}
    if (path / CONFIG).exists():
        try:
            config = json.loads((path / CONFIG).read_text(encoding="utf-8"))
        except ValueError:
            config = {}
    identity: dict[str, Any] = config["identity"] if isinstance(config.get("identity"), dict) else {}
    names = [e["name"] for e in identity.get("engines", []) if isinstance(e, dict) and isinstance(e.get("name"), str)]
    tally = reader.tally
    names += [n for n in tally.names if n not in names]
    totals = {n: tally.totals.get(n) or EngineTotals(n) for n in names}
    table = [row.to_json() for row in ranked(totals)] if tally.recorded else []
    games = [{k: v for k, v in row.items() if k != "offset"} for row in reader.rows]
    latest = None
    last = reader.last
    if last is not None and last.get("final_position"):
        try:
            latest = {"game_id": last["game_id"], "svg": board_svg_text(last["final_position"])}
        except ArenaError:
            latest = None
    return {"t": "run", "name": name, "live": live_games(path), "game_type": identity.get("game") or reader.first_type,
            "mode": identity.get("command"), "finished": (path / SUMMARY).exists(),
            "standings": table, "games": games, "recorded": tally.recorded, "latest": latest}


MAX_LIVE_BOARDS = 4


def live_games(path: Path) -> list[dict[str, Any]]:
    """The games in progress (from the referee's live.json), each with its board drawn."""
    try:
        data = json.loads((path / LIVE).read_text(encoding="utf-8"))
        games = [g for g in data.get("games", []) if isinstance(g, dict)]
    except (OSError, ValueError, AttributeError):
        return []
    out = []
    for game in games[:MAX_LIVE_BOARDS]:
        try:
            moves = [str(m) for m in game.get("moves", [])]
            svg = board_svg_text(str(game["position"]), last_move=moves[-1] if moves else None)
            state = state_fields(game_from_position(str(game["position"])).state())
        except (KeyError, ArenaError):
            continue
        out.append({"game_id": game.get("game_id"), "dark": game.get("dark"), "light": game.get("light"),
                    "plies": len(moves), "last_move": moves[-1] if moves else None,
                    "position": game["position"], "svg": svg, "state": state})
    return out


def replay(path: Path, game_id: object) -> dict[str, Any]:
    """Every position of one recorded game, each drawn, with the move that led to it."""
    reader = _reader(path)
    try:
        record = reader.record(game_id)
    except StoreError as exc:
        raise RunError(str(exc)) from None
    if record is None:
        raise RunError(f"no game {str(game_id)[:20]} in this run")
    try:
        game = game_from_position(record["start_position"])
        frames = [{"move": None, "position": game.position(), "by": None, "state": state_fields(game.state()),
                   "svg": board_svg_text(game.position())}]
        plies = [(m, None) for m in record.get("opening", [])] + \
                [(m["move"], m.get("info")) for m in record.get("moves", [])]
        for move, info in plies:
            by = "d" if game.turn == 0 else "l"
            game.play(move)
            position = game.position()
            frames.append({"move": move, "position": position, "by": by, "info": info, "state": state_fields(game.state()),
                           "svg": board_svg_text(position, last_move=move)})
    except ArenaError as exc:
        raise RunError(f"game {game_id} cannot be replayed: {exc}") from None
    return {"t": "replay", "game_id": record["game_id"], "dark": record["dark"]["name"],
            "light": record["light"]["name"], "result": record.get("result"),
            "termination": record.get("termination"), "reason": record.get("reason", ""),
            "opening_plies": len(record.get("opening", [])), "frames": frames}
