"""The season's final: a round-robin among the ladder's top N, played by `isaac-referee tournament`
itself, whose result is the published ranking (as CodinGame ends a contest).

The top N are the playing versions with the best conservative ladder rating. The referee plays
one tournament per game of the arena into finals/final-<id>/<game>/ (a normal run directory:
records.jsonl, games.pgn, summary.json, report.html; `--resume` works on it), every bot under
the arena's sandbox and limits, from the game's balanced book. The ranking is the referee's
maximum-likelihood fit (Bradley-Terry with the first-move advantage, hosting.md) over all the
final's games: Elo with its 95% interval, average 0; points break ties between unrated bots.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import insert, update
from sqlalchemy.engine import Engine

from referee.results.ratings import fit_ratings
from referee.results.store import read_records_file

from ..config import Arena
from ..db import bots as bots_db
from ..db import pages
from ..db.schema import ACTIVE, finals
from ..ladder.players import bot_dir


class FinalError(Exception):
    """The final cannot run (too few bots, the referee failed); the message says why."""


def _toml_string(text: str) -> str:
    return json.dumps(text)   # a JSON string is a valid TOML basic string


def engines_file(arena: Arena, rows: list[bots_db.VersionRow]) -> str:
    """The finalists as an engines file for the referee."""
    lines = []
    for row in rows:
        lines.append(f"[engines.{_toml_string(row.engine_name)}]")
        lines.append("cmd = [" + ", ".join(_toml_string(w) for w in row.command) + "]")
        lines.append(f"dir = {_toml_string(str(bot_dir(arena, row)))}")
        lines.append(f"memory_mb = {arena.config.limits.memory_mb}")
        if arena.config.sandbox != "none":
            lines.append(f"sandbox = {_toml_string(arena.config.sandbox)}")
            if arena.config.readable:
                lines.append("readable = [" + ", ".join(_toml_string(p) for p in arena.config.readable) + "]")
        lines.append("")
    return "\n".join(lines)


def finalists(engine: Engine, top: int) -> list[bots_db.VersionRow]:
    board = pages.leaderboard(engine)[:top]
    rows = []
    for entry in board:
        row = bots_db.version(engine, int(entry["version_id"]))
        if row is not None and row.status == ACTIVE:
            rows.append(row)
    return rows


def ranking(records: list[dict[str, Any]], rows: list[bots_db.VersionRow], authors: dict[str, str]) -> list[dict[str, Any]]:
    names = [row.engine_name for row in rows]
    fitted = fit_ratings(records, names)
    by_name = {row.engine_name: row for row in rows}
    out = []
    for rank, entry in enumerate(fitted["engines"], 1):
        row = by_name[entry["name"]]
        out.append({"rank": rank, "bot": row.bot, "version": row.number, "author": authors.get(row.bot),
                    "elo": entry["elo"], "low": entry["low"], "high": entry["high"], "points": entry["points"],
                    "games": entry["games"]})
    return out


def run_final(arena: Arena, engine: Engine, top: int, games: int, *, concurrency: int | None = None,
              cluster: str | None = None, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Play the final and publish its ranking; FinalError if it cannot be played."""
    rows = finalists(engine, top)
    if len(rows) < 2:
        raise FinalError(f"a final needs at least 2 playing bots; the ladder has {len(rows)}")
    with engine.begin() as db:
        final_id = int(db.execute(insert(finals).values(created_at=time.time(), top=top, games=games, status="running",
                                                        run_dir="", ranking="[]", message=""))
                       .inserted_primary_key[0])  # type: ignore[index]
    run_dir = arena.finals / f"final-{final_id}"
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "engines.toml").write_text(engines_file(arena, rows), encoding="utf-8")
    with engine.begin() as db:
        db.execute(update(finals).where(finals.c.id == final_id).values(run_dir=str(run_dir)))
    log(f"final {final_id}: {len(rows)} bots ({', '.join(r.engine_name for r in rows)}), {games} games per "
        f"encounter, in {run_dir}")
    records: list[dict[str, Any]] = []
    try:
        for game in arena.config.games:
            out = run_dir / game
            argv = [sys.executable, "-m", "referee", "tournament", "--game", game, "--engines-file",
                    str(run_dir / "engines.toml"), "--games", str(games), "--tc", arena.config.tc,
                    "--out", str(out), "--seed", str(arena.config.ladder.seed), "--max-plies",
                    str(arena.config.limits.max_plies),
                    "--concurrency", str(concurrency or arena.config.ladder.concurrency)]
            if arena.config.openings:
                argv += ["--openings", arena.config.openings if arena.config.openings.startswith("random:")
                         or arena.config.openings in ("book", "startpos") else str(arena.dir / arena.config.openings)]
            if cluster:
                argv += ["--cluster", cluster]
            done = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True)
            (out.parent / f"{game}.log").write_text(done.stdout, encoding="utf-8")
            if done.returncode != 0:
                tail = done.stdout.strip().splitlines()[-3:]
                raise FinalError(f"the referee's tournament ({game}) ended with exit status {done.returncode}: "
                                 + " | ".join(tail))
            found, _ = read_records_file(out / "records.jsonl")
            records += found
            log(f"final {final_id}: {game}: {len(found)} games played")
        authors = {entry["bot"]: entry["author"] for entry in pages.leaderboard(engine)}
        result = ranking(records, rows, authors)
    except BaseException as exc:
        with engine.begin() as db:
            db.execute(update(finals).where(finals.c.id == final_id).values(
                status="failed", finished_at=time.time(), message=str(exc)[:2000]))
        raise
    with engine.begin() as db:
        db.execute(update(finals).where(finals.c.id == final_id).values(
            status="done", finished_at=time.time(), ranking=json.dumps(result),
            message=f"{len(records)} games; run directories in {run_dir.name}/"))
    return {"id": final_id, "ranking": result, "games": len(records), "run_dir": str(run_dir)}


class FinalRunner:
    """A final started from the web API while the server runs: the ladder pauses while it plays."""

    def __init__(self, arena: Arena, engine: Engine, ladder: Any, log: Callable[[str], None]):
        self.arena = arena
        self.engine = engine
        self.ladder = ladder
        self.log = log
        self.thread: threading.Thread | None = None

    def start(self, top: int, games: int) -> bool:
        if self.thread is not None and self.thread.is_alive():
            return False
        self.thread = threading.Thread(target=self._run, args=(top, games), daemon=True, name="arena-final")
        self.thread.start()
        return True

    def _run(self, top: int, games: int) -> None:
        if self.ladder is not None:
            self.ladder.paused = True
        try:
            run_final(self.arena, self.engine, top, games, log=self.log)
        except FinalError as exc:
            self.log(f"final failed: {exc}")
        finally:
            if self.ladder is not None:
                self.ladder.paused = False


def final_dirs(arena: Arena) -> list[Path]:
    return sorted(arena.finals.glob("final-*")) if arena.finals.is_dir() else []
