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
    return "-" if x is None else f"{x:+.1f}"


def points_text(points: float) -> str:
    """'3', '2.5': points as a score shows them."""
    return str(int(points)) if points == int(points) else f"{points:.1f}"


def match_headline(match: MatchStats) -> str:
    """One line: 'A vs B: 5.5 - 4.5 [W3 D5 L2] Elo +34.9 (-150.1, +224.2) LOS 66%'."""
    t = match.tally()
    elo, lo, hi = elo_interval(t.wins, t.draws, t.losses)
    text = (f"{match.first} vs {match.second}: {points_text(t.points)} - {points_text(t.games - t.points)} "
            f"[W{t.wins} D{t.draws} L{t.losses}] Elo {format_elo(elo)} "
            f"({format_elo(lo)}, {format_elo(hi)}) LOS {100 * los(t.wins, t.losses):.0f}%")
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
            f"{'W':>4} {'D':>4} {'L':>4}  {'Elo':>7}  {'95% interval':<17}  {'Dark W-D-L':<11} {'Light W-D-L'}")
    lines = [head, "-" * len(head)]
    for rank, row in enumerate(rows, 1):
        t = row.total
        elo, lo, hi = elo_interval(t.wins, t.draws, t.losses)
        interval = f"({format_elo(lo)}, {format_elo(hi)})"
        dark = f"{row.as_dark.wins}-{row.as_dark.draws}-{row.as_dark.losses}"
        light = f"{row.as_light.wins}-{row.as_light.draws}-{row.as_light.losses}"
        lines.append(f"{rank:>4}  {row.name:<{width}}  {t.games:>5}  {points_text(t.points):>6}  "
                     f"{100 * t.score:>5.1f}%  {t.wins:>4} {t.draws:>4} {t.losses:>4}  "
                     f"{format_elo(elo):>7}  {interval:<17}  {dark:<11} {light}")
    return "\n".join(lines)


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
                     f"{elo_text(w['elo'])} ({elo_text(w['low'])}, {elo_text(w['high'])}))")
        lines.append(f"{'Rank':>4}  {'Engine':<{width}}  {'Elo':>7}  {'95% interval':<17}  {'Games':>5}  Points")
        for rank, e in enumerate(engines, 1):
            interval = f"({elo_text(e['low'])}, {elo_text(e['high'])})"
            lines.append(f"{rank:>4}  {e['name']:<{width}}  {elo_text(e['elo']):>7}  {interval:<17}  "
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
                         f"pair-based Elo {elo_text(e['pentanomial_elo'])} ({elo_text(e['pentanomial_elo_low'])}, "
                         f"{elo_text(e['pentanomial_elo_high'])})")
    return "\n".join(lines)
