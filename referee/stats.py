"""Match and tournament statistics computed from game records, and nothing else.

Everything here is a pure function of finished games, so a resumed match
reports exactly what an uninterrupted one would. Conventions:

* A game score is 1 for a win, 1/2 for a draw, 0 for a loss.
* Elo is the logistic Elo difference: a score fraction s corresponds to
  ``-400 * log10(1/s - 1)``.
* The 95% interval is the normal approximation of the score's standard error,
  mapped through the same curve; per game (trinomial) or per game pair
  (pentanomial, which is tighter and more honest for paired openings, because
  the two games of a pair share an opening and are not independent).
* LOS (likelihood of superiority) is the usual ``Phi((W - L) / sqrt(W + L))``:
  draws carry no information about which engine is stronger.
* SPRT uses the generalized SPRT with a normal approximation (the method
  fastchess uses): for samples x_i with empirical mean m and variance v,
  testing mean s0 (Elo elo0) against s1 (Elo elo1),
  ``LLR = N * (s1 - s0) * (2m - s0 - s1) / (2v)``. Samples are game pairs
  (x = pair points / 2) in a paired match (only complete pairs count), games
  otherwise. Empty outcome classes get half an observation (PSEUDO_COUNT) so a
  one-sided sample neither divides by zero nor decides after one game.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

from .record import GameRecord

Z95 = NormalDist().inv_cdf(0.975)
"""1.95996...: half-width of a two-sided 95% normal interval in standard errors."""

PSEUDO_COUNT = 0.5
"""Half an observation stands in for an empty outcome class in the SPRT sample.

Without it a one-sided sample (every game won) has zero variance and the
approximation would decide after a single game; fastchess uses 1e-3, which
still decides after one pair. Half an observation keeps early decisions
sane (19 straight 2-0 pairs to accept H1 at Elo 10 with alpha = beta = 0.05)
and vanishes as the sample grows; it only touches classes nobody hit."""

PAIR_SCORES = (0.0, 0.5, 1.0, 1.5, 2.0)
"""Points an engine can take from a game pair, indexing the pentanomial counts."""


# -- Elo and friends --------------------------------------------------------

def elo_from_score(score: float) -> float:
    """Logistic Elo difference for a score fraction; +-inf at 1 and 0."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    """Expected score fraction of the side that is `elo` stronger."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def _mean_and_variance(values: Iterable[float], weights: Iterable[float]) -> tuple[float, float, float]:
    """(total weight, mean, population variance) of a weighted sample."""
    pairs = [(v, w) for v, w in zip(values, weights) if w > 0]
    total = sum(w for _, w in pairs)
    if total <= 0:
        return 0.0, 0.5, 0.0
    mean = sum(v * w for v, w in pairs) / total
    var = sum(w * (v - mean) ** 2 for v, w in pairs) / total
    return total, mean, var


def _interval(n: float, mean: float, var: float) -> tuple[float, float, float]:
    """(Elo, low, high) of a mean score with a 95% normal interval.

    When every sample is the same (4-0, all draws) the measured spread is zero
    and the normal interval would claim certainty; the Wilson interval of a
    proportion is used instead, which stays honest for small samples."""
    if n <= 0:
        return 0.0, -math.inf, math.inf
    if var <= 0:
        low, high = wilson_interval(mean, n)
        return elo_from_score(mean), elo_from_score(low), elo_from_score(high)
    half = Z95 * math.sqrt(var / n)
    return elo_from_score(mean), elo_from_score(mean - half), elo_from_score(mean + half)


def wilson_interval(p: float, n: float) -> tuple[float, float]:
    """95% Wilson score interval of a proportion p observed over n trials."""
    z2 = Z95 * Z95
    centre = p + z2 / (2 * n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return (centre - half) / (1 + z2 / n), (centre + half) / (1 + z2 / n)


def elo_interval(wins: int, draws: int, losses: int) -> tuple[float, float, float]:
    """(Elo, low, high) from game results, treating games as independent (trinomial)."""
    n, mean, var = _mean_and_variance((1.0, 0.5, 0.0), (wins, draws, losses))
    return _interval(n, mean, var)


def elo_interval_pentanomial(counts: list[int]) -> tuple[float, float, float]:
    """(Elo, low, high) from pentanomial pair counts (pairs are the independent unit)."""
    n, mean, var = _mean_and_variance([p / 2 for p in PAIR_SCORES], counts)
    return _interval(n, mean, var)


def los(wins: int, losses: int) -> float:
    """Likelihood of superiority: probability the first engine is the stronger, from W and L."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


# -- SPRT ------------------------------------------------------------------

def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """(lower, upper) LLR bounds: accept H0 at or below lower, H1 at or above upper."""
    if not (0 < alpha < 1 and 0 < beta < 1):
        raise ValueError(f"SPRT alpha and beta must be between 0 and 1, not {alpha} and {beta}")
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def _gsprt_llr(values: tuple[float, ...], counts: list[float], elo0: float, elo1: float) -> float:
    """Normal-approximation GSPRT log-likelihood ratio for samples in [0, 1]."""
    if sum(counts) <= 0:
        return 0.0
    regular = [c if c > 0 else PSEUDO_COUNT for c in counts]
    n, mean, var = _mean_and_variance(values, regular)
    if var <= 0:
        return 0.0
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)


def sprt_llr_trinomial(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """LLR of H1 (Elo elo1) against H0 (Elo elo0) from game results."""
    return _gsprt_llr((1.0, 0.5, 0.0), [wins, draws, losses], elo0, elo1)


def sprt_llr_pentanomial(counts: list[int], elo0: float, elo1: float) -> float:
    """LLR of H1 against H0 from pentanomial pair counts (index = pair points * 2)."""
    return _gsprt_llr(tuple(p / 2 for p in PAIR_SCORES), list(counts), elo0, elo1)


@dataclass(frozen=True)
class Sprt:
    """SPRT parameters: Elo of H0 and H1 (logistic), error rates alpha and beta."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if self.elo0 >= self.elo1:
            raise ValueError(f"SPRT needs elo0 < elo1, not {self.elo0} and {self.elo1}")
        sprt_bounds(self.alpha, self.beta)

    @property
    def bounds(self) -> tuple[float, float]:
        return sprt_bounds(self.alpha, self.beta)

    def decide(self, llr: float) -> str | None:
        """'H0', 'H1', or None while the test must go on."""
        lower, upper = self.bounds
        if llr >= upper:
            return "H1"
        if llr <= lower:
            return "H0"
        return None

    def to_json(self) -> dict[str, Any]:
        return {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta}


# -- per-record scoring ----------------------------------------------------

def side_names(record: GameRecord) -> tuple[str, str]:
    """(Dark engine name, Light engine name) of a record."""
    return str(record.dark["name"]), str(record.light["name"])


def dark_points(record: GameRecord) -> float:
    """Dark's game score: 1, 1/2 or 0."""
    return {"1-0": 1.0, "0-1": 0.0}.get(record.result, 0.5)


def points_of(record: GameRecord, name: str) -> float:
    """The named engine's score in the game."""
    dark, _ = side_names(record)
    score = dark_points(record)
    return score if name == dark else 1.0 - score


# -- tallies ---------------------------------------------------------------

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


def _tally_state(t: Tally) -> list[int]:
    return [t.wins, t.draws, t.losses]


def json_number(x: float) -> float | None:
    """A float for JSON: rounded, and None (null) for an infinity or NaN, which JSON cannot hold."""
    if math.isinf(x) or math.isnan(x):
        return None
    return round(x, 2) + 0.0   # + 0.0 turns -0.0 into 0.0


def format_elo(x: float) -> str:
    """'+12.3', '-4.0', '+inf'."""
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{round(x, 1) + 0.0:+.1f}"


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


# -- a head-to-head match --------------------------------------------------

@dataclass
class MatchStats:
    """Statistics of engine `first` against engine `second`, from `first`'s point of view."""

    first: str
    second: str
    sprt: Sprt | None = None
    _tally: Tally = field(default_factory=Tally)
    _open_pairs: dict[tuple[int | None, int], float] = field(default_factory=dict)
    _penta: list[int] = field(default_factory=lambda: [0] * 5)
    _paired: bool = False

    def add(self, record: GameRecord) -> None:
        """Count one game; O(1), so a long match stays cheap to report after every game."""
        self.count(points_of(record, self.first), record.round, record.pair)

    def count(self, points: float, round_: int | None, pair: int | None) -> None:
        """One game: the first engine's points, and the game pair it belongs to (None: unpaired).
        Only unfinished pairs are kept, so the memory does not grow with the match."""
        self._tally.add(points)
        if pair is None:
            return
        self._paired = True
        key = (round_, pair)
        if key in self._open_pairs:
            self._penta[int(round((self._open_pairs.pop(key) + points) * 2))] += 1
        else:
            self._open_pairs[key] = points

    def state(self) -> dict[str, Any]:
        """Counts and unfinished pairs, for a checkpoint."""
        return {"tally": _tally_state(self._tally), "penta": list(self._penta), "paired": self._paired,
                "open": [[r, p, v] for (r, p), v in self._open_pairs.items()]}

    def load_state(self, data: dict[str, Any]) -> None:
        self._tally = Tally(*data["tally"])
        self._penta = [int(x) for x in data["penta"]]
        self._paired = bool(data["paired"])
        self._open_pairs = {(r, p): float(v) for r, p, v in data["open"]}

    def tally(self) -> Tally:
        t = self._tally
        return Tally(t.wins, t.draws, t.losses)

    def pentanomial(self) -> list[int]:
        """Counts of the first engine's points (0, 1/2, 1, 3/2, 2) over complete game pairs."""
        return list(self._penta)

    def llr(self) -> float:
        """SPRT LLR: over complete game pairs in a paired match, else over games."""
        if self.sprt is None:
            return 0.0
        if self._paired:
            return sprt_llr_pentanomial(self._penta, self.sprt.elo0, self.sprt.elo1)
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

    def headline(self) -> str:
        """One line: 'A vs B: 5.5 - 4.5 [W3 D5 L2] Elo +34.9 (-150.1, +224.2) LOS 66%'."""
        t = self.tally()
        elo, lo, hi = elo_interval(t.wins, t.draws, t.losses)
        text = (f"{self.first} vs {self.second}: {_pts(t.points)} - {_pts(t.games - t.points)} "
                f"[W{t.wins} D{t.draws} L{t.losses}] Elo {format_elo(elo)} "
                f"({format_elo(lo)}, {format_elo(hi)}) LOS {100 * los(t.wins, t.losses):.0f}%")
        if self.sprt is not None:
            lower, upper = self.sprt.bounds
            text += f" LLR {self.llr():.2f} ({lower:.2f}, {upper:.2f})"
        return text


def _pts(points: float) -> str:
    return str(int(points)) if points == int(points) else f"{points:.1f}"


# -- whole-run summaries ---------------------------------------------------

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


def ranked(totals: dict[str, EngineTotals]) -> list[EngineTotals]:
    """Engines ordered by points, then by score fraction, then by name."""
    return sorted(totals.values(), key=lambda e: (-e.total.points, -e.total.score, e.name))


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
        lines.append(f"{rank:>4}  {row.name:<{width}}  {t.games:>5}  {_pts(t.points):>6}  "
                     f"{100 * t.score:>5.1f}%  {t.wins:>4} {t.draws:>4} {t.losses:>4}  "
                     f"{format_elo(elo):>7}  {interval:<17}  {dark:<11} {light}")
    return "\n".join(lines)
