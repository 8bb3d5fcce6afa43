"""``report.html``: one self-contained page per run directory, readable with no network.

Standings, the crosstable (head to head), how games ended, and every game replayable
move by move with the board. The boards are protocol/svg.py pictures cut into parts
(protocol/svg_replay.py): each distinct part (a piece, a counter, a hand) is stored
once for the whole run, a ply is a list of part numbers, and the data is gzipped into
the page; the browser joins the parts back into the exact SVG. So every game of a
1,000-game run keeps its boards at a size of a few MB (measured in docs/pictures.md).

The runner keeps the page fresh while a run goes on (``LiveReport``): each finished
game is drawn once, in a background thread, and the page is rewritten at most as
often as keeps the writing under about a tenth of the time. ``isaac-referee report
DIR`` (re)builds it from records.jsonl at any time.
"""

from __future__ import annotations

import html
import os
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from protocol.svg_replay import PartTable, ReplayGame, page_html, record_moves, replay

from .ratings import crosstable
from .record import GameRecord
from .schema import RunConfigModel, SchemaError, SummaryModel, load_json
from .stats import standings, termination_counts
from .store import CONFIG, RECORDS, SUMMARY, StoreError, read_records_file

REPORT = "report.html"
REASON_CHARS = 140
"""Reasons are cut to this in the games table (the full text is the cell's tooltip)."""


def _esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def _elo(x: object) -> str:
    return f"{x:+.1f}" if isinstance(x, (int, float)) else "-"


def _pts(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{x:.1f}"



_UNSCORED_FIELDS = {"game_id": 0, "game_type": "", "rules_version": "", "start_position": "", "opening": [],
                    "time_control": {}, "moves": [], "reason": "", "final_scores": [], "final_position": ""}
"""What statistics do not read: a record lacking these is still scored (the page shows what it can)."""


def _scored(record: dict[str, Any]) -> GameRecord | None:
    """The record as statistics read it, or None if it lacks what scoring needs (names, result, termination)."""
    try:
        return GameRecord.from_json({**_UNSCORED_FIELDS, **record})
    except (KeyError, TypeError, ValueError):
        return None

class ReportBuilder:
    """Records in, page out; each game is drawn once however often the page is written."""

    def __init__(self, title: str = "isaac-referee run", names: Iterable[str] = (),
                 meta: dict[str, Any] | None = None):
        self.title = title
        self.names = list(names)
        self.meta = meta or {}
        self.table = PartTable()
        self.records: list[dict[str, Any]] = []
        self.typed: list[GameRecord] = []          # the same records, read for the statistics
        self.games: dict[str, ReplayGame] = {}

    def add(self, record: dict[str, Any]) -> None:
        """Draw one game (a repeated game_id counts once, as in the store)."""
        gid = str(record["game_id"])
        if gid in self.games:
            return
        dark, light = str(record["dark"]["name"]), str(record["light"]["name"])
        moves, notes, opening = record_moves(record)
        self.games[gid] = replay(self.table, gid, f"Game {_shown(gid)}: {dark} (Dark) vs {light} (Light), "
                                 f"{record.get('result')} {record.get('termination')}",
                                 str(record.get("start_position", "")), moves,
                                 opening_plies=opening, players=(dark, light), notes=notes)
        self.records.append(record)
        typed = _scored(record)
        if typed is not None:
            self.typed.append(typed)
        for name in (dark, light):
            if name not in self.names:
                self.names.append(name)

    def html(self) -> str:
        body = [f"<h1>{_esc(self.title)}</h1>", self._overview(), self._standings(), self._crosstable(),
                self._terminations(), self._engines(), self._games()]
        ordered = [self.games[str(r["game_id"])] for r in self._sorted()]
        return page_html(self.title, "\n".join(body), self.table, ordered, compress=True)

    def write(self, run_dir: Path) -> Path:
        """Write the page atomically (a reader never sees half a file)."""
        path = Path(run_dir) / REPORT
        tmp = path.with_name(REPORT + ".tmp")
        tmp.write_text(self.html(), encoding="utf-8")
        os.replace(tmp, path)
        return path

    # -- sections ------------------------------------------------------------------------------
    def _sorted(self) -> list[dict[str, Any]]:
        return sorted(self.records, key=lambda r: (int(r["game_id"]) if str(r["game_id"]).isdigit() else 0,
                                                   str(r["game_id"])))

    def _overview(self) -> str:
        games = {str(r.get("game_type", "")).upper() for r in self.records} or {"-"}
        parts = [f"game {_esc(', '.join(sorted(games)))}", f"{len(self.records)} games recorded"]
        for key in ("run", "planned", "stopped"):
            if key in self.meta:
                parts.append(f"{key} {_esc(self.meta[key])}")
        return ("<p>" + " &middot; ".join(parts) + ". Click a game's number to replay it "
                "(buttons, or the arrow keys, Home, End and space).</p>")

    def _standings(self) -> str:
        rows = standings(self.typed, self.names)
        out = ['<h2>Standings</h2><table id="standings"><tr><th>#</th><th class="l">engine</th><th>games</th>'
               "<th>points</th><th>score</th><th>W</th><th>D</th><th>L</th><th>as Dark W-D-L</th>"
               "<th>as Light W-D-L</th><th class=\"l\">forfeits lost</th></tr>"]
        for rank, row in enumerate(rows, 1):
            t = row.total
            forfeits = ", ".join(f"{k} {v}" for k, v in sorted(row.forfeits.items())) or "-"
            out.append(f"<tr><td>{rank}</td><td class=\"l\">{_esc(row.name)}</td><td>{t.games}</td>"
                       f"<td>{_pts(t.points)}</td><td>{100 * t.score:.1f}%</td><td>{t.wins}</td>"
                       f"<td>{t.draws}</td><td>{t.losses}</td>"
                       f"<td>{row.as_dark.wins}-{row.as_dark.draws}-{row.as_dark.losses}</td>"
                       f"<td>{row.as_light.wins}-{row.as_light.draws}-{row.as_light.losses}</td>"
                       f"<td class=\"l\">{_esc(forfeits)}</td></tr>")
        out.append("</table>")
        ratings = self.meta.get("ratings")
        if isinstance(ratings, dict) and isinstance(ratings.get("engines"), list):
            out.append('<p class="muted">Ratings (from summary.json): ' + ", ".join(
                f"{_esc(e.get('name'))} {_elo(e.get('elo'))}" for e in ratings["engines"]
                if isinstance(e, dict)) + "</p>")
        return "".join(out)

    def _crosstable(self) -> str:
        names = [row.name for row in standings(self.typed, self.names)]
        table = crosstable(self.records, names)
        out = ['<h2>Crosstable</h2><p class="muted">Points of the row engine against the column engine '
               '(games in brackets).</p><table id="crosstable"><tr><th class="l">engine</th>']
        out += [f"<th>{_esc(n)}</th>" for n in names]
        out.append("</tr>")
        for a in names:
            out.append(f'<tr><td class="l">{_esc(a)}</td>')
            for b in names:
                cell = table.get(a, {}).get(b)
                text = "&mdash;" if a == b or not cell else f"{_pts(cell['points'])} ({int(cell['games'])})"
                out.append(f"<td>{text}</td>")
            out.append("</tr>")
        out.append("</table>")
        return "".join(out)

    def _terminations(self) -> str:
        counts = termination_counts(self.typed)
        out = ['<h2>Terminations</h2><table id="terminations"><tr><th class="l">termination</th>'
               "<th>games</th></tr>"]
        out += [f'<tr><td class="l">{_esc(k)}</td><td>{v}</td></tr>' for k, v in counts.items()]
        out.append("</table>")
        return "".join(out)

    def _engines(self) -> str:
        engines = self.meta.get("engines")
        if not isinstance(engines, list) or not engines:
            return ""
        out = ['<h2>Engines</h2><table id="engines"><tr><th class="l">engine</th><th class="l">command</th>'
               '<th class="l">options</th><th class="l">time control</th></tr>']
        for e in engines:
            if not isinstance(e, dict):
                continue
            cmd = e.get("cmd")
            command = " ".join(map(str, cmd)) if isinstance(cmd, list) else str(cmd or "")
            options = e.get("options") if isinstance(e.get("options"), dict) else {}
            assert isinstance(options, dict)
            opts = " ".join(f"{k}={v}" for k, v in sorted(options.items())) or "-"
            out.append(f'<tr><td class="l">{_esc(e.get("name", "?"))}</td><td class="l">{_esc(command)}</td>'
                       f'<td class="l">{_esc(opts)}</td><td class="l">{_esc(e.get("tc") or "-")}</td></tr>')
        out.append("</table>")
        return "".join(out)

    def _games(self) -> str:
        out = ['<h2>Games</h2><table id="games"><tr><th>game</th><th>round</th><th class="l">Dark</th>'
               '<th class="l">Light</th><th>result</th><th class="l">termination</th><th>plies</th>'
               '<th class="l">reason</th></tr>']
        for r in self._sorted():
            gid = str(r["game_id"])
            replayed = self.games[gid]
            reason = str(r.get("reason", ""))
            short = reason if len(reason) <= REASON_CHARS else reason[:REASON_CHARS - 1] + "\u2026"
            warn = f' <span class="err">(replay stopped: {_esc(replayed.error)})</span>' if replayed.error else ""
            rnd = r.get("round")
            out.append(f'<tr data-game="{_esc(gid)}"><td><a href="#game-{_esc(gid)}" data-game="{_esc(gid)}">'
                       f"{_esc(_shown(gid))}</a></td><td>{'' if rnd is None else _esc(rnd)}</td>"
                       f'<td class="l">{_esc(r["dark"]["name"])}</td><td class="l">{_esc(r["light"]["name"])}</td>'
                       f"<td>{_esc(r.get('result'))}</td><td class=\"l\">{_esc(r.get('termination'))}</td>"
                       f"<td>{len(replayed.moves)}</td>"
                       f'<td class="l" title="{_esc(reason)}">{_esc(short)}{warn}</td></tr>')
        out.append("</table>")
        return "".join(out)


def _shown(gid: str) -> str:
    """A game's number as people see it, from 1 (the console's, the GUI's); game_id counts from 0."""
    return str(int(gid) + 1) if gid.isdigit() else gid


def _checked_json(path: Path, model: type[BaseModel]) -> dict[str, Any]:
    """A run file checked against its schema; {} when absent; StoreError when it is not valid."""
    if not path.exists():
        return {}
    try:
        data, _ = load_json(model, path)
    except SchemaError as exc:
        raise StoreError(str(exc)) from None
    return data


def builder_for(run_dir: Path, with_summary: bool = True) -> ReportBuilder:
    """An empty builder titled and described from the run's config.json and summary.json, if any
    (a running run's summary.json is the previous session's, so the runner leaves it out)."""
    config = _checked_json(Path(run_dir) / CONFIG, RunConfigModel)
    summary = _checked_json(Path(run_dir) / SUMMARY, SummaryModel) if with_summary else {}
    identity = config.get("identity") if isinstance(config.get("identity"), dict) else config
    assert isinstance(identity, dict)
    names = [str(e["name"]) for e in identity.get("engines", []) if isinstance(e, dict) and "name" in e]
    meta: dict[str, Any] = {"engines": [e for e in identity.get("engines", []) if isinstance(e, dict)]}
    if identity.get("command"):
        meta["run"] = identity["command"]
    if "games_planned" in summary:
        meta["planned"] = summary["games_planned"]
    if "stopped" in summary:
        meta["stopped"] = summary["stopped"]
    if isinstance(summary.get("ratings"), dict):
        meta["ratings"] = summary["ratings"]
    return ReportBuilder(f"isaac-referee run {Path(run_dir).resolve().name}", names, meta)


def build_report(run_dir: str | Path) -> Path:
    """(Re)build report.html of a run directory from its records.jsonl; returns its path."""
    run_dir = Path(run_dir)
    records, _ = read_records_file(run_dir / RECORDS)
    builder = builder_for(run_dir)
    for record in records:
        builder.add(record)
    return builder.write(run_dir)


class LiveReport:
    """Keeps report.html of a running run current without slowing the games down.

    Drawing and writing happen in one background thread; the event loop only hands
    over the record. A write is skipped (and done later) while less than ten times
    the previous write's duration has passed, so writing stays under about 10% of
    the time even for long runs; ``close`` always writes the final page. Errors
    never stop a run: they are reported through `on_error` once and the page is left as it was.
    """

    def __init__(self, run_dir: Path, records: Iterable[dict[str, Any]],
                 on_error: Callable[[str], None] = lambda text: None):
        self.run_dir = Path(run_dir)
        self.on_error = on_error
        self._pending = list(records)
        self._builder: ReportBuilder | None = None
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="report")
        self._last_write = 0.0
        self._write_cost = 0.0
        self._failed = False
        self._lock = threading.Lock()
        self._future: Future[None] | None = None

    def game_finished(self, record: dict[str, Any]) -> None:
        with self._lock:
            self._pending.append(record)
        if not self._failed:
            self._future = self._executor.submit(self._work, False)

    def close(self) -> None:
        """Draw what is left and write the final page (blocking; call it off the event loop)."""
        if not self._failed:
            self._executor.submit(self._work, True).result()
        self._executor.shutdown(wait=True)

    def _work(self, final: bool) -> None:
        if self._failed:
            return
        try:
            if self._builder is None:
                self._builder = builder_for(self.run_dir, with_summary=False)
            with self._lock:
                pending, self._pending = self._pending, []
            for record in pending:
                self._builder.add(record)
            now = time.monotonic()
            if final or now - self._last_write >= 10 * self._write_cost:
                self._builder.write(self.run_dir)
                self._last_write = time.monotonic()
                self._write_cost = self._last_write - now
        except Exception as exc:       # the report must never cost a game or a run
            self._failed = True
            self.on_error(f"report.html not updated: {type(exc).__name__}: {exc}")
