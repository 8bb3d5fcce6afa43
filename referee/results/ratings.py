"""Ratings over all games of a run, a head-to-head crosstable and per-encounter game-pair statistics.

The rating model is the one Ordo fits: Bradley-Terry (logistic) with a first-move advantage,
where the expected score of Dark in a game between engines d and l is

    E = 1 / (1 + 10 ** (-(R_d - R_l + W) / 400))

and a draw counts as half a win and half a loss (the log-likelihood of a game scoring s for
Dark is ``s log E + (1 - s) log (1 - E)``). Ratings and W are the maximum-likelihood values
(scipy.optimize on the exact gradient and Hessian); the 95% intervals come from the inverse of
the observed information (the Hessian at the optimum). Ratings are relative, so one more
condition fixes them: the anchor (the average is 0, or a named engine is 0).

When the results are separable (an engine won or lost every game, or a group of engines beat
another group in every game) the maximum-likelihood ratings are infinite. Then, and only then,
one virtual draw per encounter and colour is added (half a game each way, the prior BayesElo
uses), which keeps every number finite; the result says so in ``method``.

Everything returned is plain data (dicts, lists, floats, None) for summary.json and the report.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .elo import PAIR_SCORES, Z95, elo_interval_pentanomial, json_number
from .tally import RunTally

Cells = dict[tuple[str, str], list[int]]
"""(Dark, Light) -> [Dark's wins, draws, Dark's losses]: everything the ratings read (RunTally.cells)."""

ELO_PER_NAT = 400.0 / math.log(10.0)
"""Elo points per natural-log unit of the logistic curve (the model works in natural units)."""

DIVERGED_ELO = 1500.0
"""A fitted difference beyond this means the plain maximum does not exist (separable results)."""

PRIOR_DRAWS = 1.0
"""Virtual draws per encounter (split over both colours) added only when results are separable."""


class RatingsUnavailable(Exception):
    """The ratings cannot be computed here (scipy is missing); said once, in plain words."""


@dataclass(frozen=True)
class Cell:
    """All games with one engine as Dark and another as Light: count and Dark's points."""

    dark: int
    light: int
    games: float
    dark_points: float


def _cells(cells: Cells, index: dict[str, int]) -> list[Cell]:
    out = []
    for (dark, light), (wins, draws, losses) in cells.items():
        if dark not in index or light not in index or dark == light:
            continue
        out.append(Cell(index[dark], index[light], wins + draws + losses, wins + draws / 2))
    return sorted(out, key=lambda c: (c.dark, c.light))


def tally_of(records: Iterable[dict[str, Any]], names: Sequence[str]) -> RunTally:
    """The counts of a list of records (for callers that hold records; a run keeps a RunTally)."""
    tally = RunTally(names)
    for record in records:
        tally.add(record)
    return tally


def _with_prior(cells: list[Cell]) -> list[Cell]:
    """Every encounter gets PRIOR_DRAWS virtual draws, half with each engine as Dark."""
    out = {(c.dark, c.light): [c.games, c.dark_points] for c in cells}
    pairs = {tuple(sorted((c.dark, c.light))) for c in cells}
    half = PRIOR_DRAWS / 2
    for a, b in pairs:
        for d, light in ((a, b), (b, a)):
            cell = out.setdefault((d, light), [0.0, 0.0])
            cell[0] += half
            cell[1] += half / 2
    return [Cell(d, light, n, s) for (d, light), (n, s) in sorted(out.items())]


def preload() -> None:
    """Import the fit's libraries now. A run's report fits ratings in a thread while games are played,
    and the first import of numpy and scipy (over 0.3 s; much longer from a cold disk) holds the GIL
    in places, which a game's clock would pay: a run (matches/runner.py) calls this before its first game."""
    try:
        _libraries()
    except RatingsUnavailable:
        pass   # said where the fit is asked for


def _libraries() -> tuple[Any, Any]:
    """(numpy, scipy.optimize.minimize), or RatingsUnavailable saying how to get them."""
    try:
        import numpy
        from scipy.optimize import minimize
    except ImportError:
        raise RatingsUnavailable("ratings need scipy, a dependency of isaac-arena (reinstall it: pip install isaac-arena)") from None
    return numpy, minimize


def _fit(cells: list[Cell], n: int) -> tuple[list[float], float, list[list[float]], bool]:
    """(ratings with engine 0 at 0, W, covariance of (r_1..r_{n-1}, W), converged) in natural units."""
    np, minimize = _libraries()
    dark = np.array([c.dark for c in cells], dtype=int)
    light = np.array([c.light for c in cells], dtype=int)
    games = np.array([c.games for c in cells])
    points = np.array([c.dark_points for c in cells])
    k = n  # parameters: r_1..r_{n-1} (r_0 = 0) and W last

    def design() -> Any:
        # x = r_dark - r_light + W as a linear map of the parameters
        m = np.zeros((len(cells), k))
        for row, (d, lt) in enumerate(zip(dark, light)):
            if d > 0:
                m[row, d - 1] += 1.0
            if lt > 0:
                m[row, lt - 1] -= 1.0
            m[row, k - 1] = 1.0
        return m

    a = design()

    def negloglik(theta: Any) -> float:
        x = a @ theta
        # log sigma(x) = -log(1 + e^-x), computed stably
        return float(np.sum(points * np.logaddexp(0.0, -x) + (games - points) * np.logaddexp(0.0, x)))

    def gradient(theta: Any) -> Any:
        x = a @ theta
        expected = games / (1.0 + np.exp(-x))
        return -(a.T @ (points - expected))

    def hessian(theta: Any) -> Any:
        x = a @ theta
        p = 1.0 / (1.0 + np.exp(-x))
        weight = games * p * (1.0 - p)
        return a.T @ (a * weight[:, None])

    result = minimize(negloglik, np.zeros(k), jac=gradient, hess=hessian, method="trust-exact",
                      options={"gtol": 1e-9, "maxiter": 500})
    theta = result.x
    # converged when the score equations hold (trust-exact may stop short of its own gtol and call
    # that a failure although the gradient is already negligible)
    converged = bool(np.max(np.abs(gradient(theta)), initial=0.0) < 1e-6 * (1.0 + float(np.sum(games))))
    ratings = [0.0] + [float(v) for v in theta[: k - 1]]
    info = hessian(theta)
    try:
        cov = np.linalg.inv(info)
        ok = bool(np.all(np.isfinite(cov)))
    except np.linalg.LinAlgError:
        cov, ok = np.full((k, k), np.nan), False
    return ratings, float(theta[k - 1]), cov.tolist(), converged and ok


def _transform(n: int, anchor: int | None) -> list[list[float]]:
    """Rows mapping (r_0..r_{n-1}) to the anchored ratings: average 0, or engine `anchor` at 0."""
    rows = []
    for i in range(n):
        if anchor is None:
            rows.append([(1.0 if j == i else 0.0) - 1.0 / n for j in range(n)])
        else:
            rows.append([(1.0 if j == i else 0.0) - (1.0 if j == anchor else 0.0) for j in range(n)])
    return rows


def _elo(value: float) -> float:
    return round(value * ELO_PER_NAT, 2) + 0.0


def fit_ratings(records: Sequence[dict[str, Any]], names: Sequence[str], anchor: str | None = None) -> dict[str, Any]:
    """Maximum-likelihood ratings of `names` from `records` (game record dicts); see fit_ratings_of."""
    return fit_ratings_of(tally_of(records, names).cells, names, anchor)


def fit_ratings_of(cells: Cells, names: Sequence[str], anchor: str | None = None) -> dict[str, Any]:
    """Maximum-likelihood ratings of `names` from the results per (Dark, Light), plain data.

    ``{"model", "method", "anchor", "first_move_advantage": {elo, low, high},
    "engines": [{name, elo, low, high, games, points}] (best first)}``; an engine without games
    has elo/low/high null. Raises ValueError for an anchor that is not one of the engines."""
    names = list(names)
    if anchor is not None and anchor not in names:
        raise ValueError(f"rating anchor {anchor!r} is not one of the engines ({', '.join(names)})")
    games = {n: 0 for n in names}
    points = {n: 0.0 for n in names}
    for (d, lt), (wins, draws, losses) in cells.items():
        n, s = wins + draws + losses, wins + draws / 2
        if d in games:
            games[d] += n
            points[d] += s
        if lt in games:
            games[lt] += n
            points[lt] += n - s
    played = [n for n in names if games[n]]
    out: dict[str, Any] = {
        "model": "Bradley-Terry (logistic Elo), draws as half points, first-move advantage W",
        "method": "maximum likelihood", "anchor": anchor if anchor is not None else "average 0",
        "first_move_advantage": {"elo": None, "low": None, "high": None}, "engines": [],
    }
    rated: dict[str, tuple[float, float, float]] = {}
    anchor_here = anchor if anchor in played else None
    if len(played) >= 2 and (anchor is None or anchor_here is not None):
        index = {name: i for i, name in enumerate(played)}
        fitted = _cells(cells, index)
        ratings, w, cov, ok = _fit(fitted, len(played))
        spread = max(abs(v) for v in [*ratings, w]) * ELO_PER_NAT
        if not ok or spread > DIVERGED_ELO:
            ratings, w, cov, ok = _fit(_with_prior(fitted), len(played))
            out["method"] = (f"maximum likelihood with {PRIOR_DRAWS:g} virtual draw per encounter "
                             "(the results are separable: plain maximum-likelihood ratings are infinite)")
        n = len(played)
        # covariance of (r_0..r_{n-1}, W) with r_0 fixed at 0 (zero row and column)
        full = [[0.0] * (n + 1) for _ in range(n + 1)]
        for i in range(n):
            for j in range(n):
                full[i + 1][j + 1] = cov[i][j]
        rows = _transform(n, index[anchor_here] if anchor_here is not None else None)
        for i, name in enumerate(played):
            value = sum(rows[i][j] * ratings[j] for j in range(n))
            var = sum(rows[i][a] * full[a][b] * rows[i][b] for a in range(n) for b in range(n))
            half = Z95 * math.sqrt(max(var, 0.0))
            rated[name] = (value, value - half, value + half)
        w_half = Z95 * math.sqrt(max(full[n][n], 0.0))
        out["first_move_advantage"] = {"elo": _elo(w), "low": _elo(w - w_half), "high": _elo(w + w_half)}
    elif len(played) == 1 and anchor in (None, played[0]):
        rated[played[0]] = (0.0, 0.0, 0.0)
    rows_out: list[dict[str, Any]] = []
    for name in names:
        elo = rated.get(name)
        rows_out.append({"name": name, "elo": None if elo is None else _elo(elo[0]),
                         "low": None if elo is None else _elo(elo[1]),
                         "high": None if elo is None else _elo(elo[2]),
                         "games": games[name], "points": points[name]})
    rows_out.sort(key=lambda e: (e["elo"] is None, -(e["elo"] or 0.0), -e["points"], e["name"]))
    out["engines"] = rows_out
    return out


# -- the crosstable and encounters -----------------------------------------------

def crosstable(records: Iterable[dict[str, Any]], names: Sequence[str]) -> dict[str, dict[str, dict[str, float]]]:
    """{row engine: {column engine: {"games", "points"}}}: the row engine's points against the column."""
    return crosstable_of(tally_of(records, names).cells, names)


def crosstable_of(cells: Cells, names: Sequence[str]) -> dict[str, dict[str, dict[str, float]]]:
    """The crosstable from the results per (Dark, Light)."""
    table: dict[str, dict[str, dict[str, float]]] = {a: {} for a in names}
    for (d, lt), (wins, draws, losses) in sorted(cells.items()):
        n, s = wins + draws + losses, wins + draws / 2
        for me, other, mine in ((d, lt, s), (lt, d, n - s)):
            if me in table:
                cell = table[me].setdefault(other, {"games": 0, "points": 0.0})
                cell["games"] += n
                cell["points"] += mine
    return table


def encounters(records: Sequence[dict[str, Any]], names: Sequence[str]) -> list[dict[str, Any]]:
    """One entry per pair of engines that met: results, pentanomial pair counts and pair-based Elo."""
    return encounters_of(tally_of(records, names), names)


def encounters_of(tally: RunTally, names: Sequence[str]) -> list[dict[str, Any]]:
    """The encounters of a run's tally, in the order of `names`."""
    out = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            ab, ba = tally.cells.get((a, b), [0, 0, 0]), tally.cells.get((b, a), [0, 0, 0])
            games = sum(ab) + sum(ba)
            if not games:
                continue
            wins, losses = ab[0] + ba[2], ab[2] + ba[0]
            draws = games - wins - losses
            met = tally.encounters.get((a, b))
            penta = list(met.penta) if met is not None else [0] * 5
            if met is None and (other := tally.encounters.get((b, a))) is not None:
                penta = list(reversed(other.penta))
            elo, low, high = elo_interval_pentanomial(penta) if sum(penta) else (math.nan,) * 3
            out.append({"first": a, "second": b, "games": games, "wins": wins, "draws": draws,
                        "losses": losses, "points": wins + draws / 2, "pentanomial": penta,
                        "pairs": sum(penta), "pair_scores": list(PAIR_SCORES),
                        "pentanomial_elo": json_number(elo), "pentanomial_elo_low": json_number(low),
                        "pentanomial_elo_high": json_number(high)})
    return out


def ratings_report(records: Sequence[dict[str, Any]], names: Sequence[str], anchor: str | None = None) -> dict[str, Any]:
    """Everything for a summary or report: ratings (or why there are none), crosstable, encounters."""
    return ratings_report_of(tally_of(records, names), names, anchor)


def ratings_report_of(tally: RunTally, names: Sequence[str], anchor: str | None = None) -> dict[str, Any]:
    """Everything for a summary or report from a run's tally: ratings (or why there are none),
    crosstable, encounters. Its cost depends on the number of engines, not of games."""
    try:
        ratings: dict[str, Any] | None = fit_ratings_of(tally.cells, names, anchor)
        error = None
    except RatingsUnavailable as exc:
        ratings, error = None, str(exc)
    report: dict[str, Any] = {"ratings": ratings, "crosstable": crosstable_of(tally.cells, names),
                              "encounters": encounters_of(tally, names)}
    if error is not None:
        report["ratings_error"] = error
    return report
