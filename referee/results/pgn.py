"""PGN-style export of game records, for humans.

Chess PGN's layout (tag pairs, numbered moves, brace comments, result) with our
games' own notation; the tags say which game and which rules. Each engine move
carries a comment with the time it took and, when the engine said, its score
(in game points, from the mover's view) and depth. Opening moves are marked.
The JSONL records stay the source of truth; this is a reading copy, written a game at a time
in the order the games finished (``PgnLog``), or from records.jsonl read as a stream
(``write_pgn``): a run of any length is exported in constant memory.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO

import protocol

from .store import RecordReader

LINE_WIDTH = 79


def _tag_value(value: object) -> str:
    text = " ".join(str(value).split())
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _comment(text: str) -> str:
    return "{" + " ".join(text.replace("}", ")").replace("{", "(").split()) + "}"


def _date(record: dict[str, Any]) -> str:
    started = record.get("started_at") or ""
    if len(started) >= 10 and started[4] == "-":
        return started[:10].replace("-", ".")
    return "????.??.??"


def _first_mover(start_position: str | None) -> str:
    """'d' or 'l': who moves first in the start position (field 4 of a position string)."""
    fields = (start_position or "").split()
    return fields[3] if len(fields) > 3 and fields[3] in ("d", "l") else "d"


def _move_comment(move: dict[str, Any]) -> str:
    parts = []
    info = move.get("info") or {}
    if info.get("score_cp") is not None:
        parts.append(f"{info['score_cp'] / 100:+.2f}" + (f"/{info['depth']}" if info.get("depth") else ""))
    elif info.get("depth"):
        parts.append(f"d{info['depth']}")
    parts.append(f"{move.get('ms', 0) / 1000:.3f}s")
    return _comment(" ".join(parts))


def tags(record: dict[str, Any], event: str = "isaac-referee") -> list[tuple[str, str]]:
    """The tag pairs of one game, the seven-tag roster first as PGN readers expect."""
    tc = record.get("time_control") or {}
    tc_text = tc.get("dark") if tc.get("dark") == tc.get("light") else f"{tc.get('dark')} / {tc.get('light')}"
    round_ = record.get("round")
    pair = record.get("pair")
    scores = record.get("final_scores") or []
    rows = [
        ("Event", event), ("Site", "isaac-arena"), ("Date", _date(record)),
        ("Round", f"{round_ if round_ is not None else '?'}.{pair + 1 if pair is not None else '?'}"),
        ("Dark", record["dark"]["name"]), ("Light", record["light"]["name"]), ("Result", record["result"]),
        ("Game", record["game_type"]), ("RulesVersion", record.get("rules_version", "?")),
        ("GameId", record["game_id"]), ("TimeControl", tc_text),
        ("FEN", record.get("start_position") or "startpos"),
    ]
    if record.get("opening"):
        rows.append(("Opening", " ".join(record["opening"])))
    rows += [("Termination", record["termination"]), ("Reason", record.get("reason", "")),
             ("FinalScores", "-".join(map(str, scores)) if scores else "-"),
             ("FinalPosition", record.get("final_position", "")),
             ("PlyCount", len(record.get("opening") or []) + len(record.get("moves") or []))]
    return [(name, _tag_value(value)) for name, value in rows]


def _movers(record: dict[str, Any], plies: list[str]) -> list[str]:
    """'d' or 'l' for each ply: who made it, found by replaying the game with protocol/.

    Plies do not simply alternate: after a pass the other side moves on alone, and
    ISAAC's scoring phase starts with the first passer. A record that does not
    replay (foreign or damaged) falls back to alternation from the start position.
    """
    try:
        start = record.get("start_position")
        game = protocol.game_from_position(start) if start else protocol.new_game(record["game_type"])
        movers = []
        for move in plies:
            movers.append("d" if game.turn == 0 else "l")
            game.play(move)
        return movers
    except Exception:
        side = _first_mover(record.get("start_position"))
        return [side if k % 2 == 0 else ("l" if side == "d" else "d") for k in range(len(plies))]


def movetext(record: dict[str, Any]) -> str:
    """Numbered moves (opening first, marked 'book'), comments, and the result, wrapped.

    As in chess PGN, 'N.' precedes a Dark move and 'N...' a Light move that does not
    follow a Dark move; the number goes up before every Dark move and after a Light move."""
    tokens = []
    plies = [(m, None) for m in record.get("opening") or []]
    plies += [(m["move"], m) for m in record.get("moves") or []]
    movers = _movers(record, [move for move, _ in plies])
    number = 1
    previous = None
    for (move, data), side in zip(plies, movers):
        if previous is not None and (side == "d" or previous == "l"):
            number += 1
        if side == "d":
            tokens.append(f"{number}. {move}")
        elif previous != "d":
            tokens.append(f"{number}... {move}")
        else:
            tokens.append(move)
        tokens.append(_comment("book") if data is None else _move_comment(data))
        previous = side
    tokens.append(record["result"])
    return _wrap(tokens)


def _wrap(tokens: list[str]) -> str:
    lines, line = [], ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > LINE_WIDTH:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    if line:
        lines.append(line)
    return "\n".join(lines)


def game_to_pgn(record: dict[str, Any], event: str = "isaac-referee") -> str:
    head = "\n".join(f'[{name} "{value}"]' for name, value in tags(record, event))
    return f"{head}\n\n{movetext(record)}\n"


def records_to_pgn(records: list[dict[str, Any]], event: str = "isaac-referee") -> str:
    """All games, ordered by game id, separated by blank lines."""
    ordered = sorted(records, key=lambda r: r["game_id"])
    return "\n".join(game_to_pgn(r, event) for r in ordered)


def write_pgn(records: Iterable[dict[str, Any]], out: TextIO, event: str = "isaac-referee") -> int:
    """Each game as PGN followed by a blank line, in the order given; returns how many."""
    count = 0
    for record in records:
        out.write(game_to_pgn(record, event) + "\n")
        count += 1
    return count


def export_file(records_path: str, event: str = "isaac-referee") -> str:
    """PGN text of a records.jsonl, in file order (torn last line ignored; any other bad line, a
    repeated game_id included, raises StoreError). Holds the text: for large files use export_to."""
    records = list(RecordReader(records_path))
    return records_to_pgn(records, event)


def export_to(records_path: str | Path, out: TextIO, event: str = "isaac-referee") -> int:
    """The games of a records.jsonl written to `out` as they are read (constant memory), in file
    order; StoreError at the first bad line (what was written before it stays)."""
    return write_pgn(RecordReader(records_path), out, event)


class PgnLog:
    """games.pgn of a running run: each finished game appended (from the thread that appends its
    record, after the record is durable). Not fsync'ed: records.jsonl is the data, this a copy."""

    def __init__(self, path: Path, event: str, size: int | None = None):
        """Open `path` for appending, cut to `size` bytes first if given (a checkpoint's end)."""
        self.path = path
        self.event = event
        self._lock = threading.Lock()
        if size is not None and path.exists() and path.stat().st_size > size:
            os.truncate(path, size)
        self._file: TextIO | None = open(path, "a", encoding="utf-8")
        self.bytes = path.stat().st_size

    def append(self, record: dict[str, Any]) -> None:
        text = game_to_pgn(record, self.event) + "\n"
        with self._lock:
            if self._file is None:
                return
            self._file.write(text)
            self._file.flush()
            self.bytes += len(text.encode("utf-8"))

    def close(self) -> None:
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None

