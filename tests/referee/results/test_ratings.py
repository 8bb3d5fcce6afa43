"""Ratings against hand-computed maximum-likelihood values; crosstable and encounter statistics."""

from __future__ import annotations

import json
import math
import sys

import pytest

from referee.formats.record import dark_points
from referee.results import ratings
from referee.results.elo import Z95, elo_from_score
from referee.results.text import ratings_text
from tests.support.paths import BAD_ENGINES, REPO
from tests.support.records import record_json

pytest.importorskip("scipy")


def game(dark: str, light: str, result: str, pair: int | None = None, rnd: int | None = 1) -> dict:
    return record_json(dark, light, result, pair=pair, round_=rnd)


def results(dark: str, light: str, wins: int, draws: int, losses: int) -> list[dict]:
    return ([game(dark, light, "1-0")] * wins + [game(dark, light, "1/2-1/2")] * draws
            + [game(dark, light, "0-1")] * losses)


def by_name(fit: dict) -> dict[str, dict]:
    return {e["name"]: e for e in fit["engines"]}


def test_two_engines_match_the_closed_form():
    # A as Dark scores 7/10 (6 wins, 2 draws, 2 losses), B as Dark scores 6/10 (5 wins, 2 draws, 3 losses).
    records = results("A", "B", 6, 2, 2) + results("B", "A", 5, 2, 3)
    fit = ratings.fit_ratings(records, ["A", "B"])
    # d + W = elo(0.7), -d + W = elo(0.6): both cells are fitted exactly
    d = (elo_from_score(0.7) - elo_from_score(0.6)) / 2
    w = (elo_from_score(0.7) + elo_from_score(0.6)) / 2
    e = by_name(fit)
    assert e["A"]["elo"] == pytest.approx(d / 2, abs=0.02)
    assert e["B"]["elo"] == pytest.approx(-d / 2, abs=0.02)
    assert fit["first_move_advantage"]["elo"] == pytest.approx(w, abs=0.02)
    assert fit["method"] == "maximum likelihood"
    # variance of each cell's logit is 1 / (n p (1 - p)); R_A = (x1 - x2) / 4
    v1, v2 = 1 / (10 * 0.7 * 0.3), 1 / (10 * 0.6 * 0.4)
    half = Z95 * math.sqrt((v1 + v2) / 16) * 400 / math.log(10)
    assert e["A"]["high"] - e["A"]["elo"] == pytest.approx(half, abs=0.05)
    w_half = Z95 * math.sqrt((v1 + v2) / 4) * 400 / math.log(10)
    assert fit["first_move_advantage"]["high"] - w == pytest.approx(w_half, abs=0.05)


def test_named_anchor_sits_at_zero_and_moves_the_other():
    records = results("A", "B", 6, 2, 2) + results("B", "A", 5, 2, 3)
    fit = ratings.fit_ratings(records, ["A", "B"], anchor="B")
    d = (elo_from_score(0.7) - elo_from_score(0.6)) / 2
    e = by_name(fit)
    assert e["B"]["elo"] == 0 and e["B"]["low"] == 0 and e["B"]["high"] == 0
    assert e["A"]["elo"] == pytest.approx(d, abs=0.02)
    assert fit["anchor"] == "B"
    with pytest.raises(ValueError, match="not one of the engines"):
        ratings.fit_ratings(records, ["A", "B"], anchor="C")


def test_three_engines_satisfy_the_likelihood_equations():
    """At the maximum every engine's expected points equal its actual points, and so do Dark's."""
    records = (results("A", "B", 5, 3, 2) + results("B", "A", 4, 3, 3) + results("B", "C", 6, 2, 2)
               + results("C", "B", 3, 3, 4) + results("A", "C", 7, 2, 1) + results("C", "A", 2, 4, 4))
    fit = ratings.fit_ratings(records, ["A", "B", "C"])
    r = {e["name"]: e["elo"] for e in fit["engines"]}
    assert sum(r.values()) == pytest.approx(0.0, abs=0.05)
    w = fit["first_move_advantage"]["elo"]

    def expected(d: str, light: str) -> float:
        return 1 / (1 + 10 ** (-(r[d] - r[light] + w) / 400))
    for name in "ABC":
        actual = sum(dark_points(g["result"]) if g["dark"]["name"] == name else 1 - dark_points(g["result"])
                     for g in records if name in (g["dark"]["name"], g["light"]["name"]))
        model = sum(expected(g["dark"]["name"], g["light"]["name"]) if g["dark"]["name"] == name
                    else 1 - expected(g["dark"]["name"], g["light"]["name"])
                    for g in records if name in (g["dark"]["name"], g["light"]["name"]))
        assert model == pytest.approx(actual, abs=0.01)
    dark_actual = sum(dark_points(g["result"]) for g in records)
    dark_model = sum(expected(g["dark"]["name"], g["light"]["name"]) for g in records)
    assert dark_model == pytest.approx(dark_actual, abs=0.01)
    assert r["A"] > r["B"] > r["C"]


def test_a_perfect_score_stays_finite_and_says_why():
    records = results("A", "B", 4, 0, 0) + results("B", "A", 0, 0, 4)
    report = ratings.ratings_report(records, ["A", "B"])
    fit = report["ratings"]
    assert "virtual draw" in fit["method"]
    e = by_name(fit)
    assert 0 < e["A"]["elo"] < 1500 and e["A"]["low"] < e["A"]["elo"] < e["A"]["high"]
    text = json.dumps(report, allow_nan=False)      # raises on inf or NaN
    assert "\"+inf\"" not in text and "\"-inf\"" not in text


def test_engines_without_games_get_null():
    fit = ratings.fit_ratings(results("A", "B", 1, 1, 1), ["A", "B", "C"])
    assert by_name(fit)["C"]["elo"] is None and fit["engines"][-1]["name"] == "C"


def test_crosstable_and_pentanomial_per_encounter():
    records = [game("A", "B", "1-0", pair=0), game("B", "A", "1-0", pair=0),      # 1 point for A
               game("A", "B", "1-0", pair=1), game("B", "A", "0-1", pair=1),      # 2 points
               game("A", "C", "1/2-1/2", pair=2), game("C", "A", "1/2-1/2", pair=2),
               game("B", "C", "0-1", pair=3)]                                     # unfinished pair
    report = ratings.ratings_report(records, ["A", "B", "C"])
    table = report["crosstable"]
    assert table["A"]["B"] == {"games": 4, "points": 3.0}
    assert table["B"]["A"] == {"games": 4, "points": 1.0}
    assert table["C"]["B"] == {"games": 1, "points": 1.0}
    enc = {(e["first"], e["second"]): e for e in report["encounters"]}
    assert enc[("A", "B")]["pentanomial"] == [0, 0, 1, 0, 1]
    assert (enc[("A", "B")]["wins"], enc[("A", "B")]["draws"], enc[("A", "B")]["losses"]) == (3, 0, 1)
    assert enc[("A", "C")]["pentanomial"] == [0, 0, 1, 0, 0]
    assert enc[("B", "C")]["pairs"] == 0 and enc[("B", "C")]["pentanomial_elo"] is None
    text = ratings_text(report)
    assert "crosstable" in text and "3/4" in text and "[0, 0, 1, 0, 1]" in text


def test_tournament_summary_has_ratings_crosstable_and_no_infinities(tmp_path, monkeypatch, capsys):
    import os
    import sys

    from referee.cli import main

    monkeypatch.setenv("PYTHONPATH", str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    good = f"cmd={sys.executable} {BAD_ENGINES / 'good_random.py'}"
    cheat = f"cmd={sys.executable} {BAD_ENGINES / 'illegal_move.py'}"
    argv = ["tournament", "-engine", "name=r1", good, "option.Seed=1", "-engine", "name=r2", good,
            "option.Seed=2", "-engine", "name=cheat", cheat, "--game", "foundations", "--games", "2",
            "-each", "tc=10+0.1", "--anchor", "r1", "--out", str(tmp_path / "out"), "--json"]
    assert main(argv) == 0
    captured = capsys.readouterr()

    def refuse(constant: str) -> None:
        raise AssertionError(f"summary.json holds {constant}")
    summary = json.loads((tmp_path / "out" / "summary.json").read_text(), parse_constant=refuse)
    assert summary["ratings"]["anchor"] == "r1"
    rated = {e["name"]: e for e in summary["ratings"]["engines"]}
    assert rated["r1"]["elo"] == 0.0
    assert rated["cheat"]["elo"] < rated["r1"]["elo"]            # it forfeits every game
    assert summary["crosstable"]["r1"]["cheat"] == {"games": 2, "points": 2.0}
    assert len(summary["encounters"]) == 3
    assert all(isinstance(e["elo_low"], float) or e["elo_low"] is None for e in summary["engines"])
    assert "crosstable" in captured.err and "anchor: r1" in captured.err
    with pytest.raises(SystemExit) as exc:
        main(argv[:-4] + ["--anchor", "nobody", "--out", str(tmp_path / "other")])
    assert exc.value.code == 2


def test_equal_engines_and_a_light_advantage_are_plain_maximum_likelihood():
    """Every engine 2/4, Light won 4 of 6: ratings 0 and W = elo(1/3), no prior needed."""
    records = [game("a", "b", "0-1"), game("b", "a", "0-1"), game("a", "c", "0-1"), game("c", "a", "0-1"),
               game("b", "c", "1-0"), game("c", "b", "1-0")]
    fit = ratings.fit_ratings(records, ["a", "b", "c"])
    assert fit["method"] == "maximum likelihood"
    assert all(e["elo"] == pytest.approx(0.0, abs=0.01) for e in fit["engines"])
    assert fit["first_move_advantage"]["elo"] == pytest.approx(elo_from_score(1 / 3), abs=0.01)


def test_without_scipy_the_report_says_why_and_preload_stays_quiet(monkeypatch):
    # A None entry in sys.modules makes the import fail as a missing package would.
    monkeypatch.setitem(sys.modules, "scipy.optimize", None)
    ratings.preload()
    report = ratings.ratings_report(results("A", "B", 3, 0, 1), ["A", "B"])
    assert report["ratings"] is None
    assert "ratings need scipy" in report["ratings_error"]
    assert report["crosstable"]["A"]["B"]["points"] == 3
