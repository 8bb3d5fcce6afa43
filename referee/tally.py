"""The running statistics of a run: everything summary.json, the report and the console print,
kept as counts that do not grow with the number of games.

Per engine: W/D/L overall and per colour, forfeits lost by termination. Per ordered pair of
engines (Dark, Light): Dark's wins, draws and losses, which is all the ratings, the crosstable
and the per-encounter results need. Per encounter: pentanomial counts of complete game pairs,
holding only the pairs whose second game is not recorded yet. The head-to-head match statistics
and SPRT (stats.MatchStats). Termination counts. Which game ids are recorded (a bitmap), and
how many games repeat an earlier one (same start, same plies: 64-bit hashes, 8 to 16 bytes a
game). A tally saves itself as plain JSON data (`state`) for the run's checkpoint.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .compact import GameIdSet, HashSet64
from .stats import EngineTotals, MatchStats, Sprt, ranked
from .terminations import Termination

REPEAT_WARNING = 0.01
"""Warn when more than this share of the games repeats an earlier one."""
REPEAT_MIN_GAMES = 100
"""...once at least this many games are recorded (a handful of games proves nothing)."""
BOARD_ENDINGS = (Termination.NORMAL.value, Termination.ADJUDICATION.value)
"""Games that ended on the board: only these count as repeats (two forfeits at the same ply
are the same failure, reported in the forfeit counts)."""
FORFEITS = frozenset(t.value for t in Termination if t.is_forfeit)

_DARK_POINTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


class Outcome(NamedTuple):
    """What the statistics read of one record."""

    game_id: int
    dark: str
    light: str
    result: str
    termination: str
    pair: int | None
    round: int | None

    @classmethod
    def of(cls, record: Mapping[str, Any]) -> Outcome:
        return cls(record["game_id"], str(record["dark"]["name"]), str(record["light"]["name"]),
                   str(record["result"]), str(record["termination"]), record.get("pair"), record.get("round"))

    @property
    def dark_points(self) -> float:
        return _DARK_POINTS.get(self.result, 0.5)


def game_fingerprint(record: Mapping[str, Any]) -> int:
    """A 64-bit hash of the start position and every ply (opening included): equal for the same game."""
    h = hashlib.blake2b(digest_size=8)
    h.update(str(record.get("start_position", "")).encode())
    for ply in record.get("opening") or ():
        h.update(b" " + str(ply).encode())
    h.update(b" |")
    for move in record.get("moves") or ():
        h.update(b" " + str(move.get("move", "") if isinstance(move, dict) else move).encode())
    return int.from_bytes(h.digest(), "big")


@dataclass
class Encounter:
    """Two engines that met: `first` (earlier in the run's engine list) against `second`."""

    first: str
    second: str
    penta: list[int] = field(default_factory=lambda: [0] * 5)
    open_pairs: dict[tuple[int | None, int], float] = field(default_factory=dict)

    def count(self, first_points: float, round_: int | None, pair: int | None) -> None:
        if pair is None:
            return
        key = (round_, pair)
        if key in self.open_pairs:
            self.penta[int(round((self.open_pairs.pop(key) + first_points) * 2))] += 1
        else:
            self.open_pairs[key] = first_points

    def state(self) -> dict[str, Any]:
        return {"first": self.first, "second": self.second, "penta": list(self.penta),
                "open": [[r, p, v] for (r, p), v in self.open_pairs.items()]}

    @classmethod
    def from_state(cls, data: dict[str, Any]) -> Encounter:
        return cls(str(data["first"]), str(data["second"]), [int(x) for x in data["penta"]],
                   {(r, p): float(v) for r, p, v in data["open"]})


@dataclass
class Repeats:
    """How many games (ended on the board) repeat an earlier game of the run."""

    checked: int = 0
    repeated: int = 0
    seen: HashSet64 = field(default_factory=HashSet64)

    def add(self, record: Mapping[str, Any]) -> bool:
        """Count one record; True if it repeats an earlier game."""
        if record.get("termination") not in BOARD_ENDINGS:
            return False
        self.checked += 1
        if self.seen.add(game_fingerprint(record)):
            return False
        self.repeated += 1
        return True

    @property
    def share(self) -> float:
        return self.repeated / self.checked if self.checked else 0.0

    def warning(self) -> str | None:
        """The warning to print when too many games repeat, else None."""
        if self.checked < REPEAT_MIN_GAMES or self.share <= REPEAT_WARNING:
            return None
        return (f"warning: {self.repeated} of {self.checked} games ({100 * self.share:.1f}%) repeat an earlier "
                f"game move for move: they are not independent results. Give the engines a Seed option "
                f"(the referee sets it per game), more varied openings (--openings), or less deterministic "
                f"settings")

    def to_json(self) -> dict[str, Any]:
        return {"games_checked": self.checked, "repeated": self.repeated,
                "share": round(self.share, 4), "warning": self.warning() is not None}

    def state(self) -> dict[str, Any]:
        return {"checked": self.checked, "repeated": self.repeated, "seen": self.seen.to_bytes(),
                "distinct": len(self.seen)}

    @classmethod
    def from_state(cls, data: dict[str, Any]) -> Repeats:
        return cls(int(data["checked"]), int(data["repeated"]),
                   HashSet64.from_bytes(data["seen"], int(data["distinct"])))


class RunTally:
    """Counts of every finished game of a run, loaded ones included: constant memory per game."""

    def __init__(self, names: Iterable[str], match: tuple[str, str] | None = None, sprt: Sprt | None = None):
        self.names = list(names)
        self.recorded = 0
        self.done = GameIdSet()
        self.totals = {name: EngineTotals(name) for name in self.names}
        self.terminations: dict[str, int] = {}
        self.cells: dict[tuple[str, str], list[int]] = {}
        """(Dark, Light) -> [Dark's wins, draws, Dark's losses]."""
        self.encounters: dict[tuple[str, str], Encounter] = {}
        self.match = MatchStats(match[0], match[1], sprt=sprt) if match is not None else None
        self.repeats = Repeats()
        self.game_types: set[str] = set()

    def add(self, record: Mapping[str, Any]) -> None:
        """Count one record (as written to records.jsonl); constant time."""
        o = Outcome.of(record)
        self.recorded += 1
        self.done.add(o.game_id)
        self.game_types.add(str(record.get("game_type", "")))
        self.terminations[o.termination] = self.terminations.get(o.termination, 0) + 1
        points = o.dark_points
        forfeit = o.termination if o.termination in FORFEITS else None
        for name, as_dark, mine in ((o.dark, True, points), (o.light, False, 1.0 - points)):
            totals = self.totals.get(name)
            if totals is None:
                totals = self.totals[name] = EngineTotals(name)
                self.names.append(name)
            totals.count(as_dark, mine, forfeit)
        cell = self.cells.setdefault((o.dark, o.light), [0, 0, 0])
        cell[0 if points == 1.0 else 2 if points == 0.0 else 1] += 1
        if o.dark != o.light:
            first, second = sorted((o.dark, o.light), key=self._order)
            encounter = self.encounters.get((first, second))
            if encounter is None:
                encounter = self.encounters[(first, second)] = Encounter(first, second)
            encounter.count(points if first == o.dark else 1.0 - points, o.round, o.pair)
        if self.match is not None and self.match.first in (o.dark, o.light):
            self.match.count(points if self.match.first == o.dark else 1.0 - points, o.round, o.pair)
        self.repeats.add(record)

    def _order(self, name: str) -> tuple[int, str]:
        return (self.names.index(name) if name in self.names else len(self.names), name)

    # -- what the readers ask ---------------------------------------------------------------
    def standings(self) -> list[EngineTotals]:
        return ranked(self.totals)

    def termination_counts(self) -> dict[str, int]:
        return dict(sorted(self.terminations.items()))

    def sprt_decision(self) -> str | None:
        return None if self.match is None else self.match.sprt_decision()

    def score_text(self) -> str:
        if self.match is not None:
            return self.match.headline()
        top = self.standings()[:4]
        return "leaders: " + ", ".join(f"{e.name} {e.total.points:g}/{e.total.games}" for e in top)

    # -- checkpoint ----------------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        """Every count, as JSON data but for two bytes values (`done`, `repeats.seen`: see
        checkpoint.py); cheap enough to take on the event loop."""
        return {"names": list(self.names), "recorded": self.recorded, "done": self.done.to_bytes(),
                "totals": {name: t.state() for name, t in self.totals.items()},
                "terminations": dict(self.terminations),
                "cells": [[d, lt, *c] for (d, lt), c in self.cells.items()],
                "encounters": [e.state() for e in self.encounters.values()],
                "match": None if self.match is None else self.match.state(),
                "repeats": self.repeats.state(), "game_types": sorted(self.game_types)}

    def load_state(self, data: dict[str, Any]) -> None:
        """Take the counts of a checkpoint (this tally must be new, made for the same run)."""
        for name in data["names"]:
            if name not in self.names:
                self.names.append(str(name))
        self.recorded = int(data["recorded"])
        self.done = GameIdSet.from_bytes(data["done"])
        self.totals = {name: EngineTotals(name) for name in self.names}
        for name, counts in data["totals"].items():
            self.totals[str(name)] = EngineTotals.from_state(str(name), counts)
        self.terminations = {str(k): int(v) for k, v in data["terminations"].items()}
        self.cells = {(str(d), str(lt)): [int(w), int(dr), int(lo)] for d, lt, w, dr, lo in data["cells"]}
        self.encounters = {}
        for item in data["encounters"]:
            encounter = Encounter.from_state(item)
            self.encounters[(encounter.first, encounter.second)] = encounter
        if self.match is not None and data["match"] is not None:
            self.match.load_state(data["match"])
        self.repeats = Repeats.from_state(data["repeats"])
        self.game_types = {str(g) for g in data["game_types"]}
