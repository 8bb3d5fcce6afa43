"""The counts of a run's games: everything the statistics, summary.json, the report and the console
read, kept as counts that do not grow with the number of games (the arithmetic on them is elo.py's
and sprt.py's; their text for people is text.py's).

Per engine (`EngineTotals`): W/D/L overall and per colour, forfeits lost by termination. Per ordered
pair of engines (Dark, Light): Dark's wins, draws and losses, which is all the ratings, the crosstable
and the per-encounter results need. Per encounter: pentanomial counts of complete game pairs
(`PairCounts`), holding only the pairs whose second game is not recorded yet. The head-to-head
match and its SPRT (`MatchStats`). Termination counts. Which game ids are recorded (a bitmap), and
how many games repeat an earlier one (same start, same plies: 64-bit hashes, 8 to 16 bytes a game).
`RunTally` keeps them all as a run goes and saves itself as plain JSON data (`state`) for the run's
checkpoint; the functions over a list of records compute the same from scratch.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..formats.record import GameRecord, dark_points
from ..formats.terminations import Termination
from .compact import GameIdSet, HashSet64
from .elo import elo_interval, elo_interval_pentanomial, json_number, los
from .sprt import Sprt, sprt_llr_pentanomial, sprt_llr_trinomial

REPEAT_WARNING = 0.01
"""Warn when more than this share of the games repeats an earlier one."""
REPEAT_MIN_GAMES = 100
"""...once at least this many games are recorded (a handful of games proves nothing)."""
BOARD_ENDINGS = (Termination.NORMAL.value, Termination.ADJUDICATION.value)
"""Games that ended on the board: only these count as repeats (two forfeits at the same ply
are the same failure, reported in the forfeit counts)."""
FORFEITS = frozenset(t.value for t in Termination if t.is_forfeit)


# -- one record ----------------------------------------------------------------------------------

def side_names(record: GameRecord) -> tuple[str, str]:
    """(Dark engine name, Light engine name) of a record."""
    return str(record.dark["name"]), str(record.light["name"])


def points_of(record: GameRecord, name: str) -> float:
    """The named engine's score in the game."""
    dark, _ = side_names(record)
    score = dark_points(record.result)
    return score if name == dark else 1.0 - score


# -- counts ---------------------------------------------------------------------------------------

@dataclass
class Tally:
    """Wins, draws and losses of one engine (or of one engine with one colour)."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    def add(self, points: float) -> None:
        if points == 1.0:
            self.wins += 1
        elif points == 0.0:
            self.losses += 1
        else:
            self.draws += 1

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + self.draws / 2

    @property
    def score(self) -> float:
        return self.points / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "wins": self.wins, "draws": self.draws, "losses": self.losses,
                "points": self.points, "score": round(self.score, 4)}


@dataclass
class EngineTotals:
    """Everything one engine did: overall and per colour, and how its games ended."""

    name: str
    total: Tally = field(default_factory=Tally)
    as_dark: Tally = field(default_factory=Tally)
    as_light: Tally = field(default_factory=Tally)
    forfeits: dict[str, int] = field(default_factory=dict)

    def add(self, record: GameRecord) -> None:
        dark, _ = side_names(record)
        points = points_of(record, self.name)
        self.count(dark == self.name, points, str(record.termination) if record.is_forfeit() else None)

    def count(self, as_dark: bool, points: float, forfeit: str | None = None) -> None:
        """One game: this engine's colour, its points, and the termination if a forfeit ended it."""
        self.total.add(points)
        (self.as_dark if as_dark else self.as_light).add(points)
        if forfeit is not None and points == 0.0:
            self.forfeits[forfeit] = self.forfeits.get(forfeit, 0) + 1

    def state(self) -> dict[str, Any]:
        """Counts only, for a checkpoint."""
        return {"total": _tally_state(self.total), "dark": _tally_state(self.as_dark),
                "light": _tally_state(self.as_light), "forfeits": dict(self.forfeits)}

    @classmethod
    def from_state(cls, name: str, data: dict[str, Any]) -> EngineTotals:
        return cls(name, Tally(*data["total"]), Tally(*data["dark"]), Tally(*data["light"]),
                   {str(k): int(v) for k, v in data["forfeits"].items()})

    def to_json(self) -> dict[str, Any]:
        elo, lo, hi = elo_interval(self.total.wins, self.total.draws, self.total.losses)
        return {"name": self.name, **self.total.to_json(), "dark": self.as_dark.to_json(),
                "light": self.as_light.to_json(), "forfeits_lost": dict(sorted(self.forfeits.items())),
                "elo_vs_field": json_number(elo), "elo_low": json_number(lo), "elo_high": json_number(hi)}


def ranked(totals: dict[str, EngineTotals]) -> list[EngineTotals]:
    """Engines ordered by points, then by score fraction, then by name."""
    return sorted(totals.values(), key=lambda e: (-e.total.points, -e.total.score, e.name))


def _tally_state(t: Tally) -> list[int]:
    return [t.wins, t.draws, t.losses]


@dataclass
class PairCounts:
    """Pentanomial counts of complete game pairs (one opening, colours swapped) from one engine's
    view: how often it scored 0, 1/2, 1, 3/2, 2 points. Only unfinished pairs are kept, so the memory
    does not grow with the run."""

    penta: list[int] = field(default_factory=lambda: [0] * 5)
    open_pairs: dict[tuple[int | None, int], float] = field(default_factory=dict)

    def count(self, points: float, round_: int | None, pair: int | None) -> None:
        """One game: the engine's points and the pair it belongs to (None: unpaired, not counted)."""
        if pair is None:
            return
        key = (round_, pair)
        if key in self.open_pairs:
            self.penta[int(round((self.open_pairs.pop(key) + points) * 2))] += 1
        else:
            self.open_pairs[key] = points

    def open_state(self) -> list[list[Any]]:
        return [[r, p, v] for (r, p), v in self.open_pairs.items()]

    @classmethod
    def from_state(cls, penta: list[Any], open_pairs: list[list[Any]]) -> PairCounts:
        return cls([int(x) for x in penta], {(r, p): float(v) for r, p, v in open_pairs})


# -- a head-to-head match ------------------------------------------------------------------------

@dataclass
class MatchStats:
    """Statistics of engine `first` against engine `second`, from `first`'s point of view."""

    first: str
    second: str
    sprt: Sprt | None = None
    _tally: Tally = field(default_factory=Tally)
    _pairs: PairCounts = field(default_factory=PairCounts)
    _paired: bool = False

    def add(self, record: GameRecord) -> None:
        """Count one game; O(1), so a long match stays cheap to report after every game."""
        self.count(points_of(record, self.first), record.round, record.pair)

    def count(self, points: float, round_: int | None, pair: int | None) -> None:
        """One game: the first engine's points, and the game pair it belongs to (None: unpaired)."""
        self._tally.add(points)
        if pair is not None:
            self._paired = True
        self._pairs.count(points, round_, pair)

    def state(self) -> dict[str, Any]:
        """Counts and unfinished pairs, for a checkpoint."""
        return {"tally": _tally_state(self._tally), "penta": list(self._pairs.penta), "paired": self._paired,
                "open": self._pairs.open_state()}

    def load_state(self, data: dict[str, Any]) -> None:
        self._tally = Tally(*data["tally"])
        self._pairs = PairCounts.from_state(data["penta"], data["open"])
        self._paired = bool(data["paired"])

    def tally(self) -> Tally:
        t = self._tally
        return Tally(t.wins, t.draws, t.losses)

    def pentanomial(self) -> list[int]:
        """Counts of the first engine's points (0, 1/2, 1, 3/2, 2) over complete game pairs."""
        return list(self._pairs.penta)

    def llr(self) -> float:
        """SPRT LLR: over complete game pairs in a paired match, else over games."""
        if self.sprt is None:
            return 0.0
        if self._paired:
            return sprt_llr_pentanomial(self._pairs.penta, self.sprt.elo0, self.sprt.elo1)
        t = self._tally
        return sprt_llr_trinomial(t.wins, t.draws, t.losses, self.sprt.elo0, self.sprt.elo1)

    def sprt_decision(self) -> str | None:
        return None if self.sprt is None else self.sprt.decide(self.llr())

    def to_json(self) -> dict[str, Any]:
        t = self.tally()
        elo, lo, hi = elo_interval(t.wins, t.draws, t.losses)
        penta = self.pentanomial()
        p_elo, p_lo, p_hi = elo_interval_pentanomial(penta)
        out = {
            "first": self.first, "second": self.second, **t.to_json(),
            "elo": json_number(elo), "elo_low": json_number(lo), "elo_high": json_number(hi),
            "los": round(los(t.wins, t.losses), 4),
            "pentanomial": penta,
            "pentanomial_elo": json_number(p_elo), "pentanomial_elo_low": json_number(p_lo),
            "pentanomial_elo_high": json_number(p_hi),
        }
        if self.sprt is not None:
            lower, upper = self.sprt.bounds
            out["sprt"] = {**self.sprt.to_json(), "llr": round(self.llr(), 4), "lower": round(lower, 4),
                           "upper": round(upper, 4), "decision": self.sprt_decision()}
        return out


# -- from a list of records (the running counts, computed from scratch) ---------------------------

def pentanomial_counts(records: Iterable[GameRecord], name: str) -> list[int]:
    """Counts of pair points 0, 1/2, 1, 3/2, 2 for `name` over complete game pairs.

    A pair is the records sharing a `pair` number (same opening, colours swapped)
    in which `name` plays both games; unfinished pairs are left out.
    """
    pairs: dict[tuple[int | None, int], list[float]] = {}
    for record in records:
        pair = record.pair
        if pair is None or name not in side_names(record):
            continue
        pairs.setdefault((record.round, pair), []).append(points_of(record, name))
    counts = [0] * 5
    for scores in pairs.values():
        if len(scores) == 2:
            counts[int(round(sum(scores) * 2))] += 1
    return counts


def termination_counts(records: Iterable[GameRecord]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for record in records:
        key = str(record.termination)
        counts[key] = counts.get(key, 0) + 1
    return dict(sorted(counts.items()))


def engine_totals(records: Iterable[GameRecord], names: list[str]) -> dict[str, EngineTotals]:
    totals = {name: EngineTotals(name) for name in names}
    for record in records:
        for name in side_names(record):
            totals.setdefault(name, EngineTotals(name)).add(record)
    return totals


def standings(records: Iterable[GameRecord], names: list[str]) -> list[EngineTotals]:
    """Engines ordered by points, then by score fraction, then by name."""
    return ranked(engine_totals(records, names))


# -- a run ----------------------------------------------------------------------------------------

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
        return dark_points(self.result)


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
    """Two engines that met: `first` (earlier in the run's engine list) against `second`, and the
    game pairs from `first`'s view."""

    first: str
    second: str
    pairs: PairCounts = field(default_factory=PairCounts)

    @property
    def penta(self) -> list[int]:
        return self.pairs.penta

    def count(self, first_points: float, round_: int | None, pair: int | None) -> None:
        self.pairs.count(first_points, round_, pair)

    def state(self) -> dict[str, Any]:
        return {"first": self.first, "second": self.second, "penta": list(self.pairs.penta),
                "open": self.pairs.open_state()}

    @classmethod
    def from_state(cls, data: dict[str, Any]) -> Encounter:
        return cls(str(data["first"]), str(data["second"]), PairCounts.from_state(data["penta"], data["open"]))


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
