"""The results as text for people: the match's one-line score, the standings table, the ratings,
crosstable and game pairs, and the figures in them (the console, progress lines, the report's cells).

Nothing here counts or computes a statistic: the counts are tally.py's, the Elo arithmetic elo.py's,
the SPRT's sprt.py's, the ratings ratings.py's.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from ..formats.record import GameRecord
from .elo import elo_interval, los
from .tally import EngineTotals, MatchStats, RunTally, standings


def format_elo(x: float) -> str:
    """'+12.3', '-4.0', '+inf'."""
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{round(x, 1) + 0.0:+.1f}"


def elo_text(x: float | None) -> str:
    """An Elo figure of summary.json's kind: '+12.3', or '-' for none (null: an infinite estimate)."""
    return "-" if x is None or math.isinf(x) else f"{round(x, 1) + 0.0:+.1f}"


def _finite(x: float | None) -> bool:
    return x is not None and not math.isinf(x)


def elo_words(elo: float | None, low: float | None, high: float | None, unit: str = "game",
              all_won: bool | None = None) -> str:
    """An Elo estimate and its 95% interval, said in words where a figure has no finite value (an
    infinite float, or null as summary.json writes it): '+34.9 (-150.1, +224.2)';
    'every game won: no finite estimate, at least +7.0'; '+338.0 (at least +117.4, no upper bound
    yet)'. `all_won` says which way an estimate without a value went when its bounds cannot tell."""
    if _finite(elo):
        if _finite(low) and _finite(high):
            return f"{elo_text(elo)} ({elo_text(low)}, {elo_text(high)})"
        bounds = [f"at least {elo_text(low)}"] * _finite(low) + [f"at most {elo_text(high)}"] * _finite(high)
        missing = "no bound yet" if not bounds else "no upper bound yet" if _finite(low) else "no lower bound yet"
        return f"{elo_text(elo)} ({', '.join([*bounds, missing])})"
    if all_won is None:
        if elo is not None:                       # an infinite float: its sign says which way
            all_won = elo > 0
        elif _finite(low) != _finite(high):       # null with one finite bound: the open side says it
            all_won = _finite(low)
    if all_won is True:
        return f"every {unit} won: no finite estimate" + (f", at least {elo_text(low)}" if _finite(low) else "")
    if all_won is False:
        return f"every {unit} lost: no finite estimate" + (f", at most {elo_text(high)}" if _finite(high) else "")
    return "no finite estimate"


def _elo_cell(elo: float) -> str:
    """A table's Elo cell: the figure, or 'all won' / 'all lost' when it is infinite."""
    return format_elo(elo) if not math.isinf(elo) else "all won" if elo > 0 else "all lost"


def _interval_cell(low: float, high: float) -> str:
    """A table's 95% interval cell, in words where a bound is infinite."""
    if _finite(low) and _finite(high):
        return f"({format_elo(low)}, {format_elo(high)})"
    if _finite(low) or _finite(high):
        return f"(at least {format_elo(low)})" if _finite(low) else f"(at most {format_elo(high)})"
    return "(no bound yet)"


def points_text(points: float) -> str:
    """'3', '2.5': points as a score shows them."""
    return str(int(points)) if points == int(points) else f"{points:.1f}"


def match_headline(match: MatchStats) -> str:
    """One line: 'A vs B: 5.5 - 4.5 [W3 D5 L2] Elo +34.9 (-150.1, +224.2) LOS 66%' (in words where a
    figure is infinite: 'Elo every game won: no finite estimate, at least +7.0')."""
    t = match.tally()
    elo, lo, hi = elo_interval(t.wins, t.draws, t.losses)
    text = (f"{match.first} vs {match.second}: {points_text(t.points)} - {points_text(t.games - t.points)} "
            f"[W{t.wins} D{t.draws} L{t.losses}] Elo {elo_words(elo, lo, hi)} LOS {100 * los(t.wins, t.losses):.0f}%")
    if match.sprt is not None:
        lower, upper = match.sprt.bounds
        text += f" LLR {match.llr():.2f} ({lower:.2f}, {upper:.2f})"
    return text


def score_text(tally: RunTally) -> str:
    """The running score a progress line shows: the match's headline, or a tournament's leaders."""
    if tally.match is not None:
        return match_headline(tally.match)
    top = tally.standings()[:4]
    return "leaders: " + ", ".join(f"{e.name} {e.total.points:g}/{e.total.games}" for e in top)


def standings_table(records: Iterable[GameRecord], names: list[str]) -> str:
    """A fixed-width standings table for humans."""
    return standings_text(standings(records, names))


def standings_text(rows: list[EngineTotals]) -> str:
    """A fixed-width standings table for humans, of engines already ranked."""
    width = max([len("Engine")] + [len(r.name) for r in rows])
    head = (f"{'Rank':>4}  {'Engine':<{width}}  {'Games':>5}  {'Points':>6}  {'Score':>6}  "
            f"{'W':>4} {'D':>4} {'L':>4}  {'Elo':>8}  {'95% interval':<17}  {'Dark W-D-L':<11} {'Light W-D-L'}")
    lines = [head, "-" * len(head)]
    for rank, row in enumerate(rows, 1):
        t = row.total
        elo, lo, hi = elo_interval(t.wins, t.draws, t.losses)
        interval = _interval_cell(lo, hi)
        dark = f"{row.as_dark.wins}-{row.as_dark.draws}-{row.as_dark.losses}"
        light = f"{row.as_light.wins}-{row.as_light.draws}-{row.as_light.losses}"
        lines.append(f"{rank:>4}  {row.name:<{width}}  {t.games:>5}  {points_text(t.points):>6}  "
                     f"{100 * t.score:>5.1f}%  {t.wins:>4} {t.draws:>4} {t.losses:>4}  "
                     f"{_elo_cell(elo):>8}  {interval:<17}  {dark:<11} {light}")
    return "\n".join(lines)


def rating_cells(e: dict[str, Any]) -> tuple[str, str]:
    """A rated engine of summary.json as (Elo, 95% interval) cells, in words where a figure is null
    (an engine that won or lost every game has no finite maximum-likelihood rating)."""
    elo: float | None = e["elo"]
    if elo is None:
        elo = math.inf if e["points"] == e["games"] else -math.inf if e["points"] == 0 else math.nan
    low = -math.inf if e["low"] is None else e["low"]
    high = math.inf if e["high"] is None else e["high"]
    cell = "-" if math.isnan(elo) else _elo_cell(elo)
    return cell, _interval_cell(low, high)


def first_move_words(w: dict[str, Any]) -> str:
    """The first-move advantage of summary.json's ratings, in words where it has no finite value."""
    if _finite(w["elo"]):
        return elo_words(w["elo"], w["low"], w["high"])
    return "no finite estimate: " + elo_words(None, w["low"], w["high"], "game won by Dark").replace(
        ": no finite estimate", "")


def pair_elo_words(data: dict[str, Any], key: str = "pentanomial") -> str:
    """The pair-based Elo of an encounter or match of summary.json (`<key>`, `<key>_elo`, `_low`,
    `_high`), in words where it has no finite value."""
    counts = data[key]
    pairs = sum(counts)
    all_won = True if pairs and counts[-1] == pairs else False if pairs and counts[0] == pairs else None
    return elo_words(data[f"{key}_elo"], data[f"{key}_elo_low"], data[f"{key}_elo_high"], "pair", all_won)


def ratings_text(report: dict[str, Any]) -> str:
    """The ratings table, the crosstable and the encounters as fixed-width text."""
    lines: list[str] = []
    ratings = report.get("ratings")
    if ratings is None:
        lines.append(f"ratings: {report.get('ratings_error', 'not available')}")
        names = list(report["crosstable"])
    else:
        engines = ratings["engines"]
        names = [e["name"] for e in engines]
        width = max([6] + [len(n) for n in names])
        w = ratings["first_move_advantage"]
        lines.append(f"ratings ({ratings['method']}; anchor: {ratings['anchor']}; first-move advantage "
                     f"{first_move_words(w)})")
        lines.append(f"{'Rank':>4}  {'Engine':<{width}}  {'Elo':>8}  {'95% interval':<17}  {'Games':>5}  Points")
        for rank, e in enumerate(engines, 1):
            cell, interval = rating_cells(e)
            lines.append(f"{rank:>4}  {e['name']:<{width}}  {cell:>8}  {interval:<17}  "
                         f"{e['games']:>5}  {points_text(e['points'])}")
    table = report["crosstable"]
    if len(names) >= 2:
        width = max([6] + [len(n) for n in names])
        cols = [n[:7] for n in names]
        lines.append("crosstable (row engine's points / games against the column engine)")
        lines.append(f"{'':<{width}}  " + "  ".join(f"{c:>9}" for c in cols))
        for a in names:
            cells = []
            for b in names:
                cell = table.get(a, {}).get(b)
                cells.append(f"{'':>9}" if a == b or cell is None
                             else f"{points_text(cell['points']) + '/' + str(int(cell['games'])):>9}")
            lines.append(f"{a:<{width}}  " + "  ".join(cells))
    for e in report["encounters"]:
        if e["pairs"]:
            lines.append(f"{e['first']} vs {e['second']}: game pairs (0, 1/2, 1, 3/2, 2) {e['pentanomial']}, "
                         f"pair-based Elo {pair_elo_words(e, 'pentanomial')}")
    return "\n".join(lines)
