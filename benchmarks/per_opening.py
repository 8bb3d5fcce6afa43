"""One engine's results per opening, pooled over several runs (seeds) of the same match.

benchmarks/strength.py plays every book opening with both colours against a partner, once or
more per seed; this module adds up, per opening, the engine's points as Dark and as Light over
all those runs, finds the openings it lost with both colours (below half the points as Dark and
below half as Light: the partner beat it from that opening whichever side it took), and keeps
those games in a records file of their own, so that they can be replayed
(`isaac-svg --records DIR --game-id N`) or played again.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.books.opening_results import opening_text
from referee.formats.record import dark_points
from referee.formats.terminations import Termination
from referee.results.store import RECORDS


@dataclass
class Colour:
    """The engine's points and games with one colour."""

    points: float = 0.0
    games: int = 0

    def text(self) -> str:
        return f"{self.points:g}/{self.games}"

    def percent(self) -> float:
        return 100 * self.points / self.games if self.games else 0.0

    def below_half(self) -> bool:
        return self.games > 0 and self.points < self.games / 2


@dataclass
class OpeningTally:
    """The games one engine played from one opening, over every run."""

    opening: str
    dark: Colour = field(default_factory=Colour)
    light: Colour = field(default_factory=Colour)
    dark_points: float = 0.0
    """Dark's points in these games, whichever engine played Dark: an opening far from half is unbalanced."""
    forfeits: int = 0
    """Games the engine lost by a forfeit (time, crash, illegal move): they say nothing of its play."""
    records: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    """The games, each with the index of its run."""

    @property
    def points(self) -> float:
        return self.dark.points + self.light.points

    @property
    def games(self) -> int:
        return self.dark.games + self.light.games

    def lost_with_both_colours(self) -> bool:
        """Below half the points as Dark and as Light: the opponent beat the engine from here with either side."""
        return self.dark.below_half() and self.light.below_half()

    def add(self, record: Mapping[str, Any], engine: str, run: int = 0) -> None:
        dark = dark_points(record["result"])
        if record["dark"]["name"] == engine:
            side, points = self.dark, dark
        elif record["light"]["name"] == engine:
            side, points = self.light, 1.0 - dark
        else:
            return
        side.points += points
        side.games += 1
        self.dark_points += dark
        if points < 1.0 and Termination(record["termination"]).is_forfeit:
            self.forfeits += 1
        self.records.append((run, dict(record)))


def tally(runs: Iterable[Iterable[Mapping[str, Any]]], engine: str) -> list[OpeningTally]:
    """The engine's games of every run grouped by opening, openings in the order first played."""
    tallies: dict[str, OpeningTally] = {}
    for run, records in enumerate(runs):
        for record in sorted(records, key=lambda r: r["game_id"]):
            text = opening_text(record)
            tallies.setdefault(text, OpeningTally(text)).add(record, engine, run)
    return [t for t in tallies.values() if t.games]


def opening_line(number: int, t: OpeningTally, engine: str, width: int = 34) -> str:
    """One opening: the engine's points, as Dark and as Light, and a mark when it lost with both colours."""
    text = t.opening if len(t.opening) <= width else t.opening[:width - 3] + "..."
    line = (f"{number:>4} {text:<{width}} dark {t.dark_points:g}/{t.games}  {engine} {t.points:g}/{t.games} "
            f"(Dark {t.dark.text()}, Light {t.light.text()})")
    if t.forfeits:
        line += f"  forfeits {t.forfeits}"
    if t.lost_with_both_colours():
        line += "  LOST WITH BOTH COLOURS"
    return line


def lost_summary(tallies: list[OpeningTally], engine: str) -> str:
    """How many openings the engine lost with both colours, and how many it won with both."""
    lost = sum(1 for t in tallies if t.lost_with_both_colours())
    won = sum(1 for t in tallies if t.dark.games and t.light.games
              and t.dark.points > t.dark.games / 2 and t.light.points > t.light.games / 2)
    return (f"{len(tallies)} openings: {engine} lost {lost} with both colours (below half the points as Dark "
            f"and as Light), won {won} with both")


def keep_lost_games(tallies: list[OpeningTally], directory: Path) -> int:
    """Writes the games of the openings lost with both colours to `directory`/records.jsonl (game ids and
    pairs renumbered: the runs' own ids repeat across seeds); returns how many games it wrote (0: no
    file)."""
    lost = [t for t in tallies if t.lost_with_both_colours()]
    if not lost:
        return 0
    directory.mkdir(parents=True, exist_ok=True)
    lines = []
    pairs: dict[tuple[int, int], int] = {}
    for t in lost:
        for run, record in t.records:
            copy = dict(record)
            copy["game_id"] = len(lines)
            key = (run, record["game_id"] if record.get("pair") is None else record["pair"])
            copy["pair"] = pairs.setdefault(key, len(pairs))
            lines.append(json.dumps(copy, separators=(",", ":")))
    (directory / RECORDS).write_text("".join(line + "\n" for line in lines))
    return len(lines)
