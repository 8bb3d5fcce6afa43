"""Run directories of the referee, read for replay and for following a match live.

Only directories given on the server's command line (`--runs`) and their immediate
subdirectories are offered; the browser picks a run by the name listed here, never by path.
A record's positions are rebuilt with protocol/ from its start position and moves (the record
format is SPEC 10.4); a live run is re-read whenever its records file grows.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.answers import state_fields
from protocol import game_from_position
from protocol.errors import ArenaError
from referee.live import LIVE
from referee.record import GameRecord
from referee.stats import standings
from referee.store import CONFIG, RECORDS, SUMMARY, StoreError, read_records_file

from .board import board_svg_text


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


def _records(path: Path) -> list[dict[str, Any]]:
    try:
        records, _ = read_records_file(path / RECORDS)
    except StoreError as exc:
        raise RunError(str(exc)) from None
    return records


def run_summary(name: str, path: Path) -> dict[str, Any]:
    """Standings, games and the latest board of a run, for the browser."""
    records = _records(path)
    config: dict[str, Any] = {}
    if (path / CONFIG).exists():
        try:
            config = json.loads((path / CONFIG).read_text(encoding="utf-8"))
        except ValueError:
            config = {}
    identity: dict[str, Any] = config["identity"] if isinstance(config.get("identity"), dict) else {}
    names = [e["name"] for e in identity.get("engines", []) if isinstance(e, dict) and isinstance(e.get("name"), str)]
    for record in records:
        for side in ("dark", "light"):
            if record[side]["name"] not in names:
                names.append(record[side]["name"])
    try:
        typed = [GameRecord.from_json(r) for r in records]
    except (KeyError, TypeError, ValueError) as exc:
        raise RunError(f"{path / RECORDS}: a record cannot be read ({exc})") from None
    table = [row.to_json() for row in standings(typed, names)] if records else []
    games = [{"game_id": r["game_id"], "dark": r["dark"]["name"], "light": r["light"]["name"],
              "result": r.get("result"), "termination": r.get("termination"), "reason": r.get("reason", ""),
              "plies": len(r.get("opening", [])) + len(r.get("moves", []))} for r in records]
    latest = None
    if records and records[-1].get("final_position"):
        try:
            latest = {"game_id": records[-1]["game_id"], "svg": board_svg_text(records[-1]["final_position"])}
        except ArenaError:
            latest = None
    return {"t": "run", "name": name, "live": live_games(path), "game_type": identity.get("game") or (records[0]["game_type"] if records else None),
            "mode": identity.get("command"), "finished": (path / SUMMARY).exists(),
            "standings": table, "games": games, "latest": latest}


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
            state = state_fields(game_from_position(str(game["position"])))
        except (KeyError, ArenaError):
            continue
        out.append({"game_id": game.get("game_id"), "dark": game.get("dark"), "light": game.get("light"),
                    "plies": len(moves), "last_move": moves[-1] if moves else None,
                    "position": game["position"], "svg": svg, "state": state})
    return out


def replay(path: Path, game_id: object) -> dict[str, Any]:
    """Every position of one recorded game, each drawn, with the move that led to it."""
    records = _records(path)
    record = next((r for r in records if r["game_id"] == game_id), None)
    if record is None:
        raise RunError(f"no game {str(game_id)[:20]} in this run")
    try:
        game = game_from_position(record["start_position"])
        frames = [{"move": None, "position": game.position(), "by": None, "state": state_fields(game),
                   "svg": board_svg_text(game.position())}]
        plies = [(m, None) for m in record.get("opening", [])] + \
                [(m["move"], m.get("info")) for m in record.get("moves", [])]
        for move, info in plies:
            by = "d" if game.turn == 0 else "l"
            game.play(move)
            position = game.position()
            frames.append({"move": move, "position": position, "by": by, "info": info, "state": state_fields(game),
                           "svg": board_svg_text(position, last_move=move)})
    except ArenaError as exc:
        raise RunError(f"game {game_id} cannot be replayed: {exc}") from None
    return {"t": "replay", "game_id": record["game_id"], "dark": record["dark"]["name"],
            "light": record["light"]["name"], "result": record.get("result"),
            "termination": record.get("termination"), "reason": record.get("reason", ""),
            "opening_plies": len(record.get("opening", [])), "frames": frames}
