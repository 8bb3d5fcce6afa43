"""The end-of-run summary: the JSON written to summary.json and the text printed for people.

Both come from the run's counts (referee/results/tally.py), so their cost and size depend on the number of
engines, never of games."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..matches.plan import RunPlan
from ..matches.runner import RunOutcome
from ..matches.tracker import Tracker
from ..results.ratings import ratings_report_of
from ..results.store import PGN, RECORDS, SUMMARY
from ..results.text import format_elo, match_headline, ratings_text, standings_text

Summary = dict[str, Any]


def build_summary(plan: RunPlan, tracker: Tracker, outcome: RunOutcome, out: Path, seconds: float,
                  anchor: str | None = None) -> Summary:
    """What summary.json holds: counts, terminations, per-engine totals, standings, repeated games,
    match statistics, maximum-likelihood ratings, the crosstable and per-encounter game-pair statistics."""
    names = [spec.name for spec in plan.engines]
    tally = tracker.tally
    recorded = tracker.recorded
    summary: Summary = {
        "command": plan.mode, "game": plan.game_type, "out": str(out),
        "games_planned": len(plan.schedule), "games_recorded": recorded,
        "games_played_now": outcome.played, "stopped": outcome.stopped,
        "complete": recorded >= len(plan.schedule) or outcome.stopped.startswith("sprt"),
        "seconds": round(seconds, 2), "terminations": tally.termination_counts(),
        "engines": [tally.totals[name].to_json() for name in names if name in tally.totals],
        "standings": [e.name for e in tally.standings() if e.name in names],
        "repeated_games": tally.repeats.to_json(),
    }
    if tracker.match is not None:
        summary["match"] = tracker.match.to_json()
    summary.update(ratings_report_of(tally, names, anchor))
    return summary


def summary_text(plan: RunPlan, tracker: Tracker, summary: Summary) -> str:
    """The summary as printed at the end of a run."""
    lines = [f"{summary['games_recorded']} of {summary['games_planned']} games recorded "
             f"({summary['stopped']}); {summary['games_played_now']} played in {summary['seconds']:.1f} s"]
    if tracker.match is not None:
        match = summary["match"]
        lines.append(match_headline(tracker.match))
        penta = match["pentanomial"]
        lines.append(f"game pairs (first engine scores 0, 1/2, 1, 3/2, 2): {penta}; pair-based Elo "
                     f"{_elo(match['pentanomial_elo'])} ({_elo(match['pentanomial_elo_low'])}, "
                     f"{_elo(match['pentanomial_elo_high'])})")
        if "sprt" in match:
            s = match["sprt"]
            lines.append(f"SPRT H0 {s['elo0']:g} vs H1 {s['elo1']:g} (alpha {s['alpha']:g}, beta {s['beta']:g}): "
                         f"LLR {s['llr']:.2f} in ({s['lower']:.2f}, {s['upper']:.2f}) -> "
                         f"{s['decision'] or 'undecided'}")
    terms = ", ".join(f"{k} {v}" for k, v in summary["terminations"].items()) or "none"
    lines.append(f"terminations: {terms}")
    repeats = tracker.tally.repeats
    lines.append(f"repeated games: {repeats.repeated} of {repeats.checked} ended on the board repeat an earlier "
                 f"game move for move ({100 * repeats.share:.1f}%)")
    warning = repeats.warning()
    if warning is not None:
        lines.append(warning)
    lines.append(standings_text(tracker.tally.standings()))
    lines.append(ratings_text(summary))
    out = summary["out"]
    lines.append(f"records: {out}/{RECORDS}  pgn: {out}/{PGN}  summary: {out}/{SUMMARY}")
    return "\n".join(lines)


def _elo(value: float | None) -> str:
    """An Elo figure of summary.json for the text; null there is an infinite estimate (a 100% or 0% score)."""
    return "n/a" if value is None else format_elo(value)
