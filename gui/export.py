"""A game of the page written out as the referee writes games: a record line (SPEC 10.4) and PGN.

A finished game becomes one `records.jsonl` line that the referee's own tools read
(`isaac-referee export-pgn`, `report`, the Runs tab), checked against the referee's schema before
it is offered; an unfinished one has no record (a record holds a result), only PGN with the
result `*`. The PGN is the referee's (referee/results/pgn.py), so both tools write games alike.
"""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass, field
from typing import Any

import protocol
from referee.engines.process import EngineSpec
from referee.results.pgn import game_to_pgn
from referee.results.store import check_record_line

from .config import HUMAN

EVENT = "isaac-gui"
UNFINISHED = "*"


@dataclass
class GameLine:
    """A game as the page holds it: start, moves (with the time and last `info` of each), players."""

    start: dict[str, Any]
    """The rules engine's state of the start position."""
    states: list[dict[str, Any]]
    """The state after each move (states[-1] is the position now)."""
    moves: list[str]
    sides: tuple[str, str]
    """Dark's and Light's player: an engine name, or HUMAN."""
    tc: str | None = None
    ms: list[int | None] = field(default_factory=list)
    infos: list[dict[str, Any] | None] = field(default_factory=list)
    result: dict[str, Any] | None = None
    """{result, termination, reason} once the game is over (a forfeit or the rules)."""
    started_at: str = ""


def _side(name: str, specs: dict[str, EngineSpec]) -> dict[str, Any]:
    spec = specs.get(name)
    if spec is not None and name != HUMAN:
        return spec.to_json()
    return {"name": name, "cmd": None, "cwd": None, "options": {}, "tc": None, "memory_mb": None,
            "cpu_seconds": None}


def record_of(line: GameLine, specs: dict[str, EngineSpec]) -> dict[str, Any]:
    """The game as a record (SPEC 10.4); its `result` is `*` while the game goes on."""
    final = line.states[-1] if line.states else line.start
    result = line.result or {}
    termination = result.get("termination")
    if termination in ("both-passed", "score-limit"):
        termination = "normal"    # how the rules ended it is the reason's business; the record says normal
    forfeit = termination not in (None, "normal")
    moves = []
    for k, move in enumerate(line.moves):
        ms = line.ms[k] if k < len(line.ms) and line.ms[k] is not None else 0
        entry: dict[str, Any] = {"move": move, "ms": int(ms or 0)}
        info = line.infos[k] if k < len(line.infos) else None
        if info:
            entry["info"] = info
        moves.append(entry)
    scores = final.get("scores")
    return {"game_id": 0, "game_type": line.start["game"], "rules_version": protocol.RULES_VERSION,
            "start_position": line.start["position"], "opening": [],
            "dark": _side(line.sides[0], specs), "light": _side(line.sides[1], specs),
            "time_control": {"dark": line.tc, "light": line.tc}, "moves": moves,
            "result": result.get("result") or UNFINISHED, "termination": termination or "unterminated",
            "reason": result.get("reason") or "", "final_scores": [] if forfeit or not isinstance(scores, list)
            else [int(s) for s in scores], "final_position": final["position"],
            "started_at": line.started_at}


def export(line: GameLine, specs: dict[str, EngineSpec]) -> dict[str, Any]:
    """{record: the record line or None (unfinished), why: why there is none, pgn: the PGN text}."""
    record = record_of(line, specs)
    text = json.dumps(record, separators=(",", ":"))
    why = ""
    if record["result"] == UNFINISHED:
        text, why = "", "the game is not finished: a record holds a finished game (the PGN says *)"
    else:
        checked = check_record_line(text.encode(), "the exported record")
        if isinstance(checked, str):
            text, why = "", checked
    return {"record": text or None, "why": why, "pgn": game_to_pgn(record, EVENT)}


def now_text() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
