"""``report.html``: one self-contained page per run directory, readable with no network, at most 2 MB.

The whole run in numbers: standings, ratings with their intervals drawn, the crosstable,
encounters (game pairs), terminations, repeated games, all from the run's counts (referee/results/tally.py),
so their size depends on the number of engines, never of games. The game viewer embeds a bounded
set: the latest SHOWN_LATEST games and the latest SHOWN_FORFEITS forfeits, each replayable move by
move with the board; the page says how to open any other game (``isaac-svg --records``, the GUI).
The boards are protocol/svg.py pictures cut into parts (protocol/svg_replay.py): each distinct
part is stored once, a ply is a list of part numbers, and the data is gzipped into the page.
If the page would still exceed MAX_REPORT_BYTES (very long games), it embeds fewer games.

The runner keeps the page fresh while a run goes on (``LiveReport``): games are drawn only when
they are on the page, in a background thread, and the page is rewritten at most as often as keeps
that work under about a tenth of the time. ``isaac-referee report DIR`` (re)builds it from
records.jsonl, read as a stream.
"""

from __future__ import annotations

import html
import os
import time
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from protocol.svg_replay import PartTable, ReplayGame, page_html, record_moves, replay

from ..formats.schema import RunConfigModel, SchemaError, SummaryModel, load_json
from .ratings import RatingsUnavailable, crosstable_of, encounters_of, fit_ratings_of
from .store import CONFIG, RECORDS, SUMMARY, RecordReader, StoreError
from .tally import FORFEITS, EngineTotals, RunTally, Tally
from .text import elo_text, first_move_words, pair_elo_words, points_text, rating_cells

REPORT = "report.html"
MAX_REPORT_BYTES = 2_000_000
SHOWN_LATEST = 100
"""The latest games the viewer embeds."""
SHOWN_FORFEITS = 100
"""...and the latest forfeits (of any age: they are what a host looks at)."""
REASON_CHARS = 140
"""Reasons are cut to this in the games table (the full text is the cell's tooltip)."""
MIN_INTERVAL_S = 1.0
"""The live page is rewritten at most this often (and at most 10% of the time)."""


def _esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def _gid_key(record: dict[str, Any]) -> tuple[int, str]:
    gid = record.get("game_id")
    return (gid if isinstance(gid, int) else 0, str(gid))


class ShownGames:
    """The games the viewer embeds: the latest, and the latest forfeits; bounded, whatever the run."""

    def __init__(self, latest: int | None = None, forfeits: int | None = None):
        self.latest: deque[tuple[dict[str, Any], int | None]] = deque(maxlen=SHOWN_LATEST if latest is None else latest)
        self.forfeits: deque[tuple[dict[str, Any], int | None]] = deque(
            maxlen=SHOWN_FORFEITS if forfeits is None else forfeits)

    def add(self, record: dict[str, Any], offset: int | None = None) -> None:
        """One finished game (`offset`: where its line starts in records.jsonl, for the checkpoint)."""
        self.latest.append((record, offset))
        if record.get("termination") in FORFEITS:
            self.forfeits.append((record, offset))

    def records(self) -> list[dict[str, Any]]:
        """The games to embed, by game id, each once."""
        unique = {str(r["game_id"]): r for r, _ in (*self.forfeits, *self.latest)}
        return sorted(unique.values(), key=_gid_key)

    def offsets(self) -> list[int]:
        return sorted({o for _, o in (*self.forfeits, *self.latest) if o is not None})

    def copy(self) -> ShownGames:
        out = ShownGames(self.latest.maxlen or 0, self.forfeits.maxlen or 0)
        out.latest.extend(self.latest)
        out.forfeits.extend(self.forfeits)
        return out


@dataclass
class RunView:
    """What the page shows of a run's counts: a copy (the page is drawn in a thread while the
    run's own tally goes on counting)."""

    names: list[str]
    standings: list[EngineTotals]
    terminations: dict[str, int]
    cells: dict[tuple[str, str], list[int]]
    encounters: list[dict[str, Any]]
    repeats: dict[str, Any]
    recorded: int
    game_types: list[str]

    @classmethod
    def of(cls, tally: RunTally) -> RunView:
        standings = [EngineTotals.from_state(e.name, e.state()) for e in tally.standings()]
        return cls(list(tally.names), standings, tally.termination_counts(),
                   {k: list(v) for k, v in tally.cells.items()}, encounters_of(tally, tally.names),
                   tally.repeats.to_json(), tally.recorded, sorted(t for t in tally.game_types if t))


class Drawings:
    """The boards of the embedded games: each game drawn once, while it stays on the page.

    Games are drawn into one working part table (the same pieces recur in every game); each page
    gets a table of exactly the parts its games use. The working table is rebuilt from the games
    still kept when it has grown to twice what they use, so it does not grow with the run."""

    def __init__(self) -> None:
        self.scratch = PartTable()
        self.games: dict[str, ReplayGame] = {}

    def draw(self, records: list[dict[str, Any]]) -> tuple[PartTable, list[ReplayGame]]:
        """(a table of the parts these games use, in order of first use; the games, in that table)."""
        wanted = {str(r["game_id"]) for r in records}
        for gid in [g for g in self.games if g not in wanted]:
            del self.games[gid]
        for record in records:
            gid = str(record["game_id"])
            if gid not in self.games:
                self.games[gid] = self._draw(record)
        self._trim()
        table = PartTable()
        parts = self.scratch.parts
        out = []
        for record in records:
            game = self.games[str(record["game_id"])]
            plies = [table.ids([parts[i] for i in ply]) for ply in game.plies]
            out.append(ReplayGame(game.id, game.title, game.moves, plies, game.opening_plies, game.error, game.notes))
        return table, out

    def _draw(self, record: dict[str, Any]) -> ReplayGame:
        gid = str(record["game_id"])
        dark, light = str(record["dark"]["name"]), str(record["light"]["name"])
        moves, notes, opening = record_moves(record)
        return replay(self.scratch, gid, f"Game {_shown(gid)}: {dark} (Dark) vs {light} (Light), "
                      f"{record.get('result')} {record.get('termination')}", str(record.get("start_position", "")),
                      moves, opening_plies=opening, players=(dark, light), notes=notes)

    def _trim(self) -> None:
        used = {i for game in self.games.values() for ply in game.plies for i in ply}
        if len(self.scratch.parts) <= 2 * max(len(used), 1000):
            return
        fresh, parts = PartTable(), self.scratch.parts
        for game in self.games.values():
            game.plies = [fresh.ids([parts[i] for i in ply]) for ply in game.plies]
        self.scratch = fresh


class ReportBuilder:
    """Records in, page out: counts every record, keeps and draws the ones the viewer embeds."""

    def __init__(self, title: str = "isaac-referee run", names: Iterable[str] = (),
                 meta: dict[str, Any] | None = None):
        self.title = title
        self.meta = meta or {}
        self.tally = RunTally(names)
        self.shown = ShownGames()
        self.drawings = Drawings()

    def add(self, record: dict[str, Any], offset: int | None = None) -> None:
        """Count one game and keep it if the viewer embeds it (a repeated game_id counts once, as in
        the store)."""
        if record.get("game_id") in self.tally.done:
            return
        self.tally.add(record)
        self.shown.add(record, offset)

    def html(self) -> str:
        return render_page(self.title, self.meta, RunView.of(self.tally), self.shown.records(), self.drawings)

    def write(self, run_dir: Path) -> Path:
        return write_page(Path(run_dir), self.html())


def write_page(run_dir: Path, text: str) -> Path:
    """Write the page atomically (a reader never sees half a file)."""
    path = run_dir / REPORT
    tmp = path.with_name(REPORT + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
    return path


def render_page(title: str, meta: dict[str, Any], view: RunView, records: list[dict[str, Any]],
                drawings: Drawings, limit: int = MAX_REPORT_BYTES) -> str:
    """The page with as many of `records` (the most recent kept) as fit in `limit` bytes."""
    sections = _Sections(title, meta, view)
    head = sections.head()
    shown = list(records)
    while True:
        table, games = drawings.draw(shown)
        body = head + sections.games(shown, games, len(records))
        text = page_html(title, body, table, games, compress=True)
        if len(text.encode("utf-8")) <= limit or not shown:
            return text
        shown = shown[len(shown) // 2 + 1:] if len(shown) > 1 else []


class _Sections:
    """The HTML of each section, from a RunView."""

    def __init__(self, title: str, meta: dict[str, Any], view: RunView):
        self.title, self.meta, self.view = title, meta, view

    def head(self) -> str:
        return "\n".join([f"<h1>{_esc(self.title)}</h1>", self._overview(), self._standings(), self._ratings(),
                          self._crosstable(), self._encounters(), self._terminations(), self._engines()])

    def _overview(self) -> str:
        view = self.view
        parts = [f"game {_esc(', '.join(g.upper() for g in view.game_types) or '-')}",
                 f"{view.recorded} games recorded"]
        for key in ("run", "planned", "stopped"):
            if key in self.meta:
                parts.append(f"{key} {_esc(self.meta[key])}")
        repeats = view.repeats
        if repeats.get("games_checked"):
            warn = ' class="err"' if repeats.get("warning") else ""
            parts.append(f"<span{warn} id=\"repeats\">{repeats['repeated']} of {repeats['games_checked']} games "
                         f"repeat an earlier one ({100 * repeats['share']:.1f}%)</span>")
        return "<p>" + " &middot; ".join(parts) + ".</p>"

    def _standings(self) -> str:
        rows = []
        for rank, row in enumerate(self.view.standings, 1):
            t = row.total
            forfeits = ", ".join(f"{k} {v}" for k, v in sorted(row.forfeits.items())) or "-"
            rows.append([str(rank), _esc(row.name), str(t.games), points_text(t.points), f"{100 * t.score:.1f}%",
                         str(t.wins), str(t.draws), str(t.losses), _wdl(row.as_dark), _wdl(row.as_light),
                         _esc(forfeits)])
        columns = [("#", False), ("engine", True), ("games", False), ("points", False), ("score", False),
                   ("W", False), ("D", False), ("L", False), ("as Dark W-D-L", False), ("as Light W-D-L", False),
                   ("forfeits lost", True)]
        return "<h2>Standings</h2>" + _table("standings", columns, rows)

    def _ratings(self) -> str:
        anchor = self.meta.get("anchor")
        try:
            ratings = fit_ratings_of(self.view.cells, self.view.names, anchor if isinstance(anchor, str) else None)
        except (RatingsUnavailable, ValueError) as exc:
            return f'<h2>Ratings</h2><p class="muted">{_esc(exc)}</p>'
        engines = ratings["engines"]
        w = ratings["first_move_advantage"]
        rows = [[str(rank), _esc(e["name"]), *rating_cells(e), str(e["games"]), points_text(e["points"])]
                for rank, e in enumerate(engines, 1)]
        columns = [("#", False), ("engine", True), ("Elo", False), ("95% interval", False), ("games", False),
                   ("points", False)]
        return (f'<h2>Ratings</h2><p class="muted">{_esc(ratings["method"])}; anchor: {_esc(ratings["anchor"])}; '
                f'first-move advantage {_esc(first_move_words(w))}. '
                "Bars: 95% intervals.</p>" + _ratings_plot(engines) + _table("ratings", columns, rows))

    def _crosstable(self) -> str:
        names = [row.name for row in self.view.standings]
        table = crosstable_of(self.view.cells, names)
        rows = []
        for a in names:
            row = [_esc(a)]
            for b in names:
                cell = table.get(a, {}).get(b)
                row.append("&mdash;" if a == b or not cell else f"{points_text(cell['points'])} ({int(cell['games'])})")
            rows.append(row)
        columns = [("engine", True)] + [(_esc(n), False) for n in names]
        return ('<h2>Crosstable</h2><p class="muted">Points of the row engine against the column engine '
                "(games in brackets).</p>" + _table("crosstable", columns, rows))

    def _encounters(self) -> str:
        rows = [[_esc(e["first"]), _esc(e["second"]), f"{e['wins']}-{e['draws']}-{e['losses']}",
                 " / ".join(str(c) for c in e["pentanomial"]), _esc(pair_elo_words(e))]
                for e in self.view.encounters if e["pairs"]]
        if not rows:
            return ""
        columns = [("first", True), ("second", True), ("W-D-L", False), ("pairs 0 / ½ / 1 / 1½ / 2", False),
                   ("pair Elo", False)]
        return ('<h2>Game pairs</h2><p class="muted">Complete pairs (one opening, colours swapped) in which the '
                "first engine scored 0, 1/2, 1, 3/2, 2 points, and the Elo they give.</p>"
                + _table("encounters", columns, rows))

    def _terminations(self) -> str:
        rows = [[_esc(k), str(v)] for k, v in self.view.terminations.items()]
        return "<h2>Terminations</h2>" + _table("terminations", [("termination", True), ("games", False)], rows)

    def _engines(self) -> str:
        engines = self.meta.get("engines")
        if not isinstance(engines, list) or not engines:
            return ""
        rows = []
        for e in engines:
            if not isinstance(e, dict):
                continue
            cmd = e.get("cmd")
            command = " ".join(map(str, cmd)) if isinstance(cmd, list) else str(cmd or "")
            options = e.get("options") if isinstance(e.get("options"), dict) else {}
            assert isinstance(options, dict)
            opts = " ".join(f"{k}={v}" for k, v in sorted(options.items())) or "-"
            rows.append([_esc(e.get("name", "?")), _esc(command), _esc(opts), _esc(e.get("tc") or "-")])
        columns = [("engine", True), ("command", True), ("options", True), ("time control", True)]
        return "<h2>Engines</h2>" + _table("engines", columns, rows)

    def games(self, records: list[dict[str, Any]], drawn: list[ReplayGame], offered: int) -> str:
        view = self.view
        left_out = offered - len(records)
        note = (f"The viewer holds {len(records)} of the {view.recorded} games: the latest {SHOWN_LATEST} and the "
                f"latest {SHOWN_FORFEITS} forfeits"
                + (f" ({left_out} more left out to keep this page under {MAX_REPORT_BYTES // 1_000_000} MB)"
                   if left_out > 0 else "")
                + ". Click a game's number to replay it (buttons, or the arrow keys, Home, End and space). "
                  "Any other game: <code>isaac-svg --records DIR --game-id N -o game.html</code>, or "
                  "<code>isaac-gui --runs DIR</code> (Runs tab).")
        out = [f'<h2>Games</h2><p class="muted" id="games-note">{note}</p><table id="games"><tr><th>game</th>'
               '<th>round</th><th class="l">Dark</th><th class="l">Light</th><th>result</th>'
               '<th class="l">termination</th><th>plies</th><th class="l">reason</th></tr>']
        for r, replayed in zip(records, drawn):
            gid = str(r["game_id"])
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


def _table(table_id: str, columns: list[tuple[str, bool]], rows: list[list[str]]) -> str:
    """An HTML table: a header row of `columns` ((title, left-aligned?)), then `rows` of cells already
    escaped, each aligned as its column."""
    def cell(tag: str, text: str, left: bool) -> str:
        return f'<{tag} class="l">{text}</{tag}>' if left else f"<{tag}>{text}</{tag}>"

    head = "".join(cell("th", title, left) for title, left in columns)
    body = "".join("<tr>" + "".join(cell("td", text, left) for text, (_, left) in zip(row, columns)) + "</tr>"
                   for row in rows)
    return f'<table id="{table_id}"><tr>{head}</tr>{body}</table>'


def _wdl(t: Tally) -> str:
    return f"{t.wins}-{t.draws}-{t.losses}"


def _ratings_plot(engines: list[dict[str, Any]]) -> str:
    """Each engine's rating as a dot on its 95% interval, on one Elo axis (inline SVG)."""
    rated = [e for e in engines if isinstance(e.get("elo"), (int, float))]
    if not rated:
        return ""
    lows = [float(e["low"] if isinstance(e.get("low"), (int, float)) else e["elo"]) for e in rated]
    highs = [float(e["high"] if isinstance(e.get("high"), (int, float)) else e["elo"]) for e in rated]
    lo, hi = min(lows + [0.0]), max(highs + [0.0])
    span = max(hi - lo, 20.0)
    lo, hi = lo - span * 0.05, hi + span * 0.05
    label_w, plot_w, row_h = 150, 480, 22
    height = row_h * len(rated) + 30

    def x(v: float) -> float:
        return label_w + (v - lo) / (hi - lo) * plot_w

    out = [f'<svg id="ratings-plot" xmlns="http://www.w3.org/2000/svg" width="{label_w + plot_w + 20}" '
           f'height="{height}" font-family="DejaVu Sans,Verdana,sans-serif" font-size="12">',
           f'<line x1="{x(0):.1f}" y1="4" x2="{x(0):.1f}" y2="{height - 22}" stroke="#bbb" stroke-dasharray="3,3"/>']
    for i, (e, low, high) in enumerate(zip(rated, lows, highs)):
        y = 14 + i * row_h
        out.append(f'<text x="{label_w - 8}" y="{y + 4}" text-anchor="end">{_esc(str(e["name"])[:22])}</text>'
                   f'<line x1="{x(low):.1f}" y1="{y}" x2="{x(high):.1f}" y2="{y}" stroke="#8a6d3b" stroke-width="3"/>'
                   f'<circle cx="{x(e["elo"]):.1f}" cy="{y}" r="4.5" fill="#3b5e8a"/>'
                   f'<text x="{x(high) + 6:.1f}" y="{y + 4}" fill="#555">{elo_text(e["elo"])}</text>')
    for tick in _ticks(lo, hi):
        out.append(f'<line x1="{x(tick):.1f}" y1="{height - 22}" x2="{x(tick):.1f}" y2="{height - 17}" stroke="#666"/>'
                   f'<text x="{x(tick):.1f}" y="{height - 5}" text-anchor="middle" fill="#555">{tick:+g}</text>')
    out.append("</svg>")
    return "".join(out)


def _ticks(lo: float, hi: float) -> list[float]:
    raw = (hi - lo) / 6
    step = next(s for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 1e9) if s >= raw)
    first = int(lo // step + 1) * step
    return [float(first + k * step) for k in range(int((hi - first) // step) + 1)]


def _shown(gid: str) -> str:
    """A game's number as people see it, from 1 (the console's, the GUI's); game_id counts from 0."""
    return str(int(gid) + 1) if gid.isdigit() else gid


# -- from a run directory ----------------------------------------------------------------------

def _checked_json(path: Path, model: type[BaseModel]) -> dict[str, Any]:
    """A run file checked against its schema; {} when absent; StoreError when it is not valid."""
    if not path.exists():
        return {}
    try:
        data, _ = load_json(model, path)
    except SchemaError as exc:
        raise StoreError(str(exc)) from None
    return data


def run_meta(run_dir: Path, with_summary: bool = True) -> tuple[str, list[str], dict[str, Any]]:
    """(title, engine names, what the page says of the run) from config.json and summary.json (a
    running run's summary.json is the previous session's, so the runner leaves it out)."""
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
    ratings = summary.get("ratings")
    if isinstance(ratings, dict) and isinstance(ratings.get("anchor"), str) and ratings["anchor"] in names:
        meta["anchor"] = ratings["anchor"]
    return f"isaac-referee run {Path(run_dir).resolve().name}", names, meta


def builder_for(run_dir: Path, with_summary: bool = True) -> ReportBuilder:
    """An empty builder titled and described from the run's config.json and summary.json, if any."""
    title, names, meta = run_meta(run_dir, with_summary)
    return ReportBuilder(title, names, meta)


def build_report(run_dir: str | Path) -> Path:
    """(Re)build report.html of a run directory from its records.jsonl (a stream); returns its path."""
    run_dir = Path(run_dir)
    builder = builder_for(run_dir)
    reader = RecordReader(run_dir / RECORDS)
    for record in reader:
        builder.add(record)
    return builder.write(run_dir)


class LiveReport:
    """Keeps report.html of a running run current without slowing the games down.

    The event loop only hands over each finished record (kept if the viewer embeds it) and, when a
    write is due, a copy of the run's counts; drawing and writing happen in one background thread.
    A write is due once MIN_INTERVAL_S and ten times the previous write's duration have passed, so
    writing stays under about 10% of the time; ``close`` always writes the final page. Errors never
    stop a run: they are reported through `on_error` once and the page is left as it was.
    """

    def __init__(self, run_dir: Path, tally: RunTally, on_error: Callable[[str], None] = lambda text: None,
                 shown: ShownGames | None = None):
        """`tally` and `shown` are the run's own (counted and kept by it, on the loop); the page is
        drawn from copies taken on the loop."""
        self.run_dir = Path(run_dir)
        self.tally = tally
        self.on_error = on_error
        self.shown = shown if shown is not None else ShownGames()
        self._drawings = Drawings()
        self._meta: tuple[str, list[str], dict[str, Any]] | None = None
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="report")
        self._next_write = 0.0
        self._failed = False
        self._future: Future[None] | None = None

    def game_finished(self) -> None:
        """On the loop, after a game was counted (and kept in `shown` by its owner): start a write if
        one is due and none runs."""
        if self._failed or (self._future is not None and not self._future.done()):
            return
        if time.monotonic() < self._next_write:
            return
        self._future = self._executor.submit(self._work, RunView.of(self.tally), self._shown_records())

    def _shown_records(self) -> list[dict[str, Any]]:
        return self.shown.records()

    def close(self) -> None:
        """Draw what is left and write the final page (blocking; call it off the event loop, once the
        games are over)."""
        if not self._failed:
            self._executor.submit(self._work, RunView.of(self.tally), self._shown_records()).result()
        self._executor.shutdown(wait=True)

    def _work(self, view: RunView, records: list[dict[str, Any]]) -> None:
        if self._failed:
            return
        started = time.monotonic()
        try:
            if self._meta is None:
                self._meta = run_meta(self.run_dir, with_summary=False)
            title, _, meta = self._meta
            write_page(self.run_dir, render_page(title, meta, view, records, self._drawings))
        except Exception as exc:       # the report must never cost a game or a run
            self._failed = True
            self.on_error(f"report.html not updated: {type(exc).__name__}: {exc}")
            return
        now = time.monotonic()
        self._next_write = now + max(MIN_INTERVAL_S, 10 * (now - started))
